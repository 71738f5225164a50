// SPDX-License-Identifier: GPL-2.0
/*
 * The timed reads of /dev/urandom, /dev/random and getrandom(): PID 1's
 * early reads, the game stand-in's seed and the probe-only seed dance. One
 * read_timeout budget per process; a read it cuts off is timed_out.
 */
#define _GNU_SOURCE
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

struct read_result do_read(enum read_kind k, size_t len)
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
