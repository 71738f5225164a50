// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "util.h"
#include "err.h"
#include "runlimits.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int sb_reserve(struct strbuf *b, size_t more)
{
	size_t cap;
	char *p;

	if (b->len + more + 1 <= b->cap)
		return 0;
	cap = (b->cap ? b->cap * 2 : 4096) + more;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || sb_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_append(struct strbuf *b, const char *s, size_t len)
{
	if (sb_reserve(b, len))
		return;
	memcpy(b->p + b->len, s, len);
	b->len += len;
	b->p[b->len] = '\0';
}

void sb_free(struct strbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void text_printf(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

int parse_int(const char *s, int lo, int hi, int *out)
{
	int64_t v;

	if (crb_parse_i64(s, &v) || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

int shard_parse(const char *s, int *k, int *n)
{
	const char *slash = strchr(s, '/');
	char ks[16];

	if (!slash || (size_t)(slash - s) >= sizeof(ks))
		return -1;
	snprintf(ks, sizeof(ks), "%.*s", (int)(slash - s), s);
	return parse_int(slash + 1, 1, MAX_SHARDS, n) ||
			       parse_int(ks, 1, *n, k) ?
		       -1 :
		       0;
}

int path_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int is_run_file(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int check_run_file(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return -1;
	if (S_ISREG(st.st_mode))
		return 0;
	errno = S_ISLNK(st.st_mode) ? ELOOP : ENOTREG;
	return -1;
}

/* A run file at dirfd/name: no link, no FIFO or device, never blocking. */
static int open_run_at(int dirfd, const char *name, int flags)
{
	struct stat st;
	int fl, fd = openat(dirfd, name,
			    flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		int e = errno;

		if (!fstat(fd, &st) && !S_ISREG(st.st_mode))
			e = ENOTREG;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int open_run_file(const char *path, int flags)
{
	return open_run_at(AT_FDCWD, path, flags);
}

FILE *fopen_run(const char *path)
{
	int fd = open_run_file(path, O_RDONLY);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* The lines of f (its '\n's; a torn last line is no row), f rewound. */
static int count_lines(FILE *f, size_t *n)
{
	char buf[65536];
	size_t got;

	*n = 0;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		for (char *p = buf;
		     (p = memchr(p, '\n', got - (size_t)(p - buf))); p++)
			(*n)++;
	return ferror(f) || fseek(f, 0, SEEK_SET) ? -1 : 0;
}

int run_table_limits(FILE *f, const char *path, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/');
	int raw = !strcmp(base ? base + 1 : path, "raw.csv");
	long max = raw ? MAX_RUN_BOOTS : MAX_RUN_ROWS;
	struct stat st;
	size_t lines;

	if (fstat(fileno(f), &st))
		return err_set(err, errlen, "cannot read %s: %s", path,
			       strerror(errno));
	if (st.st_size > MAX_RUN_BYTES)
		return err_set(
			err, errlen,
			"%s: %lld bytes, over the limit of %d bytes (256 MiB) a table of a run may hold (MAX_RUN_BYTES in bench/ground/runlimits.h); nothing was read: split the run into smaller ones",
			path, (long long)st.st_size, MAX_RUN_BYTES);
	if (count_lines(f, &lines))
		return err_set(err, errlen, "cannot read %s: %s", path,
			       strerror(errno ? errno : EIO));
	if (lines > 1 && lines - 1 > (size_t)max)
		return err_set(
			err, errlen,
			"%s: %zu rows, over the limit of %ld rows %s (%s in bench/ground/runlimits.h); nothing was read: split the run into smaller ones",
			path, lines - 1, max,
			raw ? "a run may hold" : "a table of a run may hold",
			raw ? "MAX_RUN_BOOTS" : "MAX_RUN_ROWS");
	return 0;
}

FILE *fopen_table(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen_run(path);
	int e = errno;

	if (!f) {
		err_set(err, errlen, "cannot read %s: %s", path,
			run_strerror(e));
		errno = e;
		return NULL;
	}
	if (run_table_limits(f, path, err, errlen)) {
		fclose(f);
		errno = EFBIG;
		return NULL;
	}
	return f;
}

/* path, created new: what was at the name (a link included) is gone. */
static int create_new(const char *path)
{
	if (unlink(path) && errno != ENOENT)
		return -1;
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0644);
}

FILE *fopen_new(const char *path)
{
	int fd = create_new(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

const char *run_strerror(int e)
{
	switch (e) {
	case ELOOP:
		return "a symbolic link (the runner follows no link inside a results directory)";
	case ENOTREG:
		return "not a regular file (a FIFO, a device or a directory)";
	case EFBIG:
		return "over the " SLURP_MAX_TEXT
		       " cap of a run's file (the result channel's and console.log's)";
	default:
		return strerror(e);
	}
}

/*
 * All of buf, or -1 with the kernel's reason in errno: a short write (a
 * disk filling up, a file size limit) is retried, and the retry's error is
 * the cause (ENOSPC, EFBIG, ...); a write that makes no progress without
 * saying why is taken as no space left.
 */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int append_atomic(const char *path, const char *buf, size_t len)
{
	int fd, e;
	off_t start;

	if (!len)
		return 0;
	fd = open_run_file(path, O_WRONLY | O_APPEND | O_CREAT);
	if (fd < 0)
		return -1;
	start = lseek(fd, 0, SEEK_END);
	if (write_all(fd, buf, len) || fsync(fd)) {
		e = errno;
		/* All of it or none: take a partial append back. */
		if (start >= 0 && ftruncate(fd, start) != 0) {
			/* nothing more to do: the error is reported */
		}
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd) ? -1 : 0;
}

int write_file_atomic(const char *path, const char *buf, size_t len)
{
	char tmp[PATH_MAX + 8];
	int fd, e;

	if (path_fmt(tmp, sizeof(tmp), "%s.tmp", path))
		return -1;
	fd = create_new(tmp);
	if (fd < 0)
		return -1;
	if (write_all(fd, buf, len) || fsync(fd)) {
		e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		return -1;
	}
	if (close(fd) || rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int trim_partial(const char *path)
{
	struct stat st;
	char c;
	int rc = 0, fd = open_run_file(path, O_RDWR);

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    pread(fd, &c, 1, st.st_size - 1) == 1 && c != '\n') {
		off_t off = st.st_size - 1;

		while (off > 0 && pread(fd, &c, 1, off - 1) == 1 && c != '\n')
			off--;
		rc = ftruncate(fd, off);
	}
	close(fd);
	return rc;
}

int slurp_at(int dirfd, const char *name, struct strbuf *b, size_t max)
{
	char buf[65536];
	ssize_t n;
	int e = 0, fd = open_run_at(dirfd, name, O_RDONLY);

	b->len = 0;
	b->oom = 0;
	sb_append(b, "", 0);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while (!e && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0)
			e = errno == EINTR ? 0 : errno;
		else if ((size_t)n > max - b->len)
			e = EFBIG; /* the file grew past the cap */
		else
			sb_append(b, buf, (size_t)n);
		if (b->oom)
			e = ENOMEM;
	}
	close(fd);
	errno = e;
	return e ? -1 : 0;
}

int slurp(const char *path, struct strbuf *b)
{
	return slurp_at(AT_FDCWD, path, b, SLURP_MAX);
}

int copy_file(const char *from, const char *to)
{
	struct strbuf b = { 0 };
	int rc;

	if (slurp(from, &b)) {
		sb_free(&b);
		return -1;
	}
	rc = write_file_atomic(to, b.p, b.len);
	sb_free(&b);
	return rc;
}

/* Remove dirfd/name without following a link; depth bounds the descent. */
static int remove_at(int at, const char *name, int depth)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, rc = 0;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(at, name, 0);
	if (depth > 8) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (!rc && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = remove_at(dirfd(d), e->d_name, depth + 1);
	closedir(d);
	return rc ? rc : unlinkat(at, name, AT_REMOVEDIR);
}

int remove_path(const char *path)
{
	return remove_at(AT_FDCWD, path, 0);
}

int fresh_dir(const char *path)
{
	return remove_path(path) || mkdir(path, 0755) ? -1 : 0;
}

int64_t host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int control_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return 2; /* a C1 control in UTF-8: ESC's 8-bit twin among them */
	return (*p && *p < 0x20) || *p == 0x7f;
}

void put_terminal_text(FILE *f, const char *s)
{
	while (*s) {
		int n = control_len(s);

		if (n && *s != '\n' && *s != '\t') {
			fputc('?', f);
			s += n;
		} else {
			fputc(*s++, f);
		}
	}
}

uint64_t rng_next(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}
