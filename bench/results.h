/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results directory: the on-disk contract of a run.
 *
 *	run.matrix seed meta.json	what ran, resolved (resume and merge reuse it)
 *	raw.csv				one row per finished boot: the commit record
 *	reads.csv traces.csv		detail rows, written before their raw.csv row
 *	summary.csv			statistics per cell and measure (summary.c)
 *	boots/<id>/			cmd, console.log, result.log, qemu-stderr.log
 *	.lock				flock: one runner per directory
 *
 * A boot's files are written before its row; the row is appended with one
 * write() and fsync'd, so a crash leaves either the whole boot or none.
 */
#ifndef CRNGBENCH_RESULTS_H
#define CRNGBENCH_RESULTS_H

#include "row.h"
#include "context.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* OUT/<name>, the results directory's file name; -1 if too long. */
int results_path(const struct run *r, const char *name, char *buf, size_t len);

/*
 * KERNELS/<variant>-hz<hz>[-<kernel arch>]/<file>: the one place that path
 * is spelled (arch_kernel_dir()). file NULL: the arch's kernel image.
 */
int kernel_file(const char *kernels_dir, const char *arch, const char *variant,
		const char *hz, const char *file, char *buf, size_t len);
/*
 * The initramfs for an arch: --image on x86_64 (the systemd guest), else
 * the probe-only image beside it, probe-<kernel arch>.cpio.
 */
int guest_image(const struct run *r, const char *arch, char *buf, size_t len);

/*
 * Create (or, with --resume, reopen) r->out_dir: writable, locked against a
 * second runner, holding no other run unless resuming. An existing
 * directory must be empty or a run (results_is_run); anything else is
 * refused before a file is written there.
 */
int results_open(struct run *r);
/* Is dir a run of the runner: its run.matrix, starting MATRIX_RESOLVED? */
int results_is_run(const char *dir);
/* A new run: seed, run.matrix, boots/, and the tables' headers (synced). */
int results_start(struct run *r);
/* Which boots raw.csv holds; detail rows of other boots are dropped. */
int results_load_done(struct run *r);
int results_is_done(const struct run *r, const char *id);
int results_write_meta(struct run *r, int argc, char **argv, size_t nplan);
/* A whole file NAME in the results directory, replaced atomically. */
int results_write_out(struct run *r, const char *name, const char *buf,
		      size_t len);
/* Append a finished boot's detail rows, then its raw.csv row. */
int results_commit(struct run *r, const struct row *row,
		   const struct strbuf *reads, const struct strbuf *traces);

/*
 * run.args (runargs.c): save how the run was started; on --resume take
 * it back into r->o (options given again must match), then check that the
 * kernels and the image are the files the run started with.
 */
int results_save_args(struct run *r);
int results_load_args(struct run *r);
int results_check_files(struct run *r);

/* DIR/seed, strictly parsed. */
int results_read_seed(const char *dir, uint64_t *seed, char *err,
		      size_t errlen);
/* DIR/run.matrix into m. */
int results_read_matrix(const char *dir, struct matrix *m, char *err,
			size_t errlen);

/* s as a JSON string literal. */
void json_str(struct strbuf *b, const char *s);

/* --rescan: re-derive raw, reads and traces of r->out_dir from boots/. */
int results_rescan(struct run *r);

/*
 * --merge: the shards of one run into out. Every shard must have the same
 * run.matrix and seed, and run.args alike but for the shard, parallel_jobs
 * and the paths of files whose checksums agree; together they must hold
 * every planned boot exactly once, and no row of a boot the plan does not
 * have. Nothing is written unless all of that holds; the merged run (its
 * run.args the first shard's as shard 1/1) is built in a temporary
 * directory and renamed.
 */
int results_merge(const char *out, char *const *dirs, int ndirs, char *err,
		  size_t errlen);

#endif /* CRNGBENCH_RESULTS_H */
