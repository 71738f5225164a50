// SPDX-License-Identifier: GPL-2.0
/*
 * crngbench-run: boot the experiment matrix under QEMU, one QEMU per boot,
 * and turn boots into raw data and summary statistics.
 *
 * Everything that can be checked is checked before the first boot: the
 * matrix, that each kernel variant is built, the image, QEMU, every -cpu
 * spelling, the results directory, and (when the matrix has KVM cells)
 * whether KVM can run a guest at all.
 */
#define _GNU_SOURCE
#include "classify.h"
#include "matrix.h"
#include "qemu.h"
#include "report.h"
#include "row.h"
#include "summary.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_JOBS 16

static struct {
	const char *matrix_file;
	char *sets[64];
	int nsets;
	const char *out;
	const char *kernels;
	const char *image;
	const char *qemu;
	int jobs;
	uint64_t seed;
	int seed_given;
	int resume;
	int shard_k, shard_n;
	int canary_s;
	int perf;
	int dry_run;
	const char *summarize_dir;
	const char *rescan_dir;
	int quiet;
	const char *append;
	char *qemu_args[33];
	int nqemu_args;
} opt = { .qemu = "qemu-system-x86_64",
	  .shard_k = 1,
	  .shard_n = 1,
	  .canary_s = 15 };

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fputs("crngbench-run: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void usage(FILE *f)
{
	fputs("usage: crngbench-run [options]\n"
	      "  --matrix FILE       matrix file (bench/*.matrix)\n"
	      "  --set AXIS=V1,V2    override an axis or setting (repeatable)\n"
	      "  --out DIR           results directory (created; must not hold a run unless --resume)\n"
	      "  --resume            finish the run in --out without redoing its boots\n"
	      "  --kernels DIR       built kernels (kernel/build.sh's cache kernels/)\n"
	      "  --image FILE        guest initramfs (default build/guest.cpio, from make image)\n"
	      "  --qemu PATH         QEMU binary (default qemu-system-x86_64)\n"
	      "  --jobs N            boots in parallel (default: 1 on <= 2 CPUs, else CPUs - 1)\n"
	      "  --seed N            run-order and bootstrap seed (default: random, recorded)\n"
	      "  --shard K/N         run only shard K of N (deterministic, disjoint)\n"
	      "  --kvm-canary S      seconds a KVM canary boot gets to show progress (default 15)\n"
	      "  --perf              perf stat each QEMU process (task-clock, context switches)\n"
	      "  --dry-run           validate, print the plan and the QEMU command lines, boot nothing\n"
	      "  --summarize DIR     recompute DIR/summary.csv from DIR/raw.csv and print it\n"
	      "  --rescan DIR        re-derive DIR's tables from its boots/ (after a parser change)\n"
	      "  --quiet             no progress line\n"
	      "  --append 'ARGS'     extra kernel command line for every boot\n"
	      "  --qemu-arg ARG      extra QEMU argument for every boot (repeatable)\n"
	      "axes:",
	      f);
	for (int a = 0; a < AX_N; a++)
		fprintf(f, " %s", axis_name((enum axis)a));
	fputs("\nsettings: reps timeout read_timeout name\n", f);
}

static void parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "matrix", required_argument, 0, 'm' },
		{ "set", required_argument, 0, 's' },
		{ "out", required_argument, 0, 'o' },
		{ "resume", no_argument, 0, 'r' },
		{ "kernels", required_argument, 0, 'k' },
		{ "image", required_argument, 0, 'i' },
		{ "qemu", required_argument, 0, 'q' },
		{ "jobs", required_argument, 0, 'j' },
		{ "seed", required_argument, 0, 'S' },
		{ "shard", required_argument, 0, 'h' },
		{ "kvm-canary", required_argument, 0, 'c' },
		{ "perf", no_argument, 0, 'p' },
		{ "dry-run", no_argument, 0, 'n' },
		{ "summarize", required_argument, 0, 'u' },
		{ "rescan", required_argument, 0, 'R' },
		{ "quiet", no_argument, 0, 'Q' },
		{ "append", required_argument, 0, 'A' },
		{ "qemu-arg", required_argument, 0, 'X' },
		{ "help", no_argument, 0, 'H' },
		{ 0, 0, 0, 0 }
	};
	int c;
	char *end;

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			opt.matrix_file = optarg;
			break;
		case 's':
			if (opt.nsets == 64)
				die("too many --set options");
			opt.sets[opt.nsets++] = optarg;
			break;
		case 'o':
			opt.out = optarg;
			break;
		case 'r':
			opt.resume = 1;
			break;
		case 'k':
			opt.kernels = optarg;
			break;
		case 'i':
			opt.image = optarg;
			break;
		case 'q':
			opt.qemu = optarg;
			break;
		case 'j':
			opt.jobs = (int)strtol(optarg, &end, 10);
			if (*end || opt.jobs < 1 || opt.jobs > MAX_JOBS)
				die("--jobs %s: need a number from 1 to %d",
				    optarg, MAX_JOBS);
			break;
		case 'S':
			errno = 0;
			opt.seed = strtoull(optarg, &end, 0);
			if (errno || *end)
				die("--seed %s: need a non-negative integer",
				    optarg);
			opt.seed_given = 1;
			break;
		case 'h':
			if (sscanf(optarg, "%d/%d", &opt.shard_k,
				   &opt.shard_n) != 2 ||
			    opt.shard_n < 1 || opt.shard_k < 1 ||
			    opt.shard_k > opt.shard_n)
				die("--shard %s: need K/N with 1 <= K <= N (e.g. 2/4)",
				    optarg);
			break;
		case 'c':
			opt.canary_s = (int)strtol(optarg, &end, 10);
			if (*end || opt.canary_s < 1 || opt.canary_s > 600)
				die("--kvm-canary %s: need seconds from 1 to 600",
				    optarg);
			break;
		case 'p':
			opt.perf = 1;
			break;
		case 'n':
			opt.dry_run = 1;
			break;
		case 'u':
			opt.summarize_dir = optarg;
			break;
		case 'R':
			opt.rescan_dir = optarg;
			break;
		case 'Q':
			opt.quiet = 1;
			break;
		case 'A':
			opt.append = optarg;
			break;
		case 'X':
			if (opt.nqemu_args == 32)
				die("too many --qemu-arg options");
			opt.qemu_args[opt.nqemu_args++] = optarg;
			break;
		case 'H':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc)
		die("unexpected argument '%s' (see --help)", argv[optind]);
}

