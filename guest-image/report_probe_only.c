// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of a probe-only guest (crngbench_init=probe-only), after its early
 * reads: buildroot's seed dance, the wait for the CRNG, the report segment,
 * the end of the VM.
 */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

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
	char keys[128];
	int fd = open_dev("/dev/urandom", O_WRONLY);

	if (fd < 0 || write(fd, saved, sizeof(saved)) != (ssize_t)sizeof(saved))
		panic("write saved seed to /dev/urandom");
	close(fd);
	read_deadline = 0;
	r = do_read(RD_URANDOM, 32);
	crb_emit(&w, CRB_event,
		 "name=game-seeded t_ns=%" PRId64 " start_ns=%" PRId64
		 " dur_ns=%" PRId64 " bytes=%zd errno=%d timed_out=%d%s",
		 r.start_ns + r.dur_ns, r.start_ns, r.dur_ns,
		 r.bytes < 0 ? (ssize_t)0 : r.bytes, r.err, r.timed_out,
		 read_keys(&r, keys, sizeof(keys)));
}

/*
 * Wait until the CRNG is ready or ready_timeout from boot has passed.
 * Ready: the watcher and the waiters are writing their records; reap
 * them so the records are whole (each returns from its wait at once).
 * Not ready: they are still blocked, and the report does not wait.
 */
static void wait_crng_ready(pid_t watcher, const pid_t *waiters, int nwaiters)
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
	if (!ready)
		return;
	if (watcher > 0)
		waitpid(watcher, NULL, 0);
	for (int i = 0; i < nwaiters; i++)
		waitpid(waiters[i], NULL, 0);
}

/*
 * PID 1 without systemd (crngbench_init=probe-only), on the architectures
 * Debian has no systemd for: the seed dance, the CRNG wait, then the report
 * segment, as the x86 reporter writes it less systemd's part.
 */
void __attribute__((noreturn))
probe_only(pid_t watcher, const pid_t *waiters, int nwaiters)
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
	wait_crng_ready(watcher, waiters, nwaiters);
	emit_report_event(t);
	crb_emit(&w, CRB_meta, "key=system_state value=probe-only");
	emit_record_file(WATCH_FILE);
	emit_record_file(WAITER_FILE);
	emit_interrupts();
	emit_kmsg();
	if (crb_end(&w))
		panic("write report segment");
	if (tcdrain(out_fd) && errno != ENOTTY)
		say("warning: tcdrain %s: %s", opt.out, strerror(errno));
	end_vm();
}
