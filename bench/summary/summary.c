// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "summary.h"
#include "cellgroup.h"
#include "../rows/row.h"
#include "stats.h"
#include "stop.h"
#include "../ground/runlimits.h"
#include "../ground/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The measures summarized per cell, with how each is censored. The order
 * is summary.csv's; each measure's bootstrap seed is the run's seed plus
 * its index, so new measures go at the end and old figures stay put.
 */
static const struct measure {
	const char *name;
	const char *clock;
	const char *doc;
	size_t value; /* offsetof the int64 value in struct row */
	long censor; /* offsetof the 0/1 censored flag, or -1 */
	long bound; /* offsetof the censoring bound, or -1 (use value) */
} measures[] = {
#define OFF(f) offsetof(struct row, f)
	{ "kernel_to_init", "guest", "kernel start to PID 1", OFF(init_ns), -1,
	  -1 },
	{ "crng_ready_kmsg", "guest", "CRNG ready per the kernel log",
	  OFF(crng_ready_kmsg_ns), (long)OFF(crng_ready_censored),
	  (long)OFF(crng_ready_bound_ns) },
	{ "crng_ready_poll", "guest", "CRNG ready per the poll() watcher",
	  OFF(crng_ready_poll_ns), (long)OFF(crng_ready_censored),
	  (long)OFF(crng_ready_bound_ns) },
	{ "first_urandom_return", "guest",
	  "first blocking urandom read returned, from kernel start",
	  OFF(first_urandom_end_ns), (long)OFF(first_urandom_censored), -1 },
	{ "first_urandom_latency", "guest", "that read's own duration",
	  OFF(first_urandom_dur_ns), (long)OFF(first_urandom_censored), -1 },
	{ "probe_overhead", "guest", "PID 1 entry to exec, less its reads",
	  OFF(probe_overhead_ns), -1, -1 },
	{ "game_seeded", "guest", "the game stand-in got its seed",
	  OFF(game_seeded_ns), -1, -1 },
	{ "userspace_finished", "guest", "systemd's boot finished",
	  OFF(finish_ns), -1, -1 },
	{ "host_first_urandom", "host", "the first urandom record arrived",
	  OFF(host_urandom_ns), -1, -1 },
	{ "host_wall", "host", "QEMU spawn to exit", OFF(host_exit_ns), -1,
	  -1 },
	{ "crng_ready", "guest",
	  "CRNG ready: the kernel log's time, else the watcher's (raw.csv crng_ready_ns)",
	  OFF(crng_ready_ns), (long)OFF(crng_ready_censored),
	  (long)OFF(crng_ready_bound_ns) },
#undef OFF
};

#define NMEASURES (sizeof(measures) / sizeof(measures[0]))

const char *summary_measure(size_t i, const char **clock, const char **doc)
{
	if (i >= NMEASURES)
		return NULL;
	*clock = measures[i].clock;
	*doc = measures[i].doc;
	return measures[i].name;
}

/* The limits of a run's tables, by name, for --describe. */
static const struct {
	const char *name;
	long value;
} limits[] = {
#define LIMIT_ROW(name, value, what) { #name, value },
	RUN_LIMITS(LIMIT_ROW)
#undef LIMIT_ROW
};

void summary_describe(FILE *out)
{
	const char *clock, *doc, *name;

	fprintf(out, "  \"measures\": [");
	for (size_t i = 0; (name = summary_measure(i, &clock, &doc)); i++)
		fprintf(out, "%s\n    {\"name\": \"%s\", \"clock\": \"%s\"}",
			i ? "," : "", name, clock);
	fprintf(out,
		"\n  ],\n  \"median_ci\": {\"resamples\": %d, \"order_min\": %d, \"rule\": \"%s\"},\n",
		BOOT_RESAMPLES, MEDIAN_CI_ORDER_MIN, MEDIAN_CI_TEXT);
	fprintf(out, "  \"limits\": {");
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		fprintf(out, "%s\"%s\": %ld", i ? ", " : "", limits[i].name,
			limits[i].value);
	fprintf(out, "},\n");
}

static int64_t field(const struct row *r, long off)
{
	return *(const int64_t *)((const char *)r + off);
}

/* A cell's samples of one measure; censored ones at their bound. */
static size_t samples(const struct cellrows *cr, const struct row *rows,
		      const struct measure *me, struct sample *s)
{
	size_t k = 0;

	for (size_t j = 0; j < cr->n; j++) {
		const struct row *r = &rows[cr->idx[j]];
		int64_t v = field(r, (long)me->value);

		if (me->censor >= 0 && field(r, me->censor) == 1) {
			int64_t b = me->bound >= 0 ? field(r, me->bound) : v;

			if (b < 0)
				b = v;
			s[k++] = (struct sample){ (double)(b < 0 ? 0 : b), 1 };
		} else if (v >= 0) {
			s[k++] = (struct sample){ (double)v, 0 };
		}
	}
	return k;
}