/* --- files ------------------------------------------------------------------- */

/* snprintf for paths: a truncated path is an error, never a wrong file. */
static void __attribute__((format(printf, 3, 4)))
xpath(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		die("path too long: %.80s...", buf);
}

static void path_join(char *buf, size_t len, const char *a, const char *b)
{
	xpath(buf, len, "%s/%s", a, b);
}

static int file_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* Append one complete buffer with one write(), then fsync: a row is either
 * wholly in the file or not at all. */
static void append_atomic(const char *path, const char *buf, size_t len)
{
	int fd;

	if (!len)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || fsync(fd))
		die("cannot append to %s: %s", path, strerror(errno));
	close(fd);
}

static void write_file_atomic(const char *path, const char *buf, size_t len)
{
	char tmp[PATH_MAX + 8];
	int fd;

	set_text(tmp, "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || fsync(fd) ||
	    close(fd) || rename(tmp, path))
		die("cannot write %s: %s", path, strerror(errno));
}

/* Drop a torn last line (no newline) left by an interrupted run. */
static void trim_partial(const char *path)
{
	struct stat st;
	char c;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    pread(fd, &c, 1, st.st_size - 1) == 1 && c != '\n') {
		off_t off = st.st_size - 1;

		while (off > 0 && pread(fd, &c, 1, off - 1) == 1 && c != '\n')
			off--;
		if (ftruncate(fd, off))
			die("cannot repair %s: %s", path, strerror(errno));
	}
	close(fd);
}

/* --- the run ------------------------------------------------------------------ */

struct slot {
	int busy;
	size_t plan_i;
	struct cell cell;
	struct vm vm;
	int64_t deadline;
	char dir[PATH_MAX];
	char cmd[8192];
	char seed_hex[80];
};

static struct matrix M;
static char out_dir[PATH_MAX], kernels_dir[PATH_MAX], image_path[PATH_MAX];
static long tsc_khz;
static int kvm_ok = 1;
static char kvm_why[512];
static char **done_ids;
static size_t ndone;

static void boot_id(const struct boot_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "c%zu-r%d", p->cell, p->rep);
}

static int is_done(const char *id)
{
	for (size_t i = 0; i < ndone; i++)
		if (!strcmp(done_ids[i], id))
			return 1;
	return 0;
}

static void kernel_path(const struct cell *c, char *buf, size_t len)
{
	xpath(buf, len, "%s/%s-hz%s/bzImage", kernels_dir, c->v[AX_variant],
	      c->v[AX_hz]);
}

static void fill_params(struct slot *s, struct boot_params *bp, char *kernel,
			size_t klen, char *console, size_t clen, char *perf,
			size_t plen)
{
	kernel_path(&s->cell, kernel, klen);
	path_join(console, clen, s->dir, "console.log");
	path_join(perf, plen, s->dir, "perf.csv");
	memset(bp, 0, sizeof(*bp));
	bp->qemu = opt.qemu;
	bp->kernel = kernel;
	bp->image = image_path;
	bp->console_path = console;
	bp->tsc_khz = tsc_khz;
	bp->read_timeout_s = M.read_timeout_s;
	bp->seed_hex = s->seed_hex[0] ? s->seed_hex : NULL;
	bp->perf_out = opt.perf ? perf : NULL;
	bp->append = opt.append;
	bp->qemu_args = opt.qemu_args;
}

