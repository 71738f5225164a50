// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the runner starts: an argument vector, the one fork and exec
 * (no shell, its own process group, dies with the runner), and the short
 * runs of a program (run_quick) that ask QEMU what it accepts.
 */
#define _GNU_SOURCE
#include "proc.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

void argv_add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (a->n >= ARGV_MAX - 1) {
		a->overflow = 1;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s) {
		a->overflow = 1;
		return;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void argv_free(struct argv_buf *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
	a->v[0] = NULL;
	a->overflow = 0;
}

int argv_join(const struct argv_buf *a, char *buf, size_t len)
{
	static const char plain_chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%";
	struct strbuf b = { 0 };
	int rc = 0;

	for (int i = 0; i < a->n; i++) {
		const char *s = a->v[i];
		int plain = *s && strspn(s, plain_chars) == strlen(s);

		sb_printf(&b, "%s%s", i ? " " : "", plain ? "" : "'");
		for (; *s; s++) {
			if (*s == '\'')
				sb_printf(&b, "'\\''");
			else
				sb_printf(&b, "%c", *s);
		}
		sb_printf(&b, "%s", plain ? "" : "'");
	}
	if (b.oom || b.len >= len)
		rc = -1;
	else
		memcpy(buf, b.p ? b.p : "", b.len + 1);
	sb_free(&b);
	return rc;
}

pid_t proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
		 int pgroup)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (pgroup)
			setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		if (null < 0 || dup2(in_fd >= 0 ? in_fd : null, 0) < 0 ||
		    dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
		    dup2(err_fd >= 0 ? err_fd : null, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		dprintf(2, "cannot execute %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid > 0 && pgroup)
		setpgid(pid, pid); /* also here: no race with a quick kill */
	return pid;
}

void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

int run_quick(char *const argv[], const char *input, int timeout_s, char *out,
	      size_t outlen)
{
	int in[2], op[2], status = 0, killed = 0;
	int64_t deadline;
	size_t off = 0;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(op, O_CLOEXEC)) {
		close_pair(in);
		return -1;
	}
	pid = proc_spawn(argv, in[0], op[1], op[1], 1);
	close(in[0]);
	close(op[1]);
	if (pid < 0) {
		snprintf(out, outlen, "cannot start %s: %s", argv[0],
			 strerror(errno));
		close(in[1]);
		close(op[0]);
		return -1;
	}
	/* EPIPE (SIGPIPE is ignored) means it already exited: read why. */
	if (input && write(in[1], input, strlen(input)) < 0 && errno != EPIPE)
		snprintf(out, outlen, "cannot write to %s: %s", argv[0],
			 strerror(errno));
	close(in[1]);
	deadline = host_now_ns() + (int64_t)timeout_s * 1000000000;
	for (;;) {
		struct pollfd p = { .fd = op[0], .events = POLLIN };
		int64_t left = (deadline - host_now_ns()) / 1000000;
		ssize_t n;

		if (left <= 0) {
			kill(-pid, SIGKILL);
			killed = 1;
			snprintf(out, outlen, "%s did not answer within %d s",
				 argv[0], timeout_s);
			break;
		}
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = read(op[0], out + off, outlen - 1 - off);
		if (n <= 0)
			break;
		off += (size_t)n;
		out[off] = '\0';
		if (off + 1 >= outlen)
			break;
	}
	close(op[0]);
	if (!killed) {
		/* Output closed or full: it has a moment to exit, no more. */
		for (int i = 0; i < 50 && waitpid(pid, &status, WNOHANG) == 0;
		     i++)
			usleep(100000);
		if (waitpid(pid, &status, WNOHANG) == 0) {
			kill(-pid, SIGKILL);
			killed = 1;
		}
	}
	if (killed) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
