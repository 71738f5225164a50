// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "sched.h"
#include "../matrix/context.h"
#include "../machines/accel.h"
#include "../machines/arch.h"
#include "../rows/classify.h"
#include "leftovers.h"
#include "../matrix/plan.h"
#include "progress.h"
#include "qemu.h"
#include "../results/grow.h"
#include "../results/results.h"
#include "slot.h"
#include "../summary/stop.h"
#include "../summary/summary.h"
#include "vm.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

volatile sig_atomic_t sched_interrupted;

/*
 * One sweep: the plan, where it is, and per accelerator what it ran (the
 * host time per accelerator, host_time.csv, and the progress line's ETA).
 */
struct sweep {
	const struct boot_plan *plan;
	size_t nplan, next, done, todo;
	long run_index;
	int64_t t0;
	int64_t tick; /* when the loop last came round */
	struct spans spans;
	size_t shown; /* the progress line's last length */
	int in_place; /* stderr a terminal: one line, rewritten ("\r") */
	char logged[200]; /* else: the boots done and cell last printed */
	struct stop_book book; /* the boots done per cell, and the stop rule */
};

/* Set when the runner is continued after a stop (SIGSTOP, Ctrl-Z). */
static volatile sig_atomic_t continued;

static void on_cont(int sig)
{
	(void)sig;
	continued = 1;
}

/*
 * How long the loop may take to come round: it polls for 100 ms at most,
 * then finishes and starts boots (a few file writes, a fork). Far beyond
 * that (STALL_NS), the runner was not running: stopped or starved. After a
 * stop (SIGCONT), a gap past the poll itself (STOP_NS) is the stop's.
 */
#define STALL_NS (2 * 1000000000LL)
#define STOP_NS (150 * 1000000LL)

/*
 * A runner that does not run cannot timestamp what arrives meanwhile: when
 * it resumes, what QEMU wrote during the gap gets the time of the resume,
 * and host_first_urandom, host_wall and the rest come out late. So the
 * loop watches its own pace on CLOCK_MONOTONIC, the clock host times are
 * taken on, which runs on while the runner is stopped or starved and QEMU,
 * a process of its own, runs on too. A gap far beyond the loop's own
 * period, or any stop that shows (the kernel sends SIGCONT on resuming a
 * stopped process; a SIGCONT without a stop leaves no gap), marks every
 * boot running across it. A suspend of the whole host stops
 * CLOCK_MONOTONIC, QEMU and the runner alike, and distorts nothing;
 * CLOCK_BOOTTIME, which counts it, would mark boots for nothing.
 */
static void note_stall(struct sweep *w, struct slot *slots)
{
	int64_t now = host_now_ns(), gap = now - w->tick;

	if (gap > STALL_NS || (continued && gap > STOP_NS))
		for (int j = 0; j < MAX_JOBS; j++) {
			struct slot *s = &slots[j];
			int64_t from = w->tick > s->vm.t_spawn ? w->tick :
								 s->vm.t_spawn;

			if (!s->busy)
				continue;
			if (s->stall_from < 0)
				s->stall_from = from - s->vm.t_spawn;
			s->stall_ns += now - from;
		}
	continued = 0;
	w->tick = now;
}

/* The running cell ("block tcg cpu=max") and how many run beside it. */
static int running_cell(const struct slot *slots, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	for (int j = MAX_JOBS - 1; j >= 0; j--) {
		const struct cell *c = &slots[j].cell;
		const struct arch *ar;

		if (!slots[j].busy)
			continue;
		ar = arch_find(c->v[AX_arch]);
		if (!n++)
			text_printf(buf, len, "%s %s cpu=%s%s%s",
				    c->v[AX_variant], c->v[AX_accel],
				    c->v[AX_cpu], ar && ar->x86 ? "" : " ",
				    ar && ar->x86 ? "" :
				    ar		  ? ar->name :
						    "");
	}
	return n;
}

/*
 * The progress line, each time a boot starts or ends: the cell running
 * (printed once the next boot has started, so a sweep of one boot at a time
 * names it too) and an ETA from each accelerator's own boots. On a
 * terminal one line, rewritten in place; elsewhere (a log file) a line of
 * its own each time the boots done or the cell running change, never a
 * "\r" (a log once held a sweep's progress as one line of 6 KB).
 */