static void make_seed(struct slot *s)
{
	unsigned char b[32];

	s->seed_hex[0] = '\0';
	if (strcmp(s->cell.v[AX_seed], "saved"))
		return;
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		die("getrandom: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(b); i++)
		sprintf(s->seed_hex + 2 * i, "%02x", b[i]);
}

static void fill_row_axes(struct row *r, const struct boot_plan *p,
			  const struct cell *c, long run_index)
{
	row_init(r);
	boot_id(p, r->boot_id, sizeof(r->boot_id));
	r->run_index = run_index;
	r->cell = (long)p->cell;
	r->rep = p->rep;
	for (int a = 0; a < AX_N; a++)
		set_text(r->axis[a], "%s", c->v[a]);
}

static void commit_row(const struct row *r, const struct strbuf *reads,
		       const struct strbuf *traces)
{
	char path[PATH_MAX], line[8192];
	int n = row_format(r, line, sizeof(line));

	if (n < 0)
		die("row for %s does not fit", r->boot_id);
	/* Detail tables first, raw.csv last: raw.csv is the commit record. */
	path_join(path, sizeof(path), out_dir, "reads.csv");
	append_atomic(path, reads ? reads->p : "", reads ? reads->len : 0);
	path_join(path, sizeof(path), out_dir, "traces.csv");
	append_atomic(path, traces ? traces->p : "", traces ? traces->len : 0);
	path_join(path, sizeof(path), out_dir, "raw.csv");
	append_atomic(path, line, (size_t)n);
}

/* Keep the channel's bytes, classify the boot, write its row. */
static void finish_boot(struct slot *s, const struct boot_plan *plan,
			long run_index, int timed_out)
{
	struct row r;
	struct strbuf reads = { 0 }, traces = { 0 };
	struct boot_facts f = {
		.dir = s->dir,
		.chan = s->vm.chan ? s->vm.chan : "",
		.chan_len = s->vm.chan_len,
		.err = s->vm.err_len ? s->vm.err : "",
		.timed_out = timed_out,
		.timeout_s = M.timeout_s,
		.perf = opt.perf,
		.t_first_byte = s->vm.t_first_byte,
		.t_urandom = s->vm.t_urandom,
		.t_report = s->vm.t_report,
		.t_exit = s->vm.t_exit,
	};
	char path[PATH_MAX];

	fill_row_axes(&r, &plan[s->plan_i], &s->cell, run_index);
	path_join(path, sizeof(path), s->dir, "result.log");
	write_file_atomic(path, f.chan, f.chan_len);
	classify_boot(&f, &r, &reads, &traces);
	commit_row(&r, &reads, &traces);
	sb_free(&reads);
	sb_free(&traces);
	if (s->vm.err_len) {
		path_join(path, sizeof(path), s->dir, "qemu-stderr.log");
		write_file_atomic(path, s->vm.err, s->vm.err_len);
	}
	vm_free(&s->vm);
}

static int start_boot(struct slot *s, const struct boot_plan *plan, size_t i)
{
	struct argv_buf a = { 0 };
	struct boot_params bp;
	char id[32], kernel[PATH_MAX], console[PATH_MAX], perf[PATH_MAX],
		path[PATH_MAX], boots[PATH_MAX];

	s->plan_i = i;
	matrix_cell(&M, plan[i].cell, &s->cell);
	boot_id(&plan[i], id, sizeof(id));
	path_join(boots, sizeof(boots), out_dir, "boots");
	path_join(s->dir, sizeof(s->dir), boots, id);
	if (mkdir(s->dir, 0755) && errno != EEXIST)
		die("cannot create %s: %s", s->dir, strerror(errno));
	make_seed(s);
	fill_params(s, &bp, kernel, sizeof(kernel), console, sizeof(console),
		    perf, sizeof(perf));
	qemu_build_argv(&s->cell, &bp, &a);
	argv_join(&a, s->cmd, sizeof(s->cmd));
	path_join(path, sizeof(path), s->dir, "cmd");
	{
		char line[8300];

		set_text(line, "%s\n", s->cmd);
		write_file_atomic(path, line, strlen(line));
	}
	if (vm_spawn(&s->vm, &a)) {
		argv_free(&a);
		return -1;
	}
	argv_free(&a);
	s->deadline = s->vm.t_spawn + (int64_t)M.timeout_s * 1000000000;
	s->busy = 1;
	return 0;
}

static void progress(size_t done, size_t total, const struct slot *slots,
		     int jobs, int64_t t0)
{
	double el = (double)(host_now_ns() - t0) / 1e9,
	       eta = done ? el / (double)done * (double)(total - done) : 0;
	char cur[160] = "";

	if (opt.quiet)
		return;
	for (int j = 0; j < jobs; j++)
		if (slots[j].busy) {
			set_text(cur, "%s %s cpu=%s",
				 slots[j].cell.v[AX_variant],
				 slots[j].cell.v[AX_accel],
				 slots[j].cell.v[AX_cpu]);
			break;
		}
	fprintf(stderr,
		"\r[bench] %zu/%zu boots  %-40.40s  elapsed %.0fs  eta %.0fs ",
		done, total, cur, el, eta);
}

static void run_plan(const struct boot_plan *plan, size_t nplan)
{
	struct slot slots[MAX_JOBS];
	size_t next = 0, done = 0, todo = 0;
	long run_index = 0;
	int64_t t0 = host_now_ns();

	memset(slots, 0, sizeof(slots));
	for (size_t i = 0; i < nplan; i++) {
		char id[32];

		boot_id(&plan[i], id, sizeof(id));
		if (!is_done(id))
			todo++;
	}
	run_index = (long)ndone;
	while (!interrupted) {
		struct pollfd pf[2 * MAX_JOBS];
		int owner[2 * MAX_JOBS], n = 0, busy = 0;

		/* Fill free slots. */
		for (int j = 0; j < opt.jobs && next < nplan; j++) {
			if (slots[j].busy)
				continue;
			while (next < nplan) {
				char id[32];
				struct cell c;

				boot_id(&plan[next], id, sizeof(id));
				matrix_cell(&M, plan[next].cell, &c);
				if (is_done(id)) {
					next++;
					continue;
				}
				if (!strcmp(c.v[AX_accel], "kvm") && !kvm_ok) {
					struct row r;

					fill_row_axes(&r, &plan[next], &c,
						      run_index++);
					set_text(r.status, "skipped");
					set_text(r.reason, "KVM unusable: %s",
						 kvm_why);
					commit_row(&r, NULL, NULL);
					next++;
					done++;
					continue;
				}
				if (start_boot(&slots[j], plan, next))
					die("cannot start QEMU: %s",
					    strerror(errno));
				next++;
				break;
			}
		}
		for (int j = 0; j < opt.jobs; j++) {
			if (!slots[j].busy)
				continue;
			busy++;
			if (slots[j].vm.out_fd >= 0) {
				pf[n] = (struct pollfd){
					.fd = slots[j].vm.out_fd,
					.events = POLLIN
				};
				owner[n++] = j;
			}
			if (slots[j].vm.err_fd >= 0) {
				pf[n] = (struct pollfd){
					.fd = slots[j].vm.err_fd,
					.events = POLLIN
				};
				owner[n++] = j;
			}
		}
		if (!busy && next >= nplan)
			break;
		if (poll(pf, (nfds_t)n, 100) > 0)
			for (int i = 0; i < n; i++)
				if (pf[i].revents)
					vm_read(&slots[owner[i]].vm, pf[i].fd);
		for (int j = 0; j < opt.jobs; j++) {
			struct slot *s = &slots[j];
			int timed_out = 0;

			if (!s->busy)
				continue;
			if (!vm_done(&s->vm)) {
				if (host_now_ns() < s->deadline)
					continue;
				timed_out = 1;
				vm_kill(&s->vm);
			} else if (s->vm.t_exit < 0) {
				continue;
			}
			finish_boot(s, plan, run_index++, timed_out);
			s->busy = 0;
			done++;
			progress(done, todo, slots, opt.jobs, t0);
		}
	}
	if (interrupted) {
		/* Kill what runs; rows are only written for finished boots. */
		for (int j = 0; j < opt.jobs; j++)
			if (slots[j].busy) {
				vm_kill(&slots[j].vm);
				vm_free(&slots[j].vm);
			}
		fprintf(stderr,
			"\n[bench] interrupted: %zu boots recorded; finish with --resume --out %s\n",
			done, out_dir);
		exit(130);
	}
	if (!opt.quiet)
		fputc('\n', stderr);
}

/* --- set-up and checks ---------------------------------------------------------- */

static void load_done(void)
{
	char path[PATH_MAX];
	struct row *rows;
	size_t n;

	path_join(path, sizeof(path), out_dir, "raw.csv");
	trim_partial(path);
	if (row_read_file(path, &rows, &n)) {
		if (errno == ENOENT)
			return; /* a new run */
		die("cannot read %s: %s", path, strerror(errno));
	}
	done_ids = calloc(n ? n : 1, sizeof(*done_ids));
	if (!done_ids)
		die("out of memory");
	for (size_t i = 0; i < n; i++)
		if (!(done_ids[ndone++] = strdup(rows[i].boot_id)))
			die("out of memory");
	free(rows);
}

/* reads.csv / traces.csv rows of boots that never reached raw.csv are
 * dropped on resume, so every table agrees with raw.csv. */
static void prune_detail(const char *name)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *in, *out;
	int first = 1;

	path_join(path, sizeof(path), out_dir, name);
	trim_partial(path);
	in = fopen(path, "re");
	if (!in)
		return;
	set_text(tmp, "%s.tmp", path);
	out = fopen(tmp, "we");
	if (!out)
		die("cannot write %s: %s", tmp, strerror(errno));
	while ((len = getline(&line, &cap, in)) > 0) {
		char id[32];

		if (first) {
			fputs(line, out);
			first = 0;
			continue;
		}
		set_text(id, "%.*s", (int)strcspn(line, ","), line);
		if (is_done(id))
			fputs(line, out);
	}
	free(line);
	fclose(in);
	if (fclose(out) || rename(tmp, path))
		die("cannot rewrite %s", path);
}

