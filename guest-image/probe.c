// SPDX-License-Identifier: GPL-2.0
/*
 * crngbench guest probe. One static binary, four roles:
 *
 *   /init                 PID 1: timestamp entry, fork the CRNG watcher,
 *                         time the early reads named on the kernel command
 *                         line, then exec systemd.
 *   probe game            the NetHack stand-in: seed from /dev/urandom at
 *                         once, as a game would, and record when it got it.
 *   probe report          the last unit: collect everything and write the
 *                         report segment to the result channel.
 *   (watcher)             a child of PID 1, blocked in poll() on
 *                         /dev/random until the CRNG is ready.
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
#include "analyze.h"
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define STATE_DIR "/crngbench"
#define WATCH_FILE STATE_DIR "/watch.rec"
#define GAME_FILE STATE_DIR "/game.rec"
#define TRACEFS "/sys/kernel/tracing"
#define SYSTEMD "/lib/systemd/systemd"
#define CLOCKSOURCE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

static struct {
	char out[64];
	char reads[256];
	size_t bytes;
	unsigned int read_timeout;
	int ready_timeout; /* -1: read_timeout */
	char seed[160];
	int probe_only;
} opt = { .out = "/dev/ttyS1", .bytes = 32, .ready_timeout = -1 };

static struct crb_writer w;
static int out_fd = -1;

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t boot_ns(void)
{
	return now_ns(CLOCK_BOOTTIME);
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("crngbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * The one failure path: say what failed on the console and, if the result
 * channel is open, as a fail record in its own segment; then end the VM.
 */
static void __attribute__((noreturn)) panic(const char *what)
{
	int e = errno;
	char esc[256];

	say("FAILED: %s: %s", what, strerror(e));
	if (out_fd >= 0) {
		static struct crb_writer f; /* 4 KiB: not on a small stack */

		crb_flush(&w); /* what the open segment has: where it stopped */
		crb_begin(&f, out_fd, "fail");
		crb_emit(&f, CRB_fail, "what=%s errno=%d",
			 crb_escape(esc, sizeof(esc), what), e);
		crb_end(&f);
		tcdrain(out_fd);
	}
	if (getpid() == 1) {
		sync();
		reboot(RB_AUTOBOOT); /* -no-reboot turns this into QEMU exiting */
	}
	exit(1);
}

/* --- command line ------------------------------------------------------------ */

/* The value of "name=value" in tok, or NULL if tok sets something else. */
static const char *setting(const char *tok, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(tok, name, n) && tok[n] == '=' ? tok + n + 1 : NULL;
}

/* One crngbench_* token; anything else is not ours. Returns 1 if it was. */
static int parse_token(const char *tok)
{
	const char *v;

	if ((v = setting(tok, CRB_SET_OUT)))
		snprintf(opt.out, sizeof(opt.out), "%s", v);
	else if ((v = setting(tok, CRB_SET_READS)))
		snprintf(opt.reads, sizeof(opt.reads), "%s", v);
	else if ((v = setting(tok, CRB_SET_BYTES)))
		opt.bytes = strtoul(v, NULL, 10);
	else if ((v = setting(tok, CRB_SET_READ_TIMEOUT)))
		opt.read_timeout = (unsigned int)strtoul(v, NULL, 10);
	else if ((v = setting(tok, CRB_SET_READY_TIMEOUT)))
		opt.ready_timeout = (int)strtoul(v, NULL, 10);
	else if ((v = setting(tok, CRB_SET_SEED)))
		snprintf(opt.seed, sizeof(opt.seed), "%s", v);
	else if ((v = setting(tok, CRB_SET_INIT)))
		opt.probe_only = !strcmp(v, CRB_INIT_PROBE_ONLY) ? 1 :
				 !strcmp(v, "systemd")		 ? 0 :
								   -1;
	else
		return 0;
	return 1;
}

/* NULL, or what is wrong with the values parsed. */
static const char *check_options(void)
{
	if (opt.bytes == 0 || opt.bytes > 4096)
		return CRB_SET_BYTES " must be 1..4096";
	if (opt.probe_only < 0)
		return CRB_SET_INIT " must be systemd or " CRB_INIT_PROBE_ONLY;
	return NULL;
}

/*
 * The knobs from /proc/cmdline. Returns NULL, or what is wrong with a
 * crngbench_* value: the caller opens the result channel first (its path is
 * on the same command line), so the complaint reaches the host as a fail
 * record.
 */
static const char *parse_cmdline(void)
{
	char buf[4096], *tok, *save = NULL;
	ssize_t n;
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		panic("open /proc/cmdline");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		panic("read /proc/cmdline");
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		parse_token(tok);
	return check_options();
}

/*
 * PID 1's knobs come from its environment: the kernel passes init every
 * undotted name=value word it does not know itself, which spares PID 1
 * mounting /proc and parsing /proc/cmdline, milliseconds under TCG. (This
 * is why the knobs are crngbench_*, not crngbench.*: the kernel keeps dotted
 * words for modules.) Ours are removed before systemd inherits the rest.
 */
static const char *parse_init_env(void)
{
	char **in = environ, **out = environ;

	for (; *in; in++)
		if (!parse_token(*in))
			*out++ = *in;
	*out = NULL;
	return check_options();
}

/* --- devices and channel ---------------------------------------------------------- */

/*
 * The image carries the device nodes PID 1 needs (build-image.sh), so it
 * mounts nothing; systemd mounts devtmpfs over /dev later. For any other
 * path (crngbench_out= elsewhere) mount devtmpfs once and retry.
 */
static int open_dev(const char *path, int flags)
{
	static int mounted;
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && !mounted) {
		mounted = 1;
		if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL) &&
		    errno != EBUSY)
			panic("mount /dev");
		fd = open(path, flags | O_CLOEXEC);
	}
	return fd;
}

