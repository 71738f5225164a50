// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's reading of real boots: fixtures are result channels captured
 * from TCG boots (tests/fixtures/, one file per boot). Checks what each boot showed,
 * that damaged reports are rejected whole, and that raw.csv rows round-trip.
 */
#define _GNU_SOURCE
#include "../../bench/rows/report.h"
#include "../../guest-image/record.h"
#include "../../bench/rows/row.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* A fixture's bytes with util.c's reader; NULL if it cannot be read. */
static char *read_fixture(const char *path, size_t *len)
{
	struct strbuf b = { 0 };

	if (slurp(path, &b) || !b.len) {
		sb_free(&b);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

static const char *dir = "tests/fixtures";

static void parse(const char *name, struct row *r, struct report_outcome *o,
		  struct strbuf *reads, size_t cut, int flip)
{
	char path[512];
	size_t len = 0;
	char *buf;
	struct strbuf traces = { 0 };

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf = read_fixture(path, &len);
	CHECK(buf != NULL);
	row_init(r);
	snprintf(r->boot_id, sizeof(r->boot_id), "t");
	if (!buf)
		return;
	if (flip >= 0 && (size_t)flip < len)
		buf[flip] ^= 0x20;
	report_parse(buf, cut ? cut : len, r, reads, &traces, o);
	sb_free(&traces);
	free(buf);
}

static void block_qemu64_waits(void)
{
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };

	parse("block-qemu64.result", &r, &o, &reads, 0, -1);
	CHECK(o.probe_complete && o.report_complete);
	CHECK(!strcmp(r.release, "6.1.192-crngbench-block"));
	/* O_NONBLOCK urandom read: EAGAIN (11) before the CRNG was ready */
	CHECK(reads.p && strstr(reads.p, "t,0,urandom-nb,") &&
	      strstr(reads.p, ",0,11,0,,,,\n"));
	/* the blocking read returned only once the CRNG was ready */
	CHECK(r.first_urandom_before_ready == 0);
	CHECK(r.crng_ready_censored == 0);
	CHECK(r.crng_ready_kmsg_ns > r.init_ns &&
	      r.crng_ready_poll_ns > r.init_ns);
	CHECK(r.first_urandom_end_ns >= r.crng_ready_poll_ns);
	CHECK(r.traced_reads > 0);
	CHECK(r.finish_ns > r.userspace_ns && r.userspace_ns > 0);
	sb_free(&reads);
}

static void legacy_qemu64_returns_early(void)
{
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };

	parse("legacy-qemu64.result", &r, &o, &reads, 0, -1);
	CHECK(o.probe_complete && o.report_complete);
	CHECK(!strcmp(r.release, "6.1.192-crngbench-legacy"));
	CHECK(r.first_urandom_before_ready == 1);
	CHECK(r.first_urandom_errno == 0);
	sb_free(&reads);
}

/*
 * early=child (icount, stock, -cpu qemu64, no counter): a child of PID 1
 * made the reads while PID 1 exec'd systemd; its records came in the
 * report segment and are read as PID 1's are: reads.csv rows in order, the
 * first urandom read from the child's record.
 */
static void child_reads_come_with_the_report(void)
{
	static const char *const ifaces[] = {
		"urandom", "urandom-nb", "getrandom-nb", "getrandom-insecure",
		"random",  "getrandom"
	};
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };

	parse("stock-qemu64-nocounter-child.result", &r, &o, &reads, 0, -1);
	CHECK(o.probe_complete && o.report_complete && !o.early_unfinished);
	for (size_t i = 0; i < sizeof(ifaces) / sizeof(ifaces[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "t,%zu,%s,", i, ifaces[i]);
		CHECK(reads.p && strstr(reads.p, want));
	}
	CHECK(r.first_urandom_end_ns == 236150012 + 25218);
	CHECK(r.first_urandom_dur_ns == 25218 && r.first_urandom_errno == 0);
	CHECK(r.first_urandom_censored == 0 &&
	      r.first_urandom_before_ready == 1);
	CHECK(!strcmp(r.urandom_digest, "ed0c99659dd47c6c"));
	/* PID 1 made no read of its own: its probe record says 0 ns */
	CHECK(r.init_ns == 231308694 && r.probe_overhead_ns == 170606);
	sb_free(&reads);
}

