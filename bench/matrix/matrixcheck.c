// SPDX-License-Identifier: GPL-2.0
/*
 * What a matrix may hold: every value against what its axis accepts, the
 * plan's size, and what the settings and machines allow together. The
 * probe-only guests of other architectures have no RDRAND models, no
 * LAPIC or PIT choice, no ftrace, no virtio-rng and no KVM here, and m68k
 * has one CONFIG_HZ: a matrix that asks for those with them is an error,
 * not a silent skip. Static rules only: whether QEMU takes a -cpu spelling
 * is asked of QEMU (run.c).
 */
#define _GNU_SOURCE
#include "matrixcheck.h"
#include "../machines/accel.h"
#include "../machines/arch.h"
#include "../ground/err.h"
#include "matrixfile.h"
#include "plan.h"
#include "../ground/util.h"
#include "../machines/table.h"
#include "../../guest-image/record.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
				ar->name,
				axis_name((enum axis)x86_only[k].axis),
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
	for (size_t i = 0; i < matrix_ncells(m); i++) {
		struct cell c;
		const struct arch *ar;

		matrix_cell(m, i, &c);
		ar = arch_find(c.v[AX_arch]);
		if (!matrix_cell_planned(m, &c))
			continue;
		/* A planned cell's kernel must be one the arch can build. */
		if (ar->fixed_hz && strcmp(c.v[AX_hz], ar->fixed_hz))
			return err_set(
				err, errlen,
				"arch=%s with hz=%s: its CONFIG_HZ is fixed; accepted: hz=%s (or exclude it: exclude = arch=%s hz=%s)",
				ar->name, c.v[AX_hz], ar->fixed_hz, ar->name,
				c.v[AX_hz]);
		if (!ar->x86 && validate_arch_cell(&c, ar, err, errlen))
			return -1;
		/*
		 * QEMU 7.2's microvm under icount hangs bringing up a second
		 * vCPU ("x86: Booting SMP configuration:", then nothing for
		 * 200 s of host time, either tick, sleep=on or off): every
		 * such boot would end at the host bound, measuring nothing.
		 */
		if (ar->x86 && accel_find(c.v[AX_accel])->icount &&
		    strcmp(c.v[AX_smp], "1"))
			return err_set(
				err, errlen,
				"arch=%s accel=%s with smp=%s: the microvm guest hangs bringing up its second vCPU under icount (QEMU 7.2; studies/bases/bases.matrix), so the boot would only time out; more vCPUs run under accel=tcg or kvm; exclude it with: exclude = accel=%s smp=%s",
				ar->name, c.v[AX_accel], c.v[AX_smp],
				c.v[AX_accel], c.v[AX_smp]);
		if (!ar->rtc && !strcmp(c.v[AX_rtc], "fixed"))
			return err_set(
				err, errlen,
				"arch=%s with rtc=fixed: the RTC's date never reaches this machine's guest (its kernel reads no RTC; bench/machines/arch.c), so it would be the same boot as rtc=host; rtc=fixed is accepted on arch=%s; exclude it with: exclude = arch=%s rtc=fixed",
				ar->name, arch_rtc_list(), ar->name);
		if (!ar->x86 && !strcmp(c.v[AX_early], "child"))
			return err_set(
				err, errlen,
				"arch=%s with early=child: its guest is probe-only, with no systemd for PID 1 to exec while a child reads, so its PID 1 makes the reads itself; early=child is accepted on arch=%s; exclude it with: exclude = arch=%s early=child",
				ar->name, arch_systemd_list(), ar->name);
	}
	return 0;
}

/*
 * A number on the shift axis is QEMU's -icount shift=N: under another
 * accelerator it would change nothing but the cell's name. Checked on the
 * cells the matrix plans, so an exclude line takes such a cell out.
 */
