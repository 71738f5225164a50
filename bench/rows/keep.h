/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CRNGBENCH_KEEP_H
#define CRNGBENCH_KEEP_H

/*
 * A string kept for the life of the process, the same pointer for equal
 * strings ("" for ""); NULL when memory ran out.
 */
const char *keep_str(const char *v);

#endif /* CRNGBENCH_KEEP_H */
