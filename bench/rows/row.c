// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "row.h"
#include "../machines/accel.h"
#include "keep.h"
#include "../machines/arch.h"
#include "../matrix/matrixcheck.h"
#include "../matrix/plan.h"
#include "../ground/util.h"
#include "../../guest-image/record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const metric_names[] = {
#define ROW_NAME(name, doc) #name,
	ROW_METRICS(ROW_NAME)
#undef ROW_NAME
};
#define NMETRICS (sizeof(metric_names) / sizeof(metric_names[0]))

static int64_t *metric_ptr(struct row *r, size_t i)
{
	int64_t *p[] = {
#define ROW_PTR(name, doc) &r->name,
		ROW_METRICS(ROW_PTR)
#undef ROW_PTR
	};
	return p[i];
}

static const char *const metric_docs[] = {
#define ROW_DOC(name, doc) doc,
	ROW_METRICS(ROW_DOC)
#undef ROW_DOC
};

size_t row_nmetrics(void)
{
	return NMETRICS;
}

int64_t row_metric(const struct row *r, size_t i)
{
	return *metric_ptr((struct row *)r, i);
}

/* From the doc's first word, which says whose a column is. */
char row_metric_kind(size_t i)
{
	if (!strncmp(metric_docs[i], "host:", 5))
		return 'h';
	if (!strncmp(metric_docs[i], "input:", 6))
		return 'i';
	return 'g';
}

void row_init(struct row *r)
{
	memset(r, 0, sizeof(*r));
	for (int a = 0; a < AX_N; a++)
		r->axis[a] = "";
	for (size_t i = 0; i < NMETRICS; i++)
		*metric_ptr(r, i) = -1;
}

void row_write_header(FILE *f)
{
	fputs("boot_id,run_index,cell,rep", f);
	for (int a = 0; a < AX_N; a++)
		fprintf(f, ",%s", axis_name((enum axis)a));
	fputs(",status,reason,release,crng_ready_src", f);
	for (size_t i = 0; i < NMETRICS; i++)
		fprintf(f, ",%s", metric_names[i]);
	fputs(",clocksource,urandom_digest\n", f);
}

void csv_field(char *buf, size_t len, size_t *off, const char *v, int first)
{
	int quote = strpbrk(v, ",\"\n\r") != NULL;

	if (!first && *off + 1 < len)
		buf[(*off)++] = ',';
	if (quote && *off + 1 < len)
		buf[(*off)++] = '"';
	/* a guest's control characters never reach the file: line breaks and
	 * tabs read as spaces, the rest as '?' (util.c's control_len) */
	while (*v && *off + 2 < len) {
		int n = control_len(v);

		if (*v == '"')
			buf[(*off)++] = '"';
		if (n)
			buf[(*off)++] = *v == '\n' || *v == '\r' || *v == '\t' ?
						' ' :
						'?';
		else
			buf[(*off)++] = *v;
		v += n ? n : 1;
	}
	if (quote && *off + 1 < len)
		buf[(*off)++] = '"';
	buf[*off < len ? *off : len - 1] = '\0';
}

int row_format(const struct row *r, char *buf, size_t len)
{
	char num[32];
	size_t off = 0;

	csv_field(buf, len, &off, r->boot_id, 1);
	snprintf(num, sizeof(num), "%ld", r->run_index);
	csv_field(buf, len, &off, num, 0);
	snprintf(num, sizeof(num), "%ld", r->cell);
	csv_field(buf, len, &off, num, 0);
	snprintf(num, sizeof(num), "%d", r->rep);
	csv_field(buf, len, &off, num, 0);
	for (int a = 0; a < AX_N; a++)
		csv_field(buf, len, &off, r->axis[a], 0);
	csv_field(buf, len, &off, r->status, 0);
	csv_field(buf, len, &off, r->reason, 0);
	csv_field(buf, len, &off, r->release, 0);
	csv_field(buf, len, &off, r->crng_ready_src, 0);
	for (size_t i = 0; i < NMETRICS; i++) {
		int64_t v = *metric_ptr((struct row *)r, i);

		if (v < 0)
			num[0] = '\0';
		else
			snprintf(num, sizeof(num), "%" PRId64, v);
		csv_field(buf, len, &off, num, 0);
	}
	csv_field(buf, len, &off, r->clocksource, 0);
	csv_field(buf, len, &off, r->urandom_digest, 0);
	if (off + 2 >= len)
		return -1;
	buf[off++] = '\n';
	buf[off] = '\0';
	return (int)off;
}

