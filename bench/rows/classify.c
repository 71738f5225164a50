// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "classify.h"
#include "../machines/accel.h"
#include "../../guest-image/record.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/*
 * Copy the first console line containing one of needles (NULL-terminated)
 * into buf; 1 if found. The console is read only to classify a boot that
 * gave no report, never for data.
 */
static int console_line(const char *dir, const char *const *needles, char *buf,
			size_t len)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int found = 0;

	set_text(path, "%s/console.log", dir);
	f = fopen_run(path); /* no link, FIFO or device (a rescanned run) */
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		for (const char *const *n = needles; *n && !found; n++)
			found = strstr(line, *n) != NULL;
	fclose(f);
	if (found && buf) {
		line[strcspn(line, "\r\n")] = '\0';
		text_printf(buf, len, "%s", line);
	}
	return found;
}

/* The console log's size; -1 if there is none. */
static long long console_size(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	set_text(path, "%s/console.log", dir);
	return lstat(path, &st) ? -1 : (long long)st.st_size;
}

/* A note after the row's reason, "; "-separated; the reason is cut first. */
static void add_reason(struct row *r, const char *note)
{
	char was[sizeof(r->reason)];

	set_text(was, "%s", r->reason);
	if (!was[0])
		set_text(r->reason, "%s", note);
	else
		set_text(r->reason, "%.*s; %s",
			 (int)(sizeof(r->reason) - strlen(note) - 3), was,
			 note);
}

/*
 * The runner itself did not run for a while during the boot (stopped,
 * starved: sched.c notes it in RUNNER_STALL_FILE), so what arrived then
 * was timestamped late. Host times from the stall on are left out (empty,
 * so no host-time statistic takes them); the reason says so.
 */
static void runner_stall(const char *dir, struct row *r)
{
	int64_t *const host[] = { &r->host_first_byte_ns, &r->host_urandom_ns,
				  &r->host_report_ns, &r->host_exit_ns };
	char path[PATH_MAX], note[128];
	long long stall, from;
	FILE *f;
	int n;

	set_text(path, "%s/" RUNNER_STALL_FILE, dir);
	f = fopen_run(path);
	if (!f)
		return;
	n = fscanf(f, "%lld %lld", &stall, &from);
	fclose(f);
	if (n != 2 || stall <= 0 || from < 0)
		return;
	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++)
		if (*host[i] >= from)
			*host[i] = -1;
	set_text(
		note,
		"runner stalled %.1f s during the boot (stopped or starved): host times from %.3f s on left out",
		(double)stall / 1e9, (double)from / 1e9);
	add_reason(r, note);
}

static void perf_numbers(const char *dir, struct row *r)
{
	char path[PATH_MAX], line[512];
	FILE *f;

	set_text(path, "%s/perf.csv", dir);
	f = fopen_run(path);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		double v;
		char unit[32], ev[64];

		/* value,unit,event,... (perf stat -x,; no unit: a count) */
		if (sscanf(line, "%lf,%31[^,],%63[^,]", &v, unit, ev) != 3) {
			unit[0] = '\0';
			if (sscanf(line, "%lf,,%63[^,]", &v, ev) != 2)
				continue;
		}
		if (!strcmp(unit, "msec"))
			v *= 1e6;
		/* a run's file (--rescan's from elsewhere): a value that is
		 * no int64 is no figure (its cast would be undefined) */
		if (!(v >= 0 && v < 9e18))
			continue;
		if (unit[0] && strstr(ev, "task-clock"))
			r->host_task_clock_ns = (int64_t)v;
		else if (strstr(ev, "context-switches"))
			r->host_ctx_switches = (int64_t)v;
	}
	fclose(f);
}

/*
 * QEMU itself failed: it exited non-zero or died of a signal the runner did
 * not send. A guest that panics or powers off makes QEMU exit 0
 * (-no-reboot). Rows from before the exit status was recorded (-1) fall
 * back to "no output, stderr said something, exited within 5 s".
 */
static int qemu_failed(const struct boot_facts *f)
{
	if (f->timed_out)
		return 0;
	if (f->qemu_signal > 0 || f->qemu_exit > 0)
		return 1;
	return f->qemu_exit < 0 && f->chan_len == 0 && f->t_exit >= 0 &&
	       f->t_exit < 5000000000LL && f->err[0];
}

static const char *const panic_markers[] = { "Kernel panic", "BUG:", NULL };
static const char *const crng_done[] = { "crng init done", NULL };