static void progress(const struct run *r, struct sweep *w,
		     const struct slot *slots)
{
	char cell[160], line[320];
	double el = (double)(host_now_ns() - w->t0) / 1e9, eta;
	int n = running_cell(slots, cell, sizeof(cell));
	const char *unknown;
	size_t len;

	if (r->o.quiet || !n)
		return;
	if (!w->in_place) {
		char key[sizeof(w->logged)];

		text_printf(key, sizeof(key), "%zu %s", w->done, cell);
		if (!strcmp(key, w->logged))
			return;
		set_text(w->logged, "%s", key);
	}
	eta = progress_eta(&w->spans, &unknown);
	progress_format(line, sizeof(line), w->done, w->todo, cell, n - 1, el,
			eta, unknown);
	if (!w->in_place) {
		put_terminal_text(stderr, line);
		fputc('\n', stderr);
		return;
	}
	len = strlen(line);
	/* Spaces over what a longer line before left on the terminal. */
	/* the cell's name comes from a matrix: no escapes to the terminal */
	fputc('\r', stderr);
	put_terminal_text(stderr, line);
	fprintf(stderr, "%*s", w->shown > len ? (int)(w->shown - len) : 0, "");
	w->shown = len;
}

/* A KVM cell when KVM is unusable: a skipped row with the reason. */
static int skip_boot(struct run *r, struct sweep *w, const struct cell *c)
{
	struct row row;

	fill_row_axes(&row, &w->plan[w->next], c, w->run_index++);
	set_text(row.status, "skipped");
	set_text(row.reason, "KVM unusable: %s", r->kvm_why);
	w->done++;
	if (stop_book_add(&w->book, &row))
		return ERR(r, "out of memory");
	return results_commit(r, &row, NULL, NULL);
}

/*
 * May a boot of this accelerator start now? Boots whose guest time is free
 * of host load (icount) share the host, up to --parallel-jobs; any other
 * boot (TCG) runs only beside its own kind, up to --jobs, so no icount
 * boot's CPU use lands in a TCG boot's measurement.
 */
static int may_start(const struct run *r, const struct slot *slots,
		     const char *accel)
{
	int safe = accel_parallel_safe(accel), same = 0, other = 0;

	for (int j = 0; j < MAX_JOBS; j++)
		if (slots[j].busy) {
			if (accel_parallel_safe(slots[j].cell.v[AX_accel]) ==
			    safe)
				same++;
			else
				other++;
		}
	return !other && same < (safe ? r->o.par_jobs : r->o.jobs);
}

/*
 * Is the boot past its cell's stop (stop.h): 1 (not to start), 0, or -1
 * out of memory. The verdict rests on the cell's boots done, in rep order.
 */
static int past_stop(struct sweep *w, const struct boot_plan *p)
{
	int at, why = stop_book_cell(&w->book, p->cell, &at);

	return why < 0 ? -1 : why != STOP_NO && p->rep >= at;
}

/*
 * A boot of this cell just ended: if that stopped the cell, its boots not
 * started leave the count the ETA and the progress line go by.
 */
static int uncount_stopped(struct run *r, struct sweep *w, size_t cell)
{
	int at, why = stop_book_cell(&w->book, cell, &at);

	if (why <= STOP_NO)
		return why < 0 ? ERR(r, "out of memory") : 0;
	for (size_t i = w->next; i < w->nplan; i++) {
		const struct boot_plan *p = &w->plan[i];
		struct acc_span *sp;
		struct cell c;
		char id[32];
		int past;

		if (p->cell != cell)
			continue;
		boot_id(p, id, sizeof(id));
		past = past_stop(w, p);
		if (past < 0)
			return ERR(r, "out of memory");
		if (!past || results_is_done(r, id))
			continue;
		matrix_cell(&r->m, cell, &c);
		w->todo--;
		sp = span_of(&w->spans, accel_find(c.v[AX_accel])->name);
		if (sp && sp->todo)
			sp->todo--;
	}
	return 0;
}

/*
 * Start the next boot that needs starting in slot s, if the boots already
 * running allow it; boots start in plan order, so one that must wait holds
 * back the rest. *started is set when a boot started.
 */
