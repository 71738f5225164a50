// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix's axes and settings: names, defaults, per-accelerator values,
 * and matrix_set, the one parser of an "axis=v1,v2" or "setting=value"
 * assignment (a matrix file's line or a --set).
 */
#define _GNU_SOURCE
#include "matrix.h"
#include "../machines/accel.h"
#include "../ground/err.h"
#include "../ground/util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const axis_names[] = {
#define AX_NAME(name, def) #name,
	AXES(AX_NAME)
#undef AX_NAME
};

static const char *const axis_defaults[] = {
#define AX_DEF(name, def) def,
	AXES(AX_DEF)
#undef AX_DEF
};

static const char *const setting_names[] = {
#define SET_NAME(name, def, lo, hi) #name,
	SETTINGS(SET_NAME)
#undef SET_NAME
};
static const int setting_defaults[] = {
#define SET_DEF(name, def, lo, hi) def,
	SETTINGS(SET_DEF)
#undef SET_DEF
};
static const int setting_lo[] = {
#define SET_LO(name, def, lo, hi) lo,
	SETTINGS(SET_LO)
#undef SET_LO
};
static const int setting_hi[] = {
#define SET_HI(name, def, lo, hi) hi,
	SETTINGS(SET_HI)
#undef SET_HI
};

const char *setting_name(enum setting s)
{
	return (unsigned int)s < SET_N ? setting_names[s] : "?";
}

static int ovr_index(const struct matrix *m, const char *accel)
{
	for (int i = 0; accel && i < m->novr; i++)
		if (!strcmp(m->ovr_accel[i], accel))
			return i;
	return -1;
}

int matrix_setting(const struct matrix *m, enum setting s, const char *accel)
{
	int i = ovr_index(m, accel), v = m->setting[s];

	if (i >= 0 && m->ovr[i][s] >= 0)
		v = m->ovr[i][s];
	if (s == SET_ready_timeout && v < 0)
		return matrix_setting(m, SET_read_timeout, accel);
	return v;
}

const char *axis_name(enum axis a)
{
	return (unsigned int)a < AX_N ? axis_names[a] : "?";
}

const char *axis_default(enum axis a)
{
	return (unsigned int)a < AX_N ? axis_defaults[a] : "";
}

int axis_lookup(const char *name)
{
	for (int a = 0; a < AX_N; a++)
		if (!strcmp(name, axis_names[a]))
			return a;
	return -1;
}

void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "default");
	for (int a = 0; a < AX_N; a++) {
		snprintf(m->values[a][0], MAX_VALUE_LEN, "%s",
			 axis_defaults[a]);
		m->nvalues[a] = 1;
	}
	m->reps = 3;
	m->min_reps = -1;
	m->precision = PRECISION_DEFAULT;
	for (int i = 0; i < SET_N; i++)
		m->setting[i] = setting_defaults[i];
	snprintf(m->icount, sizeof(m->icount), "shift=0,sleep=off");
}

int matrix_min_reps(const struct matrix *m)
{
	if (m->min_reps > 0)
		return m->min_reps;
	return m->reps < MIN_REPS_DEFAULT ? m->reps : MIN_REPS_DEFAULT;
}

char *matrix_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * The comma-separated values of axis a into m; their count, or -1 with a
 * message. Duplicates are refused.
 */
