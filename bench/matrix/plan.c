// SPDX-License-Identifier: GPL-2.0
/*
 * A matrix's cells, which of them the plan holds (combinations that exist,
 * exclude lines), the run order, the shards, and the kernels it boots.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "../machines/arch.h"
#include "../machines/accel.h"
#include "../ground/err.h"
#include "../ground/runlimits.h"
#include "../ground/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t matrix_nkernels(const struct matrix *m)
{
	return (size_t)m->nvalues[AX_base] * (size_t)m->nvalues[AX_arch] *
	       (size_t)m->nvalues[AX_variant] * (size_t)m->nvalues[AX_hz];
}

int matrix_kernel(const struct matrix *m, size_t i, struct kernel_ref *k)
{
	size_t nh = (size_t)m->nvalues[AX_hz],
	       nv = (size_t)m->nvalues[AX_variant],
	       na = (size_t)m->nvalues[AX_arch];

	k->hz = m->values[AX_hz][i % nh];
	k->variant = m->values[AX_variant][i / nh % nv];
	k->arch = m->values[AX_arch][i / nh / nv % na];
	k->base = m->values[AX_base][i / nh / nv / na];
	/* Booted by a planned cell? An exclude line spares a kernel. */
	for (size_t c = 0; c < matrix_ncells(m); c++) {
		struct cell cell;

		matrix_cell(m, c, &cell);
		if (cell.v[AX_hz] == k->hz &&
		    cell.v[AX_variant] == k->variant &&
		    cell.v[AX_arch] == k->arch && cell.v[AX_base] == k->base &&
		    matrix_cell_planned(m, &cell))
			return 1;
	}
	return 0;
}

void cell_kernel(const struct cell *c, struct kernel_ref *k)
{
	*k = (struct kernel_ref){ .arch = c->v[AX_arch],
				  .variant = c->v[AX_variant],
				  .hz = c->v[AX_hz],
				  .base = c->v[AX_base] };
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

/* Is v one of the comma-separated values of list (axis a's spelling)? */
static int in_list(int a, const char *list, const char *v)
{
	const char *p = list, *x;
	size_t len;

	while (*p) {
		len = matrix_next_value(a, &p, &x);
		if (len == strlen(v) && !strncmp(x, v, len))
			return 1;
	}
	return 0;
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

int matrix_check_size(const struct matrix *m, char *err, size_t errlen)
{
	size_t cells = 1;

	for (int a = 0; a < AX_N; a++) {
		size_t v = (size_t)(m->nvalues[a] > 0 ? m->nvalues[a] : 1);

		cells = cells > SIZE_MAX / v ? SIZE_MAX : cells * v;
	}
	if (m->reps < 1 || cells <= MAX_RUN_BOOTS / (size_t)m->reps)
		return 0;
	if (cells <= SIZE_MAX / (size_t)m->reps)
		return err_set(
			err, errlen,
			"the matrix has %zu cells x %d reps = %zu boots, more than the limit of %d boots a run may plan; give its axes fewer values or fewer reps (or split it into several matrices)",
			cells, m->reps, cells * (size_t)m->reps, MAX_RUN_BOOTS);
	return err_set(
		err, errlen,
		"the matrix has %zu cells x %d reps, more than %zu boots, above the limit of %d boots a run may plan; give its axes fewer values or fewer reps (or split it into several matrices)",
		cells, m->reps, SIZE_MAX, MAX_RUN_BOOTS);
}

void boot_id(const struct boot_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "c%zu-r%d", p->cell, p->rep);
}

/* A decimal number without sign or leading zero, at most 9 digits. */
static const char *id_number(const char *p, long *v)
{
	const char *s = p;

	*v = 0;
	while (*p >= '0' && *p <= '9' && p - s < 9)
		*v = *v * 10 + (*p++ - '0');
	return p == s || (*s == '0' && p - s > 1) ? NULL : p;
}

int boot_id_parse(const char *id, long *cell, long *rep)
{
	const char *p = id;

	return *p++ != 'c' || !(p = id_number(p, cell)) || *p++ != '-' ||
			       *p++ != 'r' || !(p = id_number(p, rep)) || *p ?
		       -1 :
		       0;
}

long matrix_cell_find(const struct matrix *m, const char *const *v)
{
	size_t index = 0;

	for (int a = 0; a < AX_N; a++) {
		int i = 0;

		while (i < m->nvalues[a] && strcmp(m->values[a][i], v[a]))
			i++;
		if (i == m->nvalues[a])
			return -1;
		index = index * (size_t)m->nvalues[a] + (size_t)i;
	}
	return (long)index;
}

/*
 * The shard of each cell: the planned cells, shuffled by a fixed seed
 * (so no axis lines up with the shards: TCG cells in one, icount in the
 * other), dealt to the shards in turn; -1 for a cell not planned. A
 * cell's boots stay in one shard, where the stop rule (stop.h) judges
 * them. Malloc'd, NULL out of memory.
 */
int *matrix_cell_shards(const struct matrix *m, int shard_n)
{
	size_t ncells = matrix_ncells(m), np = 0;
	size_t *planned = malloc((ncells ? ncells : 1) * sizeof(*planned));
	int *shard = malloc((ncells ? ncells : 1) * sizeof(*shard));
	uint64_t st = 0x5eed5eedULL;

	if (!planned || !shard) {
		free(planned);
		free(shard);
		return NULL;
	}
	for (size_t i = 0; i < ncells; i++) {
		struct cell c;

		matrix_cell(m, i, &c);
		shard[i] = -1;
		if (matrix_cell_planned(m, &c))
			planned[np++] = i;
	}
	for (size_t i = np; i > 1; i--) { /* Fisher-Yates */
		size_t j = rng_next(&st) % i, t = planned[i - 1];

		planned[i - 1] = planned[j];
		planned[j] = t;
	}
	for (size_t i = 0; i < np; i++)
		shard[planned[i]] = (int)(i % (size_t)shard_n);
	free(planned);
	return shard;
}

struct boot_plan *matrix_plan(const struct matrix *m, uint64_t seed,
			      int shard_k, int shard_n, size_t *count)
{
	char err[8];
	size_t ncells, total, n = 0;
	struct boot_plan *plan;
	size_t *order;
	int *shard;
	uint64_t st = seed;

	*count = 0;
	if (matrix_check_size(m, err, sizeof(err)))
		return NULL;
	ncells = matrix_ncells(m);
	total = ncells * (size_t)m->reps;
	plan = calloc(total ? total : 1, sizeof(*plan));
	order = malloc((ncells ? ncells : 1) * sizeof(*order));
	shard = matrix_cell_shards(m, shard_n);
	if (!plan || !order || !shard) {
		free(plan);
		free(order);
		free(shard);
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

			if (shard[order[i]] != shard_k - 1)
				continue;
			plan[n].cell = order[i];
			plan[n].rep = rep;
			plan[n].canonical = canon;
			n++;
		}
	}
	free(order);
	free(shard);
	*count = n;
	return plan;
}

