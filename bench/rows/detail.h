/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row of reads.csv or traces.csv from a results directory that may come
 * from elsewhere (a shard, a resumed run), checked by the rules of
 * plots/runfiles.py read_table (detail.c): integer columns whole-field
 * int64, digest a digest, status 'unavailable', no control character.
 */
#ifndef CRNGBENCH_DETAIL_H
#define CRNGBENCH_DETAIL_H

#include <stddef.h>

/*
 * The fields of one row (nf of them, split by csv_split) of the table
 * whose header is header (READS_HEADER or TRACES_HEADER, with its line
 * break): 0, or -1 with "column C: 'V' is not ..." (what is accepted) in
 * why. A table with another header is checked for control characters only.
 */
int detail_row_check(const char *header, char *const *field, int nf, char *why,
		     size_t whylen);

/*
 * One line of such a table (len bytes, its line break included), split
 * and checked: its header's number of fields, then detail_row_check.
 */
int detail_line_check(const char *header, const char *line, size_t len,
		      char *why, size_t whylen);

#endif /* CRNGBENCH_DETAIL_H */