int csv_split(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		char *out = p;

		fields[n++] = p;
		if (*p == '"') {
			char *in = p + 1;

			for (;;) {
				if (!*in)
					break;
				if (*in == '"' && in[1] == '"') {
					*out++ = '"';
					in += 2;
				} else if (*in == '"') {
					in++;
					break;
				} else {
					*out++ = *in++;
				}
			}
			p = in;
			*out = '\0';
			if (*p == ',') {
				p++;
				continue;
			}
			break;
		}
		p += strcspn(p, ",");
		if (*p == ',') {
			*p++ = '\0';
			continue;
		}
		break;
	}
	return n;
}

int row_parse(const char *line, const char *header, struct row *r)
{
	char why[8];

	return row_parse_why(line, header, r, why, sizeof(why));
}

int row_parse_why(const char *line, const char *header, struct row *r,
		  char *why, size_t whylen)
{
	char lbuf[8192], hbuf[8192], *lf[128], *hf[128];
	int nl, nh;

	why[0] = '\0';
	if (strlen(line) >= sizeof(lbuf) || strlen(header) >= sizeof(hbuf))
		return err_set(
			why, whylen,
			"%s of %zu bytes, longer than the %zu a row or header of the runner's may have",
			strlen(line) >= sizeof(lbuf) ? "a line" : "its header",
			strlen(line) >= sizeof(lbuf) ? strlen(line) :
						       strlen(header),
			sizeof(lbuf) - 1);
	snprintf(lbuf, sizeof(lbuf), "%s", line);
	snprintf(hbuf, sizeof(hbuf), "%s", header);
	nl = csv_split(lbuf, lf, 128);
	nh = csv_split(hbuf, hf, 128);
	if (nl != nh)
		return err_set(why, whylen, "%d fields where its header has %d",
			       nl, nh);
	row_init(r);
	for (int i = 0; i < nh; i++) {
		const char *k = hf[i], *v = lf[i];
		int a;

		if (!strcmp(k, "boot_id"))
			snprintf(r->boot_id, sizeof(r->boot_id), "%s", v);
		else if (!strcmp(k, "run_index") || !strcmp(k, "cell") ||
			 !strcmp(k, "rep")) {
			int64_t x = 0;
			/* whole-field int64, as runfiles.read_table reads it */
			int bad = crb_parse_i64(v, &x);

			if (bad || x < 0 || x > INT_MAX)
				return err_set(
					why, whylen,
					"column %s: '%.40s%s' is not %s", k, v,
					strlen(v) > 40 ? "..." : "",
					bad ? CRB_INT_WORDS :
					      "a count from 0 to 2147483647");
			if (*k == 'r' && k[1] == 'u')
				r->run_index = (long)x;
			else if (*k == 'c')
				r->cell = (long)x;
			else
				r->rep = (int)x;
		} else if (!strcmp(k, "status"))
			snprintf(r->status, sizeof(r->status), "%s", v);
		else if (!strcmp(k, "reason"))
			snprintf(r->reason, sizeof(r->reason), "%s", v);
		else if (!strcmp(k, "release"))
			snprintf(r->release, sizeof(r->release), "%s", v);
		else if (!strcmp(k, "clocksource"))
			snprintf(r->clocksource, sizeof(r->clocksource), "%s",
				 v);
		else if (!strcmp(k, "urandom_digest")) {
			/* a digest as the guest's record has it, or none */
			if (*v && !crb_digest_ok(v, strlen(v)))
				return err_set(
					why, whylen,
					"column urandom_digest: '%.40s' is not a digest (16 lowercase hex digits, or empty)",
					v);
			snprintf(r->urandom_digest, sizeof(r->urandom_digest),
				 "%s", v);
		} else if (!strcmp(k, "crng_ready_src"))
			continue; /* derived below */
		else if ((a = axis_lookup(k)) >= 0) {
			/* a matrix's values are shorter: its summaries'
			 * buffers hold no more */
			if (strlen(v) >= MAX_VALUE_LEN)
				return err_set(
					why, whylen,
					"column %s: a value of %zu bytes, longer than the %d an axis value may have",
					k, strlen(v), MAX_VALUE_LEN - 1);
			if (!(r->axis[a] = keep_str(v)))
				return err_set(why, whylen,
					       "column %s: out of memory", k);
		} else
			for (size_t m = 0; m < NMETRICS; m++)
				if (!strcmp(k, metric_names[m])) {
					if (!*v) {
						*metric_ptr(r, m) = -1;
						break;
					}
					if (crb_parse_i64(v, metric_ptr(r, m)))
						return err_set(
							why, whylen,
							"column %s: '%.40s%s' is not %s, or empty",
							k, v,
							strlen(v) > 40 ? "..." :
									 "",
							CRB_INT_WORDS);
					break;
				}
	}
	/*
	 * An axis added after a run was recorded has no column there: the
	 * run used the axis's default, which keeps the earlier behaviour.
	 */
	for (int a = 0; a < AX_N; a++)
		if (!r->axis[a][0])
			r->axis[a] = axis_default((enum axis)a);
	if (!strcmp(r->axis[AX_timer], "auto"))
		r->axis[AX_timer] = accel_timer(r->axis[AX_accel], "auto");
	row_derive(r);
	return r->boot_id[0] ? 0 : -1;
}

