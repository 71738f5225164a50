/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.args: how a run was started, beyond its matrix and seed, with a
 * checksum of each kernel and the image, so that --resume boots as the
 * run began (runargs.c; merge.c compares the shards').
 */
#ifndef CRNGBENCH_RUNARGS_H
#define CRNGBENCH_RUNARGS_H

#include <stddef.h>

struct run; /* matrix/context.h: what a mode works on */
struct matrix;

/*
 * Save how the run was started (as NAME: run.args); on --resume take it
 * back into r->o (options given again must match), then check that the
 * kernels and the image the cells of m boot are the files the run
 * started with (m: r->m, or the matrix a grown run had, whose files
 * run.args holds).
 */
int results_save_args(struct run *r, const char *name);
int results_load_args(struct run *r);
int results_check_files(struct run *r, const struct matrix *m);

#endif /* CRNGBENCH_RUNARGS_H */
