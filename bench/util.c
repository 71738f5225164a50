// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "util.h"

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
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
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
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	start = lseek(fd, 0, SEEK_END);
	if (write_all(fd, buf, len) || fsync(fd)) {
		e = errno;
		/* All of it or none: take a partial append back. */
		if (start >= 0 && ftruncate(fd, start) != 0) {
			/* a device (/dev/full): nothing to take back */
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
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
	int rc = 0, fd = open(path, O_RDWR | O_CLOEXEC);

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

int slurp(const char *path, struct strbuf *b)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	b->len = 0;
	b->oom = 0;
	sb_append(b, "", 0);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		sb_append(b, buf, (size_t)n);
	}
	close(fd);
	if (b->oom) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
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
