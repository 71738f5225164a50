// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rng_next(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double percentile_sorted(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (!n)
		return NAN;
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	if (lo + 1 >= n)
		return sorted[n - 1];
	frac = pos - (double)lo;
	if (frac == 0 || sorted[lo + 1] == sorted[lo])
		return sorted[lo];
	/* Towards a censored (+inf) sample the value is unknown: +inf. */
	if (isinf(sorted[lo + 1]))
		return INFINITY;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/*
 * Censored samples sort as +inf. A rank statistic that interpolates into
 * the +inf region is reported as the largest finite bound at or below it,
 * flagged censored.
 */
static double rank_stat(const double *sorted, size_t n, double q, double bound,
			int *censored)
{
	double v = percentile_sorted(sorted, n, q);

	*censored = isinf(v);
	return *censored ? bound : v;
}

int summarize(const struct sample *s, size_t n, uint64_t seed,
	      unsigned int resamples, struct summary *out)
{
	double *v, *boot, *meds, bound = 0, sum = 0, sq = 0, mad;
	size_t i, k, m = 0;
	uint64_t st = seed ? seed : 1;

	memset(out, 0, sizeof(*out));
	if (!n)
		return -1;
	if (!resamples)
		resamples = 2000;
	v = malloc(n * sizeof(*v));
	boot = malloc(n * sizeof(*boot));
	meds = malloc(resamples * sizeof(*meds));
	if (!v || !boot || !meds) {
		free(v);
		free(boot);
		free(meds);
		return -1;
	}
	out->n = n;
	out->min = INFINITY;
	out->max = -INFINITY;
	for (i = 0; i < n; i++) {
		if (s[i].censored) {
			out->censored++;
			v[i] = INFINITY;
			if (s[i].v > bound)
				bound = s[i].v;
			continue;
		}
		v[i] = s[i].v;
		sum += s[i].v;
		m++;
		if (s[i].v < out->min)
			out->min = s[i].v;
		if (s[i].v > out->max)
			out->max = s[i].v;
	}
	if (m) {
		out->mean = sum / (double)m;
		for (i = 0; i < n; i++)
			if (!s[i].censored)
				sq += (s[i].v - out->mean) *
				      (s[i].v - out->mean);
		out->sd = m > 1 ? sqrt(sq / (double)(m - 1)) : 0;
	} else {
		out->mean = out->sd = out->min = out->max = NAN;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	out->median = rank_stat(v, n, 0.5, bound, &out->median_censored);
	out->p10 = rank_stat(v, n, 0.1, bound, &out->p10_censored);
	out->p90 = rank_stat(v, n, 0.9, bound, &out->p90_censored);

	/* Bootstrap the median: resample with replacement, percentile CI. */
	for (k = 0; k < resamples; k++) {
		for (i = 0; i < n; i++)
			boot[i] = v[rng_next(&st) % n];
		qsort(boot, n, sizeof(*boot), cmp_double);
		meds[k] = percentile_sorted(boot, n, 0.5);
	}
	qsort(meds, resamples, sizeof(*meds), cmp_double);
	out->ci_lo = percentile_sorted(meds, resamples, 0.025);
	out->ci_hi = percentile_sorted(meds, resamples, 0.975);
	if (isinf(out->ci_lo))
		out->ci_lo = bound;
	if (isinf(out->ci_hi)) {
		out->ci_hi = bound;
		out->ci_censored = 1;
	}

	/* Outliers: |x - median| > 3 * 1.4826 * MAD (uncensored only). */
	if (m >= 3 && !out->median_censored) {
		for (i = 0, k = 0; i < n; i++)
			if (!s[i].censored)
				boot[k++] = fabs(s[i].v - out->median);
		qsort(boot, k, sizeof(*boot), cmp_double);
		mad = 1.4826 * percentile_sorted(boot, k, 0.5);
		for (i = 0; i < n; i++)
			if (!s[i].censored && mad > 0 &&
			    fabs(s[i].v - out->median) > 3 * mad)
				out->outliers++;
	}
	free(v);
	free(boot);
	free(meds);
	return 0;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int distinct_texts(const void *base, size_t size, size_t off, const size_t *idx,
		   size_t nidx, char *buf, size_t len)
{
	const char **v = malloc((nidx ? nidx : 1) * sizeof(*v));
	size_t n = 0, k = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < nidx; i++) {
		const char *t = (const char *)base + idx[i] * size + off;

		if (*t)
			v[n++] = t;
	}
	qsort(v, n, sizeof(*v), by_string);
	for (size_t i = 0; i < n; i++)
		k += !i || strcmp(v[i - 1], v[i]);
	free(v);
	if (n)
		snprintf(buf, len, "%zu,%zu", k, n);
	else
		snprintf(buf, len, ",");
	return 0;
}
