// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "matrix.h"
#include "accel.h"
#include "arch.h"
#include "err.h"
#include "stats.h"
#include "../guest-image/record.h"

#include <ctype.h>
#include <errno.h>
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
	for (int i = 0; i < SET_N; i++)
		m->setting[i] = setting_defaults[i];
	snprintf(m->icount, sizeof(m->icount), "shift=0,sleep=off");
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
		return err_set(err, errlen,
			       "%s%s%s=%s: need seconds from %d to %d", key,
			       acc ? "." : "", acc ? acc : "", val,
			       setting_lo[s], setting_hi[s]);
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
static size_t next_value(int a, const char **p, const char **v)
{
	const char *e = *p + strcspn(*p, ",");

	if (a == AX_cpu)
		while (*e == ',' && e[1] && cpu_flag(e + 1))
			e += 1 + strcspn(e + 1, ",");
	*v = *p;
	*p = *e ? e + 1 : e;
	return (size_t)(e - *v);
}

/* Is v one of the comma-separated values of list (axis a's spelling)? */
static int in_list(int a, const char *list, const char *v)
{
	const char *p = list, *x;
	size_t len;

	while (*p) {
		len = next_value(a, &p, &x);
		if (len == strlen(v) && !strncmp(x, v, len))
			return 1;
	}
	return 0;
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
			if (!next_value(a, &p, &v) || (p[-1] == ',' && !*p))
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
				       "reps=%s: need a whole number from 1 to 10000",
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
			"unknown axis '%s'; axes are: %sand settings reps timeout read_timeout ready_timeout (each also as setting.ACCEL) icount exclude name",
			key, known);
	}
	n = set_values(m, a, key, val, err, errlen);
	if (n < 0)
		return -1;
	m->nvalues[a] = n;
	return 0;
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

static int validate_settings(const struct matrix *m, char *err, size_t errlen);

int matrix_check_size(const struct matrix *m, char *err, size_t errlen)
{
	size_t cells = 1;

	for (int a = 0; a < AX_N; a++) {
		size_t v = (size_t)(m->nvalues[a] > 0 ? m->nvalues[a] : 1);

		cells = cells > SIZE_MAX / v ? SIZE_MAX : cells * v;
	}
	if (m->reps < 1 || cells <= MAX_PLAN_BOOTS / (size_t)m->reps)
		return 0;
	if (cells <= SIZE_MAX / (size_t)m->reps)
		return err_set(
			err, errlen,
			"the matrix has %zu cells x %d reps = %zu boots, more than the limit of %d boots a run may plan; give its axes fewer values or fewer reps (or split it into several matrices)",
			cells, m->reps, cells * (size_t)m->reps,
			MAX_PLAN_BOOTS);
	return err_set(
		err, errlen,
		"the matrix has %zu cells x %d reps, more than %zu boots, above the limit of %d boots a run may plan; give its axes fewer values or fewer reps (or split it into several matrices)",
		cells, m->reps, SIZE_MAX, MAX_PLAN_BOOTS);
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
					return err_set(
						err, errlen,
						"hz=%s: accepted values are 100, 250, 1000",
						v);
				break;
			case AX_accel:
				if (!accel_find(v))
					return err_set(
						err, errlen,
						"accel=%s: accepted values are %s",
						v, accel_list());
				break;
			case AX_arch:
				if (!arch_find(v))
					return err_set(
						err, errlen,
						"arch=%s: accepted values are %s",
						v, arch_list());
				break;
			case AX_bootseed:
			case AX_trust_cpu:
			case AX_virtio_rng:
			case AX_nocounter:
			case AX_trace:
				if (!one_of(v, onoff, 2))
					return err_set(
						err, errlen,
						"%s=%s: accepted values are on, off",
						axis_names[a], v);
				break;
			case AX_seed:
				if (!one_of(v, seed, 2))
					return err_set(
						err, errlen,
						"seed=%s: accepted values are none, saved",
						v);
				break;
			case AX_timer:
				if (!one_of(v, timer, 3))
					return err_set(
						err, errlen,
						"timer=%s: accepted values are auto (the accelerator's own: lapic, pit under icount), lapic, pit",
						v);
				break;
			case AX_smp:
				if (parse_int(v, 1, 8, &x))
					return err_set(
						err, errlen,
						"smp=%s: accepted values are 1 to 8",
						v);
				break;
			case AX_reads:
				if (!valid_reads(v, bad, sizeof(bad)))
					return err_set(
						err, errlen,
						"reads=%s: unknown read '%s'; reads are %s joined with ':' (or none)",
						v, bad, crb_read_list());
				break;
			case AX_cpu:
				/* QEMU's own spelling; the runner asks QEMU. Refuse only
				 * what would break the command line. */
				if (strpbrk(v, " \t'\"\\"))
					return err_set(
						err, errlen,
						"cpu=%s: spaces and quotes are not part of a -cpu spelling",
						v);
				break;
			case AX_variant:
				if (strspn(v,
					   "abcdefghijklmnopqrstuvwxyz0123456789-_") !=
				    strlen(v))
					return err_set(
						err, errlen,
						"variant=%s: not a variant name (see kernel/variants)",
						v);
				break;
			}
		}
	}
	return matrix_check_size(m, err, errlen) ?
		       -1 :
		       validate_settings(m, err, errlen);
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

