// SPDX-License-Identifier: GPL-2.0
/*
 * What every role of the probe shares: its knobs (the kernel command line,
 * or PID 1's environment), the result channel, the one failure path, the
 * clocks, and the state files other roles leave for the reporter.
 */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>

struct probe_options opt = { .out = "/dev/ttyS1",
			     .bytes = 32,
			     .ready_timeout = -1 };

struct crb_writer w;
int out_fd = -1;

int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t boot_ns(void)
{
	return now_ns(CLOCK_BOOTTIME);
}

void say(const char *fmt, ...)
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
void __attribute__((noreturn)) panic(const char *what)
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
	else if ((v = setting(tok, CRB_SET_EARLY)))
		opt.early_child = !strcmp(v, CRB_EARLY_CHILD) ? 1 :
				  !strcmp(v, "pid1")	      ? 0 :
								-1;
	else if ((v = setting(tok, CRB_SET_WAITERS)))
		opt.waiters = crb_waiters(v);
	else if ((v = setting(tok, CRB_SET_INIT)))
		opt.probe_only = !strcmp(v, CRB_INIT_PROBE_ONLY) ? 1 :
				 !strcmp(v, "systemd")		 ? 0 :
								   -1;
	else
		return 0;
	return 1;
}

_Static_assert(CRB_MAX_WAITERS == 7, "check_options() says 0 to 7");

/* NULL, or what is wrong with the values parsed. */
static const char *check_options(void)
{
	if (opt.bytes == 0 || opt.bytes > 4096)
		return CRB_SET_BYTES " must be 1..4096";
	if (opt.probe_only < 0)
		return CRB_SET_INIT " must be systemd or " CRB_INIT_PROBE_ONLY;
	if (opt.early_child < 0)
		return CRB_SET_EARLY " must be pid1 or " CRB_EARLY_CHILD;
	if (opt.waiters < 0)
		return CRB_SET_WAITERS " must be one digit, 0 to 7";
	if (opt.early_child && opt.probe_only)
		return CRB_SET_EARLY
			"=" CRB_EARLY_CHILD
			" needs systemd: a probe-only PID 1 reads itself";
	return NULL;
}

/*
 * The knobs from /proc/cmdline. Returns NULL, or what is wrong with a
 * crngbench_* value: the caller opens the result channel first (its path is
 * on the same command line), so the complaint reaches the host as a fail
 * record.
 */
const char *parse_cmdline(void)
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
const char *parse_init_env(void)
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
int open_dev(const char *path, int flags)
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
void setup_channel(const char *bad)
{
	out_fd = open_channel(opt.out);
	if (out_fd < 0)
		panic(opt.out);
	if (bad) {
		errno = EINVAL;
		panic(bad);
	}
}

/* --- state files ----------------------------------------------------------------- */

/* A record line for the reporter, appended to a file of STATE_DIR. */
void append_record(const char *file, const char *line)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		say("warning: cannot write %s: %s", file, strerror(errno));
	if (fd >= 0)
		close(fd);
}
