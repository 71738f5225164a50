// SPDX-License-Identifier: GPL-2.0
/*
 * The crash-safe file writes: a short write names its real cause; nothing
 * is written or read through a link inside a results directory, and a
 * FIFO or a device is refused without blocking.
 */
#define _GNU_SOURCE
#include "../../bench/ground/util.h"
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	/* A device is no run file: refused, not written. */
	errno = 0;
	rc3 = append_atomic("/dev/full", buf, sizeof(buf));
	e3 = errno;
	CHECK(rc3 == -1 && e3 != 0);
	unlink(path);
	strcat(path, ".tmp");
	unlink(path);
	rmdir(dir);
}

static char tdir[] = "/tmp/crngbench-test-links-XXXXXX";

static char *at(const char *name)
{
	static char buf[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tdir, name);
	return buf[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

static int holds(const char *name, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(at(name), "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return !strcmp(buf, text);
}

/*
 * A link planted in a results directory (raw.csv -> a file elsewhere,
 * summary.csv.tmp -> a file elsewhere) is never written through: the
 * file it points to keeps its bytes.
 */
static void no_write_through_links(void)
{
	CHECK(mkdtemp(tdir) != NULL);
	put("victim", "precious\ntorn");
	CHECK(symlink(at("victim"), at("out.csv.tmp")) == 0);
	CHECK(write_file_atomic(at("out.csv"), "new\n", 4) == 0);
	CHECK(holds("victim", "precious\ntorn"));
	CHECK(holds("out.csv", "new\n"));
	CHECK(symlink(at("victim"), at("raw.csv")) == 0);
	CHECK(append_atomic(at("raw.csv"), "row\n", 4) == -1);
	CHECK(trim_partial(at("raw.csv")) == -1);
	CHECK(holds("victim", "precious\ntorn"));
	/* write_file_atomic replaces a link at its own name, not its file */
	CHECK(write_file_atomic(at("raw.csv"), "hdr\n", 4) == 0);
	CHECK(holds("victim", "precious\ntorn") && holds("raw.csv", "hdr\n"));
}

/* slurp(path) in a child given 3 s: 0 ok, 1 refused, 2 hung or crashed. */
static int slurp_outcome(const char *path)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct strbuf b = { 0 };

		alarm(3);
		_exit(slurp(path, &b) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

/* A FIFO (no writer) and a link to /dev/zero: refused at once. */
static void no_read_from_fifo_or_device(void)
{
	CHECK(mkfifo(at("fifo"), 0644) == 0);
	CHECK(symlink("/dev/zero", at("zero")) == 0);
	put("plain", "channel bytes\n");
	CHECK(slurp_outcome(at("fifo")) == 1);
	CHECK(slurp_outcome(at("zero")) == 1);
	CHECK(slurp_outcome(at("plain")) == 0);
}

/* Past the cap, a read is an error (EFBIG), not a partial file. */
static void slurp_is_capped(void)
{
	struct strbuf b = { 0 };

	put("big", "0123456789");
	CHECK(slurp_at(AT_FDCWD, at("big"), &b, 10) == 0 && b.len == 10);
	errno = 0;
	CHECK(slurp_at(AT_FDCWD, at("big"), &b, 9) == -1 && errno == EFBIG);
	CHECK(slurp(at("missing"), &b) == 0 && b.len == 0);
	sb_free(&b);
}

/*
 * fresh_dir: a boots/<id> about to be booted is a new, empty directory
 * whatever was at its name (a link to a directory elsewhere, a directory
 * holding a link), and nothing a link points to is touched.
 */
static void fresh_dir_follows_no_link(void)
{
	struct stat st;

	CHECK(mkdir(at("elsewhere"), 0755) == 0);
	put("elsewhere/keep", "keep");
	CHECK(symlink(at("elsewhere"), at("boot")) == 0);
	CHECK(fresh_dir(at("boot")) == 0);
	CHECK(lstat(at("boot"), &st) == 0 && S_ISDIR(st.st_mode));
	CHECK(holds("elsewhere/keep", "keep"));
	CHECK(mkdir(at("boot/sub"), 0755) == 0);
	CHECK(symlink(at("elsewhere"), at("boot/sub/link")) == 0);
	CHECK(symlink(at("victim"), at("boot/console.log")) == 0);
	CHECK(fresh_dir(at("boot")) == 0);
	CHECK(lstat(at("boot/sub"), &st) == -1 && errno == ENOENT);
	CHECK(holds("elsewhere/keep", "keep") &&
	      holds("victim", "precious\ntorn"));
	CHECK(remove_path(tdir) == 0 && lstat(tdir, &st) == -1);
}

int main(void)
{
	TEST(short_write_names_its_cause);
	TEST(no_write_through_links);
	TEST(no_read_from_fifo_or_device);
	TEST(slurp_is_capped);
	TEST(fresh_dir_follows_no_link);
	return check_any_failed;
}
