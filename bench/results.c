// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "results.h"
#include "classify.h"
#include "qemu.h"
#include "report.h"
#include "summary.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define ERR(r, ...) err_set((r)->err, sizeof((r)->err), __VA_ARGS__)

int kernel_file(const char *kernels_dir, const char *variant, const char *hz,
		const char *file, char *buf, size_t len)
{
	return path_fmt(buf, len, "%s/%s-hz%s/%s", kernels_dir, variant, hz,
			file);
}

static int out_path(const struct run *r, const char *name, char *buf,
		    size_t len)
{
	return path_fmt(buf, len, "%s/%s", r->out_dir, name);
}

/* One runner per directory: a second gets the holder's pid in its error. */
static int lock_dir(struct run *r)
{
	char path[PATH_MAX], pid[32];
	ssize_t n;

	if (out_path(r, ".lock", path, sizeof(path)))
		return ERR(r, "results directory path too long: %s", r->out_dir);
	r->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (r->lock_fd < 0)
		return ERR(r, "results directory %s is not writable: %s",
			   r->out_dir, strerror(errno));
	if (flock(r->lock_fd, LOCK_EX | LOCK_NB)) {
		n = pread(r->lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		return ERR(r, "%s is in use by another crngbench-run (pid %s); wait for it or choose another --out",
			   r->out_dir, pid[0] ? pid : "?");
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(r->lock_fd, 0) || pwrite(r->lock_fd, pid, (size_t)n, 0) != n)
		return ERR(r, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

int results_open(struct run *r)
{
	char path[PATH_MAX];

	r->lock_fd = -1;
	if (mkdir(r->out_dir, 0755) && errno != EEXIST)
		return ERR(r, "cannot create results directory %s: %s",
			   r->out_dir, strerror(errno));
	if (lock_dir(r))
		return -1;
	if (out_path(r, "raw.csv", path, sizeof(path)))
		return ERR(r, "results directory path too long");
	if (!r->o.resume && file_exists(path))
		return ERR(r, "%s already holds a run; use --resume to finish it or choose another --out",
			   r->out_dir);
	if (r->o.resume && !file_exists(path))
		return ERR(r, "cannot resume: %s holds no run (no raw.csv)",
			   r->out_dir);
	return 0;
}

static int write_out(struct run *r, const char *name, const char *buf,
		     size_t len)
{
	char path[PATH_MAX];

	if (out_path(r, name, path, sizeof(path)) ||
	    write_file_atomic(path, buf, len))
		return ERR(r, "cannot write %s/%s: %s", r->out_dir, name,
			   strerror(errno));
	return 0;
}

/* The resolved matrix, so --resume and shard merges run exactly this. */
static int save_matrix(struct run *r)
{
	const struct matrix *m = &r->m;
	struct strbuf b = { 0 };
	int rc;

	sb_printf(
		&b,
		"# resolved by crngbench-run\nname = %s\nreps = %d\ntimeout = %d\nread_timeout = %d\n",
		m->name, m->reps, m->timeout_s, m->read_timeout_s);
	for (int a = 0; a < AX_N; a++) {
		sb_printf(&b, "%s = ", axis_name((enum axis)a));
		for (int i = 0; i < m->nvalues[a]; i++)
			sb_printf(&b, "%s%s", i ? "," : "", m->values[a][i]);
		sb_printf(&b, "\n");
	}
	rc = b.oom ? ERR(r, "out of memory") :
		     write_out(r, "run.matrix", b.p, b.len);
	sb_free(&b);
	return rc;
}

/* A table's header, written and synced when the run is created. */
static int table_header(struct run *r, const char *name, const char *header)
{
	char path[PATH_MAX];
	struct stat st;

	if (out_path(r, name, path, sizeof(path)))
		return ERR(r, "path too long");
	if (stat(path, &st) == 0 && st.st_size > 0)
		return 0;
	return write_out(r, name, header, strlen(header));
}

int results_start(struct run *r)
{
	char line[32], path[PATH_MAX];
	FILE *mem;
	char *hdr = NULL;
	size_t hlen = 0;
	int rc;

	if (out_path(r, "boots", path, sizeof(path)) ||
	    (mkdir(path, 0755) && errno != EEXIST))
		return ERR(r, "cannot create %s/boots: %s", r->out_dir,
			   strerror(errno));
	if (!r->o.resume) {
		snprintf(line, sizeof(line), "%" PRIu64 "\n", r->o.seed);
		if (write_out(r, "seed", line, strlen(line)) || save_matrix(r))
			return -1;
	}
	mem = open_memstream(&hdr, &hlen);
	if (!mem)
		return ERR(r, "out of memory");
	row_write_header(mem);
	if (fclose(mem)) {
		free(hdr);
		return ERR(r, "out of memory");
	}
	rc = table_header(r, "raw.csv", hdr) ||
	     table_header(r, "reads.csv", READS_HEADER) ||
	     table_header(r, "traces.csv", TRACES_HEADER);
	free(hdr);
	return rc ? -1 : 0;
}

int results_is_done(const struct run *r, const char *id)
{
	for (size_t i = 0; i < r->ndone; i++)
		if (!strcmp(r->done_ids[i], id))
			return 1;
	return 0;
}

/*
 * reads.csv / traces.csv rows of boots that never reached raw.csv are
 * dropped on resume, so every table agrees with raw.csv.
 */
static int prune_detail(struct run *r, const char *name)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *in, *out;
	int first = 1, rc = 0;

	if (out_path(r, name, path, sizeof(path)) || trim_partial(path))
		return ERR(r, "cannot repair %s/%s: %s", r->out_dir, name,
			   strerror(errno));
	in = fopen(path, "re");
	if (!in)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = fopen(tmp, "we");
	if (!out) {
		fclose(in);
		return ERR(r, "cannot write %s: %s", tmp, strerror(errno));
	}
	while ((len = getline(&line, &cap, in)) > 0) {
		char id[32];

		if (first) {
			fputs(line, out);
			first = 0;
			continue;
		}
		snprintf(id, sizeof(id), "%.*s", (int)strcspn(line, ","), line);
		if (results_is_done(r, id))
			fputs(line, out);
	}
	free(line);
	fclose(in);
	if (fclose(out) || rename(tmp, path))
		rc = ERR(r, "cannot rewrite %s: %s", path, strerror(errno));
	return rc;
}

int results_load_done(struct run *r)
{
	char path[PATH_MAX];
	struct row *rows;
	size_t n;

	if (out_path(r, "raw.csv", path, sizeof(path)) || trim_partial(path))
		return ERR(r, "cannot repair %s/raw.csv: %s", r->out_dir,
			   strerror(errno));
	if (row_read_file(path, &rows, &n, r->err, sizeof(r->err)))
		return -1;
	r->done_ids = calloc(n ? n : 1, sizeof(*r->done_ids));
	if (!r->done_ids) {
		free(rows);
		return ERR(r, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		if (results_is_done(r, rows[i].boot_id)) {
			free(rows);
			return ERR(r, "%s holds boot %s twice; fix raw.csv before resuming",
				   path, rows[i].boot_id);
		}
		r->done_ids[r->ndone] = strdup(rows[i].boot_id);
		if (!r->done_ids[r->ndone++]) {
			free(rows);
			return ERR(r, "out of memory");
		}
	}
	free(rows);
	return prune_detail(r, "reads.csv") || prune_detail(r, "traces.csv") ?
		       -1 :
		       0;
}

int results_commit(struct run *r, const struct row *row,
		   const struct strbuf *reads, const struct strbuf *traces)
{
	char path[PATH_MAX], line[8192];
	int n = row_format(row, line, sizeof(line));

	if (n < 0)
		return ERR(r, "the row of boot %s does not fit in %zu bytes",
			   row->boot_id, sizeof(line));
	/* Detail tables first, raw.csv last: raw.csv is the commit record. */
	if (out_path(r, "reads.csv", path, sizeof(path)) ||
	    append_atomic(path, reads ? reads->p : "", reads ? reads->len : 0) ||
	    out_path(r, "traces.csv", path, sizeof(path)) ||
	    append_atomic(path, traces ? traces->p : "",
			  traces ? traces->len : 0) ||
	    out_path(r, "raw.csv", path, sizeof(path)) ||
	    append_atomic(path, line, (size_t)n))
		return ERR(r, "cannot append to %s: %s", path, strerror(errno));
	return 0;
}

int results_read_seed(const char *dir, uint64_t *seed, char *err,
		      size_t errlen)
{
	char path[PATH_MAX], line[64], *end;
	FILE *f;

	if (path_fmt(path, sizeof(path), "%s/seed", dir))
		return err_set(err, errlen, "path too long: %s", dir);
	f = fopen(path, "re");
	if (!f)
		return err_set(err, errlen, "%s: %s", path, strerror(errno));
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return err_set(err, errlen, "%s is empty", path);
	}
	fclose(f);
	errno = 0;
	*seed = strtoull(line, &end, 10);
	if (errno || end == line || (*end && *end != '\n') || line[0] == '-')
		return err_set(err, errlen,
			       "%s does not hold a seed (a non-negative integer): '%.20s'",
			       path, line);
	return 0;
}

int results_read_matrix(const char *dir, struct matrix *m, char *err,
			size_t errlen)
{
	char path[PATH_MAX];

	if (path_fmt(path, sizeof(path), "%s/run.matrix", dir))
		return err_set(err, errlen, "path too long: %s", dir);
	matrix_init(m);
	return matrix_load(m, path, err, errlen);
}

/* --- meta.json ------------------------------------------------------------------ */

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

/* The first line of a kernel's build record (release, key), "" if none. */
static void kernel_fact(const struct run *r, const char *v, const char *hz,
			const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	if (kernel_file(r->kernels_dir, v, hz, file, path, sizeof(path)))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The kernel's patches file, one "name sha256" per line, as "a; b". */
static void kernel_patches(const struct run *r, const char *v, const char *hz,
			   struct strbuf *out)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	if (kernel_file(r->kernels_dir, v, hz, "patches", path, sizeof(path)))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		sb_printf(out, "%s%s", out->len ? "; " : "", line);
	}
	fclose(f);
}

static void meta_kernels(const struct run *r, struct strbuf *b)
{
	const struct matrix *m = &r->m;
	int first = 1;

	for (int v = 0; v < m->nvalues[AX_variant]; v++)
		for (int h = 0; h < m->nvalues[AX_hz]; h++) {
			const char *vn = m->values[AX_variant][v],
				   *hz = m->values[AX_hz][h];
			char rel[128], key[80];
			struct strbuf patches = { 0 };

			kernel_fact(r, vn, hz, "release", rel, sizeof(rel));
			kernel_fact(r, vn, hz, "key", key, sizeof(key));
			kernel_patches(r, vn, hz, &patches);
			sb_printf(b, "%s\n    \"%s-hz%s\": {\"release\": ",
				  first ? "" : ",", vn, hz);
			json_str(b, rel);
			sb_printf(b, ", \"input_key\": ");
			json_str(b, key);
			sb_printf(b, ", \"patches\": ");
			json_str(b, patches.p ? patches.p : "");
			sb_printf(b, "}");
			sb_free(&patches);
			first = 0;
		}
}

static void host_cpu(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(buf, len, "%s", strchr(line, ':') + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	fclose(f);
}

/* The installed linux-source-6.1's version, from dpkg's own database. */
static void kernel_package(char *buf, size_t len)
{
	char line[512];
	int in = 0;
	FILE *f = fopen("/var/lib/dpkg/status", "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Package: ", 9))
			in = !strcmp(line + 9, "linux-source-6.1\n");
		else if (in && !strncmp(line, "Version: ", 9)) {
			line[strcspn(line, "\n")] = '\0';
			text_printf(buf, len, "%s", line + 9);
			break;
		}
	}
	fclose(f);
}

