/* SPDX-License-Identifier: GPL-2.0 */
/* What a matrix may hold, checked before anything runs (matrixcheck.c). */
#ifndef CRNGBENCH_MATRIXCHECK_H
#define CRNGBENCH_MATRIXCHECK_H

#include "matrix.h"

#include <stddef.h>

/* Check every value against what its axis accepts (static rules only),
 * and the size (matrix_check_size, plan.h). */
int matrix_validate(const struct matrix *m, char *err, size_t errlen);

#endif /* CRNGBENCH_MATRIXCHECK_H */