static void truncated_report_is_not_data(void)
{
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };
	size_t len = 0;
	char path[512];
	char *buf;

	snprintf(path, sizeof(path), "%s/block-qemu64.result", dir);
	buf = read_fixture(path, &len);
	free(buf);
	parse("block-qemu64.result", &r, &o, &reads, len - 10, -1);
	CHECK(o.probe_complete && !o.report_complete);
	CHECK(strstr(o.error, "truncated") != NULL);
	/* the report's measures are not taken from a torn segment */
	CHECK(r.crng_ready_kmsg_ns == -1 && r.finish_ns == -1 &&
	      r.crng_ready_censored == -1);
	sb_free(&reads);
}

static void garbled_report_is_not_data(void)
{
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };

	/* flip a byte well inside the report segment */
	parse("block-qemu64.result", &r, &o, &reads, 0, 1400);
	CHECK(!(o.probe_complete && o.report_complete));
	CHECK(o.error[0] != '\0');
	sb_free(&reads);
}

/*
 * Probe-only boots of block under TCG, no seed (tests/fixtures/block-*.result,
 * captured from crngbench-run): the kernel's jitter-trial line (patch 0005)
 * and the clocksource registration lines, as the probe read them from
 * /dev/kmsg, become the row's jitter_* and clocksource_hz columns.
 */
static int near(int64_t got, double want)
{
	return got > 0 && (double)got > want * 0.99 &&
	       (double)got < want * 1.01;
}

static void trial_gives_up_on_versatilepb_and_q800(void)
{
	static const struct {
		const char *file, *cs;
		double hz;
	} boots[] = {
		{ "block-versatilepb.result", "arm,sp804", 1e6 }, /* SP804 */
		{ "block-q800.result", "via1",
		  783360 }, /* VIA, quiet console */
	};

	for (size_t i = 0; i < sizeof(boots) / sizeof(boots[0]); i++) {
		struct row r;
		struct report_outcome o;
		struct strbuf reads = { 0 };

		parse(boots[i].file, &r, &o, &reads, 0, -1);
		CHECK(o.report_complete);
		CHECK(!strcmp(r.clocksource, boots[i].cs));
		CHECK(near(r.clocksource_hz, boots[i].hz));
		CHECK(r.jitter_max_per_bit == 6); /* HZ=100 */
		CHECK(r.jitter_per_bit > r.jitter_max_per_bit);
		CHECK(r.jitter_differed >= 0 && r.jitter_differed < 8191);
		CHECK(r.jitter_run_ns == -1 && r.jitter_skipped == -1);
		/* and the read it made wait was still waiting at its budget */
		CHECK(r.first_urandom_censored == 1);
		sb_free(&reads);
	}
}

static void trial_runs_on_malta_unless_the_knob_skips_it(void)
{
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };

	parse("block-malta.result", &r, &o, &reads, 0, -1);
	CHECK(o.report_complete && !strcmp(r.clocksource, "MIPS"));
	CHECK(near(r.clocksource_hz, 166.67e6)); /* CP0 count */
	CHECK(r.jitter_per_bit >= 1 &&
	      r.jitter_per_bit <= r.jitter_max_per_bit);
	/* the loop started before the CRNG was ready, and the read waited */
	CHECK(r.jitter_run_ns > 0 && r.jitter_run_ns < r.crng_ready_ns);
	CHECK(r.first_urandom_end_ns >= r.crng_ready_ns);
	sb_free(&reads);

	parse("block-malta-knob.result", &r, &o, &reads, 0, -1);
	CHECK(o.report_complete);
	CHECK(r.jitter_skipped == 1 && r.jitter_per_bit == -1 &&
	      r.jitter_run_ns == -1);
	sb_free(&reads);
}

/*
 * A segment called name as a guest would send it: recs[0] a record of
 * type first, the others of type rest; NULL if the writer refused one.
 */
