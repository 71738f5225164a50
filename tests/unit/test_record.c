// SPDX-License-Identifier: GPL-2.0
/* The record writer and reader of guest-image/record.h. */
#define _GNU_SOURCE
#include "../../guest-image/record.h"
#include "check.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write segments through a pipe-less memfd, return the bytes. */
static char *capture_segment(size_t *len, void (*fill)(struct crb_writer *))
{
	FILE *tmp = tmpfile();
	struct crb_writer w;
	char *buf;
	long n;

	if (!tmp)
		return NULL;
	crb_begin(&w, fileno(tmp), "probe");
	fill(&w);
	crb_end(&w);
	n = ftell(tmp) >= 0 ? lseek(fileno(tmp), 0, SEEK_END) : -1;
	if (n < 0)
		return NULL;
	buf = malloc((size_t)n + 1);
	if (!buf || pread(fileno(tmp), buf, (size_t)n, 0) != n)
		return NULL;
	buf[n] = '\0';
	fclose(tmp);
	*len = (size_t)n;
	return buf;
}

static char freetext[CRB_MAX_VALUE];

static void fill_all(struct crb_writer *w)
{
	char esc[CRB_MAX_LINE];

	crb_emit(w, CRB_meta, "key=cmdline value=%s",
		 crb_escape(esc, sizeof(esc), freetext));
	crb_emit(
		w, CRB_probe,
		"start_ns=1 start_mono_ns=2 exec_ns=3 reads_ns=4 overhead_ns=%" PRId64,
		INT64_MAX);
	crb_emit(w, CRB_reading, "iface=urandom start_ns=5");
	crb_emit(
		w, CRB_read,
		"iface=urandom start_ns=5 dur_ns=6 bytes=32 errno=0 timed_out=0");
	crb_emit(w, CRB_ready, "src=kmsg t_ns=7 printk_ns=8");
	crb_emit(w, CRB_trace,
		 "comm=%s pid=1 func=urandom_read_iter start_ns=9 dur_ns=10",
		 crb_escape(esc, sizeof(esc), "kworker/u2:1 x=y"));
	crb_emit(w, CRB_event, "name=game-seeded t_ns=11");
	crb_emit(w, CRB_systemd, "userspace_ns=12 finish_ns=13");
	crb_emit(w, CRB_fail, "what=nothing errno=0");
}

struct seen {
	int records, segments, complete;
	struct crb_record rec[16];
	char error[256];
};

static int on_rec(void *ctx, const char *seg, const struct crb_record *r)
{
	struct seen *s = ctx;

	(void)seg;
	if (s->records < 16)
		s->rec[s->records] = *r;
	s->records++;
	return 0;
}

static int on_seg(void *ctx, const struct crb_segment_info *i)
{
	struct seen *s = ctx;

	s->segments++;
	s->complete += i->complete;
	if (!i->complete)
		snprintf(s->error, sizeof(s->error), "%s", i->error);
	return 0;
}

static void round_trip_every_field(void)
{
	struct seen s = { 0 };
	size_t len;
	char *buf;
	int64_t v;

	/* Every byte value that can appear in free text, escaped and back. */
	for (int i = 0; i < 255; i++)
		freetext[i] = (char)(i + 1);
	freetext[255] = '\0';
	buf = capture_segment(&len, fill_all);
	CHECK(buf != NULL);
	CHECK(crb_read_stream(buf, len, on_rec, on_seg, &s) == 1);
	CHECK(s.complete == 1 && s.records == 9);
	CHECK(s.rec[0].type == CRB_meta &&
	      !strcmp(crb_get(&s.rec[0], "value"), freetext));
	CHECK(crb_get_i64(&s.rec[1], "overhead_ns", &v) == 0 && v == INT64_MAX);
	CHECK(crb_get_i64(&s.rec[1], "start_ns", &v) == 0 && v == 1);
	CHECK(s.rec[3].type == CRB_read &&
	      !strcmp(crb_get(&s.rec[3], "iface"), "urandom"));
	CHECK(crb_get_i64(&s.rec[3], "bytes", &v) == 0 && v == 32);
	CHECK(!strcmp(crb_get(&s.rec[5], "comm"), "kworker/u2:1 x=y"));
	CHECK(crb_get_i64(&s.rec[7], "finish_ns", &v) == 0 && v == 13);
	CHECK(crb_get(&s.rec[3], "nokey") == NULL);
	free(buf);
}

