/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a sweep tells its user while it runs and when it ends: per
 * accelerator, the boots to run, run and skipped and the host time they
 * took (host_time.csv), and the progress line with the running cell and an
 * ETA. icount boots (several at once, a few host seconds each) and TCG
 * boots (one at a time, ten times longer) differ too much for one average,
 * so the ETA adds up each accelerator's own.
 */
#ifndef CRNGBENCH_PROGRESS_H
#define CRNGBENCH_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct run; /* matrix/context.h: what a mode works on */

struct acc_span {
	const char *accel;
	int64_t first, last; /* host ns: its first boot's start, last end */
	size_t boots, skipped; /* finished (rows), skipped (KVM unusable) */
	size_t todo; /* boots of it this invocation will run, not skip */
	int64_t boot_ns; /* host time of its finished boots, summed */
	int at_once; /* how many of its boots may run at once */
};

#define MAX_SPANS 8

struct spans {
	struct acc_span span[MAX_SPANS];
	int n;
};

/* The accelerator's span, added if new; NULL when MAX_SPANS are taken. */
struct acc_span *span_of(struct spans *s, const char *accel);

/*
 * Seconds until the boots still to run are done: for each accelerator, its
 * boots left times its mean boot, over how many run at once. An
 * accelerator with boots left and none finished yet cannot be estimated:
 * *unknown names it (NULL if none), and the sum leaves it out.
 */
double progress_eta(const struct spans *s, const char **unknown);

/*
 * The progress line (no "\r", no newline): boots done of todo, the cell
 * running (cell, and how many more run beside it), elapsed and the ETA:
 * "eta 271s", or "eta >95s (tcg unknown)", or "eta unknown".
 */
void progress_format(char *buf, size_t len, size_t done, size_t todo,
		     const char *cell, int more, double elapsed, double eta,
		     const char *unknown);

/* Whether the progress line is one line rewritten in place ("\r"):
 * stderr is a terminal; else each update is a line of its own. */
int progress_in_place(void);

/* "[bench] host time by accelerator: ..." on stderr, and host_time.csv. */
int spans_report(struct run *r, const struct spans *s);

#endif /* CRNGBENCH_PROGRESS_H */
