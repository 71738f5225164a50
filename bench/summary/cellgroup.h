/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's rows grouped into cells, and cells into conditions, by hashing
 * (linear in the rows: summary.c's grouping once compared every row with
 * every cell, 37.6 s for 24576 cells).
 */
#ifndef CRNGBENCH_CELLGROUP_H
#define CRNGBENCH_CELLGROUP_H

#include "../rows/row.h"

#include <stddef.h>

/* One cell's rows: which are data, how many failed or were skipped. */
struct cellrows {
	const struct row *first;
	size_t *idx;
	size_t n, cap;
	size_t failed, skipped;
	char skip_reason[256];
};

/*
 * The rows grouped by their axes into cells, in matrix order (the cell
 * index; rows in file order within a cell). 0, or -1 out of memory.
 */
int group_cells(const struct row *rows, size_t nrows, struct cellrows **out,
		size_t *ncells);

/*
 * first[c]: the first of the n cells with cell c's axes, the axis skip
 * (-1: none) aside; with by_reason, the first with c's skip_reason
 * instead. 0, or -1 out of memory.
 */
int cells_first_alike(const struct cellrows *cells, size_t n, int skip,
		      int by_reason, size_t *first);

#endif /* CRNGBENCH_CELLGROUP_H */
