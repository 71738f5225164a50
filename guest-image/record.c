// SPDX-License-Identifier: GPL-2.0
/*
 * Writer and reader of the crngbench report format (see record.h).
 * Built into both the static guest probe and the host runner.
 */
#define _GNU_SOURCE
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const type_names[] = {
#define CRB_NAME(t, keys, doc) #t,
	CRB_TYPES(CRB_NAME)
#undef CRB_NAME
};

static const char *const type_keys[] = {
#define CRB_KEYS(t, keys, doc) keys,
	CRB_TYPES(CRB_KEYS)
#undef CRB_KEYS
};

const char *const crb_read_names[] = {
#define CRB_READ_NAME(name, what) name,
	CRB_READS(CRB_READ_NAME)
#undef CRB_READ_NAME
};
const size_t crb_nreads = sizeof(crb_read_names) / sizeof(crb_read_names[0]);

const char *crb_read_list(void)
{
	static const char list[] =
#define CRB_READ_LIST(name, what) name ", "
		CRB_READS(CRB_READ_LIST)
#undef CRB_READ_LIST
		;
	static char out[sizeof(list)];

	if (!out[0]) { /* without the last ", " */
		memcpy(out, list, sizeof(list) - 3);
		out[sizeof(list) - 3] = '\0';
	}
	return out;
}

const char *crb_type_name(enum crb_type t)
{
	return (unsigned int)t < CRB_NTYPES ? type_names[t] : "?";
}

int crb_digest_ok(const char *v, size_t len)
{
	if (len != CRB_DIGEST_LEN)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!((v[i] >= '0' && v[i] <= '9') ||
		      (v[i] >= 'a' && v[i] <= 'f')))
			return 0;
	return 1;
}

int crb_waiters(const char *v)
{
	return v[0] >= '0' && v[0] <= '0' + CRB_MAX_WAITERS && !v[1] ?
		       v[0] - '0' :
		       -1;
}

int crb_status_ok(const char *v, size_t len)
{
	return len == strlen(CRB_STATUS_UNAVAILABLE) &&
	       !memcmp(v, CRB_STATUS_UNAVAILABLE, len);
}

static const struct form {
	const char *key;
	int (*ok)(const char *v, size_t len);
	const char *what;
} forms[] = {
#define CRB_FORM(key, check, what) { #key, check, what },
	CRB_FORMS(CRB_FORM)
#undef CRB_FORM
};

/* The form key's value must have, if it has one; NULL: any value. */
static const struct form *form_of(const char *key)
{
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (!strcmp(forms[i].key, key))
			return &forms[i];
	return NULL;
}

const char *crb_get(const struct crb_record *r, const char *key)
{
	for (int i = 0; i < r->nfields; i++)
		if (!strcmp(r->field[i].key, key))
			return r->field[i].value;
	return NULL;
}

