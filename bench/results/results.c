// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "results.h"
#include "../matrix/context.h"
#include "../machines/arch.h"
#include "../rows/detail.h"
#include "inputs.h"
#include "../matrix/matrixcheck.h"
#include "../matrix/matrixfile.h"
#include "../matrix/plan.h"
#include "../rows/report.h"
#include "runargs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

int results_path(const struct run *r, const char *name, char *buf, size_t len)
{
	return path_fmt(buf, len, "%s/%s", r->out_dir, name);
}

int results_write_out(struct run *r, const char *name, const char *buf,
		      size_t len)
{
	char path[PATH_MAX];

	if (results_path(r, name, path, sizeof(path)) ||
	    write_file_atomic(path, buf, len))
		return ERR(r, "cannot write %s/%s: %s", r->out_dir, name,
			   strerror(errno));
	return 0;
}

int results_save_matrix(struct run *r, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return ERR(r, "out of memory");
	rc = matrix_write(&r->m, mem);
	if (fclose(mem) || rc)
		rc = ERR(r, "out of memory");
	else
		rc = results_write_out(r, name, buf, len);
	free(buf);
	return rc;
}

/* A table's header, written and synced when the run is created. */
static int table_header(struct run *r, const char *name, const char *header)
{
	char path[PATH_MAX];
	struct stat st;

	if (results_path(r, name, path, sizeof(path)))
		return ERR(r, "path too long");
	if (check_run_file(path) && errno != ENOENT)
		return ERR(r, "cannot use %s/%s: %s; move it away", r->out_dir,
			   name, run_strerror(errno));
	if (lstat(path, &st) == 0 && st.st_size > 0) {
		/*
		 * A run resumed by a runner whose columns differ would get
		 * rows its header does not describe, and every later reader
		 * would refuse the file: say so before any boot.
		 */
		char first[8192];
		size_t hlen = strcspn(header, "\n");
		FILE *f = fopen(path, "r");

		if (!f)
			return ERR(r, "cannot read %s/%s: %s", r->out_dir, name,
				   strerror(errno));
		if (!fgets(first, sizeof(first), f))
			first[0] = '\0';
		fclose(f);
		if (strcspn(first, "\n") != hlen ||
		    strncmp(first, header, hlen))
			return ERR(
				r,
				"%s/%s has other columns than this runner writes (a run of another crngbench version): run 'crngbench-run --rescan %s' to rewrite its tables with this version's columns, then resume",
				r->out_dir, name, r->out_dir);
		return 0;
	}
	return results_write_out(r, name, header, strlen(header));
}

