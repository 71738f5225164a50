/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers every part of the runner uses: a growable string buffer,
 * bounded text, paths that are an error when they do not fit, and the file
 * operations that make results crash-safe (one-write appends, write to a
 * temporary and rename).
 *
 * Error convention (err.h): functions return 0 on success, or -1 with errno
 * set (or a message in an err buffer where they take one). Only main() exits.
 */
#ifndef CRNGBENCH_UTIL_H
#define CRNGBENCH_UTIL_H

#include "err.h"
#include "../../guest-image/record.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

struct strbuf {
	char *p;
	size_t len, cap;
	int oom; /* an allocation failed: the content is incomplete */
};

void sb_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append len bytes (may hold NULs); keeps p NUL-terminated. */
void sb_append(struct strbuf *b, const char *s, size_t len);
void sb_free(struct strbuf *b);

/* Free text (reasons, names) into a fixed buffer: truncation is intended. */
void text_printf(char *dst, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define set_text(dst, ...) text_printf(dst, sizeof(dst), __VA_ARGS__)

/*
 * A number from lo to hi into *out, by the one integer rule of every
 * reader (record.h's crb_parse_i64: digits, an optional '-', nothing
 * else); -1 if s is not one. DIGITS_ONLY says so in an error message.
 */
int parse_int(const char *s, int lo, int hi, int *out);
#define DIGITS_ONLY " (digits only: no sign, space or other character)"
/*
 * "K/N" (--shard, run.args' shard) into *k and *n, each by parse_int's
 * rule; -1 unless 1 <= K <= N <= MAX_SHARDS.
 */
#define MAX_SHARDS 99999
#define SHARD_WORDS "K/N with 1 <= K <= N <= 99999, digits only (e.g. 2/4)"
int shard_parse(const char *s, int *k, int *n);

/* snprintf for paths: -1 with ENAMETOOLONG when it does not fit. */
int path_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int file_exists(const char *path);
/* A regular file, a link to one included (the runner's inputs: kernels). */
int is_regular_file(const char *path);

/*
 * The files of a results directory are opened through the functions below:
 * a results directory may come from elsewhere (a shard, a mailed run), so
 * no symbolic link in it is followed (its last component: ELOOP), and only
 * a regular file is read or written (a FIFO or a device: ENOTREG, found
 * without blocking, the file opened O_NONBLOCK until it is known regular).
 */
#define ENOTREG EMEDIUMTYPE
/* A regular file and no link (lstat). */
int is_run_file(const char *path);
/* 0 if path is a run file, else -1 with errno ENOENT, ELOOP or ENOTREG. */
int check_run_file(const char *path);
/* open(2) of a run file (flags as open's, plus O_CREAT's mode 0644). */
int open_run_file(const char *path, int flags);
/* The same, read-only, as a stream; NULL with errno (ENOENT if none). */
FILE *fopen_run(const char *path);
/*
 * A run's table opened by fopen_run(), checked against bench/ground/runlimits.h
 * before its first row is read: at most MAX_RUN_BYTES bytes, and at most
 * MAX_RUN_BOOTS rows (raw.csv) or MAX_RUN_ROWS (another table) after its
 * header. f is left at its start; -1 with a message naming the file, its
 * size or rows and the limit.
 */
int run_table_limits(FILE *f, const char *path, char *err, size_t errlen);
/* fopen_run() and run_table_limits(); NULL with a message, errno ENOENT
 * when the file is missing (EFBIG: over a limit). */
FILE *fopen_table(const char *path, char *err, size_t errlen);
/*
 * A new file for writing at path: whatever is there (a link, an old
 * temporary file) is unlinked first, then the file is created O_EXCL, so
 * nothing is written through a link planted at the name.
 */
FILE *fopen_new(const char *path);
/* strerror(e), in words for ELOOP, ENOTREG and EFBIG (a read's cap). */
const char *run_strerror(int e);
/*
 * Append buf, then fsync: all of it or none (a partial append is taken
 * back). On failure errno is the kernel's cause: ENOSPC, EFBIG, EIO...
 */
int append_atomic(const char *path, const char *buf, size_t len);
/* Write to path.tmp (created new), fsync, rename over path (a link at
 * path is replaced, not followed); errno as append_atomic's. */
int write_file_atomic(const char *path, const char *buf, size_t len);
/* Drop a torn last line (no newline) left by an interrupted writer. */
int trim_partial(const char *path);
/* What slurp reads at most: the result channel's and console.log's cap. */
#define SLURP_MAX (16u << 20)
#define SLURP_MAX_TEXT "16 MiB"
/*
 * A whole run file into b ("" if missing); -1 with errno on a read error,
 * EFBIG past max bytes. slurp_at reads name under the directory dirfd
 * (AT_FDCWD: a path); slurp's max is SLURP_MAX.
 */
int slurp_at(int dirfd, const char *name, struct strbuf *b, size_t max);
int slurp(const char *path, struct strbuf *b);
/* Copy a regular file (boots/ of a shard merge), up to SLURP_MAX bytes. */
int copy_file(const char *from, const char *to);
/*
 * Remove whatever is at path, following no link: a link or a file is
 * unlinked, a directory emptied (unlinkat, depth at most 8) and removed.
 * 0 if there was nothing.
 */
int remove_path(const char *path);
/* A new empty directory at path, whatever was there before (remove_path). */
int fresh_dir(const char *path);

/* Host CLOCK_MONOTONIC in ns. */
int64_t host_now_ns(void);
/*
 * Text for the terminal from anything that may hold a hostile file's or
 * guest's bytes (error messages, the progress line): control characters
 * (C0, DEL, and C1 as UTF-8) become '?', so no escape sequence reaches the
 * terminal; newlines and tabs stay.
 */
void put_terminal_text(FILE *f, const char *s);
/*
 * The bytes of a control character at p (1 for C0 and DEL, 2 for a C1
 * control in UTF-8), 0 if p starts none: the one definition of what never
 * reaches a terminal or a results file as it is.
 */
int control_len(const char *p);

/* xorshift64*: small, seedable, reproducible across hosts. */
uint64_t rng_next(uint64_t *state);

#endif /* CRNGBENCH_UTIL_H */
