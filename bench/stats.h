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
	double ci_lo, ci_hi; /* bootstrap 95% CI of the median */
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
 * The bootstrap's size, stated (--describe, docs/matrices.md): 2000
 * resamples of a cell's n samples while n <= 1000 (every committed run's
 * figures); above, BOOT_DRAWS / n resamples, at least 200, so that one
 * CI draws at most BOOT_DRAWS indices (or 200 n) and a resample costs O(n)
 * (counted, not sorted): a summary grows linearly with the boots.
 */
#define BOOT_RESAMPLES 2000
#define BOOT_RESAMPLES_MIN 200
#define BOOT_DRAWS 2000000

/* The resamples summarize() takes of n samples (resamples if not 0). */
unsigned int boot_resamples(size_t n, unsigned int resamples);

/*
 * Summarize n samples. seed makes the bootstrap reproducible; resamples is
 * the bootstrap size (0 for boot_resamples()'s). Returns 0, or -1 if
 * n == 0.
 */
int summarize(const struct sample *s, size_t n, uint64_t seed,
	      unsigned int resamples, struct summary *out);

/*
 * Distinct texts, as "k,n" into buf: of the items idx[0..nidx) of an array
 * at base (each size bytes) whose string at offset off is not empty (n of
 * them), k are distinct; "," when none has one. 0, or -1 out of memory.
 */
int distinct_texts(const void *base, size_t size, size_t off, const size_t *idx,
		   size_t nidx, char *buf, size_t len);

/* xorshift64*: small, seedable, reproducible across hosts. */
uint64_t rng_next(uint64_t *state);

#endif /* CRNGBENCH_STATS_H */