/*
 * The probe-only guests of other architectures have no RDRAND models, no
 * LAPIC or PIT choice, no ftrace, no virtio-rng and no KVM here, and m68k
 * has one CONFIG_HZ: a matrix that asks for those with them is an error,
 * not a silent skip.
 */
/*
 * What a machine other than x86_64 cannot do, checked on the cells the
 * matrix plans (an exclude line can take such a combination out).
 */
static int validate_arch_cell(const struct cell *c, const struct arch *ar,
			      char *err, size_t errlen)
{
	static const struct {
		int axis;
		const char *bad, *why;
	} x86_only[] = {
		{ AX_accel, "kvm", "KVM runs x86_64 guests only here" },
		{ AX_trace, "on", "their kernels have no ftrace" },
		{ AX_virtio_rng, "on", "their machines get no virtio-rng" },
		{ AX_timer, "lapic", "the timer axis is x86's" },
		{ AX_timer, "pit", "the timer axis is x86's" },
		{ AX_seed, "saved", "there is no systemd to load a seed" },
	};

	for (size_t k = 0; k < sizeof(x86_only) / sizeof(x86_only[0]); k++)
		if (!strcmp(c->v[x86_only[k].axis], x86_only[k].bad))
			return err_set(
				err, errlen,
				"arch=%s with %s=%s: %s (give that axis another value, exclude the combination, or use a matrix per architecture)",
				ar->name, axis_names[x86_only[k].axis],
				x86_only[k].bad, x86_only[k].why);
	if (ar->seed_never && !strcmp(c->v[AX_bootseed], "on"))
		return err_set(
			err, errlen,
			"arch=%s with bootseed=on: its kernel never credits the boot-loader seed (QEMU always passes one and 6.1 would credit it before reading random.trust_bootloader=, so it is built without RANDOM_TRUST_BOOTLOADER; see kernel/config/%s/rng.config); exclude it with: exclude = arch=%s bootseed=on",
			ar->name, ar->kernel_arch, ar->name);
	if (ar->seed_absent && !strcmp(c->v[AX_bootseed], "on"))
		return err_set(
			err, errlen,
			"arch=%s with bootseed=on: QEMU gives this machine no boot-loader seed (no /chosen/rng-seed in the device tree it passes), so it would be the same boot as bootseed=off; exclude it with: exclude = arch=%s bootseed=on",
			ar->name, ar->name);
	return 0;
}

