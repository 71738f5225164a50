// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "sched.h"
#include "accel.h"
#include "arch.h"
#include "classify.h"
#include "qemu.h"
#include "results.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t sched_interrupted;

struct slot {
	int busy;
	size_t plan_i;
	struct cell cell;
	struct vm vm;
	int64_t deadline;
	char dir[PATH_MAX];
	char seed_hex[80];
};

void boot_id(const struct boot_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "c%zu-r%d", p->cell, p->rep);
}

/* A saved seed for seed=saved cells: fresh random bytes per boot. */
static int make_seed(struct slot *s, int dry_run)
{
	unsigned char b[32];

	s->seed_hex[0] = '\0';
	if (strcmp(s->cell.v[AX_seed], "saved"))
		return 0;
	if (dry_run) {
		snprintf(s->seed_hex, sizeof(s->seed_hex),
			 "<32 random bytes per boot>");
		return 0;
	}
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return -1;
	for (size_t i = 0; i < sizeof(b); i++)
		sprintf(s->seed_hex + 2 * i, "%02x", b[i]);
	return 0;
}

/*
 * The QEMU command line of the boot in s (cell and dir set): the one place
 * a boot's parameters are put together, for boots, the dry run and the
 * canary alike.
 */
static int boot_argv(struct run *r, struct slot *s, struct argv_buf *a)
{
	char kernel[PATH_MAX], console[PATH_MAX], perf[PATH_MAX],
		image[PATH_MAX], dtb[PATH_MAX];
	const struct arch *ar = arch_find(s->cell.v[AX_arch]);
	struct boot_params bp = {
		.qemu = r->o.qemu,
		.kernel = kernel,
		.image = image,
		.console_path = console,
		.tsc_khz = r->tsc_khz,
		.read_timeout_s = matrix_setting(&r->m, SET_read_timeout,
						 s->cell.v[AX_accel]),
		.ready_timeout_s = matrix_setting(&r->m, SET_ready_timeout,
						  s->cell.v[AX_accel]),
		.icount = r->m.icount,
		.icount_shift = matrix_icount_shift(&r->m),
		.append = r->o.append,
		.qemu_args = r->o.qemu_args,
	};

	if (!ar)
		return ERR(r, "arch=%s: accepted values are %s",
			   s->cell.v[AX_arch], arch_list());
	if (kernel_file(r->kernels_dir, ar->name, s->cell.v[AX_variant],
			s->cell.v[AX_hz], NULL, kernel, sizeof(kernel)) ||
	    (ar->dtb &&
	     kernel_file(r->kernels_dir, ar->name, s->cell.v[AX_variant],
			 s->cell.v[AX_hz], ar->dtb, dtb, sizeof(dtb))) ||
	    guest_image(r, ar->name, image, sizeof(image)) ||
	    path_fmt(console, sizeof(console), "%s/console.log", s->dir) ||
	    path_fmt(perf, sizeof(perf), "%s/perf.csv", s->dir))
		return ERR(r, "path too long under %s", s->dir);
	bp.dtb = ar->dtb ? dtb : NULL;
	bp.seed_hex = s->seed_hex[0] ? s->seed_hex : NULL;
	bp.perf_out = r->o.perf ? perf : NULL;
	return qemu_build_argv(&s->cell, &bp, a, r->err, sizeof(r->err));
}

