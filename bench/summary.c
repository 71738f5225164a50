// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "summary.h"
#include "row.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The measures summarized per cell, with how each is censored. */
static const struct measure {
	const char *name;
	const char *unit_doc;
	size_t value; /* offsetof the int64 value in struct row */
	long censor; /* offsetof the 0/1 censored flag, or -1 */
	long bound; /* offsetof the censoring bound, or -1 (use value) */
} measures[] = {
#define OFF(f) offsetof(struct row, f)
	{ "kernel_to_init", "guest", OFF(init_ns), -1, -1 },
	{ "crng_ready_kmsg", "guest", OFF(crng_ready_kmsg_ns),
	  (long)OFF(crng_ready_censored), (long)OFF(crng_ready_bound_ns) },
	{ "crng_ready_poll", "guest", OFF(crng_ready_poll_ns),
	  (long)OFF(crng_ready_censored), (long)OFF(crng_ready_bound_ns) },
	{ "first_urandom_return", "guest", OFF(first_urandom_end_ns),
	  (long)OFF(first_urandom_censored), -1 },
	{ "first_urandom_latency", "guest", OFF(first_urandom_dur_ns),
	  (long)OFF(first_urandom_censored), -1 },
	{ "probe_overhead", "guest", OFF(probe_overhead_ns), -1, -1 },
	{ "game_seeded", "guest", OFF(game_seeded_ns), -1, -1 },
	{ "userspace_finished", "guest", OFF(finish_ns), -1, -1 },
	{ "host_first_urandom", "host", OFF(host_urandom_ns), -1, -1 },
	{ "host_wall", "host", OFF(host_exit_ns), -1, -1 },
#undef OFF
};

static int64_t field(const struct row *r, long off)
{
	return *(const int64_t *)((const char *)r + off);
}

struct cellrows {
	char key[1024];
	struct row *first;
	size_t *idx;
	size_t n, cap;
	size_t failed, skipped;
	char skip_reason[256];
};

static void cell_key(const struct row *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int a = 0; a < AX_N; a++)
		csv_field(buf, len, &off, r->axis[a], a == 0);
}

static void fmt_ms(char *buf, size_t len, double ns, int censored)
{
	if (isnan(ns))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%s%.3f", censored ? ">" : "", ns / 1e6);
}