int row_measured(const struct row *r)
{
	return !strcmp(r->status, "ok") || !strcmp(r->status, "censored");
}

void row_derive(struct row *r)
{
	r->crng_ready_ns = -1;
	r->crng_ready_src[0] = '\0';
	if (r->crng_ready_censored == 1)
		return;
	if (r->crng_ready_kmsg_ns >= 0) {
		r->crng_ready_ns = r->crng_ready_kmsg_ns;
		snprintf(r->crng_ready_src, sizeof(r->crng_ready_src), "kmsg");
	} else if (r->crng_ready_poll_ns >= 0) {
		r->crng_ready_ns = r->crng_ready_poll_ns;
		snprintf(r->crng_ready_src, sizeof(r->crng_ready_src), "poll");
	}
}

void row_set_axes(struct row *row, const struct cell *c)
{
	const struct arch *ar = arch_find(c->v[AX_arch]);

	for (int a = 0; a < AX_N; a++)
		row->axis[a] = c->v[a];
	/* The probe-only machines tick with their own timer (clocksource
	 * says which). */
	row->axis[AX_timer] =
		ar && !ar->x86 ? "machine" :
				 accel_timer(c->v[AX_accel], c->v[AX_timer]);
}

/*
 * --print-axis plan: a line per planned cell with boots in shard k of n
 * (plan.c's matrix_cell_shards: all of its boots), in matrix order. The axis
 * values as raw.csv records them (row_set_axes), quoted by csv_field().
 */