static void truncation_rejected(void)
{
	size_t len;
	char *buf = capture_segment(&len, fill_all);

	/* Every proper prefix is incomplete and yields no records at all. */
	for (size_t cut = 0; buf && cut < len; cut++) {
		struct seen s = { 0 };

		CHECK(crb_read_stream(buf, cut, on_rec, on_seg, &s) == 0);
		CHECK(s.records == 0);
	}
	free(buf);
}

static void corruption_rejected(void)
{
	size_t len;
	char *buf = capture_segment(&len, fill_all);

	/* Flip each byte of the body in turn: never accepted as is. A flip
	 * inside the header line may just make it not a header (ignored). */
	for (size_t i = 0; buf && i < len - 1; i++) {
		struct seen s = { 0 };
		char saved = buf[i];

		buf[i] ^= 0x01;
		crb_read_stream(buf, len, on_rec, on_seg, &s);
		CHECK(s.complete == 0 || buf[i] == '\n');
		CHECK(s.complete == 0 ? s.records == 0 : 1);
		buf[i] = saved;
	}
	free(buf);
}

static void unknown_version_rejected(void)
{
	const char *v2 =
		"crngbench/2 seg=probe\nevent name=x t_ns=1\nend n=1 crc=00000000\n";
	struct seen s = { 0 };

	CHECK(crb_read_stream(v2, strlen(v2), on_rec, on_seg, &s) == 0);
	CHECK(s.records == 0 && s.segments == 1);
	CHECK(strstr(s.error, "version 2") != NULL);
}

static void malformed_lines_rejected(void)
{
	static const char *const bad[] = {
		"", /* no type */
		"bogus key=1", /* unknown type */
		"read iface=urandom", /* missing keys */
		"event name=x t_ns=1 t_ns=2", /* duplicate key */
		"event name= t_ns=1", /* empty value */
		"event name=a b t_ns=1", /* stray word */
		"event Name=x t_ns=1", /* bad key character */
		"event name=%4 t_ns=1", /* short escape */
		"event name=%zz t_ns=1", /* bad escape */
		"event  name=x t_ns=1", /* double space */
		"event name=x t_ns=1 ", /* trailing space */
	};
	struct crb_record r;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK(crb_parse_line(bad[i], strlen(bad[i]), &r, err,
				     sizeof(err)) == -1);
		CHECK(err[0] != '\0');
	}
	CHECK(crb_parse_line("event name=x t_ns=1", 19, &r, err, sizeof(err)) ==
	      0);
}

static void fill_digests(struct crb_writer *w)
{
	crb_emit(
		w, CRB_read,
		"iface=urandom start_ns=5 dur_ns=6 bytes=32 errno=0 timed_out=0 digest=0123456789abcdef");
	crb_emit(
		w, CRB_read,
		"iface=getrandom-vdso start_ns=7 dur_ns=0 bytes=0 errno=38 timed_out=0 status=unavailable why=no%%20vDSO");
	crb_emit(
		w, CRB_event,
		"name=game-seeded t_ns=9 start_ns=8 dur_ns=1 bytes=8 errno=0 timed_out=0 digest=fedcba9876543210");
}

/* A digest and an "unavailable" read, written and read back as they were. */
static void digest_and_status_round_trip(void)
{
	struct seen s = { 0 };
	size_t len;
	char *buf = capture_segment(&len, fill_digests);

	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK(crb_read_stream(buf, len, on_rec, on_seg, &s) == 1);
	CHECK(s.complete == 1 && s.records == 3);
	CHECK(!strcmp(crb_get(&s.rec[0], "digest"), "0123456789abcdef"));
	CHECK(crb_get(&s.rec[0], "status") == NULL);
	CHECK(!strcmp(crb_get(&s.rec[1], "status"), "unavailable") &&
	      !strcmp(crb_get(&s.rec[1], "why"), "no vDSO") &&
	      crb_get(&s.rec[1], "digest") == NULL);
	CHECK(!strcmp(crb_get(&s.rec[2], "digest"), "fedcba9876543210"));
	free(buf);
}

/*
 * A digest is 16 lowercase hex digits, written plain; a status is
 * "unavailable". Anything else makes the record, and so its segment, no
 * data: what a hostile or broken guest sends is refused, not passed on.
 */
