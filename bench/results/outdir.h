/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What --out may be: a new or empty directory, or with --resume a run the
 * runner started; locked against a second runner (outdir.c).
 */
#ifndef CRNGBENCH_OUTDIR_H
#define CRNGBENCH_OUTDIR_H

#include <stddef.h>

struct run; /* matrix/context.h: what a mode works on */

/*
 * Create (or, with --resume, reopen) r->out_dir: writable, locked against a
 * second runner, holding no other run unless resuming. An existing
 * directory must be empty or a run (results_is_run); anything else is
 * refused before a file is written there. A dry run (--dry-run
 * --resume) only looks: no directory or .lock written, and a grow left
 * unfinished is refused (results_pending_grow), not finished.
 */
int results_open(struct run *r);
/*
 * The lock a runner holds on its results directory (dir/.lock, flock),
 * taken by the modes that read or rewrite a run (mode: "--summarize",
 * "--rescan", "--merge") so they never race a live run; refused, naming
 * the lock and its holder's pid, while another process holds it. 0 with
 * *fd open (closed at exit), or -1 with a message.
 */
int results_lock_dir(const char *dir, const char *mode, int *fd, char *err,
		     size_t errlen);
/* Is dir a run of the runner: its run.matrix, starting MATRIX_RESOLVED? */
int results_is_run(const char *dir);

#endif /* CRNGBENCH_OUTDIR_H */
