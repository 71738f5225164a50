// SPDX-License-Identifier: GPL-2.0
/*
 * crngbench-run: boot the experiment matrix under QEMU, one QEMU per boot,
 * and turn boots into raw data and summary statistics.
 *
 * main() reads as the job: parse the options (options.c), pick the mode,
 * and for a sweep check everything that can be checked before the first
 * boot (the matrix, each kernel, the image, QEMU and every -cpu spelling,
 * the results directory, KVM), then schedule the boots and summarize. The
 * parts: results.c (the directory's contract), sched.c (boots and the poll
 * loop), qemu.c and vm.c (one QEMU), classify.c/report.c (a boot's row),
 * summary.c (the statistics). Only this file exits.
 */
#define _GNU_SOURCE
#include "machines/accel.h"
#include "machines/arch.h"
#include "results/grow.h"
#include "results/inputs.h"
#include "matrix/matrixcheck.h"
#include "matrix/matrixfile.h"
#include "merge/merge.h"
#include "options.h"
#include "results/outdir.h"
#include "matrix/plan.h"
#include "boot/qemu.h"
#include "results/rescan.h"
#include "results/results.h"
#include "rows/row.h"
#include "results/runargs.h"
#include "boot/sched.h"
#include "summary/stop.h"
#include "summary/summary.h"
#include "machines/table.h"
#include "../guest-image/record.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;

	/* the message may quote a hostile raw.csv or matrix: no escapes */
	fputs("crngbench-run: error: ", stderr);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	put_terminal_text(stderr, msg ? msg : fmt);
	free(msg);
	fputc('\n', stderr);
	exit(2);
}

/* --- modes ------------------------------------------------------------------------ */

/*
 * Text for the terminal that may quote a results directory or a matrix
 * from elsewhere (cell names, axis values): written to memory first, then
 * out without control characters. NULL: nothing to print.
 */
struct screen {
	FILE *mem, *out;
	char *buf;
	size_t len;
};

static FILE *screen_open(struct screen *sc, FILE *out)
{
	*sc = (struct screen){ .out = out };
	if (out && !(sc->mem = open_memstream(&sc->buf, &sc->len)))
		die("out of memory");
	return sc->mem;
}

static void screen_close(struct screen *sc)
{
	if (!sc->mem)
		return;
	if (fclose(sc->mem))
		die("out of memory");
	put_terminal_text(sc->out, sc->buf);
	free(sc->buf);
}

static int summarize(struct run *r, FILE *out)
{
	struct screen sc;
	FILE *f = screen_open(&sc, out);

	if (summary_write(r->out_dir, r->o.seed, f, r->o.verbose, r->err,
			  sizeof(r->err))) {
		screen_close(&sc);
		die("%s", r->err);
	}
	screen_close(&sc);
	return 0;
}

/* DIR locked for a mode that reads its run; a grow the run was left in
 * is finished first (grow.h). */
static int lock_run(struct run *r, const char *dir, const char *mode)
{
	set_text(r->out_dir, "%s", dir);
	return results_lock_dir(dir, mode, &r->lock_fd, r->err,
				sizeof(r->err)) ||
	       (results_is_run(dir) &&
		results_finish_grow(dir, r->err, sizeof(r->err)));
}

/* --summarize DIR: the run's own seed, as --resume and --rescan use. */
static int mode_summarize(struct run *r, const char *dir)
{
	if (lock_run(r, dir, "--summarize"))
		die("cannot summarize: %s", r->err);
	if (!r->o.seed_given &&
	    results_read_seed(dir, &r->o.seed, r->err, sizeof(r->err)))
		die("cannot summarize: %s", r->err);
	return summarize(r, stdout);
}

static int mode_rescan(struct run *r, const char *dir)
{
	if (lock_run(r, dir, "--rescan") || results_rescan(r))
		die("%s", r->err);
	return summarize(r, r->o.quiet ? NULL : stdout);
}

static void load_matrix(struct run *r);

