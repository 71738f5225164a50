/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU for one boot: its command line (limits are errors), and what the
 * runner asks of QEMU and the host before the first boot. The process and
 * its channels are vm.h's. What differs per accelerator is in accel.c's
 * table, per machine in arch.c's.
 */
#ifndef CRNGBENCH_QEMU_H
#define CRNGBENCH_QEMU_H

#include "../matrix/matrix.h"
#include "vm.h"

#include <stddef.h>

/* x86's COMMAND_LINE_SIZE: the kernel silently cuts a longer one. */
#define KERNEL_CMDLINE_MAX 2048

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

/*
 * Can /dev/kvm run a VM at all (exists, permission, API version, VM
 * creation)? 0, or -1 with why, and what would fix it in fix
 * (kvm_remedy). The canary boot that tells whether a standard guest makes
 * progress is the scheduler's (sched.h).
 */
int kvm_device_check(char *why, size_t whylen, char *fix, size_t fixlen);

/* Where KVM failed: /dev/kvm's open, its API version, VM creation, or
 * the canary boot (the device fine, the guest silent). */
enum kvm_stage { KVM_OPEN, KVM_API, KVM_CREATE, KVM_CANARY };
/*
 * What would make KVM usable, into buf: for a failure at stage with errno
 * e, on a host CPU with these /proc/cpuinfo flags (vmx, svm, hypervisor:
 * load the module, enable virtualization or nested virtualization), and
 * /dev/kvm's group (permission).
 */
void kvm_remedy(enum kvm_stage stage, int e, const char *flags,
		const char *group, char *buf, size_t len);

#endif /* CRNGBENCH_QEMU_H */