static void init_tables(void)
{
	char path[PATH_MAX];
	FILE *f;

	path_join(path, sizeof(path), out_dir, "raw.csv");
	if (!file_exists(path)) {
		f = fopen(path, "we");
		if (!f)
			die("cannot create %s: %s", path, strerror(errno));
		row_write_header(f);
		if (fclose(f))
			die("cannot write %s", path);
	}
	path_join(path, sizeof(path), out_dir, "reads.csv");
	if (!file_exists(path))
		append_atomic(path, READS_HEADER, strlen(READS_HEADER));
	path_join(path, sizeof(path), out_dir, "traces.csv");
	if (!file_exists(path))
		append_atomic(path, TRACES_HEADER, strlen(TRACES_HEADER));
}

/* The resolved matrix, so --resume and shard merges run exactly this. */
static void save_matrix(void)
{
	struct strbuf b = { 0 };
	char path[PATH_MAX];

	sb_printf(
		&b,
		"# resolved by crngbench-run\nname = %s\nreps = %d\ntimeout = %d\nread_timeout = %d\n",
		M.name, M.reps, M.timeout_s, M.read_timeout_s);
	for (int a = 0; a < AX_N; a++) {
		sb_printf(&b, "%s = ", axis_name((enum axis)a));
		for (int i = 0; i < M.nvalues[a]; i++)
			sb_printf(&b, "%s%s", i ? "," : "", M.values[a][i]);
		sb_printf(&b, "\n");
	}
	path_join(path, sizeof(path), out_dir, "run.matrix");
	write_file_atomic(path, b.p, b.len);
	sb_free(&b);
}

