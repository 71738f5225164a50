/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stop rule: when a cell has had boots enough (stop.c). A cell's boots
 * are taken in rep order; after each, the rule looks at the boots so far
 * (reps 0..n-1, every one of them done) and stops the cell when
 *
 *  - identical: n >= min_reps, every one of the n boots measured (status
 *    ok or censored), all with the same status, the same guest times and
 *    counts to the nanosecond (raw.csv's guest columns, row_metric_kind
 *    'g'), clocksource and urandom_digest, AND two of them got different
 *    inputs (raw.csv's input_*: a saved seed, or RTC seconds STOP_RTC_APART
 *    or more apart). Boots that agree with nothing varied between them
 *    prove nothing (two boots in one RTC second): the cell goes on;
 *  - precise: n >= max(min_reps, STOP_PRECISE_MIN), the boots not all
 *    identical as above, their CRNG ready not one value for all (a CI of
 *    no width says nothing), and the 95% CI of the median of CRNG
 *    ready (summary.csv's main measure, censored boots at their bound) has
 *    a half-width within precision percent of the median, neither of them
 *    censored;
 *  - limit: all reps boots are done.
 *
 * The verdict is a function of the boots' rows alone, so it is the same
 * whatever ran when: the sweep, --resume, a shard and --summarize agree.
 * Boots of a cell past its verdict that had started already (--jobs)
 * are kept and counted.
 */
#ifndef CRNGBENCH_STOP_H
#define CRNGBENCH_STOP_H

#include "../matrix/matrix.h"
#include "../rows/row.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Precise needs this many boots at least: below it a bootstrap CI of the
 * median is little more than the range of a handful of values (hyperfine
 * asks for 10 runs).
 */
#define STOP_PRECISE_MIN 5
/*
 * Two rtc=host boots got different RTC dates for sure when their recorded
 * seconds are this far apart: QEMU reads the host's clock as it starts,
 * a moment after the runner recorded it.
 */
#define STOP_RTC_APART 2

/* The rule in a sentence, for --describe (README says the same). */
#define STOP_RULE_TEXT                                                          \
	"a cell takes at least min_reps boots and at most reps; after each "    \
	"boot, in rep order, it stops as identical when its boots agree to "    \
	"the nanosecond in every guest time and digest and got different "      \
	"inputs (a saved seed, or RTC seconds 2 or more apart), as precise "    \
	"when, with 5 boots or more whose CRNG ready times differ, the 95% CI " \
	"half-width of the CRNG ready median is within precision percent of "   \
	"the median, else at the limit (reps); boots started before the "       \
	"stop are kept"

enum stop_why { STOP_NO, STOP_IDENTICAL, STOP_PRECISE, STOP_LIMIT };

struct stop_rule {
	int min_reps, reps, precision; /* matrix_min_reps(), reps, percent */
	uint64_t seed; /* the bootstrap's: summary.csv's for crng_ready */
};

/* The rule of matrix m; seed as summary_measure_seed() gives it. */
void stop_rule_of(const struct matrix *m, uint64_t seed, struct stop_rule *sr);

/*
 * The verdict on a cell's boots byrep[0..reps) (NULL where a rep has no
 * row yet), trying each n from max(from, 1) on: STOP_NO (go on) or why it
 * stopped, with *at the boots it rests on (STOP_NO: the boots done in rep
 * order). -1 out of memory.
 */
int stop_decide(const struct stop_rule *sr, const struct row *const *byrep,
		int from, int *at);
/* "identical", "precise", "limit"; "" for STOP_NO. */
const char *stop_name(int why);

/* The sweep's record of the boots done, per cell, and their verdicts. */
struct stop_book {
	struct stop_rule rule;
	size_t ncells;
	const struct row **by; /* ncells * reps: copies, NULL: not yet */
	int *why, *at, *tried; /* per cell; tried: prefix already judged */
	int lent; /* by[] points into the caller's rows: not freed */
};

int stop_book_init(struct stop_book *b, const struct matrix *m, uint64_t seed);
/* Keep a copy of a boot's row (lent: the row itself; one of the book's
 * cells). -1 on ENOMEM. */
int stop_book_add(struct stop_book *b, const struct row *row);
/* The cell's verdict so far (STOP_NO: go on), *at as stop_decide's. */
int stop_book_cell(struct stop_book *b, size_t cell, int *at);
void stop_book_free(struct stop_book *b);

/* A cell of a run: the boots raw.csv holds of it, and its verdict. */
struct stop_cell {
	int boots, why, at;
	char csv[32]; /* summary.csv's ",boots,stop" */
};
/*
 * Every cell of the run in dir (its run.matrix), by cell index, from its
 * rows: a malloc'd array in *out. seed: stop_rule's. 0, or -1 with a
 * message in err.
 */
int stop_cells_of_run(const char *dir, uint64_t seed, const struct row *rows,
		      size_t nrows, struct stop_cell **out, char *err,
		      size_t errlen);

#endif /* CRNGBENCH_STOP_H */
