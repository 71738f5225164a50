/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan of a matrix: its cells (the last axis varies fastest), which
 * of them run, the boots of each shard in run order, and the kernels they
 * need (plan.c).
 */
#ifndef CRNGBENCH_PLAN_H
#define CRNGBENCH_PLAN_H

#include "matrix.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

size_t matrix_ncells(const struct matrix *m);
void matrix_cell(const struct matrix *m, size_t index, struct cell *c);

/* Cells that cannot exist are left out of the plan (cpu=host under TCG). */
int matrix_combination_ok(const char *accel, const char *cpu);
/* Is the cell in the plan: a combination that exists, not excluded? */
int matrix_cell_planned(const struct matrix *m, const struct cell *c);

/* One planned boot: a cell and a repetition, with a stable id. */
struct boot_plan {
	size_t cell;
	int rep;
	size_t canonical; /* cell * reps + rep */
};

/* The "c<cell>-r<rep>" id of a planned boot (boots/<id>, raw.csv). */
void boot_id(const struct boot_plan *p, char *buf, size_t len);
/* An id of that form (digits, no sign nor leading zero) into its cell and
 * rep: 0, or -1 if id is not one. */
int boot_id_parse(const char *id, long *cell, long *rep);
/* The index of the cell whose value of each axis a is v[a], or -1 if a
 * value is not on its axis (matrix_cell's inverse). */
long matrix_cell_find(const struct matrix *m, const char *const *v);

/*
 * The 0-based shard of each cell of m among n shards (-1: not planned):
 * a malloc'd array of matrix_ncells(m), NULL out of memory.
 */
int *matrix_cell_shards(const struct matrix *m, int shard_n);

/*
 * The boots of shard k of n (1-based k; n = 1 for everything), in run order:
 * repetition rounds, each a seeded shuffle of the cells, so drift spreads
 * over all cells instead of landing on the last one. Returns a malloc'd
 * array of *count plans (possibly none), or NULL on ENOMEM or when the
 * matrix is above matrix_check_size()'s limit.
 */
struct boot_plan *matrix_plan(const struct matrix *m, uint64_t seed,
			      int shard_k, int shard_n, size_t *count);

/*
 * The kernels a matrix may boot: one per base x arch x variant x hz,
 * whatever the other axes. matrix_kernel() fills k for 0 <= i <
 * matrix_nkernels() and returns 1 if a planned cell boots it, 0 if exclude
 * lines leave it out (then it need not exist).
 */
struct kernel_ref {
	const char *arch, *variant, *hz, *base;
};
size_t matrix_nkernels(const struct matrix *m);
int matrix_kernel(const struct matrix *m, size_t i, struct kernel_ref *k);
/* The kernel a cell boots. */
void cell_kernel(const struct cell *c, struct kernel_ref *k);

/* Cells x reps within MAX_RUN_BOOTS (runlimits.h), or a message naming both numbers. */
int matrix_check_size(const struct matrix *m, char *err, size_t errlen);

/* Does a planned cell boot this machine, accelerator and -cpu? */
int matrix_planned_with(const struct matrix *m, const char *arch,
			const char *accel, const char *cpu);
/*
 * The kernels the planned cells boot, a line per base, kernel/arches row
 * and HZ: "BASE ROW HZ VARIANT,VARIANT" (--print-axis kernels: what make
 * kernels builds). An exclude line spares a build.
 */
void matrix_print_kernels(const struct matrix *m, FILE *out);

#endif /* CRNGBENCH_PLAN_H */
