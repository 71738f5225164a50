// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "slot.h"
#include "../matrix/context.h"
#include "../machines/accel.h"
#include "../machines/arch.h"
#include "../rows/classify.h"
#include "../results/inputs.h"
#include "leftovers.h"
#include "../matrix/plan.h"
#include "progress.h"
#include "qemu.h"
#include "../results/results.h"
#include "vm.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A saved seed for seed=saved cells: fresh random bytes per boot. */
int make_seed(struct slot *s, int dry_run)
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
int boot_argv(struct run *r, struct slot *s, struct argv_buf *a)
{
	char kernel[PATH_MAX], console[PATH_MAX], perf[PATH_MAX],
		image[PATH_MAX], dtb[PATH_MAX], icount[2 * MAX_VALUE_LEN];
	const struct arch *ar = arch_find(s->cell.v[AX_arch]);
	struct kernel_ref k;
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
		/* The cell's shift in -icount and the guest's TSC hint. */
		.icount = icount,
		.icount_shift = matrix_cell_shift(&r->m, s->cell.v[AX_shift]),
		.append = r->o.append,
		.qemu_args = r->o.qemu_args,
	};

	if (!ar)
		return ERR(r, "arch=%s: accepted values are %s",
			   s->cell.v[AX_arch], arch_list());
	if (matrix_icount_option(&r->m, bp.icount_shift, icount,
				 sizeof(icount)))
		return ERR(r, "icount=%s with shift=%d: too long", r->m.icount,
			   bp.icount_shift);
	cell_kernel(&s->cell, &k);
	if (kernel_file(r, &k, NULL, kernel, sizeof(kernel)) ||
	    (ar->dtb && kernel_file(r, &k, ar->dtb, dtb, sizeof(dtb))) ||
	    guest_image(r, ar->name, image, sizeof(image)) ||
	    path_fmt(console, sizeof(console), "%s/console.log", s->dir) ||
	    path_fmt(perf, sizeof(perf), "%s/perf.csv", s->dir))
		return ERR(r, "path too long under %s", s->dir);
	bp.dtb = ar->dtb ? dtb : NULL;
	bp.seed_hex = s->seed_hex[0] ? s->seed_hex : NULL;
	bp.perf_out = r->o.perf ? perf : NULL;
	return qemu_build_argv(&s->cell, &bp, a, r->err, sizeof(r->err));
}

/*
 * The boot's inputs that differ from boot to boot, for the stop rule
 * (stop.h): under rtc=host the wall-clock second QEMU starts in (QEMU
 * takes its RTC's date from the host's clock as it starts), and the first
 * 15 hex digits of seed=saved's seed.
 */
static void record_inputs(struct slot *s)
{
	struct timespec ts;

	s->input_rtc_s = -1;
	s->input_seed = -1;
	if (!strcmp(s->cell.v[AX_rtc], "host") &&
	    !clock_gettime(CLOCK_REALTIME, &ts))
		s->input_rtc_s = (int64_t)ts.tv_sec;
	if (s->seed_hex[0]) {
		char head[16];

		memcpy(head, s->seed_hex, sizeof(head) - 1);
		head[sizeof(head) - 1] = '\0';
		s->input_seed = (int64_t)strtoll(head, NULL, 16);
	}
}

/* Create boots/<id>, write its cmd, start QEMU. */
int start_boot(struct run *r, struct slot *s, const struct boot_plan *plan,
	       size_t i)
{
	struct argv_buf a = { .n = 0 };
	char id[32], path[PATH_MAX], cmd[8192];
	size_t len;

	s->plan_i = i;
	matrix_cell(&r->m, plan[i].cell, &s->cell);
	boot_id(&plan[i], id, sizeof(id));
	/* A fresh boots/<id>: nothing of an earlier try, and no link planted
	 * there (QEMU's -chardev file would open it). */
	if (path_fmt(s->dir, sizeof(s->dir), "%s/boots/%s", r->out_dir, id) ||
	    path_fmt(s->console, sizeof(s->console), "%s/console.log",
		     s->dir) ||
	    fresh_dir(s->dir))
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
	record_inputs(s);
	if (vm_spawn(&s->vm, &a)) {
		argv_free(&a);
		return ERR(r, "cannot start QEMU: %s", strerror(errno));
	}
	argv_free(&a);
	s->deadline =
		s->vm.t_spawn + (int64_t)matrix_setting(&r->m, SET_timeout,
							s->cell.v[AX_accel]) *
					1000000000;
	s->stall_from = -1;
	s->stall_ns = 0;
	s->busy = 1;
	return 0;
}

void fill_row_axes(struct row *row, const struct boot_plan *p,
		   const struct cell *c, long run_index)
{
	row_init(row);
	boot_id(p, row->boot_id, sizeof(row->boot_id));
	row->run_index = run_index;
	row->cell = (long)p->cell;
	row->rep = p->rep;
	row_set_axes(row, c);
}