int crb_parse_i64(const char *s, int64_t *out)
{
	const char *d = s + (*s == '-');
	size_t n = strspn(d, "0123456789");
	long long v;

	if (!n || d[n] || n > 19) {
		errno = n > 19 && !d[n] ? ERANGE : EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(s, NULL, 10); /* digits alone: it reads them all */
	if (errno)
		return -1;
	*out = (int64_t)v;
	return 0;
}

int crb_get_i64(const struct crb_record *r, const char *key, int64_t *out)
{
	const char *v = crb_get(r, key);

	return v ? crb_parse_i64(v, out) : -1;
}

uint32_t crb_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

static int must_escape(unsigned char c)
{
	return c <= ' ' || c >= 0x7f || c == '%' || c == '=';
}

char *crb_escape(char *dst, size_t dstlen, const char *src)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	if (!dstlen)
		return dst;
	for (; *src; src++) {
		unsigned char c = (unsigned char)*src;

		if (must_escape(c)) {
			if (o + 3 >= dstlen)
				break;
			dst[o++] = '%';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 15];
		} else {
			if (o + 1 >= dstlen)
				break;
			dst[o++] = (char)c;
		}
	}
	dst[o] = '\0';
	return dst;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int crb_parse_line(const char *line, size_t len, struct crb_record *r,
		   char *err, size_t errlen)
{
	size_t i = 0, tlen;
	int t;

	memset(r, 0, sizeof(*r));
	if (len >= CRB_MAX_LINE)
		return fail(err, errlen, "line longer than %d bytes",
			    CRB_MAX_LINE - 1);
	if (memchr(line, '\0', len))
		return fail(err, errlen, "NUL byte in line");
	{
		/* Bounded: line need not be NUL-terminated. */
		const char *sp = memchr(line, ' ', len);

		tlen = sp ? (size_t)(sp - line) : len;
	}
	for (t = 0; t < CRB_NTYPES; t++)
		if (strlen(type_names[t]) == tlen &&
		    !strncmp(line, type_names[t], tlen))
			break;
	if (t == CRB_NTYPES)
		return fail(err, errlen, "unknown record type '%.*s'",
			    (int)(tlen > 32 ? 32 : tlen), line);
	r->type = (enum crb_type)t;
	i = tlen;
	while (i < len) {
		struct crb_field *f;
		const struct form *form;
		size_t k = 0, v = 0, raw;

		if (line[i] != ' ')
			return fail(err, errlen,
				    "%s: expected a space at column %zu",
				    type_names[t], i);
		i++;
		if (r->nfields == CRB_MAX_FIELDS)
			return fail(err, errlen, "%s: more than %d fields",
				    type_names[t], CRB_MAX_FIELDS);
		f = &r->field[r->nfields];
		while (i < len && line[i] != '=') {
			char c = line[i];

			if (!((c >= 'a' && c <= 'z') ||
			      (c >= '0' && c <= '9') || c == '_'))
				return fail(
					err, errlen,
					"%s: bad character in key at column %zu",
					type_names[t], i);
			if (k + 1 >= sizeof(f->key))
				return fail(err, errlen, "%s: key too long",
					    type_names[t]);
			f->key[k++] = c;
			i++;
		}
		if (i == len || !k)
			return fail(err, errlen,
				    "%s: field without key=value at column %zu",
				    type_names[t], i);
		i++; /* '=' */
		raw = i;
		while (i < len && line[i] != ' ') {
			unsigned char c = (unsigned char)line[i];

			if (c == '%') {
				int hi = i + 2 < len ? hexval(line[i + 1]) : -1;
				int lo = i + 2 < len ? hexval(line[i + 2]) : -1;

				if (hi < 0 || lo < 0)
					return fail(
						err, errlen,
						"%s: bad %%-escape in value of '%s'",
						type_names[t], f->key);
				c = (unsigned char)(hi << 4 | lo);
				i += 2;
			} else if (must_escape(c)) {
				return fail(
					err, errlen,
					"%s: unescaped byte 0x%02x in value of '%s'",
					type_names[t], c, f->key);
			}
			if (v + 1 >= sizeof(f->value))
				return fail(err, errlen,
					    "%s: value of '%s' too long",
					    type_names[t], f->key);
			f->value[v++] = (char)c;
			i++;
		}
		if (!v)
			return fail(err, errlen, "%s: empty value for '%s'",
				    type_names[t], f->key);
		form = form_of(f->key);
		if (form && !form->ok(line + raw, i - raw))
			return fail(err, errlen, "%s: %s='%.*s' is not %s",
				    type_names[t], f->key,
				    (int)(i - raw > 40 ? 40 : i - raw),
				    line + raw, form->what);
		for (int j = 0; j < r->nfields; j++)
			if (!strcmp(r->field[j].key, f->key))
				return fail(err, errlen,
					    "%s: duplicate key '%s'",
					    type_names[t], f->key);
		r->nfields++;
	}
	/* Every required key present. */
	for (const char *p = type_keys[t]; *p;) {
		char key[CRB_MAX_KEY];
		size_t w = strcspn(p, " ");

		snprintf(key, sizeof(key), "%.*s", (int)w, p);
		if (!crb_get(r, key))
			return fail(
				err, errlen,
				"%s: missing required key '%s' (requires: %s)",
				type_names[t], key, type_keys[t]);
		p += w;
		while (*p == ' ')
			p++;
	}
	return 0;
}

