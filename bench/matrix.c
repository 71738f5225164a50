// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "matrix.h"
#include "accel.h"
#include "stats.h"
#include "../guest-image/record.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
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
	m->timeout_s = 60;
	m->read_timeout_s = 20;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
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
		tok = trim(tok);
		if (!*tok)
			return fail(err, errlen, "%s: empty value in the list",
				    key);
		/*
		 * QEMU's -cpu spelling has commas of its own: a flag (+x, -x,
		 * x=on) belongs to the model before it, so "qemu64,max,-rdrand"
		 * is the two values qemu64 and max,-rdrand.
		 */
		if (a == AX_cpu && n > 0 &&
		    (*tok == '+' || *tok == '-' || strchr(tok, '='))) {
			char *prev = m->values[a][n - 1];

			if (strlen(prev) + 1 + strlen(tok) >= MAX_VALUE_LEN)
				return fail(err, errlen,
					    "cpu: value '%s,%s' too long", prev,
					    tok);
			strcat(prev, ",");
			strcat(prev, tok);
			continue;
		}
		if (a == AX_cpu &&
		    (*tok == '+' || *tok == '-' || strchr(tok, '=')))
			return fail(
				err, errlen,
				"cpu=%s: a CPU flag needs a model before it (e.g. max,-rdrand)",
				tok);
		if (n == MAX_VALUES)
			return fail(err, errlen, "%s: more than %d values", key,
				    MAX_VALUES);
		if (strlen(tok) >= MAX_VALUE_LEN)
			return fail(err, errlen,
				    "%s: value '%.30s...' too long", key, tok);
		snprintf(m->values[a][n++], MAX_VALUE_LEN, "%s", tok);
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(m->values[a][j], m->values[a][i]))
				return fail(err, errlen,
					    "%s: value '%s' given twice", key,
					    m->values[a][i]);
	return n;
}

int matrix_set(struct matrix *m, const char *assignment, char *err,
	       size_t errlen)
{
	char buf[1024], *eq, *key, *val;
	int a, n;

	if (strlen(assignment) >= sizeof(buf))
		return fail(err, errlen, "'%.40s...' is too long", assignment);
	snprintf(buf, sizeof(buf), "%s", assignment);
	eq = strchr(buf, '=');
	if (!eq)
		return fail(err, errlen,
			    "'%s' is not of the form axis=value[,value...]",
			    assignment);
	*eq = '\0';
	key = trim(buf);
	val = trim(eq + 1);
	if (!*val)
		return fail(err, errlen, "'%s' has no value", key);
	if (!strcmp(key, "reps"))
		return parse_int(val, 1, 10000, &m->reps) ?
			       fail(err, errlen,
				    "reps=%s: need a whole number from 1 to 10000",
				    val) :
			       0;
	if (!strcmp(key, "timeout"))
		return parse_int(val, 5, 3600, &m->timeout_s) ?
			       fail(err, errlen,
				    "timeout=%s: need seconds from 5 to 3600",
				    val) :
			       0;
	if (!strcmp(key, "read_timeout"))
		return parse_int(val, 0, 3600, &m->read_timeout_s) ?
			       fail(err, errlen,
				    "read_timeout=%s: need seconds from 0 to 3600",
				    val) :
			       0;
	/* What a matrix file cannot hold cannot be saved in run.matrix. */
	if (strpbrk(val, "#\n\r"))
		return fail(
			err, errlen,
			"%s: '#' and line breaks cannot be part of a value ('#' starts a comment)",
			key);
	if (!strcmp(key, "name")) {
		if (strlen(val) >= sizeof(m->name))
			return fail(err, errlen,
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
		return fail(
			err, errlen,
			"unknown axis '%s'; axes are: %sand settings reps timeout read_timeout name",
			key, known);
	}
	n = set_values(m, a, key, val, err, errlen);
	if (n < 0)
		return -1;
	m->nvalues[a] = n;
	return 0;
}

/* The key of "key = value", for duplicate checks; "" if none. */
static void line_key(const char *line, char *key, size_t len)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, "="), line);
	snprintf(key, len, "%s", trim(buf));
}