/*
 * A virtio console's port (hvc0) appears when the driver has handled the
 * device's control message, from a workqueue that can run after PID 1
 * starts (seen on ARM virt and m68k virt): wait for the node, 5 s of guest
 * time at most. The wait spins (yielding to that workqueue) rather than
 * sleeps: under icount with sleep=off a sleeping guest's clock jumps to
 * the next timer at once, so 5 s of sleeps pass in microseconds of host
 * time, before QEMU has answered the control message (m68k virt never
 * saw its port); spinning costs instructions, which take host time. A
 * serial port exists before init, so this costs x86 nothing.
 */
#define CHANNEL_WAIT_NS 5000000000LL

static int open_channel(const char *path)
{
	struct termios t;
	int fd = open_dev(path, O_WRONLY | O_NOCTTY);
	int64_t t0 = now_ns(CLOCK_MONOTONIC);

	while (fd < 0 && errno == ENOENT && t0 >= 0 &&
	       now_ns(CLOCK_MONOTONIC) - t0 < CHANNEL_WAIT_NS) {
		sched_yield();
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	}
	if (fd < 0)
		return -1;
	/* Raw, so the tty layer adds no \r and the CRC covers what arrives. */
	if (isatty(fd) && tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		if (tcsetattr(fd, TCSANOW, &t))
			say("warning: cannot set %s raw: %s", path,
			    strerror(errno));
	}
	return fd;
}

/* Open the result channel, then fail on a bad crngbench_* value. */
static void setup_channel(const char *bad)
{
	out_fd = open_channel(opt.out);
	if (out_fd < 0)
		panic(opt.out);
	if (bad) {
		errno = EINVAL;
		panic(bad);
	}
}

/* --- read tracing ---------------------------------------------------------------- */

/*
 * Read tracing is set up by the kernel command line (ftrace=function_graph
 * ftrace_filter=... trace_clock=boot, see bench/), so enabling it costs PID 1
 * nothing and its overhead shows up where it is paid, in kernel boot time.
 * The funcgraph-* options only change how the buffer is printed, so the
 * reporter sets them just before reading it.
 */
static int tracefs_write(const char *file, const char *val)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* --- timed reads ----------------------------------------------------------------- */

/* In CRB_READS order (record.h): crb_read_names[kind] is its name. */
enum read_kind {
	RD_URANDOM, /* read(/dev/urandom), blocking */
	RD_URANDOM_NB, /* read(/dev/urandom) with O_NONBLOCK */
	RD_RANDOM, /* read(/dev/random), blocking */
	RD_GETRANDOM, /* getrandom(0) */
	RD_GETRANDOM_NB, /* getrandom(GRND_NONBLOCK) */
	RD_GETRANDOM_INSECURE, /* getrandom(GRND_INSECURE) */
};
#define RD_N (RD_GETRANDOM_INSECURE + 1)

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/*
 * The read timeout is one budget for all of a process's reads, counted from
 * its first read: a kernel that blocks makes every later blocking read
 * block too, and a boot should cost read_timeout, not read_timeout per read.
 */