static int set_values(struct matrix *m, int a, const char *key, char *val,
		      char *err, size_t errlen)
{
	char *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(val, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		tok = matrix_trim(tok);
		if (!*tok)
			return err_set(err, errlen,
				       "%s: empty value in the list", key);
		/*
		 * QEMU's -cpu spelling has commas of its own: a flag (+x, -x,
		 * x=on) belongs to the model before it, so "qemu64,max,-rdrand"
		 * is the two values qemu64 and max,-rdrand.
		 */
		if (a == AX_cpu && n > 0 &&
		    (*tok == '+' || *tok == '-' || strchr(tok, '='))) {
			char *prev = m->values[a][n - 1];

			if (strlen(prev) + 1 + strlen(tok) >= MAX_VALUE_LEN)
				return err_set(err, errlen,
					       "cpu: value '%s,%s' too long",
					       prev, tok);
			strcat(prev, ",");
			strcat(prev, tok);
			continue;
		}
		if (a == AX_cpu &&
		    (*tok == '+' || *tok == '-' || strchr(tok, '=')))
			return err_set(
				err, errlen,
				"cpu=%s: a CPU flag needs a model before it (e.g. max,-rdrand)",
				tok);
		if (n == MAX_VALUES)
			return err_set(err, errlen, "%s: more than %d values",
				       key, MAX_VALUES);
		if (strlen(tok) >= MAX_VALUE_LEN)
			return err_set(err, errlen,
				       "%s: value '%.30s...' too long", key,
				       tok);
		snprintf(m->values[a][n++], MAX_VALUE_LEN, "%s", tok);
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(m->values[a][j], m->values[a][i]))
				return err_set(err, errlen,
					       "%s: value '%s' given twice",
					       key, m->values[a][i]);
	return n;
}

static int setting_lookup(const char *name)
{
	for (int i = 0; i < SET_N; i++)
		if (!strcmp(name, setting_names[i]))
			return i;
	return -1;
}

/* "read_timeout = 5" or, for one accelerator, "read_timeout.icount = 600". */
static int set_setting(struct matrix *m, char *key, const char *val, char *err,
		       size_t errlen)
{
	char *dot = strchr(key, '.');
	const char *acc = dot ? dot + 1 : NULL;
	int s, v, i;

	if (dot)
		*dot = '\0';
	s = setting_lookup(key);
	if (s < 0)
		return err_set(
			err, errlen,
			"'%s.%s': only the time settings (timeout, read_timeout, ready_timeout) take an accelerator",
			key, acc);
	if (acc && !accel_find(acc))
		return err_set(err, errlen,
			       "%s.%s: unknown accelerator '%s'; accepted: %s",
			       key, acc, acc, accel_list());
	if (parse_int(val, setting_lo[s], setting_hi[s], &v))
		return err_set(
			err, errlen,
			"%s%s%s=%s: need seconds from %d to %d" DIGITS_ONLY,
			key, acc ? "." : "", acc ? acc : "", val, setting_lo[s],
			setting_hi[s]);
	if (!acc) {
		m->setting[s] = v;
		return 0;
	}
	i = ovr_index(m, acc);
	if (i < 0) {
		if (m->novr == MAX_ACCEL_OVERRIDES)
			return err_set(err, errlen,
				       "%s.%s: more than %d accelerators", key,
				       acc, MAX_ACCEL_OVERRIDES);
		i = m->novr++;
		snprintf(m->ovr_accel[i], sizeof(m->ovr_accel[i]), "%s", acc);
		for (int k = 0; k < SET_N; k++)
			m->ovr[i][k] = -1;
	}
	m->ovr[i][s] = v;
	return 0;
}

/* A CPU flag of QEMU's -cpu spelling (+x, -x, x=y), up to the next comma. */
static int cpu_flag(const char *tok)
{
	size_t n = strcspn(tok, ",");

	return *tok == '+' || *tok == '-' || memchr(tok, '=', n);
}

/*
 * The next value of a comma list at *p into [*v, *v + return): as on an
 * axis line, a cpu flag after a comma belongs to the model before it.
 */
size_t matrix_next_value(int a, const char **p, const char **v)
{
	const char *e = *p + strcspn(*p, ",");

	if (a == AX_cpu)
		while (*e == ',' && e[1] && cpu_flag(e + 1))
			e += 1 + strcspn(e + 1, ",");
	*v = *p;
	*p = *e ? e + 1 : e;
	return (size_t)(e - *v);
}

/* One "axis=v axis=v1,v2" exclusion; axes are checked, values need not be
 * in the matrix (an override may have dropped them: then it matches
 * nothing). A comma list matches any of its values. */
