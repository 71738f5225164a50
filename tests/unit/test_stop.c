// SPDX-License-Identifier: GPL-2.0
/*
 * The stop rule (bench/summary/stop.c): identical needs different inputs (the
 * same-second trap), precise needs boots that differ and a narrow CI,
 * else the limit; the verdict rests on the boots in rep order alone.
 */
#define _GNU_SOURCE
#include "../../bench/summary/stats.h"
#include "../../bench/ground/util.h"
#include "../../bench/summary/stop.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define REPS 8

static struct row rows[REPS];
static const struct row *by[REPS];
static const struct stop_rule rule = { .min_reps = 2,
				       .reps = REPS,
				       .precision = 5,
				       .seed = 1 };

/* n boots alike: status ok, CRNG ready at 1 s, one digest, rtc=host in
 * one second, no saved seed; by[] the first n of them. */
static void boots(int n)
{
	memset(by, 0, sizeof(by));
	for (int i = 0; i < REPS; i++) {
		row_init(&rows[i]);
		rows[i].rep = i;
		strcpy(rows[i].status, "ok");
		strcpy(rows[i].urandom_digest, "0123456789abcdef");
		rows[i].crng_ready_kmsg_ns = 1000000000;
		rows[i].first_urandom_dur_ns = 5000;
		row_derive(&rows[i]);
		rows[i].input_rtc_s = 1700000000;
		rows[i].host_exit_ns = 3000000000LL + i; /* host times vary */
		if (i < n)
			by[i] = &rows[i];
	}
}

static int decide(int *at)
{
	return stop_decide(&rule, by, 1, at);
}

/* Alike in outcome, different in input: identical at min_reps. */
static void identical_with_different_inputs(void)
{
	int at;

	boots(REPS);
	rows[1].input_rtc_s += STOP_RTC_APART;
	CHECK(decide(&at) == STOP_IDENTICAL && at == 2);
	boots(REPS);
	rows[0].input_seed = 1;
	rows[1].input_seed = 2;
	CHECK(decide(&at) == STOP_IDENTICAL && at == 2);
	/* the odd input may come later: identical once it is there */
	boots(REPS);
	rows[4].input_seed = 7;
	rows[0].input_seed = rows[1].input_seed = rows[2].input_seed =
		rows[3].input_seed = 6;
	CHECK(decide(&at) == STOP_IDENTICAL && at == 5);
	CHECK(!strcmp(stop_name(STOP_IDENTICAL), "identical"));
}

/* The same-second trap: alike in outcome and in every input. */
static void same_inputs_never_identical(void)
{
	int at;

	boots(REPS);
	rows[1].input_rtc_s += STOP_RTC_APART - 1; /* maybe one RTC second */
	CHECK(decide(&at) == STOP_LIMIT && at == REPS);
	boots(3);
	CHECK(decide(&at) == STOP_NO && at == 3);
	/* rtc=fixed, seed=none: nothing recorded varies */
	boots(REPS);
	for (int i = 0; i < REPS; i++)
		rows[i].input_rtc_s = -1;
	CHECK(decide(&at) == STOP_LIMIT);
	CHECK(!strcmp(stop_name(STOP_NO), ""));
}

/* One guest time a nanosecond off, or another digest: not identical. */
static void a_nanosecond_or_a_digest_differs(void)
{
	int at;

	boots(REPS);
	rows[1].input_rtc_s += 10;
	rows[1].first_urandom_dur_ns++;
	CHECK(decide(&at) != STOP_IDENTICAL);
	boots(REPS);
	rows[1].input_rtc_s += 10;
	rows[1].urandom_digest[0] = 'f';
	CHECK(decide(&at) != STOP_IDENTICAL);
	/* a failed boot is no agreement */
	boots(REPS);
	rows[1].input_rtc_s += 10;
	strcpy(rows[0].status, "timeout");
	strcpy(rows[1].status, "timeout");
	CHECK(decide(&at) == STOP_LIMIT);
}

/* Boots within 1% of each other: precise at STOP_PRECISE_MIN boots. */
static void close_boots_are_precise(void)
{
	int at;

	boots(REPS);
	for (int i = 0; i < REPS; i++) {
		rows[i].crng_ready_kmsg_ns = 1000000000 + (i % 3) * 10000000;
		row_derive(&rows[i]);
	}
	CHECK(decide(&at) == STOP_PRECISE && at == STOP_PRECISE_MIN);
	CHECK(!strcmp(stop_name(STOP_PRECISE), "precise"));
	/* with fewer boots done, go on */
	by[3] = NULL;
	CHECK(decide(&at) == STOP_NO && at == 3);
}

/* Boots far apart: the limit; a censored median is never precise. */
static void wide_or_censored_boots_run_to_the_limit(void)
{
	int at;

	boots(REPS);
	for (int i = 0; i < REPS; i++) {
		rows[i].crng_ready_kmsg_ns = 1000000000LL * (1 + i % 4);
		row_derive(&rows[i]);
	}
	CHECK(decide(&at) == STOP_LIMIT && at == REPS);
	CHECK(!strcmp(stop_name(STOP_LIMIT), "limit"));
	boots(REPS);
	for (int i = 0; i < REPS; i++) {
		rows[i].crng_ready_censored = 1;
		rows[i].crng_ready_bound_ns = 20000000000LL + i;
		row_derive(&rows[i]);
	}
	CHECK(decide(&at) == STOP_LIMIT);
}