int results_start(struct run *r)
{
	char line[32], path[PATH_MAX];
	FILE *mem;
	char *hdr = NULL;
	size_t hlen = 0;
	struct stat st;
	int rc;

	if (results_path(r, "boots", path, sizeof(path)) ||
	    (mkdir(path, 0755) && errno != EEXIST))
		return ERR(r, "cannot create %s/boots: %s", r->out_dir,
			   strerror(errno));
	/* Every boot's files go there: no link to elsewhere. */
	if (lstat(path, &st) || !S_ISDIR(st.st_mode))
		return ERR(
			r,
			"%s/boots is %s, not a directory: the runner writes a boot's files into its own boots/ only (remove it)",
			r->out_dir,
			S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
	if (!r->o.resume) {
		/* run.matrix first: it marks the directory as a run. */
		snprintf(line, sizeof(line), "%" PRIu64 "\n", r->o.seed);
		if (results_save_matrix(r, "run.matrix") ||
		    results_write_out(r, "seed", line, strlen(line)) ||
		    results_save_args(r, "run.args"))
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
	char path[PATH_MAX], tmp[PATH_MAX + 8], *line = NULL, *hdr = NULL,
						why[256];
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *in, *out;
	int first = 1, rc = 0;

	if (results_path(r, name, path, sizeof(path)) || trim_partial(path))
		return ERR(r, "cannot repair %s/%s: %s", r->out_dir, name,
			   run_strerror(errno));
	in = fopen_table(path, r->err, sizeof(r->err));
	if (!in)
		return errno == ENOENT ? 0 : -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	out = fopen_new(tmp);
	if (!out) {
		fclose(in);
		return ERR(r, "cannot write %s: %s", tmp, strerror(errno));
	}
	while (errno = 0, (len = getline(&line, &cap, in)) > 0) {
		char id[32];

		lineno++;
		if (first) { /* the rows are checked by the file's header */
			fputs(line, out);
			first = 0;
			if (!(hdr = strdup(line)))
				rc = ERR(r, "out of memory");
			if (rc)
				break;
			continue;
		}
		snprintf(id, sizeof(id), "%.*s", (int)strcspn(line, ","), line);
		if (!results_is_done(r, id))
			continue;
		if (detail_line_check(hdr, line, (size_t)len, why,
				      sizeof(why))) {
			rc = ERR(
				r,
				"cannot resume: %s line %zu, %s; fix or move that line (%s was left as it was)",
				path, lineno, why, name);
			break;
		}
		fwrite(line, 1, (size_t)len, out);
	}
	free(hdr);
	/* A read error (memory running out) is no end: nothing replaced. */
	if (!rc && (!feof(in) || ferror(in)))
		rc = ERR(r, "cannot read %s: %s", path,
			 strerror(errno ? errno : EIO));
	free(line);
	fclose(in);
	if ((ferror(out) | fclose(out)) && !rc)
		rc = ERR(r, "cannot write %s: %s", tmp, strerror(errno));
	if (!rc && rename(tmp, path))
		rc = ERR(r, "cannot rewrite %s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	return rc;
}

/*
 * Rows of raw.csv that do not parse are set aside, never deleted: appended
 * to raw.csv.rejected with their line number, and raw.csv is rewritten
 * without them, so their boots run again and no id is doubled.
 */
static int set_aside_bad_rows(struct run *r, const char *path)
{
	struct strbuf keep = { 0 }, bad = { 0 };
	char *line = NULL, *header = NULL, rej[PATH_MAX];
	size_t cap = 0, lineno = 0, nbad = 0;
	ssize_t len;
	int rc = 0;
	FILE *f = fopen_table(path, r->err, sizeof(r->err));

	if (!f)
		return -1;
	while (errno = 0, (len = getline(&line, &cap, f)) > 0) {
		struct row row;

		lineno++;
		if (!header) {
			header = strndup(line, (size_t)len - 1);
			sb_append(&keep, line, (size_t)len);
			continue;
		}
		line[len - 1] = '\0';
		if (header && row_parse(line, header, &row) == 0) {
			line[len - 1] = '\n';
			sb_append(&keep, line, (size_t)len);
			continue;
		}
		sb_printf(&bad, "line %zu: %s\n", lineno, line);
		if (!nbad++)
			fprintf(stderr,
				"[resume] %s line %zu is not a row: set aside in raw.csv.rejected; its boot runs again\n",
				path, lineno);
	}
	/* A read error (memory running out) is no end: nothing rewritten. */
	if (!feof(f) || ferror(f))
		rc = ERR(r, "cannot read %s (line %zu): %s", path, lineno + 1,
			 strerror(errno ? errno : EIO));
	fclose(f);
	if (!rc && nbad &&
	    (keep.oom || bad.oom ||
	     path_fmt(rej, sizeof(rej), "%s.rejected", path) ||
	     append_atomic(rej, bad.p, bad.len) ||
	     write_file_atomic(path, keep.p, keep.len)))
		rc = ERR(r, "cannot set aside %zu bad rows of %s: %s", nbad,
			 path, strerror(errno));
	free(line);
	free(header);
	sb_free(&keep);
	sb_free(&bad);
	return rc;
}

int results_load_done(struct run *r)
{
	char path[PATH_MAX];
	struct row *rows;
	size_t n;

	if (results_path(r, "raw.csv", path, sizeof(path)) ||
	    trim_partial(path))
		return ERR(r, "cannot repair %s/raw.csv: %s", r->out_dir,
			   run_strerror(errno));
	if (set_aside_bad_rows(r, path) ||
	    row_read_file(path, &rows, &n, r->err, sizeof(r->err)))
		return -1;
	r->done_ids = calloc(n ? n : 1, sizeof(*r->done_ids));
	if (!r->done_ids) {
		free(rows);
		return ERR(r, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		/* row_read_file refused a boot recorded twice */
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
	if (results_path(r, "reads.csv", path, sizeof(path)) ||
	    append_atomic(path, reads ? reads->p : "",
			  reads ? reads->len : 0) ||
	    results_path(r, "traces.csv", path, sizeof(path)) ||
	    append_atomic(path, traces ? traces->p : "",
			  traces ? traces->len : 0) ||
	    results_path(r, "raw.csv", path, sizeof(path)) ||
	    append_atomic(path, line, (size_t)n))
		return ERR(r, "cannot append to %s: %s", path, strerror(errno));
	return 0;
}

int results_read_seed(const char *dir, uint64_t *seed, char *err, size_t errlen)
{
	char path[PATH_MAX], line[64];
	int64_t v;
	FILE *f;

	if (path_fmt(path, sizeof(path), "%s/seed", dir))
		return err_set(err, errlen, "path too long: %s", dir);
	f = fopen_run(path);
	if (!f)
		return err_set(err, errlen, "%s: %s", path,
			       run_strerror(errno));
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return err_set(err, errlen, "%s is empty", path);
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (crb_parse_i64(line, &v) || v < 0)
		return err_set(
			err, errlen,
			"%s does not hold a seed, a whole number" DIGITS_ONLY
			": '%.20s'",
			path, line);
	*seed = (uint64_t)v;
	return 0;
}

int results_read_matrix(const char *dir, struct matrix *m, char *err,
			size_t errlen)
{
	char path[PATH_MAX];

	if (path_fmt(path, sizeof(path), "%s/run.matrix", dir))
		return err_set(err, errlen, "path too long: %s", dir);
	if (check_run_file(path) && errno != ENOENT)
		return err_set(err, errlen, "cannot read %s: %s", path,
			       run_strerror(errno));
	return matrix_load_run(path, m, err, errlen);
}

/* --- meta.json ------------------------------------------------------------------ */

void json_str(struct strbuf *b, const char *s)
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
static void kernel_fact(const struct run *r, const struct kernel_ref *k,
			const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	if (kernel_file(r, k, file, path, sizeof(path)))
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
static void kernel_patches(const struct run *r, const struct kernel_ref *k,
			   struct strbuf *out)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	if (kernel_file(r, k, "patches", path, sizeof(path)))
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

	for (size_t i = 0; i < matrix_nkernels(m); i++) {
		struct kernel_ref k;
		char rel[128], key[80], base[64], dir[3 * MAX_VALUE_LEN];
		struct strbuf patches = { 0 };

		if (!matrix_kernel(m, i, &k))
			continue;
		if (arch_kernel_dir(arch_find(k.arch), k.variant, k.hz, dir,
				    sizeof(dir)))
			continue;
		kernel_fact(r, &k, "release", rel, sizeof(rel));
		kernel_fact(r, &k, "key", key, sizeof(key));
		kernel_fact(r, &k, "base", base, sizeof(base));
		kernel_patches(r, &k, &patches);
		/* Named by its directory; by "<base>/<dir>" when the run
		 * boots several bases, whose directories share names. */
		sb_printf(b, "%s\n    \"", first ? "" : ",");
		if (m->nvalues[AX_base] > 1)
			sb_printf(b, "%s/", k.base);
		sb_printf(b, "%s\": {\"release\": ", dir);
		json_str(b, rel);
		sb_printf(b, ", \"base\": ");
		json_str(b, base);
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

/*
 * The source package the run's kernels were built from, as kernel/build.sh
 * recorded it beside each ("linux-source-6.1 6.1.192-3"): its version and
 * the kernels' base (kernel/bases), from the first kernel that has them (a
 * kernel of one's own has neither: "").
 */
static void kernel_package(const struct run *r, char *ver, size_t vlen,
			   char *base, size_t blen)
{
	ver[0] = base[0] = '\0';
	for (size_t i = 0; i < matrix_nkernels(&r->m) && !ver[0]; i++) {
		struct kernel_ref k;
		char pkg[256], *sp;

		if (!matrix_kernel(&r->m, i, &k))
			continue;
		kernel_fact(r, &k, "package", pkg, sizeof(pkg));
		sp = strchr(pkg, ' ');
		if (!sp)
			continue;
		text_printf(ver, vlen, "%s", sp + 1);
		kernel_fact(r, &k, "base", base, blen);
	}
}

#define MAX_QEMUS 8

/*
 * The version of every QEMU binary the planned cells boot with (--qemu for
 * x86_64, each other machine's own from arch.c), as "qemu_versions":
 * {binary: version}. "qemu" stays one string for the readers of older
 * runs: x86's version, or the first binary's in a run without x86.
 */
static void meta_qemus(const struct run *r, struct strbuf *b, char *qv,
		       size_t len)
{
	const char *bin[MAX_QEMUS];
	char ver[MAX_QEMUS][256];
	int n = 0, x86 = -1;

	for (size_t i = 0; i < matrix_ncells(&r->m) && n < MAX_QEMUS; i++) {
		const struct arch *ar;
		struct cell c;
		int k = 0;

		matrix_cell(&r->m, i, &c);
		ar = arch_find(c.v[AX_arch]);
		if (!ar || !matrix_cell_planned(&r->m, &c))
			continue;
		bin[n] = ar->qemu ? ar->qemu : r->o.qemu;
		while (strcmp(bin[k], bin[n]))
			k++;
		if (k < n)
			continue;
		if (!ar->qemu)
			x86 = n;
		qemu_version(bin[n], ver[n], sizeof(ver[n]));
		n++;
	}
	if (n)
		text_printf(qv, len, "%s", ver[x86 >= 0 ? x86 : 0]);
	else
		qemu_version(r->o.qemu, qv, len);
	json_str(b, qv);
	sb_printf(b, ",\n  \"qemu_versions\": {");
	for (int k = 0; k < n; k++) {
		sb_printf(b, "%s", k ? ", " : "");
		json_str(b, bin[k]);
		sb_printf(b, ": ");
		json_str(b, ver[k]);
	}
	sb_printf(b, "}");
}

int results_write_meta(struct run *r, int argc, char **argv, size_t nplan)
{
	struct strbuf b = { 0 };
	struct utsname u;
	char cpu[256], qv[256], pkg[128], base[64];
	int rc;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	host_cpu(cpu, sizeof(cpu));
	kernel_package(r, pkg, sizeof(pkg), base, sizeof(base));
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
	meta_qemus(r, &b, qv, sizeof(qv));
	sb_printf(&b, ",\n  \"kernel_package\": ");
	json_str(&b, pkg);
	sb_printf(&b, ",\n  \"kernel_base\": ");
	json_str(&b, base);
	sb_printf(&b, ",\n  \"kernels\": {");
	meta_kernels(r, &b);
	sb_printf(&b, "\n  },\n  \"image\": ");
	json_str(&b, r->image_path);
	sb_printf(&b, ",\n  \"matrix\": ");
	json_str(&b, r->m.name);
	sb_printf(
		&b,
		",\n  \"seed\": %" PRIu64
		",\n  \"shard\": \"%d/%d\",\n  \"boots_planned\": %zu,\n  \"jobs\": %d,\n  \"parallel_jobs\": %d,\n  \"kvm\": ",
		r->o.seed, r->o.shard_k, r->o.shard_n, nplan, r->o.jobs,
		r->o.par_jobs);
	json_str(&b, r->kvm_ok ? "usable or not needed" : r->kvm_why);
	sb_printf(&b, ",\n  \"command_line\": [");
	for (int i = 0; i < argc; i++) {
		sb_printf(&b, "%s", i ? ", " : "");
		json_str(&b, argv[i]);
	}
	sb_printf(&b, "]\n}\n");
	rc = b.oom ? ERR(r, "out of memory") :
		     results_write_out(r, "meta.json", b.p, b.len);
	sb_free(&b);
	return rc;
}
