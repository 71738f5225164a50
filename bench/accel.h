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
	int host_tsc_hint; /* pass the host's measured TSC rate to the guest */
	int needs_kvm; /* /dev/kvm checks and a canary boot before the sweep */
};

/* The row for a matrix value, or NULL. */
const struct accel *accel_find(const char *name);
/* "tcg, kvm, icount": the accepted values, for messages. */
const char *accel_list(void);

#endif /* CRNGBENCH_ACCEL_H */
