// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "grow.h"
#include "../matrix/context.h"
#include "results.h"
#include "runargs.h"
#include "../matrix/plan.h"
#include "../ground/util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GROW_TMP "grow.tmp"
#define GROW_DIR "grow"

/* What the finish renames into place, run.matrix last: until then the
 * directory is the run it was, as far as run.matrix says. */
static const char *const grown_files[] = { "reads.csv", "traces.csv", "raw.csv",
					   "run.args", "run.matrix" };

/* One grow: its directory, where its message goes, the steps it took. */
struct grow {
	const char *dir;
	char *err;
	size_t errlen;
	int steps, kill_at;
};

static void grow_init(struct grow *g, const char *dir, char *err, size_t errlen)
{
	const char *at = getenv("CRNGBENCH_TEST_GROW_KILL_AT");

	*g = (struct grow){ .dir = dir, .err = err, .errlen = errlen };
	if (at && parse_int(at, 1, 1000000, &g->kill_at))
		g->kill_at = 0;
}

/*
 * Before each step that changes the directory. tests/fast/grow.sh sets
 * CRNGBENCH_TEST_GROW_KILL_AT=N: the runner is SIGKILLed before its Nth
 * step, to show that a grow killed at any step loses nothing.
 */
static void step(struct grow *g)
{
	if (g->kill_at > 0 && ++g->steps == g->kill_at)
		raise(SIGKILL);
}

/*
 * The id (len bytes at id) of a boot of r->grow_from's cells, as the boot
 * of r->m's into buf, and its cell into *cell: 0, or -1 if it is none.
 */
static int grown_id(const struct run *r, const char *id, size_t len, char *buf,
		    size_t buflen, long *cell)
{
	char old[32];
	long c, rep;
	struct cell from;
	struct boot_plan p;

	if (len >= sizeof(old))
		return -1;
	memcpy(old, id, len);
	old[len] = '\0';
	if (boot_id_parse(old, &c, &rep) ||
	    (size_t)c >= matrix_ncells(r->grow_from))
		return -1;
	matrix_cell(r->grow_from, (size_t)c, &from);
	*cell = matrix_cell_find(&r->m, from.v);
	if (*cell < 0)
		return -1;
	p = (struct boot_plan){ .cell = (size_t)*cell, .rep = (int)rep };
	boot_id(&p, buf, buflen);
	return 0;
}

/*
 * One row with its boot's id grown (raw.csv's cell column too, then its
 * "OLD NEW" line into ids). 0, or -1 if it is not a row of the run.
 */
static int grow_row(const struct run *r, const char *line, FILE *out, FILE *ids)
{
	const char *rest = line + strcspn(line, ","), *cell_col, *after;
	char id[32];
	long cell;

	if (!*rest ||
	    grown_id(r, line, (size_t)(rest - line), id, sizeof(id), &cell))
		return -1;
	if (!ids) {
		fprintf(out, "%s%s", id, rest);
		return 0;
	}
	/* boot_id,run_index,cell,...: the grown id and cell */
	cell_col = strchr(rest + 1, ',');
	after = cell_col ? strchr(cell_col + 1, ',') : NULL;
	if (!after)
		return -1;
	fprintf(out, "%s%.*s,%ld%s", id, (int)(cell_col - rest), rest, cell,
		after);
	fprintf(ids, "%.*s %s\n", (int)(rest - line), line, id);
	return 0;
}

/* DIR/name with every boot's id grown, as DIR/grow.tmp/name, synced. */
static int grow_table(struct run *r, const char *name, FILE *ids)
{
	char from[PATH_MAX], to[PATH_MAX], *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *in, *out;
	int rc = 0;

	if (results_path(r, name, from, sizeof(from)) ||
	    path_fmt(to, sizeof(to), "%s/" GROW_TMP "/%s", r->out_dir, name))
		return ERR(r, "path too long: %s", r->out_dir);
	in = fopen_table(from, r->err, sizeof(r->err));
	if (!in)
		return -1;
	out = fopen_new(to);
	if (!out) {
		fclose(in);
		return ERR(r, "cannot write %s: %s", to, strerror(errno));
	}
	while (!rc && (errno = 0, len = getline(&line, &cap, in)) > 0) {
		if (!lineno++)
			fputs(line, out); /* the header */
		else if (grow_row(r, line, out, ids))
			rc = ERR(
				r,
				"cannot grow: %s line %zu is no boot of the run's matrix (nothing was changed): %.60s",
				from, lineno, line);
	}
	if (!rc && (!feof(in) || ferror(in)))
		rc = ERR(r, "cannot read %s: %s", from,
			 strerror(errno ? errno : EIO));
	free(line);
	fclose(in);
	if (!rc && (ferror(out) || fflush(out) || fsync(fileno(out))))
		rc = ERR(r, "cannot write %s: %s", to, strerror(errno));
	if (fclose(out) && !rc)
		rc = ERR(r, "cannot write %s: %s", to, strerror(errno));
	return rc;
}