/* --merge OUT DIR... [--matrix FILE] [--set ...] [--seed N]: the shards
 * must be of that matrix and seed. */
static int mode_merge(struct run *r, const char *out, int argc, char **argv)
{
	int seed_given = r->o.seed_given, want = r->o.matrix_file || r->o.nsets;

	if (optind >= argc)
		die("--merge OUT DIR...: name the shard directories to merge");
	r->o.seed_given = 1; /* no seed is drawn for the matrix */
	if (want)
		load_matrix(r);
	if (results_merge(out, argv + optind, argc - optind,
			  want ? &r->m : NULL, seed_given ? &r->o.seed : NULL,
			  r->err, sizeof(r->err)))
		die("cannot merge: %s (nothing was written)", r->err);
	set_text(r->out_dir, "%s", out);
	if (results_lock_dir(out, "--merge", &r->lock_fd, r->err,
			     sizeof(r->err)) ||
	    results_read_seed(out, &r->o.seed, r->err, sizeof(r->err)))
		die("%s", r->err);
	fprintf(stderr, "[merge] %d shards into %s\n", argc - optind, out);
	return summarize(r, r->o.quiet ? NULL : stdout);
}

/* --jobs and --parallel-jobs by default (set_jobs); returns the CPUs. */
static long default_jobs(int *jobs, int *par_jobs)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	*jobs = n <= 2 ? 1 : (int)(n - 1 > MAX_JOBS ? MAX_JOBS : n - 1);
	*par_jobs = (int)(n > MAX_JOBS ? MAX_JOBS : n);
	return n;
}

static void json_list_item(int first, const char *s)
{
	printf("%s\"%s\"", first ? "" : ", ", s);
}

