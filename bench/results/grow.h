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

/*
 * Grow r's run from r->grow_from into r->m: the directory is locked, its
 * tables repaired and its boots loaded (results_load_done); r->done_ids
 * then holds the boots' new ids. 0, or -1 with a message in r->err.
 */
int results_grow(struct run *r);
/* Finish the grow DIR was left in, if any (a locked directory). */
int results_finish_grow(const char *dir, char *err, size_t errlen);

#endif /* CRNGBENCH_GROW_H */
