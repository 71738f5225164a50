// SPDX-License-Identifier: GPL-2.0
/*
 * crngbench guest probe. One static binary, four roles, a file each (what
 * they share: guest.c, reads.c, emit.c; guest.h):
 *
 *   /init                 PID 1 (this file): timestamp entry, fork the
 *                         CRNG watcher, time the early reads named on the
 *                         kernel command line, then exec systemd, or with
 *                         crngbench_init=probe-only report itself
 *                         (report_probe_only.c).
 *   probe game            the NetHack stand-in (game.c): seed from
 *                         /dev/urandom at once, as a game would, and record
 *                         when it got it.
 *   probe report          the x86 guest's last unit (report_x86.c): collect
 *                         everything and write the report segment to the
 *                         result channel.
 *   (watcher)             a child of PID 1 (this file), blocked in poll()
 *                         on /dev/random until the CRNG is ready.
 *   (early reads)         with crngbench_early=child, a child of PID 1
 *                         (this file) that makes the early reads while PID
 *                         1 execs systemd at once.
 *   (waiters)             with crngbench_waiters=N, N children of PID 1
 *                         (this file), each blocked in getrandom(0) until
 *                         the CRNG is ready.
 *
 * Knobs come from the kernel command line (never files); PID 1 finds them
 * in its environment, where the kernel puts them, the others in /proc/cmdline:
 *   crngbench_out=/dev/ttyS1     result channel (default /dev/ttyS1)
 *   crngbench_reads=a,b,...      early reads, in order (default: none);
 *                                see CRB_READS in record.h for the names
 *   crngbench_bytes=N            bytes per read (default 32)
 *   crngbench_read_timeout=S     give up reading after S seconds, one
 *                                budget for all of a process's reads
 *                                (default 0: never); a timed-out read is
 *                                recorded with timed_out=1
 *   crngbench_ready_timeout=S    the report waits for systemd's boot
 *                                until S seconds from boot (default:
 *                                read_timeout; 0: no limit)
 *   crngbench_seed=HEX           a saved seed for systemd-random-seed, as
 *                                on a machine's second boot (default: none,
 *                                a first boot)
 *   crngbench_early=child        the early reads in a child of PID 1, which
 *                                execs systemd without waiting (default
 *                                pid1: PID 1 reads, then execs); x86 only
 *   crngbench_waiters=N          N more processes (0 to 7, default 0)
 *                                blocked in getrandom(buf, 16, 0) from
 *                                just before the early reads until the
 *                                CRNG is ready: N + 1 concurrent waiters
 *                                with reads=getrandom
 *   crngbench_init=probe-only    no systemd (other architectures): after its
 *                                reads PID 1 does buildroot's seed dance,
 *                                waits for the CRNG until ready_timeout,
 *                                reports and reboots (see probe_only())
 *
 * Records go only to the result channel, in the format of record.h; the
 * console gets failures and the game's one line (PID 1 stays silent: every
 * console line costs it milliseconds under TCG). Any failure is reported
 * there and the guest reboots, which ends QEMU (-no-reboot), so a broken
 * guest never hangs the host.
 */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#define SYSTEMD "/lib/systemd/systemd"

/* --- early reads ----------------------------------------------------------------- */

/*
 * Run read(2)'s generic path (syscall entry, vfs_read, copy_to_user) once
 * on a file before the timed reads. Under TCG, code that runs for the
 * first time is translated first, and without this the first timed read
 * carried ~0.3-0.8 ms of that on this host (0.1 ms with it). A real init
 * has read plenty of files before it asks for randomness; nothing of the
 * RNG is touched here.
 */
static void warm_read_path(void)
{
	char buf[64];
	int fd = open("/crngbench/probe", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return; /* not our image: the first read carries it, as before */
	if (read(fd, buf, sizeof(buf)) < 0)
		say("warning: warm-up read: %s", strerror(errno));
	close(fd);
}

/*
 * The early reads named by crngbench_reads, their records into to: PID 1's
 * probe segment on the result channel, or the child's segment in its file.
 */
static int64_t early_reads(struct crb_writer *to)
{
	char list[sizeof(opt.reads)], *tok, *save = NULL;
	int64_t spent = 0;

	snprintf(list, sizeof(list), "%s", opt.reads);
	if (list[0])
		warm_read_path();
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct read_result r;
		char keys[CRB_MAX_LINE / 2];
		size_t i;

		for (i = 0; i < RD_N && i < crb_nreads; i++)
			if (!strcmp(tok, crb_read_names[i]))
				break;
		if (i == RD_N || i == crb_nreads) {
			errno = EINVAL;
			panic(CRB_SET_READS " names an unknown read");
		}
		crb_emit(to, CRB_reading, "iface=%s start_ns=%" PRId64, tok,
			 boot_ns());
		/*
		 * Out before the read, so a boot that hangs in it says where;
		 * and drained, so the UART's transmit interrupts are not
		 * handled inside the read and counted as its duration.
		 */
		crb_flush(to);
		if (tcdrain(to->fd) && errno != ENOTTY)
			panic("tcdrain result channel");
		r = do_read((enum read_kind)i, opt.bytes);
		spent += r.dur_ns;
		crb_emit(to, CRB_read,
			 "iface=%s start_ns=%" PRId64 " dur_ns=%" PRId64
			 " bytes=%zd errno=%d timed_out=%d%s",
			 tok, r.start_ns, r.dur_ns,
			 r.bytes < 0 ? (ssize_t)0 : r.bytes, r.err, r.timed_out,
			 read_keys(&r, keys, sizeof(keys)));
	}
	return spent;
}