static void json_str(struct strbuf *b, const char *s)
{
	sb_printf(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_printf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			sb_printf(b, "\\u%04x", *s);
		else
			sb_printf(b, "%c", *s);
	}
	sb_printf(b, "\"");
}

static void first_line_of(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "re");

	buf[0] = '\0';
	if (!p)
		return;
	if (!fgets(buf, (int)len, p))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	pclose(p);
}

static void write_meta(int argc, char **argv, size_t nplan)
{
	struct strbuf b = { 0 };
	struct utsname u;
	char path[PATH_MAX], cpu[256] = "", qv[256], pkg[128],
			     cmd[PATH_MAX + 64];
	FILE *f;

	uname(&u);
	f = fopen("/proc/cpuinfo", "re");
	if (f) {
		char line[512];

		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "model name", 10)) {
				set_text(cpu, "%s",
					 strchr(line, ':') ?
						 strchr(line, ':') + 2 :
						 line);
				cpu[strcspn(cpu, "\n")] = '\0';
				break;
			}
		fclose(f);
	}
	set_text(cmd, "%s --version 2>/dev/null", opt.qemu);
	first_line_of(cmd, qv, sizeof(qv));
	first_line_of(
		"dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null",
		pkg, sizeof(pkg));
	sb_printf(&b, "{\n  \"tool\": \"crngbench-run\",\n  \"host\": ");
	json_str(&b, u.nodename);
	sb_printf(&b, ",\n  \"host_kernel\": ");
	json_str(&b, u.release);
	sb_printf(&b, ",\n  \"host_cpu\": ");
	json_str(&b, cpu);
	sb_printf(
		&b,
		",\n  \"host_cpus\": %ld,\n  \"host_tsc_khz\": %ld,\n  \"qemu\": ",
		sysconf(_SC_NPROCESSORS_ONLN), tsc_khz);
	json_str(&b, qv);
	sb_printf(&b, ",\n  \"kernel_package\": ");
	json_str(&b, pkg);
	sb_printf(&b, ",\n  \"kernels\": {");
	{
		int first = 1;

		for (int v = 0; v < M.nvalues[AX_variant]; v++)
			for (int h = 0; h < M.nvalues[AX_hz]; h++) {
				char kp[PATH_MAX + 64],
					rel[128] = "", key[64] = "",
					patches[1024] = "", line[256];
				FILE *pf;

				xpath(kp, sizeof(kp), "%s/%s-hz%s/release",
				      kernels_dir, M.values[AX_variant][v],
				      M.values[AX_hz][h]);
				if ((pf = fopen(kp, "re"))) {
					if (fgets(rel, sizeof(rel), pf))
						rel[strcspn(rel, "\n")] = '\0';
					fclose(pf);
				}
				xpath(kp, sizeof(kp), "%s/%s-hz%s/key",
				      kernels_dir, M.values[AX_variant][v],
				      M.values[AX_hz][h]);
				if ((pf = fopen(kp, "re"))) {
					if (fgets(key, sizeof(key), pf))
						key[strcspn(key, "\n")] = '\0';
					fclose(pf);
				}
				xpath(kp, sizeof(kp), "%s/%s-hz%s/patches",
				      kernels_dir, M.values[AX_variant][v],
				      M.values[AX_hz][h]);
				if ((pf = fopen(kp, "re"))) {
					while (fgets(line, sizeof(line), pf)) {
						line[strcspn(line, "\n")] =
							'\0';
						strncat(patches,
							patches[0] ? "; " : "",
							sizeof(patches) -
								strlen(patches) -
								1);
						strncat(patches, line,
							sizeof(patches) -
								strlen(patches) -
								1);
					}
					fclose(pf);
				}
				sb_printf(&b,
					  "%s\n    \"%s-hz%s\": {\"release\": ",
					  first ? "" : ",",
					  M.values[AX_variant][v],
					  M.values[AX_hz][h]);
				json_str(&b, rel);
				sb_printf(&b, ", \"input_key\": ");
				json_str(&b, key);
				sb_printf(&b, ", \"patches\": ");
				json_str(&b, patches);
				sb_printf(&b, "}");
				first = 0;
			}
	}
	sb_printf(&b, "\n  },\n  \"image\": ");
	json_str(&b, image_path);
	sb_printf(&b, ",\n  \"matrix\": ");
	json_str(&b, M.name);
	sb_printf(
		&b,
		",\n  \"seed\": %" PRIu64
		",\n  \"shard\": \"%d/%d\",\n  \"boots_planned\": %zu,\n  \"jobs\": %d,\n  \"kvm\": ",
		opt.seed, opt.shard_k, opt.shard_n, nplan, opt.jobs);
	json_str(&b, kvm_ok ? "usable or not needed" : kvm_why);
	sb_printf(&b, ",\n  \"command_line\": [");
	for (int i = 0; i < argc; i++) {
		sb_printf(&b, "%s", i ? ", " : "");
		json_str(&b, argv[i]);
	}
	sb_printf(&b, "]\n}\n");
	path_join(path, sizeof(path), out_dir, "meta.json");
	write_file_atomic(path, b.p, b.len);
	sb_free(&b);
}

