// SPDX-License-Identifier: GPL-2.0
/*
 * The files of a merged run besides raw.csv, from shards that may come
 * from another machine: nothing is followed through a link, nothing but a
 * regular file is read, every detail row is checked before it is copied.
 */
#define _GNU_SOURCE
#include "mergeout.h"
#include "../rows/detail.h"
#include "json.h"
#include "../rows/report.h"
#include "../results/results.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int shard_file(const char *dir, const char *name, struct strbuf *b, char *err,
	       size_t errlen)
{
	char path[PATH_MAX];
	int e;

	if (path_fmt(path, sizeof(path), "%s/%s", dir, name))
		return err_set(err, errlen, "path too long: %s", dir);
	if (check_run_file(path) || slurp(path, b)) {
		e = errno;
		if (e == ENOENT)
			err_set(err, errlen,
				"%s is not a complete results directory (no %s)",
				dir, name);
		else
			err_set(err, errlen, "%s: %s is %s", dir, name,
				run_strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One shard's table name (its header checked) onto out, line by line. */
static int table_rows(const struct shard *s, const char *const *ids,
		      const char *name, const char *header, FILE *out,
		      char *err, size_t errlen)
{
	char path[PATH_MAX], *line = NULL, *copy = NULL, *field[16], why[256];
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0, want = 1;
	FILE *f;

	for (const char *c = header; *c; c++)
		want += *c == ',';
	if (path_fmt(path, sizeof(path), "%s/%s", s->dir, name))
		return err_set(err, errlen, "path too long: %s", s->dir);
	if (!(f = fopen_run(path)))
		return errno == ENOENT ?
			       err_set(err, errlen,
				       "%s is not a complete results directory (no %s)",
				       s->dir, name) :
			       err_set(err, errlen, "%s: %s is %s", s->dir,
				       name, run_strerror(errno));
	rc = run_table_limits(f, path, err, errlen);
	while (!rc && (errno = 0, len = getline(&line, &cap, f)) > 0) {
		int nf;

		lineno++;
		if (memchr(line, '\0', (size_t)len) || line[len - 1] != '\n') {
			rc = err_set(
				err, errlen,
				"%s line %zu %s: not a row; --resume that shard to repair a torn last line, or fix the line (nothing was written)",
				path, lineno,
				line[len - 1] != '\n' ?
					"does not end with a line break" :
					"holds a NUL byte");
			break;
		}
		if (lineno == 1) {
			if (strcmp(line, header))
				rc = err_set(
					err, errlen,
					"%s line 1 is not the runner's header '%.*s' but '%.100s' (another version's table?)",
					path, (int)strlen(header) - 1, header,
					line);
			continue;
		}
		free(copy);
		if (!(copy = strndup(line, (size_t)len - 1))) {
			rc = err_set(err, errlen, "out of memory");
			break;
		}
		nf = csv_split(copy, field, want + 1);
		if (nf != want)
			rc = err_set(
				err, errlen,
				"%s line %zu has %s fields than the header's %d: not a row (nothing was written): %.80s",
				path, lineno, nf < want ? "fewer" : "more",
				want, copy);
		else if (detail_row_check(header, field, nf, why, sizeof(why)))
			rc = err_set(
				err, errlen,
				"%s line %zu, %s (runlib.read_table refuses it too); nothing was written",
				path, lineno, why);
		else if (!bsearch(&field[0], ids, s->n, sizeof(*ids), by_str))
			rc = err_set(
				err, errlen,
				"%s line %zu is of boot %.40s, which %s/raw.csv does not hold (a row of another run, or written by hand?); nothing was written",
				path, lineno, field[0], s->dir);
		else if (fwrite(line, 1, (size_t)len, out) != (size_t)len)
			rc = err_set(err, errlen, "cannot write %s: %s", name,
				     strerror(errno));
	}
	if (!rc && (!feof(f) || ferror(f)))
		rc = err_set(err, errlen, "cannot read %s (line %zu): %s", path,
			     lineno + 1, strerror(errno ? errno : EIO));
	else if (!rc && !lineno)
		rc = err_set(err, errlen, "%s is empty (no header)", path);
	free(copy);
	free(line);
	fclose(f);
	return rc;
}

/* The merged table, as a reader of the run will take it: within the
 * limits (runlimits.h) however many shards each were within. */
static int merged_within_limits(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen_table(path, err, errlen);

	if (!f)
		return -1;
	fclose(f); /* read only: nothing to lose */
	return 0;
}

static int merge_table(const struct shard *s, int n, const char *tmp,
		       const char *name, const char *header, char *err,
		       size_t errlen)
{
	char path[PATH_MAX];
	FILE *out;
	int rc = 0;

	if (path_fmt(path, sizeof(path), "%s/%s", tmp, name) ||
	    !(out = fopen_new(path)))
		return err_set(err, errlen, "cannot write %s/%s: %s", tmp, name,
			       strerror(errno));
	fputs(header, out);
	for (int i = 0; i < n && !rc; i++) {
		const char **ids = calloc(s[i].n + 1, sizeof(*ids));

		if (!ids) {
			rc = err_set(err, errlen, "out of memory");
			break;
		}
		for (size_t j = 0; j < s[i].n; j++)
			ids[j] = s[i].rows[j].boot_id;
		qsort(ids, s[i].n, sizeof(*ids), by_str);
		rc = table_rows(&s[i], ids, name, header, out, err, errlen);
		free(ids);
	}
	if ((ferror(out) | fclose(out)) && !rc)
		rc = err_set(err, errlen, "cannot write %s: %s", path,
			     strerror(errno));
	return rc ? rc : merged_within_limits(path, err, errlen);
}

int merge_tables(const struct shard *s, int n, const char *tmp, char *err,
		 size_t errlen)
{
	return merge_table(s, n, tmp, "reads.csv", READS_HEADER, err, errlen) ||
			       merge_table(s, n, tmp, "traces.csv",
					   TRACES_HEADER, err, errlen) ?
		       -1 :
		       0;
}

/* Shard s's boots/<id> (none: nothing to copy) into tmp/boots/<id>. */
static int boot_files(const struct shard *s, const char *id, const char *tmp,
		      char *err, size_t errlen)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct strbuf b = { 0 };
	struct stat st;
	struct dirent *e;
	DIR *d = NULL;
	int fd, rc = 0;

	if (path_fmt(from, sizeof(from), "%s/boots/%s", s->dir, id) ||
	    path_fmt(to, sizeof(to), "%s/boots/%s", tmp, id))
		return err_set(err, errlen, "path too long: %s", s->dir);
	if (lstat(from, &st))
		return errno == ENOENT ? 0 : /* a fixture or skipped boot */
			       err_set(err, errlen, "cannot read %s: %s", from,
				       strerror(errno));
	fd = S_ISDIR(st.st_mode) ? open(from, O_RDONLY | O_DIRECTORY |
						      O_NOFOLLOW | O_CLOEXEC) :
				   -1;
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return err_set(
			err, errlen,
			"%s: boots/%s is %s: the merge copies a boot's own directory, nothing a link points to",
			s->dir, id,
			S_ISLNK(st.st_mode) ? "a symbolic link" :
					      "not a directory");
	}
	if (mkdir(to, 0755))
		rc = err_set(err, errlen, "cannot create %s: %s", to,
			     strerror(errno));
	while (!rc && (e = readdir(d))) {
		char path[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (slurp_at(dirfd(d), e->d_name, &b, SLURP_MAX))
			rc = err_set(
				err, errlen,
				"%s: boots/%s/%s is %s: the merge copies only a boot's regular files",
				s->dir, id, e->d_name, run_strerror(errno));
		else if (b.oom ||
			 path_fmt(path, sizeof(path), "%s/%s", to, e->d_name) ||
			 write_file_atomic(path, b.p, b.len))
			rc = err_set(err, errlen, "cannot write %s/%s: %s", to,
				     e->d_name, strerror(errno));
	}
	closedir(d);
	sb_free(&b);
	return rc;
}

int merge_boots(const struct shard *s, int n, const char *tmp, char *err,
		size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;

	if (path_fmt(path, sizeof(path), "%s/boots", tmp) || mkdir(path, 0755))
		return err_set(err, errlen, "cannot create %s/boots", tmp);
	for (int i = 0; i < n; i++) {
		if (path_fmt(path, sizeof(path), "%s/boots", s[i].dir))
			return err_set(err, errlen, "path too long");
		if (lstat(path, &st))
			continue; /* no boots/: nothing to copy */
		if (!S_ISDIR(st.st_mode))
			return err_set(
				err, errlen,
				"%s: boots is %s: the merge copies the shard's own boot files, nothing a link points to",
				s[i].dir,
				S_ISLNK(st.st_mode) ? "a symbolic link" :
						      "not a directory");
		for (size_t j = 0; j < s[i].n; j++)
			if (boot_files(&s[i], s[i].rows[j].boot_id, tmp, err,
				       errlen))
				return -1;
	}
	return 0;
}

/* --- meta.json ---------------------------------------------------------------- */

#define META_MAX 64

/* A shard's meta.json, checked, and its top-level members. */
struct meta {
	struct strbuf text;
	struct json_member m[META_MAX];
	int n;
};

/* What every shard must share: another QEMU, kernels or matrix is
 * another experiment, whatever the rows say. */
static const char *const same_keys[] = { "tool",	  "qemu",
					 "qemu_versions", "kernel_package",
					 "kernel_base",	  "kernels",
					 "matrix",	  "seed" };

static const struct json_member *meta_get(const struct meta *mt,
					  const char *key, size_t klen)
{
	for (int i = 0; i < mt->n; i++)
		if (mt->m[i].klen == klen && !strncmp(mt->m[i].key, key, klen))
			return &mt->m[i];
	return NULL;
}

static int same_value(const struct json_member *a, const struct json_member *b)
{
	if (!a || !b)
		return a == b;
	return a->vlen == b->vlen && !memcmp(a->val, b->val, a->vlen);
}

static int meta_read(const char *dir, struct meta *mt, char *err, size_t errlen)
{
	static const char tool[] = "\"crngbench-run\"";
	const struct json_member *t;
	struct json_member m;
	const char *p;

	if (shard_file(dir, "meta.json", &mt->text, err, errlen))
		return -1;
	if (!json_object_valid(mt->text.p, mt->text.len))
		return err_set(
			err, errlen,
			"%s/meta.json is not the runner's: not one JSON object in UTF-8; a shard is a run of crngbench-run",
			dir);
	p = mt->text.p;
	while (json_next(&p, &m)) {
		if (mt->n == META_MAX || memchr(m.key, '\\', m.klen) ||
		    meta_get(mt, m.key, m.klen))
			return err_set(
				err, errlen,
				"%s/meta.json is not the runner's: %s '%.*s'",
				dir,
				mt->n == META_MAX ?
					"over 64 keys, at" :
					"an escaped or repeated key",
				(int)(m.klen > 40 ? 40 : m.klen), m.key);
		mt->m[mt->n++] = m;
	}
	t = meta_get(mt, "tool", 4);
	if (!t || t->vlen != strlen(tool) || strncmp(t->val, tool, t->vlen))
		return err_set(
			err, errlen,
			"%s/meta.json is not the runner's (no \"tool\": \"crngbench-run\")",
			dir);
	return 0;
}

/* The shards' facts that must agree do, or a message naming both. */
static int meta_agree(const struct shard *s, const struct meta *mt, int n,
		      char *err, size_t errlen)
{
	for (size_t k = 0; k < sizeof(same_keys) / sizeof(same_keys[0]); k++)
		for (int i = 1; i < n; i++) {
			const char *key = same_keys[k];
			const struct json_member *a, *b;

			a = meta_get(&mt[0], key, strlen(key));
			b = meta_get(&mt[i], key, strlen(key));
			if (!same_value(a, b))
				return err_set(
					err, errlen,
					"%s and %s differ in meta.json's \"%s\": %.*s in the first, %.*s in the second; the shards of one run boot the same QEMU and kernels",
					s[0].dir, s[i].dir, key,
					a ? (int)(a->vlen > 160 ? 160 :
								  a->vlen) :
					    6,
					a ? a->val : "(none)",
					b ? (int)(b->vlen > 160 ? 160 :
								  b->vlen) :
					    6,
					b ? b->val : "(none)");
		}
	return 0;
}

/* Member m (of shard i) as the merged run's: one value, or one a shard. */
static void meta_member(struct strbuf *out, const struct meta *mt, int n,
			const struct json_member *m, size_t nplan)
{
	int same = 1;

	sb_printf(out, ",\n  \"%.*s\": ", (int)m->klen, m->key);
	if (m->klen == 5 && !strncmp(m->key, "shard", 5)) {
		sb_printf(out, "\"1/1\"");
		return;
	}
	if (m->klen == 13 && !strncmp(m->key, "boots_planned", 13)) {
		sb_printf(out, "%zu", nplan);
		return;
	}
	for (int i = 0; i < n; i++)
		same &= same_value(meta_get(&mt[i], m->key, m->klen), m);
	if (same) {
		sb_append(out, m->val, m->vlen);
		return;
	}
	sb_printf(out, "[");
	for (int i = 0; i < n; i++) {
		const struct json_member *v = meta_get(&mt[i], m->key, m->klen);

		sb_printf(out, "%s", i ? ", " : "");
		if (v)
			sb_append(out, v->val, v->vlen);
		else
			sb_printf(out, "null");
	}
	sb_printf(out, "]");
}

int merge_meta(const struct shard *s, int n, const char *tmp, size_t nplan,
	       char *err, size_t errlen)
{
	struct meta *mt = calloc((size_t)n, sizeof(*mt));
	struct strbuf out = { 0 };
	char path[PATH_MAX];
	int rc = 0;

	if (!mt)
		return err_set(err, errlen, "out of memory");
	for (int i = 0; i < n && !rc; i++)
		rc = meta_read(s[i].dir, &mt[i], err, errlen);
	if (!rc)
		rc = meta_agree(s, mt, n, err, errlen);
	sb_printf(&out, "{\n  \"merged_from\": [");
	for (int i = 0; i < n; i++) {
		sb_printf(&out, "%s", i ? ", " : "");
		json_str(&out, s[i].dir);
	}
	sb_printf(&out, "]");
	/* Every key once, in the order the shards have them. */
	for (int i = 0; i < n && !rc; i++)
		for (int j = 0; j < mt[i].n; j++) {
			const struct json_member *m = &mt[i].m[j];
			int seen = m->klen == 11 &&
				   !strncmp(m->key, "merged_from", 11);

			for (int h = 0; h < i && !seen; h++)
				seen = meta_get(&mt[h], m->key, m->klen) !=
				       NULL;
			if (!seen)
				meta_member(&out, mt, n, m, nplan);
		}
	sb_printf(&out, "\n}\n");
	if (!rc &&
	    (out.oom || path_fmt(path, sizeof(path), "%s/meta.json", tmp) ||
	     write_file_atomic(path, out.p, out.len)))
		rc = err_set(err, errlen, "cannot write %s/meta.json: %s", tmp,
			     strerror(errno));
	for (int i = 0; i < n; i++)
		sb_free(&mt[i].text);
	free(mt);
	sb_free(&out);
	return rc;
}