static int64_t read_deadline;

/* Arm a one-shot timer whose signal interrupts a blocked read (no SA_RESTART). */
static void arm_timeout(unsigned int seconds)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { 0 };
	int64_t left;

	timed_out = 0;
	if (!seconds)
		return;
	if (!read_deadline)
		read_deadline = boot_ns() + (int64_t)seconds * 1000000000;
	left = read_deadline - boot_ns();
	if (left < 1000000)
		left = 1000000; /* spent: a blocking read is cut off at once */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		panic("sigaction");
	it.it_value.tv_sec = left / 1000000000;
	it.it_value.tv_usec = (left % 1000000000) / 1000;
	if (setitimer(ITIMER_REAL, &it, NULL))
		panic("setitimer");
}

static void disarm_timeout(void)
{
	struct itimerval it = { 0 };

	setitimer(ITIMER_REAL, &it, NULL);
}

struct read_result {
	int64_t start_ns, dur_ns;
	ssize_t bytes;
	int err;
	int timed_out;
};

static struct read_result do_read(enum read_kind k, size_t len)
{
	unsigned char buf[4096];
	struct read_result r = { 0 };
	const char *dev = k == RD_RANDOM ? "/dev/random" : "/dev/urandom";
	int fd = -1;

	/* Open outside the timed region: opening is not what is measured. */
	if (k == RD_URANDOM || k == RD_URANDOM_NB || k == RD_RANDOM) {
		fd = open_dev(dev,
			      O_RDONLY | (k == RD_URANDOM_NB ? O_NONBLOCK : 0));
		if (fd < 0)
			panic(dev);
	}
	arm_timeout(opt.read_timeout);
	r.start_ns = boot_ns();
	switch (k) {
	case RD_URANDOM:
	case RD_URANDOM_NB:
	case RD_RANDOM:
		r.bytes = read(fd, buf, len);
		break;
	case RD_GETRANDOM:
		r.bytes = getrandom(buf, len, 0);
		break;
	case RD_GETRANDOM_NB:
		r.bytes = getrandom(buf, len, GRND_NONBLOCK);
		break;
	case RD_GETRANDOM_INSECURE:
		r.bytes = getrandom(buf, len, GRND_INSECURE);
		break;
	}
	r.err = r.bytes < 0 ? errno : 0;
	r.dur_ns = boot_ns() - r.start_ns;
	disarm_timeout();
	r.timed_out = timed_out;
	if (fd >= 0)
		close(fd);
	return r;
}

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

static int64_t early_reads(void)
{
	char list[sizeof(opt.reads)], *tok, *save = NULL;
	int64_t spent = 0;

	snprintf(list, sizeof(list), "%s", opt.reads);
	if (list[0])
		warm_read_path();
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct read_result r;
		size_t i;

		for (i = 0; i < RD_N && i < crb_nreads; i++)
			if (!strcmp(tok, crb_read_names[i]))
				break;
		if (i == RD_N || i == crb_nreads) {
			errno = EINVAL;
			panic(CRB_SET_READS " names an unknown read");
		}
		crb_emit(&w, CRB_reading, "iface=%s start_ns=%" PRId64, tok,
			 boot_ns());
		/*
		 * Out before the read, so a boot that hangs in it says where;
		 * and drained, so the UART's transmit interrupts are not
		 * handled inside the read and counted as its duration.
		 */
		crb_flush(&w);
		if (tcdrain(out_fd) && errno != ENOTTY)
			panic("tcdrain result channel");
		r = do_read((enum read_kind)i, opt.bytes);
		spent += r.dur_ns;
		crb_emit(&w, CRB_read,
			 "iface=%s start_ns=%" PRId64 " dur_ns=%" PRId64
			 " bytes=%zd errno=%d timed_out=%d",
			 tok, r.start_ns, r.dur_ns,
			 r.bytes < 0 ? (ssize_t)0 : r.bytes, r.err,
			 r.timed_out);
	}
	return spent;
}

/* --- the CRNG watcher --------------------------------------------------------------- */

