/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's one error convention, and the limits that are errors.
 *
 * A function that fails returns -1 with a message naming what was wrong
 * and what is accepted: into an err buffer it is given (err_set), or into
 * the run's (ERR), or with errno set where it takes no buffer. Nothing
 * exits but main() (run.c); nothing carries on with partial results.
 */
#ifndef CRNGBENCH_ERR_H
#define CRNGBENCH_ERR_H

#include <stddef.h>

/* An error message into err; returns -1 for "return err_set(...)". */
int err_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A message into r->err (struct run, context.h); -1: "return ERR(r, ...)". */
#define ERR(r, ...) err_set((r)->err, sizeof((r)->err), __VA_ARGS__)

/* Boots at once (--jobs, --parallel-jobs), --set and --qemu-arg options. */
#define MAX_JOBS 16
#define MAX_SETS 64
#define MAX_QEMU_ARGS 32

#endif /* CRNGBENCH_ERR_H */
