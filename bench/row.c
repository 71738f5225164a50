// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "row.h"
#include "accel.h"
#include "util.h"

#include <errno.h>
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

void row_init(struct row *r)
{
	memset(r, 0, sizeof(*r));
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
	fputs(",clocksource\n", f);
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
	char lbuf[8192], hbuf[8192], *lf[128], *hf[128];
	int nl, nh;

	if (strlen(line) >= sizeof(lbuf) || strlen(header) >= sizeof(hbuf))
		return -1;
	snprintf(lbuf, sizeof(lbuf), "%s", line);
	snprintf(hbuf, sizeof(hbuf), "%s", header);
	nl = csv_split(lbuf, lf, 128);
	nh = csv_split(hbuf, hf, 128);
	if (nl != nh)
		return -1;
	row_init(r);
	for (int i = 0; i < nh; i++) {
		const char *k = hf[i], *v = lf[i];
		int a;

		if (!strcmp(k, "boot_id"))
			snprintf(r->boot_id, sizeof(r->boot_id), "%s", v);
		else if (!strcmp(k, "run_index"))
			r->run_index = strtol(v, NULL, 10);
		else if (!strcmp(k, "cell"))
			r->cell = strtol(v, NULL, 10);
		else if (!strcmp(k, "rep"))
			r->rep = (int)strtol(v, NULL, 10);
		else if (!strcmp(k, "status"))
			snprintf(r->status, sizeof(r->status), "%s", v);
		else if (!strcmp(k, "reason"))
			snprintf(r->reason, sizeof(r->reason), "%s", v);
		else if (!strcmp(k, "release"))
			snprintf(r->release, sizeof(r->release), "%s", v);
		else if (!strcmp(k, "clocksource"))
			snprintf(r->clocksource, sizeof(r->clocksource), "%s",
				 v);
		else if (!strcmp(k, "crng_ready_src"))
			continue; /* derived below */
		else if ((a = axis_lookup(k)) >= 0)
			snprintf(r->axis[a], sizeof(r->axis[a]), "%s", v);
		else
			for (size_t m = 0; m < NMETRICS; m++)
				if (!strcmp(k, metric_names[m])) {
					char *end;

					if (!*v) {
						*metric_ptr(r, m) = -1;
						break;
					}
					errno = 0;
					*metric_ptr(r, m) =
						strtoll(v, &end, 10);
					if (errno || *end)
						return -1;
					break;
				}
	}
	/*
	 * An axis added after a run was recorded has no column there: the
	 * run used the axis's default, which keeps the earlier behaviour.
	 */
	for (int a = 0; a < AX_N; a++)
		if (!r->axis[a][0])
			snprintf(r->axis[a], sizeof(r->axis[a]), "%s",
				 axis_default((enum axis)a));
	if (!strcmp(r->axis[AX_timer], "auto"))
		snprintf(r->axis[AX_timer], sizeof(r->axis[AX_timer]), "%s",
			 accel_timer(r->axis[AX_accel], "auto"));
	row_derive(r);
	return r->boot_id[0] ? 0 : -1;
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

int row_read_file(const char *path, struct row **rows, size_t *n, char *err,
		  size_t errlen)
{
	char *line = NULL, *header = NULL;
	size_t cap = 0, alloc = 0, lineno = 0, *lines = NULL;
	ssize_t len;
	int rc = 0;
	FILE *f = fopen(path, "re");

	*rows = NULL;
	*n = 0;
	if (!f)
		return err_set(err, errlen, "cannot read %s: %s", path,
			       strerror(errno));
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
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
		if (row_parse(line, header, &(*rows)[*n])) {
			rc = err_set(
				err, errlen,
				"%s line %zu is not a raw.csv row (fix or move that line; nothing was changed): %.80s",
				path, lineno, line);
			break;
		}
		lines[(*n)++] = lineno;
	}
	if (!rc && ferror(f))
		rc = err_set(err, errlen, "cannot read %s: %s", path,
			     strerror(errno));
	if (!rc)
		rc = check_once(path, *rows, lines, *n, err, errlen);
	free(lines);
	free(line);
	free(header);
	fclose(f);
	if (rc) {
		free(*rows);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}