static int add_exclude(struct matrix *m, const char *val, char *err,
		       size_t errlen)
{
	char buf[4 * MAX_VALUE_LEN], *tok, *save = NULL;
	int seen[AX_N] = { 0 };

	if (strlen(val) >= sizeof(buf))
		return err_set(err, errlen, "exclude: value too long");
	if (m->nexclude == MAX_EXCLUDES)
		return err_set(err, errlen, "exclude: more than %d lines",
			       MAX_EXCLUDES);
	snprintf(buf, sizeof(buf), "%s", val);
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		const char *p, *v;
		int a;

		if (eq)
			*eq = '\0';
		a = eq ? axis_lookup(tok) : -1;
		if (eq && a < 0)
			return err_set(err, errlen,
				       "exclude: unknown axis '%s' in '%s'",
				       tok, val);
		if (a < 0 || !eq[1])
			return err_set(
				err, errlen,
				"exclude: '%s%s%s' is not axis=value; an exclusion is axis=value pairs separated by spaces, all of which a cell must match (e.g. exclude = accel=tcg nocounter=on; a value may be a comma list, any of which matches)",
				tok, eq ? "=" : "", eq ? eq + 1 : "");
		if (seen[a]++)
			return err_set(err, errlen,
				       "exclude: axis %s named twice in '%s'",
				       tok, val);
		for (p = eq + 1; *p;)
			if (!matrix_next_value(a, &p, &v) ||
			    (p[-1] == ',' && !*p))
				return err_set(
					err, errlen,
					"exclude: %s=%s: empty value in the list (a list is values joined by commas, no spaces: spaces separate axis=value pairs)",
					tok, eq + 1);
			else if (a == AX_cpu && v == eq + 1 && cpu_flag(v))
				return err_set(
					err, errlen,
					"exclude: cpu=%s: a CPU flag needs a model before it (e.g. max,-rdrand)",
					eq + 1);
	}
	snprintf(m->exclude[m->nexclude++], sizeof(m->exclude[0]), "%s", val);
	return 0;
}

int matrix_set(struct matrix *m, const char *assignment, char *err,
	       size_t errlen)
{
	char buf[1024], *eq, *key, *val;
	int a, n;

	if (strlen(assignment) >= sizeof(buf))
		return err_set(err, errlen, "'%.40s...' is too long",
			       assignment);
	snprintf(buf, sizeof(buf), "%s", assignment);
	eq = strchr(buf, '=');
	if (!eq)
		return err_set(err, errlen,
			       "'%s' is not of the form axis=value[,value...]",
			       assignment);
	*eq = '\0';
	key = matrix_trim(buf);
	val = matrix_trim(eq + 1);
	if (!*val)
		return err_set(err, errlen, "'%s' has no value", key);
	if (!strcmp(key, "reps"))
		return parse_int(val, 1, 10000, &m->reps) ?
			       err_set(err, errlen,
				       "reps=%s: need a whole number from 1 to 10000" DIGITS_ONLY,
				       val) :
			       0;
	if (!strcmp(key, "min_reps"))
		return parse_int(val, 1, 10000, &m->min_reps) ?
			       err_set(err, errlen,
				       "min_reps=%s: need a whole number from 1 to 10000, at most reps" DIGITS_ONLY,
				       val) :
			       0;
	if (!strcmp(key, "precision"))
		return parse_int(val, 1, 100, &m->precision) ?
			       err_set(err, errlen,
				       "precision=%s: need a whole number of percent from 1 to 100 (the 95%% CI's half-width of CRNG ready against its median)" DIGITS_ONLY,
				       val) :
			       0;
	if (strchr(key, '.') || setting_lookup(key) >= 0)
		return set_setting(m, key, val, err, errlen);
	/* What a matrix file cannot hold cannot be saved in run.matrix. */
	if (strpbrk(val, "#\n\r"))
		return err_set(
			err, errlen,
			"%s: '#' and line breaks cannot be part of a value ('#' starts a comment)",
			key);
	if (!strcmp(key, "icount")) {
		if (strlen(val) >= sizeof(m->icount))
			return err_set(err, errlen, "icount: value too long");
		snprintf(m->icount, sizeof(m->icount), "%s", val);
		return 0;
	}
	if (!strcmp(key, "exclude"))
		return add_exclude(m, val, err, errlen);
	if (!strcmp(key, "name")) {
		if (strlen(val) >= sizeof(m->name))
			return err_set(err, errlen,
				       "name: longer than %zu characters",
				       sizeof(m->name) - 1);
		snprintf(m->name, sizeof(m->name), "%s", val);
		return 0;
	}
	a = axis_lookup(key);
	if (a < 0) {
		char known[512] = "";

		for (int i = 0; i < AX_N; i++) {
			strcat(known, axis_names[i]);
			strcat(known, " ");
		}
		return err_set(
			err, errlen,
			"unknown axis '%s'; axes are: %sand settings reps min_reps precision timeout read_timeout ready_timeout (each also as setting.ACCEL) icount exclude name",
			key, known);
	}
	n = set_values(m, a, key, val, err, errlen);
	if (n < 0)
		return -1;
	m->nvalues[a] = n;
	return 0;
}