static void check_inputs(void)
{
	char err[1024];
	int need_kvm = 0;

	if (matrix_validate(&M, err, sizeof(err)))
		die("%s", err);
	for (int v = 0; v < M.nvalues[AX_variant]; v++)
		for (int h = 0; h < M.nvalues[AX_hz]; h++) {
			char p[PATH_MAX];

			xpath(p, sizeof(p), "%s/%s-hz%s/bzImage", kernels_dir,
			      M.values[AX_variant][v], M.values[AX_hz][h]);
			if (!file_exists(p))
				die("kernel variant '%s' with HZ=%s is not built (%s missing); build it with: make kernels VARIANTS=%s HZ=%s"
				    " (a kernel of your own: its bzImage as DIR/%s-hz%s/bzImage, then --kernels DIR)",
				    M.values[AX_variant][v], M.values[AX_hz][h],
				    p, M.values[AX_variant][v],
				    M.values[AX_hz][h], M.values[AX_variant][v],
				    M.values[AX_hz][h]);
		}
	if (!file_exists(image_path))
		die("guest image %s not found; build it with: make image",
		    image_path);
	for (int a = 0; a < M.nvalues[AX_accel]; a++) {
		if (!strcmp(M.values[AX_accel][a], "kvm")) {
			need_kvm = 1;
			continue;
		}
		for (int c = 0; c < M.nvalues[AX_cpu]; c++)
			if (matrix_combination_ok(M.values[AX_accel][a],
						  M.values[AX_cpu][c]) &&
			    qemu_check_cpu(opt.qemu, M.values[AX_accel][a],
					   M.values[AX_cpu][c], err,
					   sizeof(err)))
				die("QEMU (%s) rejects cpu=%s under %s: %s\n(list models with: %s -cpu help)",
				    opt.qemu, M.values[AX_cpu][c],
				    M.values[AX_accel][a], err, opt.qemu);
	}
	tsc_khz = host_tsc_khz();
	if (need_kvm && !opt.dry_run) {
		struct boot_params bp = { .qemu = opt.qemu,
					  .image = image_path,
					  .read_timeout_s = 0 };
		char kernel[PATH_MAX], console[PATH_MAX];
		struct cell c = { 0 };
		int64_t t = host_now_ns();

		c.v[AX_variant] = M.values[AX_variant][0];
		c.v[AX_hz] = M.values[AX_hz][0];
		kernel_path(&c, kernel, sizeof(kernel));
		path_join(console, sizeof(console), out_dir,
			  "kvm-canary-console.log");
		bp.kernel = kernel;
		bp.console_path = console;
		fprintf(stderr,
			"[bench] checking KVM (canary boot, up to %d s)...\n",
			opt.canary_s);
		if (kvm_usable(&bp, opt.canary_s, kvm_why, sizeof(kvm_why))) {
			kvm_ok = 0;
			fprintf(stderr,
				"[bench] KVM cells will be SKIPPED: %s (decided in %.1f s)\n",
				kvm_why, (double)(host_now_ns() - t) / 1e9);
		} else {
			fprintf(stderr, "[bench] KVM usable (%.1f s)\n",
				(double)(host_now_ns() - t) / 1e9);
		}
	}
}

static void default_paths(void)
{
	const char *cache = getenv("CRNGBENCH_CACHE");
	char base[PATH_MAX];

	if (cache && *cache)
		set_text(base, "%s", cache);
	else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
		xpath(base, sizeof(base), "%s/crngbench",
		      getenv("XDG_CACHE_HOME"));
	else
		xpath(base, sizeof(base), "%s/.cache/crngbench",
		      getenv("HOME") ? getenv("HOME") : "/root");
	if (opt.kernels)
		set_text(kernels_dir, "%s", opt.kernels);
	else
		xpath(kernels_dir, sizeof(kernels_dir), "%s/kernels", base);
	if (opt.image)
		set_text(image_path, "%s", opt.image);
	else
		snprintf(image_path, sizeof(image_path), "build/guest.cpio");
}

/* The run's seed (out_dir/seed): the bootstrap of its summary needs it. */
static uint64_t read_seed(const char *why)
{
	char path[PATH_MAX], line[64];
	FILE *f;

	path_join(path, sizeof(path), out_dir, "seed");
	f = fopen(path, "re");
	if (!f || !fgets(line, sizeof(line), f))
		die("%s: %s missing", why, path);
	fclose(f);
	return strtoull(line, NULL, 10);
}

/*
 * A whole file into b, byte for byte (a garbled channel may hold NULs);
 * b->p is always a terminated string afterwards, "" if the file does not
 * exist. Returns -1 with errno on a read error.
 */
static int slurp(const char *path, struct strbuf *b)
{
	FILE *f = fopen(path, "re");
	long size = 0;

	b->len = 0;
	if (f && (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
		  fseek(f, 0, SEEK_SET))) {
		fclose(f);
		return -1;
	}
	if (!f && errno != ENOENT)
		return -1;
	if ((size_t)size + 1 > b->cap) {
		char *p = realloc(b->p, (size_t)size + 1);

		if (!p) {
			if (f)
				fclose(f);
			errno = ENOMEM;
			return -1;
		}
		b->p = p;
		b->cap = (size_t)size + 1;
	}
	if (f) {
		b->len = fread(b->p, 1, (size_t)size, f);
		if (ferror(f)) {
			fclose(f);
			errno = EIO;
			return -1;
		}
		fclose(f);
	}
	b->p[b->len] = '\0';
	return 0;
}

