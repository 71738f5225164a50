// SPDX-License-Identifier: GPL-2.0
/*
 * What --out may be: a new or empty directory, or with --resume a run the
 * runner started (its run.matrix). Anything else is refused before a file
 * is written there; a directory is then locked against a second runner.
 */
#define _GNU_SOURCE
#include "outdir.h"
#include "../matrix/context.h"
#include "grow.h"
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The pid a holder wrote into its .lock (fd), as text, into pid. */
static void read_pid(int fd, char *pid, size_t pidlen)
{
	ssize_t n = pread(fd, pid, pidlen - 1, 0);

	pid[n > 0 ? n : 0] = '\0';
	pid[strcspn(pid, "\n")] = '\0';
}

/*
 * flock dir/.lock (created if it is not there) into *fd: 0, 1 if another
 * process holds it (its pid, as it wrote it, in pid), -1 with errno. The
 * holder's pid is written into the file when it can be.
 */
static int try_lock(const char *dir, int *fd, char *pid, size_t pidlen)
{
	char path[PATH_MAX], me[32];
	ssize_t n;
	int e;

	*fd = -1;
	if (path_fmt(path, sizeof(path), "%s/.lock", dir))
		return -1;
	*fd = open_run_file(path, O_RDWR | O_CREAT);
	if (*fd < 0 && (errno == EACCES || errno == EROFS))
		*fd = open_run_file(path, O_RDONLY); /* a shard read only */
	if (*fd < 0)
		return -1;
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		e = errno;
		read_pid(*fd, pid, pidlen);
		close(*fd);
		*fd = -1;
		if (e == EWOULDBLOCK)
			return 1;
		errno = e;
		return -1;
	}
	n = snprintf(me, sizeof(me), "%ld\n", (long)getpid());
	if (ftruncate(*fd, 0) == 0 && pwrite(*fd, me, (size_t)n, 0) != n)
		return -1;
	return 0;
}

/*
 * Does a running crngbench-run hold dir/.lock? 1 (its pid in pid) or 0.
 * Only looks: the file is never created, so a directory that is no run's
 * is left as it was. A runner takes the lock before it writes anything,
 * so a directory whose files are a starting run's (run.matrix.tmp, before
 * its rename) is that runner's, not a stranger's.
 */
static int lock_held(const char *dir, char *pid, size_t pidlen)
{
	char path[PATH_MAX];
	int fd, held = 0;

	if (path_fmt(path, sizeof(path), "%s/.lock", dir))
		return 0;
	fd = open_run_file(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK) {
		read_pid(fd, pid, pidlen);
		held = 1;
	}
	close(fd); /* and with it a lock this took */
	return held;
}

static int in_use(struct run *r, const char *pid)
{
	return ERR(
		r,
		"%s is in use by another crngbench-run (pid %s); wait for it or choose another --out",
		r->out_dir, pid[0] ? pid : "?");
}

/* One runner per directory: a second gets the holder's pid in its error. */
static int lock_dir(struct run *r)
{
	char pid[32] = "";

	switch (try_lock(r->out_dir, &r->lock_fd, pid, sizeof(pid))) {
	case 0:
		return 0;
	case 1:
		return in_use(r, pid);
	default:
		return ERR(r, "cannot use %s as a results directory: .lock: %s",
			   r->out_dir, run_strerror(errno));
	}
}

int results_lock_dir(const char *dir, const char *mode, int *fd, char *err,
		     size_t errlen)
{
	char pid[32] = "";

	switch (try_lock(dir, fd, pid, sizeof(pid))) {
	case 0:
		return 0;
	case 1:
		return err_set(
			err, errlen,
			"%s/.lock is held by another crngbench-run (pid %s): a run is writing %s; %s refuses while it runs (wait for it to finish)",
			dir, pid[0] ? pid : "?", dir, mode);
	default:
		return err_set(err, errlen, "%s: cannot lock %s/.lock: %s",
			       mode, dir, run_strerror(errno));
	}
}

