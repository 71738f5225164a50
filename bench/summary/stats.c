// SPDX-License-Identifier: GPL-2.0
#include "stats.h"
#include "../ground/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The percentile at frac of the way from a (rank lo) to b (rank lo + 1):
 * towards a censored (+inf) sample the value is unknown, +inf.
 */
static double between(double a, double b, double frac)
{
	if (frac == 0 || b == a)
		return a;
	if (isinf(b))
		return INFINITY;
	return a + frac * (b - a);
}

double percentile_sorted(const double *sorted, size_t n, double q)
{
	double pos;
	size_t lo;

	if (!n)
		return NAN;
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return between(sorted[lo], sorted[lo + 1], pos - (double)lo);
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
	double pos = q * (double)(n - 1), x, y;
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return select_kth(a, n, n - 1);
	x = select_kth(a, n, lo);
	if (pos == (double)lo)
		return x;
	y = a[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (a[i] < y)
			y = a[i];
	return between(x, y, pos - (double)lo);
}

size_t median_ci_rank(size_t n)
{
	/*
	 * Terms t_k = C(n, k) / C(n, k0) for k0 <= k <= n - k0, k0 six
	 * sqrt(n) below n / 2: outside, less than 1e-30 of the mass, and
	 * within, no term past 1e32, so no underflow at any n.
	 */
	double spread = 6 * sqrt((double)n), t, total = 0, tail = 0;
	size_t k0 = (double)n / 2 > spread ? (size_t)((double)n / 2 - spread) :
					     0,
	       k, r = 0;

	for (k = k0, t = 1; k <= n - k0; k++) {
		total += t;
		t *= (double)(n - k) / (double)(k + 1);
	}
	for (k = k0, t = 1; k <= n / 2; k++) {
		tail += t;
		if (tail > total / 40) /* P(B <= k) past 0.025 */
			break;
		r = k + 1;
		t *= (double)(n - k) / (double)(k + 1);
	}
	return r;
}

/*
 * The CI's ends into out: an end on a censored sample (+inf) is the
 * largest censored bound, and the upper one is flagged.
 */
static void set_ci(struct summary *out, double lo, double hi, double bound)
{
	out->ci_lo = isinf(lo) ? bound : lo;
	out->ci_hi = isinf(hi) ? bound : hi;
	out->ci_censored = isinf(hi);
}

/*
 * The percentile bootstrap of the median of the sorted v[0..n) into *lo,
 * *hi: resamples medians of n draws with replacement. 0, or -1 out of
 * memory.
 */
static int bootstrap_ci(const double *v, size_t n, uint64_t seed,
			unsigned int resamples, double *lo, double *hi)
{
	double *meds = malloc(resamples * sizeof(*meds));
	size_t *count = malloc(n * sizeof(*count));
	uint64_t st = seed ? seed : 1;
	u128 inv = u128_inverse(n);

	if (!meds || !count) {
		free(meds);
		free(count);
		return -1;
	}
	/* samples all alike: every resample's median is theirs */
	for (size_t k = 0; k < resamples; k++)
		meds[k] = v[0] == v[n - 1] ?
				  v[0] :
				  resample_median(v, n, count, &st, inv);
	*lo = percentile_select(meds, resamples, 0.025);
	*hi = percentile_select(meds, resamples, 0.975);
	free(meds);
	free(count);
	return 0;
}

/*
 * n, censored, mean, sd, min and max of s[0..n) into out; v[i] s[i]'s
 * value, +inf if censored; the largest censored bound into *bound.
 */
static void moments(const struct sample *s, size_t n, double *v, double *bound,
		    struct summary *out)
{
	double sum = 0, sq = 0;
	size_t m = 0;

	out->n = n;
	out->min = INFINITY;
	out->max = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (s[i].censored) {
			out->censored++;
			v[i] = INFINITY;
			if (s[i].v > *bound)
				*bound = s[i].v;
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
	if (!m) {
		out->mean = out->sd = out->min = out->max = NAN;
		return;
	}
	out->mean = sum / (double)m;
	for (size_t i = 0; i < n; i++)
		if (!s[i].censored)
			sq += (s[i].v - out->mean) * (s[i].v - out->mean);
	out->sd = m > 1 ? sqrt(sq / (double)(m - 1)) : 0;
}

/* Outliers: |x - median| > 3 * 1.4826 * MAD (uncensored only); dev: n. */
static void outliers(const struct sample *s, size_t n, double *dev,
		     struct summary *out)
{
	size_t k = 0;
	double mad;

	if (n - out->censored < 3 || out->median_censored)
		return;
	for (size_t i = 0; i < n; i++)
		if (!s[i].censored)
			dev[k++] = fabs(s[i].v - out->median);
	qsort(dev, k, sizeof(*dev), cmp_double);
	mad = 1.4826 * percentile_sorted(dev, k, 0.5);
	for (size_t i = 0; i < n; i++)
		if (!s[i].censored && mad > 0 &&
		    fabs(s[i].v - out->median) > 3 * mad)
			out->outliers++;
}

int summarize(const struct sample *s, size_t n, uint64_t seed,
	      unsigned int resamples, struct summary *out)
{
	double *v, bound = 0, lo, hi;
	size_t r;

	memset(out, 0, sizeof(*out));
	if (!n || !(v = malloc(n * sizeof(*v))))
		return -1;
	moments(s, n, v, &bound, out);
	qsort(v, n, sizeof(*v), cmp_double);
	out->median = rank_stat(v, n, 0.5, bound, &out->median_censored);
	out->p10 = rank_stat(v, n, 0.1, bound, &out->p10_censored);
	out->p90 = rank_stat(v, n, 0.9, bound, &out->p90_censored);
	if (n >= MEDIAN_CI_ORDER_MIN) {
		r = median_ci_rank(n);
		lo = v[r - 1];
		hi = v[n - r];
	} else if (bootstrap_ci(v, n, seed,
				resamples ? resamples : BOOT_RESAMPLES, &lo,
				&hi)) {
		free(v);
		return -1;
	}
	set_ci(out, lo, hi, bound);
	/* v's order is no longer needed: it holds the deviations */
	outliers(s, n, v, out);
	free(v);
	return 0;
}

/* A value and its place in the sequence, sorted by value then place. */
struct placed {
	double v;
	size_t i;
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

int median_prefix_init(struct median_prefix *p, const struct sample *s,
		       size_t n, uint64_t seed)
{
	struct placed *by = malloc((n ? n : 1) * sizeof(*by));

	memset(p, 0, sizeof(*p));
	p->s = s;
	p->n = n;
	p->seed = seed;
	p->sorted = malloc((n ? n : 1) * sizeof(*p->sorted));
	p->place = malloc((n ? n : 1) * sizeof(*p->place));
	p->tree = calloc(n + 1, sizeof(*p->tree));
	if (!by || !p->sorted || !p->place || !p->tree) {
		free(by);
		median_prefix_free(p);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		by[i] = (struct placed){ s[i].censored ? INFINITY : s[i].v, i };
	qsort(by, n, sizeof(*by), cmp_placed);
	for (size_t j = 0; j < n; j++) {
		p->sorted[j] = by[j].v;
		p->place[by[j].i] = j;
	}
	free(by);
	return 0;
}

/* The j-th smallest (from 0) of the samples in the tree. */
static double prefix_kth(const struct median_prefix *p, size_t j)
{
	size_t at = 0, step = 1, left = j + 1;

	while (step * 2 <= p->n)
		step *= 2;
	for (; step; step /= 2)
		if (at + step <= p->n && p->tree[at + step] < left) {
			at += step;
			left -= p->tree[at];
		}
	return p->sorted[at];
}

int median_prefix_at(struct median_prefix *p, size_t k, struct summary *out)
{
	double pos = 0.5 * (double)(k - 1), med;
	size_t lo = (size_t)pos, r;

	if (!k || k < p->k || k > p->n)
		return -1;
	for (; p->k < k; p->k++) {
		if (p->s[p->k].censored && p->s[p->k].v > p->bound)
			p->bound = p->s[p->k].v;
		for (size_t i = p->place[p->k] + 1; i <= p->n; i += i & -i)
			p->tree[i]++;
	}
	if (k < MEDIAN_CI_ORDER_MIN) {
		struct summary su;

		if (summarize(p->s, k, p->seed, 0, &su))
			return -1;
		memset(out, 0, sizeof(*out));
		out->n = su.n;
		out->median = su.median;
		out->median_censored = su.median_censored;
		out->ci_lo = su.ci_lo;
		out->ci_hi = su.ci_hi;
		out->ci_censored = su.ci_censored;
		return 0;
	}
	memset(out, 0, sizeof(*out));
	out->n = k;
	med = prefix_kth(p, lo);
	if (lo + 1 < k)
		med = between(med, prefix_kth(p, lo + 1), pos - (double)lo);
	out->median_censored = isinf(med);
	out->median = out->median_censored ? p->bound : med;
	r = median_ci_rank(k);
	set_ci(out, prefix_kth(p, r - 1), prefix_kth(p, k - r), p->bound);
	return 0;
}

void median_prefix_free(struct median_prefix *p)
{
	free(p->sorted);
	free(p->place);
	free(p->tree);
	memset(p, 0, sizeof(*p));
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