/* Does a planned cell boot this machine, accelerator and -cpu? */
int matrix_planned_with(const struct matrix *m, const char *arch,
			const char *accel, const char *cpu)
{
	for (size_t i = 0; i < matrix_ncells(m); i++) {
		struct cell c;

		matrix_cell(m, i, &c);
		if (!strcmp(c.v[AX_arch], arch) &&
		    !strcmp(c.v[AX_accel], accel) &&
		    !strcmp(c.v[AX_cpu], cpu) && matrix_cell_planned(m, &c))
			return 1;
	}
	return 0;
}

/*
 * --print-axis kernels: the kernels the planned cells boot, one line per
 * base, kernel/arches row and HZ with its variants ("6.1 armv5 100
 * stock,block"): what make kernels builds. Only planned cells count, so an
 * exclude line spares a build (m68k at HZ 250 is not a kernel to build).
 */
void matrix_print_kernels(const struct matrix *m, FILE *out)
{
	size_t nh = (size_t)m->nvalues[AX_hz],
	       nv = (size_t)m->nvalues[AX_variant],
	       na = (size_t)m->nvalues[AX_arch];

	for (size_t b = 0; b < (size_t)m->nvalues[AX_base]; b++)
		for (size_t a = 0; a < na; a++)
			for (size_t h = 0; h < nh; h++) {
				const char *row =
					arch_find(m->values[AX_arch][a])
						->kernel_arch;
				int any = 0, seen = 0;

				/* a machine before it has the same kernels */
				for (size_t e = 0; e < a; e++)
					seen |= !strcmp(
						arch_find(m->values[AX_arch][e])
							->kernel_arch,
						row);
				for (size_t v = 0; !seen && v < nv; v++) {
					struct kernel_ref k;
					int used = 0;

					for (size_t e = a; e < na; e++)
						used |= !strcmp(arch_find(
									m->values
										[AX_arch]
										[e])
									->kernel_arch,
								row) &&
							matrix_kernel(
								m,
								((b * na + e) *
									 nv +
								 v) * nh +
									h,
								&k);
					if (!used)
						continue;
					if (!any)
						fprintf(out, "%s %s %s ",
							m->values[AX_base][b],
							row,
							m->values[AX_hz][h]);
					fprintf(out, "%s%s", any ? "," : "",
						m->values[AX_variant][v]);
					any = 1;
				}
				if (any)
					fputc('\n', out);
			}
}
