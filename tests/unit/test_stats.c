// SPDX-License-Identifier: GPL-2.0
/* bench/summary/stats.c against values computed by hand. */
#include "../../bench/summary/stats.h"
#include "../../bench/ground/util.h"
#include "check.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void median_mean_sd_by_hand(void)
{
	/* 1 2 3 4 100: median 3, mean 22, sample sd sqrt(7610/4) = 43.6176... */
	struct sample s[] = {
		{ 4, 0 }, { 1, 0 }, { 100, 0 }, { 3, 0 }, { 2, 0 }
	};
	struct summary u;

	CHECK(summarize(s, 5, 1, 500, &u) == 0);
	CHECK(u.n == 5 && u.censored == 0);
	CHECK(NEAR(u.median, 3));
	CHECK(NEAR(u.mean, 22));
	CHECK(NEAR(u.sd, sqrt(7610.0 / 4)));
	CHECK(NEAR(u.min, 1) && NEAR(u.max, 100));
	/* p10: pos 0.4 between 1 and 2 -> 1.4; p90: pos 3.6 between 4 and 100. */
	CHECK(NEAR(u.p10, 1.4));
	CHECK(NEAR(u.p90, 4 + 0.6 * 96));
	/* MAD: |x-3| = 1 2 0 1 97 -> median 1, scaled 1.4826; 100 is > 3 MAD. */
	CHECK(u.outliers == 1);
	/* The bootstrap CI of the median brackets it and stays in the data. */
	CHECK(u.ci_lo <= u.median && u.median <= u.ci_hi);
	CHECK(u.ci_lo >= 1 && u.ci_hi <= 100);
}

static void even_count_interpolates(void)
{
	struct sample s[] = { { 10, 0 }, { 20, 0 }, { 30, 0 }, { 40, 0 } };
	struct summary u;

	CHECK(summarize(s, 4, 1, 100, &u) == 0);
	CHECK(NEAR(u.median, 25));
	CHECK(u.outliers == 0);
}

static void outlier_threshold_is_three_scaled_mads(void)
{
	/*
	 * -1 -1 0 0 1 1 a: median 0; |x| = 1 1 0 0 1 1 a, median 1, so the
	 * scaled MAD is 1.4826 and the bound 3 * 1.4826 = 4.4478. a on
	 * either side of it, close enough that 2 or 4 MADs would differ.
	 */
	struct sample in[] = { { -1, 0 }, { -1, 0 }, { 0, 0 },	{ 0, 0 },
			       { 1, 0 },  { 1, 0 },  { 4.4, 0 } };
	struct sample out[] = { { -1, 0 }, { -1, 0 }, { 0, 0 },	 { 0, 0 },
				{ 1, 0 },  { 1, 0 },  { 4.5, 0 } };
	struct summary u;

	CHECK(summarize(in, 7, 1, 100, &u) == 0);
	CHECK(NEAR(u.median, 0) && u.outliers == 0);
	CHECK(summarize(out, 7, 1, 100, &u) == 0);
	CHECK(NEAR(u.median, 0) && u.outliers == 1);
}

static void censored_cells(void)
{
	/* Two of five still waiting at 20: median is the middle finite rank. */
	struct sample s[] = {
		{ 1, 0 }, { 2, 0 }, { 3, 0 }, { 20, 1 }, { 20, 1 }
	};
	struct summary u;

	CHECK(summarize(s, 5, 1, 200, &u) == 0);
	CHECK(u.censored == 2);
	CHECK(NEAR(u.median, 3) && !u.median_censored);
	CHECK(u.p90_censored && NEAR(u.p90, 20));
	/* Mean and range only over what was measured. */
	CHECK(NEAR(u.mean, 2) && NEAR(u.min, 1) && NEAR(u.max, 3));
	CHECK(u.ci_censored);
}

static void mostly_censored(void)
{
	struct sample s[] = { { 1, 0 }, { 30, 1 }, { 30, 1 } };
	struct summary u;

	CHECK(summarize(s, 3, 1, 200, &u) == 0);
	CHECK(u.median_censored && NEAR(u.median, 30));
}

static void all_censored(void)
{
	struct sample s[] = { { 5, 1 }, { 7, 1 } };
	struct summary u;

	CHECK(summarize(s, 2, 1, 100, &u) == 0);
	CHECK(u.median_censored && NEAR(u.median, 7));
	CHECK(isnan(u.mean));
}

static void empty_is_an_error(void)
{
	struct summary u;

	CHECK(summarize(NULL, 0, 1, 10, &u) == -1);
}

static void bootstrap_reproducible(void)
{
	struct sample s[] = { { 5, 0 }, { 1, 0 }, { 9, 0 },
			      { 3, 0 }, { 7, 0 }, { 2, 0 } };
	struct summary a, b;

	summarize(s, 6, 42, 300, &a);
	summarize(s, 6, 42, 300, &b);
	CHECK(a.ci_lo == b.ci_lo && a.ci_hi == b.ci_hi);
}

/*
 * The order-statistic interval's rank, against P(B <= r-1) for
 * B ~ binomial(n, 1/2) worked out exactly (Python fractions): none below
 * 6 samples; [x(2), x(9)] of 10, [x(40), x(61)] of 100 (Conover's table).
 */
static void order_ci_rank_known(void)
{
	static const size_t n[] = { 0,	5,  6,	 9,   10,   11,	  20,	29,
				    30, 50, 100, 101, 1000, 1001, 10000 },
			    r[] = { 0,	0,  1,	2,  2,	 2,   6,   9,
				    10, 18, 40, 41, 469, 470, 4902 };

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		CHECK(median_ci_rank(n[i]) == r[i]);
}

