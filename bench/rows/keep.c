// SPDX-License-Identifier: GPL-2.0
/*
 * Strings kept once for the life of the process: the axis values of the
 * rows a mode reads (row.c). A raw.csv of 100k rows names a few dozen
 * distinct values; a row points at them, 8 bytes an axis, where 19
 * copies of MAX_VALUE_LEN bytes once made it 2.7 KB. Never freed: a
 * process reads a few runs and exits. No count limit: every kept string
 * came from a table the reader took whole (bench/ground/runlimits.h), each of
 * at most MAX_VALUE_LEN bytes, so even all-distinct values hold about the
 * table's size again; and a limit would make a good row fail to parse.
 */
#define _GNU_SOURCE
#include "keep.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An open-addressed set (FNV-1a), at most half full. */
static struct {
	char **slot;
	size_t cap, n;
} kept;

static size_t fnv1a(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

static int kept_grow(void)
{
	size_t cap = kept.cap ? kept.cap * 2 : 64;
	char **slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < kept.cap; i++) {
		size_t j;

		if (!kept.slot[i])
			continue;
		for (j = fnv1a(kept.slot[i]) & (cap - 1); slot[j];
		     j = (j + 1) & (cap - 1))
			;
		slot[j] = kept.slot[i];
	}
	free(kept.slot);
	kept.slot = slot;
	kept.cap = cap;
	return 0;
}

const char *keep_str(const char *v)
{
	size_t j;

	if (!*v)
		return "";
	if (2 * (kept.n + 1) > kept.cap && kept_grow())
		return NULL;
	for (j = fnv1a(v) & (kept.cap - 1); kept.slot[j];
	     j = (j + 1) & (kept.cap - 1))
		if (!strcmp(kept.slot[j], v))
			return kept.slot[j];
	if (!(kept.slot[j] = strdup(v)))
		return NULL;
	kept.n++;
	return kept.slot[j];
}