static void fmt_ms(char *buf, size_t len, double ns, int censored)
{
	if (isnan(ns))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s%.3f", censored ? ">" : "", ns / 1e6);
}

/* One cell's statistics of one measure, kept for the terminal. */
struct result {
	int have; /* summarize() gave figures */
	struct summary su;
};

static void print_measure(FILE *out, const struct measure *me,
			  const struct summary *su)
{
	char med[32], lo[32], hi[32];

	fmt_ms(med, sizeof(med), su->median, su->median_censored);
	fmt_ms(lo, sizeof(lo), su->ci_lo, 0);
	fmt_ms(hi, sizeof(hi), su->ci_hi, su->ci_censored);
	fprintf(out, "  %-22s median %10s ms  [95%% CI %s .. %s]", me->name,
		med, lo, hi);
	if (su->n > su->censored)
		fprintf(out, "  mean %.3f ± %.3f  range %.3f … %.3f",
			su->mean / 1e6, su->sd / 1e6, su->min / 1e6,
			su->max / 1e6);
	if (su->censored)
		fprintf(out, "  (%zu of %zu censored)", su->censored, su->n);
	if (su->outliers)
		fprintf(out, "  warning: %zu outlier(s) beyond 3 MAD",
			su->outliers);
	fprintf(out, "\n");
}

/* One summary.csv line for a cell and a measure; the figures into res. */
static int write_measure(FILE *f, const struct cellrows *cr,
			 const struct row *rows, size_t m, uint64_t seed,
			 struct result *res, const char *dg)
{
	const struct measure *me = &measures[m];
	struct sample *s = calloc(cr->n ? cr->n : 1, sizeof(*s));
	struct summary *su = &res->su;
	size_t k;
	char note[128] = "";

	if (!s)
		return -1;
	k = samples(cr, rows, me, s);
	res->have = 0;
	for (int a = 0; a < AX_N; a++) {
		char q[256];
		size_t off = 0;

		csv_field(q, sizeof(q), &off, cr->first->axis[a], 1);
		fprintf(f, "%s,", q);
	}
	if (cr->skipped && !k) {
		char text[300], q[640];
		size_t off = 0;

		/* one field, quoted whole: the reason may hold commas */
		snprintf(text, sizeof(text), "not measured: %s",
			 cr->skip_reason);
		csv_field(q, sizeof(q), &off, text, 1);
		fprintf(f, "%s,%s,0,0,%zu,%zu,,,,,,,,,,,,%s,%s\n", me->name,
			me->clock, cr->failed, cr->skipped, q, dg);
	} else if (summarize(s, k, seed + m, 0, su)) {
		fprintf(f, "%s,%s,0,0,%zu,%zu,,,,,,,,,,,,no data,%s\n",
			me->name, me->clock, cr->failed, cr->skipped, dg);
	} else {
		res->have = 1;
		if (su->outliers)
			snprintf(note, sizeof(note),
				 "%zu outlier(s) beyond 3 MAD", su->outliers);
		fprintf(f,
			"%s,%s,%zu,%zu,%zu,%zu,%.3f,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%s,%s\n",
			me->name, me->clock, su->n, su->censored, cr->failed,
			cr->skipped, su->median / 1e6, su->median_censored,
			su->mean / 1e6, su->sd / 1e6, su->min / 1e6,
			su->max / 1e6, su->p10 / 1e6, su->p90 / 1e6,
			su->ci_lo / 1e6, su->ci_hi / 1e6, su->outliers, note,
			dg);
	}
	free(s);
	return 0;
}

static void print_cell(FILE *out, const struct cellrows *cr)
{
	fprintf(out, "\n");
	for (int a = 0; a < AX_N; a++)
		fprintf(out, "%s%s=%s", a ? " " : "", axis_name((enum axis)a),
			cr->first->axis[a]);
	fprintf(out, "\n  n=%zu", cr->n);
	if (cr->failed)
		fprintf(out, ", %zu failed boots (see raw.csv status/reason)",
			cr->failed);
	if (cr->skipped)
		fprintf(out, ", skipped: %s", cr->skip_reason);
	fprintf(out, "\n");
}

