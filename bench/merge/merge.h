/* SPDX-License-Identifier: GPL-2.0 */
/* --merge: the shards of one run as one run (merge.c). */
#ifndef CRNGBENCH_MERGE_H
#define CRNGBENCH_MERGE_H

#include "../matrix/matrix.h"

#include <stddef.h>
#include <stdint.h>

/*
 * The shards dirs of one run into out. Every shard must have the same
 * run.matrix and seed, run.args alike but for the shard, jobs,
 * parallel_jobs and the paths of files whose checksums agree, and
 * meta.json the same QEMU and kernels; together they must hold every
 * planned boot exactly once, and no row of a boot the plan does not have
 * (mergeout.h: what else is read, and how). Nothing is written unless all
 * of that holds; the merged run (its run.args the first shard's as shard
 * 1/1) is built in a temporary directory and renamed. Each shard's .lock
 * is held meanwhile (refused while a runner holds one). want, want_seed:
 * the matrix and seed the shards must have been run with (--merge
 * --matrix FILE --seed N), each NULL when not asked; a shard whose
 * run.matrix or seed differs is refused, naming the shard and the key.
 */
int results_merge(const char *out, char *const *dirs, int ndirs,
		  const struct matrix *want, const uint64_t *want_seed,
		  char *err, size_t errlen);

#endif /* CRNGBENCH_MERGE_H */
