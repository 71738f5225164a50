// SPDX-License-Identifier: GPL-2.0
/*
 * Strings kept once for the life of the process: the axis values of the
 * rows a mode reads (row.c). A raw.csv of 100k rows names a few dozen
 * distinct values, so a row points at them, 8 bytes an axis. Kept in
 * glibc's tsearch(3) tree, never freed: a process reads a few runs and
 * exits. No count limit: every kept string came from a table the reader
 * took whole (bench/ground/runlimits.h), each of at most MAX_VALUE_LEN
 * bytes, and a limit would make a good row fail to parse.
 */
#define _GNU_SOURCE
#include "keep.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

static int by_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

const char *keep_str(const char *v)
{
	static void *kept;
	char *copy, **slot;

	if (!*v)
		return "";
	if ((slot = tfind(v, &kept, by_text)))
		return *slot;
	if (!(copy = strdup(v)))
		return NULL;
	if (!(slot = tsearch(copy, &kept, by_text))) {
		free(copy);
		return NULL;
	}
	return *slot;
}
