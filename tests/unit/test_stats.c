// SPDX-License-Identifier: GPL-2.0
/* bench/stats.c against values computed by hand. */
#include "../../bench/stats.h"
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
	TEST(distinct_texts_counts);
	return check_any_failed;
}
