/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run grown: --resume with a matrix that adds axis values to the run's
 * (matrix_grows). Every boot the run holds keeps its row and its files,
 * under its cell's id in the grown matrix (a cell's index follows the
 * cartesian product: an added value renumbers cells). It is a journal,
 * so a runner killed at any point loses nothing measured:
 *
 *	grow.tmp/	run.matrix, run.args, raw.csv, reads.csv, traces.csv
 *			with the ids rewritten, ids ("OLD NEW" per boot), synced
 *	grow/		grow.tmp renamed: the grow is decided
 *	then		boots/ set aside as grow/boots.old/, each boot's
 *			directory moved back under its new id, each file of
 *			grow/ renamed over the run's (run.matrix last), grow/
 *			removed with what is left of boots.old (boots that
 *			never reached raw.csv)
 *
 * Killed before the rename, the run is as it was (the next runner on the
 * directory removes grow.tmp); after it, the next runner finishes the
 * grow before anything else (results_finish_grow).
 */
#ifndef CRNGBENCH_GROW_H
#define CRNGBENCH_GROW_H

#include <stddef.h>

struct run; /* matrix/context.h: what a mode works on */
struct row; /* rows/row.h */

/*
 * Grow r's run from r->grow_from into r->m: the directory is locked, its
 * tables repaired and its boots loaded (results_load_done); r->done_ids
 * then holds the boots' new ids, and r->grow_from is freed and NULL.
 * 0, or -1 with a message in r->err.
 */
int results_grow(struct run *r);
/* Finish the grow DIR was left in, if any (a locked directory). */
int results_finish_grow(const char *dir, char *err, size_t errlen);
/* For a dry run, which changes nothing: 0 if DIR was left in no grow,
 * else -1 with a message saying how to finish it. */
int results_pending_grow(const char *dir, char *err, size_t errlen);
/*
 * raw.csv's rows as r->m has them: while r->grow_from is set (the grow
 * not yet written), each boot under its id and cell in the grown matrix,
 * in memory only. 0, or -1 with a message in r->err.
 */
int results_read_rows(struct run *r, struct row **rows, size_t *n);
/* r->done_ids from raw.csv as results_read_rows has it, writing nothing
 * (a dry run; results_load_done also repairs the tables). */
int results_peek_done(struct run *r);

#endif /* CRNGBENCH_GROW_H */
