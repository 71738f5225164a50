/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What --merge takes from each shard besides raw.csv (mergeout.c), read
 * as untrusted input: the detail tables row by row by the runner's rules,
 * each boot's regular files (no link, FIFO or device), and meta.json.
 */
#ifndef CRNGBENCH_MERGEOUT_H
#define CRNGBENCH_MERGEOUT_H

#include "../rows/row.h"
#include "../ground/util.h"

#include <stddef.h>

struct shard {
	const char *dir;
	struct row *rows; /* its raw.csv, read by row_read_file */
	size_t n;
	int lock_fd; /* its .lock, held while it is read */
};

/*
 * dir/name, a regular file and no link, into b; -1 with a message naming
 * it (errno ENOENT if it is missing).
 */
int shard_file(const char *dir, const char *name, struct strbuf *b, char *err,
	       size_t errlen);

/*
 * reads.csv and traces.csv of every shard into tmp: each shard's header
 * the runner's, every line whole with the header's number of fields, and
 * of a boot of that shard's raw.csv; rows copied as they are, never joined.
 */
int merge_tables(const struct shard *s, int n, const char *tmp, char *err,
		 size_t errlen);

/* Each boot's directory boots/<id>: its regular files, no link. */
int merge_boots(const struct shard *s, int n, const char *tmp, char *err,
		size_t errlen);

/*
 * meta.json: every shard's must be the runner's (a JSON object, "tool":
 * "crngbench-run") with the same QEMU, kernels and matrix; what is each
 * machine's own (host, CPUs, jobs, command line...) is kept per shard, as
 * a list in the order of merged_from where the shards differ. shard is
 * 1/1 and boots_planned the whole plan's nplan.
 */
int merge_meta(const struct shard *s, int n, const char *tmp, size_t nplan,
	       char *err, size_t errlen);

#endif /* CRNGBENCH_MERGEOUT_H */
