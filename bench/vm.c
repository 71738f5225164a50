// SPDX-License-Identifier: GPL-2.0
/*
 * One QEMU as a process: its argument vector, its start (no shell, its own
 * process group, dies with the runner), its channels (non-blocking on our
 * side, capped, timestamped as they arrive) and its end in bounded time;
 * and the short runs of a program (run_quick) that ask QEMU what it
 * accepts.
 */
#define _GNU_SOURCE
#include "vm.h"
#include "util.h"
#include "../guest-image/record.h"

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

/*
 * fork and exec argv with stdin from in_fd, stdout to out_fd, stderr to
 * err_fd (-1: /dev/null), in a process group of its own if pgroup, so a
 * timeout can kill perf and QEMU alike. The child dies with the runner
 * (PR_SET_PDEATHSIG): a killed runner leaves no QEMU behind. The one place
 * the runner starts a program; no shell is involved. Returns the pid, or -1
 * with errno.
 */
static pid_t spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
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

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

int vm_spawn(struct vm *vm, const struct argv_buf *a)
{
	int out[2], err[2];

	memset(vm, 0, sizeof(*vm));
	vm->out_fd = vm->err_fd = -1;
	vm->t_first_byte = vm->t_urandom = vm->t_report = vm->t_exit = -1;
	vm->t_report_end = -1;
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close_pair(out);
		return -1;
	}
	/* Only our ends are non-blocking: QEMU's writes must block as usual. */
	if (fcntl(out[0], F_SETFL, O_NONBLOCK) ||
	    fcntl(err[0], F_SETFL, O_NONBLOCK)) {
		close_pair(out);
		close_pair(err);
		return -1;
	}
	vm->t_spawn = host_now_ns();
	vm->pid = spawn(a->v, -1, out[1], err[1], 1);
	if (vm->pid < 0) {
		close_pair(out);
		close_pair(err);
		return -1;
	}
	close(out[1]);
	close(err[1]);
	vm->out_fd = out[0];
	vm->err_fd = err[0];
	return 0;
}

/*
 * Timestamp the moments that matter as their lines complete, recognising
 * them with the record reader (record.h), never by matching text: the first
 * urandom read's record and the report segment's header.
 */
static void scan_lines(struct vm *vm, int64_t now)
{
	while (vm->scanned < vm->chan_len) {
		char *start = vm->chan + vm->scanned, seg[CRB_MAX_KEY], err[8];
		char *nl = memchr(start, '\n', vm->chan_len - vm->scanned);
		size_t len;
		struct crb_record rec;

		if (!nl)
			break;
		len = (size_t)(nl - start);
		vm->scanned += len + 1;
		/* Before the report: a read it carries (early=child) came
		 * back to the host only then. */
		if (vm->t_urandom < 0 && vm->t_report < 0 &&
		    !crb_parse_line(start, len, &rec, err, sizeof(err)) &&
		    rec.type == CRB_read && crb_get(&rec, "iface") &&
		    !strcmp(crb_get(&rec, "iface"), "urandom"))
			vm->t_urandom = now - vm->t_spawn;
		if (vm->t_report < 0 &&
		    !crb_parse_header(start, len, seg, sizeof(seg), err,
				      sizeof(err)) &&
		    !strcmp(seg, "report"))
			vm->t_report = now - vm->t_spawn;
		else if (vm->t_report >= 0 && vm->t_report_end < 0 && len > 4 &&
			 !strncmp(start, "end ", 4))
			vm->t_report_end = now - vm->t_spawn;
	}
}

static void vm_close(struct vm *vm, int fd)
{
	close(fd);
	if (fd == vm->out_fd)
		vm->out_fd = -1;
	else
		vm->err_fd = -1;
}

/* Keep at most VM_CHAN_MAX bytes of the channel; count the rest. */
static void keep_chan(struct vm *vm, const char *buf, size_t n, int64_t now)
{
	if (vm->t_first_byte < 0)
		vm->t_first_byte = now - vm->t_spawn;
	if (vm->chan_len + n > VM_CHAN_MAX) {
		size_t room = VM_CHAN_MAX - vm->chan_len;

		vm->chan_dropped += n - room;
		n = room;
	}
	if (vm->chan_len + n > vm->chan_cap) {
		size_t cap = (vm->chan_cap ? vm->chan_cap * 2 : 65536) + n;
		char *p = realloc(vm->chan, cap);

		if (!p) {
			vm->chan_dropped += n;
			return;
		}
		vm->chan = p;
		vm->chan_cap = cap;
	}
	memcpy(vm->chan + vm->chan_len, buf, n);
	vm->chan_len += n;
	scan_lines(vm, now);
}

void vm_read(struct vm *vm, int fd)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));
	int64_t now = host_now_ns();

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		vm_close(vm, fd);
		return;
	}
	if (fd == vm->err_fd) {
		size_t room = sizeof(vm->err) - 1 - vm->err_len;

		if ((size_t)n > room)
			n = (ssize_t)room;
		memcpy(vm->err + vm->err_len, buf, (size_t)n);
		vm->err_len += (size_t)n;
		vm->err[vm->err_len] = '\0';
		return;
	}
	keep_chan(vm, buf, (size_t)n, now);
}

static void reap(struct vm *vm, int block)
{
	int st;
	pid_t r;

	if (vm->exited || vm->pid <= 0)
		return;
	r = waitpid(vm->pid, &st, block ? 0 : WNOHANG);
	if (r == vm->pid) {
		vm->exited = 1;
		vm->status = st;
		vm->t_exit = host_now_ns() - vm->t_spawn;
	}
}

int vm_done(struct vm *vm)
{
	reap(vm, 0);
	return vm->exited && vm->out_fd < 0 && vm->err_fd < 0;
}

/*
 * End the boot now, in bounded time whatever its processes do: kill the
 * process group, reap QEMU, then take only what is already in the pipes
 * (they are non-blocking) and close them, even if something outside the
 * group (a helper in its own session) still holds the write ends.
 */
void vm_kill(struct vm *vm)
{
	if (vm->pid > 0 && !vm->exited) {
		vm->killed = 1;
		kill(-vm->pid, SIGKILL);
		kill(vm->pid, SIGKILL);
		reap(vm, 1);
	}
	for (int i = 0; i < 64 && (vm->out_fd >= 0 || vm->err_fd >= 0); i++) {
		if (vm->out_fd >= 0)
			vm_read(vm, vm->out_fd);
		if (vm->err_fd >= 0)
			vm_read(vm, vm->err_fd);
	}
	if (vm->out_fd >= 0)
		vm_close(vm, vm->out_fd);
	if (vm->err_fd >= 0)
		vm_close(vm, vm->err_fd);
}

void vm_free(struct vm *vm)
{
	if (vm->out_fd >= 0)
		close(vm->out_fd);
	if (vm->err_fd >= 0)
		close(vm->err_fd);
	vm->out_fd = vm->err_fd = -1;
	free(vm->chan);
	vm->chan = NULL;
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
	pid = spawn(argv, in[0], op[1], op[1], 1);
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
