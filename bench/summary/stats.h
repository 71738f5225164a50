/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics in the conventions of hyperfine and perf stat, with
 * right-censored samples: a boot still waiting at its timeout contributes
 * "at least T", which counts for ranks (median, percentiles) but never for
 * mean, sigma, min or max.
 */
#ifndef CRNGBENCH_STATS_H
#define CRNGBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

struct sample {
	double v; /* value; for a censored sample, the bound it exceeded */
	int censored; /* 1: the true value is > v */
};

struct summary {
	size_t n; /* all samples */
	size_t censored; /* of which censored */
	/* Rank statistics; *_censored set when the rank falls on a censored
	 * sample, so the value is only a lower bound ("> x"). */
	double median, p10, p90;
	int median_censored, p10_censored, p90_censored;
	double ci_lo, ci_hi; /* 95% CI of the median (below) */
	int ci_censored; /* the upper bound falls on a censored sample */
	/* Over uncensored samples only (n - censored of them). */
	double mean, sd, min, max;
	/* Samples further than 3 scaled MADs from the median. */
	size_t outliers;
};

/* Linear-interpolation percentile (q in [0,1]) of sorted values, as numpy's
 * default. */
double percentile_sorted(const double *sorted, size_t n, double q);

/*
 * A median's 95% CI, the one rule (--describe's "median_ci",
 * docs/matrices.md, summary.csv and the stop rule):
 *  - below MEDIAN_CI_ORDER_MIN samples, a percentile bootstrap of
 *    BOOT_RESAMPLES resamples, seeded (every committed run: at most 8
 *    boots a cell, so its figures are as they were);
 *  - from MEDIAN_CI_ORDER_MIN on, the distribution-free order-statistic
 *    interval [x(r), x(n+1-r)] of the sorted samples, r the largest rank
 *    with 2 P(B <= r-1) <= 0.05 for B ~ binomial(n, 1/2) (Conover,
 *    "Practical Nonparametric Statistics", 3rd ed., 1999, ch. 3: the
 *    confidence interval for a quantile): at least 95% for any
 *    distribution, read off the one sort, no resampling. It exists from
 *    n = 6; 10 keeps it clear of every committed cell.
 * Censored samples sort as +inf: a bound that falls on one is the largest
 * censored bound, and the CI's upper end is flagged censored.
 */
#define BOOT_RESAMPLES 2000
#define MEDIAN_CI_ORDER_MIN 10

/* The rule in a sentence, for --describe (docs/matrices.md says the same). */
#define STATS_STR_(x) #x
#define STATS_STR(x) STATS_STR_(x)
#define ORDER_MIN_STR STATS_STR(MEDIAN_CI_ORDER_MIN)
#define RESAMPLES_STR STATS_STR(BOOT_RESAMPLES)
#define MEDIAN_CI_TEXT                                                      \
	"a median's 95% CI: below " ORDER_MIN_STR " samples, a percentile " \
	"bootstrap of " RESAMPLES_STR " resamples; from " ORDER_MIN_STR     \
	" on, the order-statistic interval [x(r), x(n+1-r)], r the "        \
	"largest rank with 2 P(B <= r-1) <= 0.05 for B ~ binomial(n, 1/2) " \
	"(Conover)"

/* r of the order-statistic interval of n samples (1-based); 0: none. */
size_t median_ci_rank(size_t n);

/*
 * Summarize n samples. seed makes the bootstrap reproducible; resamples is
 * the bootstrap size (0 for BOOT_RESAMPLES). Returns 0, or -1 if n == 0 or
 * out of memory.
 */
int summarize(const struct sample *s, size_t n, uint64_t seed,
	      unsigned int resamples, struct summary *out);

/*
 * The median and its CI (summarize()'s, to the bit) of each prefix of a
 * sequence of samples, for the stop rule, which asks after every boot:
 * the sequence is sorted once and a Fenwick tree counts the prefix's
 * samples by sorted place, so a prefix of MEDIAN_CI_ORDER_MIN or more
 * costs O(log n) plus median_ci_rank()'s O(sqrt n); shorter ones are
 * summarize()'s bootstrap (at most MEDIAN_CI_ORDER_MIN - 1 samples).
 */
struct median_prefix {
	const struct sample *s; /* the sequence, n samples */
	size_t n, k; /* k: samples in the tree */
	uint64_t seed;
	double *sorted, bound; /* bound: the prefix's largest censored one */
	size_t *place, *tree; /* s[i]'s sorted place; 1-based counts */
};

/* 0, or -1 out of memory. s must outlive p. */
int median_prefix_init(struct median_prefix *p, const struct sample *s,
		       size_t n, uint64_t seed);
/*
 * The first k samples' n, median, CI and their flags into out (other
 * fields 0). k never below a k asked before, nor above n. 0, or -1
 * (k == 0, out of memory).
 */
int median_prefix_at(struct median_prefix *p, size_t k, struct summary *out);
void median_prefix_free(struct median_prefix *p);

/*
 * Distinct texts, as "k,n" into buf: of the items idx[0..nidx) of an array
 * at base (each size bytes) whose string at offset off is not empty (n of
 * them), k are distinct; "," when none has one. 0, or -1 out of memory.
 */
int distinct_texts(const void *base, size_t size, size_t off, const size_t *idx,
		   size_t nidx, char *buf, size_t len);

#endif /* CRNGBENCH_STATS_H */