/* DIR/a renamed to DIR/b, as a step; a missing DIR/a is a step done. */
static int move(struct grow *g, const char *a, const char *b)
{
	char from[PATH_MAX], to[PATH_MAX];

	if (path_fmt(from, sizeof(from), "%s/%s", g->dir, a) ||
	    path_fmt(to, sizeof(to), "%s/%s", g->dir, b))
		return err_set(g->err, g->errlen, "path too long: %s", g->dir);
	step(g);
	if (rename(from, to) && errno != ENOENT)
		return err_set(g->err, g->errlen,
			       "cannot grow: rename %s to %s: %s", from, to,
			       strerror(errno));
	return 0;
}

/* Is DIR/name a directory (no link)? 1, 0 if nothing is there, -1 if
 * something else is (with a message). */
static int is_dir(struct grow *g, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (path_fmt(path, sizeof(path), "%s/%s", g->dir, name))
		return err_set(g->err, g->errlen, "path too long: %s", g->dir);
	if (lstat(path, &st))
		return errno == ENOENT ?
			       0 :
			       err_set(g->err, g->errlen, "cannot grow: %s: %s",
				       path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set(
			g->err, g->errlen,
			"%s is not a directory: not a grow of the runner's; move it away",
			path);
	return 1;
}

/*
 * One "OLD NEW" line of grow/ids at p (n bytes) into the names of OLD's
 * directory set aside and of NEW's; -1 unless both are boot ids.
 */
static int ids_line(const char *p, size_t n, char *a, char *b, size_t len)
{
	const char *sp = memchr(p, ' ', n);
	long c, rep;

	if (!sp || (size_t)(sp - p) >= 32 || (size_t)(p + n - sp) > 32)
		return -1;
	snprintf(a, len, GROW_DIR "/boots.old/%.*s", (int)(sp - p), p);
	snprintf(b, len, "boots/%.*s", (int)(p + n - sp - 1), sp + 1);
	return boot_id_parse(a + strlen(GROW_DIR "/boots.old/"), &c, &rep) ||
			       boot_id_parse(b + strlen("boots/"), &c, &rep) ?
		       -1 :
		       0;
}

/* grow/ids into ids, every line two boot ids (nothing else is moved). */
static int read_ids(struct grow *g, struct strbuf *ids)
{
	char path[PATH_MAX], a[64], b[64];

	/* no ids: a directory of another's, whatever else it holds */
	if (path_fmt(path, sizeof(path), "%s/" GROW_DIR "/ids", g->dir) ||
	    check_run_file(path) || slurp(path, ids))
		return err_set(g->err, g->errlen,
			       "cannot read %s: %s; %s/" GROW_DIR
			       " is no grow of the runner's: move it away",
			       path, run_strerror(errno), g->dir);
	for (const char *p = ids->p; *p;) {
		size_t n = strcspn(p, "\n");

		if (p[n] != '\n' || ids_line(p, n, a, b, sizeof(a)))
			return err_set(
				g->err, g->errlen,
				"%s: '%.*s' is not a line of the runner's (OLD NEW, two boot ids); move %s/" GROW_DIR
				" away",
				path, (int)(n < 60 ? n : 60), p, g->dir);
		p += n + 1;
	}
	return 0;
}

/* Each boot's directory back under its new id (read_ids'), as steps. */
static int move_boots(struct grow *g, const struct strbuf *ids)
{
	char a[64], b[64];

	for (const char *p = ids->p; *p;) {
		size_t n = strcspn(p, "\n");

		if (ids_line(p, n, a, b, sizeof(a)) || move(g, a, b))
			return -1;
		p += n + 1;
	}
	return 0;
}

/* The decided grow (DIR/grow) into place, then grow/ removed. */
static int finish(struct grow *g)
{
	char boots[PATH_MAX], path[PATH_MAX], name[64];
	struct strbuf ids = { 0 };
	int old = is_dir(g, GROW_DIR "/boots.old"), rc = -1;

	if (old < 0 || read_ids(g, &ids))
		goto out;
	if (path_fmt(boots, sizeof(boots), "%s/boots", g->dir) ||
	    path_fmt(path, sizeof(path), "%s/" GROW_DIR "/boots.old", g->dir)) {
		err_set(g->err, g->errlen, "path too long: %s", g->dir);
		goto out;
	}
	/* the boots' directories as they were, aside (none: an empty one) */
	if (!old) {
		step(g);
		if (rename(boots, path) &&
		    (errno != ENOENT || mkdir(path, 0755))) {
			err_set(g->err, g->errlen,
				"cannot grow: set %s aside: %s", boots,
				strerror(errno));
			goto out;
		}
	}
	if (mkdir(boots, 0755) && errno != EEXIST) {
		err_set(g->err, g->errlen, "cannot create %s: %s", boots,
			strerror(errno));
		goto out;
	}
	if (move_boots(g, &ids))
		goto out;
	for (size_t i = 0; i < sizeof(grown_files) / sizeof(*grown_files);
	     i++) {
		snprintf(name, sizeof(name), GROW_DIR "/%s", grown_files[i]);
		if (move(g, name, grown_files[i]))
			goto out;
	}
	step(g);
	if (path_fmt(path, sizeof(path), "%s/" GROW_DIR, g->dir) ||
	    remove_path(path))
		err_set(g->err, g->errlen, "cannot remove %s: %s", path,
			strerror(errno));
	else
		rc = 0;
out:
	sb_free(&ids);
	return rc;
}

int results_finish_grow(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX], *msg = NULL;
	struct grow g;
	int decided;

	grow_init(&g, dir, err, errlen);
	/* a grow that was never decided: the run is as it was */
	if (path_fmt(path, sizeof(path), "%s/" GROW_TMP, dir) ||
	    remove_path(path))
		return err_set(err, errlen, "cannot remove %s: %s", path,
			       strerror(errno));
	decided = is_dir(&g, GROW_DIR);
	if (decided <= 0)
		return decided;
	if (asprintf(&msg,
		     "[grow] finishing the grow of %s that was interrupted\n",
		     dir) < 0)
		return err_set(err, errlen, "out of memory");
	put_terminal_text(stderr, msg);
	free(msg);
	return finish(&g);
}

