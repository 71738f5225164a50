/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler: boots in slots, one QEMU per slot, a poll loop that feeds
 * each boot's channels and ends it at its deadline. The KVM canary is one
 * more boot through the same code.
 */
#ifndef CRNGBENCH_SCHED_H
#define CRNGBENCH_SCHED_H

#include "../matrix/plan.h"

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

struct run; /* matrix/context.h: what a mode works on */

/* Set by the runner's SIGINT/SIGTERM/SIGHUP handler. */
extern volatile sig_atomic_t sched_interrupted;

/* Boot the plan's boots not yet done. 0, 130 if interrupted, -1 on error. */
int sched_run(struct run *r, const struct boot_plan *plan, size_t nplan);
/*
 * Build every boot's QEMU command line, so a limit is an error before the
 * sweep; with out, print the plan and the lines of the boots the sweep
 * would start there (--dry-run: of a resume, r->done_ids loaded, the
 * boots done and those past their cell's stop are left out, and the
 * counts are the sweep's, "N boots (M already done)").
 */
int sched_print_plan(struct run *r, const struct boot_plan *plan, size_t nplan,
		     FILE *out);
/*
 * Before KVM cells: /dev/kvm checks, then a canary boot of the matrix's
 * first KVM cell that must show the probe's first record within
 * r->o.canary_s seconds. Sets r->kvm_ok and r->kvm_why.
 */
int sched_kvm_canary(struct run *r);

#endif /* CRNGBENCH_SCHED_H */