static int fill_slot(struct run *r, struct sweep *w, struct slot *slots,
		     struct slot *s, int *started)
{
	while (w->next < w->nplan) {
		const struct boot_plan *p = &w->plan[w->next];
		const struct accel *acc;
		char id[32];
		struct cell c;

		boot_id(p, id, sizeof(id));
		matrix_cell(&r->m, p->cell, &c);
		acc = accel_find(c.v[AX_accel]);
		if (results_is_done(r, id) || past_stop(w, p) > 0) {
			w->next++;
		} else if (past_stop(w, p) < 0) {
			return ERR(r, "out of memory");
		} else if (acc && acc->needs_kvm && !r->kvm_ok) {
			struct acc_span *sp = span_of(&w->spans, acc->name);

			if (skip_boot(r, w, &c))
				return -1;
			if (sp)
				sp->skipped++;
			w->next++;
		} else if (!may_start(r, slots, c.v[AX_accel])) {
			return 0;
		} else {
			struct acc_span *sp = span_of(&w->spans, acc->name);

			if (sp && !sp->boots && !sp->first)
				sp->first = host_now_ns();
			*started = 1;
			return start_boot(r, s, w->plan, w->next++);
		}
	}
	return 0;
}

/* Finish every slot whose boot ended. */
static int reap_slots(struct run *r, struct sweep *w, struct slot *slots,
		      int *finished)
{
	for (int j = 0; j < MAX_JOBS; j++) {
		struct acc_span *sp;
		int timed_out;
		int64_t spawned = slots[j].vm.t_spawn;
		char id[32];
		size_t cell;
		struct row row;
		int was; /* the cell's verdict before this boot */

		if (!slots[j].busy || !boot_ended(&slots[j], &timed_out))
			continue;
		cell = w->plan[slots[j].plan_i].cell;
		boot_id(&w->plan[slots[j].plan_i], id, sizeof(id));
		if (finish_boot(r, &slots[j], w->plan, w->run_index++,
				timed_out, &row))
			return -1;
		was = w->book.why[cell];
		if (stop_book_add(&w->book, &row))
			return ERR(r, "out of memory");
		if (was == STOP_NO && uncount_stopped(r, w, cell))
			return -1;
		end_leftovers(r, slots, MAX_JOBS, id);
		sp = span_of(&w->spans,
			     accel_find(slots[j].cell.v[AX_accel])->name);
		if (sp) {
			sp->boots++;
			sp->last = host_now_ns();
			sp->boot_ns += sp->last - spawned;
		}
		w->done++;
		*finished = 1;
	}
	return 0;
}

/* What this invocation will boot, per accelerator, for the ETA. */
static void count_todo(struct run *r, struct sweep *w)
{
	for (size_t i = 0; i < w->nplan; i++) {
		const struct accel *acc;
		struct acc_span *sp;
		struct cell c;
		char id[32];

		boot_id(&w->plan[i], id, sizeof(id));
		if (results_is_done(r, id) || past_stop(w, &w->plan[i]) > 0)
			continue;
		w->todo++;
		matrix_cell(&r->m, w->plan[i].cell, &c);
		acc = accel_find(c.v[AX_accel]);
		if (!acc || (acc->needs_kvm && !r->kvm_ok) ||
		    !(sp = span_of(&w->spans, acc->name)))
			continue;
		sp->todo++;
		sp->at_once = acc->parallel_safe ? r->o.par_jobs : r->o.jobs;
	}
}

/*
 * The stop rule's book, with the boots a resumed run holds: its seed is
 * summary.csv's for CRNG ready, so the sweep and the summary judge alike.
 */
static int open_book(struct run *r, struct sweep *w)
{
	uint64_t seed = summary_measure_seed("crng_ready", r->o.seed);
	struct row *rows = NULL;
	size_t n = 0;
	int rc = 0;

	if (stop_book_init(&w->book, &r->m, seed))
		return ERR(r, "out of memory");
	if (!r->ndone)
		return 0;
	if (results_read_rows(r, &rows, &n))
		return -1;
	for (size_t i = 0; i < n && !rc; i++)
		if (stop_book_add(&w->book, &rows[i]))
			rc = ERR(r, "out of memory");
	free(rows);
	return rc;
}

