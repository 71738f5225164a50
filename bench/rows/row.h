/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One row of raw.csv: one boot. The column list is defined once, here, and
 * used to write the header, write rows and read them back (summary, resume,
 * shard merge), so the three can never disagree.
 *
 * Guest times are nanoseconds on the guest's CLOCK_BOOTTIME (kernel start is
 * ~0); host_* times are nanoseconds on the host's CLOCK_MONOTONIC from QEMU's
 * spawn. The two are never subtracted from each other. -1 is "not measured".
 */
#ifndef CRNGBENCH_ROW_H
#define CRNGBENCH_ROW_H

#include "../matrix/matrix.h"

#include <stdint.h>
#include <stdio.h>

/* X(name, doc) for the integer measures, in column order. */
#define ROW_METRICS(X)                                                         \
	X(init_ns,                                                             \
	  "guest: kernel start to the probe's first instruction (PID 1)")      \
	X(probe_overhead_ns,                                                   \
	  "guest: PID 1 entry to exec of systemd, minus the reads")            \
	X(crng_ready_poll_ns, "guest: CRNG ready, per the poll() watcher")     \
	X(crng_ready_kmsg_ns,                                                  \
	  "guest: CRNG ready, per the kernel log (boottime)")                  \
	X(crng_ready_censored,                                                 \
	  "1: not ready by the bound in crng_ready_bound_ns")                  \
	X(crng_ready_bound_ns,                                                 \
	  "guest: last time known not ready (censored rows)")                  \
	X(crng_ready_before_init, "1: ready before the probe started")         \
	X(crng_ready_ns,                                                       \
	  "guest: CRNG ready: the kernel log's time, else the watcher's")      \
	X(first_urandom_end_ns,                                                \
	  "guest: first blocking /dev/urandom read returned")                  \
	X(first_urandom_dur_ns, "guest: its duration")                         \
	X(first_urandom_errno, "its errno (EINTR: timed out)")                 \
	X(first_urandom_censored,                                              \
	  "1: it was still waiting at the read timeout")                       \
	X(first_urandom_before_ready,                                          \
	  "1: it returned before the CRNG was ready")                          \
	X(game_seeded_ns, "guest: the game stand-in got its seed")             \
	X(game_dur_ns, "guest: its /dev/urandom read took")                    \
	X(userspace_ns, "guest: systemd's userspace start")                    \
	X(finish_ns, "guest: systemd's boot finished")                         \
	X(report_ns, "guest: the report unit ran")                             \
	X(traced_reads, "count of traced kernel read calls")                   \
	X(host_first_byte_ns, "host: first byte on the result channel")        \
	X(host_urandom_ns, "host: the first urandom read's record arrived")    \
	X(host_report_ns, "host: the report segment began")                    \
	X(host_exit_ns, "host: QEMU exited (or was killed)")                   \
	X(host_task_clock_ns, "host: QEMU task-clock from perf stat (--perf)") \
	X(host_ctx_switches, "host: QEMU context switches from perf stat")     \
	X(qemu_exit, "host: QEMU's exit status (empty: ended by a signal)")    \
	X(qemu_signal, "host: the signal that ended QEMU (empty: it exited)")  \
	X(irq_timer, "guest: IRQ 0 (PIT/HPET tick) count when the report ran") \
	X(irq_local_timer, "guest: LAPIC timer (LOC) count at the report")     \
	X(irq_devices, "guest: all numbered IRQs' count at the report")        \
	X(host_ended,                                                          \
	  "host: 1 when QEMU still ran after the report ended and the runner " \
	  "stopped it (a machine that halts rather than exits)")               \
	X(jitter_per_bit,                                                      \
	  "guest: the first jitter trial's samples per bit (kernel log of "    \
	  "patch 0005; it passes at jitter_max_per_bit or fewer)")             \
	X(jitter_differed,                                                     \
	  "guest: of its 8191 reads of random_get_entropy(), how many "        \
	  "differed from the one before")                                      \
	X(jitter_max_per_bit, "guest: the trial's bound, HZ/15")               \
	X(jitter_run_ns,                                                       \
	  "guest: a trial first passed: the jitter loop started")              \
	X(jitter_skipped,                                                      \
	  "1: random.no_cycle_counter made the trial give up unrun")           \
	X(clocksource_hz,                                                      \
	  "guest: the rate of the clocksource column's clocksource, from its " \
	  "registration line in the kernel log")                               \
	X(mix_n,                                                               \
	  "guest: fast pool mixes into the input pool before the CRNG was "    \
	  "ready (kernel log of patch 0007; empty: none logged)")              \
	X(mix_bits, "guest: the bits those mixes credited")                    \
	X(mix_time_n,                                                          \
	  "guest: of those, the mixes a second since the last one made "       \
	  "(the others: 1024 interrupts)")                                     \
	X(mix_first_ns, "guest: the first mix")                                \
	X(mix_first_by_time,                                                   \
	  "1: the first mix came by the one-second path, 0: by 1024 "          \
	  "interrupts")                                                        \
	X(mix_64_ns,                                                           \
	  "guest: the mixes' credits first reached 64 bits (a quarter of "     \
	  "what readiness takes)")                                             \
	X(mix_128_ns, "guest: ... reached 128 bits")                           \
	X(mix_192_ns, "guest: ... reached 192 bits")                           \
	X(input_rtc_s,                                                         \
	  "input: the host's wall-clock second (Unix time) QEMU started in, "  \
	  "the RTC's date under rtc=host (empty: rtc=fixed, or not recorded)") \
	X(input_seed,                                                          \
	  "input: seed=saved's per-boot seed, its first 15 hex digits as a "   \
	  "number (empty: seed=none, or not recorded)")                        \
	X(waiters_done,                                                        \
	  "guest: of the waiters axis's N waiters, how many had returned "     \
	  "from getrandom(0) with its bytes when the report ran (empty: "      \
	  "waiters=0, or no report)")                                          \
	X(waiters_last_end_ns,                                                 \
	  "guest: the last of those returned (empty: none did)")

