// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "stop.h"
#include "../matrix/matrixcheck.h"
#include "../matrix/plan.h"
#include "../ground/util.h"
#include "stats.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stop_rule_of(const struct matrix *m, uint64_t seed, struct stop_rule *sr)
{
	sr->min_reps = matrix_min_reps(m);
	sr->reps = m->reps;
	sr->precision = m->precision;
	sr->seed = seed;
}

const char *stop_name(int why)
{
	return why == STOP_IDENTICAL ? "identical" :
	       why == STOP_PRECISE   ? "precise" :
	       why == STOP_LIMIT     ? "limit" :
				       "";
}

/* Did the guest report the same of both boots, to the nanosecond? */
static int same_outcome(const struct row *a, const struct row *b)
{
	for (size_t i = 0; i < row_nmetrics(); i++)
		if (row_metric_kind(i) == 'g' &&
		    row_metric(a, i) != row_metric(b, i))
			return 0;
	return !strcmp(a->status, b->status) &&
	       !strcmp(a->clocksource, b->clocksource) &&
	       !strcmp(a->urandom_digest, b->urandom_digest);
}

/* How many boots from the first on are measured and all alike. */
static int identical_prefix(const struct row *const *by, int done)
{
	int n = 0;

	while (n < done && row_measured(by[n]) && same_outcome(by[0], by[n]))
		n++;
	return n;
}

/*
 * The fewest first boots of which two got different inputs for sure (two
 * known seeds differ, or two known RTC times STOP_RTC_APART apart), or
 * done + 1: the least and greatest known of each, kept in one pass (the
 * pairs compared once took cubic time on a cell of identical boots).
 */
static int inputs_differ_at(const struct row *const *by, int done)
{
	int64_t slo = -1, shi = -1, tlo = -1, thi = -1;

	for (int i = 0; i < done; i++) {
		int64_t s = by[i]->input_seed, t = by[i]->input_rtc_s;

		if (s >= 0 && (slo < 0 || s < slo))
			slo = s;
		if (s > shi)
			shi = s;
		if (t >= 0 && (tlo < 0 || t < tlo))
			tlo = t;
		if (t > thi)
			thi = t;
		if (slo != shi || (tlo >= 0 && thi - tlo >= STOP_RTC_APART))
			return i + 1;
	}
	return done + 1;
}

/*
 * A cell's CRNG ready samples in rep order (summary.c's crng_ready
 * measure: censored boots at their bound), and per prefix of boots how
 * many there are, for the precise test at every boot count.
 */
struct ready {
	struct sample *s;
	size_t *upto; /* upto[n]: samples among the first n boots */
	size_t varied; /* the first sample unlike s[0] (or the count) */
	struct median_prefix mp;
};

static int ready_init(struct ready *rd, const struct row *const *by, int done,
		      uint64_t seed)
{
	size_t k = 0;

	rd->s = calloc((size_t)done + 1, sizeof(*rd->s));
	rd->upto = calloc((size_t)done + 1, sizeof(*rd->upto));
	if (!rd->s || !rd->upto)
		return -1;
	for (int i = 0; i < done; i++) {
		const struct row *r = by[i];

		if (!row_measured(r)) {
		} else if (r->crng_ready_censored == 1) {
			int64_t b = r->crng_ready_bound_ns;

			rd->s[k++] =
				(struct sample){ (double)(b >= 0 ? b : 0), 1 };
		} else if (r->crng_ready_ns >= 0) {
			rd->s[k++] =
				(struct sample){ (double)r->crng_ready_ns, 0 };
		}
		rd->upto[i + 1] = k;
	}
	for (rd->varied = 1; rd->varied < k; rd->varied++)
		if (rd->s[rd->varied].v != rd->s[0].v ||
		    rd->s[rd->varied].censored != rd->s[0].censored)
			break;
	return median_prefix_init(&rd->mp, rd->s, k, seed);
}

static void ready_free(struct ready *rd)
{
	median_prefix_free(&rd->mp);
	free(rd->s);
	free(rd->upto);
}

/*
 * The first n boots' CI of the CRNG ready median within the precision:
 * 1, 0 (not yet), -1 out of memory. Boots that all say one value give a
 * CI of no width: no precision.
 */
static int precise(const struct stop_rule *sr, struct ready *rd, int n)
{
	size_t k = rd->upto[n];
	struct summary su;

	if (k <= rd->varied || k < STOP_PRECISE_MIN)
		return 0;
	if (median_prefix_at(&rd->mp, k, &su))
		return -1;
	return !su.median_censored && !su.ci_censored &&
	       (su.ci_hi - su.ci_lo) / 2 <=
		       su.median * (double)sr->precision / 100.0;
}

/*
 * Each n from max(from, min_reps) to the boots done, in order: identical
 * (the first n alike and their inputs differing), precise, or go on. The
 * facts are gathered once, so a cell's cost grows as n log n.
 */