static void append_record(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		say("warning: cannot write %s: %s", file, strerror(errno));
	if (fd >= 0)
		close(fd);
}

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
static void __attribute__((noreturn)) probe_only(pid_t watcher);

static int run_init(int argc, char **argv)
{
	int64_t t0 = boot_ns(), m0 = now_ns(CLOCK_MONOTONIC), spent, texec;
	const char *bad = parse_init_env();
	char esc[CRB_MAX_VALUE];

	pid_t watcher;

	(void)argc;
	watcher = start_watcher();
	setup_channel(bad);
	crb_begin(&w, out_fd, "probe");
	crb_emit(&w, CRB_meta, "key=reads value=%s",
		 opt.reads[0] ? opt.reads : "none");
	spent = early_reads();
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
		probe_only(watcher);
	argv[0] = (char *)SYSTEMD;
	execv(SYSTEMD, argv);
	crb_escape(esc, sizeof(esc), "exec " SYSTEMD);
	panic(esc);
}

/* --- game ------------------------------------------------------------------------- */

static int run_game(void)
{
	struct read_result r;
	char line[256];

	/* The game's records go to a file; a bad value only affects reads. */
	(void)parse_cmdline();
	r = do_read(RD_URANDOM, 8); /* a game wants a seed, not a key */
	snprintf(line, sizeof(line),
		 "event name=game-seeded t_ns=%" PRId64 " start_ns=%" PRId64
		 " dur_ns=%" PRId64 " bytes=%zd errno=%d timed_out=%d\n",
		 r.start_ns + r.dur_ns, r.start_ns, r.dur_ns,
		 r.bytes < 0 ? (ssize_t)0 : r.bytes, r.err, r.timed_out);
	append_record(GAME_FILE, line);
	printf("crngbench-game: seeded after %" PRId64 " us, errno %d\n",
	       r.dur_ns / 1000, r.err);
	return 0;
}

/* --- report ------------------------------------------------------------------------ */

/*
 * Run a command and capture up to len-1 bytes of its stdout. A deadline
 * (CLOCK_BOOTTIME ns, 0: none) bounds the wait: past it the command is
 * killed. Returns its exit status, or -1 (failed to start, killed).
 */
static int capture_until(char *const argv[], char *out, size_t len,
			 int64_t deadline)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = -1;
	size_t got = 0;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	while (got < len - 1) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		int64_t left = deadline ? deadline - boot_ns() : -1;
		ssize_t n;

		if (deadline && left <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&p, 1, left < 0 ? -1 : (int)(left / 1000000) + 1) <= 0)
			continue; /* timeout or EINTR: the loop checks the deadline */
		n = read(pipefd[0], out + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	out[got] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int capture(char *const argv[], char *out, size_t len)
{
	return capture_until(argv, out, len, 0);
}

static void emit_meta_file(const char *key, const char *path)
{
	char buf[CRB_MAX_VALUE], esc[CRB_MAX_LINE];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) / 3 - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	crb_emit(&w, CRB_meta, "key=%s value=%s", key,
		 crb_escape(esc, sizeof(esc), buf));
}

/* Re-emit the records another process left in a file (watcher, game). */
static void emit_record_file(const char *path)
{
	char buf[8192], *line, *save = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct crb_record r;
		const char *rest = strchr(line, ' ');

		if (rest && !crb_parse_line(line, strlen(line), &r, NULL, 0))
			crb_emit(&w, r.type, "%s", rest + 1);
	}
}

/*
 * /dev/kmsg: the kernel's own "crng init done" time, and the "uninitialized
 * urandom read" warnings (legacy and stock print them).
 */
#define KMSG_SYNC "crngbench: clock sync"

/*
 * printk times come from local_clock(), not CLOCK_BOOTTIME, and the two can
 * differ by tens of milliseconds (the clocksource changes during boot). Write
 * a marker between two boottime reads; its printk time gives the offset.
 */
static int64_t kmsg_mark(void)
{
	int64_t t1, t2;
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	t1 = boot_ns();
	if (write(fd, KMSG_SYNC "\n", sizeof(KMSG_SYNC)) !=
	    (ssize_t)sizeof(KMSG_SYNC)) {
		close(fd);
		return -1;
	}
	t2 = boot_ns();
	close(fd);
	return t1 + (t2 - t1) / 2;
}

