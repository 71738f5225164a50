// SPDX-License-Identifier: GPL-2.0
/* Where a run's inputs are: each kernel's files, each machine's initramfs. */
#define _GNU_SOURCE
#include "inputs.h"
#include "arch.h"
#include "util.h"

#include <string.h>

int kernel_file(const char *kernels_dir, const char *arch, const char *variant,
		const char *hz, const char *file, char *buf, size_t len)
{
	const struct arch *a = arch_find(arch);
	char dir[3 * MAX_VALUE_LEN];

	if (!a || arch_kernel_dir(a, variant, hz, dir, sizeof(dir)))
		return -1;
	return path_fmt(buf, len, "%s/%s/%s", kernels_dir, dir,
			file ? file : a->image);
}

int guest_image(const struct run *r, const char *arch, char *buf, size_t len)
{
	const struct arch *a = arch_find(arch);
	const char *slash = strrchr(r->image_path, '/');
	int dirlen = slash ? (int)(slash - r->image_path) : 1;

	if (!a)
		return -1;
	if (a->x86)
		return path_fmt(buf, len, "%s", r->image_path);
	return path_fmt(buf, len, "%.*s/probe-%s.cpio", dirlen,
			slash ? r->image_path : ".", a->kernel_arch);
}
