// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "report.h"
#include "../../guest-image/record.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ctx {
	struct row *r;
	struct strbuf *reads, *traces;
	struct report_outcome *out;
	int seq;
	int64_t ready_poll, ready_kmsg, report_t;
	int urandom_timed_out;
	/* the last reading record without its read record: a read still
	 * going when the records were sent (early=child's, at the report) */
	char reading[64];
	int64_t reading_start;
	/* clocksource registrations seen in the guest's kernel log */
	struct {
		char name[32];
		int64_t max_cycles, max_idle_ns;
	} cs[8];
	int ncs;
	/* waiters=N: the waiters whose record came (bit i: waiter i), and
	 * the last of their ends */
	unsigned int waiters_seen;
	int64_t waiters_last;
};

/*
 * A clocksource's rate from its registration line: clocks_calc_max_nsecs()
 * (kernel/time/clocksource.c) logs half the ns that max_cycles take at the
 * slowest adjusted rate, mult less 11% (clocksource_max_adjustment()), so
 * rate = max_cycles / (2 * max_idle_ns) * 0.89, to the rounding of mult.
 */
static int64_t clocksource_hz(const struct ctx *c, const char *name)
{
	for (int i = 0; i < c->ncs; i++)
		if (!strcmp(c->cs[i].name, name) && c->cs[i].max_idle_ns > 0 &&
		    c->cs[i].max_cycles > 0)
			return (int64_t)((double)c->cs[i].max_cycles * 1e9 /
						 (2.0 *
						  (double)c->cs[i].max_idle_ns) *
						 0.89 +
					 0.5);
	return -1;
}

static int64_t get(const struct crb_record *rec, const char *key)
{
	int64_t v;

	return crb_get_i64(rec, key, &v) ? -1 : v;
}

/*
 * One fast pool mix (patch 0007's log, in the order the kernel logged
 * them): counted, its credit added, and the moments the mixes' credits
 * first reached 64, 128 and 192 of the 256 bits readiness takes (the
 * curve of credited bits against guest time, in four points). A record
 * with a missing or negative field is not a mix and is left out.
 */
static void report_mix(struct row *r, const struct crb_record *rec)
{
	int64_t t = get(rec, "t_ns"), bits = get(rec, "bits"),
		by_time = get(rec, "by_time"), before;
	int64_t *reach[] = { &r->mix_64_ns, &r->mix_128_ns, &r->mix_192_ns };

	/* a mix credits at most the pool's bits (64 or 128): more is no mix */
	if (t < 0 || bits < 0 || bits > 1024 || (by_time != 0 && by_time != 1))
		return;
	if (r->mix_n < 0) {
		r->mix_n = r->mix_bits = r->mix_time_n = 0;
		r->mix_first_ns = t;
		r->mix_first_by_time = by_time;
	}
	before = r->mix_bits;
	r->mix_n++;
	r->mix_bits += bits;
	r->mix_time_n += by_time;
	for (int i = 0; i < 3; i++)
		if (before < 64 * (i + 1) && r->mix_bits >= 64 * (i + 1))
			*reach[i] = t;
}

/*
 * One waiter record (crngbench_waiters, probe.c): waiter i's getrandom(0)
 * returned at end_ns after dur_ns. Guest bytes, so held to what a waiter
 * of this boot can say: i one of the cell's waiters (0 to waiters - 1),
 * each once; end_ns and dur_ns not negative, the wait within the boot
 * (dur_ns <= end_ns); errno 0, the CRB_WAITER_BYTES it asked for. Any
 * other record, a second one of a waiter, or a waiter record in a cell
 * of waiters=0, is left out: no waiter counts as done on its word.
 */
static void report_waiter(struct ctx *c, const struct crb_record *rec)
{
	int n = crb_waiters(c->r->axis[AX_waiters]);
	int64_t i = get(rec, "i"), end = get(rec, "end_ns"),
		dur = get(rec, "dur_ns");

	if (n <= 0 || i < 0 || i >= n || end < 0 || dur < 0 || dur > end ||
	    get(rec, "bytes") != CRB_WAITER_BYTES || get(rec, "errno") != 0 ||
	    c->waiters_seen & (1u << i))
		return;
	c->waiters_seen |= 1u << i;
	if (end > c->waiters_last)
		c->waiters_last = end;
}