static int validate_arches(const struct matrix *m, char *err, size_t errlen)
{
	for (int i = 0; i < m->nvalues[AX_arch]; i++) {
		const struct arch *ar = arch_find(m->values[AX_arch][i]);

		/* Kernels are built per arch x variant x HZ: axis-wide. */
		if (ar->fixed_hz)
			for (int h = 0; h < m->nvalues[AX_hz]; h++)
				if (strcmp(m->values[AX_hz][h], ar->fixed_hz))
					return err_set(
						err, errlen,
						"arch=%s with hz=%s: its CONFIG_HZ is fixed; accepted: hz=%s",
						ar->name, m->values[AX_hz][h],
						ar->fixed_hz);
	}
	for (size_t i = 0; i < matrix_ncells(m); i++) {
		struct cell c;
		const struct arch *ar;

		matrix_cell(m, i, &c);
		ar = arch_find(c.v[AX_arch]);
		if (!ar->x86 && matrix_cell_planned(m, &c) &&
		    validate_arch_cell(&c, ar, err, errlen))
			return -1;
	}
	return 0;
}

/* The settings beyond each value's own range, per accelerator in use. */
static int validate_settings(const struct matrix *m, char *err, size_t errlen)
{
	if (validate_arches(m, err, errlen))
		return -1;
	for (int i = 0; i < m->nvalues[AX_accel]; i++) {
		const char *acc = m->values[AX_accel][i];
		int rd = matrix_setting(m, SET_read_timeout, acc),
		    ready = matrix_setting(m, SET_ready_timeout, acc);

		if (ready < rd)
			return err_set(
				err, errlen,
				"ready_timeout=%d is below read_timeout=%d for accel=%s: the censor bound of CRNG ready (when the report goes out) must not come before the reads' budget ends; give ready_timeout >= read_timeout (or leave it out: it is then read_timeout)",
				ready, rd, acc);
		if (!strcmp(acc, "icount") && matrix_icount_shift(m) < 0)
			return err_set(
				err, errlen,
				"icount=%s: need shift=N with N from 0 to 10 (a guest ns is 2^N instructions' worth; shift=auto would follow the host's clock, which icount is here to avoid), e.g. icount=shift=0,sleep=off",
				m->icount);
	}
	return 0;
}

size_t matrix_nkernels(const struct matrix *m)
{
	return (size_t)m->nvalues[AX_arch] * (size_t)m->nvalues[AX_variant] *
	       (size_t)m->nvalues[AX_hz];
}

void matrix_kernel(const struct matrix *m, size_t i, struct kernel_ref *k)
{
	size_t nh = (size_t)m->nvalues[AX_hz],
	       nv = (size_t)m->nvalues[AX_variant];

	k->hz = m->values[AX_hz][i % nh];
	k->variant = m->values[AX_variant][i / nh % nv];
	k->arch = m->values[AX_arch][i / nh / nv];
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

/* Does the cell match every axis=value of exclusion e? */
static int excluded_by(const char *e, const struct cell *c)
{
	char buf[4 * MAX_VALUE_LEN], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", e);
	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		int a;

		*eq = '\0'; /* add_exclude checked the form */
		a = axis_lookup(tok);
		if (!in_list(a, eq + 1, c->v[a]))
			return 0;
	}
	return 1;
}

int matrix_cell_planned(const struct matrix *m, const struct cell *c)
{
	if (!matrix_combination_ok(c->v[AX_accel], c->v[AX_cpu]))
		return 0;
	for (int i = 0; i < m->nexclude; i++)
		if (excluded_by(m->exclude[i], c))
			return 0;
	return 1;
}

void boot_id(const struct boot_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "c%zu-r%d", p->cell, p->rep);
}

struct boot_plan *matrix_plan(const struct matrix *m, uint64_t seed,
			      int shard_k, int shard_n, size_t *count)
{
	char err[8];
	size_t ncells, total, n = 0;
	struct boot_plan *plan;
	size_t *order;
	uint64_t st = seed;

	*count = 0;
	if (matrix_check_size(m, err, sizeof(err)))
		return NULL;
	ncells = matrix_ncells(m);
	total = ncells * (size_t)m->reps;
	plan = calloc(total ? total : 1, sizeof(*plan));
	order = malloc((ncells ? ncells : 1) * sizeof(*order));
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
			if (!matrix_cell_planned(m, &c))
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
