// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "merge.h"
#include "../matrix/matrixfile.h"
#include "mergeout.h"
#include "../results/outdir.h"
#include "../matrix/plan.h"
#include "../results/results.h"
#include "../summary/stop.h"
#include "../summary/summary.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is dir/name byte for byte the same as the first shard's? */
static int same_as_first(const struct shard *s, int i, const char *name,
			 char *err, size_t errlen)
{
	struct strbuf a = { 0 }, b = { 0 };
	int rc = shard_file(s[0].dir, name, &a, err, errlen) ||
		 shard_file(s[i].dir, name, &b, err, errlen);

	if (!rc && (a.len != b.len || memcmp(a.p, b.p, a.len)))
		rc = err_set(err, errlen, "%s has another %s than %s%s",
			     s[i].dir, name, s[0].dir,
			     strcmp(name, "seed") ?
				     " (another matrix)" :
				     "; run every shard with the same --seed");
	sb_free(&a);
	sb_free(&b);
	return rc ? -1 : 0;
}

/*
 * run.args as merge compares it: every line but the shard (which differs),
 * jobs and parallel_jobs (they default by the machine's CPU count, and the
 * shards of one run may run on different machines; each shard's are kept
 * in meta.json) and the paths of the kernels and the image, whose files are
 * compared by checksum instead: one machine's cache is not another's.
 */
static char *next_arg(char **p)
{
	static const char *const skip[] = { "#",	  "shard = ",
					    "jobs = ",	  "parallel_jobs = ",
					    "kernels = ", "image = " };
	const size_t nskip = sizeof(skip) / sizeof(skip[0]);

	while (**p) {
		char *line = *p, *nl = strchr(line, '\n');
		size_t k = 0;

		*p = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		while (k < nskip && strncmp(line, skip[k], strlen(skip[k])))
			k++;
		if (k == nskip && *line)
			return line;
	}
	return NULL;
}

/* A "file PATH CRC" line's name: under the kernels directory, or the
 * file's own name; its checksum into crc. */
