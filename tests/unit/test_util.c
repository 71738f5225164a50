// SPDX-License-Identifier: GPL-2.0
/* The crash-safe file writes: a short write names its real cause. */
#define _GNU_SOURCE
#include "../../bench/util.h"
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/*
 * A file size limit makes write() stop short without an error, as a disk
 * that fills up mid-write does: the caller must learn the real cause (the
 * next write's errno), not EIO, and an append is whole or not at all.
 */
static void short_write_names_its_cause(void)
{
	char dir[] = "/tmp/crngbench-test-util-XXXXXX", path[64], buf[300];
	struct rlimit old, lim;
	struct sigaction ign = { .sa_handler = SIG_IGN }, prev;
	int rc1, e1, rc2, e2, rc3, e3;
	off_t after;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/raw.csv", dir);
	memset(buf, 'x', sizeof(buf));
	CHECK(append_atomic(path, "header\n", 7) == 0);
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
	lim = old;
	lim.rlim_cur = 100;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGXFSZ, &ign, &prev);
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	errno = 0;
	rc1 = append_atomic(path, buf, sizeof(buf));
	e1 = errno;
	after = size_of(path);
	errno = 0;
	rc2 = write_file_atomic(path, buf, sizeof(buf));
	e2 = errno;
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	sigaction(SIGXFSZ, &prev, NULL);
	CHECK(rc1 == -1 && e1 == EFBIG);
	CHECK(after == 7); /* the short append was taken back */
	CHECK(rc2 == -1 && e2 == EFBIG);
	CHECK(size_of(path) == 7);
	/* A full device: no space left, as the kernel says it. */
	errno = 0;
	rc3 = append_atomic("/dev/full", buf, sizeof(buf));
	e3 = errno;
	CHECK(rc3 == -1 && e3 == ENOSPC);
	unlink(path);
	strcat(path, ".tmp");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	TEST(short_write_names_its_cause);
	return check_any_failed;
}