/* What the Python scripts and tests need to know, from the one definition. */
static int mode_describe(void)
{
	FILE *mem;
	char *hdr = NULL, *tok, *save = NULL;
	size_t hlen = 0;
	struct matrix m;
	int jobs, par_jobs;

	matrix_init(&m);
	printf("{\n  \"axes\": [");
	for (int a = 0; a < AX_N; a++)
		printf("%s\n    {\"name\": \"%s\", \"default\": \"%s\"}",
		       a ? "," : "", axis_name((enum axis)a), m.values[a][0]);
	printf("\n  ],\n  \"stop_rule\": \"%s\",\n  \"settings\": {\"reps\": %d, \"min_reps\": %d, \"precision\": %d, \"icount\": \"%s\"",
	       STOP_RULE_TEXT, m.reps, matrix_min_reps(&m), m.precision,
	       m.icount);
	for (int s = 0; s < SET_N; s++)
		printf(", \"%s\": %d", setting_name((enum setting)s),
		       m.setting[s]);
	printf("},\n");
	default_jobs(&jobs, &par_jobs);
	printf("  \"default_jobs\": {\"jobs\": %d, \"parallel_jobs\": %d, \"kvm_canary_s\": %d},\n",
	       jobs, par_jobs, KVM_CANARY_S);
	printf("  \"accels\": \"%s\",\n  \"reads\": [", accel_list());
	for (size_t i = 0; i < crb_nreads; i++)
		json_list_item(!i, crb_read_names[i]);
	printf("],\n  \"statuses\": [");
	for (const char *const *s =
		     (const char *const[]){ "ok", "censored", "timeout",
					    "panic", "corrupt", "qemu-failed",
					    "guest-failed", "skipped", NULL };
	     *s; s++)
		json_list_item(!strcmp(*s, "ok"), *s);
	printf("],\n");
	summary_describe(stdout);
	printf("  \"raw_columns\": [");
	mem = open_memstream(&hdr, &hlen);
	if (!mem)
		die("out of memory");
	row_write_header(mem);
	if (fclose(mem))
		die("out of memory");
	hdr[strcspn(hdr, "\n")] = '\0';
	for (tok = strtok_r(hdr, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		json_list_item(tok == hdr, tok);
	printf("]\n}\n");
	free(hdr);
	return 0;
}

/* --- the sweep ------------------------------------------------------------------- */

static void default_paths(struct run *r)
{
	if (kernels_dirs(r))
		die("%s", r->err);
	if (path_fmt(r->image_path, sizeof(r->image_path), "%s",
		     r->o.image ? r->o.image : "build/guest.cpio"))
		die("a path is longer than %d bytes", PATH_MAX - 1);
}

/* The matrix of --matrix FILE (else from, else the defaults) and --set. */
static void given_matrix(struct run *r, const struct matrix *from)
{
	char err[1024];

	if (from && !r->o.matrix_file)
		r->m = *from;
	else
		matrix_init(&r->m);
	if (r->o.matrix_file &&
	    matrix_load(&r->m, r->o.matrix_file, err, sizeof(err)))
		die("%s", err);
	if (matrix_set_list(&r->m, r->o.sets, r->o.nsets, err, sizeof(err)))
		die("--set %s", err);
	if (matrix_validate(&r->m, err, sizeof(err)) ||
	    bases_check(&r->m, err, sizeof(err)) ||
	    variants_check(&r->m, err, sizeof(err)))
		die("%s", err);
}

/*
 * --resume with --matrix or --set: the run's matrix (from) grown into the
 * given one, which adds axis values and keeps the rest (matrix_grows);
 * r->grow_from is then the run's. The same matrix again is a resume.
 */
static void grow_matrix(struct run *r, struct matrix *from)
{
	char err[1024], added[512];
	int rc;

	given_matrix(r, from);
	rc = matrix_grows(from, &r->m, err, sizeof(err));
	if (rc < 0)
		die("cannot grow %s: %s", r->out_dir, err);
	if (!rc) {
		free(from);
		return;
	}
	if (r->o.shard_n > 1)
		die("cannot grow %s: it is shard %d/%d of a run, and the matrix deals the cells to the shards; merge the shards (--merge), then grow the merged run",
		    r->out_dir, r->o.shard_k, r->o.shard_n);
	r->grow_from = from;
	matrix_added(from, &r->m, added, sizeof(added));
	fprintf(stderr, "[grow] %s: adds %s%s\n", r->out_dir, added,
		r->o.dry_run ? " (a dry run: the run is left as it is)" : "");
}

/* The matrix: from --resume's run.matrix (grown by --matrix and --set),
 * or the file and --set lines. */
static void load_matrix(struct run *r)
{
	char err[1024];

	if (r->o.resume) {
		struct matrix *m = malloc(sizeof(*m));

		if (!m)
			die("out of memory");
		if (results_read_matrix(r->out_dir, m, err, sizeof(err)) ||
		    results_read_seed(r->out_dir, &r->o.seed, err,
				      sizeof(err)) ||
		    bases_check(m, err, sizeof(err)) ||
		    variants_check(m, err, sizeof(err)))
			die("cannot resume: %s", err);
		r->m = *m;
		if (r->o.matrix_file || r->o.nsets)
			grow_matrix(r, m);
		else
			free(m);
		return;
	}
	given_matrix(r, NULL);
	if (!r->o.seed_given) {
		if (getrandom(&r->o.seed, sizeof(r->o.seed), 0) !=
		    sizeof(r->o.seed))
			die("getrandom: %s", strerror(errno));
		r->o.seed >>= 16; /* keep it short enough to type */
	}
}

/* --print-axis: what the Makefile builds kernels for, as the runner reads it. */
static int mode_axis(struct run *r, const char *name)
{
	int kernel_arch = !strcmp(name, "kernel_arch"),
	    a = kernel_arch ? AX_arch : axis_lookup(name);

	if (!strcmp(name, "kernels")) {
		r->o.seed_given = 1;
		load_matrix(r);
		matrix_print_kernels(&r->m, stdout);
		return 0;
	}
	if (!strcmp(name, "matrix")) { /* as run.matrix holds it */
		r->o.seed_given = 1;
		load_matrix(r);
		if (matrix_write(&r->m, stdout) || fflush(stdout))
			die("writing the matrix: %s", strerror(errno));
		return 0;
	}
	if (!strcmp(name, "plan")) { /* of --shard K/N's boots */
		r->o.seed_given = 1;
		load_matrix(r);
		if (row_print_plan(&r->m, r->o.shard_k, r->o.shard_n, stdout,
				   r->err, sizeof(r->err)))
			die("%s", r->err);
		return 0;
	}
	if (a < 0)
		die("--print-axis %s: not an axis (see --help)", name);
	r->o.seed_given = 1; /* no seed is needed, none is drawn */
	load_matrix(r);
	/* kernel_arch: the arch axis as kernel/arches rows (KERNEL_ARCH). */
	for (int i = 0; i < r->m.nvalues[a]; i++)
		printf("%s%s", i ? "," : "",
		       kernel_arch ? arch_find(r->m.values[a][i])->kernel_arch :
				     r->m.values[a][i]);
	printf("\n");
	return 0;
}

/*
 * How many boots at once. TCG guests time themselves with the host's
 * clock: by default one CPU is left for the host's noise, and more boots
 * than CPUs would time each other. icount guests count instructions, so
 * every CPU may run one.
 */
static void set_jobs(struct run *r)
{
	int jobs, par_jobs;
	long n = default_jobs(&jobs, &par_jobs);

	if (r->o.jobs > n)
		die("--jobs %d: more than this machine's %ld CPUs; TCG and KVM boots would slow each other and their guest clocks (icount boots: --parallel-jobs)",
		    r->o.jobs, n);
	if (!r->o.jobs)
		r->o.jobs = jobs;
	if (!r->o.par_jobs)
		r->o.par_jobs = par_jobs;
}

/*
 * Boots whose guest time is free of host load (icount) first, in their
 * shuffled order, then the others in theirs: both can then run at their
 * own parallelism. The shuffle that spreads host drift matters only for
 * the others, and is kept among them.
 */
static void order_plan(struct boot_plan *plan, size_t n, const struct run *r)
{
	struct boot_plan *tmp = malloc(n * sizeof(*tmp));
	size_t k = 0;

	if (!tmp)
		die("out of memory");
	for (int pass = 1; pass >= 0; pass--)
		for (size_t i = 0; i < n; i++) {
			struct cell c;

			matrix_cell(&r->m, plan[i].cell, &c);
			if (accel_parallel_safe(c.v[AX_accel]) == pass)
				tmp[k++] = plan[i];
		}
	memcpy(plan, tmp, n * sizeof(*tmp));
	free(tmp);
}

/* Is prog an executable in a directory of PATH? */
static int on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (n &&
		    snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, prog) <
			    (int)sizeof(buf) &&
		    !access(buf, X_OK))
			return 1;
		p += n + (p[n] == ':');
	}
	return 0;
}

