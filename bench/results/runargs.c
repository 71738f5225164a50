// SPDX-License-Identifier: GPL-2.0
/*
 * run.args: how a run was started, beyond its matrix and seed: everything
 * that shapes a boot (QEMU binary and extra arguments, extra kernel command
 * line, kernels and image with a checksum of each, shard, perf, jobs).
 * Written when the run starts; --resume takes it back, so a resumed run
 * boots exactly as the first part did, or is refused.
 *
 *	key = value		one per line; qemu_arg may repeat
 *	file PATH crc32		a kernel or the image, as it was
 */
#define _GNU_SOURCE
#include "runargs.h"
#include "../matrix/context.h"
#include "inputs.h"
#include "../matrix/plan.h"
#include "../ground/util.h"
#include "../../guest-image/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* CRC-32 of a whole file (record.h's), to notice a rebuilt kernel or image. */
static int file_crc(const char *path, uint32_t *crc)
{
	char buf[1 << 16];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*crc = 0;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		*crc = crb_crc32(*crc, buf, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Every file the cells of m boot: the image and each variant's kernel. */
static int for_each_file(struct run *r, const struct matrix *m,
			 int (*fn)(struct run *, const char *, void *),
			 void *ctx)
{
	char p[PATH_MAX];

	for (int a = 0; a < m->nvalues[AX_arch]; a++)
		if (guest_image(r, m->values[AX_arch][a], p, sizeof(p)) ||
		    fn(r, p, ctx))
			return -1;
	for (size_t i = 0; i < matrix_nkernels(m); i++) {
		struct kernel_ref k;

		if (!matrix_kernel(m, i, &k))
			continue;
		if (kernel_file(r, &k, NULL, p, sizeof(p)) || fn(r, p, ctx))
			return -1;
	}
	return 0;
}

static int print_file(struct run *r, const char *path, void *ctx)
{
	uint32_t crc;

	if (file_crc(path, &crc))
		return ERR(r, "cannot read %s: %s", path, strerror(errno));
	sb_printf(ctx, "file %s %08x\n", path, (unsigned int)crc);
	return 0;
}

/* A value may not hold a line break: it would not read back. */
static int one_line(struct run *r, const char *what, const char *v)
{
	if (v && strpbrk(v, "\n\r"))
		return ERR(r, "%s holds a line break: not accepted", what);
	return 0;
}

int results_save_args(struct run *r, const char *name)
{
	struct strbuf b = { 0 };
	char path[PATH_MAX];
	int rc = one_line(r, "--append", r->o.append);

	for (int i = 0; i < r->o.nqemu_args && !rc; i++)
		rc = one_line(r, "--qemu-arg", r->o.qemu_args[i]);
	if (rc)
		return -1;
	/* Resolved, so a resume from another directory finds them. */
	for (int i = 0; i < r->m.nvalues[AX_base]; i++)
		if (realpath(r->kernels_dir[i], path))
			snprintf(r->kernels_dir[i], sizeof(r->kernels_dir[i]),
				 "%s", path);
	if (realpath(r->image_path, path))
		snprintf(r->image_path, sizeof(r->image_path), "%s", path);
	sb_printf(&b, "# how this run was started; --resume reuses it\n");
	sb_printf(&b, "qemu = %s\n", r->o.qemu);
	/* A run of several bases found each base's kernels with
	 * kernel/build.sh, as its resume does (the files' checksums below
	 * say whether they are the same). */
	if (r->m.nvalues[AX_base] == 1)
		sb_printf(&b, "kernels = %s\n", r->kernels_dir[0]);
	sb_printf(&b, "image = %s\n", r->image_path);
	sb_printf(
		&b,
		"shard = %d/%d\nperf = %d\njobs = %d\nparallel_jobs = %d\nappend = %s\n",
		r->o.shard_k, r->o.shard_n, r->o.perf, r->o.jobs, r->o.par_jobs,
		r->o.append ? r->o.append : "");
	for (int i = 0; i < r->o.nqemu_args; i++)
		sb_printf(&b, "qemu_arg = %s\n", r->o.qemu_args[i]);
	if (r->o.commit)
		sb_printf(&b, "commit = %s\n", r->o.commit);
	if (for_each_file(r, &r->m, print_file, &b)) {
		sb_free(&b);
		return -1;
	}
	rc = b.oom || path_fmt(path, sizeof(path), "%s/%s", r->out_dir, name) ||
	     write_file_atomic(path, b.p, b.len);
	sb_free(&b);
	return rc ? ERR(r, "cannot write %s/%s: %s", r->out_dir, name,
			strerror(errno)) :
		    0;
}

/*
 * A saved option: taken when not given (NULL, or the default), refused when
 * given otherwise. Paths compare resolved.
 */
static int take(struct run *r, const char *key, const char **opt,
		const char *def, char *saved, int is_path)
{
	char real[PATH_MAX];
	const char *given = *opt;

	if (given && (!def || strcmp(given, def))) {
		if (is_path && realpath(given, real))
			given = real;
		if (strcmp(given, saved))
			return ERR(
				r,
				"cannot resume: this run was started with %s %s, not %s (drop the option to reuse it)",
				key, saved, *opt);
	}
	*opt = saved;
	return 0;
}

static int take_int(struct run *r, const char *key, int *opt, int def,
		    int saved)
{
	if (*opt != def && *opt != saved)
		return ERR(
			r,
			"cannot resume: this run was started with %s %d, not %d",
			key, saved, *opt);
	*opt = saved;
	return 0;
}

/* A number of run.args from lo to hi by the one integer rule, or an error. */
static int saved_int(struct run *r, const char *key, const char *v, int lo,
		     int hi, int *out)
{
	if (parse_int(v, lo, hi, out))
		return ERR(
			r,
			"cannot resume: run.args %s = %s: need a whole number from %d to %d" DIGITS_ONLY,
			key, v, lo, hi);
	return 0;
}

/* One "key = value" line of run.args into r's options. */
static int load_line(struct run *r, char *line)
{
	struct run_saved *s = &r->saved;
	char *eq = strstr(line, " = ");
	const char *v;
	int k, n;

	if (!eq)
		return ERR(
			r,
			"cannot resume: run.args line '%.60s' is not key = value",
			line);
	*eq = '\0';
	v = eq + 3;
	if (!strcmp(line, "qemu")) {
		/*
		 * The program the runner starts for every boot: a run.args
		 * from elsewhere could name any. Only the default is taken
		 * unasked; another must be given again, as the user's word.
		 */
		if (strcmp(v, "qemu-system-x86_64") &&
		    (!r->o.qemu || strcmp(r->o.qemu, v)))
			return ERR(
				r,
				"cannot resume: this run was started with --qemu %s; --resume runs no program the command line does not name: give --qemu %s again if you trust it",
				v, v);
		return take(r, "--qemu", &r->o.qemu, "qemu-system-x86_64",
			    strcpy(s->qemu, v), 0);
	}
	if (!strcmp(line, "kernels"))
		return take(r, "--kernels", &r->o.kernels, NULL,
			    strcpy(s->kernels, v), 1);
	if (!strcmp(line, "image"))
		return take(r, "--image", &r->o.image, NULL,
			    strcpy(s->image, v), 1);
	if (!strcmp(line, "append"))
		return take(r, "--append", &r->o.append, "",
			    strcpy(s->append, v), 0);
	if (!strcmp(line, "perf"))
		return saved_int(r, line, v, 0, 1, &n) ||
		       take_int(r, "--perf", &r->o.perf, 0, n);
	if (!strcmp(line, "jobs"))
		return saved_int(r, line, v, 0, MAX_JOBS, &n) ||
		       take_int(r, "--jobs", &r->o.jobs, 0, n);
	if (!strcmp(line, "parallel_jobs"))
		return saved_int(r, line, v, 0, MAX_JOBS, &n) ||
		       take_int(r, "--parallel-jobs", &r->o.par_jobs, 0, n);
	if (!strcmp(line, "shard")) {
		if (shard_parse(v, &k, &n))
			return ERR(
				r,
				"cannot resume: run.args shard = %s: need %s",
				v, SHARD_WORDS);
		return take_int(r, "--shard K", &r->o.shard_k, 1, k) ||
		       take_int(r, "--shard N", &r->o.shard_n, 1, n);
	}
	if (!strcmp(line, "commit")) {
		if (strlen(v) > MAX_COMMIT_LEN)
			return ERR(
				r,
				"cannot resume: run.args commit '%.60s...' is too long",
				v);
		return take(r, "--commit", &r->o.commit, NULL,
			    strcpy(s->commit, v), 0);
	}
	if (!strcmp(line, "qemu_arg")) {
		if (s->nqemu_args == MAX_QEMU_ARGS)
			return ERR(r, "cannot resume: too many qemu_arg lines");
		snprintf(s->qemu_args[s->nqemu_args++], sizeof(s->qemu_args[0]),
			 "%s", v);
		return 0;
	}
	return ERR(r, "cannot resume: run.args has an unknown key '%s'", line);
}

/* The saved --qemu-arg list must be the given one. */
static int take_qemu_args(struct run *r)
{
	struct run_saved *s = &r->saved;
	int same = r->o.nqemu_args == s->nqemu_args;

	for (int i = 0; same && i < s->nqemu_args; i++)
		same = !strcmp(r->o.qemu_args[i], s->qemu_args[i]);
	/*
	 * QEMU options can load plugins, run scripts or give the guest host
	 * files: a run.args from elsewhere could hold any, so they are taken
	 * only when the command line gives the same again.
	 */
	if (!same)
		return ERR(
			r,
			"cannot resume: this run was started with %d --qemu-arg option%s (see %s/run.args), and this command gives %s: --resume passes QEMU no option the command line does not name; give the same --qemu-arg options again if you trust them",
			s->nqemu_args, s->nqemu_args == 1 ? "" : "s",
			r->out_dir, r->o.nqemu_args ? "others" : "none");
	for (int i = 0; i < s->nqemu_args; i++)
		r->o.qemu_args[i] = s->qemu_args[i];
	r->o.qemu_args[s->nqemu_args] = NULL;
	r->o.nqemu_args = s->nqemu_args;
	return 0;
}

int results_load_args(struct run *r)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	FILE *f;

	if (path_fmt(path, sizeof(path), "%s/run.args", r->out_dir) ||
	    !(f = fopen_run(path)))
		return ERR(
			r,
			"cannot resume: %s/run.args: %s (a run from before run.args was recorded: start it anew)",
			r->out_dir, run_strerror(errno));
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !strncmp(line, "file ", 5))
			continue;
		if ((size_t)len >= sizeof(r->saved.append))
			rc = ERR(r,
				 "cannot resume: a run.args line is too long");
		else
			rc = load_line(r, line);
	}
	if (!rc && !feof(f))
		rc = ERR(r, "cannot resume: reading %s/run.args: %s",
			 r->out_dir, strerror(errno));
	free(line);
	fclose(f);
	if (!rc && r->o.commit && !r->saved.commit[0])
		rc = ERR(
			r,
			"cannot resume: this run was started without --commit, so the code it was made from is not known: start it anew to make it from --commit %s",
			r->o.commit);
	return rc ? rc : take_qemu_args(r);
}

/* The file's checksum as recorded in run.args (ctx), or an error. */
static int check_file(struct run *r, const char *path, void *ctx)
{
	char want[PATH_MAX + 32], *hit;
	uint32_t crc;

	if (file_crc(path, &crc))
		return ERR(r, "cannot read %s: %s", path, strerror(errno));
	snprintf(want, sizeof(want), "\nfile %s %08x\n", path,
		 (unsigned int)crc);
	hit = strstr(ctx, want);
	if (!hit)
		return ERR(
			r,
			"cannot resume: %s is not the file this run started with (changed since, or not part of it); finish with the original or start a new run",
			path);
	return 0;
}

int results_check_files(struct run *r, const struct matrix *m)
{
	struct strbuf b = { 0 };
	char path[PATH_MAX];
	int rc;

	if (path_fmt(path, sizeof(path), "%s/run.args", r->out_dir) ||
	    slurp(path, &b))
		return ERR(r, "cannot read %s/run.args", r->out_dir);
	sb_printf(&b, "\n");
	rc = for_each_file(r, m, check_file, b.p);
	sb_free(&b);
	return rc;
}