int results_write_meta(struct run *r, int argc, char **argv, size_t nplan)
{
	struct strbuf b = { 0 };
	struct utsname u;
	char cpu[256], qv[256], pkg[128];
	int rc;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	host_cpu(cpu, sizeof(cpu));
	qemu_version(r->o.qemu, qv, sizeof(qv));
	kernel_package(pkg, sizeof(pkg));
	sb_printf(&b, "{\n  \"tool\": \"crngbench-run\",\n  \"host\": ");
	json_str(&b, u.nodename);
	sb_printf(&b, ",\n  \"host_kernel\": ");
	json_str(&b, u.release);
	sb_printf(&b, ",\n  \"host_cpu\": ");
	json_str(&b, cpu);
	sb_printf(
		&b,
		",\n  \"host_cpus\": %ld,\n  \"host_tsc_khz\": %ld,\n  \"qemu\": ",
		sysconf(_SC_NPROCESSORS_ONLN), r->tsc_khz);
	json_str(&b, qv);
	sb_printf(&b, ",\n  \"kernel_package\": ");
	json_str(&b, pkg);
	sb_printf(&b, ",\n  \"kernels\": {");
	meta_kernels(r, &b);
	sb_printf(&b, "\n  },\n  \"image\": ");
	json_str(&b, r->image_path);
	sb_printf(&b, ",\n  \"matrix\": ");
	json_str(&b, r->m.name);
	sb_printf(
		&b,
		",\n  \"seed\": %" PRIu64
		",\n  \"shard\": \"%d/%d\",\n  \"boots_planned\": %zu,\n  \"jobs\": %d,\n  \"kvm\": ",
		r->o.seed, r->o.shard_k, r->o.shard_n, nplan, r->o.jobs);
	json_str(&b, r->kvm_ok ? "usable or not needed" : r->kvm_why);
	sb_printf(&b, ",\n  \"command_line\": [");
	for (int i = 0; i < argc; i++) {
		sb_printf(&b, "%s", i ? ", " : "");
		json_str(&b, argv[i]);
	}
	sb_printf(&b, "]\n}\n");
	rc = b.oom ? ERR(r, "out of memory") :
		     write_out(r, "meta.json", b.p, b.len);
	sb_free(&b);
	return rc;
}

