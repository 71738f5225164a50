// SPDX-License-Identifier: GPL-2.0
/*
 * What --out may be (bench/results/outdir.c): a directory holding a starting
 * run's files while that runner holds its .lock is in use, not a
 * stranger's; a stranger's files are refused and nothing is written
 * there; an empty directory is taken and locked.
 */
#define _GNU_SOURCE
#include "../../bench/matrix/context.h"
#include "../../bench/results/outdir.h"
#include "check.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static struct run r;
static char base[] = "/tmp/crngbench-test-outdir.XXXXXX";

/* A fresh run aimed at base/name; the directory made (empty). */
static void aim(const char *name)
{
	memset(&r, 0, sizeof(r));
	r.lock_fd = -1;
	snprintf(r.out_dir, sizeof(r.out_dir), "%s/%s", base, name);
	CHECK(mkdir(r.out_dir, 0755) == 0);
}

static int put(const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", r.out_dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd >= 0)
		CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	return fd;
}

static int exists(const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", r.out_dir, name);
	return access(path, F_OK) == 0;
}

/*
 * Another runner took the lock and is writing run.matrix (its .tmp not
 * yet renamed): a second is told it is in use, with the holder's pid,
 * as it is before the first writes anything.
 */
static void starting_run_is_in_use(void)
{
	int held;

	aim("starting");
	held = put(".lock", "4242\n");
	CHECK(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0);
	close(put("run.matrix.tmp", "# resolved\n"));
	CHECK(results_open(&r) != 0);
	CHECK(strstr(r.err, "in use by another crngbench-run (pid 4242)"));
	CHECK(!strstr(r.err, "holds files"));
	r.o.resume = 1;
	CHECK(results_open(&r) != 0);
	CHECK(strstr(r.err, "in use by another crngbench-run (pid 4242)"));
	close(held);
}

/* A stranger's files, no lock held: refused by name, and no .lock made. */
static void strangers_files_refused(void)
{
	aim("stranger");
	close(put("notes.txt", "mine\n"));
	CHECK(results_open(&r) != 0);
	CHECK(strstr(r.err,
		     "holds files ('notes.txt') and no run of crngbench-run"));
	CHECK(!exists(".lock"));
}

/* A lock left by a run that ended holds nothing: the stranger's files are
 * still named as such. */
static void stale_lock_is_no_runner(void)
{
	aim("stale");
	close(put(".lock", "1\n"));
	close(put("run.matrix.tmp", "x\n"));
	CHECK(results_open(&r) != 0);
	CHECK(strstr(r.err, "holds files ('run.matrix.tmp')"));
}

/* An empty directory is taken, and locked against a second runner. */
static void empty_taken_and_locked(void)
{
	char path[PATH_MAX + 64];
	int fd;

	aim("empty");
	CHECK(results_open(&r) == 0);
	CHECK(r.lock_fd >= 0);
	snprintf(path, sizeof(path), "%s/.lock", r.out_dir);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0);
	if (fd >= 0)
		close(fd);
	if (r.lock_fd >= 0)
		close(r.lock_fd);
}

int main(void)
{
	char cmd[sizeof(base) + 16];

	if (!mkdtemp(base)) {
		printf("FAIL: outdir: mkdtemp: cannot make a scratch directory\n");
		return 1;
	}
	TEST(starting_run_is_in_use);
	TEST(strangers_files_refused);
	TEST(stale_lock_is_no_runner);
	TEST(empty_taken_and_locked);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd) != 0)
		printf("# outdir: could not remove %s\n", base);
	return check_any_failed;
}
