/* SPDX-License-Identifier: GPL-2.0 */
/* --rescan: a run's tables again from its boots/ (rescan.c). */
#ifndef CRNGBENCH_RESCAN_H
#define CRNGBENCH_RESCAN_H

#include <stddef.h>

struct run; /* matrix/context.h: what a mode works on */

/* --rescan: re-derive raw, reads and traces of r->out_dir from boots/. */
int results_rescan(struct run *r);

#endif /* CRNGBENCH_RESCAN_H */
