/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading JSON that came from elsewhere (a shard's meta.json, json.c): a
 * strict check of a whole document, then its top-level members as spans
 * of the text. Writing JSON is results.h's json_str.
 */
#ifndef CRNGBENCH_JSON_H
#define CRNGBENCH_JSON_H

#include <stddef.h>

/*
 * Is text (len bytes, no NUL inside) one JSON object and nothing else:
 * RFC 8259 syntax, UTF-8 strings, nesting at most 32 deep?
 */
int json_object_valid(const char *text, size_t len);

struct json_member {
	const char *key; /* the key's text between its quotes, raw */
	size_t klen;
	const char *val; /* the value's text, as it is in the document */
	size_t vlen;
};

/*
 * The members of a valid object in order: *p starts at the object's text;
 * 1 with the next member in m, 0 after the last.
 */
int json_next(const char **p, struct json_member *m);

#endif /* CRNGBENCH_JSON_H */
