/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CRNGBENCH_KEEP_H
#define CRNGBENCH_KEEP_H

/*
 * A string kept for the life of the process, the same pointer for equal
 * strings ("" for ""); NULL when KEEP_STR_MAX distinct strings are kept
 * already (no run has that many axis values: a matrix names at most
 * AX_N x MAX_VALUES) or memory ran out.
 */
#define KEEP_STR_MAX 65536
const char *keep_str(const char *v);

#endif /* CRNGBENCH_KEEP_H */
