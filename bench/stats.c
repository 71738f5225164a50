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

__extension__ typedef unsigned __int128 u128;

/*
 * x % d, exactly, without a division: Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation" (2019), with F = 128 >= 64 + log2(d)
 * bits; inv is u128_inverse(d). The bootstrap draws x % n per index and a
 * 64-bit division was most of its time.
 */
static inline uint64_t mod_by(uint64_t x, uint64_t d, u128 inv)
{
	u128 low = inv * x;
	u128 t = ((u128)(uint64_t)low * d) >> 64;

	return (uint64_t)(((u128)(uint64_t)(low >> 64) * d + t) >> 64);
}

/* ceil(2^128 / d) modulo 2^128 (0 for d = 1: every x % 1 is 0). */
static u128 u128_inverse(uint64_t d)
{
	return (u128)-1 / d + 1;
}

/*
 * The median of one resample of the sorted v[0..n): n indices drawn with
 * replacement are counted, not sorted (the resample's sorted order is v's
 * order, each v[i] count[i] times), so a resample costs O(n), and the
 * median is the one percentile_sorted() gives of the sorted resample.
 */
static double resample_median(const double *v, size_t n, size_t *count,
			      uint64_t *st, u128 inv)
{
	size_t lo = (size_t)(0.5 * (double)(n - 1)), seen = 0, i;
	double a, b, frac = 0.5 * (double)(n - 1) - (double)lo;

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < n; i++)
		count[mod_by(rng_next(st), n, inv)]++;
	for (i = 0; seen + count[i] <= lo; i++)
		seen += count[i];
	a = v[i];
	if (lo + 1 >= n || frac == 0)
		return a;
	if (seen + count[i] <= lo + 1)
		while (!count[++i])
			;
	b = v[i];
	if (b == a)
		return a;
	if (isinf(b))
		return INFINITY;
	return a + frac * (b - a);
}

/*
 * a[k] of a sorted, without sorting: a is reordered so that a[k] is in
 * its sorted place, nothing above it before it and nothing below after
 * (quickselect; O(n) on average against qsort's O(n log n)).
 */
static double select_kth(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		double pivot = a[lo + (hi - lo) / 2], t;
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
	return a[k];
}

/* percentile_sorted(sorted a, n, q), from a in any order (reordered). */
static double percentile_select(double *a, size_t n, double q)
{
	double pos = q * (double)(n - 1), frac, x, y;
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return select_kth(a, n, n - 1);
	frac = pos - (double)lo;
	x = select_kth(a, n, lo);
	if (frac == 0)
		return x;
	y = a[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (a[i] < y)
			y = a[i];
	if (y == x)
		return x;
	if (isinf(y))
		return INFINITY;
	return x + frac * (y - x);
}

unsigned int boot_resamples(size_t n, unsigned int resamples)
{
	size_t r;

	if (resamples)
		return resamples;
	r = n ? BOOT_DRAWS / n : BOOT_RESAMPLES;
	return r > BOOT_RESAMPLES     ? BOOT_RESAMPLES :
	       r < BOOT_RESAMPLES_MIN ? BOOT_RESAMPLES_MIN :
					(unsigned int)r;
}

int summarize(const struct sample *s, size_t n, uint64_t seed,
	      unsigned int resamples, struct summary *out)
{
	double *v, *boot, *meds, bound = 0, sum = 0, sq = 0, mad;
	size_t i, k, m = 0, *count;
	u128 inv;
	uint64_t st = seed ? seed : 1;

	memset(out, 0, sizeof(*out));
	if (!n)
		return -1;
	resamples = boot_resamples(n, resamples);
	inv = u128_inverse(n);
	v = malloc(n * sizeof(*v));
	boot = malloc(n * sizeof(*boot));
	meds = malloc(resamples * sizeof(*meds));
	count = malloc(n * sizeof(*count));
	if (!v || !boot || !meds || !count) {
		free(v);
		free(boot);
		free(meds);
		free(count);
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
	/* samples all alike: every resample's median is theirs */
	for (k = 0; k < resamples; k++)
		meds[k] = v[0] == v[n - 1] ?
				  v[0] :
				  resample_median(v, n, count, &st, inv);
	out->ci_lo = percentile_select(meds, resamples, 0.025);
	out->ci_hi = percentile_select(meds, resamples, 0.975);
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
	free(count);
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