int results_is_run(const char *dir)
{
	char path[PATH_MAX], line[64];
	FILE *f;
	int yes;

	if (path_fmt(path, sizeof(path), "%s/run.matrix", dir) ||
	    !(f = fopen_run(path)))
		return 0;
	yes = fgets(line, sizeof(line), f) &&
	      !strcmp(line, MATRIX_RESOLVED "\n");
	fclose(f);
	return yes;
}

/* The first entry of dir but ".", ".." and the two names to ignore into
 * what: 1, 0 if there is none, -1 if dir cannot be read. */
static int first_entry(const char *dir, const char *ign1, const char *ign2,
		       char *what, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -1;
	while (!rc && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, ign1) && strcmp(e->d_name, ign2)) {
			text_printf(what, len, "%s", e->d_name);
			rc = 1;
		}
	closedir(d);
	return rc;
}

/*
 * What an existing --out holds: 1 a run of the runner, 0 nothing (or what
 * a start that died before run.matrix leaves: .lock, an empty boots/), -1
 * anything else (named in what), -2 if it cannot be read.
 */
static int dir_holds(const char *dir, char *what, size_t len)
{
	char boots[PATH_MAX], sub[8];
	int empty_boots;

	if (results_is_run(dir))
		return 1;
	if (path_fmt(boots, sizeof(boots), "%s/boots", dir))
		return -2;
	empty_boots = first_entry(boots, "", "", sub, sizeof(sub)) == 0;
	switch (first_entry(dir, ".lock", empty_boots ? "boots" : "", what,
			    len)) {
	case 0:
		return 0;
	case 1:
		return -1;
	default:
		return -2;
	}
}

int results_open(struct run *r)
{
	char path[PATH_MAX], what[64] = "", pid[32] = "";
	int held;

	r->lock_fd = -1;
	if (!r->o.dry_run && mkdir(r->out_dir, 0755) && errno != EEXIST)
		return ERR(r, "cannot create results directory %s: %s",
			   r->out_dir, strerror(errno));
	/* Nothing is written into a directory that is not a run's. */
	held = dir_holds(r->out_dir, what, sizeof(what));
	if (held == -2)
		return ERR(r, "cannot use %s as a results directory: %s",
			   r->out_dir, strerror(errno));
	/* what another runner is writing there, not a stranger's files */
	if (held != 1 && lock_held(r->out_dir, pid, sizeof(pid)))
		return in_use(r, pid);
	if (r->o.resume && held != 1)
		return ERR(
			r,
			"cannot resume: %s is not a run of crngbench-run (no run.matrix written by it); --resume finishes a run the runner started there",
			r->out_dir);
	if (held < 0)
		return ERR(
			r,
			"%s holds files ('%s') and no run of crngbench-run (no run.matrix written by it); --out takes an empty or new directory, or --resume on an existing run",
			r->out_dir, what);
	/* a dry run only looks: no .lock written, nothing finished */
	if (r->o.dry_run) {
		if (lock_held(r->out_dir, pid, sizeof(pid)))
			return in_use(r, pid);
	} else if (lock_dir(r)) {
		return -1;
	}
	if (results_path(r, "raw.csv", path, sizeof(path)))
		return ERR(r, "results directory path too long");
	if (!r->o.resume && held == 1)
		return ERR(
			r,
			"%s already holds a run; use --resume to finish it or choose another --out",
			r->out_dir);
	if (r->o.resume && !file_exists(path))
		return ERR(r, "cannot resume: %s holds no run (no raw.csv)",
			   r->out_dir);
	/* a grow this run was left in is finished before it resumes */
	if (r->o.dry_run)
		return results_pending_grow(r->out_dir, r->err, sizeof(r->err));
	return results_finish_grow(r->out_dir, r->err, sizeof(r->err));
}
