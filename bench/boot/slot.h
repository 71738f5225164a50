/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One boot in a slot of the sweep: its command line, its start, its
 * channels fed by the poll loop, its end (QEMU exited, report done,
 * console flooded, deadline) and its row. The sweep (sched.c) decides
 * what starts when; the dry run and the KVM canary use the same parts.
 */
#ifndef CRNGBENCH_SLOT_H
#define CRNGBENCH_SLOT_H

#include "../matrix/plan.h"
#include "../rows/row.h"
#include "vm.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct run; /* matrix/context.h: what a mode works on */

struct slot {
	int busy;
	size_t plan_i;
	struct cell cell;
	struct vm vm;
	int64_t deadline;
	char dir[PATH_MAX];
	char console[PATH_MAX]; /* dir/console.log, which QEMU writes */
	char seed_hex[80];
	/* what the boot got that may differ between boots (raw.csv input_*) */
	int64_t input_rtc_s, input_seed;
	/* the runner did not run for stall_ns, from stall_from after spawn */
	int64_t stall_from, stall_ns;
};

/* A saved seed for seed=saved cells: fresh random bytes per boot. */
int make_seed(struct slot *s, int dry_run);
/* The QEMU command line of the boot in s (cell and dir set). */
int boot_argv(struct run *r, struct slot *s, struct argv_buf *a);
/* Create boots/<id>, write its cmd, start QEMU. */
int start_boot(struct run *r, struct slot *s, const struct boot_plan *plan,
	       size_t i);
/* A row's identity and axes, before it is classified (or skipped). */
void fill_row_axes(struct row *row, const struct boot_plan *p,
		   const struct cell *c, long run_index);
/* Keep the boot's files, classify it, commit its row (a copy into done,
 * if not NULL); frees the slot. */
int finish_boot(struct run *r, struct slot *s, const struct boot_plan *plan,
		long run_index, int timed_out, struct row *done);
/* Wait up to timeout_ms for output of any busy slot and read it. */
void pump(struct slot *slots, int n, int timeout_ms);
/* Has the boot in s ended? Kills it at its deadline (timed_out = 1). */
int boot_ended(struct slot *s, int *timed_out);
/* End the processes QEMUs left behind, but the busy slots'; warn. */
void end_leftovers(const struct run *r, const struct slot *slots, int n,
		   const char *after);
/* End every busy slot's boot without a row, and any leftovers. */
void kill_all(const struct run *r, struct slot *slots, int n);

#endif /* CRNGBENCH_SLOT_H */
