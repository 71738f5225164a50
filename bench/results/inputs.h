/* SPDX-License-Identifier: GPL-2.0 */
/* Where a run's inputs are, for every machine and base (inputs.c). */
#ifndef CRNGBENCH_INPUTS_H
#define CRNGBENCH_INPUTS_H

#include "../matrix/plan.h"

#include <stddef.h>

struct run; /* matrix/context.h: what a mode works on */

/*
 * Each base's kernels directory into r->kernels_dir (in the order of the
 * base axis): --kernels DIR, which holds one base's kernels (a matrix of
 * several bases is refused with it), else kernel/build.sh --kernels-dir's
 * answer for each base (KERNEL_BASE=<base>), so that where kernels go is
 * spelled in one place; run from the checkout. 0, or -1 with a message.
 */
int kernels_dirs(struct run *r);
/*
 * <base's kernels dir>/<variant>-hz<hz>[-<kernel arch>]/<file>: the one
 * place that path is spelled (arch_kernel_dir()). file NULL: the arch's
 * kernel image.
 */
int kernel_file(const struct run *r, const struct kernel_ref *k,
		const char *file, char *buf, size_t len);
/*
 * The initramfs for an arch: --image on x86_64 (the systemd guest), else
 * the probe-only image beside it, probe-<kernel arch>.cpio.
 */
int guest_image(const struct run *r, const char *arch, char *buf, size_t len);

/* QEMU's first --version line (no shell, bounded wait); "" if none. */
void qemu_version(const char *qemu, char *buf, size_t len);

#endif /* CRNGBENCH_INPUTS_H */
