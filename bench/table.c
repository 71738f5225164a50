// SPDX-License-Identifier: GPL-2.0
/*
 * The fact tables' C reader (scripts/table.sh's rules), and the base axis
 * checked against kernel/bases before anything is built or booted.
 */
#define _GNU_SOURCE
#include "table.h"
#include "arch.h"
#include "plan.h"
#include "err.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TABLE_MAX_LINE 4096
#define TABLE_SPACE " \t\r\n\v\f"

/* One line's fields into row (the header when row is NULL): their count,
 * or -1 with a message. */
static int split_line(struct fact_table *t, char *line, const char *path,
		      int lineno, char (*row)[TABLE_MAX_WORD], char *err,
		      size_t errlen)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, TABLE_SPACE, &save); tok;
	     tok = strtok_r(NULL, TABLE_SPACE, &save), n++) {
		if (n == TABLE_MAX_COLS)
			return err_set(err, errlen,
				       "%s line %d: more than %d columns", path,
				       lineno, TABLE_MAX_COLS);
		if (strlen(tok) >= TABLE_MAX_WORD)
			return err_set(
				err, errlen,
				"%s line %d: a value longer than %d bytes",
				path, lineno, TABLE_MAX_WORD - 1);
		snprintf(row ? row[n] : t->head[n], TABLE_MAX_WORD, "%s",
			 row && !strcmp(tok, "-") ? "" : tok);
	}
	return n;
}

int table_read(const char *path, struct fact_table *t, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	FILE *f = fopen(path, "re");

	t->nrows = t->ncols = 0;
	if (!f)
		return err_set(err, errlen, "cannot read %s: %s", path,
			       strerror(errno));
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		int n;

		lineno++;
		if (len > TABLE_MAX_LINE) {
			rc = err_set(err, errlen,
				     "%s line %d: longer than %d bytes", path,
				     lineno, TABLE_MAX_LINE);
			break;
		}
		if (line[0] == '#' || strspn(line, TABLE_SPACE) == (size_t)len)
			continue;
		if (t->ncols && t->nrows == TABLE_MAX_ROWS) {
			rc = err_set(err, errlen, "%s: more than %d rows", path,
				     TABLE_MAX_ROWS);
			break;
		}
		n = split_line(t, line, path, lineno,
			       t->ncols ? t->cell[t->nrows] : NULL, err,
			       errlen);
		if (n < 0)
			rc = -1;
		else if (!t->ncols)
			t->ncols = n;
		else if (n != t->ncols)
			rc = err_set(
				err, errlen,
				"%s line %d has %d fields, its header %d: every row has every column ('-' for an empty one)",
				path, lineno, n, t->ncols);
		else
			t->nrows++;
	}
	if (!rc && ferror(f))
		rc = err_set(err, errlen, "cannot read %s: %s", path,
			     strerror(errno));
	else if (!rc && !t->ncols)
		rc = err_set(err, errlen,
			     "%s has no header line (column names)", path);
	free(line);
	fclose(f);
	return rc;
}

int table_row(const struct fact_table *t, const char *key)
{
	for (int r = 0; r < t->nrows; r++)
		if (!strcmp(t->cell[r][0], key))
			return r;
	return -1;
}

const char *table_get(const struct fact_table *t, int row, const char *col)
{
	for (int c = 0; row >= 0 && row < t->nrows && c < t->ncols; c++)
		if (!strcmp(t->head[c], col))
			return t->cell[row][c];
	return NULL;
}

void table_keys(const struct fact_table *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int r = 0; r < t->nrows && off < len; r++) {
		int n = snprintf(buf + off, len - off, "%s%s", r ? " " : "",
				 t->cell[r][0]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

int bases_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (!access("kernel/bases", R_OK))
		return path_fmt(buf, len, "kernel/bases");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if (path_fmt(buf, len, "%s/../kernel/bases", exe) || access(buf, R_OK))
		return -1;
	return 0;
}

/*
 * The vDSO's getrandom() exists on x86_64 kernels of a base whose
 * vdso_getrandom column says yes (6.11+). A planned cell asking for it
 * elsewhere boots and records the read as "unavailable": the baseline of a
 * comparison across bases, so it is refused only when no planned cell of
 * the matrix could make the read at all (then nothing would be measured).
 */
static int vdso_check(const struct matrix *m, const struct fact_table *t,
		      char *err, size_t errlen)
{
	int asked = 0, possible = 0;

	for (size_t i = 0; i < matrix_ncells(m); i++) {
		struct cell c;
		const char *yes;
		int row;

		matrix_cell(m, i, &c);
		if (!strstr(c.v[AX_reads], "getrandom-vdso") ||
		    !matrix_cell_planned(m, &c))
			continue;
		asked = 1;
		row = table_row(t, c.v[AX_base]);
		yes = row < 0 ? NULL : table_get(t, row, "vdso_getrandom");
		if (yes && !strcmp(yes, "yes") && arch_find(c.v[AX_arch])->x86)
			possible = 1;
	}
	if (asked && !possible)
		return err_set(
			err, errlen,
			"reads=getrandom-vdso: no planned cell has the vDSO's getrandom() (x86_64 on a base whose vdso_getrandom is yes in kernel/bases: Linux 6.11+), so every such read would be \"unavailable\"; add base=6.12, or leave the read out");
	return 0;
}

int bases_check(const struct matrix *m, char *err, size_t errlen)
{
	struct fact_table *t = malloc(sizeof(*t));
	char path[PATH_MAX], sub[PATH_MAX + 256];
	int rc = 0;

	if (!t)
		return err_set(err, errlen, "out of memory");
	if (bases_path(path, sizeof(path)))
		rc = err_set(
			err, errlen,
			"cannot read kernel/bases (the kernel bases the base axis names): run crngbench-run from the checkout");
	else if (table_read(path, t, sub, sizeof(sub)))
		rc = err_set(err, errlen, "%s", sub);
	for (int i = 0; !rc && i < m->nvalues[AX_base]; i++)
		if (table_row(t, m->values[AX_base][i]) < 0) {
			table_keys(t, sub, sizeof(sub));
			rc = err_set(
				err, errlen,
				"base=%s: not a kernel base; known bases: %s (the rows of kernel/bases)",
				m->values[AX_base][i], sub);
		}
	if (!rc)
		rc = vdso_check(m, t, err, errlen);
	free(t);
	return rc;
}