/* Each kernel the matrix needs is built; the image is a file. */
static void check_files(struct run *r)
{
	const struct matrix *m = &r->m;

	char p[PATH_MAX], base[MAX_VALUE_LEN + 16] = "";

	for (size_t i = 0; i < matrix_nkernels(m); i++) {
		struct kernel_ref k;
		const struct arch *ar;

		if (!matrix_kernel(m, i, &k))
			continue;
		ar = arch_find(k.arch);
		if (kernel_file(r, &k, NULL, p, sizeof(p)))
			die("path too long under %s's kernels", k.base);
		if (is_regular_file(p))
			continue;
		/* Without --kernels, each base's kernels are build.sh's. */
		if (!r->o.kernels)
			snprintf(base, sizeof(base), " KERNEL_BASE=%s", k.base);
		if (ar->systemd)
			die("kernel variant '%s' with HZ=%s of base %s is not built (%s missing); build it with: make kernels%s VARIANTS=%s HZ=%s"
			    " (a kernel of your own: its bzImage as DIR/%s-hz%s/bzImage, then --kernels DIR)",
			    k.variant, k.hz, k.base, p, base, k.variant, k.hz,
			    k.variant, k.hz);
		die("kernel variant '%s' with HZ=%s of base %s for arch=%s is not built (%s missing); build it with: make kernels%s KERNEL_ARCH=%s VARIANTS=%s HZ=%s",
		    k.variant, k.hz, k.base, k.arch, p, base, ar->kernel_arch,
		    k.variant, k.hz);
	}
	for (int a = 0; a < m->nvalues[AX_arch]; a++) {
		const struct arch *ar = arch_find(m->values[AX_arch][a]);

		if (guest_image(r, ar->name, p, sizeof(p)))
			die("path too long beside %s", r->image_path);
		if (!is_regular_file(p))
			die(ar->systemd ?
				    "guest image %s is not a file; build it with: make image" :
				    "probe-only image %s is not a file; build it with: make probe-image KERNEL_ARCH=%s",
			    p, ar->kernel_arch);
	}
}