static const char *file_name(char *line, const char *kernels, char **crc)
{
	char *sp = strrchr(line, ' '), *path = line + 5, *slash;
	size_t k = strlen(kernels);

	*crc = sp ? sp + 1 : line;
	if (sp)
		*sp = '\0';
	if (k && !strncmp(path, kernels, k) && path[k] == '/')
		return path + k + 1;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The value of "key = value" in a run.args held in b, into buf. */
static void arg_value(const struct strbuf *b, const char *key, char *buf,
		      size_t len)
{
	char want[32];
	const char *v;

	snprintf(want, sizeof(want), "\n%s = ", key);
	v = strstr(b->p, want);
	v = v ? v + strlen(want) : "";
	text_printf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
}

/* The length of a run.args line's key: "append" of "append = x"; 0 for
 * a file line. */
static size_t key_len(const char *line)
{
	const char *eq = strstr(line, " = ");

	return eq && strncmp(line, "file ", 5) ? (size_t)(eq - line) : 0;
}

/* Lines x (shard 0) and y (shard i), "" when one has no more: equal? */
static int arg_differs(const struct shard *s, int i, char *x, char *y,
		       const char *ka, const char *kb, char *err, size_t errlen)
{
	size_t k = key_len(x);
	char *cx, *cy;
	const char *name;

	if (!strncmp(x, "file ", 5) && !strncmp(y, "file ", 5)) {
		name = file_name(x, ka, &cx);
		file_name(y, kb, &cy);
		return strcmp(cx, cy) ?
			       err_set(err, errlen,
				       "%s and %s booted different files: %s has checksum %s in the first, %s in the second (rebuilt in between?); the shards of one run boot the same kernels and image",
				       s[0].dir, s[i].dir, name, cx, cy) :
			       0;
	}
	if (k && k == key_len(y) && !strncmp(x, y, k))
		return strcmp(x, y) ?
			       err_set(err, errlen,
				       "%s and %s were not started alike (run.args): %.*s '%s' in the first, '%s' in the second; the shards of one run differ only in --shard and --out",
				       s[0].dir, s[i].dir, (int)k, x, x + k + 3,
				       y + k + 3) :
			       0;
	/* A line only one has (another count of qemu_arg lines). */
	if (!*x || (!k && key_len(y)))
		return err_set(
			err, errlen,
			"%s was started with %s, %s without it; the shards of one run differ only in --shard and --out",
			s[i].dir, y, s[0].dir);
	return err_set(
		err, errlen,
		"%s was started with %s, %s without it; the shards of one run differ only in --shard and --out",
		s[0].dir, *x ? x : "(nothing)", s[i].dir);
}

/* Shard i was started as shard 0 was: the first setting that differs. */
static int same_args(const struct shard *s, int i, char *err, size_t errlen)
{
	struct strbuf a = { 0 }, b = { 0 };
	char ka[PATH_MAX], kb[PATH_MAX], *pa, *pb, *x, *y;
	int rc = 0;

	if ((shard_file(s[0].dir, "run.args", &a, err, errlen) ||
	     shard_file(s[i].dir, "run.args", &b, err, errlen)) &&
	    errno != ENOENT) {
		rc = -1;
		goto out;
	}
	if (!a.p || !b.p) {
		rc = err_set(
			err, errlen,
			"%s has no run.args (a run from before run.args was recorded, or not a run): how it was started cannot be compared",
			a.p ? s[i].dir : s[0].dir);
		goto out;
	}
	arg_value(&a, "kernels", ka, sizeof(ka));
	arg_value(&b, "kernels", kb, sizeof(kb));
	pa = a.p;
	pb = b.p;
	while (!rc) {
		x = next_arg(&pa);
		y = next_arg(&pb);
		if (!x && !y)
			break;
		rc = arg_differs(s, i, x ? x : "", y ? y : "", ka, kb, err,
				 errlen);
	}
out:
	sb_free(&a);
	sb_free(&b);
	return rc ? -1 : 0;
}

/* The first line where a and b differ, each up to its line break. */
static void first_diff(const char **a, const char **b)
{
	while (**a && **b) {
		size_t la = strcspn(*a, "\n"), lb = strcspn(*b, "\n");

		if (la != lb || memcmp(*a, *b, la))
			return;
		*a += la + ((*a)[la] == '\n');
		*b += lb + ((*b)[lb] == '\n');
	}
}

/*
 * Shard i's run.matrix is the text the expected matrix resolves to
 * (matrix_write's), and its seed the expected seed: --merge --matrix FILE
 * [--set ...] --seed N. Either may be NULL: not asked.
 */
static int as_expected(const struct shard *s, int i, const char *want,
		       const uint64_t *want_seed, char *err, size_t errlen)
{
	struct strbuf b = { 0 };
	uint64_t seed;
	int rc = 0;

	if (want &&
	    !(rc = shard_file(s[i].dir, "run.matrix", &b, err, errlen)) &&
	    strcmp(b.p, want)) {
		const char *x = b.p, *y = want;
		char lx[160], ly[160], key[64];

		first_diff(&x, &y);
		set_text(lx, "%.*s", (int)strcspn(x, "\n"), x);
		set_text(ly, "%.*s", (int)strcspn(y, "\n"), y);
		set_text(key, "%.*s", (int)strcspn(*y ? ly : lx, " ="),
			 *y ? ly : lx);
		rc = err_set(
			err, errlen,
			"%s is a shard of another matrix: key '%s' differs, its run.matrix has '%s' where --matrix resolves to '%s'; merge only the shards of the matrix asked for (nothing was written)",
			s[i].dir, key, *lx ? lx : "(no such line)",
			*ly ? ly : "(no such line)");
	}
	sb_free(&b);
	if (!rc && want_seed &&
	    !(rc = results_read_seed(s[i].dir, &seed, err, errlen)) &&
	    seed != *want_seed)
		rc = err_set(
			err, errlen,
			"%s was run with seed %" PRIu64
			", not the --seed %" PRIu64
			" asked for (key 'seed'); merge only the shards of this run (nothing was written)",
			s[i].dir, seed, *want_seed);
	return rc ? -1 : 0;
}

/* Same matrix and seed in every shard (those asked for, if any); every
 * row read. */
static int merge_load(struct shard *s, int n, const char *want,
		      const uint64_t *want_seed, struct matrix *m,
		      uint64_t *seed, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		if (as_expected(s, i, want, want_seed, err, errlen) ||
		    same_as_first(s, i, "run.matrix", err, errlen) ||
		    same_as_first(s, i, "seed", err, errlen) ||
		    same_args(s, i, err, errlen))
			return -1;
		if (path_fmt(path, sizeof(path), "%s/raw.csv", s[i].dir) ||
		    check_run_file(path))
			return err_set(
				err, errlen, "%s: raw.csv: %s", s[i].dir,
				errno == ENOENT ?
					"none (not a results directory)" :
					run_strerror(errno));
		if (row_read_file(path, &s[i].rows, &s[i].n, err, errlen))
			return -1;
	}
	return results_read_matrix(s[0].dir, m, err, errlen) ||
			       results_read_seed(s[0].dir, seed, err, errlen) ?
		       -1 :
		       0;
}