/*
 * The guest's interrupt counts (/proc/interrupts, summed over CPUs) when the
 * report runs: without a cycle counter these are what credits entropy
 * (add_interrupt_randomness() runs in handle_irq_event_percpu(), which the
 * IRQ-0 tick goes through and the LAPIC timer does not). Three totals as
 * numbers, and every non-zero line as "name:count;..." for the record.
 */
static void emit_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char line[1024], all[CRB_MAX_VALUE / 3] = "", esc[CRB_MAX_LINE];
	int64_t timer = 0, local = 0, devices = 0;
	size_t off = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p, *name = line;
		int64_t sum = 0;

		if (!colon)
			continue; /* the CPU header */
		*colon = '\0';
		while (*name == ' ')
			name++;
		for (p = colon + 1;;) {
			char *end;
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
		if (!strcmp(name, "0"))
			timer = sum;
		else if (!strcmp(name, "LOC"))
			local = sum;
		if (isdigit((unsigned char)name[0]))
			devices += sum;
		if (sum && off < sizeof(all))
			off += (size_t)snprintf(all + off, sizeof(all) - off,
						"%s%s:%" PRId64, off ? ";" : "",
						name, sum);
	}
	fclose(f);
	crb_emit(&w, CRB_meta, "key=irq_timer value=%" PRId64, timer);
	crb_emit(&w, CRB_meta, "key=irq_local_timer value=%" PRId64, local);
	crb_emit(&w, CRB_meta, "key=irq_devices value=%" PRId64, devices);
	if (all[0])
		crb_emit(&w, CRB_meta, "key=interrupts value=%s",
			 crb_escape(esc, sizeof(esc), all));
}

/*
 * The jitter trial's log lines (kernel patch 0005): its first result and
 * each change of outcome, or that random.no_cycle_counter skipped it. A
 * handful per boot at most; kept until the printk offset is known.
 */
#define JITTER_PREFIX "random: jitter trial: "
#define MAX_JITTER_LINES 8

struct jitter_line {
	unsigned long long us;
	unsigned int differed, of, per_bit, max;
	int passed; /* 1 running, 0 giving up, -1 skipped */
};

static int parse_jitter(const char *msg, struct jitter_line *j)
{
	char outcome[16];

	msg += strlen(JITTER_PREFIX);
	if (!strncmp(msg, "skipped", 7)) {
		j->passed = -1;
		return 0;
	}
	if (sscanf(msg,
		   "%u of %u samples differed, %u per bit (at most %u): %15[a-z ]",
		   &j->differed, &j->of, &j->per_bit, &j->max, outcome) != 5)
		return -1;
	if (!strcmp(outcome, "running"))
		j->passed = 1;
	else if (!strcmp(outcome, "giving up"))
		j->passed = 0;
	else
		return -1;
	return 0;
}

static void emit_jitter(const struct jitter_line *j, int n, int64_t offset)
{
	for (int i = 0; i < n; i++) {
		int64_t t = (int64_t)j[i].us * 1000 - offset;

		if (j[i].passed < 0)
			crb_emit(&w, CRB_event,
				 "name=jitter-skipped t_ns=%" PRId64,
				 t > 0 ? t : 0);
		else
			crb_emit(
				&w, CRB_event,
				"name=jitter-trial t_ns=%" PRId64
				" differed=%u of=%u per_bit=%u max=%u passed=%d",
				t > 0 ? t : 0, j[i].differed, j[i].of,
				j[i].per_bit, j[i].max, j[i].passed);
	}
}

/*
 * A clocksource's registration line, "NAME: mask: 0x... max_cycles: 0x...,
 * max_idle_ns: N ns" (__clocksource_update_freq_scale()): the guest's own
 * word on its rate, which the runner derives (report.c). /dev/kmsg has it
 * where a quiet console does not (q800).
 */
static void emit_clocksource(const char *msg, unsigned long long usec)
{
	char name[32], esc[100];
	unsigned long long mask, max_cycles, max_idle_ns;

	if (sscanf(msg,
		   "%31[^: ]: mask: 0x%llx max_cycles: 0x%llx, max_idle_ns: %llu ns",
		   name, &mask, &max_cycles, &max_idle_ns) != 4)
		return;
	crb_emit(
		&w, CRB_event,
		"name=clocksource t_ns=%llu cs=%s max_cycles=%llu max_idle_ns=%llu",
		usec * 1000ULL, crb_escape(esc, sizeof(esc), name), max_cycles,
		max_idle_ns);
}