/* --verbose: every measure of every cell. */
static void print_verbose(FILE *out, const struct cellrows *cells,
			  size_t ncells, const struct result *res)
{
	for (size_t c = 0; c < ncells; c++) {
		print_cell(out, &cells[c]);
		for (size_t m = 0; m < NMEASURES; m++)
			if (res[c * NMEASURES + m].have)
				print_measure(out, &measures[m],
					      &res[c * NMEASURES + m].su);
	}
}

static int write_table(FILE *f, const struct cellrows *cells, size_t ncells,
		       const struct row *rows, uint64_t seed,
		       struct result *res, const struct stop_cell *sc)
{
	for (int a = 0; a < AX_N; a++)
		fprintf(f, "%s,", axis_name((enum axis)a));
	fputs("measure,clock,n,censored,failed,skipped,median_ms,median_censored,mean_ms,sd_ms,min_ms,max_ms,"
	      "p10_ms,p90_ms,ci95_lo_ms,ci95_hi_ms,outliers,note,digests_distinct,digests_n,boots,stop\n",
	      f);
	for (size_t c = 0; c < ncells; c++) {
		char dg[80]; /* the first urandom reads' digests "k,n"; stop's */

		if (distinct_texts(rows, sizeof(*rows),
				   offsetof(struct row, urandom_digest),
				   cells[c].idx, cells[c].n, dg, sizeof(dg)))
			return -1;
		strcat(dg, sc[cells[c].first->cell].csv); /* fits: 48 + 32 */
		for (size_t m = 0; m < NMEASURES; m++)
			if (write_measure(f, &cells[c], rows, m, seed,
					  &res[c * NMEASURES + m], dg))
				return -1;
	}
	return 0;
}

/* --- the compact terminal table (hyperfine-like) --- */

static size_t measure_index(const char *name)
{
	for (size_t m = 0; m < NMEASURES; m++)
		if (!strcmp(measures[m].name, name))
			return m;
	return 0;
}

/* Milliseconds at a precision that shows sub-millisecond reads. */
static void fmt_short(char *buf, size_t len, double ns, int censored)
{
	double v = ns / 1e6;

	snprintf(buf, len,
		 v >= 100 ? "%s%.0f" :
		 v >= 1	  ? "%s%.1f" :
			    "%s%.3f",
		 censored ? ">" : "", v);
}

/*
 * A CRNG ready the kernel logged before its clock started: the probe
 * clamps that time to 0 (guest-image/emit.c), which is no measurement
 * of it, only a bound. Shown in words, never as 0.000 ms.
 */
#define BEFORE_CLOCK "before timekeeping"

/* A time of a result: fmt_short's, or BEFORE_CLOCK for a clamped 0. */
static void fmt_time(char *buf, size_t len, double ns, int censored,
		     int clamped)
{
	if (clamped && ns == 0 && !censored)
		snprintf(buf, len, BEFORE_CLOCK);
	else
		fmt_short(buf, len, ns, censored);
}

/*
 * "median [lo, hi]" of a result, or what stands in for it; clamped: a
 * time of 0 is one the kernel could not stamp (the CRNG ready measures).
 */
static void fmt_result(char *buf, size_t len, const struct result *r,
		       int clamped)
{
	char med[24], lo[24], hi[24];

	if (!r->have) {
		snprintf(buf, len, "-");
		return;
	}
	if (clamped && r->su.ci_hi == 0 && !r->su.ci_censored) {
		snprintf(buf, len, BEFORE_CLOCK); /* every boot's median */
		return;
	}
	fmt_time(med, sizeof(med), r->su.median, r->su.median_censored,
		 clamped);
	fmt_time(lo, sizeof(lo), r->su.ci_lo, 0, clamped);
	fmt_time(hi, sizeof(hi), r->su.ci_hi, r->su.ci_censored, clamped);
	text_printf(buf, len, "%s [%s, %s]", med, lo, hi);
}

/* The axes whose value differs between cells, variant and accel aside. */
static void varying_axes(const struct cellrows *cells, size_t n, int *vary)
{
	for (int a = 0; a < AX_N; a++) {
		vary[a] = 0;
		for (size_t c = 1; c < n && !vary[a]; c++)
			vary[a] = strcmp(cells[c].first->axis[a],
					 cells[0].first->axis[a]) != 0;
	}
	vary[AX_variant] = vary[AX_accel] = 0;
}

/* A cell's condition: its value of each varying axis. */
static void condition(const struct cellrows *c, const int *vary, char *buf,
		      size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int a = 0; a < AX_N && off < len; a++)
		if (vary[a])
			off += (size_t)snprintf(buf + off, len - off, "%s%s=%s",
						off ? " " : "",
						axis_name((enum axis)a),
						c->first->axis[a]);
}