/* One built kernel of arch a (check_files saw them all), for the -cpu check. */
static const char *some_kernel(struct run *r, const struct arch *a, char *buf,
			       size_t len)
{
	for (size_t i = 0; i < matrix_nkernels(&r->m); i++) {
		struct kernel_ref k;

		if (!matrix_kernel(&r->m, i, &k))
			continue;
		if (!strcmp(k.arch, a->name) &&
		    !kernel_file(r, &k, NULL, buf, len))
			return buf;
	}
	return NULL;
}

/* QEMU accepts every -cpu spelling under every accelerator that runs it. */
static void check_qemu(struct run *r)
{
	const struct matrix *m = &r->m;
	char err[1024], kernel[PATH_MAX];

	for (int x = 0; x < m->nvalues[AX_arch]; x++) {
		const struct arch *ar = arch_find(m->values[AX_arch][x]);
		const char *qemu = ar->qemu ? ar->qemu : r->o.qemu;
		const char *k =
			ar->x86 ? NULL :
				  some_kernel(r, ar, kernel, sizeof(kernel));

		if (ar->qemu && !on_path(ar->qemu))
			die("arch=%s needs %s, which is not installed; install it with: apt-get install -y %s (or run scripts/deps.sh --arch %s as root)",
			    ar->name, ar->qemu, ar->qemu_package,
			    ar->kernel_arch);
		for (int a = 0; a < m->nvalues[AX_accel]; a++) {
			const char *acc = m->values[AX_accel][a];

			if (accel_find(acc)->needs_kvm)
				continue; /* the canary checks KVM */
			for (int c = 0; c < m->nvalues[AX_cpu]; c++)
				if (matrix_combination_ok(
					    acc, m->values[AX_cpu][c]) &&
				    matrix_planned_with(m, ar->name, acc,
							m->values[AX_cpu][c]) &&
				    qemu_check_cpu(r->o.qemu, ar, k, acc,
						   m->values[AX_cpu][c],
						   m->icount, err, sizeof(err)))
					die("QEMU (%s) rejects cpu=%s on arch=%s under %s%s%s: %s\n(list models with: %s -M %s -cpu help)",
					    qemu, m->values[AX_cpu][c],
					    ar->name, acc,
					    accel_find(acc)->icount ?
						    " with the matrix's icount=" :
						    "",
					    accel_find(acc)->icount ?
						    m->icount :
						    "",
					    err, qemu, ar->machine);
		}
	}
}

static void on_signal(int sig)
{
	(void)sig;
	sched_interrupted = 1;
}

