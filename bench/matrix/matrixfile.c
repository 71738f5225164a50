// SPDX-License-Identifier: GPL-2.0
/*
 * Matrix files: reading one (studies/S/NAME.matrix, run.matrix) line by line, and
 * --set lists, with the same rule (one line per axis or setting); writing
 * the resolved matrix as run.matrix, which reads back identically.
 */
#define _GNU_SOURCE
#include "matrixfile.h"
#include "../ground/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The keys set so far: a second line (or --set) for one is refused. */
struct keys {
	char k[AX_N + 48][32];
	int n;
};

/* Record the key of "key = value"; 1 if it was set before (exclude may). */
static int key_again(struct keys *seen, const char *line, char *key, size_t len)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, "="), line);
	snprintf(key, len, "%s", matrix_trim(buf));
	for (int i = 0; strcmp(key, "exclude") && i < seen->n; i++)
		if (!strcmp(seen->k[i], key))
			return 1;
	if (seen->n < (int)(sizeof(seen->k) / sizeof(seen->k[0])))
		snprintf(seen->k[seen->n++], sizeof(seen->k[0]), "%s", key);
	return 0;
}

#define MATRIX_MAX_LINE 4096

/* One line of a matrix file: comment stripped, duplicate keys refused. */
static int load_line(struct matrix *m, char *line, int lineno,
		     struct keys *seen, char *err, size_t errlen)
{
	char key[32], *p = strchr(line, '#');

	if (p)
		*p = '\0';
	p = matrix_trim(line);
	if (!*p)
		return 0;
	if (key_again(seen, p, key, sizeof(key)))
		return err_set(
			err, errlen,
			"line %d sets '%s' again; one line per axis or setting",
			lineno, key);
	return matrix_set(m, p, err, errlen);
}

int matrix_set_list(struct matrix *m, char *const *sets, int n, char *err,
		    size_t errlen)
{
	struct keys seen = { .n = 0 };
	char key[32];

	for (int i = 0; i < n; i++) {
		if (key_again(&seen, sets[i], key, sizeof(key)))
			return err_set(
				err, errlen,
				"%s sets '%s' again; one --set per axis or setting, as a matrix file has one line for each",
				sets[i], key);
		if (matrix_set(m, sets[i], err, errlen))
			return -1;
	}
	return 0;
}

int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen)
{
	char sub[768], *line = NULL;
	int lineno = 0, rc = 0;
	struct keys seen = { .n = 0 };
	size_t cap = 0;
	ssize_t len;
	struct stat st;
	FILE *f = fopen(path, "re");

	if (!f)
		return err_set(err, errlen, "cannot read matrix file %s: %s",
			       path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return err_set(err, errlen,
			       "cannot read matrix file %s: not a regular file",
			       path);
	}
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		/* An editor's UTF-8 byte order mark is not part of the key. */
		int bom = !lineno++ && !strncmp(line, "\xef\xbb\xbf", 3);

		if (len > MATRIX_MAX_LINE)
			rc = err_set(err, errlen,
				     "%s:%d: line longer than %d characters",
				     path, lineno, MATRIX_MAX_LINE);
		else if (load_line(m, line + (bom ? 3 : 0), lineno, &seen, sub,
				   sizeof(sub)))
			rc = err_set(err, errlen, "%s:%d: %s", path, lineno,
				     sub);
	}
	if (!rc && ferror(f))
		rc = err_set(err, errlen, "cannot read matrix file %s: %s",
			     path, strerror(errno));
	else if (!rc && !seen.n)
		rc = err_set(
			err, errlen,
			"matrix file %s holds no axis or setting (it is empty, or only comments); a matrix has 'axis = v1,v2' lines (see studies/quick/quick.matrix)",
			path);
	free(line);
	fclose(f);
	return rc;
}

int matrix_write(const struct matrix *m, FILE *f)
{
	fprintf(f, "%s\nname = %s\nreps = %d\n", MATRIX_RESOLVED, m->name,
		m->reps);
	if (m->min_reps > 0)
		fprintf(f, "min_reps = %d\n", m->min_reps);
	fprintf(f, "precision = %d\n", m->precision);
	for (int s = 0; s < SET_N; s++)
		if (m->setting[s] >= 0)
			fprintf(f, "%s = %d\n", setting_name((enum setting)s),
				m->setting[s]);
	for (int i = 0; i < m->novr; i++)
		for (int s = 0; s < SET_N; s++)
			if (m->ovr[i][s] >= 0)
				fprintf(f, "%s.%s = %d\n",
					setting_name((enum setting)s),
					m->ovr_accel[i], m->ovr[i][s]);
	fprintf(f, "icount = %s\n", m->icount);
	for (int i = 0; i < m->nexclude; i++)
		fprintf(f, "exclude = %s\n", m->exclude[i]);
	for (int a = 0; a < AX_N; a++) {
		fprintf(f, "%s = ", axis_name((enum axis)a));
		for (int i = 0; i < m->nvalues[a]; i++)
			fprintf(f, "%s%s", i ? "," : "", m->values[a][i]);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