/*
 * Skipped cells, one line per reason, in the order of each reason's first
 * skipped cell (first[c]: the first cell of c's reason; owner[]: that
 * reason's first skipped cell, + 1).
 */
static void print_skipped(FILE *out, const struct cellrows *cells, size_t n)
{
	size_t *first = calloc(n + 1, sizeof(*first)),
	       *owner = calloc(n + 1, sizeof(*owner)),
	       *count = calloc(n + 1, sizeof(*count));

	if (first && owner && count &&
	    !cells_first_alike(cells, n, -1, 1, first)) {
		for (size_t c = 0; c < n; c++) {
			if (!cells[c].skipped || cells[c].n)
				continue;
			if (!owner[first[c]])
				owner[first[c]] = c + 1;
			count[owner[first[c]] - 1]++;
		}
		for (size_t c = 0; c < n; c++)
			if (count[c])
				fprintf(out, "skipped: %zu %s cells: %s\n",
					count[c],
					cells[c].first->axis[AX_accel],
					cells[c].skip_reason);
	}
	free(first);
	free(owner);
	free(count);
}

/*
 * The cells of c's condition (c, then next[c], ...) with figures for
 * measure m, fastest first.
 */
static size_t by_speed(const size_t *next, size_t c, const struct result *res,
		       size_t m, size_t *out)
{
	size_t k = 0;

	for (size_t d = c; d != SIZE_MAX; d = next[d]) {
		size_t i = k;

		if (!res[d * NMEASURES + m].have)
			continue;
		while (i > 0 && res[out[i - 1] * NMEASURES + m].su.median >
					res[d * NMEASURES + m].su.median) {
			out[i] = out[i - 1];
			i--;
		}
		out[i] = d;
		k++;
	}
	return k;
}

/*
 * Each condition's cells as a list: first[c] the condition's first cell,
 * next[c] its next cell or SIZE_MAX (last[]: each list's end so far).
 */
static int condition_lists(const struct cellrows *cells, size_t n,
			   size_t *first, size_t *next)
{
	size_t *last = calloc(n + 1, sizeof(*last));

	if (!last || cells_first_alike(cells, n, AX_variant, 0, first)) {
		free(last);
		return -1;
	}
	for (size_t c = 0; c < n; c++) {
		next[c] = SIZE_MAX;
		if (first[c] != c)
			next[last[first[c]]] = c;
		last[first[c]] = c;
	}
	free(last);
	return 0;
}

/* One condition's line: its variants against the fastest (order[0]). */
static void print_comparison(FILE *out, const struct cellrows *cells,
			     const struct result *res, const int *vary,
			     size_t c, const size_t *order, size_t k)
{
	size_t lat = measure_index("first_urandom_latency");
	const struct summary *best = &res[order[0] * NMEASURES + lat].su;
	char cond[256], v[32];

	condition(&cells[c], vary, cond, sizeof(cond));
	fmt_short(v, sizeof(v), best->median, best->median_censored);
	fprintf(out, "  %s%s%s: %s %s ms;", cond, cond[0] ? ", " : "",
		cells[c].first->axis[AX_accel],
		cells[order[0]].first->axis[AX_variant], v);
	for (size_t i = 1; i < k; i++) {
		const struct summary *su = &res[order[i] * NMEASURES + lat].su;
		double x = su->median / best->median;

		fprintf(out, x < 10 ? " %s %s%.1fx" : " %s %s%.0fx",
			cells[order[i]].first->axis[AX_variant],
			su->median_censored ? ">" : "", x);
	}
	fprintf(out, "\n");
}

/*
 * Per condition, the variants' first blocking urandom read against the
 * fastest variant's: the answer to "what does blocking cost", in words.
 */
static void print_comparisons(FILE *out, const struct cellrows *cells, size_t n,
			      const struct result *res, const int *vary)
{
	size_t lat = measure_index("first_urandom_latency");
	size_t *order = calloc(n + 1, sizeof(*order)),
	       *first = calloc(n + 1, sizeof(*first)),
	       *next = calloc(n + 1, sizeof(*next));

	if (order && first && next && !condition_lists(cells, n, first, next)) {
		fprintf(out,
			"\nfirst blocking /dev/urandom read, against the fastest variant:\n");
		for (size_t c = 0; c < n; c++) {
			size_t k = first[c] == c ?
					   by_speed(next, c, res, lat, order) :
					   0;

			if (k >= 2 &&
			    res[order[0] * NMEASURES + lat].su.median > 0)
				print_comparison(out, cells, res, vary, c,
						 order, k);
		}
	}
	free(order);
	free(first);
	free(next);
}