/* A boot id, and for a row the shard holding it. */
struct rowref {
	char id[32];
	int shard;
	int optional; /* a planned boot past its cell's stop (stop.h) */
};

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct rowref *)a)->id,
		      ((const struct rowref *)b)->id);
}

static int has_id(const struct rowref *sorted, size_t n, const char *id)
{
	struct rowref key = { .shard = 0 };

	snprintf(key.id, sizeof(key.id), "%s", id);
	return bsearch(&key, sorted, n, sizeof(*sorted), by_id) != NULL;
}

/* Every row a planned boot, none twice, none the stop rule needs missing. */
static int check_rows(const struct shard *s, struct rowref *plan, size_t nplan,
		      struct rowref *rows, size_t nrows, char *err,
		      size_t errlen)
{
	qsort(plan, nplan, sizeof(*plan), by_id);
	qsort(rows, nrows, sizeof(*rows), by_id);
	for (size_t j = 0; j < nrows; j++) {
		if (!has_id(plan, nplan, rows[j].id))
			return err_set(
				err, errlen,
				"%s holds boot %s, which the run's matrix does not plan (%zu boots; a row of another run, or written by hand?)",
				s[rows[j].shard].dir, rows[j].id, nplan);
		if (j && !strcmp(rows[j - 1].id, rows[j].id))
			return err_set(
				err, errlen,
				"boot %s is recorded twice (%s and %s): were the shards K/N all different?",
				rows[j].id, s[rows[j - 1].shard].dir,
				s[rows[j].shard].dir);
	}
	/* Every row is a distinct planned boot; those the stop rule needs
	 * are there. */
	for (size_t p = 0; p < nplan; p++)
		if (!plan[p].optional && !has_id(rows, nrows, plan[p].id))
			return err_set(
				err, errlen,
				"the shards lack boot %s, which its cell's stop rule still needs (they hold %zu of at most %zu planned boots): is a shard missing or unfinished (--resume it)?",
				plan[p].id, nrows, nplan);
	return 0;
}

/*
 * The plan's ids into pid, each marked optional when its cell stopped
 * before its rep: the stop rule on the shards' rows, as each shard's
 * sweep judged them (a cell's boots are in one shard). 0, or -1 ENOMEM.
 */
static int optional_boots(const struct shard *s, int n, const struct matrix *m,
			  uint64_t seed, const struct boot_plan *plan,
			  size_t nplan, struct rowref *pid)
{
	struct stop_book b;
	int rc =
		stop_book_init(&b, m, summary_measure_seed("crng_ready", seed));

	for (int i = 0; i < n && !rc; i++)
		for (size_t j = 0; j < s[i].n && !rc; j++)
			rc = stop_book_add(&b, &s[i].rows[j]);
	for (size_t p = 0; p < nplan && !rc; p++) {
		int at, why = stop_book_cell(&b, plan[p].cell, &at);

		boot_id(&plan[p], pid[p].id, sizeof(pid[p].id));
		pid[p].optional = why > STOP_NO && plan[p].rep >= at;
		rc = why < 0;
	}
	stop_book_free(&b);
	return rc;
}

/* Every planned boot exactly once across the shards, nothing else. */
static int merge_check(const struct shard *s, int n, const struct matrix *m,
		       uint64_t seed, size_t *nplan_out, char *err,
		       size_t errlen)
{
	size_t nplan, nrows = 0, k = 0;
	struct boot_plan *plan = matrix_plan(m, seed, 1, 1, &nplan);
	struct rowref *pid = NULL, *rid = NULL;
	int rc;

	for (int i = 0; i < n; i++)
		nrows += s[i].n;
	if (plan) {
		pid = calloc(nplan ? nplan : 1, sizeof(*pid));
		rid = calloc(nrows ? nrows : 1, sizeof(*rid));
	}
	if (!pid || !rid) {
		rc = err_set(err, errlen, "out of memory checking the shards");
		goto out;
	}
	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < s[i].n; j++, k++) {
			snprintf(rid[k].id, sizeof(rid[k].id), "%s",
				 s[i].rows[j].boot_id);
			rid[k].shard = i;
		}
	if (optional_boots(s, n, m, seed, plan, nplan, pid)) {
		rc = err_set(err, errlen, "out of memory checking the shards");
		goto out;
	}
	rc = check_rows(s, pid, nplan, rid, nrows, err, errlen);
	*nplan_out = nplan;