/* How many waiters report_waiter() took: the bits set. */
static int64_t waiters_done(unsigned int seen)
{
	int64_t n = 0;

	for (; seen; seen &= seen - 1)
		n++;
	return n;
}

/*
 * Guest text as one CSV field, streamed into b whatever its length (a
 * record's value is at most CRB_MAX_VALUE): quoted when it holds a comma,
 * quote or line break, quotes doubled, line breaks as spaces, as
 * csv_field() does for raw.csv. Nothing is cut; an allocation failure
 * marks b (oom) and the boot's rows are refused whole.
 */
static void csv_text(struct strbuf *b, const char *v)
{
	int quote = strpbrk(v, ",\"\n\r") != NULL;

	if (quote)
		sb_append(b, "\"", 1);
	while (*v) {
		int n = control_len(v);

		if (*v == '"')
			sb_append(b, "\"\"", 2);
		else if (n)
			/* a guest's control characters never reach the file:
			 * line breaks and tabs read as spaces, the rest '?' */
			sb_append(b,
				  *v == '\n' || *v == '\r' || *v == '\t' ? " " :
									   "?",
				  1);
		else
			sb_append(b, v, 1);
		v += n ? n : 1;
	}
	if (quote)
		sb_append(b, "\"", 1);
}

/* Ends guest text cut to fit a raw.csv column (docs/results.md). */
#define CUT_MARK "[cut]"

/* Guest text into a fixed raw.csv column: whole, or cut and marked. */
static void column_text(char *dst, size_t len, const char *v)
{
	size_t n = strlen(v);

	if (n < len) {
		memcpy(dst, v, n + 1);
		return;
	}
	n = len - sizeof(CUT_MARK);
	memcpy(dst, v, n);
	memcpy(dst + n, CUT_MARK, sizeof(CUT_MARK));
}

/* An optional integer key as a CSV field: its value, or empty. */
static void opt_int(struct strbuf *b, const struct crb_record *rec,
		    const char *key)
{
	int64_t v;

	if (crb_get_i64(rec, key, &v))
		sb_append(b, ",", 1);
	else
		sb_printf(b, ",%" PRId64, v);
}

