/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiment matrix: its axes and their values, and the settings
 * (matrix.c). Its cells, run order and shards are plan.h's, what it may
 * hold matrixcheck.h's, its files matrixfile.h's.
 *
 * A matrix file (studies/NAME/NAME.matrix, bench/NAME.matrix) has lines
 * "axis = v1,v2,..." and "setting = value" (a time setting may be given
 * per accelerator as "setting.accel = value"), and any number of
 * "exclude = axis=v axis=v" lines; '#' starts a comment. Command-line --set axis=... lines
 * override the file. Read sets are written with ':' between reads
 * (urandom:random), since ',' separates axis values.
 */
#ifndef CRNGBENCH_MATRIX_H
#define CRNGBENCH_MATRIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A run recorded before an axis existed reads as that axis's default (its
 * raw.csv has no column, its run.matrix no line): the default is what it
 * did, so rtc=host (QEMU's own RTC date), early=pid1 (PID 1 read),
 * waiters=0 (no other waiter) and base=6.1, which is also kernel/bases'
 * first row (tests/unit/test_table.c checks they agree). shift=N: a guest
 * CPU of 1 GHz >> N; early=child: PID 1 execs systemd at once while a
 * child reads; waiters=N: N more processes blocked in getrandom(0).
 */
#define AXES(X)                                                         \
	X(variant, "stock") /* kernel variant (kernel/variants) */      \
	X(hz, "250") /* CONFIG_HZ of the build: 100 250 1000 */         \
	X(accel, "tcg") /* tcg kvm */                                   \
	X(cpu, "max") /* -cpu in QEMU's spelling */                     \
	X(trust_cpu, "on") /* random.trust_cpu= on off */               \
	X(virtio_rng, "off") /* virtio-rng device: on off */            \
	X(nocounter, "off") /* random.no_cycle_counter=1: on off */     \
	X(smp, "1") /* vCPUs: 1..8 */                                   \
	X(reads, "urandom") /* probe's early reads, ':'-separated */    \
	X(trace, "on") /* ftrace of the read paths: on off */           \
	X(seed, "none") /* saved seed: none (first boot) saved */       \
	X(timer, "auto") /* tick: lapic pit, auto = the accel's own */  \
	X(arch, "x86_64") /* guest machine: in bench/machines/arch.c */ \
	X(bootseed, "off") /* credit QEMU's boot-loader seed: on off */ \
	X(rtc, "host") /* the RTC's date: host (QEMU's), fixed */       \
	X(base, "6.1") /* kernel base: a row of kernel/bases */         \
	X(shift, "auto") /* icount's shift=N 0..10, auto: icount's */   \
	X(early, "pid1") /* early reads by: pid1 child (probe.c) */     \
	X(waiters, "0") /* more getrandom(0) waiters: 0..7 (probe.c) */

enum axis {
#define AX_ENUM(name, def) AX_##name,
	AXES(AX_ENUM)
#undef AX_ENUM
		AX_N
};

#define MAX_VALUES 16
#define MAX_VALUE_LEN 96
#define MAX_EXCLUDES 48
#define MAX_ACCEL_OVERRIDES 4
/*
 * min_reps by default: two boots from different inputs (RTC second,
 * saved seed) that agree to the nanosecond already show that the outcome
 * does not follow those inputs; more would only repeat one trajectory.
 */
#define MIN_REPS_DEFAULT 2
/* precision by default: the CI's half-width within 5% of the median. */
#define PRECISION_DEFAULT 5
/* Cells x reps a run may plan: MAX_RUN_BOOTS (runlimits.h), the boots a
 * run's raw.csv may hold for its readers. */
/* run.matrix's first line: what marks a directory as a run of the runner. */
#define MATRIX_RESOLVED "# resolved by crngbench-run"

/*
 * The time settings, each with an optional value per accelerator
 * ("read_timeout.icount = 600"): guest seconds are cheap under icount,
 * where an idle guest jumps to its next timer, and dear under TCG and KVM.
 */
#define SETTINGS(X)                                                         \
	X(timeout, 60, 5, 3600) /* host seconds per boot, then killed */    \
	X(read_timeout, 20, 0, 3600) /* guest s: the probe's read budget */ \
	X(ready_timeout, -1, 0, 3600) /* guest s the report waits for the  \
				       * boot (systemd's wait for the CRNG), \
				       * the censor bound of "CRNG ready";  \
				       * -1: read_timeout */

enum setting {
#define SET_ENUM(name, def, lo, hi) SET_##name,
	SETTINGS(SET_ENUM)
#undef SET_ENUM
		SET_N
};

struct matrix {
	char name[64];
	char values[AX_N][MAX_VALUES][MAX_VALUE_LEN];
	int nvalues[AX_N];
	int reps; /* the most boots a cell may take */
	/* The stop rule (stop.h): the fewest boots a cell takes (-1: the
	 * default, MIN_REPS_DEFAULT, or reps if that is less), and the 95% CI
	 * half-width of its CRNG ready median, in percent of the median, at
	 * which a cell is precise enough to stop. */
	int min_reps;
	int precision;
	int setting[SET_N];
	/* Per-accelerator values; -1 where the base value applies. */
	char ovr_accel[MAX_ACCEL_OVERRIDES][16];
	int ovr[MAX_ACCEL_OVERRIDES][SET_N];
	int novr;
	/* QEMU's -icount option for accel=icount (shift=N fixes the clock). */
	char icount[MAX_VALUE_LEN];
	/* Cells left out of the plan: each "axis=value axis=value..." (all
	 * must match), e.g. "accel=tcg nocounter=on". */
	char exclude[MAX_EXCLUDES][4 * MAX_VALUE_LEN];
	int nexclude;
};

struct cell {
	int index;
	const char *v[AX_N];
};

const char *axis_name(enum axis a);
const char *setting_name(enum setting s);
/* A setting's value for cells of this accelerator (NULL: the base). */
int matrix_setting(const struct matrix *m, enum setting s, const char *accel);
/* icount's shift=N (guest ns per instruction is 2^N), or -1 if absent. */
int matrix_icount_shift(const struct matrix *m);
/* A cell's shift: its shift axis's value N, or for "auto" the icount
 * setting's (-1 if that has none). */
int matrix_cell_shift(const struct matrix *m, const char *shift);
/*
 * The -icount option of a boot at this shift: the icount setting with its
 * shift=N replaced, its other flags (sleep=off...) kept. 0, or -1 if it
 * does not fit in len.
 */
int matrix_icount_option(const struct matrix *m, int shift, char *buf,
			 size_t len);
/*
 * "icount shift=0: 1000 MHz, shift=3: 125 MHz": the guest CPU's speed at
 * each shift the matrix's icount cells use ("" without icount cells).
 */
void matrix_shift_speeds(const struct matrix *m, char *buf, size_t len);
int axis_lookup(const char *name);
const char *axis_default(enum axis a);

/* s without leading and trailing white space (in place). */
char *matrix_trim(char *s);
/* Defaults for every axis, reps 3, the settings' defaults above. */
/* min_reps as the stop rule applies it: the setting, or its default
 * capped at reps. */
int matrix_min_reps(const struct matrix *m);
void matrix_init(struct matrix *m);
/*
 * Apply one "axis=v1,v2" or "setting=value" assignment (a matrix file's
 * line or a --set, matrixfile.h). Return 0, or -1 with a message naming
 * what was wrong and what is accepted in err.
 */
int matrix_set(struct matrix *m, const char *assignment, char *err,
	       size_t errlen);
/*
 * The next value of axis a's comma list at *p into [*v, *v + return); *p
 * moves past it. A cpu flag after a comma belongs to the model before it.
 */
size_t matrix_next_value(int a, const char **p, const char **v);

#endif /* CRNGBENCH_MATRIX_H */