int crb_flush(struct crb_writer *w)
{
	const char *p = w->buf;

	while (w->len && !w->error) {
		ssize_t n = write(w->fd, p, w->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->error = n < 0 ? errno : EIO;
			break;
		}
		p += n;
		w->len -= (size_t)n;
	}
	w->len = 0;
	return w->error ? -1 : 0;
}

/* Buffer one whole line; a line never straddles two write()s. */
static int put_line(struct crb_writer *w, const char *line, size_t len)
{
	if (w->error)
		return -1;
	if (w->len + len > sizeof(w->buf) && crb_flush(w))
		return -1;
	if (len > sizeof(w->buf)) { /* cannot happen: lines are shorter */
		w->error = EOVERFLOW;
		return -1;
	}
	memcpy(w->buf + w->len, line, len);
	w->len += len;
	return 0;
}

int crb_begin(struct crb_writer *w, int fd, const char *segment)
{
	char line[128];
	int n;

	w->fd = fd;
	w->n = 0;
	w->crc = 0;
	w->error = 0;
	w->len = 0;
	n = snprintf(line, sizeof(line), "%s/%d seg=%s\n", CRB_MAGIC,
		     CRB_VERSION, segment);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		w->error = EINVAL;
		return -1;
	}
	w->crc = crb_crc32(0, line, (size_t)n);
	return put_line(w, line, (size_t)n);
}

int crb_emit(struct crb_writer *w, enum crb_type type, const char *fmt, ...)
{
	char line[CRB_MAX_LINE + 1];
	struct crb_record check;
	va_list ap;
	int n, m;

	if (w->error)
		return -1;
	n = snprintf(line, sizeof(line), "%s ", crb_type_name(type));
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)(n + m) >= CRB_MAX_LINE) {
		w->error = EOVERFLOW;
		return -1;
	}
	n += m;
	if (crb_parse_line(line, (size_t)n, &check, NULL, 0) ||
	    check.type != type) {
		w->error = EINVAL;
		return -1;
	}
	line[n++] = '\n';
	w->crc = crb_crc32(w->crc, line, (size_t)n);
	w->n++;
	return put_line(w, line, (size_t)n);
}

int crb_end(struct crb_writer *w)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "end n=%u crc=%08" PRIx32 "\n",
			 w->n, w->crc);

	if (put_line(w, line, (size_t)n))
		return -1;
	return crb_flush(w);
}

/* --- reader ---------------------------------------------------------------- */

struct seg_state {
	struct crb_segment_info info;
	const char *first; /* first record line of the open segment */
	uint32_t crc;
	int open;
};

int crb_parse_header(const char *line, size_t len, char *name, size_t namelen,
		     char *err, size_t errlen)
{
	char buf[128], canon[128];
	int ver;
	char seg[CRB_MAX_KEY];
	char tail;

	if (len >= sizeof(buf))
		return fail(err, errlen, "header line too long");
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (strncmp(buf, CRB_MAGIC "/", sizeof(CRB_MAGIC)))
		return fail(err, errlen, "not a crngbench header");
	/* Only the exact form crb_begin() writes: its version digits only
	 * (sscanf's %d would take "+1", " 1" or "01"). */
	if (sscanf(buf + sizeof(CRB_MAGIC), "%d seg=%31[a-z0-9_-]%c", &ver, seg,
		   &tail) != 2 ||
	    (snprintf(canon, sizeof(canon), CRB_MAGIC "/%d seg=%s", ver, seg),
	     strcmp(buf, canon)))
		return fail(err, errlen, "malformed header '%s'", buf);
	if (ver != CRB_VERSION)
		return fail(
			err, errlen,
			"unknown format version %d (this reader knows version %d)",
			ver, CRB_VERSION);
	snprintf(name, namelen, "%s", seg);
	return 0;
}

static int finish(struct seg_state *s,
		  int (*on_segment)(void *, const struct crb_segment_info *),
		  void *ctx)
{
	s->open = 0;
	return on_segment ? on_segment(ctx, &s->info) : 0;
}

/* Re-walk a verified segment's records and hand them out. */
static int deliver(const char *p, const char *end, const char *segment,
		   int (*on_record)(void *, const char *,
				    const struct crb_record *),
		   void *ctx)
{
	struct crb_record r;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break;
		if (crb_parse_line(p, (size_t)(nl - p), &r, NULL, 0) == 0 &&
		    on_record && on_record(ctx, segment, &r))
			return -1;
		p = nl + 1;
	}
	return 0;
}