static int validate_shift_cells(const struct matrix *m, char *err,
				size_t errlen)
{
	char list[MAX_VALUES * 4] = "";
	int other = 0;

	/* The axis's numbers, checked by now (0 to 10: two digits at most). */
	for (int i = 0; i < m->nvalues[AX_shift]; i++)
		if (strcmp(m->values[AX_shift][i], "auto"))
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s%.2s",
				 list[0] ? "," : "", m->values[AX_shift][i]);
	for (int i = 0; i < m->nvalues[AX_accel]; i++)
		other |= !accel_find(m->values[AX_accel][i])->icount;
	if (!list[0] || !other)
		return 0;
	for (size_t i = 0; i < matrix_ncells(m); i++) {
		struct cell c;

		matrix_cell(m, i, &c);
		if (strcmp(c.v[AX_shift], "auto") &&
		    !accel_find(c.v[AX_accel])->icount &&
		    matrix_cell_planned(m, &c))
			return err_set(
				err, errlen,
				"accel=%s with shift=%s: the shift axis is icount's (QEMU's -icount shift=N, the guest CPU's speed under accel=icount); accel=%s has no instruction clock, so only shift=auto fits it; exclude it with: exclude = accel=%s shift=%s",
				c.v[AX_accel], c.v[AX_shift], c.v[AX_accel],
				c.v[AX_accel], list);
	}
	return 0;
}

