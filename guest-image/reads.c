// SPDX-License-Identifier: GPL-2.0
/*
 * The timed reads of /dev/urandom, /dev/random and getrandom(): PID 1's
 * early reads, the game stand-in's seed and the probe-only seed dance. One
 * read_timeout budget per process; a read it cuts off is timed_out.
 */
#define _GNU_SOURCE
#include "guest.h"
#include "blake2s.h"
#include "vdso.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>

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
int64_t read_deadline;

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

/* The CRNG is ready: /dev/random polls readable (fd open; no wait). */
static int crng_ready_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/*
 * The vDSO's getrandom, found and given its state once per process
 * (outside any timed part); NULL with why set where there is none.
 */
static const struct vgetrandom *vdso_getrandom(const char **why)
{
	static struct vgetrandom v;
	static const char *missing;
	static int done;
	int rc;

	if (!done) {
		done = 1;
		rc = vgetrandom_init(getauxval(AT_SYSINFO_EHDR), &v, &missing);
		if (rc < 0)
			panic("mmap the vDSO getrandom's state");
	}
	*why = missing;
	return v.fn ? &v : NULL;
}

struct read_result do_read(enum read_kind k, size_t len)
{
	unsigned char buf[4096];
	struct read_result r = { .ready_before = -1, .ready_after = -1 };
	const char *dev = k == RD_RANDOM ? "/dev/random" : "/dev/urandom";
	const struct vgetrandom *vg = NULL;
	int fd = -1;

	/* Open outside the timed region: opening is not what is measured. */
	if (k == RD_URANDOM || k == RD_URANDOM_NB || k == RD_RANDOM) {
		fd = open_dev(dev,
			      O_RDONLY | (k == RD_URANDOM_NB ? O_NONBLOCK : 0));
		if (fd < 0)
			panic(dev);
	}
	if (k == RD_GETRANDOM_VDSO) {
		vg = vdso_getrandom(&r.unavailable);
		if (!vg) { /* nothing to call: not a failure */
			r.start_ns = boot_ns();
			r.err = ENOSYS;
			return r;
		}
		fd = open_dev("/dev/random", O_RDONLY);
		if (fd < 0)
			panic("/dev/random");
		r.ready_before = crng_ready_now(fd);
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
	case RD_GETRANDOM_VDSO:
		r.bytes = vgetrandom(vg, buf, len, 0);
		break;
	}
	r.err = r.bytes < 0 ? errno : 0;
	r.dur_ns = boot_ns() - r.start_ns;
	disarm_timeout();
	r.timed_out = timed_out;
	if (vg)
		r.ready_after = crng_ready_now(fd);
	if (fd >= 0)
		close(fd);
	if (r.bytes > 0)
		blake2s_digest8(r.digest, buf, (size_t)r.bytes);
	return r;
}

const char *read_keys(const struct read_result *r, char *buf, size_t len)
{
	char why[160];
	int n = 0;

	buf[0] = '\0';
	if (r->digest[0])
		n = snprintf(buf, len, " digest=%s", r->digest);
	else if (r->unavailable)
		n = snprintf(buf, len, " status=%s why=%s",
			     CRB_STATUS_UNAVAILABLE,
			     crb_escape(why, sizeof(why), r->unavailable));
	if (n >= 0 && (size_t)n < len && r->ready_before >= 0)
		snprintf(buf + n, len - (size_t)n,
			 " ready_before=%d ready_after=%d", r->ready_before,
			 r->ready_after);
	return buf;
}