int stop_decide(const struct stop_rule *sr, const struct row *const *byrep,
		int from, int *at)
{
	int done = 0, same, differ, why = STOP_NO,
	    least = sr->min_reps > STOP_PRECISE_MIN ? sr->min_reps :
						      STOP_PRECISE_MIN;
	struct ready rd = { 0 };

	while (done < sr->reps && byrep[done])
		done++;
	same = identical_prefix(byrep, done);
	differ = inputs_differ_at(byrep, done);
	if (ready_init(&rd, byrep, done, sr->seed)) {
		ready_free(&rd);
		return -1;
	}
	for (int n = from > sr->min_reps ? from : sr->min_reps; n <= done;
	     n++) {
		*at = n;
		if (n <= same) { /* all alike: identical, or go on */
			if (differ <= n) {
				why = STOP_IDENTICAL;
				break;
			}
		} else if (n >= least && (why = precise(sr, &rd, n))) {
			why = why < 0 ? -1 : STOP_PRECISE;
			break;
		}
	}
	ready_free(&rd);
	if (why)
		return why;
	*at = done;
	return done >= sr->reps ? STOP_LIMIT : STOP_NO;
}

int stop_book_init(struct stop_book *b, const struct matrix *m, uint64_t seed)
{
	size_t n = matrix_ncells(m) * (size_t)m->reps;

	memset(b, 0, sizeof(*b));
	stop_rule_of(m, seed, &b->rule);
	b->ncells = matrix_ncells(m);
	b->by = calloc(n ? n : 1, sizeof(*b->by));
	b->why = calloc(b->ncells + 1, sizeof(*b->why));
	b->at = calloc(b->ncells + 1, sizeof(*b->at));
	b->tried = calloc(b->ncells + 1, sizeof(*b->tried));
	if (b->by && b->why && b->at && b->tried)
		return 0;
	stop_book_free(b);
	return -1;
}

int stop_book_add(struct stop_book *b, const struct row *row)
{
	struct row *copy;
	size_t i;

	if (row->cell < 0 || (size_t)row->cell >= b->ncells || row->rep < 0 ||
	    row->rep >= b->rule.reps)
		return 0;
	i = (size_t)row->cell * (size_t)b->rule.reps + (size_t)row->rep;
	if (b->lent) { /* the caller's rows outlive the book */
		b->by[i] = row;
		return 0;
	}
	copy = malloc(sizeof(*copy));
	if (!copy)
		return -1;
	*copy = *row;
	free((void *)b->by[i]);
	b->by[i] = copy;
	return 0;
}

int stop_book_cell(struct stop_book *b, size_t cell, int *at)
{
	const struct row *const *by = b->by + cell * (size_t)b->rule.reps;
	int why;

	if (b->why[cell] != STOP_NO) {
		*at = b->at[cell];
		return b->why[cell];
	}
	why = stop_decide(&b->rule, by, b->tried[cell] + 1, at);
	if (why < 0)
		return -1;
	/* the prefix judged and found wanting is not judged again */
	b->tried[cell] = *at;
	b->why[cell] = why;
	b->at[cell] = *at;
	return why;
}

void stop_book_free(struct stop_book *b)
{
	if (b->by && !b->lent)
		for (size_t i = 0; i < b->ncells * (size_t)b->rule.reps; i++)
			free((void *)b->by[i]);
	free(b->by);
	free(b->why);
	free(b->at);
	free(b->tried);
	memset(b, 0, sizeof(*b));
}

int stop_cells_of_run(const char *dir, uint64_t seed, const struct row *rows,
		      size_t nrows, struct stop_cell **out, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	struct matrix m;
	struct stop_book b;
	struct stop_cell *sc;
	int rc = 0;

	*out = NULL;
	if (path_fmt(path, sizeof(path), "%s/run.matrix", dir))
		return err_set(err, errlen, "path too long: %s", dir);
	if (matrix_load_run(path, &m, err, errlen))
		return -1;
	if (stop_book_init(&b, &m, seed) ||
	    !(sc = calloc(b.ncells + 1, sizeof(*sc)))) {
		stop_book_free(&b);
		return err_set(err, errlen, "out of memory judging %s", dir);
	}
	b.lent = 1; /* rows outlive b: no copy of each (a row is 2.7 KB) */
	for (size_t i = 0; i < nrows && !rc; i++) {
		rc = stop_book_add(&b, &rows[i]);
		if ((size_t)rows[i].cell < b.ncells)
			sc[rows[i].cell].boots++;
	}
	for (size_t c = 0; c < b.ncells && !rc; c++) {
		rc = (sc[c].why = stop_book_cell(&b, c, &sc[c].at)) < 0;
		snprintf(sc[c].csv, sizeof(sc[c].csv), ",%d,%s", sc[c].boots,
			 stop_name(sc[c].why));
	}
	stop_book_free(&b);
	if (rc) {
		free(sc);
		return err_set(err, errlen, "out of memory judging %s", dir);
	}
	*out = sc;
	return 0;
}
