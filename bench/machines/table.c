// SPDX-License-Identifier: GPL-2.0
/*
 * The fact tables' C reader (scripts/table.sh's rules); the machines'
 * kernels from kernel/arches; and the base axis checked against
 * kernel/bases before anything is built or booted.
 */
#define _GNU_SOURCE
#include "table.h"
#include "arch.h"
#include "../ground/err.h"
#include "../ground/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Row k's key (its first column) on an earlier row: that row, or -1. */
static int key_before(const struct fact_table *t, int k)
{
	for (int r = 0; r < k; r++)
		if (!strcmp(t->cell[r][0], t->cell[k][0]))
			return r;
	return -1;
}

/* One line (NUL-terminated, no line break) into t: 0, or -1. */
static int table_line(struct fact_table *t, char *line, const char *path,
		      int lineno, char *err, size_t errlen)
{
	int n, dup;

	if (line[0] == '#' || strspn(line, TABLE_SPACE) == strlen(line))
		return 0;
	if (t->ncols && t->nrows == TABLE_MAX_ROWS)
		return err_set(err, errlen, "%s: more than %d rows", path,
			       TABLE_MAX_ROWS);
	n = split_line(t, line, path, lineno,
		       t->ncols ? t->cell[t->nrows] : NULL, err, errlen);
	if (n < 0)
		return -1;
	if (!t->ncols) {
		t->ncols = n;
		return 0;
	}
	if (n != t->ncols)
		return err_set(
			err, errlen,
			"%s line %d has %d fields, its header %d: every row has every column ('-' for an empty one)",
			path, lineno, n, t->ncols);
	t->line[t->nrows] = lineno;
	if ((dup = key_before(t, t->nrows)) >= 0)
		return err_set(
			err, errlen,
			"%s lines %d and %d both have the key '%s': one row per key (a second row would be shadowed by the first)",
			path, t->line[dup], lineno, t->cell[dup][0]);
	t->nrows++;
	return 0;
}

int table_slurp(const char *path, struct strbuf *b, char *err, size_t errlen)
{
	int rc = 0;

	/* A regular file, no link, never blocking, at most TABLE_MAX_BYTES. */
	if (check_run_file(path) ||
	    slurp_at(AT_FDCWD, path, b, TABLE_MAX_BYTES) || b->oom)
		rc = err_set(
			err, errlen,
			"cannot read %s: %s (a table is a regular file of at most %d bytes)",
			path,
			b->oom	       ? strerror(ENOMEM) :
			errno == EFBIG ? "too long" :
					 run_strerror(errno),
			TABLE_MAX_BYTES);
	else if (memchr(b->p, '\0', b->len))
		rc = err_set(err, errlen, "%s holds a NUL byte: not a table",
			     path);
	if (rc)
		sb_free(b);
	return rc;
}

int table_read(const char *path, struct fact_table *t, char *err, size_t errlen)
{
	struct strbuf b = { 0 };
	char *p, *nl;
	int lineno = 0, rc = 0;

	t->nrows = t->ncols = 0;
	if (table_slurp(path, &b, err, errlen))
		return -1;
	for (p = b.p; !rc && *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (++lineno > TABLE_MAX_LINES)
			rc = err_set(err, errlen, "%s: more than %d lines",
				     path, TABLE_MAX_LINES);
		else if (strlen(p) >= TABLE_MAX_LINE)
			rc = err_set(err, errlen,
				     "%s line %d: longer than %d bytes", path,
				     lineno, TABLE_MAX_LINE - 1);
		else
			rc = table_line(t, p, path, lineno, err, errlen);
	}
	if (!rc && !t->ncols)
		rc = err_set(err, errlen,
			     "%s has no header line (column names)", path);
	sb_free(&b);
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

int table_path(const char *table, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	/* Never the current directory's: the runner's own checkout only. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return path_fmt(buf, len, "%s/../%s", exe, table);
}

/* --- kernel/arches: each machine's kernels ------------------------------------- */

/* kernel/arches as read last: the machines' kernel fields point into it. */
static struct fact_table arches_table;

/* The columns the runner reads, by name. */
static const char *const arch_cols[] = { "machines", "image",	     "dtb",
					 "hz",	     "qemu_package", "guest" };

/* Every column the runner reads is in t: 0, or -1 naming the one missing. */
static int arch_cols_present(const struct fact_table *t, const char *path,
			     char *err, size_t errlen)
{
	char have[TABLE_MAX_COLS * TABLE_MAX_WORD] = "";

	for (size_t i = 0; i < sizeof(arch_cols) / sizeof(arch_cols[0]); i++) {
		if (t->nrows == 0 || table_get(t, 0, arch_cols[i]))
			continue;
		for (int c = 0; c < t->ncols; c++)
			snprintf(have + strlen(have),
				 sizeof(have) - strlen(have), "%s%s",
				 c ? " " : "", t->head[c]);
		return err_set(
			err, errlen,
			"%s has no column '%s'; its columns: %s (the runner reads machines, image, dtb, hz, qemu_package and guest by name)",
			path, arch_cols[i], have);
	}
	return 0;
}

/* Whether the comma-separated list names word. */
static int list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == n && !strncmp(p, word, n))
			return 1;
	return 0;
}

