/* SPDX-License-Identifier: GPL-2.0 */
/* What a matrix may hold, checked before anything runs (matrixcheck.c). */
#ifndef CRNGBENCH_MATRIXCHECK_H
#define CRNGBENCH_MATRIXCHECK_H

#include "matrix.h"

#include <stddef.h>

/* Check every value against what its axis accepts (static rules only),
 * and the size (matrix_check_size, plan.h). */
int matrix_validate(const struct matrix *m, char *err, size_t errlen);

/*
 * A results directory's run.matrix at path (a run from elsewhere: a shard,
 * a colleague's): loaded (matrixfile.c) and held to matrix_validate's
 * rules, as a matrix to plan is. 0, or -1 with a message naming the file
 * and the rule.
 */
int matrix_load_run(const char *path, struct matrix *m, char *err,
		    size_t errlen);

/*
 * May a run of matrix `from` grow into `to`: every axis value of `from`
 * kept, values only added, every other line of run.matrix (name, reps,
 * settings, exclude lines) the same? 1 if `to` adds values, 0 if the two
 * are the same matrix, -1 with a message naming the first difference.
 */
int matrix_grows(const struct matrix *from, const struct matrix *to, char *err,
		 size_t errlen);
/* The values `to` adds to `from`, as "accel=tcg, variant=a,b", into buf. */
void matrix_added(const struct matrix *from, const struct matrix *to, char *buf,
		  size_t len);

/*
 * Every value of m's base axis is a row of kernel/bases (table_path): 0,
 * or -1 with a message naming the value and the known bases.
 */
int bases_check(const struct matrix *m, char *err, size_t errlen);
/* The same against the table at path. */
int bases_check_table(const struct matrix *m, const char *path, char *err,
		      size_t errlen);

/*
 * No planned cell boots a variant of one base only (a line below "[BASE]"
 * in kernel/variants) on another base: 0, or -1 with a message naming the
 * variant, the bases and its line. kernel/variants is the runner's own
 * checkout's (table_path), read by scripts/variants.sh's rules;
 * variants_check_text takes the variants of one base as
 * scripts/variants.sh --one-base lists them, "NAME BASE LINE" lines.
 */
int variants_check(const struct matrix *m, char *err, size_t errlen);
int variants_check_text(const struct matrix *m, const char *listing, char *err,
			size_t errlen);

#endif /* CRNGBENCH_MATRIXCHECK_H */