int matrix_icount_shift(const struct matrix *m)
{
	const char *p = m->icount;
	int shift;

	/* QEMU's option syntax: "shift=N" alone or among key=value pairs. */
	while (p && *p) {
		if (!strncmp(p, "shift=", 6)) {
			char v[8];

			snprintf(v, sizeof(v), "%.*s", (int)strcspn(p + 6, ","),
				 p + 6);
			return parse_int(v, 0, 10, &shift) ? -1 : shift;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return -1;
}

int matrix_cell_shift(const struct matrix *m, const char *shift)
{
	int n;

	if (!strcmp(shift, "auto"))
		return matrix_icount_shift(m);
	return parse_int(shift, 0, 10, &n) ? -1 : n;
}

int matrix_icount_option(const struct matrix *m, int shift, char *buf,
			 size_t len)
{
	const char *p = m->icount;
	size_t off = 0;
	int n, found = 0;

	/* The setting's flags in order, its shift=N replaced in place. */
	while (*p) {
		size_t k = strcspn(p, ",");

		if (!strncmp(p, "shift=", 6) && !found++)
			n = snprintf(buf + off, len - off, "%sshift=%d",
				     off ? "," : "", shift);
		else
			n = snprintf(buf + off, len - off, "%s%.*s",
				     off ? "," : "", (int)k, p);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
		p += k + (p[k] == ',');
	}
	/* Without one (matrixcheck.c refuses that for icount cells): first. */
	if (!found) {
		n = snprintf(buf, len, "shift=%d%s%s", shift,
			     *m->icount ? "," : "", m->icount);
		if (n < 0 || (size_t)n >= len)
			return -1;
	}
	return 0;
}

void matrix_shift_speeds(const struct matrix *m, char *buf, size_t len)
{
	int icount = 0, seen[11] = { 0 };
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->nvalues[AX_accel]; i++) {
		const struct accel *a = accel_find(m->values[AX_accel][i]);

		icount |= a && a->icount;
	}
	for (int i = 0; icount && i < m->nvalues[AX_shift]; i++) {
		int s = matrix_cell_shift(m, m->values[AX_shift][i]);
		int n;

		if (s < 0 || s > 10 || seen[s]++)
			continue;
		/* 2^shift ns per instruction: 1000 MHz >> shift. */
		n = snprintf(buf + off, len - off, "%sshift=%d: %.7g MHz",
			     off ? ", " : "icount ", s, 1000.0 / (1 << s));
		if (n < 0 || (size_t)n >= len - off) {
			buf[off] = '\0'; /* whole entries only */
			return;
		}
		off += (size_t)n;
	}
}