/* --- the CRNG watcher --------------------------------------------------------------- */

/* Child of PID 1: blocks in poll() until /dev/random becomes readable. */
static pid_t start_watcher(void)
{
	pid_t pid = fork();

	if (pid < 0)
		panic("fork watcher");
	if (pid == 0) {
		struct pollfd p = { .events = POLLIN };
		char line[128];

		p.fd = open_dev("/dev/random", O_RDONLY);
		if (p.fd < 0)
			_exit(1);
		/*
		 * already=1: ready before the watcher could look, so t_ns is only
		 * an upper bound and the kernel log's time is the one to use.
		 */
		int already = poll(&p, 1, 0) == 1;

		while (!already && poll(&p, 1, -1) < 0 && errno == EINTR)
			;
		snprintf(line, sizeof(line),
			 "ready src=poll t_ns=%" PRId64 " already=%d\n",
			 boot_ns(), already);
		append_record(WATCH_FILE, line);
		_exit(0);
	}
	return pid;
}

/* --- the early reads in a child (crngbench_early=child) ------------------------------ */

/*
 * PID 1 forks this child and execs systemd at once, so systemd's own wait
 * is measured, not PID 1's. The child makes the same reads with the same
 * records and the same budget (counted from its start, microseconds before
 * its first read) and writes them as a segment of their own ("early") into
 * EARLY_FILE, flushed before each read as PID 1's go to the channel; the
 * reporter waits for it and sends its records in the report segment
 * (report_x86.c). Its first record, meta early_pid, tells the reporter
 * whom to wait for and until when its reads' budget runs (deadline_ns, 0:
 * none). It never touches the result channel (forked before it is
 * opened) or stdin and stdout; stderr stays the console, for a failure's
 * message, as the watcher's does. After PID 1's exec it is systemd's
 * child, which reaps it.
 */
static void start_early_child(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		panic("fork early reads");
	if (pid > 0)
		return;
	close(STDIN_FILENO);
	close(STDOUT_FILENO);
	fd = open(EARLY_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		say("cannot write %s: %s", EARLY_FILE, strerror(errno));
		_exit(1);
	}
	if (opt.read_timeout)
		read_deadline =
			boot_ns() + (int64_t)opt.read_timeout * 1000000000;
	crb_begin(&w, fd, "early");
	crb_emit(&w, CRB_meta, "key=early_pid value=%d deadline_ns=%" PRId64,
		 (int)getpid(), read_deadline);
	early_reads(&w);
	if (crb_end(&w) || close(fd)) {
		say("cannot write %s: %s", EARLY_FILE,
		    strerror(w.error ? w.error : errno));
		_exit(1);
	}
	_exit(0);
}

/* --- the waiters (crngbench_waiters=N) ---------------------------------------------- */

/*
 * Waiter i: one getrandom(buf, CRB_WAITER_BYTES, 0), the standard
 * blocking call, which runs the kernel's jitter dance
 * (try_to_generate_entropy()) in every variant while the CRNG is not
 * ready: each caller arms a timer of its own. When it returns, one waiter record into WAITER_FILE
 * (append_record: one write(), so the records of waiters that end
 * together never interleave), then exit. No budget: a waiter still
 * blocked when the report goes out is one the report does not carry.
 * It never touches the result channel, stdin or stdout; stderr stays the
 * console, as the watcher's does.
 */