/* Open DIR/<name>.rescan for writing and put the table's header in it. */
static FILE *rescan_table(const char *name, const char *header)
{
	char path[PATH_MAX];
	FILE *f;

	xpath(path, sizeof(path), "%s/%s.rescan", out_dir, name);
	f = fopen(path, "we");
	if (!f || fputs(header, f) < 0)
		die("cannot write %s: %s", path, strerror(errno));
	return f;
}

static void rescan_commit(FILE *f, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];

	xpath(from, sizeof(from), "%s/%s.rescan", out_dir, name);
	path_join(to, sizeof(to), out_dir, name);
	if (fclose(f) || rename(from, to))
		die("cannot write %s: %s", to, strerror(errno));
}

/*
 * --rescan: re-derive raw.csv, reads.csv and traces.csv of the run in
 * out_dir from what its boots left in boots/<id>/ (result.log, console.log,
 * qemu-stderr.log, perf.csv), with the classifier of this build: after the
 * report parser changed, a run need not be booted again. What only the
 * host saw comes from the old rows: host times, and whether the boot was
 * killed at the timeout (status censored or timeout). Skipped boots (KVM
 * unusable) stay as they were. The new tables replace the old ones only
 * once all are written.
 */
static int rescan(void)
{
	char path[PATH_MAX], err[1024], line[8192];
	struct strbuf chan = { 0 }, qerr = { 0 };
	struct row *old;
	size_t n, changed = 0;
	FILE *raw, *rd, *tr;

	matrix_init(&M);
	path_join(path, sizeof(path), out_dir, "run.matrix");
	if (matrix_load(&M, path, err, sizeof(err)))
		die("cannot rescan: %s", err);
	opt.seed = read_seed("cannot rescan");
	path_join(path, sizeof(path), out_dir, "raw.csv");
	if (row_read_file(path, &old, &n))
		die("cannot rescan: cannot read %s: %s", path, strerror(errno));
	/* Every boot's channel bytes must be there before anything is written. */
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(old[i].status, "skipped"))
			continue;
		xpath(path, sizeof(path), "%s/boots/%s/result.log", out_dir,
		      old[i].boot_id);
		if (access(path, R_OK))
			die("cannot rescan: %s: %s (a rescan needs the run's boots/ directory)",
			    path, strerror(errno));
	}
	raw = rescan_table("raw.csv", "");
	row_write_header(raw);
	rd = rescan_table("reads.csv", READS_HEADER);
	tr = rescan_table("traces.csv", TRACES_HEADER);
	for (size_t i = 0; i < n; i++) {
		struct strbuf reads = { 0 }, traces = { 0 };
		struct row r = old[i];
		char dir[PATH_MAX];
		int len;

		if (strcmp(old[i].status, "skipped")) {
			struct boot_facts f = {
				.dir = dir,
				.timed_out =
					!strcmp(old[i].status, "censored") ||
					!strcmp(old[i].status, "timeout"),
				.timeout_s = M.timeout_s,
				.perf = 1, /* perf.csv is there if it was on */
				.t_first_byte = old[i].host_first_byte_ns,
				.t_urandom = old[i].host_urandom_ns,
				.t_report = old[i].host_report_ns,
				.t_exit = old[i].host_exit_ns,
			};

			xpath(dir, sizeof(dir), "%s/boots/%s", out_dir,
			      old[i].boot_id);
			path_join(path, sizeof(path), dir, "result.log");
			if (slurp(path, &chan))
				die("cannot read %s: %s", path,
				    strerror(errno));
			path_join(path, sizeof(path), dir, "qemu-stderr.log");
			if (slurp(path, &qerr))
				die("cannot read %s: %s", path,
				    strerror(errno));
			f.chan = chan.p;
			f.chan_len = chan.len;
			f.err = qerr.p;
			row_init(&r);
			set_text(r.boot_id, "%s", old[i].boot_id);
			r.run_index = old[i].run_index;
			r.cell = old[i].cell;
			r.rep = old[i].rep;
			memcpy(r.axis, old[i].axis, sizeof(r.axis));
			classify_boot(&f, &r, &reads, &traces);
			changed += strcmp(r.status, old[i].status) != 0;
		}
		len = row_format(&r, line, sizeof(line));
		if (len < 0)
			die("row for %s does not fit", r.boot_id);
		if (fwrite(reads.p ? reads.p : "", 1, reads.len, rd) !=
			    reads.len ||
		    fwrite(traces.p ? traces.p : "", 1, traces.len, tr) !=
			    traces.len ||
		    fwrite(line, 1, (size_t)len, raw) != (size_t)len)
			die("cannot write the rescanned tables: %s",
			    strerror(errno));
		sb_free(&reads);
		sb_free(&traces);
	}
	rescan_commit(rd, "reads.csv");
	rescan_commit(tr, "traces.csv");
	rescan_commit(raw, "raw.csv");
	sb_free(&chan);
	sb_free(&qerr);
	free(old);
	fprintf(stderr,
		"[rescan] %s: %zu boots re-derived, %zu changed status\n",
		out_dir, n, changed);
	return summary_write(out_dir, opt.seed, opt.quiet ? NULL : stdout) ? 1 :
									     0;
}