/*
 * The latest guest time the boot's records name: what a boot killed at the
 * host timeout is known to have reached.
 */
static int64_t last_guest_ns(const struct row *r)
{
	const int64_t t[] = { r->init_ns,	 r->first_urandom_end_ns,
			      r->game_seeded_ns, r->userspace_ns,
			      r->finish_ns,	 r->report_ns };
	int64_t m = -1;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] > m)
			m = t[i];
	return m;
}

/*
 * Killed at the host timeout. Still waiting for entropy (the probe ran, the
 * kernel never said "crng init done") is a measurement, not a failure:
 * censored at T. Anything else that hangs is a timeout. T is the host
 * timeout where the guest's clock follows the host's (TCG, KVM: the
 * guest had about that long); under icount guest time is not host time
 * (an idle guest may run far ahead of the host or, on malta, far behind),
 * so the bound is the last guest time a record names: all that is known.
 */
static void timed_out(const struct boot_facts *f,
		      const struct report_outcome *o, struct row *r)
{
	const struct accel *acc = accel_find(r->axis[AX_accel]);
	const char *st = strstr(o->last, " start_ns=");
	int64_t start = -1;
	int guest_clock = acc && acc->icount;
	int64_t t = (int64_t)f->timeout_s * 1000000000;
	int waiting;

	/*
	 * The last record may be a read that never ended: its start counts,
	 * a number by the one integer rule (guest text: nothing lenient).
	 */
	if (st) {
		char v[24];
		size_t n;

		st += strlen(" start_ns=");
		n = strcspn(st, " ");
		snprintf(v, sizeof(v), "%.*s", (int)(n < sizeof(v) ? n : 0),
			 st);
		if (crb_parse_i64(v, &start))
			start = -1;
	}
	if (guest_clock) {
		t = last_guest_ns(r);
		if (start > t)
			t = start;
	}
	waiting = !console_line(f->dir, crng_done, NULL, 0) &&
		  (o->probe_complete || o->last[0]) && t >= 0;
	set_text(r->status, waiting ? "censored" : "timeout");
	set_text(r->reason, "%s after %d s%s (%s%s)",
		 waiting ? "not ready" : "no report", f->timeout_s,
		 guest_clock ? " of host time" : "",
		 o->last[0]	   ? "last record: " :
		 o->probe_complete ? "PID 1 probe done; the report never came" :
				     "nothing from the guest",
		 o->last);
	if (!waiting)
		return;
	r->crng_ready_censored = 1;
	r->crng_ready_bound_ns = t;
	if (r->first_urandom_end_ns < 0 &&
	    strstr(o->last, "reading iface=urandom ")) {
		r->first_urandom_censored = 1;
		r->first_urandom_end_ns = t;
		/* Under icount all that is known of its wait: since start. */
		r->first_urandom_dur_ns =
			guest_clock && start >= 0 ? t - start : t;
	}
}

void classify_boot(const struct boot_facts *f, struct row *r,
		   struct strbuf *reads, struct strbuf *traces)
{
	struct report_outcome o;
	char panic_line[300];

	report_parse(f->chan, f->chan_len, r, reads, traces, &o);
	r->host_first_byte_ns = f->t_first_byte;
	r->host_urandom_ns = f->t_urandom;
	r->host_report_ns = f->t_report;
	r->host_exit_ns = f->t_exit;
	if (f->perf)
		perf_numbers(f->dir, r);

	r->qemu_exit = f->qemu_exit;
	r->qemu_signal = f->qemu_signal > 0 ? f->qemu_signal : -1;
	r->host_ended = f->ended_after_report;

