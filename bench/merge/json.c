// SPDX-License-Identifier: GPL-2.0
/* A strict JSON checker and an object's members as spans (json.h). */
#include "json.h"

#include <string.h>

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex(char c)
{
	return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Past one UTF-8 character of 2 to 4 bytes at p, or NULL. */
static const char *utf8_end(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	int n = u[0] >= 0xc2 && u[0] <= 0xdf ? 1 :
		u[0] >= 0xe0 && u[0] <= 0xef ? 2 :
		u[0] >= 0xf0 && u[0] <= 0xf4 ? 3 :
					       0;

	if (!n || (u[0] == 0xe0 && u[1] < 0xa0) ||
	    (u[0] == 0xed && u[1] > 0x9f) || (u[0] == 0xf0 && u[1] < 0x90) ||
	    (u[0] == 0xf4 && u[1] > 0x8f))
		return NULL;
	for (int i = 1; i <= n; i++)
		if ((u[i] & 0xc0) != 0x80)
			return NULL;
	return p + n + 1;
}

/* Past the string whose opening quote is at p, or NULL. */
static const char *str_end(const char *p)
{
	for (p++; *p != '"';) {
		if ((unsigned char)*p < 0x20) /* a control character, or NUL */
			return NULL;
		if ((unsigned char)*p >= 0x80) {
			if (!(p = utf8_end(p)))
				return NULL;
			continue;
		}
		if (*p++ != '\\')
			continue;
		if (*p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (!hex(p[i]))
					return NULL;
			p += 5;
		} else if (*p && strchr("\"\\/bfnrt", *p)) {
			p++;
		} else {
			return NULL;
		}
	}
	return p + 1;
}

static const char *digits(const char *p)
{
	if (!digit(*p))
		return NULL;
	while (digit(*p))
		p++;
	return p;
}

static const char *num_end(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (!(p = digits(p)))
		return NULL;
	if (*p == '.' && !(p = digits(p + 1)))
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = digits(p);
	}
	return p;
}

static const char *word_end(const char *p, const char *w)
{
	return strncmp(p, w, strlen(w)) ? NULL : p + strlen(w);
}

/* Past the value at p (white space before it skipped), or NULL. */
static const char *value_end(const char *p, int depth)
{
	char close;

	p = ws(p);
	switch (*p) {
	case '"':
		return str_end(p);
	case 't':
		return word_end(p, "true");
	case 'f':
		return word_end(p, "false");
	case 'n':
		return word_end(p, "null");
	case '{':
	case '[':
		break;
	default:
		return num_end(p);
	}
	if (depth >= 32)
		return NULL;
	close = *p == '{' ? '}' : ']';
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (*p != '"' || !(p = str_end(p)))
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = value_end(p, depth + 1)))
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = ws(p);
	}
}

int json_object_valid(const char *text, size_t len)
{
	const char *p = ws(text), *end;

	if (strlen(text) != len || *p != '{')
		return 0;
	end = value_end(p, 0);
	return end && !*ws(end);
}

int json_next(const char **p, struct json_member *m)
{
	const char *q = ws(*p);

	if (*q == '{' || *q == ',')
		q = ws(q + 1);
	if (*q != '"')
		return 0; /* the closing brace */
	m->key = q + 1;
	q = str_end(q);
	m->klen = (size_t)(q - 1 - m->key);
	q = ws(ws(q) + 1); /* past the colon */
	m->val = q;
	q = value_end(q, 0);
	m->vlen = (size_t)(q - m->val);
	*p = ws(q);
	return 1;
}