static void emit_kmsg(void)
{
	char rec[2048];
	int64_t mark = kmsg_mark(), offset = 0;
	unsigned long long ready_us = 0;
	struct jitter_line jitter[MAX_JITTER_LINES];
	int njitter = 0, have_ready = 0,
	    fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	for (;;) {
		unsigned long long usec;
		char *msg;
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: keep reading */
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg || sscanf(rec, "%*u,%*u,%llu", &usec) != 1)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (!strncmp(msg, "random: crng init done", 22)) {
			ready_us = usec;
			have_ready = 1;
		} else if (!strcmp(msg, KMSG_SYNC) && mark > 0) {
			offset = (int64_t)usec * 1000 - mark;
			crb_emit(&w, CRB_meta,
				 "key=printk_offset_ns value=%" PRId64, offset);
		} else if (!strncmp(msg, "clocksource: ", 13)) {
			emit_clocksource(msg + 13, usec);
		} else if (!strncmp(msg, JITTER_PREFIX,
				    strlen(JITTER_PREFIX))) {
			if (njitter < MAX_JITTER_LINES &&
			    !parse_jitter(msg, &jitter[njitter])) {
				jitter[njitter].us = usec;
				njitter++;
			}
		} else if (strstr(msg, "uninitialized urandom read")) {
			char comm[64], esc[200];

			if (sscanf(msg, "random: %63[^:]:", comm) == 1)
				crb_emit(
					&w, CRB_event,
					"name=urandom-warning t_ns=%llu comm=%s",
					usec * 1000ULL,
					crb_escape(esc, sizeof(esc), comm));
		}
	}
	close(fd);
	emit_jitter(jitter, njitter, offset);
	/* t_ns on CLOCK_BOOTTIME like every guest time; printk_ns as logged. */
	if (have_ready) {
		int64_t t = (int64_t)ready_us * 1000 - offset;

		/* Ready before timekeeping started (RDRAND, seed): time 0. */
		crb_emit(&w, CRB_ready,
			 "src=kmsg t_ns=%" PRId64 " printk_ns=%llu",
			 t > 0 ? t : 0, ready_us * 1000ULL);
	}
}

/*
 * function_graph lines with funcgraph-abstime and funcgraph-proc, e.g.
 *   "    2.345678 |   0)  systemd-1    | ! 734.123 us  |  urandom_read_iter();"
 * Each traced function is a leaf (the filter names only them), so its line
 * carries the entry time and the duration, sleep included.
 */
static void emit_trace(void)
{
	char line[512], tracer[64] = "none";
	FILE *f;

	if (mount("tracefs", TRACEFS, "tracefs", MS_NOSUID | MS_NOEXEC, NULL) &&
	    errno != EBUSY)
		return;
	f = fopen(TRACEFS "/current_tracer", "re");
	if (f) {
		if (fgets(tracer, sizeof(tracer), f))
			tracer[strcspn(tracer, "\n")] = '\0';
		fclose(f);
	}
	crb_emit(&w, CRB_meta, "key=tracer value=%s",
		 tracer[0] ? tracer : "none");
	if (strcmp(tracer, "function_graph") ||
	    tracefs_write("options/funcgraph-proc", "1") ||
	    tracefs_write("options/funcgraph-abstime", "1"))
		return;
	f = fopen(TRACEFS "/trace", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *col[4], *save = NULL, *p, *task, *dash, *dp;
		char comm[64], func[64], esc[200], unit[8];
		double ts, dur;
		long pid;
		int n = 0;

		if (line[0] == '#')
			continue;
		for (p = strtok_r(line, "|", &save); p && n < 4;
		     p = strtok_r(NULL, "|", &save))
			col[n++] = p;
		if (n != 4 || sscanf(col[0], "%lf", &ts) != 1)
			continue;
		/* "   0)   systemd-1    ": CPU, then comm-pid; comm may hold '-' */
		task = strchr(col[1], ')');
		if (!task)
			continue;
		task += strspn(task + 1, " ") + 1;
		task[strcspn(task, " ")] = '\0';
		dash = strrchr(task, '-');
		if (!dash || dash == task)
			continue;
		*dash = '\0';
		pid = strtol(dash + 1, NULL, 10);
		snprintf(comm, sizeof(comm), "%s", task);
		/* " $ 1072626 us  ": a flag marks long durations */
		dp = col[2] + strspn(col[2], " !#*@$+");
		if (sscanf(dp, "%lf %7s", &dur, unit) != 2 ||
		    strcmp(unit, "us"))
			continue;
		if (sscanf(col[3] + strspn(col[3], " "), "%63[A-Za-z0-9_]",
			   func) != 1)
			continue;
		crb_emit(&w, CRB_trace,
			 "comm=%s pid=%ld func=%s start_ns=%.0f dur_ns=%.0f",
			 crb_escape(esc, sizeof(esc), comm), pid, func,
			 ts * 1e9, dur * 1e3);
	}
	fclose(f);
}