static void hostile_digest_and_status_rejected(void)
{
	static const char *const bad[] = {
		"digest=0123456789abcde", /* 15 */
		"digest=0123456789abcdef0", /* 17 */
		"digest=0123456789ABCDEF", /* uppercase */
		"digest=0123456789abcdeg", /* not hex */
		"digest=%30123456789abcdef", /* %-encoded, 16 when decoded */
		"digest=0123456789abcd%0A", /* %-encoded junk */
		"digest=-123456789abcdef", /* a sign */
		"status=failed",
		"status=Unavailable",
		"status=unavailable%20",
		"status=unavailabl",
	};
	static const char *const good =
		"iface=urandom start_ns=1 dur_ns=2 bytes=32 errno=0 timed_out=0";
	struct crb_record r;
	char line[256], err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *key = bad[i][0] == 'd' ? "digest" : "status";
		char seg[512];
		struct seen s = { 0 };
		struct crb_writer w;
		FILE *tmp = tmpfile();

		snprintf(line, sizeof(line), "read %s %s", good, bad[i]);
		err[0] = '\0';
		CHECK(crb_parse_line(line, strlen(line), &r, err,
				     sizeof(err)) == -1);
		CHECK(strstr(err, key) != NULL); /* the message names it */
		/* the writer cannot send it either */
		CHECK(tmp != NULL);
		if (!tmp)
			continue;
		crb_begin(&w, fileno(tmp), "probe");
		CHECK(crb_emit(&w, CRB_read, "%s", line + 5) == -1);
		fclose(tmp);
		/* sent anyway, with a valid count and CRC: no data */
		snprintf(seg, sizeof(seg), "crngbench/1 seg=probe\n%s\n", line);
		snprintf(seg + strlen(seg), sizeof(seg) - strlen(seg),
			 "end n=1 crc=%08x\n",
			 (unsigned int)crb_crc32(0, seg, strlen(seg)));
		CHECK(crb_read_stream(seg, strlen(seg), on_rec, on_seg, &s) ==
		      0);
		CHECK(s.records == 0 && strstr(s.error, key) != NULL);
	}
	snprintf(line, sizeof(line), "read %s digest=0123456789abcdef", good);
	CHECK(crb_parse_line(line, strlen(line), &r, err, sizeof(err)) == 0);
	snprintf(line, sizeof(line), "read %s status=unavailable", good);
	CHECK(crb_parse_line(line, strlen(line), &r, err, sizeof(err)) == 0);
}

static void writer_refuses_invalid(void)
{
	struct crb_writer w;
	FILE *tmp = tmpfile();

	CHECK(tmp != NULL);
	if (!tmp)
		return;
	crb_begin(&w, fileno(tmp), "x");
	CHECK(crb_emit(&w, CRB_read, "iface=urandom") == -1); /* missing keys */
	CHECK(w.error != 0);
	fclose(tmp);
}

static void segments_independent(void)
{
	size_t len;
	char *one = capture_segment(&len, fill_all), *two;
	struct seen s = { 0 };

	two = malloc(3 * len + 32);
	CHECK(one && two);
	if (!one || !two)
		return;
	/* good, truncated, good: the torn one is dropped, the others stand. */
	memcpy(two, one, len);
	memcpy(two + len, one, len / 2);
	memcpy(two + len + len / 2, one, len);
	CHECK(crb_read_stream(two, 2 * len + len / 2, on_rec, on_seg, &s) == 2);
	CHECK(s.segments == 3 && s.complete == 2 && s.records == 18);
	free(one);
	free(two);
}

/*
 * Buffering: nothing reaches the fd before crb_flush/crb_end, a flush
 * writes what was emitted, a full buffer goes out by whole lines, and a
 * failing fd is reported, not lost.
 */
static void writer_buffers_until_flush(void)
{
	struct crb_writer w;
	char big[1200], buf[CRB_WRITE_BUF * 4];
	int fds[2];
	ssize_t n;

	CHECK(pipe(fds) == 0);
	CHECK(crb_begin(&w, fds[1], "probe") == 0);
	CHECK(crb_emit(&w, CRB_reading, "iface=urandom start_ns=1") == 0);
	CHECK(w.len > 0);
	CHECK(crb_flush(&w) == 0 && w.len == 0);
	n = read(fds[0], buf, sizeof(buf) - 1);
	CHECK(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(!strcmp(buf, "crngbench/1 seg=probe\n"
			   "reading iface=urandom start_ns=1\n"));

	/* Four ~1.2 KB lines overflow the 4 KiB buffer: one write of 3 lines. */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < 4; i++)
		CHECK(crb_emit(&w, CRB_meta, "key=k value=%s", big) == 0);
	n = read(fds[0], buf, sizeof(buf));
	CHECK(n > 0 &&
	      n % (ssize_t)(strlen("meta key=k value=") + sizeof(big)) == 0);
	CHECK(n / (ssize_t)(strlen("meta key=k value=") + sizeof(big)) == 3);
	CHECK(crb_end(&w) == 0 && w.len == 0);
	close(fds[0]);

	/* Reader gone: the flush fails with EPIPE and the writer says so. */
	signal(SIGPIPE, SIG_IGN);
	CHECK(crb_emit(&w, CRB_meta, "key=k value=v") == 0); /* buffered */
	CHECK(crb_flush(&w) == -1 && w.error == EPIPE);
	CHECK(crb_end(&w) == -1);
	close(fds[1]);
}