/* --- rescan ------------------------------------------------------------------------ */

/* Open DIR/<name>.rescan for writing and put the table's header in it. */
static FILE *rescan_table(struct run *r, const char *name, const char *header)
{
	char path[PATH_MAX];
	FILE *f;

	if (path_fmt(path, sizeof(path), "%s/%s.rescan", r->out_dir, name)) {
		ERR(r, "path too long");
		return NULL;
	}
	f = fopen(path, "we");
	if (!f || fputs(header, f) < 0) {
		ERR(r, "cannot write %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	return f;
}

static int rescan_commit(struct run *r, FILE *f, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];

	if (path_fmt(from, sizeof(from), "%s/%s.rescan", r->out_dir, name) ||
	    out_path(r, name, to, sizeof(to)) || fclose(f) || rename(from, to))
		return ERR(r, "cannot write %s/%s: %s", r->out_dir, name,
			   strerror(errno));
	return 0;
}

/* Every boot's channel bytes must be there before anything is written. */
static int rescan_check(struct run *r, const struct row *old, size_t n)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(old[i].status, "skipped"))
			continue;
		if (path_fmt(path, sizeof(path), "%s/boots/%s/result.log",
			     r->out_dir, old[i].boot_id) ||
		    access(path, R_OK))
			return ERR(r, "cannot rescan: %s: %s (a rescan needs the run's boots/ directory)",
				   path, strerror(errno));
	}
	return 0;
}

