/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Classify one finished boot: turn what the host knows of it (the result
 * channel's bytes, the console log, QEMU's stderr, whether it was killed at
 * the timeout) into a raw.csv row's status, reason and measures. Used when
 * a boot ends and by --rescan, which re-derives a results directory from
 * its boots/ after the parser changed, so both give the same row.
 */
#ifndef CRNGBENCH_CLASSIFY_H
#define CRNGBENCH_CLASSIFY_H

#include "report.h"
#include "row.h"

#include <stddef.h>
#include <stdint.h>

/*
 * QEMU writes the console log itself: a boot whose console.log grows past
 * this is ended (boot/slot.c), the log cut there (corrupt, "console flooded").
 */
#define VM_CONSOLE_MAX (16u << 20)

struct boot_facts {
	const char *dir; /* boots/<id>: console.log, perf.csv */
	const char *chan; /* the result channel's bytes */
	size_t chan_len;
	const char *err; /* QEMU's stderr, "" if none */
	int timed_out; /* killed at the host timeout */
	int timeout_s; /* that timeout */
	int perf; /* perf.csv holds perf stat's numbers */
	int64_t t_first_byte, t_urandom, t_report, t_exit; /* host, -1: none */
	/*
	 * How QEMU ended, when it was not killed at the timeout: its exit
	 * status (-1: unknown, a row from before this was recorded) and the
	 * signal that ended it (0: none).
	 */
	int qemu_exit, qemu_signal;
	int ended_after_report; /* the runner stopped QEMU after the report */
	size_t chan_dropped; /* channel bytes past the kept maximum */
};

/*
 * r comes with its identity and axes set (row_init, then boot_id, axes);
 * classify_boot fills everything else. reads/traces get the boot's detail
 * rows, emptied again when the boot's data cannot be trusted.
 */
void classify_boot(const struct boot_facts *f, struct row *r,
		   struct strbuf *reads, struct strbuf *traces);

/*
 * Why the KVM canary boot made no progress, into buf: QEMU's own error line
 * if it printed one, else how QEMU ended if it ended on its own (exited:
 * status is its wait status), else that the guest printed nothing in
 * canary_s seconds although /dev/kvm passed its checks (device_checked).
 */
void canary_reason(const char *err, int exited, int status, int canary_s,
		   int device_checked, char *buf, size_t len);

/* A boot's file in which the runner notes its own stall (classify_boot). */
#define RUNNER_STALL_FILE "runner-stall"

#endif /* CRNGBENCH_CLASSIFY_H */
