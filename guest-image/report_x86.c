// SPDX-License-Identifier: GPL-2.0
/*
 * probe report: the x86 guest's last unit. Waits (bounded) for systemd to
 * finish booting, and for the early reads' child where there is one, then
 * writes the report segment: what emit.c collects, the child's records,
 * the traced reads (ftrace) and systemd's boot phases.
 */
#define _GNU_SOURCE
#include "analyze.h"
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"

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

/* The report's bound: crngbench_ready_timeout s from boot (ns; 0: none). */
static int64_t report_deadline(void)
{
	int64_t limit = opt.ready_timeout >= 0 ? opt.ready_timeout :
						 (int64_t)opt.read_timeout;

	return limit ? limit * 1000000000 : 0;
}

/* --- the early reads' child (crngbench_early=child) ------------------------------ */

/*
 * What the child (probe.c) left in EARLY_FILE: its pid and its reads'
 * deadline from its first record (meta early_pid; 0 if not there yet),
 * and whether its segment is complete, terminated with the count and
 * CRC the host checks (record.h). Returns 1 if it is.
 */
static int early_file(long *pid, int64_t *deadline)
{
	static char buf[8192];
	char *line, *save = NULL;
	ssize_t n;
	int complete, fd = open(EARLY_FILE, O_RDONLY | O_CLOEXEC);

	*pid = 0;
	*deadline = 0;
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	complete = crb_read_stream(buf, (size_t)n, NULL, NULL, NULL) == 1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		static struct crb_record r; /* 33 KiB: not on the stack */
		int64_t v;

		if (crb_parse_line(line, strlen(line), &r, NULL, 0) ||
		    r.type != CRB_meta ||
		    strcmp(crb_get(&r, "key"), "early_pid"))
			continue;
		if (!crb_get_i64(&r, "value", &v))
			*pid = (long)v;
		if (!crb_get_i64(&r, "deadline_ns", &v))
			*deadline = v;
		break;
	}
	return complete;
}

/*
 * Wait for the child to end, as long as the report waits for systemd
 * (bound, from boot; 0: no limit) or, if its reads' budget ends later
 * (it counts from the child's start, not from boot), until a second past
 * that: a read the budget cut off is then recorded as timed out, as PID
 * 1's is. A pidfd polls readable when the process has ended; a child
 * already ended (and reaped by systemd) needs no wait.
 */
#define EARLY_GRACE_NS 1000000000LL

static void wait_early_child(int64_t bound)
{
	long pid;
	int64_t dl, until;
	int fd;

	if (early_file(&pid, &dl) || pid <= 0)
		return;
	until = bound && dl > 0 && dl + EARLY_GRACE_NS > bound ?
			dl + EARLY_GRACE_NS :
			bound;
	fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (fd < 0)
		return;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = until ? until - boot_ns() : -1;
		int rc;

		if (until && left <= 0)
			break;
		rc = poll(&p, 1, left < 0 ? -1 : (int)(left / 1000000) + 1);
		if (rc > 0 || (rc < 0 && errno != EINTR))
			break;
	}
	close(fd);
}

/*
 * The child's records into the report segment, where the host reads them
 * as it reads PID 1's in the probe segment (the same read and reading
 * records), then whether it finished: early_child=done, or unfinished
 * (still reading, or it failed: the console says which) with the records
 * it had written.
 */
static void emit_early_child(void)
{
	long pid;
	int64_t dl;
	int done = early_file(&pid, &dl);

	emit_record_file(EARLY_FILE);
	crb_emit(&w, CRB_meta, "key=early_child value=%s",
		 done ? "done" : "unfinished");
}

/*
 * Wait for systemd to call the boot finished, but not for ever: on a guest
 * that cannot seed its CRNG, systemd-random-seed.service waits for the
 * kernel ("Kernel entropy pool is not initialized yet") and the boot does
 * not finish until the unit's TimeoutSec (10 min in Debian 12's unit)
 * fails it. One `systemctl is-system-running --wait` (it follows systemd's
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
	int64_t deadline = report_deadline();
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

int run_report(void)
{
	char out[256];
	int64_t t;

	setup_channel(parse_cmdline());
	t = boot_ns();
	crb_begin(&w, out_fd, "report");
	crb_flush(&w); /* the host times the report's start by its header */
	wait_boot_finished(out, sizeof(out));
	if (opt.early_child)
		wait_early_child(report_deadline());
	emit_report_event(t);
	crb_emit(&w, CRB_meta, "key=system_state value=%s",
		 out[0] ? out : "unknown");
	if (opt.early_child)
		emit_early_child();
	emit_record_file(WATCH_FILE);
	emit_record_file(WAITER_FILE); /* the waiters that returned by now */
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