struct row {
	char boot_id[32];
	long run_index;
	long cell;
	int rep;
	/*
	 * The axis values: strings that outlive the row, never its own
	 * copies (an axis value is one of a few dozen in a run, and 19
	 * copies of MAX_VALUE_LEN bytes were two thirds of a row: a 100k-boot
	 * raw.csv took 5x its size in memory). row_set_axes() points them
	 * at the cell's matrix, row_parse() at values kept once for the
	 * process (keep.h); row_init() sets them to "".
	 */
	const char *axis[AX_N];
	char status[16]; /* ok censored timeout panic corrupt qemu-failed guest-failed skipped */
	char reason[256];
	char release[96];
	char crng_ready_src[8]; /* kmsg, poll, or "" (not ready) */
#define ROW_FIELD(name, doc) int64_t name;
	ROW_METRICS(ROW_FIELD)
#undef ROW_FIELD
	/* The guest's clocksource at the report: what random_get_entropy()
	 * falls back to where there is no counter. */
	char clocksource[32];
	/* The last column: the first blocking urandom read's digest
	 * (record.h: 16 lowercase hex digits), "" when it has none. */
	char urandom_digest[24];
};

void row_init(struct row *r);
/*
 * The integer columns by index (0 <= i < row_nmetrics()), and their kind:
 * 'g' the guest's (a time, count or flag the guest reported), 'h' the
 * host's (its times vary with load), 'i' a per-boot input the runner
 * chose (input_*). The stop rule (stop.c) compares the 'g' ones.
 */
size_t row_nmetrics(void);
int64_t row_metric(const struct row *r, size_t i);
char row_metric_kind(size_t i);
void row_write_header(FILE *f);
/* One line, CSV-quoted where needed; the caller writes it in one write(). */
int row_format(const struct row *r, char *buf, size_t len);
/* Parse one raw.csv line (no newline) given its header; 0 or -1. */
int row_parse(const char *line, const char *header, struct row *r);
/* The same, with why it is no row in why when it can say (else ""). */
int row_parse_why(const char *line, const char *header, struct row *r,
		  char *why, size_t whylen);

/*
 * Is the boot data: status ok or censored (runlib.MEASURED; summary.c
 * counts the others as failed or skipped)?
 */
int row_measured(const struct row *r);

/* One definition of "CRNG ready": the kernel log's time, else the watcher's. */
void row_derive(struct row *r);

/*
 * The axis values a boot of cell c records: the cell's, the timer as the
 * guest got it (not "auto"; "machine" on the probe-only machines). The row
 * points into c's matrix, which must outlive it.
 */
void row_set_axes(struct row *row, const struct cell *c);

/*
 * The planned cells of shard k of n (1/1: all), in matrix order, as CSV:
 * "cell,reps,<every axis>,timeout,parallel,kvm", a line per cell with
 * boots in the shard; reps: its boots there; the axis values as its boots
 * record them in raw.csv (row_set_axes), so a reader matches them against
 * runs' rows; timeout: the host seconds a boot of it may take (the
 * matrix's timeout for its accelerator); parallel: 1 if its boots run
 * several at once (--parallel-jobs), 0 if at --jobs; kvm: 1 if they need
 * KVM (skipped where it is unusable). 0, or -1 with a message.
 */
int row_print_plan(const struct matrix *m, int shard_k, int shard_n, FILE *out,
		   char *err, size_t errlen);

/*
 * Read every complete row of a raw.csv (a torn last line is not a row).
 * 0 with a malloc'd array, or -1 with a message in err: the file cannot be
 * read (a link, a FIFO, a read error such as memory running out: never
 * taken for its end), a line holds a NUL byte or does not parse (named by
 * its line number; nothing is dropped silently), a row is of no boot of
 * the run's plan (run.matrix beside raw.csv: an id of the runner's form
 * c<cell>-r<rep>, a planned cell, a rep below reps, the cell's axis
 * values), or two rows are of one boot. Every mode that reads raw.csv
 * (summary, resume, rescan, merge) reads it here.
 */
int row_read_file(const char *path, struct row **rows, size_t *n, char *err,
		  size_t errlen);

/* RFC 4180 field splitting: returns the number of fields (<= max). */
int csv_split(char *line, char **fields, int max);
/* Append a CSV-quoted field (with leading comma unless first). */
void csv_field(char *buf, size_t len, size_t *off, const char *v, int first);

#endif /* CRNGBENCH_ROW_H */
