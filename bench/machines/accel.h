/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs per accelerator, in one table: adding an accelerator (or,
 * later, an architecture) is adding a row here, not an if in every place
 * that builds a command line.
 */
#ifndef CRNGBENCH_ACCEL_H
#define CRNGBENCH_ACCEL_H

struct accel {
	const char *name; /* the matrix's accel value */
	const char *qemu_accel; /* QEMU's -accel */
	const char *qemu_args[3]; /* more QEMU arguments, NULL-terminated */
	const char *cmdline; /* more kernel command line, or NULL */
	/*
	 * Instruction time: QEMU gets -icount with the matrix's icount
	 * setting, and the guest the TSC rate that its shift implies.
	 */
	int icount;
	int host_tsc_hint; /* pass the host's measured TSC rate to the guest */
	int needs_kvm; /* /dev/kvm checks and a canary boot before the sweep */
	const char *timer; /* the guest's tick for timer=auto: lapic or pit */
	/*
	 * Guest time does not depend on the host's load: boots may run in
	 * parallel (--parallel-jobs) without distorting what they measure.
	 */
	int parallel_safe;
};

/* The row for a matrix value, or NULL. */
const struct accel *accel_find(const char *name);
/* "tcg, kvm, icount": the accepted values, for messages. */
const char *accel_list(void);
/* The tick a cell's guest gets: timer, or the accelerator's for "auto". */
const char *accel_timer(const char *accel, const char *timer);
/* Does this accelerator's guest time stay free of host load? */
int accel_parallel_safe(const char *accel);

#endif /* CRNGBENCH_ACCEL_H */
