/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs the runner starts (proc.c): an argument vector, the one fork and
 * exec, and a short run whose output is wanted.
 */
#ifndef CRNGBENCH_PROC_H
#define CRNGBENCH_PROC_H

#include <stddef.h>
#include <sys/types.h>

#define ARGV_MAX 96

struct argv_buf {
	char *v[ARGV_MAX];
	int n;
	int overflow; /* an argument did not fit: the argv is unusable */
};

void argv_add(struct argv_buf *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void argv_free(struct argv_buf *a);
/* The command line as one shell-quoted string (for boots/<id>/cmd); -1 if
 * it does not fit in len. */
int argv_join(const struct argv_buf *a, char *buf, size_t len);

/*
 * fork and exec argv with stdin from in_fd, stdout to out_fd, stderr to
 * err_fd (-1: /dev/null), in a process group of its own if pgroup, so a
 * timeout can kill perf and QEMU alike. The child dies with the runner
 * (PR_SET_PDEATHSIG): a killed runner leaves no QEMU behind. The one place
 * the runner starts a program; no shell is involved. Returns the pid, or -1
 * with errno.
 */
pid_t proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
		 int pgroup);
/* Close both ends of a pipe. */
void close_pair(int p[2]);

/*
 * Run argv with stdin text; capture its stdout and stderr (together) in
 * out; kill it after timeout_s. Returns the exit status, or -1 (killed,
 * signalled, or not started: out says which).
 */
int run_quick(char *const argv[], const char *input, int timeout_s, char *out,
	      size_t outlen);

#endif /* CRNGBENCH_PROC_H */