/* A gap in rep order: the rule waits for it, whatever came after. */
static void judged_in_rep_order(void)
{
	int at;

	boots(REPS);
	rows[2].input_rtc_s += 10;
	by[1] = NULL;
	CHECK(decide(&at) == STOP_NO && at == 1);
	by[1] = &rows[1];
	CHECK(decide(&at) == STOP_IDENTICAL && at == 3);
}

/* min_reps holds the stop back; the book gives the same verdict. */
static void min_reps_and_the_book(void)
{
	struct stop_rule late = rule;
	struct stop_book b;
	struct matrix m;
	int at;

	boots(REPS);
	rows[1].input_rtc_s += 10;
	late.min_reps = 4;
	CHECK(stop_decide(&late, by, 1, &at) == STOP_IDENTICAL && at == 4);
	matrix_init(&m);
	m.reps = REPS;
	CHECK(stop_book_init(&b, &m, 1) == 0);
	CHECK(stop_book_cell(&b, 0, &at) == STOP_NO && at == 0);
	CHECK(stop_book_add(&b, &rows[0]) == 0);
	CHECK(stop_book_cell(&b, 0, &at) == STOP_NO && at == 1);
	CHECK(stop_book_add(&b, &rows[1]) == 0);
	CHECK(stop_book_cell(&b, 0, &at) == STOP_IDENTICAL && at == 2);
	/* a verdict stands: later boots (started before it) do not move it */
	rows[2].first_urandom_dur_ns = 1;
	CHECK(stop_book_add(&b, &rows[2]) == 0);
	CHECK(stop_book_cell(&b, 0, &at) == STOP_IDENTICAL && at == 2);
	stop_book_free(&b);
}

/*
 * Long cells: the verdict, kept up incrementally, is the one a brute
 * force gives (each boot count's CI from summarize() on its boots, as the
 * rule reads), on both sides of MEDIAN_CI_ORDER_MIN; some stop precise
 * past it, where the CI is the order-statistic interval.
 */
#define LONG 60

static struct row lrows[LONG];
static const struct row *lby[LONG];

static int brute_force(const struct stop_rule *sr, int *at)
{
	struct sample s[LONG];
	struct summary su;

	for (int n = STOP_PRECISE_MIN; n <= LONG; n++) {
		size_t k = 0;
		int varied = 0;

		for (int i = 0; i < n; i++)
			s[k++] = lrows[i].crng_ready_censored == 1 ?
					 (struct sample){
						 (double)lrows[i]
							 .crng_ready_bound_ns,
						 1
					 } :
					 (struct sample){
						 (double)lrows[i].crng_ready_ns,
						 0
					 };
		for (size_t i = 1; i < k; i++)
			varied |= s[i].v != s[0].v ||
				  s[i].censored != s[0].censored;
		*at = n;
		if (varied && !summarize(s, k, sr->seed, 0, &su) &&
		    !su.median_censored && !su.ci_censored &&
		    (su.ci_hi - su.ci_lo) / 2 <=
			    su.median * (double)sr->precision / 100.0)
			return STOP_PRECISE;
	}
	return STOP_LIMIT;
}

static void long_cells_match_brute_force(void)
{
	struct stop_rule r = { .min_reps = 2, .reps = LONG, .seed = 3 };
	uint64_t st = 11;
	int past = 0;

	for (int trial = 0; trial < 40; trial++) {
		int at, at2, why;

		r.precision = 1 + trial % 10;
		for (int i = 0; i < LONG; i++) {
			uint64_t x = rng_next(&st);

			row_init(&lrows[i]);
			lrows[i].rep = i;
			strcpy(lrows[i].status, "ok");
			lrows[i].crng_ready_kmsg_ns =
				1000000000 + (int64_t)(x % 400) * 1000000;
			if (x >> 60 == 0) { /* about one in 16 still waiting */
				strcpy(lrows[i].status, "censored");
				lrows[i].crng_ready_kmsg_ns = -1;
				lrows[i].crng_ready_censored = 1;
				lrows[i].crng_ready_bound_ns = 2000000000;
			}
			lrows[i].input_rtc_s = 1700000000 + i * 10;
			row_derive(&lrows[i]);
			lby[i] = &lrows[i];
		}
		why = stop_decide(&r, lby, 1, &at);
		CHECK(why == brute_force(&r, &at2) && at == at2);
		past += why == STOP_PRECISE && at >= MEDIAN_CI_ORDER_MIN;
	}
	CHECK(past > 0);
}

int main(void)
{
	TEST(identical_with_different_inputs);
	TEST(same_inputs_never_identical);
	TEST(a_nanosecond_or_a_digest_differs);
	TEST(close_boots_are_precise);
	TEST(wide_or_censored_boots_run_to_the_limit);
	TEST(judged_in_rep_order);
	TEST(min_reps_and_the_book);
	TEST(long_cells_match_brute_force);
	return check_any_failed;
}