int summary_write(const char *dir, uint64_t seed, FILE *out)
{
	char path[4096], tmp[4200];
	struct row *rows;
	struct cellrows *cells = NULL;
	size_t nrows, ncells = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/raw.csv", dir);
	if (row_read_file(path, &rows, &nrows)) {
		fprintf(stderr, "crngbench: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < nrows; i++) {
		char key[1024];
		size_t c;

		cell_key(&rows[i], key, sizeof(key));
		for (c = 0; c < ncells; c++)
			if (!strcmp(cells[c].key, key))
				break;
		if (c == ncells) {
			struct cellrows *p =
				realloc(cells, (ncells + 1) * sizeof(*cells));

			if (!p)
				break;
			cells = p;
			memset(&cells[c], 0, sizeof(cells[c]));
			snprintf(cells[c].key, sizeof(cells[c].key), "%s", key);
			cells[c].first = &rows[i];
			ncells++;
		}
		if (!strcmp(rows[i].status, "skipped")) {
			cells[c].skipped++;
			snprintf(cells[c].skip_reason,
				 sizeof(cells[c].skip_reason), "%s",
				 rows[i].reason);
			continue;
		}
		if (strcmp(rows[i].status, "ok") &&
		    strcmp(rows[i].status, "censored")) {
			cells[c].failed++;
			continue;
		}
		if (cells[c].n == cells[c].cap) {
			size_t *p = realloc(
				cells[c].idx,
				(cells[c].cap =
					 cells[c].cap ? cells[c].cap * 2 : 16) *
					sizeof(size_t));

			if (!p)
				break;
			cells[c].idx = p;
		}
		cells[c].idx[cells[c].n++] = i;
	}

	snprintf(tmp, sizeof(tmp), "%s/summary.csv.tmp", dir);
	f = fopen(tmp, "we");
	if (!f) {
		fprintf(stderr, "crngbench: cannot write %s: %s\n", tmp,
			strerror(errno));
		return -1;
	}
	for (int a = 0; a < AX_N; a++)
		fprintf(f, "%s,", axis_name((enum axis)a));
	fputs("measure,clock,n,censored,failed,skipped,median_ms,median_censored,mean_ms,sd_ms,min_ms,max_ms,"
	      "p10_ms,p90_ms,ci95_lo_ms,ci95_hi_ms,outliers,note\n",
	      f);
	for (size_t c = 0; c < ncells; c++) {
		struct cellrows *cr = &cells[c];

		if (out) {
			fprintf(out, "\n");
			for (int a = 0; a < AX_N; a++)
				fprintf(out, "%s%s=%s", a ? " " : "",
					axis_name((enum axis)a),
					cr->first->axis[a]);
			fprintf(out, "\n  n=%zu", cr->n);
			if (cr->failed)
				fprintf(out,
					", %zu failed boots (see raw.csv status/reason)",
					cr->failed);
			if (cr->skipped)
				fprintf(out, ", skipped: %s", cr->skip_reason);
			fprintf(out, "\n");
		}
		for (size_t m = 0; m < sizeof(measures) / sizeof(measures[0]);
		     m++) {
			const struct measure *me = &measures[m];
			struct sample *s =
				calloc(cr->n ? cr->n : 1, sizeof(*s));
			struct summary su;
			size_t k = 0;
			char med[32], lo[32], hi[32], note[128] = "";

			if (!s)
				break;
			for (size_t j = 0; j < cr->n; j++) {
				const struct row *r = &rows[cr->idx[j]];
				int64_t v = field(r, (long)me->value);
				int cens = me->censor >= 0 &&
					   field(r, me->censor) == 1;

				if (cens) {
					int64_t b =
						me->bound >= 0 ?
							field(r, me->bound) :
							v;

					if (b < 0)
						b = v;
					s[k++] = (struct sample){
						(double)(b < 0 ? 0 : b), 1
					};
				} else if (v >= 0) {
					s[k++] =
						(struct sample){ (double)v, 0 };
				}
			}
			for (int a = 0; a < AX_N; a++) {
				size_t off = 0;
				char q[256];

				csv_field(q, sizeof(q), &off,
					  cr->first->axis[a], 1);
				fprintf(f, "%s,", q);
			}
			if (cr->skipped && !k) {
				size_t off = 0;
				char q[300];

				csv_field(q, sizeof(q), &off, cr->skip_reason,
					  1);
				fprintf(f,
					"%s,%s,0,0,%zu,%zu,,,,,,,,,,,,not measured: %s\n",
					me->name, me->unit_doc, cr->failed,
					cr->skipped, q);
				free(s);
				continue;
			}
			if (summarize(s, k, seed + m, 0, &su)) {
				fprintf(f,
					"%s,%s,0,0,%zu,%zu,,,,,,,,,,,,no data\n",
					me->name, me->unit_doc, cr->failed,
					cr->skipped);
				free(s);
				continue;
			}
			if (su.outliers)
				snprintf(note, sizeof(note),
					 "%zu outlier(s) beyond 3 MAD",
					 su.outliers);
			fmt_ms(med, sizeof(med), su.median, su.median_censored);
			fmt_ms(lo, sizeof(lo), su.ci_lo, 0);
			fmt_ms(hi, sizeof(hi), su.ci_hi, su.ci_censored);
			fprintf(f,
				"%s,%s,%zu,%zu,%zu,%zu,%.3f,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%s\n",
				me->name, me->unit_doc, su.n, su.censored,
				cr->failed, cr->skipped, su.median / 1e6,
				su.median_censored, su.mean / 1e6, su.sd / 1e6,
				su.min / 1e6, su.max / 1e6, su.p10 / 1e6,
				su.p90 / 1e6, su.ci_lo / 1e6, su.ci_hi / 1e6,
				su.outliers, note);
			if (out) {
				fprintf(out,
					"  %-22s median %10s ms  [95%% CI %s .. %s]",
					me->name, med, lo, hi);
				if (su.n > su.censored)
					fprintf(out,
						"  mean %.3f ± %.3f  range %.3f … %.3f",
						su.mean / 1e6, su.sd / 1e6,
						su.min / 1e6, su.max / 1e6);
				if (su.censored)
					fprintf(out, "  (%zu of %zu censored)",
						su.censored, su.n);
				if (su.outliers)
					fprintf(out, "  warning: %s", note);
				fprintf(out, "\n");
			}
			free(s);
		}
	}
	if (fclose(f)) {
		fprintf(stderr, "crngbench: cannot write %s\n", tmp);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (rename(tmp, path)) {
		fprintf(stderr, "crngbench: cannot rename %s: %s\n", tmp,
			strerror(errno));
		return -1;
	}
	for (size_t c = 0; c < ncells; c++)
		free(cells[c].idx);
	free(cells);
	free(rows);
	return 0;
}