/*
 * systemd's boot phases from `systemd-analyze time`: the meta record keeps
 * its line as printed, the systemd record its times (ms precision, as
 * printed; one spawn instead of a second one for `systemctl show`).
 */
static void emit_systemd(void)
{
	char out[1024], esc[CRB_MAX_LINE];
	char *analyze[] = { "/usr/bin/systemd-analyze", "time", NULL };
	int64_t user, fin;

	if (capture(analyze, out, sizeof(out)) != 0)
		return;
	out[strcspn(out, "\n")] = '\0';
	if (!sda_parse_time(out, &user, &fin))
		crb_emit(&w, CRB_systemd,
			 "userspace_ns=%" PRId64 " finish_ns=%" PRId64, user,
			 fin);
	crb_emit(&w, CRB_meta, "key=analyze value=%s",
		 crb_escape(esc, sizeof(esc), out));
}

/*
 * Wait for systemd to call the boot finished, but not for ever: on a guest
 * that cannot seed its CRNG, systemd-random-seed.service waits for the
 * kernel ("Kernel entropy pool is not initialized yet") and the boot never
 * finishes. One `systemctl is-system-running --wait` (it follows systemd's
 * state over D-Bus; each spawn costs ~0.1 s under TCG, so no polling) is
 * killed crngbench_ready_timeout seconds from boot (0: no limit) and the report
 * goes out anyway, naming the jobs still waiting. Leaves systemd's state
 * (as is-system-running prints it) in state.
 */
static void wait_boot_finished(char *state, size_t len)
{
	char *wait[] = { "/bin/systemctl", "is-system-running", "--wait",
			 NULL };
	char *is_running[] = { "/bin/systemctl", "is-system-running", NULL };
	char *jobs[] = { "/bin/systemctl", "list-jobs", "--no-legend",
			 "--plain", NULL };
	int64_t limit = opt.ready_timeout >= 0 ? opt.ready_timeout :
						 (int64_t)opt.read_timeout;
	int64_t deadline = limit ? limit * 1000000000 : 0;
	char buf[2048], esc[CRB_MAX_LINE];

	if (capture_until(wait, state, len, deadline) < 0)
		capture(is_running, state, len); /* cut off: the state now */
	state[strcspn(state, "\n")] = '\0';
	if (state[0] && strcmp(state, "starting") &&
	    strcmp(state, "initializing"))
		return;
	capture(jobs, buf, sizeof(buf));
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ';';
	crb_emit(&w, CRB_meta, "key=pending_jobs value=%s",
		 buf[0] ? crb_escape(esc, sizeof(esc), buf) : "none");
}

static int run_report(void)
{
	char out[256];
	int64_t t;

	setup_channel(parse_cmdline());
	t = boot_ns();
	crb_begin(&w, out_fd, "report");
	crb_flush(&w); /* the host times the report's start by its header */
	wait_boot_finished(out, sizeof(out));
	crb_emit(&w, CRB_event,
		 "name=report t_ns=%" PRId64 " started_ns=%" PRId64, boot_ns(),
		 t);
	emit_meta_file("release", "/proc/sys/kernel/osrelease");
	emit_meta_file("version", "/proc/version");
	emit_meta_file("cmdline", "/proc/cmdline");
	emit_meta_file("clocksource", CLOCKSOURCE);
	crb_emit(&w, CRB_meta, "key=system_state value=%s",
		 out[0] ? out : "unknown");
	emit_record_file(WATCH_FILE);
	emit_record_file(GAME_FILE);
	emit_interrupts();
	emit_kmsg();
	emit_trace();
	emit_systemd();
	if (crb_end(&w))
		panic("write report segment");
	/*
	 * The unit's SuccessAction=reboot-immediate ends the VM the moment this
	 * process exits, so wait until the UART has sent every byte.
	 */
	if (tcdrain(out_fd))
		say("warning: tcdrain %s: %s", opt.out, strerror(errno));
	return 0;
}