/* Create boots/<id>, write its cmd, start QEMU. */
static int start_boot(struct run *r, struct slot *s,
		      const struct boot_plan *plan, size_t i)
{
	struct argv_buf a = { .n = 0 };
	char id[32], path[PATH_MAX], cmd[8192];
	size_t len;

	s->plan_i = i;
	matrix_cell(&r->m, plan[i].cell, &s->cell);
	boot_id(&plan[i], id, sizeof(id));
	if (path_fmt(s->dir, sizeof(s->dir), "%s/boots/%s", r->out_dir, id) ||
	    (mkdir(s->dir, 0755) && errno != EEXIST))
		return ERR(r, "cannot create %s: %s", s->dir, strerror(errno));
	if (make_seed(s, 0))
		return ERR(r, "getrandom: %s", strerror(errno));
	if (boot_argv(r, s, &a))
		return -1;
	if (argv_join(&a, cmd, sizeof(cmd) - 1)) {
		argv_free(&a);
		return ERR(r, "the QEMU command line of %s is over %zu bytes",
			   id, sizeof(cmd) - 2);
	}
	len = strlen(cmd);
	cmd[len++] = '\n';
	if (path_fmt(path, sizeof(path), "%s/cmd", s->dir) ||
	    write_file_atomic(path, cmd, len)) {
		argv_free(&a);
		return ERR(r, "cannot write %s/cmd: %s", s->dir,
			   strerror(errno));
	}
	if (vm_spawn(&s->vm, &a)) {
		argv_free(&a);
		return ERR(r, "cannot start QEMU: %s", strerror(errno));
	}
	argv_free(&a);
	s->deadline =
		s->vm.t_spawn + (int64_t)matrix_setting(&r->m, SET_timeout,
							s->cell.v[AX_accel]) *
					1000000000;
	s->busy = 1;
	return 0;
}

static void fill_row_axes(struct row *row, const struct boot_plan *p,
			  const struct cell *c, long run_index)
{
	row_init(row);
	boot_id(p, row->boot_id, sizeof(row->boot_id));
	row->run_index = run_index;
	row->cell = (long)p->cell;
	row->rep = p->rep;
	for (int a = 0; a < AX_N; a++)
		set_text(row->axis[a], "%s", c->v[a]);
	/* Recorded as the guest got it, not as "auto"; the probe-only
	 * machines tick with their own timer (clocksource says which). */
	set_text(row->axis[AX_timer], "%s",
		 arch_find(c->v[AX_arch]) && !arch_find(c->v[AX_arch])->x86 ?
			 "machine" :
			 accel_timer(c->v[AX_accel], c->v[AX_timer]));
}

/* Keep the boot's files, classify it, commit its row (files first). */
static int finish_boot(struct run *r, struct slot *s,
		       const struct boot_plan *plan, long run_index,
		       int timed_out)
{
	struct row row;
	struct strbuf reads = { 0 }, traces = { 0 };
	int st = s->vm.status;
	struct boot_facts f = {
		.dir = s->dir,
		.chan = s->vm.chan ? s->vm.chan : "",
		.chan_len = s->vm.chan_len,
		.chan_dropped = s->vm.chan_dropped,
		.err = s->vm.err_len ? s->vm.err : "",
		.timed_out = timed_out,
		.timeout_s =
			matrix_setting(&r->m, SET_timeout, s->cell.v[AX_accel]),
		.perf = r->o.perf,
		.t_first_byte = s->vm.t_first_byte,
		.t_urandom = s->vm.t_urandom,
		.t_report = s->vm.t_report,
		.t_exit = s->vm.t_exit,
		.qemu_exit = WIFEXITED(st) ? WEXITSTATUS(st) : -1,
		.qemu_signal = WIFSIGNALED(st) && !s->vm.killed ? WTERMSIG(st) :
								  0,
		.ended_after_report = s->vm.ended_after_report,
	};
	char path[PATH_MAX];
	int rc = 0;

	if (path_fmt(path, sizeof(path), "%s/result.log", s->dir) ||
	    write_file_atomic(path, f.chan, f.chan_len) ||
	    (s->vm.err_len &&
	     (path_fmt(path, sizeof(path), "%s/qemu-stderr.log", s->dir) ||
	      write_file_atomic(path, s->vm.err, s->vm.err_len))))
		rc = ERR(r, "cannot write %s: %s", path, strerror(errno));
	if (!rc) {
		fill_row_axes(&row, &plan[s->plan_i], &s->cell, run_index);
		classify_boot(&f, &row, &reads, &traces);
		rc = reads.oom || traces.oom ?
			     ERR(r, "out of memory for the reads of %s",
				 row.boot_id) :
			     results_commit(r, &row, &reads, &traces);
	}
	sb_free(&reads);
	sb_free(&traces);
	vm_free(&s->vm);
	s->busy = 0;
	return rc;
}