static void __attribute__((noreturn)) run_waiter(int i)
{
	char buf[CRB_WAITER_BYTES], line[160];
	int64_t t0, t1;
	ssize_t n;
	int err;

	close(out_fd);
	close(STDIN_FILENO);
	close(STDOUT_FILENO);
	t0 = boot_ns();
	do
		n = getrandom(buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	err = n < 0 ? errno : 0;
	t1 = boot_ns();
	snprintf(line, sizeof(line),
		 "waiter i=%d end_ns=%" PRId64 " dur_ns=%" PRId64
		 " errno=%d bytes=%zd\n",
		 i, t1, t1 - t0, err, n < 0 ? (ssize_t)0 : n);
	append_record(WAITER_FILE, line);
	_exit(0);
}

/*
 * Fork opt.waiters waiters, their pids into pids. After PID 1's exec they
 * are systemd's children, which reaps them; a probe-only PID 1 reaps them
 * once the CRNG is ready (report_probe_only.c).
 */
static int start_waiters(pid_t *pids)
{
	for (int i = 0; i < opt.waiters; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			panic("fork waiter");
		if (pids[i] == 0)
			run_waiter(i);
	}
	return opt.waiters;
}

/* --- saved seed (second-boot condition) ----------------------------------------------- */

static void write_file(const char *path, const void *buf, size_t len,
		       mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd))
		panic(path);
}

/*
 * A machine's later boots have a seed file saved by the previous shutdown and
 * an initialized machine-id (systemd credits no seed on a first boot). The
 * host passes the seed's bytes; the unit's drop-in sets
 * SYSTEMD_RANDOM_SEED_CREDIT=force because tmpfs in 6.1 has no user.* xattr
 * to mark the file creditable.
 */
static void install_saved_seed(void)
{
	unsigned char seed[sizeof(opt.seed) / 2];
	size_t n = 0;

	if (!opt.seed[0] || !strcmp(opt.seed, "none"))
		return;
	for (const char *p = opt.seed; p[0] && p[1] && n < sizeof(seed);
	     p += 2) {
		unsigned int b;

		if (sscanf(p, "%2x", &b) != 1) {
			errno = EINVAL;
			panic("crngbench_seed must be hex");
		}
		seed[n++] = (unsigned char)b;
	}
	mkdir("/var", 0755);
	mkdir("/var/lib", 0755);
	mkdir("/var/lib/systemd", 0755);
	write_file("/var/lib/systemd/random-seed", seed, n, 0600);
	write_file("/etc/machine-id", "c7a1b0c4e0e84a1c9e1f2d3b4a5c6d7e\n", 33,
		   0444);
}

/* --- PID 1 ------------------------------------------------------------------------ */

/*
 * Everything between entry and exec counts as the probe's overhead, less
 * the deliberate reads, so the path is kept short: no mounts, knobs from
 * the environment, no console output, records buffered and flushed only
 * before a read (which may block) and once at the end. Not counted:
 * formatting the probe record itself and its one write(), after texec by
 * necessity.
 */
static int run_init(int argc, char **argv)
{
	int64_t t0 = boot_ns(), m0 = now_ns(CLOCK_MONOTONIC), spent, texec;
	const char *bad = parse_init_env();
	char esc[CRB_MAX_VALUE];

	pid_t watcher, waiters[CRB_MAX_WAITERS];
	int nwaiters;

	(void)argc;
	watcher = start_watcher();
	if (!bad && opt.early_child)
		start_early_child();
	setup_channel(bad);
	nwaiters = start_waiters(waiters);
	crb_begin(&w, out_fd, "probe");
	crb_emit(&w, CRB_meta, "key=reads value=%s",
		 opt.reads[0] ? opt.reads : "none");
	if (opt.early_child)
		crb_emit(&w, CRB_meta, "key=early value=" CRB_EARLY_CHILD);
	if (nwaiters)
		crb_emit(&w, CRB_meta, "key=waiters value=%d", nwaiters);
	spent = opt.early_child ? 0 : early_reads(&w);
	install_saved_seed();
	texec = boot_ns();
	crb_emit(&w, CRB_probe,
		 "start_ns=%" PRId64 " start_mono_ns=%" PRId64
		 " exec_ns=%" PRId64 " reads_ns=%" PRId64
		 " overhead_ns=%" PRId64,
		 t0, m0, texec, spent, texec - t0 - spent);
	if (crb_end(&w))
		panic("write probe segment");
	if (opt.probe_only)
		probe_only(watcher, waiters, nwaiters);
	argv[0] = (char *)SYSTEMD;
	execv(SYSTEMD, argv);
	crb_escape(esc, sizeof(esc), "exec " SYSTEMD);
	panic(esc);
}

int main(int argc, char **argv)
{
	if (getpid() == 1)
		return run_init(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "game"))
		return run_game();
	if (argc == 2 && !strcmp(argv[1], "report"))
		return run_report();
	fprintf(stderr, "usage: %s game|report (as PID 1: the init probe)\n",
		argv[0]);
	return 2;
}