/* --- probe-only guests ----------------------------------------------------------- */

/* Reboot, which ends QEMU (-no-reboot); machines that only halt are ended
 * by the runner once the report's terminator has arrived. */
static void __attribute__((noreturn)) end_vm(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	panic("reboot");
}

/*
 * What a buildroot init did at "Saving random seed:", where the 2022 boot
 * tests hung: mix the saved seed into /dev/urandom (written, not credited),
 * then read a new one from it with dd (bs=poolsize/8: 32 bytes in 6.1).
 * The read gets a budget of its own, like the x86 game stand-in's process,
 * and is recorded like it (game-seeded): the first program after init that
 * wants a seed.
 */
static void seed_dance(void)
{
	static const char saved[32] = "crngbench saved seed (not secret";
	struct read_result r;
	int fd = open_dev("/dev/urandom", O_WRONLY);

	if (fd < 0 || write(fd, saved, sizeof(saved)) != (ssize_t)sizeof(saved))
		panic("write saved seed to /dev/urandom");
	close(fd);
	read_deadline = 0;
	r = do_read(RD_URANDOM, 32);
	crb_emit(&w, CRB_event,
		 "name=game-seeded t_ns=%" PRId64 " start_ns=%" PRId64
		 " dur_ns=%" PRId64 " bytes=%zd errno=%d timed_out=%d",
		 r.start_ns + r.dur_ns, r.start_ns, r.dur_ns,
		 r.bytes < 0 ? (ssize_t)0 : r.bytes, r.err, r.timed_out);
}

/* Wait until the CRNG is ready or ready_timeout from boot has passed. */
static void wait_crng_ready(pid_t watcher)
{
	int64_t limit = opt.ready_timeout >= 0 ? opt.ready_timeout :
						 (int64_t)opt.read_timeout;
	struct pollfd p = { .fd = open_dev("/dev/random", O_RDONLY),
			    .events = POLLIN };
	int ready = 0;

	if (p.fd < 0)
		panic("/dev/random");
	for (;;) {
		int ms = -1, n;

		if (limit) {
			int64_t left = limit * 1000000000 - boot_ns();

			ms = left <= 0 ? 0 :
			     left / 1000000 >= INT_MAX ?
					 INT_MAX :
					 (int)(left / 1000000 + 1);
		}
		n = poll(&p, 1, ms);
		if (n >= 0 || errno != EINTR) {
			ready = n == 1;
			break;
		}
	}
	close(p.fd);
	/* Ready: the watcher is writing its record; reap it so it is whole. */
	if (ready && watcher > 0)
		waitpid(watcher, NULL, 0);
}

/*
 * PID 1 without systemd (crngbench_init=probe-only), on the architectures
 * Debian has no systemd for: the seed dance, the CRNG wait, then the report
 * segment, as the x86 reporter writes it less systemd's part.
 */
static void __attribute__((noreturn)) probe_only(pid_t watcher)
{
	int64_t t;

	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC, NULL) &&
	    errno != EBUSY)
		panic("mount /proc");
	if (mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NOEXEC, NULL) &&
	    errno != EBUSY)
		panic("mount /sys");
	t = boot_ns();
	crb_begin(&w, out_fd, "report");
	crb_flush(&w);
	seed_dance();
	wait_crng_ready(watcher);
	crb_emit(&w, CRB_event,
		 "name=report t_ns=%" PRId64 " started_ns=%" PRId64, boot_ns(),
		 t);
	emit_meta_file("release", "/proc/sys/kernel/osrelease");
	emit_meta_file("version", "/proc/version");
	emit_meta_file("cmdline", "/proc/cmdline");
	emit_meta_file("clocksource", CLOCKSOURCE);
	crb_emit(&w, CRB_meta, "key=system_state value=probe-only");
	emit_record_file(WATCH_FILE);
	emit_interrupts();
	emit_kmsg();
	if (crb_end(&w))
		panic("write report segment");
	if (tcdrain(out_fd) && errno != ENOTTY)
		say("warning: tcdrain %s: %s", opt.out, strerror(errno));
	end_vm();
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