/*
 * One line per measured cell: n, the first blocking urandom read's
 * duration and when the CRNG became ready (median [95% CI], ms, guest
 * clock); skipped cells collapsed; then the comparisons. --verbose (or
 * summary.csv) has every measure. Each column is as wide as its widest
 * cell (a six-digit CI once pushed the next column out of line).
 */
static void print_compact(FILE *out, const struct cellrows *cells, size_t n,
			  const struct result *res)
{
	size_t lat = measure_index("first_urandom_latency"),
	       ready = measure_index("crng_ready");
	int vary[AX_N], w = 9, wa = 22;
	char(*label)[320] = calloc(n + 1, sizeof(*label));

	if (!label)
		return;
	varying_axes(cells, n, vary);
	for (size_t c = 0; c < n; c++) {
		char cond[256];

		condition(&cells[c], vary, cond, sizeof(cond));
		text_printf(label[c], sizeof(label[c]), "%s %s %s",
			    cells[c].first->axis[AX_variant],
			    cells[c].first->axis[AX_accel], cond);
		if (cells[c].n && (int)strlen(label[c]) > w)
			w = (int)strlen(label[c]);
		if (cells[c].n || cells[c].failed) {
			char a[80];

			fmt_result(a, sizeof(a), &res[c * NMEASURES + lat], 0);
			if ((int)strlen(a) > wa)
				wa = (int)strlen(a);
		}
	}
	fprintf(out, "\n%-*s %4s  %-*s %s\n", w, "variant accel condition", "n",
		wa, "urandom read (ms)", "CRNG ready (ms)");
	for (size_t c = 0; c < n; c++) {
		char a[80], b[80];

		if (!cells[c].n && !cells[c].failed)
			continue;
		fmt_result(a, sizeof(a), &res[c * NMEASURES + lat], 0);
		fmt_result(b, sizeof(b), &res[c * NMEASURES + ready], 1);
		fprintf(out, "%-*s %4zu  %-*s %s", w, label[c], cells[c].n, wa,
			a, b);
		if (cells[c].failed)
			fprintf(out, "  %zu failed", cells[c].failed);
		fprintf(out, "\n");
	}
	free(label);
	print_skipped(out, cells, n);
	print_comparisons(out, cells, n, res, vary);
	fprintf(out,
		"median [95%% CI], guest clock; '>': still waiting at the bound.\n"
		"Every measure: --summarize DIR --verbose, or summary.csv.\n");
}

int summary_write(const char *dir, uint64_t seed, FILE *out, int verbose,
		  char *err, size_t errlen)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	struct row *rows;
	struct cellrows *cells = NULL;
	struct result *res = NULL;
	struct stop_cell *sc = NULL;
	size_t nrows, ncells = 0;
	int rc = 0;
	FILE *f;

	if (path_fmt(path, sizeof(path), "%s/raw.csv", dir) ||
	    path_fmt(tmp, sizeof(tmp), "%s/summary.csv.tmp", dir))
		return err_set(err, errlen, "path too long: %s", dir);
	if (row_read_file(path, &rows, &nrows, err, errlen))
		return -1;
	if ((rc = stop_cells_of_run(dir,
				    summary_measure_seed("crng_ready", seed),
				    rows, nrows, &sc, err, errlen)))
		goto out;
	if (group_cells(rows, nrows, &cells, &ncells) ||
	    !(res = calloc(ncells * NMEASURES + 1, sizeof(*res)))) {
		rc = err_set(err, errlen, "out of memory summarizing %s", path);
		goto out;
	}
	f = fopen_new(tmp);
	if (!f)
		rc = err_set(err, errlen, "cannot write %s: %s", tmp,
			     strerror(errno));
	else if (write_table(f, cells, ncells, rows, seed, res, sc))
		rc = err_set(err, errlen, "out of memory summarizing %s", path);
	if (f && fclose(f) && !rc)
		rc = err_set(err, errlen, "cannot write %s: %s", tmp,
			     strerror(errno));
	if (!rc && path_fmt(path, sizeof(path), "%s/summary.csv", dir) == 0 &&
	    rename(tmp, path))
		rc = err_set(err, errlen, "cannot rename %s: %s", tmp,
			     strerror(errno));
	if (rc)
		unlink(tmp);
	else if (out && verbose)
		print_verbose(out, cells, ncells, res);
	else if (out)
		print_compact(out, cells, ncells, res);
out:
	for (size_t c = 0; c < ncells; c++)
		free(cells[c].idx);
	free(cells);
	free(res);
	free(rows);
	free(sc);
	return rc;
}