/*
 * One boot again from boots/<id>/, with what only the host saw (host times,
 * whether it was killed at the timeout, how QEMU ended) from its old row.
 */
static int rescan_boot(struct run *r, const struct row *old, struct row *nr,
		       struct strbuf *reads, struct strbuf *traces)
{
	struct strbuf chan = { 0 }, qerr = { 0 };
	char dir[PATH_MAX], path[PATH_MAX];
	struct boot_facts f = {
		.dir = dir,
		.timed_out = !strcmp(old->status, "censored") ||
			     !strcmp(old->status, "timeout"),
		.timeout_s = r->m.timeout_s,
		.perf = 1, /* perf.csv is there if it was on */
		.t_first_byte = old->host_first_byte_ns,
		.t_urandom = old->host_urandom_ns,
		.t_report = old->host_report_ns,
		.t_exit = old->host_exit_ns,
		.qemu_exit = (int)old->qemu_exit,
		.qemu_signal = old->qemu_signal > 0 ? (int)old->qemu_signal : 0,
	};
	int rc = 0;

	if (path_fmt(dir, sizeof(dir), "%s/boots/%s", r->out_dir,
		     old->boot_id) ||
	    path_fmt(path, sizeof(path), "%s/result.log", dir) ||
	    slurp(path, &chan) ||
	    path_fmt(path, sizeof(path), "%s/qemu-stderr.log", dir) ||
	    slurp(path, &qerr)) {
		rc = ERR(r, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	f.chan = chan.p;
	f.chan_len = chan.len;
	f.err = qerr.p;
	row_init(nr);
	memcpy(nr->boot_id, old->boot_id, sizeof(nr->boot_id));
	nr->run_index = old->run_index;
	nr->cell = old->cell;
	nr->rep = old->rep;
	memcpy(nr->axis, old->axis, sizeof(nr->axis));
	classify_boot(&f, nr, reads, traces);
out:
	sb_free(&chan);
	sb_free(&qerr);
	return rc;
}

static int rescan_rows(struct run *r, const struct row *old, size_t n,
		       FILE *raw, FILE *rd, FILE *tr, size_t *changed)
{
	char line[8192];

	for (size_t i = 0; i < n; i++) {
		struct strbuf reads = { 0 }, traces = { 0 };
		struct row nr = old[i];
		int len, rc = 0;

		if (strcmp(old[i].status, "skipped")) {
			if (rescan_boot(r, &old[i], &nr, &reads, &traces))
				return -1;
			*changed += strcmp(nr.status, old[i].status) != 0;
		}
		len = row_format(&nr, line, sizeof(line));
		if (len < 0 || reads.oom || traces.oom)
			rc = ERR(r, "the row of %s does not fit", nr.boot_id);
		else if (fwrite(reads.p ? reads.p : "", 1, reads.len, rd) !=
				 reads.len ||
			 fwrite(traces.p ? traces.p : "", 1, traces.len, tr) !=
				 traces.len ||
			 fwrite(line, 1, (size_t)len, raw) != (size_t)len)
			rc = ERR(r, "cannot write the rescanned tables: %s",
				 strerror(errno));
		sb_free(&reads);
		sb_free(&traces);
		if (rc)
			return rc;
	}
	return 0;
}

int results_rescan(struct run *r)
{
	char path[PATH_MAX];
	struct row *old = NULL;
	size_t n, changed = 0;
	FILE *raw = NULL, *rd = NULL, *tr = NULL;
	int rc = -1;

	if (results_read_matrix(r->out_dir, &r->m, r->err, sizeof(r->err)) ||
	    results_read_seed(r->out_dir, &r->o.seed, r->err,
			      sizeof(r->err)) ||
	    out_path(r, "raw.csv", path, sizeof(path)) ||
	    row_read_file(path, &old, &n, r->err, sizeof(r->err)) ||
	    rescan_check(r, old, n))
		goto out;
	raw = rescan_table(r, "raw.csv", "");
	if (raw)
		row_write_header(raw);
	rd = rescan_table(r, "reads.csv", READS_HEADER);
	tr = rescan_table(r, "traces.csv", TRACES_HEADER);
	if (!raw || !rd || !tr ||
	    rescan_rows(r, old, n, raw, rd, tr, &changed))
		goto out;
	rc = rescan_commit(r, rd, "reads.csv");
	rd = NULL;
	rc = rc ? rc : rescan_commit(r, tr, "traces.csv");
	tr = NULL;
	rc = rc ? rc : rescan_commit(r, raw, "raw.csv");
	raw = NULL;
	if (!rc)
		fprintf(stderr,
			"[rescan] %s: %zu boots re-derived, %zu changed status\n",
			r->out_dir, n, changed);
out:
	if (raw)
		fclose(raw);
	if (rd)
		fclose(rd);
	if (tr)
		fclose(tr);
	if (rc)
		for (int i = 0; i < 3; i++)
			if (!path_fmt(path, sizeof(path), "%s/%s.rescan",
				      r->out_dir,
				      (const char *[]){ "raw.csv", "reads.csv",
							"traces.csv" }[i]))
				unlink(path);
	free(old);
	return rc;
}

/* --- merge ---------------------------------------------------------------------------- */

struct shard {
	const char *dir;
	struct row *rows;
	size_t n;
};

/* A shard's file as bytes, for "identical in every shard" checks. */
static int shard_file(const char *dir, const char *name, struct strbuf *b,
		      char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (path_fmt(path, sizeof(path), "%s/%s", dir, name) ||
	    !is_regular_file(path) || slurp(path, b))
		return err_set(err, errlen,
			       "%s is not a complete results directory (no %s)",
			       dir, name);
	return 0;
}

/* Same matrix and seed in every shard; every row read. */
static int merge_load(struct shard *s, int n, struct matrix *m,
		      uint64_t *seed, char *err, size_t errlen)
{
	struct strbuf first_m = { 0 }, first_s = { 0 }, b = { 0 };
	int rc = 0;

	for (int i = 0; i < n && !rc; i++) {
		char path[PATH_MAX];

		if (shard_file(s[i].dir, "raw.csv", &b, err, errlen) ||
		    shard_file(s[i].dir, "run.matrix", i ? &b : &first_m, err,
			       errlen) ||
		    (i && (b.len != first_m.len ||
			   memcmp(b.p, first_m.p, b.len)) &&
		     err_set(err, errlen,
			     "%s ran another matrix than %s (run.matrix differs)",
			     s[i].dir, s[0].dir)) ||
		    shard_file(s[i].dir, "seed", i ? &b : &first_s, err,
			       errlen) ||
		    (i && (b.len != first_s.len ||
			   memcmp(b.p, first_s.p, b.len)) &&
		     err_set(err, errlen,
			     "%s used another seed than %s; run every shard with the same --seed",
			     s[i].dir, s[0].dir))) {
			rc = -1;
			break;
		}
		if (path_fmt(path, sizeof(path), "%s/raw.csv", s[i].dir) ||
		    row_read_file(path, &s[i].rows, &s[i].n, err, errlen))
			rc = -1;
	}
	if (!rc && (results_read_matrix(s[0].dir, m, err, errlen) ||
		    results_read_seed(s[0].dir, seed, err, errlen)))
		rc = -1;
	sb_free(&first_m);
	sb_free(&first_s);
	sb_free(&b);
	return rc;
}

/* Every planned boot exactly once across the shards, nothing else. */
static int merge_check(const struct shard *s, int n, const struct matrix *m,
		       uint64_t seed, char *err, size_t errlen)
{
	size_t nplan, missing = 0;
	struct boot_plan *plan = matrix_plan(m, seed, 1, 1, &nplan);
	char first_missing[32] = "";
	int rc = 0;

	if (!plan)
		return err_set(err, errlen, "the shards' matrix has no boots");
	for (size_t p = 0; p < nplan && !rc; p++) {
		char id[32];
		int seen = -1;

		boot_id(&plan[p], id, sizeof(id));
		for (int i = 0; i < n && !rc; i++)
			for (size_t j = 0; j < s[i].n && !rc; j++) {
				if (strcmp(s[i].rows[j].boot_id, id))
					continue;
				if (seen >= 0)
					rc = err_set(
						err, errlen,
						"boot %s is recorded twice (%s and %s): were the shards K/N all different?",
						id, s[seen].dir, s[i].dir);
				seen = i;
			}
		if (seen < 0 && !missing++)
			snprintf(first_missing, sizeof(first_missing), "%s", id);
	}
	if (!rc && missing)
		rc = err_set(err, errlen,
			     "the shards hold %zu of %zu planned boots (%zu missing, first %s): is a shard missing or unfinished (--resume it)?",
			     nplan - missing, nplan, missing, first_missing);
	for (int i = 0; i < n && !rc; i++)
		if (s[i].n > nplan)
			rc = err_set(err, errlen,
				     "%s holds boots that are not in the matrix",
				     s[i].dir);
	free(plan);
	return rc;
}

/* The detail table name of every shard, headers once, into dst. */
static int merge_table(const struct shard *s, int n, const char *tmp,
		       const char *name, char *err, size_t errlen)
{
	struct strbuf out = { 0 }, b = { 0 };
	char path[PATH_MAX];
	int rc = 0;

	for (int i = 0; i < n && !rc; i++) {
		char *body;

		if (shard_file(s[i].dir, name, &b, err, errlen)) {
			rc = -1;
			break;
		}
		body = memchr(b.p, '\n', b.len);
		if (!i)
			sb_append(&out, b.p, body ? (size_t)(body - b.p) + 1 : 0);
		if (body)
			sb_append(&out, body + 1, b.len - (size_t)(body + 1 - b.p));
	}
	if (!rc && (out.oom || path_fmt(path, sizeof(path), "%s/%s", tmp, name) ||
		    write_file_atomic(path, out.p ? out.p : "", out.len)))
		rc = err_set(err, errlen, "cannot write %s/%s: %s", tmp, name,
			     strerror(errno));
	sb_free(&out);
	sb_free(&b);
	return rc;
}

/* raw.csv through the row writer: one format, whatever the shards had. */
static int merge_raw(const struct shard *s, int n, const char *tmp, char *err,
		     size_t errlen)
{
	char path[PATH_MAX], line[8192];
	FILE *f;
	int rc = 0;

	if (path_fmt(path, sizeof(path), "%s/raw.csv", tmp) ||
	    !(f = fopen(path, "we")))
		return err_set(err, errlen, "cannot write %s/raw.csv", tmp);
	row_write_header(f);
	for (int i = 0; i < n && !rc; i++)
		for (size_t j = 0; j < s[i].n && !rc; j++) {
			int len = row_format(&s[i].rows[j], line, sizeof(line));

			if (len < 0 || fwrite(line, 1, (size_t)len, f) != (size_t)len)
				rc = err_set(err, errlen, "cannot write %s",
					     path);
		}
	if (fclose(f) && !rc)
		rc = err_set(err, errlen, "cannot write %s: %s", path,
			     strerror(errno));
	return rc;
}

/* The files of every boot directory (boots/ID) the shards kept. */
static int merge_boots(const struct shard *s, int n, const char *tmp, char *err,
		       size_t errlen)
{
	char from[PATH_MAX], to[PATH_MAX];

	if (path_fmt(to, sizeof(to), "%s/boots", tmp) || mkdir(to, 0755))
		return err_set(err, errlen, "cannot create %s/boots", tmp);
	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < s[i].n; j++) {
			DIR *d;
			struct dirent *e;

			if (path_fmt(from, sizeof(from), "%s/boots/%s", s[i].dir,
				     s[i].rows[j].boot_id) ||
			    !(d = opendir(from)))
				continue; /* a fixture or skipped boot: no files */
			if (path_fmt(to, sizeof(to), "%s/boots/%s", tmp,
				     s[i].rows[j].boot_id) ||
			    mkdir(to, 0755)) {
				closedir(d);
				return err_set(err, errlen, "cannot create %s", to);
			}
			while ((e = readdir(d))) {
				char a[PATH_MAX], b[PATH_MAX];

				if (e->d_name[0] == '.')
					continue;
				if (path_fmt(a, sizeof(a), "%s/%s", from, e->d_name) ||
				    path_fmt(b, sizeof(b), "%s/%s", to, e->d_name) ||
				    (is_regular_file(a) && copy_file(a, b))) {
					closedir(d);
					return err_set(err, errlen,
						       "cannot copy %s: %s", a,
						       strerror(errno));
				}
			}
			closedir(d);
		}
	return 0;
}

/* The first shard's meta.json, with where the merge came from. */
static int merge_meta(const struct shard *s, int n, const char *tmp, char *err,
		      size_t errlen)
{
	struct strbuf in = { 0 }, out = { 0 };
	char path[PATH_MAX];
	const char *brace;
	int rc = 0;

	if (shard_file(s[0].dir, "meta.json", &in, err, errlen))
		return -1;
	brace = strchr(in.p, '{');
	sb_printf(&out, "{\n  \"merged_from\": [");
	for (int i = 0; i < n; i++) {
		sb_printf(&out, "%s", i ? ", " : "");
		json_str(&out, s[i].dir);
	}
	sb_printf(&out, "],%s", brace ? brace + 1 : "\n}\n");
	if (out.oom || path_fmt(path, sizeof(path), "%s/meta.json", tmp) ||
	    write_file_atomic(path, out.p, out.len))
		rc = err_set(err, errlen, "cannot write %s/meta.json", tmp);
	sb_free(&in);
	sb_free(&out);
	return rc;
}

static int merge_copy(const char *from_dir, const char *tmp, const char *name,
		      char *err, size_t errlen)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (path_fmt(a, sizeof(a), "%s/%s", from_dir, name) ||
	    path_fmt(b, sizeof(b), "%s/%s", tmp, name) || copy_file(a, b))
		return err_set(err, errlen, "cannot copy %s/%s: %s", from_dir,
			       name, strerror(errno));
	return 0;
}

