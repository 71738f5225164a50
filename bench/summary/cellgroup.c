// SPDX-License-Identifier: GPL-2.0
#include "cellgroup.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What is compared: axis strings (of rows or cells), or skip reasons. */
struct keys {
	const char *(*text)(const void *base, size_t i, int a);
	const void *base;
	int skip; /* an axis left out, or -1 */
	int nkeys; /* AX_N axes, or 1 (the reason) */
};

static const char *row_axis(const void *base, size_t i, int a)
{
	return ((const struct row *)base)[i].axis[a];
}

static const char *cell_axis(const void *base, size_t i, int a)
{
	return ((const struct cellrows *)base)[i].first->axis[a];
}

static const char *cell_reason(const void *base, size_t i, int a)
{
	(void)a;
	return ((const struct cellrows *)base)[i].skip_reason;
}

/* FNV-1a over the compared strings, each ended by its NUL. */
static uint64_t hash_of(const struct keys *k, size_t i)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int a = 0; a < k->nkeys; a++) {
		const unsigned char *p =
			(const unsigned char *)k->text(k->base, i, a);

		if (a == k->skip)
			continue;
		do
			h = (h ^ *p) * 0x100000001b3ull;
		while (*p++);
	}
	return h;
}

static int equal(const struct keys *k, size_t i, size_t j)
{
	for (int a = 0; a < k->nkeys; a++)
		if (a != k->skip &&
		    strcmp(k->text(k->base, i, a), k->text(k->base, j, a)))
			return 0;
	return 1;
}

/* first[i]: the least j with item j equal to item i (open addressing). */
static int first_equal(const struct keys *k, size_t n, size_t *first)
{
	size_t size = 16, *slot;

	while (size < 2 * n)
		size *= 2;
	slot = calloc(size, sizeof(*slot)); /* item + 1; 0: empty */
	if (!slot)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t s = (size_t)hash_of(k, i) & (size - 1);

		while (slot[s] && !equal(k, slot[s] - 1, i))
			s = (s + 1) & (size - 1);
		if (!slot[s])
			slot[s] = i + 1;
		first[i] = slot[s] - 1;
	}
	free(slot);
	return 0;
}

int cells_first_alike(const struct cellrows *cells, size_t n, int skip,
		      int by_reason, size_t *first)
{
	struct keys k = { by_reason ? cell_reason : cell_axis, cells, skip,
			  by_reason ? 1 : AX_N };

	return first_equal(&k, n, first);
}

static int add_row(struct cellrows *c, const struct row *r, size_t i)
{
	if (!strcmp(r->status, "skipped")) {
		c->skipped++;
		snprintf(c->skip_reason, sizeof(c->skip_reason), "%s",
			 r->reason);
		return 0;
	}
	if (!row_measured(r)) {
		c->failed++;
		return 0;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		size_t *p = realloc(c->idx, cap * sizeof(size_t));

		if (!p)
			return -1;
		c->idx = p;
		c->cap = cap;
	}
	c->idx[c->n++] = i;
	return 0;
}

/* Cells in matrix order (the cell index), never in shuffled run order. */
static int by_cell(const void *a, const void *b)
{
	const struct cellrows *x = a, *y = b;

	return (x->first->cell > y->first->cell) -
	       (x->first->cell < y->first->cell);
}

int group_cells(const struct row *rows, size_t nrows, struct cellrows **out,
		size_t *ncells)
{
	struct keys k = { row_axis, rows, -1, AX_N };
	size_t *first = malloc((nrows + 1) * sizeof(*first)), n = 0;
	struct cellrows *cells = calloc(nrows + 1, sizeof(*cells));

	if (!first || !cells || first_equal(&k, nrows, first))
		goto oom;
	/* a row's cell: the first row of its axes is its cell's first */
	for (size_t i = 0; i < nrows; i++) {
		size_t c = i == first[i] ? n++ : first[first[i]];

		if (i == first[i])
			cells[c].first = &rows[i];
		first[i] = c; /* from here on: row i's cell */
		if (add_row(&cells[c], &rows[i], i))
			goto oom;
	}
	if (n)
		qsort(cells, n, sizeof(*cells), by_cell);
	free(first);
	*out = cells;
	*ncells = n;
	return 0;
oom:
	for (size_t c = 0; c < n; c++)
		free(cells[c].idx);
	free(cells);
	free(first);
	return -1;
}