static void handle_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int mode_run(struct run *r, int argc, char **argv)
{
	struct boot_plan *plan;
	size_t nplan;
	char speeds[512];
	int rc;

	if (!r->o.out)
		die("--out DIR is required (the Makefile picks results/<matrix>-<time>)");
	if (path_fmt(r->out_dir, sizeof(r->out_dir), "%s", r->o.out))
		die("--out %.60s...: path too long", r->o.out);
	/* A resumed run is locked, then started as it was the first time. */
	if (r->o.resume && (results_open(r) || results_load_args(r)))
		die("%s", r->err);
	load_matrix(r);
	default_paths(r);
	set_jobs(r);
	check_files(r);
	if (r->o.resume &&
	    results_check_files(r, r->grow_from ? r->grow_from : &r->m))
		die("%s", r->err);
	check_qemu(r);
	r->tsc_khz = host_tsc_khz();
	plan = matrix_plan(&r->m, r->o.seed, r->o.shard_k, r->o.shard_n,
			   &nplan);
	if (!plan)
		die("out of memory planning %zu cells x %d reps",
		    matrix_ncells(&r->m), r->m.reps);
	if (!nplan)
		die("the matrix has no boots for shard %d/%d (every cell excluded, or more shards than boots?)",
		    r->o.shard_k, r->o.shard_n);
	order_plan(plan, nplan, r);
	/* a dry run of a resume: the boots done as the run would see them,
	 * nothing repaired or grown on disk */
	if (r->o.dry_run && r->o.resume && results_peek_done(r)) {
		free(plan);
		die("%s", r->err);
	}
	/* Every boot's command line is built (and printed for a dry run)
	 * before the first boot: a limit is an error now, not mid-sweep. */
	{
		struct screen sc;
		FILE *f = screen_open(&sc, r->o.dry_run ? stdout : NULL);
		int bad = sched_print_plan(r, plan, nplan, f);

		screen_close(&sc);
		if (bad) {
			free(plan);
			die("%s", r->err);
		}
	}
	if (r->o.dry_run) {
		free(plan);
		return 0;
	}
	if (!r->o.resume && results_open(r))
		die("%s", r->err);
	handle_signals();
	if (results_start(r) || results_load_done(r) ||
	    (r->grow_from && results_grow(r)) || sched_kvm_canary(r) ||
	    results_write_meta(r, argc, argv, nplan))
		die("%s", r->err);
	matrix_shift_speeds(&r->m, speeds, sizeof(speeds));
	fprintf(stderr,
		"[bench] %s: %zu boots (%zu already done), %d at a time (icount: %d), seed %" PRIu64
		", results in %s%s%s\n",
		r->m.name, nplan, r->ndone, r->o.jobs, r->o.par_jobs, r->o.seed,
		r->out_dir, speeds[0] ? "; " : "", speeds);
	rc = sched_run(r, plan, nplan);
	free(plan);
	if (rc < 0)
		die("%s", r->err);
	if (rc)
		return rc;
	return summarize(r, r->o.quiet ? NULL : stdout);
}

int main(int argc, char **argv)
{
	static struct run r = { .o = { .qemu = "qemu-system-x86_64",
				       .shard_k = 1,
				       .shard_n = 1,
				       .canary_s = KVM_CANARY_S },
				.kvm_ok = 1,
				.lock_fd = -1 };
	const char *dir = NULL;
	int mode = options_parse(&r.o, argc, argv, &dir, r.err, sizeof(r.err));

	/* A QEMU that exits early makes a write fail, never kill the runner. */
	signal(SIGPIPE, SIG_IGN);
	if (mode >= 0 && mode < M_HELP && arches_load(r.err, sizeof(r.err)))
		die("%s", r.err);
	switch (mode) {
	case -1:
		die("%s", r.err);
	case M_HELP:
		options_usage(stdout);
		return 0;
	case M_USAGE:
		options_usage(stderr);
		return 2;
	case M_SUMMARIZE:
		return mode_summarize(&r, dir);
	case M_RESCAN:
		return mode_rescan(&r, dir);
	case M_MERGE:
		return mode_merge(&r, dir, argc, argv);
	case M_DESCRIBE:
		return mode_describe();
	case M_AXIS:
		return mode_axis(&r, dir);
	case M_RUN:
		break;
	}
	return mode_run(&r, argc, argv);
}