/* console.log beyond its cap: QEMU writes it, the runner only watches. */
static int console_flooded(const struct slot *s)
{
	struct stat st;

	return !stat(s->console, &st) && st.st_size > (off_t)VM_CONSOLE_MAX;
}

/*
 * The runner's stall during the boot, for classify (RUNNER_STALL_FILE);
 * none: no such file (not even one from an earlier try of this boot).
 */
static int write_stall(const struct slot *s)
{
	char path[PATH_MAX], buf[96];
	int n = snprintf(buf, sizeof(buf), "%" PRId64 " %" PRId64 "\n",
			 s->stall_ns, s->stall_from);

	if (path_fmt(path, sizeof(path), "%s/" RUNNER_STALL_FILE, s->dir))
		return -1;
	if (!s->stall_ns)
		return unlink(path) && errno != ENOENT ? -1 : 0;
	return write_file_atomic(path, buf, (size_t)n);
}

/* Keep the boot's files, classify it, commit its row (files first). */
int finish_boot(struct run *r, struct slot *s, const struct boot_plan *plan,
		long run_index, int timed_out, struct row *done)
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

	/* A flooded console.log is cut at the cap (classify says so). */
	if (console_flooded(s) && truncate(s->console, (off_t)VM_CONSOLE_MAX))
		rc = ERR(r, "cannot cut %s: %s", s->console, strerror(errno));
	else if (write_stall(s))
		rc = ERR(r, "cannot write %s/" RUNNER_STALL_FILE ": %s", s->dir,
			 strerror(errno));
	else if (path_fmt(path, sizeof(path), "%s/result.log", s->dir) ||
		 write_file_atomic(path, f.chan, f.chan_len) ||
		 (s->vm.err_len &&
		  (path_fmt(path, sizeof(path), "%s/qemu-stderr.log", s->dir) ||
		   write_file_atomic(path, s->vm.err, s->vm.err_len))))
		rc = ERR(r, "cannot write %s: %s", path, strerror(errno));
	if (!rc) {
		fill_row_axes(&row, &plan[s->plan_i], &s->cell, run_index);
		classify_boot(&f, &row, &reads, &traces);
		row.input_rtc_s = s->input_rtc_s;
		row.input_seed = s->input_seed;
		if (done)
			*done = row;
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
void pump(struct slot *slots, int n, int timeout_ms)
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

/*
 * How long the pipes may stay open once QEMU has exited: what QEMU wrote is
 * in them already, so only something else holding them (a daemon in a
 * session of its own) keeps them open longer. The boot then ends as QEMU
 * did, not at its deadline.
 */
#define EXIT_GRACE_NS (2 * 1000000000LL)

/* Has the boot in s ended? Kills it at its deadline (timed_out = 1). */
int boot_ended(struct slot *s, int *timed_out)
{
	const struct arch *ar = arch_find(s->cell.v[AX_arch]);
	int64_t grace = ar && ar->halts ? 0 : REPORT_GRACE_NS;
	int64_t now;

	*timed_out = 0;
	if (vm_done(&s->vm))
		return 1;
	now = host_now_ns();
	if (s->vm.exited) {
		if (now - s->vm.t_spawn - s->vm.t_exit < EXIT_GRACE_NS)
			return 0;
		vm_kill(&s->vm); /* takes what is in the pipes, closes them */
		return 1;
	}
	if (console_flooded(s)) {
		vm_kill(&s->vm);
		return 1;
	}
	if (s->vm.t_report_end >= 0 &&
	    now - s->vm.t_spawn > s->vm.t_report_end + grace) {
		vm_kill(&s->vm);
		s->vm.ended_after_report = 1;
		return 1;
	}
	if (now < s->deadline)
		return 0;
	*timed_out = 1;
	vm_kill(&s->vm);
	return 1;
}

/*
 * End what the boot's QEMU left outside its process group (leftovers.h),
 * keeping what belongs to boots still running; say what was ended.
 */
void end_leftovers(const struct run *r, const struct slot *slots, int n,
		   const char *after)
{
	struct keep k = { .npid = 0 };
	char what[512];

	for (int j = 0; j < n; j++)
		if (slots[j].busy)
			keep_boot(&k, slots[j].vm.pid, slots[j].vm.out_fd,
				  slots[j].vm.err_fd);
	if (leftovers_end(&k, what, sizeof(what))) {
		/* process names are anyone's text: no escapes */
		fprintf(stderr, "%s[bench] warning: after %s: ended ",
			r->o.quiet || !progress_in_place() ? "" : "\r", after);
		put_terminal_text(stderr, what);
		fputs(", which outlived QEMU in a session of its own (out of its process group's reach)\n",
		      stderr);
	}
}

void kill_all(const struct run *r, struct slot *slots, int n)
{
	for (int j = 0; j < n; j++)
		if (slots[j].busy) {
			vm_kill(&slots[j].vm);
			vm_free(&slots[j].vm);
			slots[j].busy = 0;
		}
	end_leftovers(r, slots, n, "the sweep");
}