int sched_run(struct run *r, const struct boot_plan *plan, size_t nplan)
{
	struct slot slots[MAX_JOBS];
	struct sweep w = { .plan = plan,
			   .nplan = nplan,
			   .run_index = (long)r->ndone,
			   .t0 = host_now_ns(),
			   .in_place = progress_in_place() };
	struct sigaction sa = { .sa_handler = on_cont, .sa_flags = SA_RESTART };
	int rc = 0;

	memset(slots, 0, sizeof(slots));
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCONT, &sa, NULL) || leftovers_adopt())
		return ERR(r, "cannot watch the sweep's processes: %s",
			   strerror(errno));
	if (open_book(r, &w)) {
		stop_book_free(&w.book);
		return -1;
	}
	count_todo(r, &w);
	w.tick = host_now_ns();
	while (!sched_interrupted && !rc) {
		int busy = 0, changed = 0;

		for (int j = 0; j < MAX_JOBS && !rc; j++)
			if (!slots[j].busy)
				rc = fill_slot(r, &w, slots, &slots[j],
					       &changed);
		for (int j = 0; j < MAX_JOBS; j++)
			busy += slots[j].busy;
		if (changed)
			progress(r, &w, slots);
		if (rc || (!busy && w.next >= nplan))
			break;
		pump(slots, MAX_JOBS, 100);
		note_stall(&w, slots);
		rc = reap_slots(r, &w, slots, &changed);
	}
	/* Every exit path: no QEMU outlives the sweep; rows only for finished boots. */
	kill_all(r, slots, MAX_JOBS);
	stop_book_free(&w.book);
	if (rc)
		return -1;
	if (sched_interrupted) {
		fprintf(stderr,
			"%s[bench] interrupted: %zu boots recorded; finish with --resume --out %s\n",
			w.in_place ? "\n" : "", w.done, r->out_dir);
		return 130;
	}
	if (!r->o.quiet)
		fprintf(stderr, "%s[bench] %zu/%zu boots done in %.0fs%*s\n",
			w.in_place ? "\r" : "", w.done, w.todo,
			(double)(host_now_ns() - w.t0) / 1e9,
			w.in_place ? (int)w.shown : 0, "");
	return spans_report(r, &w.spans) ? -1 : 0;
}

/* Will the sweep start this boot: 1, 0 (done, or past its cell's stop),
 * -1 out of memory. */
static int to_start(struct run *r, struct sweep *w, const struct boot_plan *p)
{
	char id[32];

	boot_id(p, id, sizeof(id));
	if (results_is_done(r, id))
		return 0;
	switch (past_stop(w, p)) {
	case 0:
		return 1;
	case 1:
		return 0;
	default:
		return ERR(r, "out of memory");
	}
}

/* The plan (w's) and, for each boot the sweep would start, its line. */
static int print_plan(struct run *r, struct sweep *w, FILE *out)
{
	const struct boot_plan *plan = w->plan;
	size_t nplan = w->nplan;
	char speeds[512];

	matrix_shift_speeds(&r->m, speeds, sizeof(speeds));
	if (out)
		fprintf(out,
			"matrix %s: %zu cells x %d reps = %zu boots (shard %d/%d: %zu), seed %" PRIu64
			", jobs %d (%d parallel-safe)%s%s\n",
			r->m.name, matrix_ncells(&r->m), r->m.reps,
			matrix_ncells(&r->m) * (size_t)r->m.reps, r->o.shard_k,
			r->o.shard_n, nplan, r->o.seed, r->o.jobs,
			r->o.par_jobs, speeds[0] ? "; " : "", speeds);
	if (out && r->o.resume) /* the counts of the sweep's first line */
		fprintf(out,
			"resume of %s: %zu boots (%zu already done), %zu to boot\n",
			r->out_dir, nplan, r->ndone, w->todo);
	if (out)
		fprintf(out,
			"stop rule: a cell takes %d to %d boots, stopping before %d when identical or precise to %d%% (--describe)\n",
			matrix_min_reps(&r->m), r->m.reps, r->m.reps,
			r->m.precision);
	for (size_t i = 0; i < nplan; i++) {
		struct slot s = { .busy = 0 };
		struct argv_buf a = { .n = 0 };
		char id[32], cmd[8192];
		int start = to_start(r, w, &plan[i]);

		if (start < 0)
			return -1;
		matrix_cell(&r->m, plan[i].cell, &s.cell);
		boot_id(&plan[i], id, sizeof(id));
		if (path_fmt(s.dir, sizeof(s.dir), "%s/boots/%s", r->out_dir,
			     id))
			return ERR(r, "path too long: %s", r->out_dir);
		make_seed(&s, 1);
		if (boot_argv(r, &s, &a))
			return -1;
		if (argv_join(&a, cmd, sizeof(cmd))) {
			argv_free(&a);
			return ERR(
				r,
				"the QEMU command line of %s is over %zu bytes",
				id, sizeof(cmd) - 1);
		}
		if (out && start)
			fprintf(out, "%s: %s\n", id, cmd);
		argv_free(&a);
	}
	return 0;
}