/* The row whose machines column names machine: its index, or -1 with a
 * message (no row, or two). */
static int machine_row(const struct fact_table *t, const char *machine,
		       const char *path, char *err, size_t errlen)
{
	char keys[TABLE_MAX_ROWS * TABLE_MAX_WORD];
	int found = -1;

	for (int r = 0; r < t->nrows; r++) {
		if (!list_has(table_get(t, r, "machines"), machine))
			continue;
		if (found >= 0)
			return err_set(
				err, errlen,
				"%s lines %d and %d both name machine %s in their machines column: one row per machine",
				path, t->line[found], t->line[r], machine);
		found = r;
	}
	if (found < 0) {
		table_keys(t, keys, sizeof(keys));
		return err_set(
			err, errlen,
			"%s: no row for machine %s (no row's machines column names it); rows: %s",
			path, machine, keys);
	}
	return found;
}

/* Every machine the table names is one of the runner's: 0, or -1. */
static int machines_known(const struct fact_table *t, const char *path,
			  char *err, size_t errlen)
{
	for (int r = 0; r < t->nrows; r++) {
		char list[TABLE_MAX_WORD], *save = NULL;

		snprintf(list, sizeof(list), "%s", table_get(t, r, "machines"));
		for (char *m = strtok_r(list, ",", &save); m;
		     m = strtok_r(NULL, ",", &save))
			if (!arch_find(m))
				return err_set(
					err, errlen,
					"%s line %d: row %s names machine %s, which the runner does not have; its machines: %s (bench/machines/arch.c)",
					path, t->line[r], t->cell[r][0], m,
					arch_list());
	}
	return 0;
}

/* Machine a's kernel fields from row r of t: 0, or -1 naming the value. */
static int arch_fill(struct arch *a, const struct fact_table *t, int r,
		     const char *path, char *err, size_t errlen)
{
	const char *hz = table_get(t, r, "hz"), *dtb = table_get(t, r, "dtb"),
		   *guest = table_get(t, r, "guest");

	if (!table_get(t, r, "image")[0])
		return err_set(
			err, errlen,
			"%s line %d: row %s has no image: it names the kernel image the runner boots (bzImage, zImage, vmlinux)",
			path, t->line[r], t->cell[r][0]);
	if (strcmp(hz, "choice") &&
	    (!hz[0] || strspn(hz, "0123456789") != strlen(hz)))
		return err_set(
			err, errlen,
			"%s line %d: row %s has hz '%s'; accepted: choice (CONFIG_HZ as KERNEL_HZ asks) or the one CONFIG_HZ the architecture has, a number",
			path, t->line[r], t->cell[r][0], hz);
	if (strcmp(guest, "systemd") && strcmp(guest, "probe"))
		return err_set(
			err, errlen,
			"%s line %d: row %s has guest '%s'; accepted: systemd, probe",
			path, t->line[r], t->cell[r][0], guest);
	/* The runner's x86 machine is the systemd guest's (its TSC hints,
	 * timer axis, KVM and read tracing), and only it. */
	if (!strcmp(guest, "systemd") != !!a->x86)
		return err_set(
			err, errlen,
			"%s line %d: row %s has guest %s, but machine %s is %s (bench/machines/arch.c); accepted: guest systemd for x86_64, probe for the others",
			path, t->line[r], t->cell[r][0], guest, a->name,
			a->x86 ? "the runner's x86 systemd guest" :
				 "a probe-only guest");
	a->kernel_arch = t->cell[r][0];
	a->image = table_get(t, r, "image");
	a->dtb = dtb[0] ? dtb : NULL;
	a->fixed_hz = strcmp(hz, "choice") ? hz : NULL;
	a->qemu_package = table_get(t, r, "qemu_package");
	a->systemd = !strcmp(guest, "systemd");
	return 0;
}

int arches_load_table(const char *path, char *err, size_t errlen)
{
	struct fact_table *t = &arches_table;
	size_t n;
	struct arch *rows = arch_rows(&n);
	int r;

	if (table_read(path, t, err, errlen) ||
	    arch_cols_present(t, path, err, errlen) ||
	    machines_known(t, path, err, errlen))
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((r = machine_row(t, rows[i].name, path, err, errlen)) < 0 ||
		    arch_fill(&rows[i], t, r, path, err, errlen))
			return -1;
	return 0;
}

int arches_load(char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (table_path("kernel/arches", path, sizeof(path)))
		return err_set(
			err, errlen,
			"cannot find kernel/arches beside the runner (<its directory>/../kernel/arches): run the runner of a checkout, as built there");
	return arches_load_table(path, err, errlen);
}