int main(int argc, char **argv)
{
	struct boot_plan *plan;
	size_t nplan;
	char err[1024], path[PATH_MAX];
	struct sigaction sa = { .sa_handler = on_sigint };

	parse_args(argc, argv);
	if (opt.summarize_dir) {
		set_text(out_dir, "%s", opt.summarize_dir);
		return summary_write(out_dir, opt.seed, stdout) ? 1 : 0;
	}
	if (opt.rescan_dir) {
		set_text(out_dir, "%s", opt.rescan_dir);
		return rescan();
	}
	if (!opt.out)
		die("--out DIR is required (the Makefile picks results/<matrix>-<time>)");
	set_text(out_dir, "%s", opt.out);
	default_paths();

	matrix_init(&M);
	if (opt.resume) {
		if (opt.matrix_file || opt.nsets)
			die("--resume runs the matrix saved in %s/run.matrix; drop --matrix/--set",
			    out_dir);
		path_join(path, sizeof(path), out_dir, "run.matrix");
		if (matrix_load(&M, path, err, sizeof(err)))
			die("cannot resume: %s", err);
		opt.seed = read_seed("cannot resume");
	} else {
		if (opt.matrix_file &&
		    matrix_load(&M, opt.matrix_file, err, sizeof(err)))
			die("%s", err);
		for (int i = 0; i < opt.nsets; i++)
			if (matrix_set(&M, opt.sets[i], err, sizeof(err)))
				die("--set %s", err);
		if (!opt.seed_given) {
			if (getrandom(&opt.seed, sizeof(opt.seed), 0) !=
			    sizeof(opt.seed))
				die("getrandom: %s", strerror(errno));
			opt.seed >>= 16; /* keep it short enough to type */
		}
	}
	if (!opt.jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		/* TCG guests time themselves: leave a CPU for the host's noise. */
		opt.jobs = n <= 2 ? 1 :
				    (int)(n - 1 > MAX_JOBS ? MAX_JOBS : n - 1);
	}

	/* The results directory: created, writable, not an old run by accident. */
	if (mkdir(out_dir, 0755) && errno != EEXIST)
		die("cannot create results directory %s: %s", out_dir,
		    strerror(errno));
	path_join(path, sizeof(path), out_dir, ".write-test");
	{
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);

		if (fd < 0)
			die("results directory %s is not writable: %s", out_dir,
			    strerror(errno));
		close(fd);
		unlink(path);
	}
	path_join(path, sizeof(path), out_dir, "raw.csv");
	if (!opt.resume && file_exists(path) && !opt.dry_run)
		die("%s already holds a run; use --resume to finish it or choose another --out",
		    out_dir);

	check_inputs();
	plan = matrix_plan(&M, opt.seed, opt.shard_k, opt.shard_n, &nplan);
	if (!plan || !nplan)
		die("the matrix has no boots for shard %d/%d", opt.shard_k,
		    opt.shard_n);

	if (opt.dry_run) {
		printf("matrix %s: %zu cells x %d reps = %zu boots (shard %d/%d: %zu), seed %" PRIu64
		       ", jobs %d\n",
		       M.name, matrix_ncells(&M), M.reps,
		       matrix_ncells(&M) * (size_t)M.reps, opt.shard_k,
		       opt.shard_n, nplan, opt.seed, opt.jobs);
		for (size_t i = 0; i < nplan; i++) {
			struct slot s = { 0 };
			struct argv_buf a = { 0 };
			struct boot_params bp;
			char id[32], kernel[PATH_MAX], console[PATH_MAX],
				perf[PATH_MAX], cmd[8192];

			matrix_cell(&M, plan[i].cell, &s.cell);
			boot_id(&plan[i], id, sizeof(id));
			xpath(s.dir, sizeof(s.dir), "%s/boots/%s", out_dir, id);
			if (!strcmp(s.cell.v[AX_seed], "saved"))
				set_text(s.seed_hex,
					 "<32 random bytes per boot>");
			fill_params(&s, &bp, kernel, sizeof(kernel), console,
				    sizeof(console), perf, sizeof(perf));
			qemu_build_argv(&s.cell, &bp, &a);
			argv_join(&a, cmd, sizeof(cmd));
			printf("%s: %s\n", id, cmd);
			argv_free(&a);
		}
		free(plan);
		return 0;
	}

	{
		char seedline[32], boots[PATH_MAX];
		set_text(seedline, "%" PRIu64 "\n", opt.seed);
		path_join(path, sizeof(path), out_dir, "seed");
		write_file_atomic(path, seedline, strlen(seedline));
		path_join(boots, sizeof(boots), out_dir, "boots");
		if (mkdir(boots, 0755) && errno != EEXIST)
			die("cannot create %s: %s", boots, strerror(errno));
	}
	if (!opt.resume)
		save_matrix();
	write_meta(argc, argv, nplan);
	load_done();
	prune_detail("reads.csv");
	prune_detail("traces.csv");
	init_tables();

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr,
		"[bench] %s: %zu boots (%zu already done), %d at a time, seed %" PRIu64
		", results in %s\n",
		M.name, nplan, ndone, opt.jobs, opt.seed, out_dir);
	run_plan(plan, nplan);
	free(plan);
	return summary_write(out_dir, opt.seed, opt.quiet ? NULL : stdout) ? 1 :
									     0;
}