int row_print_plan(const struct matrix *m, int shard_k, int shard_n, FILE *out,
		   char *err, size_t errlen)
{
	char line[AX_N * (2 * MAX_VALUE_LEN + 3) + 64];
	int *shard;

	if (matrix_check_size(m, err, errlen))
		return -1;
	if (!(shard = matrix_cell_shards(m, shard_n)))
		return err_set(err, errlen, "out of memory planning");
	fputs("cell,reps", out);
	for (int a = 0; a < AX_N; a++)
		fprintf(out, ",%s", axis_name((enum axis)a));
	fputs(",timeout,parallel,kvm\n", out);
	for (size_t i = 0; i < matrix_ncells(m); i++) {
		struct row row = { 0 }; /* row_set_axes() fills the axes alone */
		struct cell c;
		size_t off = 0;

		matrix_cell(m, i, &c);
		if (shard[i] != shard_k - 1)
			continue;
		row_set_axes(&row, &c);
		for (int a = 0; a < AX_N; a++)
			csv_field(line, sizeof(line), &off, row.axis[a], !a);
		fprintf(out, "%zu,%d,%s,%d,%d,%d\n", i, m->reps, line,
			matrix_setting(m, SET_timeout, c.v[AX_accel]),
			accel_parallel_safe(c.v[AX_accel]),
			accel_find(c.v[AX_accel])->needs_kvm);
	}
	free(shard);
	return fflush(out) || ferror(out) ?
		       err_set(err, errlen, "writing the plan: %s",
			       strerror(errno)) :
		       0;
}

/*
 * The row is of a boot of the run's plan: the runner's id (c<cell>-r<rep>,
 * plan.c's boot_id), a planned cell and rep, its cell, rep and axis
 * columns those of that cell. The same rule for every mode.
 */
static int row_in_plan(const struct matrix *m, const struct row *r,
		       const char *path, size_t lineno, char *err,
		       size_t errlen)
{
	long cell, rep;
	struct cell c;
	struct row want;

	if (boot_id_parse(r->boot_id, &cell, &rep))
		return err_set(
			err, errlen,
			"%s line %zu: boot_id '%.40s' is not one of the runner's (c<cell>-r<rep>, e.g. c0-r1); fix or move that line (nothing was changed)",
			path, lineno, r->boot_id);
	matrix_cell(m, (size_t)cell < matrix_ncells(m) ? (size_t)cell : 0, &c);
	if ((size_t)cell >= matrix_ncells(m) || rep >= m->reps ||
	    !matrix_cell_planned(m, &c))
		return err_set(
			err, errlen,
			"%s line %zu: boot %s is not in the run's plan (its run.matrix plans cells 0 to %zu, reps 0 to %d, less the excluded cells); a row of another run, or written by hand? fix or move that line (nothing was changed)",
			path, lineno, r->boot_id, matrix_ncells(m) - 1,
			m->reps - 1);
	if (r->cell != cell || r->rep != rep)
		return err_set(
			err, errlen,
			"%s line %zu: boot %s has cell %ld and rep %d in its columns, not %ld and %ld; fix or move that line (nothing was changed)",
			path, lineno, r->boot_id, r->cell, r->rep, cell, rep);
	row_set_axes(&want, &c);
	for (int a = 0; a < AX_N; a++)
		if (strcmp(want.axis[a], r->axis[a]))
			return err_set(
				err, errlen,
				"%s line %zu: boot %s has %s='%.40s', but its cell %ld of the plan has %s='%.40s' (an edited row, or one of another run?); fix or move that line (nothing was changed)",
				path, lineno, r->boot_id,
				axis_name((enum axis)a), r->axis[a], cell,
				axis_name((enum axis)a), want.axis[a]);
	return 0;
}

/* The run.matrix beside raw.csv at path: the plan its rows must be of. */
static int plan_of(const char *path, struct matrix *m, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char mpath[PATH_MAX];

	if (path_fmt(mpath, sizeof(mpath), "%.*s/run.matrix",
		     slash ? (int)(slash - path) : 1, slash ? path : "."))
		return err_set(err, errlen, "path too long: %s", path);
	if (check_run_file(mpath))
		return err_set(
			err, errlen,
			"cannot read %s: %s; the rows of %s are checked against their run's plan",
			mpath, run_strerror(errno), path);
	return matrix_load_run(mpath, m, err, errlen);
}

struct row_line {
	const char *id;
	size_t line;
};