/* The settings beyond each value's own range, per accelerator in use. */
static int validate_settings(const struct matrix *m, char *err, size_t errlen)
{
	if (validate_arches(m, err, errlen) ||
	    validate_shift_cells(m, err, errlen))
		return -1;
	if (m->min_reps > m->reps)
		return err_set(
			err, errlen,
			"min_reps=%d is above reps=%d: reps is the most boots a cell may take and min_reps the fewest; give min_reps <= reps",
			m->min_reps, m->reps);
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

int matrix_validate(const struct matrix *m, char *err, size_t errlen)
{
	static const char *const onoff[] = { "on", "off" };
	static const char *const hz[] = { "100", "250", "1000" };
	static const char *const seed[] = { "none", "saved" };
	static const char *const timer[] = { "auto", "lapic", "pit" };
	static const char *const rtc[] = { "host", "fixed" };
	static const char *const early[] = { "pid1", "child" };

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
						axis_name((enum axis)a), v);
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
			case AX_shift:
				if (strcmp(v, "auto") &&
				    parse_int(v, 0, 10, &x))
					return err_set(
						err, errlen,
						"shift=%s: accepted values are auto (the icount setting's shift=N) and 0 to 10 (QEMU's -icount shift=N: 2^N ns per instruction, a guest CPU of 1 GHz >> N; under accel=icount only)" DIGITS_ONLY,
						v);
				break;
			case AX_smp:
				if (parse_int(v, 1, 8, &x))
					return err_set(
						err, errlen,
						"smp=%s: accepted values are 1 to 8" DIGITS_ONLY,
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
			case AX_rtc:
				if (!one_of(v, rtc, 2))
					return err_set(
						err, errlen,
						"rtc=%s: accepted values are host (the RTC starts at the host's date, QEMU's default), fixed (at " RTC_FIXED_DATE
						", on QEMU's virtual clock)",
						v);
				break;
			case AX_early:
				if (!one_of(v, early, 2))
					return err_set(
						err, errlen,
						"early=%s: accepted values are pid1 (PID 1 makes the early reads, then execs systemd), child (a child of PID 1 makes them while PID 1 execs systemd at once; x86_64 only)",
						v);
				break;
			case AX_waiters:
				/* one digit, as the probe takes it (record.c) */
				if (crb_waiters(v) < 0)
					return err_set(
						err, errlen,
						"waiters=%s: accepted values are 0 to %d: how many more processes PID 1 forks just before its early reads, each blocked in getrandom(0) until the CRNG is ready (with reads=getrandom, waiters=N makes N + 1 concurrent waiters)",
						v, CRB_MAX_WAITERS);
				break;
			case AX_base:
				/* A row of kernel/bases: the runner reads the
				 * table (bases.c); here only what a name is. */
				if (!strspn(v,
					    "abcdefghijklmnopqrstuvwxyz0123456789") ||
				    strspn(v,
					   "abcdefghijklmnopqrstuvwxyz0123456789._-") !=
					    strlen(v))
					return err_set(
						err, errlen,
						"base=%s: not a kernel base name (a row of kernel/bases)",
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

int matrix_load_run(const char *path, struct matrix *m, char *err,
		    size_t errlen)
{
	char why[1024];

	matrix_init(m);
	if (matrix_load(m, path, err, errlen))
		return -1;
	if (matrix_validate(m, why, sizeof(why)))
		return err_set(
			err, errlen,
			"%s: %s (a run's matrix is held to the rules a matrix is planned by; nothing was written)",
			path, why);
	return 0;
}

/* --- a run's matrix, grown ----------------------------------------------------- */

/* m as run.matrix's text (matrix_write), malloc'd; NULL out of memory. */
static char *matrix_text(const struct matrix *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return NULL;
	if ((matrix_write(m, mem) | fclose(mem)) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The first line of text a that text b does not hold ("" if none). */
static void line_not_in(const char *a, const char *b, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *p = a; *p;) {
		size_t n = strcspn(p, "\n");
		int found = 0;

		for (const char *q = b; *q && !found;) {
			size_t k = strcspn(q, "\n");

			found = k == n && !strncmp(p, q, n);
			q += k + (q[k] == '\n');
		}
		if (!found) {
			text_printf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p += n + (p[n] == '\n');
	}
}

/* The values of `from` that `to` lacks: 0, or -1 naming the first. */
static int values_kept(const struct matrix *from, const struct matrix *to,
		       char *err, size_t errlen)
{
	for (int a = 0; a < AX_N; a++)
		for (int i = 0; i < from->nvalues[a]; i++) {
			char all[512] = "";
			int j = 0;

			while (j < to->nvalues[a] &&
			       strcmp(to->values[a][j], from->values[a][i]))
				j++;
			if (j < to->nvalues[a])
				continue;
			for (j = 0; j < from->nvalues[a]; j++)
				text_printf(all + strlen(all),
					    sizeof(all) - strlen(all), "%s%s",
					    j ? "," : "", from->values[a][j]);
			return err_set(
				err, errlen,
				"the new matrix drops %s=%s, which the run holds boots of; a run grows by adding values: keep all of its %s=%s",
				axis_name((enum axis)a), from->values[a][i],
				axis_name((enum axis)a), all);
		}
	return 0;
}

void matrix_added(const struct matrix *from, const struct matrix *to, char *buf,
		  size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int a = 0; a < AX_N; a++) {
		int first = 1;

		for (int j = 0; j < to->nvalues[a]; j++) {
			int i = 0;

			while (i < from->nvalues[a] &&
			       strcmp(from->values[a][i], to->values[a][j]))
				i++;
			if (i < from->nvalues[a] || off >= len)
				continue;
			off += (size_t)snprintf(
				buf + off, len - off, "%s%s%s%s",
				first && off ? ", " : "",
				first ? axis_name((enum axis)a) : "",
				first ? "=" : ",", to->values[a][j]);
			first = 0;
		}
	}
}

int matrix_grows(const struct matrix *from, const struct matrix *to, char *err,
		 size_t errlen)
{
	struct matrix *t = malloc(sizeof(*t));
	char *a = NULL, *b = NULL, *c = NULL, was[512], now[512];
	int rc;

	if (!t)
		return err_set(err, errlen, "out of memory");
	/* to with from's axis values: the rest must be the same text */
	*t = *to;
	memcpy(t->values, from->values, sizeof(t->values));
	memcpy(t->nvalues, from->nvalues, sizeof(t->nvalues));
	a = matrix_text(from);
	b = matrix_text(t);
	c = matrix_text(to);
	if (!a || !b || !c) {
		rc = err_set(err, errlen, "out of memory");
	} else if (!strcmp(a, c)) {
		rc = 0;
	} else if (values_kept(from, to, err, errlen)) {
		rc = -1;
	} else if (strcmp(a, b)) {
		line_not_in(a, b, was, sizeof(was));
		line_not_in(b, a, now, sizeof(now));
		rc = err_set(
			err, errlen,
			"the new matrix %s '%s'%s%s%s; a run grows by axis values only, its name, settings and exclude lines kept (start a new run for another setting)",
			now[0] ? "has" : "lacks", now[0] ? now : was,
			now[0] && was[0] ? " where the run's run.matrix has '" :
			now[0] ? ", which the run's run.matrix has not" :
				 " of the run's run.matrix",
			now[0] && was[0] ? was : "",
			now[0] && was[0] ? "'" : "");
	} else {
		rc = 1;
	}
	free(a);
	free(b);
	free(c);
	free(t);
	return rc;
}

/* --- the base axis against kernel/bases ---------------------------------------- */

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

int bases_check_table(const struct matrix *m, const char *path, char *err,
		      size_t errlen)
{
	struct fact_table *t = malloc(sizeof(*t));
	char sub[PATH_MAX + 256];
	int rc = 0;

	if (!t)
		return err_set(err, errlen, "out of memory");
	if (table_read(path, t, sub, sizeof(sub)))
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

int bases_check(const struct matrix *m, char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (table_path("kernel/bases", path, sizeof(path)))
		return err_set(
			err, errlen,
			"cannot find kernel/bases beside the runner (<its directory>/../kernel/bases): run the runner of a checkout, as built there");
	return bases_check_table(m, path, err, errlen);
}

/* --- the variant axis against kernel/variants ------------------------------------ */

int variants_check_text(const struct matrix *m, const char *listing, char *err,
			size_t errlen)
{
	for (const char *p = listing; *p;) {
		size_t len = strcspn(p, "\n");
		char row[3 * MAX_VALUE_LEN], name[MAX_VALUE_LEN],
			base[MAX_VALUE_LEN], end;
		int line;

		text_printf(row, sizeof(row), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (!row[0])
			continue;
		if (len >= sizeof(row) || sscanf(row, "%95s %95s %d %c", name,
						 base, &line, &end) != 3)
			return err_set(
				err, errlen,
				"scripts/variants.sh --one-base said '%.80s', not 'NAME BASE LINE'",
				row);
		for (size_t i = 0; i < matrix_nkernels(m); i++) {
			struct kernel_ref k;

			if (matrix_kernel(m, i, &k) &&
			    !strcmp(k.variant, name) && strcmp(k.base, base))
				return err_set(
					err, errlen,
					"variant=%s is a variant of base %s only (kernel/variants line %d, below [%s]), and the matrix boots it on base %s: set base=%s, or leave those cells out (exclude = base=%s variant=%s)",
					name, base, line, base, k.base, base,
					k.base, name);
		}
	}
	return 0;
}

/*
 * The variants of one base only of kernel/variants at path, as
 * scripts/variants.sh --one-base lists them ("NAME BASE LINE" lines),
 * into out: a line's first word, below a line "[BASE]". Read as a fact
 * table is (table_slurp: a regular file, bounded); whether a
 * [BASE] is a base, or a name given twice, is scripts/variants.sh's to
 * refuse (every make target and kernel/build.sh run it first).
 */
static int one_base_variants(const char *path, struct strbuf *out, char *err,
			     size_t errlen)
{
	struct strbuf b = { 0 };
	char base[MAX_VALUE_LEN] = "";
	int lineno = 0;

	if (table_slurp(path, &b, err, errlen))
		return -1;
	for (char *p = b.p, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		size_t w;

		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		if (*p == '#')
			continue;
		p += strspn(p, " \t");
		w = strcspn(p, " \t");
		if (!w || w >= sizeof(base))
			continue;
		if (*p == '[')
			text_printf(base, sizeof(base), "%.*s",
				    (int)(w > 2 ? w - 2 : 0), p + 1);
		else if (base[0])
			sb_printf(out, "%.*s %s %d\n", (int)w, p, base, lineno);
	}
	sb_free(&b);
	return out->oom ? err_set(err, errlen, "out of memory") : 0;
}

int variants_check(const struct matrix *m, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct strbuf one = { 0 };
	int rc;

	if (table_path("kernel/variants", path, sizeof(path)))
		return err_set(
			err, errlen,
			"cannot find kernel/variants beside the runner (<its directory>/../kernel/variants): run the runner of a checkout, as built there");
	rc = one_base_variants(path, &one, err, errlen) ||
	     variants_check_text(m, one.p ? one.p : "", err, errlen);
	sb_free(&one);
	return rc ? -1 : 0;
}
