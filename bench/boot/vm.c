// SPDX-License-Identifier: GPL-2.0
/*
 * One QEMU as a process: its argument vector, its start (no shell, its own
 * process group, dies with the runner), its channels (non-blocking on our
 * side, capped, timestamped as they arrive) and its end in bounded time.
 * Started by proc_spawn (ground/proc.c).
 */
#define _GNU_SOURCE
#include "vm.h"
#include "../ground/proc.h"
#include "../ground/util.h"
#include "../../guest-image/record.h"

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
	vm->pid = proc_spawn(a->v, -1, out[1], err[1], 1);
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