static void crc_matches_zlib(void)
{
	/* The standard check value of CRC-32/ISO-HDLC. */
	CHECK(crb_crc32(0, "123456789", 9) == 0xcbf43926u);
}

/*
 * crngbench_waiters' value, for the probe and the runner's axis alike:
 * one digit from 0 to CRB_MAX_WAITERS, nothing else.
 */
static void waiters_value(void)
{
	static const char *const bad[] = { "8",	 "9",  "-1", "x",  "",	"03",
					   " 3", "3 ", "+3", "10", "3x" };
	char v[2] = "0";

	for (int i = 0; i <= CRB_MAX_WAITERS; i++) {
		v[0] = (char)('0' + i);
		CHECK(crb_waiters(v) == i);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(crb_waiters(bad[i]) == -1);
}

/* A waiter record needs its keys; any other is refused whole. */
static void waiter_record_keys(void)
{
	struct crb_record r;
	char err[256];
	const char ok[] = "waiter i=2 end_ns=3000 dur_ns=2500 errno=0 bytes=16";
	const char no_i[] = "waiter end_ns=3000 dur_ns=2500 errno=0";
	const char no_end[] = "waiter i=2 dur_ns=2500 errno=0";

	CHECK(!crb_parse_line(ok, strlen(ok), &r, err, sizeof(err)) &&
	      r.type == CRB_waiter && !strcmp(crb_get(&r, "i"), "2"));
	CHECK(crb_parse_line(no_i, strlen(no_i), &r, err, sizeof(err)) &&
	      strstr(err, "i"));
	CHECK(crb_parse_line(no_end, strlen(no_end), &r, err, sizeof(err)) &&
	      strstr(err, "end_ns"));
}

/*
 * The one integer rule (every reader's: record values, raw.csv, matrix
 * settings): a value strtoll took ('+5', ' 5') is refused; a header's
 * version is its digits only (sscanf's %d took "+1" and " 1").
 */
static void integers_by_the_one_rule(void)
{
	static const char *const bad[] = { "+5",
					   " 5",
					   "5 ",
					   "",
					   "-",
					   "0x10",
					   "1e3",
					   "5abc",
					   "--5",
					   "99999999999999999999",
					   "9223372036854775808" };
	const char *ok_line = "event name=x t_ns=-12";
	struct crb_record r;
	char err[256], line[64];
	int64_t v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(crb_parse_i64(bad[i], &v) == -1);
	CHECK(crb_parse_i64("9223372036854775807", &v) == 0 && v == INT64_MAX);
	CHECK(crb_parse_i64("-9223372036854775808", &v) == 0 && v == INT64_MIN);
	CHECK(crb_parse_i64("007", &v) == 0 && v == 7);
	CHECK(crb_parse_line(ok_line, strlen(ok_line), &r, err, sizeof(err)) ==
		      0 &&
	      crb_get_i64(&r, "t_ns", &v) == 0 && v == -12);
	snprintf(line, sizeof(line), "event name=x t_ns=+12");
	CHECK(crb_parse_line(line, strlen(line), &r, err, sizeof(err)) != 0 ||
	      crb_get_i64(&r, "t_ns", &v) == -1);
	CHECK(crb_parse_header("crngbench/1 seg=probe", 21, line, sizeof(line),
			       err, sizeof(err)) == 0);
	CHECK(crb_parse_header("crngbench/+1 seg=probe", 22, line, sizeof(line),
			       err, sizeof(err)) == -1);
	CHECK(crb_parse_header("crngbench/ 1 seg=probe", 22, line, sizeof(line),
			       err, sizeof(err)) == -1);
	CHECK(crb_parse_header("crngbench/01 seg=probe", 22, line, sizeof(line),
			       err, sizeof(err)) == -1);
}

int main(void)
{
	TEST(crc_matches_zlib);
	TEST(integers_by_the_one_rule);
	TEST(round_trip_every_field);
	TEST(digest_and_status_round_trip);
	TEST(hostile_digest_and_status_rejected);
	TEST(truncation_rejected);
	TEST(corruption_rejected);
	TEST(unknown_version_rejected);
	TEST(malformed_lines_rejected);
	TEST(writer_refuses_invalid);
	TEST(segments_independent);
	TEST(writer_buffers_until_flush);
	TEST(waiters_value);
	TEST(waiter_record_keys);
	return check_any_failed;
}
