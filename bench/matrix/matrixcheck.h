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
 * Every value of m's base axis is a row of kernel/bases (table_path): 0,
 * or -1 with a message naming the value and the known bases.
 */
int bases_check(const struct matrix *m, char *err, size_t errlen);
/* The same against the table at path. */
int bases_check_table(const struct matrix *m, const char *path, char *err,
		      size_t errlen);

#endif /* CRNGBENCH_MATRIXCHECK_H */
