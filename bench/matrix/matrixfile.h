/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A matrix's text: matrix files, --set lists, and the resolved matrix a
 * run keeps as run.matrix (matrixfile.c).
 */
#ifndef CRNGBENCH_MATRIXFILE_H
#define CRNGBENCH_MATRIXFILE_H

#include "matrix.h"

#include <stddef.h>
#include <stdio.h>

/*
 * Load a matrix file: one assignment per line (matrix_set), each key once
 * (exclude may repeat). Return 0, or -1 with a message naming the file,
 * the line, what was wrong and what is accepted in err.
 */
int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen);

/* n --set assignments in order; like a file's lines, each key once
 * (exclude may repeat). */
int matrix_set_list(struct matrix *m, char *const *sets, int n, char *err,
		    size_t errlen);
/* The resolved matrix as a matrix file that matrix_load reads back
 * identically (run.matrix). 0, or -1 on a write error. */
int matrix_write(const struct matrix *m, FILE *f);

#endif /* CRNGBENCH_MATRIXFILE_H */
