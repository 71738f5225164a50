/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU for one boot: the command line, the process, its channels. The
 * result channel is QEMU's stdout (a second serial port wired to stdio), so
 * the runner sees every byte as it arrives and timestamps it on the host.
 * What differs per accelerator is in accel.c's table.
 */
#ifndef CRNGBENCH_QEMU_H
#define CRNGBENCH_QEMU_H

#include "matrix.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARGV_MAX 96
/* x86's COMMAND_LINE_SIZE: the kernel silently cuts a longer one. */
#define KERNEL_CMDLINE_MAX 2048

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

struct boot_params {
	const char *qemu; /* qemu-system-x86_64 */
	const char *kernel; /* bzImage */
	const char *image; /* initramfs */
	const char *dtb; /* device tree for -dtb, or NULL */
	const char *console_path; /* console log file (host side) */
	long tsc_khz; /* host TSC rate for accelerators that want the hint */
	int read_timeout_s; /* guest s: the probe's read budget */
	int ready_timeout_s; /* guest s: the report's wait for the boot */
	const char *icount; /* -icount's value where the accel wants it */
	int icount_shift; /* its shift=N */
	const char *seed_hex; /* seed=saved: the saved seed's bytes */
	const char *perf_out; /* non-NULL: wrap QEMU in perf stat -o this */
	const char *append; /* extra kernel command line (--append) */
	char *const *qemu_args; /* extra QEMU arguments, NULL-terminated */
};

/*
 * The whole command line of one boot. Returns 0, or -1 with a message
 * naming the limit (QEMU arguments, kernel command line length).
 */
int qemu_build_argv(const struct cell *c, const struct boot_params *p,
		    struct argv_buf *a, char *err, size_t errlen);

/* At most this much of a result channel is kept; the rest is counted. */
#define VM_CHAN_MAX (16u << 20)
/*
 * QEMU writes the console log itself: a boot whose console.log grows past
 * this is ended, and the log cut there (corrupt, "console flooded").
 */
#define VM_CONSOLE_MAX (16u << 20)

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

/*
 * Host TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW. TCG's RDTSC
 * runs at the host's TSC rate, and a microvm guest has no PIT/HPET to
 * calibrate against, so without this hint its clocksource falls back to
 * jiffies (4 ms resolution). Returns 0 where it cannot be measured.
 */
long host_tsc_khz(void);

/* Does QEMU accept this -cpu spelling under this accelerator, with its
 * options (the matrix's icount setting under icount)? kernel: an image to
 * name with -kernel (some machines want firmware without one), or NULL. */
struct arch;
int qemu_check_cpu(const char *qemu, const struct arch *ar, const char *kernel,
		   const char *accel, const char *cpu, const char *icount,
		   char *err, size_t errlen);
/* QEMU's first --version line (no shell, bounded wait); "" if none. */
void qemu_version(const char *qemu, char *buf, size_t len);

/*
 * Can /dev/kvm run a VM at all (exists, permission, API version, VM
 * creation)? 0, or -1 with why. The canary boot that tells whether a
 * standard guest makes progress is the scheduler's (sched.h).
 */
int kvm_device_check(char *why, size_t whylen);

#endif /* CRNGBENCH_QEMU_H */