/*
 * Coverage: for every n from the switch to 400, [x(r), x(n+1-r)] holds
 * the median with probability 1 - 2 P(B <= r-1) >= 95%, and r + 1 would
 * fall short (the largest such r).
 */
static void order_ci_covers_95(void)
{
	for (size_t n = MEDIAN_CI_ORDER_MIN; n <= 400; n++) {
		size_t r = median_ci_rank(n);
		long double p = powl(0.5L, (long double)n), cdf = 0, at_r = 0;

		for (size_t k = 0; k <= r; k++) {
			cdf += p; /* P(B <= k) */
			if (k + 1 == r)
				at_r = cdf;
			p = p * (long double)(n - k) / (long double)(k + 1);
		}
		CHECK(r >= 1 && 1 - 2 * at_r >= 0.95L && 1 - 2 * cdf < 0.95L);
	}
}

/* 1..n-c in a shuffled order (n - c prime to 7), then c censored at 50. */
static void fill(struct sample *s, size_t n, size_t c)
{
	for (size_t i = 0; i < n - c; i++)
		s[i] = (struct sample){ (double)((i * 7) % (n - c) + 1), 0 };
	for (size_t i = n - c; i < n; i++)
		s[i] = (struct sample){ 50, 1 };
}

/*
 * The switch: 9 samples are bootstrapped (one resample gives a CI of no
 * width), 10 take [x(2), x(9)] whatever the resamples and seed; a bound
 * on a censored sample is the censored bound, flagged.
 */
static void order_ci_from_ten(void)
{
	struct sample s[10];
	struct summary u;

	fill(s, 9, 0);
	CHECK(summarize(s, 9, 3, 1, &u) == 0 && u.ci_lo == u.ci_hi);
	fill(s, 10, 0);
	CHECK(summarize(s, 10, 3, 1, &u) == 0);
	CHECK(u.ci_lo == 2 && u.ci_hi == 9 && !u.ci_censored);
	CHECK(summarize(s, 10, 99, 0, &u) == 0);
	CHECK(u.ci_lo == 2 && u.ci_hi == 9 && NEAR(u.median, 5.5));
	fill(s, 10, 2); /* 1..8 (shuffled), two > 50 */
	CHECK(summarize(s, 10, 3, 0, &u) == 0);
	CHECK(u.ci_lo == 2 && u.ci_hi == 50 && u.ci_censored);
	CHECK(!u.median_censored && NEAR(u.median, 5.5));
}

/*
 * Every prefix's median and CI, from median_prefix, are summarize()'s to
 * the bit: ties, censored samples and both sides of the switch.
 */
static void prefix_matches_summarize(void)
{
	enum { N = 160 };
	struct sample s[N];
	struct median_prefix p;
	struct summary a, b;
	uint64_t st = 7;
	int ci_censored = 0;

	/* one in 9 censored, then (from N / 2 on) 3 in 5: a censored CI */
	for (size_t i = 0; i < N; i++) {
		uint64_t x = rng_next(&st), c = (x >> 32) % 45;

		s[i] = (struct sample){ (double)(x % 40),
					i < N / 2 ? c < 5 : c < 27 };
	}
	CHECK(median_prefix_init(&p, s, N, 5) == 0);
	for (size_t k = 1; k <= N; k++) {
		CHECK(median_prefix_at(&p, k, &a) == 0);
		CHECK(summarize(s, k, 5, 0, &b) == 0);
		CHECK(a.n == k && a.median == b.median &&
		      a.median_censored == b.median_censored &&
		      a.ci_lo == b.ci_lo && a.ci_hi == b.ci_hi &&
		      a.ci_censored == b.ci_censored);
		ci_censored += a.ci_censored && k >= MEDIAN_CI_ORDER_MIN;
	}
	CHECK(ci_censored > 0);
	CHECK(median_prefix_at(&p, 3, &a) == -1); /* never backwards */
	median_prefix_free(&p);
}

/* Distinct texts among the picked items that have one: "k,n". */
static void distinct_texts_counts(void)
{
	static const struct item {
		int x;
		char t[8];
	} items[] = { { 0, "b" }, { 0, "" },  { 0, "a" }, { 0, "b" },
		      { 0, "c" }, { 0, "a" }, { 0, "" } };
	size_t all[] = { 0, 1, 2, 3, 4, 5, 6 }, some[] = { 0, 3, 1 },
	       none[] = { 1, 6 };
	char buf[32];

#define D(idx, n)                                                              \
	distinct_texts(items, sizeof(items[0]), offsetof(struct item, t), idx, \
		       n, buf, sizeof(buf))
	CHECK(D(all, 7) == 0 && !strcmp(buf, "3,5"));
	CHECK(D(some, 3) == 0 && !strcmp(buf, "1,2"));
	CHECK(D(none, 2) == 0 && !strcmp(buf, ","));
	CHECK(D(NULL, 0) == 0 && !strcmp(buf, ","));
#undef D
}

int main(void)
{
	TEST(median_mean_sd_by_hand);
	TEST(even_count_interpolates);
	TEST(outlier_threshold_is_three_scaled_mads);
	TEST(censored_cells);
	TEST(mostly_censored);
	TEST(all_censored);
	TEST(empty_is_an_error);
	TEST(bootstrap_reproducible);
	TEST(order_ci_rank_known);
	TEST(order_ci_covers_95);
	TEST(order_ci_from_ten);
	TEST(prefix_matches_summarize);
	TEST(distinct_texts_counts);
	return check_any_failed;
}