static int by_id(const void *a, const void *b)
{
	const struct row_line *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* No boot twice: the same rule for every mode that reads raw.csv. */
static int check_once(const char *path, const struct row *rows,
		      const size_t *lines, size_t n, char *err, size_t errlen)
{
	struct row_line *ix = calloc(n ? n : 1, sizeof(*ix));
	int rc = 0;

	if (!ix)
		return err_set(err, errlen, "out of memory reading %s", path);
	for (size_t i = 0; i < n; i++)
		ix[i] = (struct row_line){ rows[i].boot_id, lines[i] };
	qsort(ix, n, sizeof(*ix), by_id);
	for (size_t i = 1; i < n && !rc; i++)
		if (!strcmp(ix[i - 1].id, ix[i].id))
			rc = err_set(
				err, errlen,
				"%s holds boot %s twice (lines %zu and %zu): one boot, one row; fix or move one of them (nothing was changed)",
				path, ix[i].id, ix[i - 1].line, ix[i].line);
	free(ix);
	return rc;
}

/* The next line of f into *line; 0 at the end, -1 with a message on a
 * read error (memory running out is no end of file). */
static ssize_t next_line(FILE *f, char **line, size_t *cap, const char *path,
			 size_t lineno, char *err, size_t errlen)
{
	ssize_t len;

	errno = 0;
	len = getline(line, cap, f);
	if (len >= 0)
		return len;
	if (feof(f) && !ferror(f))
		return 0;
	return err_set(err, errlen, "cannot read %s (line %zu): %s", path,
		       lineno + 1, strerror(errno ? errno : EIO));
}

int row_read_file(const char *path, struct row **rows, size_t *n, char *err,
		  size_t errlen)
{
	char *line = NULL, *header = NULL, why[256];
	size_t cap = 0, alloc = 0, lineno = 0, *lines = NULL;
	ssize_t len = 0;
	int rc;
	struct matrix *m = malloc(sizeof(*m));
	FILE *f = NULL;

	*rows = NULL;
	*n = 0;
	if (!m)
		return err_set(err, errlen, "out of memory reading %s", path);
	rc = plan_of(path, m, err, errlen);
	if (!rc && !(f = fopen_run(path)))
		rc = err_set(err, errlen, "cannot read %s: %s", path,
			     run_strerror(errno));
	if (!rc)
		rc = run_table_limits(f, path, err, errlen);
	while (!rc && (len = next_line(f, &line, &cap, path, lineno, err,
				       errlen)) > 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)len)) {
			rc = err_set(
				err, errlen,
				"%s line %zu holds a NUL byte: not a raw.csv row (fix or move that line; nothing was changed)",
				path, lineno);
			break;
		}
		if (line[len - 1] != '\n')
			break; /* an interrupted write: not a row */
		line[len - 1] = '\0';
		if (!header) {
			if (!(header = strdup(line))) {
				rc = err_set(err, errlen, "out of memory");
				break;
			}
			continue;
		}
		if (*n == alloc) {
			size_t na = alloc ? alloc * 2 : 64;
			struct row *p = realloc(*rows, na * sizeof(**rows));
			size_t *l = p ? realloc(lines, na * sizeof(*lines)) :
					NULL;

			if (p)
				*rows = p;
			if (!l) {
				rc = err_set(err, errlen,
					     "out of memory reading %s", path);
				break;
			}
			lines = l;
			alloc = na;
		}
		if (row_parse_why(line, header, &(*rows)[*n], why,
				  sizeof(why))) {
			rc = err_set(
				err, errlen,
				"%s line %zu is not a raw.csv row%s%s (fix or move that line; nothing was changed): %.80s",
				path, lineno, why[0] ? ": " : "", why, line);
			break;
		}
		rc = row_in_plan(m, &(*rows)[*n], path, lineno, err, errlen);
		lines[(*n)++] = lineno;
	}
	if (len < 0)
		rc = -1;
	if (!rc)
		rc = check_once(path, *rows, lines, *n, err, errlen);
	free(lines);
	free(line);
	free(header);
	free(m);
	if (f)
		fclose(f);
	if (rc) {
		free(*rows);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}