static int on_record(void *vctx, const char *segment,
		     const struct crb_record *rec)
{
	struct ctx *c = vctx;
	struct row *r = c->r;
	const char *s;

	switch (rec->type) {
	case CRB_read: {
		const char *iface = crb_get(rec, "iface");
		int64_t start = get(rec, "start_ns"), dur = get(rec, "dur_ns");
		int64_t to = get(rec, "timed_out");

		c->reading[0] = '\0';
		/* Guest text is untrusted: quoted, never raw, in a CSV. */
		sb_printf(c->reads, "%s,%d,", r->boot_id, c->seq++);
		csv_text(c->reads, iface);
		/* digest and status have a fixed form (crb_parse_line) */
		sb_printf(c->reads,
			  ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
			  ",%" PRId64 ",%s,%s",
			  start, dur, get(rec, "bytes"), get(rec, "errno"),
			  to < 0 ? 0 : to,
			  crb_get(rec, "digest") ? crb_get(rec, "digest") : "",
			  crb_get(rec, "status") ? crb_get(rec, "status") : "");
		opt_int(c->reads, rec, "ready_before");
		opt_int(c->reads, rec, "ready_after");
		sb_append(c->reads, "\n", 1);
		if (!strcmp(iface, "urandom") && r->first_urandom_end_ns < 0) {
			r->first_urandom_end_ns = start + dur;
			r->first_urandom_dur_ns = dur;
			r->first_urandom_errno = get(rec, "errno");
			c->urandom_timed_out = to == 1;
			snprintf(r->urandom_digest, sizeof(r->urandom_digest),
				 "%s",
				 crb_get(rec, "digest") ?
					 crb_get(rec, "digest") :
					 "");
		}
		break;
	}
	case CRB_reading:
		snprintf(c->reading, sizeof(c->reading), "%s",
			 crb_get(rec, "iface"));
		c->reading_start = get(rec, "start_ns");
		break;
	case CRB_probe:
		r->init_ns = get(rec, "start_ns");
		r->probe_overhead_ns = get(rec, "overhead_ns");
		break;
	case CRB_ready:
		s = crb_get(rec, "src");
		if (!strcmp(s, "poll"))
			c->ready_poll = get(rec, "t_ns");
		else if (!strcmp(s, "kmsg"))
			c->ready_kmsg = get(rec, "t_ns");
		break;
	case CRB_event:
		s = crb_get(rec, "name");
		if (!strcmp(s, "game-seeded")) {
			r->game_seeded_ns = get(rec, "t_ns");
			r->game_dur_ns = get(rec, "dur_ns");
		} else if (!strcmp(s, "report")) {
			c->report_t = get(rec, "t_ns");
		} else if (!strcmp(s, "jitter-trial")) {
			if (r->jitter_per_bit < 0) {
				r->jitter_per_bit = get(rec, "per_bit");
				r->jitter_differed = get(rec, "differed");
				r->jitter_max_per_bit = get(rec, "max");
			}
			if (r->jitter_run_ns < 0 && get(rec, "passed") == 1)
				r->jitter_run_ns = get(rec, "t_ns");
		} else if (!strcmp(s, "jitter-skipped")) {
			r->jitter_skipped = 1;
		} else if (!strcmp(s, "mix")) {
			report_mix(r, rec);
		} else if (!strcmp(s, "clocksource") && crb_get(rec, "cs") &&
			   c->ncs < (int)(sizeof(c->cs) / sizeof(c->cs[0]))) {
			snprintf(c->cs[c->ncs].name, sizeof(c->cs[0].name),
				 "%s", crb_get(rec, "cs"));
			c->cs[c->ncs].max_cycles = get(rec, "max_cycles");
			c->cs[c->ncs].max_idle_ns = get(rec, "max_idle_ns");
			c->ncs++;
		}
		break;
	case CRB_systemd:
		r->userspace_ns = get(rec, "userspace_ns");
		r->finish_ns = get(rec, "finish_ns");
		break;
	case CRB_trace:
		sb_printf(c->traces, "%s,", r->boot_id);
		csv_text(c->traces, crb_get(rec, "comm"));
		sb_printf(c->traces, ",%" PRId64 ",", get(rec, "pid"));
		csv_text(c->traces, crb_get(rec, "func"));
		sb_printf(c->traces, ",%" PRId64 ",%" PRId64 "\n",
			  get(rec, "start_ns"), get(rec, "dur_ns"));
		r->traced_reads = r->traced_reads < 0 ? 1 : r->traced_reads + 1;
		break;
	case CRB_meta:
		if (!strcmp(crb_get(rec, "key"), "release"))
			column_text(r->release, sizeof(r->release),
				    crb_get(rec, "value"));
		else if (!strcmp(crb_get(rec, "key"), "clocksource"))
			column_text(r->clocksource, sizeof(r->clocksource),
				    crb_get(rec, "value"));
		else if (!strcmp(crb_get(rec, "key"), "irq_timer"))
			r->irq_timer = get(rec, "value");
		else if (!strcmp(crb_get(rec, "key"), "irq_local_timer"))
			r->irq_local_timer = get(rec, "value");
		else if (!strcmp(crb_get(rec, "key"), "irq_devices"))
			r->irq_devices = get(rec, "value");
		else if (!strcmp(crb_get(rec, "key"), "pending_jobs"))
			snprintf(c->out->pending, sizeof(c->out->pending), "%s",
				 crb_get(rec, "value"));
		else if (!strcmp(crb_get(rec, "key"), "early_child"))
			c->out->early_unfinished =
				!strcmp(crb_get(rec, "value"), "unfinished");
		break;
	case CRB_waiter:
		/* only the reporters send WAITER_FILE: elsewhere none is */
		if (!strcmp(segment, "report"))
			report_waiter(c, rec);
		break;
	case CRB_fail:
		c->out->guest_failed = 1;
		snprintf(c->out->error, sizeof(c->out->error),
			 "guest: %s (errno %s)", crb_get(rec, "what"),
			 crb_get(rec, "errno"));
		break;
	default:
		break;
	}
	return 0;
}