#define MATRIX_MAX_LINE 4096

/* One line of a matrix file: comment stripped, duplicate keys refused. */
static int load_line(struct matrix *m, char *line, int lineno, char (*seen)[32],
		     int *nseen, char *err, size_t errlen)
{
	char key[32], *p = strchr(line, '#');

	if (p)
		*p = '\0';
	p = trim(line);
	if (!*p)
		return 0;
	line_key(p, key, sizeof(key));
	for (int i = 0; i < *nseen; i++)
		if (!strcmp(seen[i], key))
			return fail(
				err, errlen,
				"line %d sets '%s' again; one line per axis or setting",
				lineno, key);
	if (*nseen < AX_N + 8)
		snprintf(seen[(*nseen)++], 32, "%s", key);
	return matrix_set(m, p, err, errlen);
}

int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen)
{
	char sub[768], seen[AX_N + 8][32], *line = NULL;
	int lineno = 0, nseen = 0, rc = 0;
	size_t cap = 0;
	ssize_t len;
	struct stat st;
	FILE *f = fopen(path, "re");

	if (!f)
		return fail(err, errlen, "cannot read matrix file %s: %s", path,
			    strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return fail(err, errlen,
			    "cannot read matrix file %s: not a regular file",
			    path);
	}
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (len > MATRIX_MAX_LINE)
			rc = fail(err, errlen,
				  "%s:%d: line longer than %d characters", path,
				  lineno, MATRIX_MAX_LINE);
		else if (load_line(m, line, lineno, seen, &nseen, sub,
				   sizeof(sub)))
			rc = fail(err, errlen, "%s:%d: %s", path, lineno, sub);
	}
	if (!rc && ferror(f))
		rc = fail(err, errlen, "cannot read matrix file %s: %s", path,
			  strerror(errno));
	free(line);
	fclose(f);
	return rc;
}

int matrix_write(const struct matrix *m, FILE *f)
{
	fprintf(f,
		"# resolved by crngbench-run\nname = %s\nreps = %d\ntimeout = %d\nread_timeout = %d\n",
		m->name, m->reps, m->timeout_s, m->read_timeout_s);
	for (int a = 0; a < AX_N; a++) {
		fprintf(f, "%s = ", axis_names[a]);
		for (int i = 0; i < m->nvalues[a]; i++)
			fprintf(f, "%s%s", i ? "," : "", m->values[a][i]);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static int one_of(const char *v, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v, list[i]))
			return 1;
	return 0;
}

static int valid_reads(const char *v, char *bad, size_t badlen)
{
	char buf[MAX_VALUE_LEN], *tok, *save = NULL;

	if (!strcmp(v, "none"))
		return 1;
	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save))
		if (!one_of(tok, crb_read_names, crb_nreads)) {
			snprintf(bad, badlen, "%s", tok);
			return 0;
		}
	return 1;
}

