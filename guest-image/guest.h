/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every role of the probe shares, the header of all its files
 * (probe.c: PID 1 and main(), on top; guest.c: knobs, result channel,
 * failure path; reads.c: timed reads; game.c: the game stand-in; emit.c,
 * report_x86.c, report_probe_only.c: the reporters). One static binary;
 * see probe.c for its roles and knobs.
 */
#ifndef CRNGBENCH_GUEST_H
#define CRNGBENCH_GUEST_H

#include "record.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

extern char **environ;

#define STATE_DIR "/crngbench"
#define WATCH_FILE STATE_DIR "/watch.rec"
#define GAME_FILE STATE_DIR "/game.rec"
/* crngbench_early=child: the early reads' child's segment (probe.c) */
#define EARLY_FILE STATE_DIR "/early.rec"
/* crngbench_waiters=N: a waiter record per waiter that returned (probe.c) */
#define WAITER_FILE STATE_DIR "/waiters.rec"
#define CLOCKSOURCE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

/* The crngbench_* knobs (guest.c), their defaults there. */
extern struct probe_options {
	char out[64];
	char reads[256];
	size_t bytes;
	unsigned int read_timeout;
	int ready_timeout; /* -1: read_timeout */
	char seed[160];
	int probe_only;
	int early_child; /* crngbench_early=child; -1: a bad value */
	int waiters; /* crngbench_waiters=N, 0..CRB_MAX_WAITERS; -1: bad */
} opt;

/* The open segment's writer and the result channel (guest.c). */
extern struct crb_writer w;
extern int out_fd;

/* guest.c */
int64_t now_ns(clockid_t clk);
int64_t boot_ns(void);
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void __attribute__((noreturn)) panic(const char *what);
const char *parse_cmdline(void);
const char *parse_init_env(void);
int open_dev(const char *path, int flags);
void setup_channel(const char *bad);
void append_record(const char *file, const char *line);

/* reads.c: in CRB_READS order (record.h): crb_read_names[kind] is its name. */
enum read_kind {
	RD_URANDOM, /* read(/dev/urandom), blocking */
	RD_URANDOM_NB, /* read(/dev/urandom) with O_NONBLOCK */
	RD_RANDOM, /* read(/dev/random), blocking */
	RD_GETRANDOM, /* getrandom(0) */
	RD_GETRANDOM_NB, /* getrandom(GRND_NONBLOCK) */
	RD_GETRANDOM_INSECURE, /* getrandom(GRND_INSECURE) */
	RD_GETRANDOM_VDSO, /* the vDSO's getrandom, flags 0 (vdso.c) */
};
#define RD_N (RD_GETRANDOM_VDSO + 1)

struct read_result {
	int64_t start_ns, dur_ns;
	ssize_t bytes;
	int err;
	int timed_out;
	char digest[CRB_DIGEST_LEN + 1]; /* of the bytes read; "" if none */
	const char *unavailable; /* no such interface here: what is missing */
	int ready_before, ready_after; /* CRNG ready around it; -1: not asked */
};

extern int64_t read_deadline;
struct read_result do_read(enum read_kind k, size_t len);
/*
 * The read record's optional keys (record.h), each with a leading space:
 * digest=, or status=unavailable and why=; ready_before= and
 * ready_after= where they were looked at. Into buf; returns buf.
 */
const char *read_keys(const struct read_result *r, char *buf, size_t len);

/* game.c */
int run_game(void);

/* emit.c: what both reporters send */
void emit_meta_file(const char *key, const char *path);
void emit_report_event(int64_t started);
void emit_record_file(const char *path);
void emit_interrupts(void);
void emit_kmsg(void);

/* report_x86.c */
int run_report(void);

/* report_probe_only.c */
void __attribute__((noreturn))
probe_only(pid_t watcher, const pid_t *waiters, int nwaiters);

#endif