static char *named_segment(const char *name, enum crb_type first,
			   enum crb_type rest, const char *const *recs, int n,
			   size_t *len)
{
	struct crb_writer w;
	struct strbuf b = { 0 };
	FILE *f = tmpfile();
	char buf[4096];
	size_t got;

	if (!f)
		return NULL;
	crb_begin(&w, fileno(f), name);
	for (int i = 0; i < n; i++)
		crb_emit(&w, i ? rest : first, "%s", recs[i]);
	crb_end(&w);
	rewind(f);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_append(&b, buf, got);
	fclose(f);
	if (w.error) {
		sb_free(&b);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

/* A probe segment: recs[0] of type first, the others of type rest. */
static char *typed_segment(enum crb_type first, enum crb_type rest,
			   const char *const *recs, int n, size_t *len)
{
	return named_segment("probe", first, rest, recs, n, len);
}

/* A read record (recs[0]), then meta records. */
static char *segment(const char *const *recs, int n, size_t *len)
{
	return typed_segment(CRB_read, CRB_meta, recs, n, len);
}

/* Read records only. */
static char *reads_segment(const char *const *recs, int n, size_t *len)
{
	return typed_segment(CRB_read, CRB_read, recs, n, len);
}

/* A probe segment of read records only; NULL if the writer refused one. */

/*
 * Each read's digest reaches its reads.csv row (empty where it has none),
 * the first iface=urandom read's reaches raw.csv (urandom_digest); an
 * unavailable read is status "unavailable" there, and the vDSO read's
 * ready_before/ready_after their columns (empty for the other reads).
 */
static void digests_reach_reads_and_raw(void)
{
	static const char *const recs[] = {
		"iface=urandom-nb start_ns=1 dur_ns=2 bytes=0 errno=11 timed_out=0",
		"iface=urandom start_ns=3 dur_ns=4 bytes=32 errno=0 timed_out=0 digest=00112233445566aa",
		"iface=urandom start_ns=5 dur_ns=6 bytes=32 errno=0 timed_out=0 digest=00112233445566bb",
		"iface=getrandom-vdso start_ns=7 dur_ns=0 bytes=0 errno=38 timed_out=0 status=unavailable why=none",
		"iface=getrandom-vdso start_ns=8 dur_ns=9 bytes=32 errno=0 timed_out=0 digest=00112233445566cc ready_before=0 ready_after=1",
	};
	static const char *const want[][5] = {
		/* digest, status, ready_before, ready_after, errno */
		{ "", "", "", "", "11" },
		{ "00112233445566aa", "", "", "", "0" },
		{ "00112233445566bb", "", "", "", "0" },
		{ "", "unavailable", "", "", "38" },
		{ "00112233445566cc", "", "0", "1", "0" },
	};
	struct strbuf reads = { 0 }, traces = { 0 };
	struct report_outcome o;
	struct row r;
	size_t len = 0;
	char *chan = reads_segment(recs, 5, &len), *line, *save = NULL;
	int i = 0;

	CHECK(chan != NULL);
	if (!chan)
		return;
	row_init(&r);
	snprintf(r.boot_id, sizeof(r.boot_id), "t");
	report_parse(chan, len, &r, &reads, &traces, &o);
	free(chan);
	CHECK(o.probe_complete && reads.p);
	CHECK(!strcmp(r.urandom_digest, "00112233445566aa"));
	CHECK(r.first_urandom_dur_ns == 4);
	for (line = reads.p ? strtok_r(reads.p, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		char *f[16];
		int nf = csv_split(line, f, 16);

		CHECK(nf == 12 && i < 5);
		if (nf != 12 || i >= 5)
			continue;
		CHECK(!strcmp(f[8], want[i][0]) && !strcmp(f[9], want[i][1]) &&
		      !strcmp(f[10], want[i][2]) &&
		      !strcmp(f[11], want[i][3]) && !strcmp(f[6], want[i][4]));
	}
	CHECK(i == 5);
	/* reads.csv's rows have the header's columns */
	CHECK(!strcmp(READS_HEADER + strlen(READS_HEADER) -
			      strlen("digest,status,ready_before,ready_after\n"),
		      "digest,status,ready_before,ready_after\n"));
	sb_free(&reads);
	sb_free(&traces);
}

/*
 * The fast pool's mixes (patch 0007's log, as the probe emits it): counted
 * with their credits, the first one's time and cause, and the moments the
 * credits first reached 64, 128 and 192 bits. A record that is no mix (a
 * negative or huge credit, a cause that is neither) is left out; a boot
 * without mixes keeps the columns empty (-1).
 */
static void mixes_reach_raw(void)
{
	static char recs[80][96];
	const char *p[80];
	struct strbuf reads = { 0 }, traces = { 0 };
	struct report_outcome o;
	struct row r;
	size_t len = 0;
	int n = 0;
	char *chan;

	/* 32-bit before the fix: the first mix at ~301 s, by time, 13 bits */
	snprintf(
		recs[n++], 96,
		"name=mix t_ns=301010000000 cpu=0 count=870 bits=13 by_time=1");
	for (int i = 1; i <= 60; i++)
		snprintf(
			recs[n++], 96,
			"name=mix t_ns=%d000000000 cpu=0 count=3 bits=1 by_time=1",
			301 + i);
	/* then 1024 interrupts: 16 bits at once */
	snprintf(
		recs[n++], 96,
		"name=mix t_ns=400000000000 cpu=0 count=1024 bits=16 by_time=0");
	/* not mixes */
	snprintf(recs[n++], 96,
		 "name=mix t_ns=401000000000 cpu=0 count=1 bits=-1 by_time=1");
	snprintf(
		recs[n++], 96,
		"name=mix t_ns=402000000000 cpu=0 count=1 bits=100000 by_time=1");
	snprintf(recs[n++], 96,
		 "name=mix t_ns=403000000000 cpu=0 count=1 bits=1 by_time=2");
	for (int i = 0; i < n; i++)
		p[i] = recs[i];
	chan = typed_segment(CRB_event, CRB_event, p, n, &len);
	CHECK(chan != NULL);
	if (!chan)
		return;
	row_init(&r);
	snprintf(r.boot_id, sizeof(r.boot_id), "t");
	CHECK(r.mix_n == -1 && r.mix_first_ns == -1);
	report_parse(chan, len, &r, &reads, &traces, &o);
	free(chan);
	CHECK(r.mix_n == 62);
	CHECK(r.mix_bits == 13 + 60 + 16);
	CHECK(r.mix_time_n == 61);
	CHECK(r.mix_first_ns == 301010000000 && r.mix_first_by_time == 1);
	/* 13 + 51 = 64 at the 51st one-bit mix (t = 352 s) */
	CHECK(r.mix_64_ns == 352000000000);
	/* 13 + 60 + 16 = 89: 128 and 192 never reached */
	CHECK(r.mix_128_ns == -1 && r.mix_192_ns == -1);
	sb_free(&reads);
	sb_free(&traces);
}

/*
 * Waiter records (crngbench_waiters=N: probe.c's waiters, sent by the
 * report) parsed for a boot of waiters=w: the report segment of recs
 * after its report event (every other record a waiter record); the row's
 * waiters_done and waiters_last_end_ns into done and last. complete 0:
 * the segment is sent as "probe", so no report arrived.
 */
static void waiters_of(const char *w, const char *const *recs, int n,
		       int complete, int64_t *done, int64_t *last)
{
	const char *all[16] = { "name=report t_ns=5000 started_ns=4000" };
	struct strbuf reads = { 0 }, traces = { 0 };
	struct report_outcome o;
	struct row r;
	size_t len = 0;
	char *chan;

	for (int i = 0; i < n && i < 15; i++)
		all[i + 1] = recs[i];
	chan = named_segment(complete ? "report" : "probe", CRB_event,
			     CRB_waiter, all, n + 1, &len);
	CHECK(chan != NULL);
	*done = *last = -2;
	if (!chan)
		return;
	row_init(&r);
	snprintf(r.boot_id, sizeof(r.boot_id), "t");
	if (w)
		r.axis[AX_waiters] = w;
	report_parse(chan, len, &r, &reads, &traces, &o);
	free(chan);
	*done = r.waiters_done;
	*last = r.waiters_last_end_ns;
	sb_free(&reads);
	sb_free(&traces);
}

/*
 * Of the guest's waiter records the runner takes only what a waiter of
 * the boot can say: i one of the cell's waiters, each once, ended after
 * its wait began, bytes returned (errno 0). The others are left out, so
 * a hostile guest cannot make more waiters done than there were, or
 * move the last one's time. A waiter without a record (still blocked at
 * the report) is not done; waiters=0, an older run's row (no value) and
 * a boot without a report keep the columns empty.
 */
static void waiter_records_reach_raw(void)
{
	static const char *const recs[] = {
		"i=0 end_ns=2000 dur_ns=1000 errno=0 bytes=16",
		"i=2 end_ns=3000 dur_ns=2500 errno=0 bytes=16",
		/* rejected: out of bounds, again, failed, impossible */
		"i=3 end_ns=9000 dur_ns=1000 errno=0 bytes=16",
		"i=-1 end_ns=9000 dur_ns=1000 errno=0 bytes=16",
		"i=7 end_ns=9000 dur_ns=1000 errno=0 bytes=16",
		"i=0 end_ns=9000 dur_ns=1000 errno=0 bytes=16",
		"i=1 end_ns=9000 dur_ns=1000 errno=4 bytes=0",
		"i=1 end_ns=9000 dur_ns=1000 errno=4 bytes=16",
		"i=1 end_ns=99999999999999999999 dur_ns=1000 errno=0 bytes=16",
		"i=1 end_ns=9000 dur_ns=9001 errno=0 bytes=16",
		"i=1 end_ns=-9000 dur_ns=0 errno=0 bytes=16",
		"i=1x end_ns=9000 dur_ns=1000 errno=0 bytes=16",
		"i=1 end_ns=9000 dur_ns=-1 errno=0 bytes=16",
	};
	const int n = (int)(sizeof(recs) / sizeof(recs[0]));
	int64_t done, last;

	waiters_of("3", recs, n, 1, &done, &last);
	CHECK(done == 2 && last == 3000);
	/* the one waiter of waiters=1: i=0 alone, its first record */
	waiters_of("1", recs, n, 1, &done, &last);
	CHECK(done == 1 && last == 2000);
	/* seven: i=3 is one of them now, i=7 still out of bounds */
	waiters_of("7", recs, n, 1, &done, &last);
	CHECK(done == 3 && last == 9000);
	/* none returned by the report: none done, no time */
	waiters_of("3", recs, 0, 1, &done, &last);
	CHECK(done == 0 && last == -1);
	/* waiters=0, no axis value, a bad one, no report: empty */
	waiters_of("0", recs, n, 1, &done, &last);
	CHECK(done == -1 && last == -1);
	waiters_of(NULL, recs, n, 1, &done, &last);
	CHECK(done == -1 && last == -1);
	waiters_of("03", recs, n, 1, &done, &last);
	CHECK(done == -1 && last == -1);
	waiters_of("3", recs, n, 0, &done, &last);
	CHECK(done == -1 && last == -1);
}

/*
 * A waiter's record comes only in the report segment (probe.c's waiters
 * write WAITER_FILE, which only the reporters send), with the bytes it
 * asked for: one in the probe segment, or in a segment of another name,
 * or one with bytes short, more or missing, is no waiter that returned.
 */
static void waiter_records_only_whole_and_in_the_report(void)
{
	static const char *const report[] = {
		"name=report t_ns=5000 started_ns=4000",
		"i=0 end_ns=2000 dur_ns=1000 errno=0 bytes=0",
		"i=1 end_ns=2000 dur_ns=1000 errno=0",
		"i=2 end_ns=2000 dur_ns=1000 errno=0 bytes=17",
	};
	static const char *const other[] = {
		"i=0 end_ns=3000 dur_ns=1000 errno=0 bytes=16",
		"i=1 end_ns=3000 dur_ns=1000 errno=0 bytes=16",
	};
	static const char *const seg[] = { "probe", "early", "extra" };
	struct strbuf reads = { 0 }, traces = { 0 };
	struct report_outcome o;
	struct row r;

	for (size_t s = 0; s < sizeof(seg) / sizeof(seg[0]); s++) {
		size_t la = 0, lb = 0;
		char *a = named_segment(seg[s], CRB_waiter, CRB_waiter, other,
					2, &la);
		char *b = named_segment("report", CRB_event, CRB_waiter, report,
					4, &lb);
		char *chan = a && b ? malloc(la + lb) : NULL;

		CHECK(chan != NULL);
		if (chan) {
			memcpy(chan, a, la);
			memcpy(chan + la, b, lb);
			row_init(&r);
			snprintf(r.boot_id, sizeof(r.boot_id), "t");
			r.axis[AX_waiters] = "3";
			report_parse(chan, la + lb, &r, &reads, &traces, &o);
			CHECK(o.report_complete);
			CHECK(r.waiters_done == 0 &&
			      r.waiters_last_end_ns == -1);
		}
		free(chan);
		free(a);
		free(b);
	}
	sb_free(&reads);
	sb_free(&traces);
}

/* A read without a digest (an older probe, or bytes=0) leaves raw.csv's
 * urandom_digest empty. */
static void no_digest_is_empty(void)
{
	struct row r;
	struct report_outcome o;
	struct strbuf reads = { 0 };

	parse("block-qemu64.result", &r, &o, &reads, 0, -1);
	CHECK(o.probe_complete && r.first_urandom_end_ns > 0);
	CHECK(r.urandom_digest[0] == '\0');
	CHECK(reads.p && strstr(reads.p, ",urandom,") &&
	      strstr(reads.p, ",0,0,,,,\n"));
	sb_free(&reads);
}

/*
 * Guest text of any length is one CSV field, whole and correctly quoted: a
 * doubled quote that lands at the end of what used to be a 512-byte buffer
 * must not eat the closing quote (the boot's rows would parse as one).
 * Guest text cut to fit a raw.csv column ends in "[cut]".
 */
static void guest_text_is_one_field_at_any_length(void)
{
	static const size_t quote_at[] = { 508, 509, 510, 511, 1000 };

	for (size_t i = 0; i < sizeof(quote_at) / sizeof(quote_at[0]); i++) {
		char iface[1400], esc[CRB_MAX_LINE], rec[CRB_MAX_LINE],
			rel[300], meta[CRB_MAX_LINE], line[4096], *fields[16];
		const char *recs[] = { rec, meta };
		struct strbuf reads = { 0 }, traces = { 0 };
		struct report_outcome o;
		struct row r;
		size_t len = 0;
		char *chan;
		int nf;

		memset(iface, 'a', sizeof(iface));
		iface[quote_at[i]] = '"';
		iface[sizeof(iface) - 1] = '\0';
		snprintf(rec, sizeof(rec),
			 "iface=%s start_ns=1 dur_ns=2 bytes=32 errno=0",
			 crb_escape(esc, sizeof(esc), iface));
		memset(rel, 'r', sizeof(rel) - 1);
		rel[sizeof(rel) - 1] = '\0';
		snprintf(meta, sizeof(meta), "key=release value=%s", rel);
		chan = segment(recs, 2, &len);
		CHECK(chan != NULL);
		if (!chan)
			return;
		row_init(&r);
		snprintf(r.boot_id, sizeof(r.boot_id), "t");
		report_parse(chan, len, &r, &reads, &traces, &o);
		free(chan);
		CHECK(o.probe_complete && reads.p && !reads.oom);
		if (!reads.p)
			return;
		CHECK(reads.len < sizeof(line) &&
		      strchr(reads.p, '\n') == reads.p + reads.len - 1);
		snprintf(line, sizeof(line), "%.*s", (int)reads.len - 1,
			 reads.p);
		nf = csv_split(line, fields, 16);
		CHECK(nf == 12);
		CHECK(nf == 12 && !strcmp(fields[2], iface) &&
		      !strcmp(fields[3], "1") && !strcmp(fields[4], "2"));
		/* release[96]: 90 bytes of it and the marker */
		CHECK(strlen(r.release) == sizeof(r.release) - 1 &&
		      !strcmp(r.release + sizeof(r.release) - 6, "[cut]") &&
		      !strncmp(r.release, rel, sizeof(r.release) - 6));
		sb_free(&reads);
		sb_free(&traces);
	}
}

/* A guest's control characters (ESC, BEL, TAB, a C1 CSI in UTF-8) never
 * reach reads.csv or raw.csv: a file a terminal or the chart tools read. */
static void guest_control_characters_are_not_written(void)
{
	const char *iface = "a\x1b[2J\x07"
			    "b\tc\xc2\x9b"
			    "d";
	char esc[CRB_MAX_LINE], rec[CRB_MAX_LINE], line[8192];
	const char *recs[] = { rec };
	struct strbuf reads = { 0 }, traces = { 0 };
	struct report_outcome o;
	struct row r;
	size_t len = 0;
	char *chan;
	int n;

	snprintf(rec, sizeof(rec),
		 "iface=%s start_ns=1 dur_ns=2 bytes=32 errno=0",
		 crb_escape(esc, sizeof(esc), iface));
	chan = segment(recs, 1, &len);
	CHECK(chan != NULL);
	if (!chan)
		return;
	row_init(&r);
	snprintf(r.boot_id, sizeof(r.boot_id), "t");
	report_parse(chan, len, &r, &reads, &traces, &o);
	free(chan);
	CHECK(reads.p && strstr(reads.p, ",a?[2J?b c?d,"));
	for (size_t i = 0; reads.p && i < reads.len; i++)
		CHECK(reads.p[i] == '\n' || control_len(reads.p + i) == 0);
	snprintf(r.reason, sizeof(r.reason), "panic: %s", iface);
	n = row_format(&r, line, sizeof(line));
	CHECK(n > 0 && strstr(line, ",panic: a?[2J?b c?d,"));
	for (int i = 0; i < n; i++)
		CHECK(line[i] == '\n' || control_len(line + i) == 0);
	sb_free(&reads);
	sb_free(&traces);
}

static void row_round_trip(void)
{
	struct row a, b;
	char line[8192], header[8192], value[AX_N][16];
	FILE *h = tmpfile();
	int n;

	row_init(&a);
	snprintf(a.boot_id, sizeof(a.boot_id), "c3-r1");
	a.run_index = 9;
	a.cell = 3;
	a.rep = 1;
	for (int i = 0; i < AX_N; i++) {
		snprintf(value[i], sizeof(value[i]), "v%d", i);
		a.axis[i] = value[i];
	}
	a.axis[AX_cpu] = "max,-rdrand";
	snprintf(a.status, sizeof(a.status), "censored");
	snprintf(a.reason, sizeof(a.reason),
		 "not ready after 20 s (last: \"reading\")");
	a.crng_ready_censored = 1;
	a.init_ns = 1234567890123LL;
	n = row_format(&a, line, sizeof(line));
	CHECK(n > 0 && line[n - 1] == '\n');
	if (n <= 0)
		return;
	line[n - 1] = '\0';
	CHECK(h != NULL);
	if (!h)
		return;
	row_write_header(h);
	rewind(h);
	CHECK(fgets(header, sizeof(header), h) != NULL);
	fclose(h);
	header[strcspn(header, "\n")] = '\0';
	CHECK(row_parse(line, header, &b) == 0);
	CHECK(!strcmp(b.boot_id, "c3-r1") && b.run_index == 9 && b.cell == 3 &&
	      b.rep == 1);
	CHECK(!strcmp(b.axis[AX_cpu], "max,-rdrand"));
	CHECK(!strcmp(b.reason, a.reason));
	CHECK(b.init_ns == a.init_ns && b.crng_ready_censored == 1 &&
	      b.finish_ns == -1);
	CHECK(row_parse("c1,2", header, &b) == -1); /* wrong field count */
	/* an axis value as long as a matrix's may be, and one byte longer */
	{
		char longv[MAX_VALUE_LEN + 1], why[200];

		memset(longv, 'x', MAX_VALUE_LEN - 1);
		longv[MAX_VALUE_LEN - 1] = '\0';
		a.axis[AX_cpu] = longv;
		n = row_format(&a, line, sizeof(line));
		CHECK(n > 0);
		line[n > 0 ? n - 1 : 0] = '\0';
		CHECK(row_parse(line, header, &b) == 0 &&
		      !strcmp(b.axis[AX_cpu], longv));
		longv[MAX_VALUE_LEN - 1] = 'x';
		longv[MAX_VALUE_LEN] = '\0';
		n = row_format(&a, line, sizeof(line));
		CHECK(n > 0);
		line[n > 0 ? n - 1 : 0] = '\0';
		CHECK(row_parse_why(line, header, &b, why, sizeof(why)) == -1 &&
		      strstr(why, "column cpu: a value of 96 bytes") != NULL);
	}
}

/*
 * raw.csv's urandom_digest: written and read back; empty, or missing from
 * an older run's header, is no digest; anything but 16 lowercase hex
 * digits is no row, and the reason names the column.
 */
static void row_digest_column(void)
{
	static const char *const bad[] = {
		"0123456789abcde",   "0123456789abcdef0",
		"0123456789ABCDEF",  "0123456789abcdeg",
		"%30123456789abcde", "\"0123456789abcdef\"\"",
		" 0123456789abcdef",
	};
	struct row a, b;
	char line[8192], header[8192], edited[8300], why[200], *comma;
	FILE *h = tmpfile();
	int n;

	row_init(&a);
	snprintf(a.boot_id, sizeof(a.boot_id), "c0-r0");
	snprintf(a.status, sizeof(a.status), "ok");
	snprintf(a.urandom_digest, sizeof(a.urandom_digest),
		 "0123456789abcdef");
	n = row_format(&a, line, sizeof(line));
	CHECK(n > 0 && h != NULL);
	if (n <= 0 || !h)
		return;
	line[n - 1] = '\0';
	row_write_header(h);
	rewind(h);
	CHECK(fgets(header, sizeof(header), h) != NULL);
	fclose(h);
	header[strcspn(header, "\n")] = '\0';
	CHECK(!strcmp(strrchr(header, ','), ",urandom_digest"));
	CHECK(row_parse(line, header, &b) == 0 &&
	      !strcmp(b.urandom_digest, "0123456789abcdef"));
	/* an older run: no such column */
	comma = strrchr(line, ',');
	*comma = '\0';
	*strrchr(header, ',') = '\0';
	CHECK(row_parse(line, header, &b) == 0 && b.urandom_digest[0] == '\0');
	/* empty */
	snprintf(header + strlen(header), 20, ",urandom_digest");
	snprintf(edited, sizeof(edited), "%s,", line);
	CHECK(row_parse(edited, header, &b) == 0 &&
	      b.urandom_digest[0] == '\0');
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(edited, sizeof(edited), "%s,%s", line, bad[i]);
		CHECK(row_parse_why(edited, header, &b, why, sizeof(why)) ==
			      -1 &&
		      strstr(why, "urandom_digest") != NULL);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	TEST(block_qemu64_waits);
	TEST(legacy_qemu64_returns_early);
	TEST(child_reads_come_with_the_report);
	TEST(truncated_report_is_not_data);
	TEST(garbled_report_is_not_data);
	TEST(trial_gives_up_on_versatilepb_and_q800);
	TEST(trial_runs_on_malta_unless_the_knob_skips_it);
	TEST(guest_text_is_one_field_at_any_length);
	TEST(guest_control_characters_are_not_written);
	TEST(row_round_trip);
	TEST(digests_reach_reads_and_raw);
	TEST(no_digest_is_empty);
	TEST(row_digest_column);
	TEST(mixes_reach_raw);
	TEST(waiter_records_reach_raw);
	TEST(waiter_records_only_whole_and_in_the_report);
	return check_any_failed;
}