out:
	free(plan);
	free(pid);
	free(rid);
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
	    !(f = fopen_new(path)))
		return err_set(err, errlen, "cannot write %s/raw.csv", tmp);
	row_write_header(f);
	for (int i = 0; i < n && !rc; i++)
		for (size_t j = 0; j < s[i].n && !rc; j++) {
			int len = row_format(&s[i].rows[j], line, sizeof(line));

			if (len < 0 ||
			    fwrite(line, 1, (size_t)len, f) != (size_t)len)
				rc = err_set(err, errlen, "cannot write %s",
					     path);
		}
	if (fclose(f) && !rc)
		rc = err_set(err, errlen, "cannot write %s: %s", path,
			     strerror(errno));
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

/* The first shard's run.args as the merged run's: the whole matrix. */
static int merge_args(const struct shard *s, const char *tmp, char *err,
		      size_t errlen)
{
	struct strbuf in = { 0 }, out = { 0 };
	char path[PATH_MAX], *p, *shard;
	int rc = shard_file(s[0].dir, "run.args", &in, err, errlen);

	shard = rc ? NULL : strstr(in.p, "\nshard = ");
	if (shard) {
		p = strchr(shard + 1, '\n');
		sb_append(&out, in.p, (size_t)(shard - in.p));
		sb_printf(&out, "\nshard = 1/1%s", p ? p : "\n");
	}
	if (!rc && (!shard || out.oom ||
		    path_fmt(path, sizeof(path), "%s/run.args", tmp) ||
		    write_file_atomic(path, out.p, out.len)))
		rc = err_set(err, errlen, "cannot write %s/run.args: %s", tmp,
			     shard ? strerror(errno) : "no shard line to take");
	sb_free(&in);
	sb_free(&out);
	return rc;
}

/* want: the expected matrix as run.matrix text (NULL: not asked for). */
static char *want_text(const struct matrix *want, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem || matrix_write(want, mem) || fclose(mem)) {
		err_set(err, errlen, "out of memory");
		if (!mem)
			return NULL;
		free(text);
		return NULL;
	}
	return text;
}

int results_merge(const char *out, char *const *dirs, int ndirs,
		  const struct matrix *want, const uint64_t *want_seed,
		  char *err, size_t errlen)
{
	struct shard *s = calloc((size_t)ndirs, sizeof(*s));
	struct matrix m;
	uint64_t seed = 0;
	size_t nplan = 0;
	char tmp[PATH_MAX], *wtext = want ? want_text(want, err, errlen) : NULL;
	int rc = -1;

	if (!s || (want && !wtext)) {
		free(s);
		free(wtext);
		return s ? -1 : err_set(err, errlen, "out of memory");
	}
	for (int i = 0; i < ndirs; i++) {
		s[i].dir = dirs[i];
		s[i].lock_fd = -1;
	}
	if (file_exists(out)) {
		err_set(err, errlen,
			"%s already exists; merge into a new directory", out);
		goto done;
	}
	/* No shard is read while a runner writes it (its .lock). */
	for (int i = 0; i < ndirs; i++)
		if (results_lock_dir(s[i].dir, "--merge", &s[i].lock_fd, err,
				     errlen))
			goto done;
	if (merge_load(s, ndirs, wtext, want_seed, &m, &seed, err, errlen) ||
	    merge_check(s, ndirs, &m, seed, &nplan, err, errlen))
		goto done;
	if (path_fmt(tmp, sizeof(tmp), "%s.merge-%ld", out, (long)getpid()) ||
	    mkdir(tmp, 0755)) {
		err_set(err, errlen, "cannot create %s: %s", tmp,
			strerror(errno));
		goto done;
	}
	if (merge_raw(s, ndirs, tmp, err, errlen) ||
	    merge_tables(s, ndirs, tmp, err, errlen) ||
	    merge_copy(s[0].dir, tmp, "run.matrix", err, errlen) ||
	    merge_copy(s[0].dir, tmp, "seed", err, errlen) ||
	    merge_args(s, tmp, err, errlen) ||
	    merge_meta(s, ndirs, tmp, nplan, err, errlen) ||
	    merge_boots(s, ndirs, tmp, err, errlen) ||
	    summary_write(tmp, seed, NULL, 0, err, errlen)) {
		remove_path(tmp);
		goto done;
	}
	if (rename(tmp, out)) {
		err_set(err, errlen, "cannot rename %s to %s: %s", tmp, out,
			strerror(errno));
		remove_path(tmp);
		goto done;
	}
	rc = 0;
done:
	for (int i = 0; i < ndirs; i++) {
		free(s[i].rows);
		if (s[i].lock_fd >= 0)
			close(s[i].lock_fd);
	}
	free(s);
	free(wtext);
	return rc;
}
