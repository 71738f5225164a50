/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run context: one invocation of crngbench-run, its options and
 * everything the modes share (the matrix, where kernels, image and results
 * are, what KVM can do, which boots a results directory already holds).
 * main() (run.c) fills it; the other files work on it and report errors in
 * err (ERR, err.h). No file-level globals.
 */
#ifndef CRNGBENCH_CONTEXT_H
#define CRNGBENCH_CONTEXT_H

#include "../ground/err.h"
#include "matrix.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Seconds a KVM canary boot gets to show progress: --kvm-canary's default,
 * and --describe's default_jobs.kvm_canary_s (plots/estimate.py).
 */
#define KVM_CANARY_S 15

/* The longest --commit ID (a git commit, +TREE: 81 characters for SHA-1). */
#define MAX_COMMIT_LEN 160

struct run_opts {
	const char *matrix_file;
	char *sets[MAX_SETS];
	int nsets;
	const char *out;
	const char *kernels;
	const char *image;
	const char *qemu;
	int jobs; /* boots at once whose guest time follows the host (TCG) */
	int par_jobs; /* boots at once whose guest time does not (icount) */
	uint64_t seed;
	int seed_given;
	int resume;
	int shard_k, shard_n;
	int canary_s; /* --kvm-canary: KVM_CANARY_S by default */
	int perf;
	int dry_run;
	int quiet;
	int verbose;
	const char *append;
	const char *commit; /* --commit: the code the run is made from */
	char *qemu_args[MAX_QEMU_ARGS + 1];
	int nqemu_args;
};

/* Options a resumed run takes back from run.args (runargs.c). */
struct run_saved {
	char qemu[PATH_MAX], kernels[PATH_MAX], image[PATH_MAX];
	char append[4096];
	char commit[MAX_COMMIT_LEN + 1];
	char qemu_args[MAX_QEMU_ARGS][512];
	int nqemu_args;
};

struct run {
	struct run_opts o;
	struct matrix m;
	/* --resume growing the run: the matrix it had (m adds values), or
	 * NULL (also once results_grow has rewritten the run into m) */
	struct matrix *grow_from;
	char out_dir[PATH_MAX];
	/* Each base's kernels directory, in the base axis' order (inputs.h). */
	char kernels_dir[MAX_VALUES][PATH_MAX];
	char image_path[PATH_MAX];
	long tsc_khz;
	int kvm_ok;
	char kvm_why[512];
	char kvm_fix[512]; /* what would make KVM usable (kvm_remedy) */
	char **done_ids; /* boots raw.csv already holds */
	size_t ndone;
	int lock_fd; /* flock on the results directory, -1 if none */
	struct run_saved saved;
	char err[2048];
};

#endif /* CRNGBENCH_CONTEXT_H */
