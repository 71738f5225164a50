// SPDX-License-Identifier: GPL-2.0
/* Where a run's inputs are: each base's kernels and each kernel's files,
 * each machine's initramfs. */
#define _GNU_SOURCE
#include "inputs.h"
#include "../matrix/context.h"
#include "../machines/arch.h"
#include "../ground/util.h"
#include "../ground/proc.h"

#include <limits.h>
#include <string.h>

/* kernel/build.sh's kernels directory of one base (KERNEL_BASE). */
static int build_sh_dir(struct run *r, const char *base, char *dir, size_t len)
{
	char env[MAX_VALUE_LEN + 16], out[PATH_MAX + 256];
	char *argv[] = { "/usr/bin/env", env, "kernel/build.sh",
			 "--kernels-dir", NULL };
	int rc;

	snprintf(env, sizeof(env), "KERNEL_BASE=%s", base);
	rc = run_quick(argv, NULL, 30, out, sizeof(out));
	out[strcspn(out, "\n")] = '\0';
	if (rc != 0 || out[0] != '/')
		return ERR(
			r,
			"no --kernels DIR given, and '%s kernel/build.sh --kernels-dir' "
			"(base %s's built kernels' directory) failed: %s; run from the "
			"checkout or give --kernels DIR",
			env, base, out[0] ? out : "no output");
	return path_fmt(dir, len, "%s", out) ?
		       ERR(r, "a path is longer than %d bytes", PATH_MAX - 1) :
		       0;
}

int kernels_dirs(struct run *r)
{
	const struct matrix *m = &r->m;

	if (r->o.kernels && m->nvalues[AX_base] > 1)
		return ERR(
			r,
			"--kernels %s holds the kernels of one base, and this matrix has base=%s,%s%s: leave --kernels out (each base's directory is then kernel/build.sh --kernels-dir's, in the cache CRNGBENCH_CACHE names), or run one base at a time (--set base=B)",
			r->o.kernels, m->values[AX_base][0],
			m->values[AX_base][1],
			m->nvalues[AX_base] > 2 ? ",..." : "");
	if (r->o.kernels)
		return path_fmt(r->kernels_dir[0], sizeof(r->kernels_dir[0]),
				"%s", r->o.kernels) ?
			       ERR(r, "a path is longer than %d bytes",
				   PATH_MAX - 1) :
			       0;
	for (int i = 0; i < m->nvalues[AX_base]; i++)
		if (build_sh_dir(r, m->values[AX_base][i], r->kernels_dir[i],
				 sizeof(r->kernels_dir[i])))
			return -1;
	return 0;
}

int kernel_file(const struct run *r, const struct kernel_ref *k,
		const char *file, char *buf, size_t len)
{
	const struct arch *a = arch_find(k->arch);
	char dir[3 * MAX_VALUE_LEN];

	for (int i = 0; a && i < r->m.nvalues[AX_base]; i++)
		if (!strcmp(r->m.values[AX_base][i], k->base))
			return arch_kernel_dir(a, k->variant, k->hz, dir,
					       sizeof(dir)) ?
				       -1 :
				       path_fmt(buf, len, "%s/%s/%s",
						r->kernels_dir[i], dir,
						file ? file : a->image);
	return -1;
}

int guest_image(const struct run *r, const char *arch, char *buf, size_t len)
{
	const struct arch *a = arch_find(arch);
	const char *slash = strrchr(r->image_path, '/');
	int dirlen = slash ? (int)(slash - r->image_path) : 1;

	if (!a)
		return -1;
	if (a->systemd)
		return path_fmt(buf, len, "%s", r->image_path);
	return path_fmt(buf, len, "%.*s/probe-%s.cpio", dirlen,
			slash ? r->image_path : ".", a->kernel_arch);
}

void qemu_version(const char *qemu, char *buf, size_t len)
{
	char *argv[] = { (char *)qemu, "--version", NULL };

	if (run_quick(argv, NULL, 5, buf, len) != 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}
