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

#include "../rows/row.h"
#include "../ground/util.h"

#include <stddef.h>
#include <stdint.h>

struct run; /* matrix/context.h: what a mode works on */
struct matrix;

/* OUT/<name>, the results directory's file name; -1 if too long. */
int results_path(const struct run *r, const char *name, char *buf, size_t len);

/* A new run: seed, run.matrix, boots/, and the tables' headers (synced). */
int results_start(struct run *r);
/* Which boots raw.csv holds; detail rows of other boots are dropped. */
int results_load_done(struct run *r);
int results_is_done(const struct run *r, const char *id);
int results_write_meta(struct run *r, int argc, char **argv, size_t nplan);
/* The resolved matrix as NAME (run.matrix), so --resume and shard merges
 * run exactly this. */
int results_save_matrix(struct run *r, const char *name);
/* A whole file NAME in the results directory, replaced atomically. */
int results_write_out(struct run *r, const char *name, const char *buf,
		      size_t len);
/* Append a finished boot's detail rows, then its raw.csv row. */
int results_commit(struct run *r, const struct row *row,
		   const struct strbuf *reads, const struct strbuf *traces);

/* DIR/seed, strictly parsed. */
int results_read_seed(const char *dir, uint64_t *seed, char *err,
		      size_t errlen);
/* DIR/run.matrix into m. */
int results_read_matrix(const char *dir, struct matrix *m, char *err,
			size_t errlen);

/* s as a JSON string literal. */
void json_str(struct strbuf *b, const char *s);

#endif /* CRNGBENCH_RESULTS_H */