int crb_read_stream(const char *buf, size_t len,
		    int (*on_record)(void *, const char *,
				     const struct crb_record *),
		    int (*on_segment)(void *, const struct crb_segment_info *),
		    void *ctx)
{
	struct seg_state s = { 0 };
	const char *p = buf, *end = buf + len;
	int complete = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t llen = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;
		/* A header may follow noise on the same line (a serial port can
		 * carry a stray byte before the guest writes); find it. */
		const char *hdr =
			memmem(p, llen, CRB_MAGIC "/", sizeof(CRB_MAGIC));

		if (hdr) {
			char name[CRB_MAX_KEY], err[160];

			if (s.open) {
				snprintf(
					s.info.error, sizeof(s.info.error),
					"truncated: next segment began before the terminator");
				if (finish(&s, on_segment, ctx))
					return -1;
			}
			memset(&s, 0, sizeof(s));
			if (crb_parse_header(hdr, llen - (size_t)(hdr - p),
					     name, sizeof(name), err,
					     sizeof(err))) {
				snprintf(s.info.name, sizeof(s.info.name), "?");
				snprintf(s.info.error, sizeof(s.info.error),
					 "%s", err);
				if (on_segment && on_segment(ctx, &s.info))
					return -1;
			} else {
				snprintf(s.info.name, sizeof(s.info.name), "%s",
					 name);
				s.open = 1;
				s.first = next;
				s.crc = crb_crc32(0, hdr, (size_t)(next - hdr));
			}
		} else if (s.open && llen >= 4 && !strncmp(p, "end ", 4) &&
			   nl) {
			unsigned int n = 0;
			uint32_t crc = 0;
			char tmp[64], canon[64];

			/* Only the exact form crb_end() writes is accepted. */
			snprintf(tmp, sizeof(tmp), "%.*s",
				 (int)(llen < 63 ? llen : 63), p);
			if (sscanf(tmp, "end n=%u crc=%8" SCNx32, &n, &crc) ==
			    2)
				snprintf(canon, sizeof(canon),
					 "end n=%u crc=%08" PRIx32, n, crc);
			else
				canon[0] = '\0';
			if (strcmp(tmp, canon) || llen >= 63) {
				snprintf(s.info.error, sizeof(s.info.error),
					 "malformed terminator");
			} else if (n != s.info.nrecords) {
				snprintf(
					s.info.error, sizeof(s.info.error),
					"terminator counts %u records, %u arrived",
					n, s.info.nrecords);
			} else if (crc != s.crc) {
				snprintf(s.info.error, sizeof(s.info.error),
					 "checksum mismatch (crc %08" PRIx32
					 ", expected %08" PRIx32 ")",
					 s.crc, crc);
			} else {
				s.info.complete = 1;
				complete++;
				if (deliver(s.first, p, s.info.name, on_record,
					    ctx))
					return -1;
			}
			if (finish(&s, on_segment, ctx))
				return -1;
		} else if (s.open) {
			struct crb_record r;
			char err[160];

			if (!nl) {
				snprintf(
					s.info.error, sizeof(s.info.error),
					"truncated: stream ends inside a record");
				if (finish(&s, on_segment, ctx))
					return -1;
			} else if (crb_parse_line(p, llen, &r, err,
						  sizeof(err))) {
				snprintf(s.info.error, sizeof(s.info.error),
					 "record %u: %s", s.info.nrecords + 1,
					 err);
				if (finish(&s, on_segment, ctx))
					return -1;
			} else {
				s.crc = crb_crc32(s.crc, p, llen + 1);
				s.info.nrecords++;
				snprintf(s.info.last, sizeof(s.info.last),
					 "%.*s", (int)(llen < 255 ? llen : 255),
					 p);
			}
		}
		/* Lines outside a segment are ignored: they are not ours. */
		p = next;
	}
	if (s.open) {
		snprintf(s.info.error, sizeof(s.info.error),
			 "truncated: no terminator (after %u records)",
			 s.info.nrecords);
		if (finish(&s, on_segment, ctx))
			return -1;
	}
	return complete;
}