/* Remove a half-built merge (files one level below boots/ at most). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[PATH_MAX];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (path_fmt(p, sizeof(p), "%s/%s", dir, e->d_name))
			continue;
		if (unlink(p))
			remove_tree(p);
	}
	closedir(d);
	rmdir(dir);
}

int results_merge(const char *out, char *const *dirs, int ndirs, char *err,
		  size_t errlen)
{
	struct shard *s = calloc((size_t)ndirs, sizeof(*s));
	struct matrix m;
	uint64_t seed = 0;
	char tmp[PATH_MAX];
	int rc = -1;

	if (!s)
		return err_set(err, errlen, "out of memory");
	for (int i = 0; i < ndirs; i++)
		s[i].dir = dirs[i];
	if (file_exists(out)) {
		err_set(err, errlen, "%s already exists; merge into a new directory",
			out);
		goto done;
	}
	if (merge_load(s, ndirs, &m, &seed, err, errlen) ||
	    merge_check(s, ndirs, &m, seed, err, errlen))
		goto done;
	if (path_fmt(tmp, sizeof(tmp), "%s.merge-%ld", out, (long)getpid()) ||
	    mkdir(tmp, 0755)) {
		err_set(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		goto done;
	}
	if (merge_raw(s, ndirs, tmp, err, errlen) ||
	    merge_table(s, ndirs, tmp, "reads.csv", err, errlen) ||
	    merge_table(s, ndirs, tmp, "traces.csv", err, errlen) ||
	    merge_copy(s[0].dir, tmp, "run.matrix", err, errlen) ||
	    merge_copy(s[0].dir, tmp, "seed", err, errlen) ||
	    merge_meta(s, ndirs, tmp, err, errlen) ||
	    merge_boots(s, ndirs, tmp, err, errlen) ||
	    summary_write(tmp, seed, NULL, err, errlen)) {
		remove_tree(tmp);
		goto done;
	}
	if (rename(tmp, out)) {
		err_set(err, errlen, "cannot rename %s to %s: %s", tmp, out,
			strerror(errno));
		remove_tree(tmp);
		goto done;
	}
	rc = 0;
done:
	for (int i = 0; i < ndirs; i++)
		free(s[i].rows);
	free(s);
	return rc;
}
