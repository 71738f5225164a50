/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One QEMU as a process (vm.c): its start, its channels, its end.
 * The result channel is QEMU's stdout (a second serial port wired to
 * stdio), so the runner sees every byte as it arrives and timestamps it on
 * the host.
 */
#ifndef CRNGBENCH_VM_H
#define CRNGBENCH_VM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../ground/proc.h"

/* At most this much of a result channel is kept; the rest is counted. */
#define VM_CHAN_MAX (16u << 20)

struct vm {
	pid_t pid;
	int out_fd, err_fd; /* result channel, QEMU's stderr; -1 once closed */
	int64_t t_spawn; /* host CLOCK_MONOTONIC ns */
	int64_t t_first_byte, t_urandom, t_report, t_exit;
	int64_t t_report_end; /* the report segment's terminator arrived */
	char *chan;
	size_t chan_len, chan_cap, scanned;
	size_t chan_dropped; /* bytes past VM_CHAN_MAX (a flood) */
	char err[2048];
	size_t err_len;
	int exited, status, killed;
	int ended_after_report; /* killed by the runner after the report */
};

int vm_spawn(struct vm *vm, const struct argv_buf *a);
/* Read what is available on fd (one of vm's) and timestamp it. */
void vm_read(struct vm *vm, int fd);
/* Reap if exited; returns 1 once the VM is gone and its pipes are drained. */
int vm_done(struct vm *vm);
void vm_kill(struct vm *vm);
void vm_free(struct vm *vm);

#endif /* CRNGBENCH_VM_H */