int matrix_validate(const struct matrix *m, char *err, size_t errlen)
{
	static const char *const onoff[] = { "on", "off" };
	static const char *const hz[] = { "100", "250", "1000" };
	static const char *const seed[] = { "none", "saved" };
	static const char *const timer[] = { "auto", "lapic", "pit" };

	for (int a = 0; a < AX_N; a++) {
		for (int i = 0; i < m->nvalues[a]; i++) {
			const char *v = m->values[a][i];
			char bad[MAX_VALUE_LEN];
			int x;

			switch (a) {
			case AX_hz:
				if (!one_of(v, hz, 3))
					return fail(
						err, errlen,
						"hz=%s: accepted values are 100, 250, 1000",
						v);
				break;
			case AX_accel:
				if (!accel_find(v))
					return fail(
						err, errlen,
						"accel=%s: accepted values are %s",
						v, accel_list());
				break;
			case AX_trust_cpu:
			case AX_virtio_rng:
			case AX_nocounter:
			case AX_trace:
				if (!one_of(v, onoff, 2))
					return fail(
						err, errlen,
						"%s=%s: accepted values are on, off",
						axis_names[a], v);
				break;
			case AX_seed:
				if (!one_of(v, seed, 2))
					return fail(
						err, errlen,
						"seed=%s: accepted values are none, saved",
						v);
				break;
			case AX_timer:
				if (!one_of(v, timer, 3))
					return fail(
						err, errlen,
						"timer=%s: accepted values are auto (the accelerator's own: lapic, pit under icount), lapic, pit",
						v);
				break;
			case AX_smp:
				if (parse_int(v, 1, 8, &x))
					return fail(
						err, errlen,
						"smp=%s: accepted values are 1 to 8",
						v);
				break;
			case AX_reads:
				if (!valid_reads(v, bad, sizeof(bad)))
					return fail(
						err, errlen,
						"reads=%s: unknown read '%s'; reads are %s joined with ':' (or none)",
						v, bad, crb_read_list());
				break;
			case AX_cpu:
				/* QEMU's own spelling; the runner asks QEMU. Refuse only
				 * what would break the command line. */
				if (strpbrk(v, " \t'\"\\"))
					return fail(
						err, errlen,
						"cpu=%s: spaces and quotes are not part of a -cpu spelling",
						v);
				break;
			case AX_variant:
				if (strspn(v,
					   "abcdefghijklmnopqrstuvwxyz0123456789-_") !=
				    strlen(v))
					return fail(
						err, errlen,
						"variant=%s: not a variant name (see kernel/variants)",
						v);
				break;
			}
		}
	}
	return 0;
}

size_t matrix_ncells(const struct matrix *m)
{
	size_t n = 1;

	for (int a = 0; a < AX_N; a++)
		n *= (size_t)m->nvalues[a];
	return n;
}

void matrix_cell(const struct matrix *m, size_t index, struct cell *c)
{
	size_t rest = index;

	c->index = (int)index;
	/* Last axis varies fastest. */
	for (int a = AX_N - 1; a >= 0; a--) {
		c->v[a] = m->values[a][rest % (size_t)m->nvalues[a]];
		rest /= (size_t)m->nvalues[a];
	}
}

int matrix_combination_ok(const char *accel, const char *cpu)
{
	const struct accel *a = accel_find(accel);

	/* -cpu host passes the host CPU through: KVM only. */
	return !(a && !a->needs_kvm && !strncmp(cpu, "host", 4) &&
		 (cpu[4] == '\0' || cpu[4] == ','));
}

struct boot_plan *matrix_plan(const struct matrix *m, uint64_t seed,
			      int shard_k, int shard_n, size_t *count)
{
	size_t ncells = matrix_ncells(m), total = ncells * (size_t)m->reps,
	       n = 0;
	struct boot_plan *plan = calloc(total ? total : 1, sizeof(*plan));
	size_t *order = malloc((ncells ? ncells : 1) * sizeof(*order));
	uint64_t st = seed;

	*count = 0;
	if (!plan || !order) {
		free(plan);
		free(order);
		return NULL;
	}
	for (int rep = 0; rep < m->reps; rep++) {
		for (size_t i = 0; i < ncells; i++)
			order[i] = i;
		for (size_t i = ncells; i > 1; i--) { /* Fisher-Yates */
			size_t j = rng_next(&st) % i, t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		for (size_t i = 0; i < ncells; i++) {
			size_t canon = order[i] * (size_t)m->reps + (size_t)rep;
			struct cell c;

			matrix_cell(m, order[i], &c);
			if (!matrix_combination_ok(c.v[AX_accel], c.v[AX_cpu]))
				continue;

			if ((int)(canon % (size_t)shard_n) != shard_k - 1)
				continue;
			plan[n].cell = order[i];
			plan[n].rep = rep;
			plan[n].canonical = canon;
			n++;
		}
	}
	free(order);
	*count = n;
	return plan;
}