	if (f->chan_dropped) {
		set_text(r->status, "corrupt");
		set_text(
			r->reason,
			"result channel flooded: %zu bytes past the first %zu kept",
			f->chan_dropped, f->chan_len);
		reads->len = traces->len = 0;
	} else if (console_size(f->dir) >= (long long)VM_CONSOLE_MAX) {
		/* The runner ended the boot and cut the log at the cap. */
		set_text(r->status, "corrupt");
		set_text(
			r->reason,
			"console flooded: console.log reached its %u MiB cap (cut there)",
			VM_CONSOLE_MAX >> 20);
		reads->len = traces->len = 0;
	} else if (o.probe_complete && o.report_complete) {
		set_text(r->status, "ok");
		if (r->crng_ready_censored == 1)
			set_text(r->reason,
				 "CRNG not ready when the report ran%s%s",
				 o.pending[0] ? "; boot unfinished, waiting: " :
						"",
				 o.pending);
		else if (o.pending[0])
			set_text(r->reason,
				 "boot unfinished at report, waiting: %s",
				 o.pending);
		if (o.early_unfinished) {
			char note[160];

			set_text(
				note,
				"the early reads' child had not finished at the report%s%s",
				o.early_reading[0] ? ", still reading " : "",
				o.early_reading);
			add_reason(r, note);
		}
	} else if (o.guest_failed) {
		set_text(r->status, "guest-failed");
		set_text(r->reason, "%s", o.error);
	} else if (qemu_failed(f)) {
		set_text(r->status, "qemu-failed");
		if (f->qemu_signal > 0)
			set_text(r->reason,
				 "QEMU ended by signal %d (%s)%s%.*s",
				 f->qemu_signal, strsignal(f->qemu_signal),
				 f->err[0] ? ": " : "",
				 (int)strcspn(f->err, "\n"), f->err);
		else
			set_text(r->reason, "QEMU exited with status %d%s%.*s",
				 f->qemu_exit, f->err[0] ? ": " : "",
				 (int)strcspn(f->err, "\n"), f->err);
	} else if (console_line(f->dir, panic_markers, panic_line,
				sizeof(panic_line))) {
		set_text(r->status, "panic");
		set_text(r->reason, "%s", panic_line);
	} else if (console_size(f->dir) <= 0) {
		/*
		 * Every kernel prints its banner: an empty console log means
		 * QEMU could not write it (a full disk), so a panic or the
		 * kernel's "crng init done" would be invisible. Not a timeout.
		 */
		set_text(r->status, "corrupt");
		set_text(
			r->reason,
			"console.log is empty: QEMU could not write it (disk full?), so the boot cannot be classified%s",
			f->timed_out ? " (killed at the timeout)" : "");
		reads->len = traces->len = 0;
	} else if (f->timed_out) {
		timed_out(f, &o, r);
		/* Only verified segments gave data: the probe's, if complete. */
	} else {
		set_text(r->status, "corrupt");
		set_text(r->reason, "%s",
			 o.error[0] ? o.error :
				      "no report on the result channel");
		reads->len = traces->len = 0;
	}
	runner_stall(f->dir, r);
	row_derive(r);
}

/*
 * The first line of QEMU's stderr that is not a warning (QEMU warns of CPU
 * features the host lacks, and boots on) and, with errors_only, names an
 * error or a failure. 1 if there is one.
 */
static int stderr_line(const char *err, int errors_only, char *buf, size_t len)
{
	for (const char *p = err; *p;) {
		size_t n = strcspn(p, "\n");
		char line[300];

		text_printf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		if (!line[0] || strstr(line, "warning:") ||
		    (errors_only && !strcasestr(line, "error") &&
		     !strcasestr(line, "failed")))
			continue;
		text_printf(buf, len, "%s", line);
		return 1;
	}
	return 0;
}

void canary_reason(const char *err, int exited, int status, int canary_s,
		   int device_checked, char *buf, size_t len)
{
	char line[300] = "", warned[340] = "";
	const char *w = strstr(err, "warning: ");

	if (stderr_line(err, 1, line, sizeof(line))) {
		text_printf(buf, len, "KVM canary boot failed: QEMU said: %s",
			    line);
		return;
	}
	if (exited) {
		int said = stderr_line(err, 0, line, sizeof(line));

		if (WIFSIGNALED(status))
			text_printf(
				buf, len,
				"KVM canary boot failed: QEMU ended by signal %d (%s)%s%s",
				WTERMSIG(status), strsignal(WTERMSIG(status)),
				said ? ": " : "", line);
		else
			text_printf(
				buf, len,
				"KVM canary boot failed: QEMU exited with status %d%s%s",
				WEXITSTATUS(status), said ? ": " : "", line);
		return;
	}
	if (w)
		text_printf(warned, sizeof(warned), "; QEMU only warned: %.*s",
			    (int)strcspn(w + 9, "\n"), w + 9);
	text_printf(
		buf, len,
		"KVM canary boot made no progress: %s the guest printed nothing in %d s (nested or paravirtual KVM that cannot run a standard guest?)%s",
		device_checked ? "/dev/kvm passed its checks, but" :
				 "(/dev/kvm checks skipped)",
		canary_s, warned);
}