/*
 * Wait up to timeout_ms for output of any busy slot and read it. The one
 * poll loop body, shared by the sweep and the canary.
 */
static void pump(struct slot *slots, int n, int timeout_ms)
{
	struct pollfd pf[2 * MAX_JOBS];
	int owner[2 * MAX_JOBS], k = 0;

	for (int j = 0; j < n; j++) {
		if (!slots[j].busy)
			continue;
		if (slots[j].vm.out_fd >= 0) {
			pf[k] = (struct pollfd){ .fd = slots[j].vm.out_fd,
						 .events = POLLIN };
			owner[k++] = j;
		}
		if (slots[j].vm.err_fd >= 0) {
			pf[k] = (struct pollfd){ .fd = slots[j].vm.err_fd,
						 .events = POLLIN };
			owner[k++] = j;
		}
	}
	if (!k) {
		usleep((useconds_t)timeout_ms * 1000);
		return;
	}
	if (poll(pf, (nfds_t)k, timeout_ms) > 0)
		for (int i = 0; i < k; i++)
			if (pf[i].revents)
				vm_read(&slots[owner[i]].vm, pf[i].fd);
}

/*
 * How long QEMU may run on after the report's terminator: the guest
 * reboots at once (-no-reboot ends QEMU), but a machine that halts instead
 * would run to the timeout with its measurement already complete. One known
 * to halt (struct arch's halts) is ended at once.
 */
#define REPORT_GRACE_NS (10 * 1000000000LL)

/* Has the boot in s ended? Kills it at its deadline (timed_out = 1). */
static int boot_ended(struct slot *s, int *timed_out)
{
	const struct arch *ar = arch_find(s->cell.v[AX_arch]);
	int64_t grace = ar && ar->halts ? 0 : REPORT_GRACE_NS;

	*timed_out = 0;
	if (vm_done(&s->vm))
		return 1;
	if (s->vm.t_report_end >= 0 &&
	    host_now_ns() - s->vm.t_spawn > s->vm.t_report_end + grace) {
		vm_kill(&s->vm);
		s->vm.ended_after_report = 1;
		return 1;
	}
	if (host_now_ns() < s->deadline)
		return 0;
	*timed_out = 1;
	vm_kill(&s->vm);
	return 1;
}

static void kill_all(struct slot *slots, int n)
{
	for (int j = 0; j < n; j++)
		if (slots[j].busy) {
			vm_kill(&slots[j].vm);
			vm_free(&slots[j].vm);
			slots[j].busy = 0;
		}
}

/* Host time per accelerator in this invocation: first start to last end
 * (icount boots run first, so the spans do not overlap). */
struct acc_span {
	const char *accel;
	int64_t first, last;
	size_t boots, skipped;
};

#define MAX_SPANS 8

struct sweep {
	const struct boot_plan *plan;
	size_t nplan, next, done, todo;
	long run_index;
	int64_t t0;
	struct acc_span span[MAX_SPANS];
	int nspan;
};

static struct acc_span *span_of(struct sweep *w, const char *accel)
{
	for (int i = 0; i < w->nspan; i++)
		if (!strcmp(w->span[i].accel, accel))
			return &w->span[i];
	if (w->nspan == MAX_SPANS)
		return NULL;
	w->span[w->nspan] = (struct acc_span){ .accel = accel };
	return &w->span[w->nspan++];
}