int results_pending_grow(const char *dir, char *err, size_t errlen)
{
	struct grow g;
	int decided;

	grow_init(&g, dir, err, errlen);
	decided = is_dir(&g, GROW_DIR);
	if (decided <= 0)
		return decided;
	return err_set(
		err, errlen,
		"%s holds a grow an earlier runner left unfinished (%s/" GROW_DIR
		"), and a dry run changes nothing: resume it without --dry-run (or run --summarize %s) to finish the grow, then dry-run again",
		dir, dir, dir);
}

int results_read_rows(struct run *r, struct row **rows, size_t *n)
{
	char path[PATH_MAX];

	if (results_path(r, "raw.csv", path, sizeof(path)))
		return ERR(r, "path too long: %s", r->out_dir);
	if (row_read_file(path, rows, n, r->err, sizeof(r->err)))
		return -1;
	for (size_t i = 0; r->grow_from && i < *n; i++) {
		struct row *w = &(*rows)[i];
		char id[32];

		if (grown_id(r, w->boot_id, strlen(w->boot_id), id, sizeof(id),
			     &w->cell)) {
			free(*rows);
			*rows = NULL;
			return ERR(
				r,
				"cannot grow: %s boot %s is no boot of the run's matrix",
				path, w->boot_id);
		}
		memcpy(w->boot_id, id, sizeof(id));
	}
	return 0;
}

int results_peek_done(struct run *r)
{
	struct row *rows;
	size_t n;

	if (results_read_rows(r, &rows, &n))
		return -1;
	r->done_ids = calloc(n ? n : 1, sizeof(*r->done_ids));
	for (r->ndone = 0; r->done_ids && r->ndone < n; r->ndone++)
		if (!(r->done_ids[r->ndone] = strdup(rows[r->ndone].boot_id)))
			break;
	free(rows);
	return r->ndone < n || !r->done_ids ? ERR(r, "out of memory") : 0;
}

/* The boots' ids in memory as the grown tables have them. */
static int grow_done_ids(struct run *r)
{
	for (size_t i = 0; i < r->ndone; i++) {
		char id[32], *dup;
		long cell;

		if (grown_id(r, r->done_ids[i], strlen(r->done_ids[i]), id,
			     sizeof(id), &cell) ||
		    !(dup = strdup(id)))
			return ERR(r, "out of memory");
		free(r->done_ids[i]);
		r->done_ids[i] = dup;
	}
	return 0;
}

int results_grow(struct run *r)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	struct grow g;
	FILE *ids;
	int rc;

	grow_init(&g, r->out_dir, r->err, sizeof(r->err));
	if (path_fmt(tmp, sizeof(tmp), "%s/" GROW_TMP, r->out_dir) ||
	    path_fmt(path, sizeof(path), "%s/ids", tmp))
		return ERR(r, "path too long: %s", r->out_dir);
	step(&g);
	if (remove_path(tmp) || mkdir(tmp, 0755) || !(ids = fopen_new(path)))
		return ERR(r, "cannot create %s: %s", tmp, strerror(errno));
	step(&g);
	rc = grow_table(r, "raw.csv", ids);
	if ((ferror(ids) || fflush(ids) || fsync(fileno(ids))) && !rc)
		rc = ERR(r, "cannot write %s: %s", path, strerror(errno));
	if (fclose(ids) && !rc)
		rc = ERR(r, "cannot write %s: %s", path, strerror(errno));
	if (rc)
		return -1;
	step(&g);
	if (grow_table(r, "reads.csv", NULL))
		return -1;
	step(&g);
	if (grow_table(r, "traces.csv", NULL))
		return -1;
	step(&g);
	if (results_save_matrix(r, GROW_TMP "/run.matrix"))
		return -1;
	step(&g);
	if (results_save_args(r, GROW_TMP "/run.args"))
		return -1;
	/* decided */
	if (move(&g, GROW_TMP, GROW_DIR) || finish(&g))
		return -1;
	fprintf(stderr,
		"[grow] %zu boots kept, each under its cell's id in the grown matrix\n",
		r->ndone);
	if (grow_done_ids(r))
		return -1;
	/* the run's tables are of r->m now */
	free(r->grow_from);
	r->grow_from = NULL;
	return 0;
}