static int on_segment(void *vctx, const struct crb_segment_info *s)
{
	struct ctx *c = vctx;

	if (s->complete) {
		if (!strcmp(s->name, "probe"))
			c->out->probe_complete = 1;
		else if (!strcmp(s->name, "report"))
			c->out->report_complete = 1;
	} else if (!c->out->error[0]) {
		snprintf(c->out->error, sizeof(c->out->error), "segment %s: %s",
			 s->name, s->error);
		snprintf(c->out->last, sizeof(c->out->last), "%s", s->last);
	}
	return 0;
}

void report_parse(const char *chan, size_t len, struct row *r,
		  struct strbuf *reads, struct strbuf *traces,
		  struct report_outcome *out)
{
	struct ctx c = { .r = r,
			 .reads = reads,
			 .traces = traces,
			 .out = out,
			 .ready_poll = -1,
			 .ready_kmsg = -1,
			 .report_t = -1,
			 .waiters_last = -1 };

	memset(out, 0, sizeof(*out));
	crb_read_stream(chan, len, on_record, on_segment, &c);
	r->crng_ready_poll_ns = c.ready_poll;
	r->crng_ready_kmsg_ns = c.ready_kmsg;
	r->report_ns = c.report_t;
	r->clocksource_hz = clocksource_hz(&c, r->clocksource);
	if (r->traced_reads < 0 && out->report_complete)
		r->traced_reads = 0;
	/* The probe's segment stands on its own: a read that hit the timeout
	 * is censored whether or not the report ever came. */
	if (r->first_urandom_end_ns >= 0)
		r->first_urandom_censored = c.urandom_timed_out;
	if (!out->report_complete)
		return;
	/* waiters=N: a waiter still blocked at the report is not done */
	if (crb_waiters(r->axis[AX_waiters]) > 0) {
		r->waiters_done = waiters_done(c.waiters_seen);
		r->waiters_last_end_ns = c.waiters_last;
	}
	/*
	 * early=child: a child still in a read when the report went out. Its
	 * name for the reason; a first urandom read still waiting is
	 * censored at the report, as a read the host timeout cut is.
	 */
	if (out->early_unfinished && c.reading[0]) {
		column_text(out->early_reading, sizeof(out->early_reading),
			    c.reading);
		if (!strcmp(c.reading, "urandom") &&
		    r->first_urandom_end_ns < 0 && c.report_t >= 0 &&
		    c.reading_start >= 0) {
			r->first_urandom_end_ns = c.report_t;
			r->first_urandom_dur_ns = c.report_t - c.reading_start;
			r->first_urandom_censored = 1;
			c.urandom_timed_out = 1;
		}
	}
	/* The report ran, so anything not seen by then is censored at its time. */
	if (c.ready_kmsg < 0 && c.ready_poll < 0) {
		r->crng_ready_censored = 1;
		r->crng_ready_bound_ns = c.report_t;
	} else {
		int64_t ready;

		r->crng_ready_censored = 0;
		row_derive(r);
		ready = r->crng_ready_ns;
		r->crng_ready_before_init = r->init_ns >= 0 &&
					    ready <= r->init_ns;
		if (r->first_urandom_end_ns >= 0)
			r->first_urandom_before_ready =
				r->first_urandom_end_ns < ready;
	}
	if (r->first_urandom_end_ns >= 0 && r->crng_ready_censored)
		r->first_urandom_before_ready = !c.urandom_timed_out;
}