/* "[bench] host time: icount 140.2 s (160 boots), ..." and host_time.csv. */
static int report_spans(struct run *r, const struct sweep *w)
{
	char csv[1024], line[1024];
	size_t len = 0, ll = 0;

	len += (size_t)snprintf(csv, sizeof(csv),
				"accel,boots,skipped,host_s\n");
	ll += (size_t)snprintf(line, sizeof(line),
			       "[bench] host time by accelerator:");
	for (int i = 0; i < w->nspan && len < sizeof(csv) && ll < sizeof(line);
	     i++) {
		const struct acc_span *sp = &w->span[i];
		double s = sp->boots ? (double)(sp->last - sp->first) / 1e9 : 0;

		len += (size_t)snprintf(csv + len, sizeof(csv) - len,
					"%s,%zu,%zu,%.1f\n", sp->accel,
					sp->boots, sp->skipped, s);
		ll += (size_t)snprintf(line + ll, sizeof(line) - ll,
				       "%s %s %.1f s (%zu boots", i ? "," : "",
				       sp->accel, s, sp->boots);
		if (sp->skipped && ll < sizeof(line))
			ll += (size_t)snprintf(line + ll, sizeof(line) - ll,
					       ", %zu skipped", sp->skipped);
		if (ll < sizeof(line))
			ll += (size_t)snprintf(line + ll, sizeof(line) - ll,
					       ")");
	}
	if (len >= sizeof(csv) || ll >= sizeof(line))
		return ERR(r, "host time summary too long");
	if (!r->o.quiet)
		fprintf(stderr, "%s\n", line);
	return results_write_out(r, "host_time.csv", csv, len);
}

static void progress(const struct run *r, const struct sweep *w,
		     const struct slot *slots)
{
	double el = (double)(host_now_ns() - w->t0) / 1e9,
	       eta = w->done ? el / (double)w->done *
				       (double)(w->todo - w->done) :
			       0;
	char cur[160] = "";

	if (r->o.quiet)
		return;
	for (int j = 0; j < MAX_JOBS; j++)
		if (slots[j].busy) {
			set_text(cur, "%s %s cpu=%s",
				 slots[j].cell.v[AX_variant],
				 slots[j].cell.v[AX_accel],
				 slots[j].cell.v[AX_cpu]);
			break;
		}
	fprintf(stderr,
		"\r[bench] %zu/%zu boots  %-40.40s  elapsed %.0fs  eta %.0fs ",
		w->done, w->todo, cur, el, eta);
}