int sched_print_plan(struct run *r, const struct boot_plan *plan, size_t nplan,
		     FILE *out)
{
	struct sweep w = { .plan = plan, .nplan = nplan };
	int rc = open_book(r, &w);

	for (size_t i = 0; !rc && i < nplan; i++) {
		int start = to_start(r, &w, &plan[i]);

		if (start < 0)
			rc = -1;
		else
			w.todo += (size_t)start;
	}
	if (!rc)
		rc = print_plan(r, &w, out);
	stop_book_free(&w.book);
	return rc;
}

/* The matrix's first KVM cell, or -1 if it has none. */
static long first_kvm_cell(const struct run *r, struct cell *c)
{
	for (size_t i = 0; i < matrix_ncells(&r->m); i++) {
		const struct accel *acc;

		matrix_cell(&r->m, i, c);
		acc = accel_find(c->v[AX_accel]);
		if (acc && acc->needs_kvm && matrix_cell_planned(&r->m, c))
			return (long)i;
	}
	return -1;
}

int sched_kvm_canary(struct run *r)
{
	struct slot s = { .busy = 0 };
	struct argv_buf a = { .n = 0 };
	int64_t t = host_now_ns();
	int progress = 0, timed_out = 0;
	/* For tests/fast/fake_boots.sh: the canary boot alone decides. */
	int checked = !getenv("CRNGBENCH_SKIP_KVM_DEVICE_CHECK");

	r->kvm_ok = 1;
	if (first_kvm_cell(r, &s.cell) < 0)
		return 0;
	if (checked && kvm_device_check(r->kvm_why, sizeof(r->kvm_why),
					r->kvm_fix, sizeof(r->kvm_fix))) {
		r->kvm_ok = 0;
		goto said;
	}
	if (leftovers_adopt())
		return ERR(r, "prctl(PR_SET_CHILD_SUBREAPER): %s",
			   strerror(errno));
	fprintf(stderr, "[bench] checking KVM (canary boot, up to %d s)...\n",
		r->o.canary_s);
	if (path_fmt(s.dir, sizeof(s.dir), "%s/kvm-canary", r->out_dir) ||
	    path_fmt(s.console, sizeof(s.console), "%s/console.log", s.dir) ||
	    fresh_dir(s.dir))
		return ERR(r, "cannot create %s/kvm-canary: %s", r->out_dir,
			   strerror(errno));
	if (boot_argv(r, &s, &a))
		return -1;
	if (vm_spawn(&s.vm, &a)) {
		argv_free(&a);
		return ERR(r, "cannot start QEMU: %s", strerror(errno));
	}
	argv_free(&a);
	s.busy = 1;
	s.deadline = s.vm.t_spawn + (int64_t)r->o.canary_s * 1000000000;
	while (!progress && !boot_ended(&s, &timed_out)) {
		pump(&s, 1, 200);
		progress = s.vm.t_first_byte >= 0 && s.vm.chan_len &&
			   memmem(s.vm.chan, s.vm.chan_len, "seg=probe", 9);
		if (strstr(s.vm.err, "internal error") ||
		    strstr(s.vm.err, "KVM: entry failed"))
			break;
	}
	vm_kill(&s.vm);
	if (!progress) {
		r->kvm_ok = 0;
		canary_reason(s.vm.err, s.vm.exited && !s.vm.killed,
			      s.vm.status, r->o.canary_s, checked, r->kvm_why,
			      sizeof(r->kvm_why));
		kvm_remedy(KVM_CANARY, 0, NULL, NULL, r->kvm_fix,
			   sizeof(r->kvm_fix));
	}
	vm_free(&s.vm);
	end_leftovers(r, &s, 0, "the KVM canary");
said:
	if (r->kvm_ok)
		fprintf(stderr, "[bench] KVM usable (%.1f s)\n",
			(double)(host_now_ns() - t) / 1e9);
	else {
		/* the reason may quote QEMU's stderr */
		fputs("[bench] KVM cells will be SKIPPED: ", stderr);
		put_terminal_text(stderr, r->kvm_why);
		fprintf(stderr,
			" (decided in %.1f s)\n[bench] to measure them: %s (docs/compare-accels.md)\n",
			(double)(host_now_ns() - t) / 1e9, r->kvm_fix);
	}
	return 0;
}
