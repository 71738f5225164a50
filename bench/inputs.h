/* SPDX-License-Identifier: GPL-2.0 */
/* Where a run's inputs are, for every machine (inputs.c). */
#ifndef CRNGBENCH_INPUTS_H
#define CRNGBENCH_INPUTS_H

#include "context.h"

#include <stddef.h>

/*
 * KERNELS/<variant>-hz<hz>[-<kernel arch>]/<file>: the one place that path
 * is spelled (arch_kernel_dir()). file NULL: the arch's kernel image.
 */
int kernel_file(const char *kernels_dir, const char *arch, const char *variant,
		const char *hz, const char *file, char *buf, size_t len);
/*
 * The initramfs for an arch: --image on x86_64 (the systemd guest), else
 * the probe-only image beside it, probe-<kernel arch>.cpio.
 */
int guest_image(const struct run *r, const char *arch, char *buf, size_t len);

#endif /* CRNGBENCH_INPUTS_H */