/* A KVM cell when KVM is unusable: a skipped row with the reason. */
static int skip_boot(struct run *r, struct sweep *w, const struct cell *c)
{
	struct row row;

	fill_row_axes(&row, &w->plan[w->next], c, w->run_index++);
	set_text(row.status, "skipped");
	set_text(row.reason, "KVM unusable: %s", r->kvm_why);
	w->done++;
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
 * Start the next boot that needs starting in slot s, if the boots already
 * running allow it; boots start in plan order, so one that must wait holds
 * back the rest.
 */
static int fill_slot(struct run *r, struct sweep *w, struct slot *slots,
		     struct slot *s)
{
	while (w->next < w->nplan) {
		const struct boot_plan *p = &w->plan[w->next];
		const struct accel *acc;
		char id[32];
		struct cell c;

		boot_id(p, id, sizeof(id));
		matrix_cell(&r->m, p->cell, &c);
		acc = accel_find(c.v[AX_accel]);
		if (results_is_done(r, id)) {
			w->next++;
		} else if (acc && acc->needs_kvm && !r->kvm_ok) {
			struct acc_span *sp = span_of(w, acc->name);

			if (skip_boot(r, w, &c))
				return -1;
			if (sp)
				sp->skipped++;
			w->next++;
		} else if (!may_start(r, slots, c.v[AX_accel])) {
			return 0;
		} else {
			struct acc_span *sp = span_of(w, acc->name);

			if (sp && !sp->boots && !sp->first)
				sp->first = host_now_ns();
			return start_boot(r, s, w->plan, w->next++);
		}
	}
	return 0;
}

/* Finish every slot whose boot ended. */
static int reap_slots(struct run *r, struct sweep *w, struct slot *slots)
{
	for (int j = 0; j < MAX_JOBS; j++) {
		int timed_out;

		if (!slots[j].busy || !boot_ended(&slots[j], &timed_out))
			continue;
		if (finish_boot(r, &slots[j], w->plan, w->run_index++,
				timed_out))
			return -1;
		{
			struct acc_span *sp = span_of(
				w, accel_find(slots[j].cell.v[AX_accel])->name);

			if (sp) {
				sp->boots++;
				sp->last = host_now_ns();
			}
		}
		w->done++;
		progress(r, w, slots);
	}
	return 0;
}

int sched_run(struct run *r, const struct boot_plan *plan, size_t nplan)
{
	struct slot slots[MAX_JOBS];
	struct sweep w = { .plan = plan,
			   .nplan = nplan,
			   .run_index = (long)r->ndone,
			   .t0 = host_now_ns() };
	int rc = 0;

	memset(slots, 0, sizeof(slots));
	for (size_t i = 0; i < nplan; i++) {
		char id[32];

		boot_id(&plan[i], id, sizeof(id));
		w.todo += !results_is_done(r, id);
	}
	while (!sched_interrupted && !rc) {
		int busy = 0;

		for (int j = 0; j < MAX_JOBS && !rc; j++)
			if (!slots[j].busy)
				rc = fill_slot(r, &w, slots, &slots[j]);
		for (int j = 0; j < MAX_JOBS; j++)
			busy += slots[j].busy;
		if (rc || (!busy && w.next >= nplan))
			break;
		pump(slots, MAX_JOBS, 100);
		rc = reap_slots(r, &w, slots);
	}
	/* Every exit path: no QEMU outlives the sweep; rows only for finished boots. */
	kill_all(slots, MAX_JOBS);
	if (rc)
		return -1;
	if (sched_interrupted) {
		fprintf(stderr,
			"\n[bench] interrupted: %zu boots recorded; finish with --resume --out %s\n",
			w.done, r->out_dir);
		return 130;
	}
	if (!r->o.quiet)
		fputc('\n', stderr);
	return report_spans(r, &w) ? -1 : 0;
}

int sched_print_plan(struct run *r, const struct boot_plan *plan, size_t nplan,
		     FILE *out)
{
	if (out)
		fprintf(out,
			"matrix %s: %zu cells x %d reps = %zu boots (shard %d/%d: %zu), seed %" PRIu64
			", jobs %d (%d parallel-safe)\n",
			r->m.name, matrix_ncells(&r->m), r->m.reps,
			matrix_ncells(&r->m) * (size_t)r->m.reps, r->o.shard_k,
			r->o.shard_n, nplan, r->o.seed, r->o.jobs,
			r->o.par_jobs);
	for (size_t i = 0; i < nplan; i++) {
		struct slot s = { .busy = 0 };
		struct argv_buf a = { .n = 0 };
		char id[32], cmd[8192];

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
		if (out)
			fprintf(out, "%s: %s\n", id, cmd);
		argv_free(&a);
	}
	return 0;
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
	/* For tests/fake_boots.sh: the canary boot alone decides. */
	int checked = !getenv("CRNGBENCH_SKIP_KVM_DEVICE_CHECK");

	r->kvm_ok = 1;
	if (first_kvm_cell(r, &s.cell) < 0)
		return 0;
	if (checked && kvm_device_check(r->kvm_why, sizeof(r->kvm_why))) {
		r->kvm_ok = 0;
		goto said;
	}
	fprintf(stderr, "[bench] checking KVM (canary boot, up to %d s)...\n",
		r->o.canary_s);
	if (path_fmt(s.dir, sizeof(s.dir), "%s/kvm-canary", r->out_dir) ||
	    (mkdir(s.dir, 0755) && errno != EEXIST))
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
	}
	vm_free(&s.vm);
said:
	if (r->kvm_ok)
		fprintf(stderr, "[bench] KVM usable (%.1f s)\n",
			(double)(host_now_ns() - t) / 1e9);
	else
		fprintf(stderr,
			"[bench] KVM cells will be SKIPPED: %s (decided in %.1f s)\n",
			r->kvm_why, (double)(host_now_ns() - t) / 1e9);
	return 0;
}
