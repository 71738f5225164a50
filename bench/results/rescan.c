// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "rescan.h"
#include "../matrix/context.h"
#include "results.h"
#include "../rows/classify.h"
#include "../rows/report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open DIR/<name>.rescan for writing and put the table's header in it. */
static FILE *rescan_table(struct run *r, const char *name, const char *header)
{
	char path[PATH_MAX];
	FILE *f;

	if (path_fmt(path, sizeof(path), "%s/%s.rescan", r->out_dir, name)) {
		ERR(r, "path too long");
		return NULL;
	}
	f = fopen_new(path); /* a link planted at the name is removed */
	if (!f || fputs(header, f) < 0) {
		ERR(r, "cannot write %s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	return f;
}

static int rescan_commit(struct run *r, FILE *f, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];

	if (path_fmt(from, sizeof(from), "%s/%s.rescan", r->out_dir, name) ||
	    results_path(r, name, to, sizeof(to)) || fclose(f) ||
	    rename(from, to))
		return ERR(r, "cannot write %s/%s: %s", r->out_dir, name,
			   strerror(errno));
	return 0;
}

/* Every boot's channel bytes must be there before anything is written. */
static int rescan_check(struct run *r, const struct row *old, size_t n)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(old[i].status, "skipped"))
			continue;
		if (path_fmt(path, sizeof(path), "%s/boots/%s/result.log",
			     r->out_dir, old[i].boot_id) ||
		    access(path, R_OK))
			return ERR(
				r,
				"cannot rescan: %s: %s (a rescan needs the run's boots/ directory)",
				path, strerror(errno));
	}
	return 0;
}

/*
 * One boot again from boots/<id>/, with what only the host saw (host times,
 * whether it was killed at the timeout, how QEMU ended) from its old row.
 */
static int rescan_boot(struct run *r, const struct row *old, struct row *nr,
		       struct strbuf *reads, struct strbuf *traces)
{
	struct strbuf chan = { 0 }, qerr = { 0 };
	char dir[PATH_MAX], path[PATH_MAX];
	struct boot_facts f = {
		.dir = dir,
		.timed_out = !strcmp(old->status, "censored") ||
			     !strcmp(old->status, "timeout"),
		.timeout_s =
			matrix_setting(&r->m, SET_timeout, old->axis[AX_accel]),
		.perf = 1, /* perf.csv is there if it was on */
		.t_first_byte = old->host_first_byte_ns,
		.t_urandom = old->host_urandom_ns,
		.t_report = old->host_report_ns,
		.t_exit = old->host_exit_ns,
		.qemu_exit = (int)old->qemu_exit,
		.qemu_signal = old->qemu_signal > 0 ? (int)old->qemu_signal : 0,
		.ended_after_report = old->host_ended > 0,
	};
	int rc = 0;

	if (path_fmt(dir, sizeof(dir), "%s/boots/%s", r->out_dir,
		     old->boot_id) ||
	    path_fmt(path, sizeof(path), "%s/result.log", dir) ||
	    slurp(path, &chan) ||
	    path_fmt(path, sizeof(path), "%s/qemu-stderr.log", dir) ||
	    slurp(path, &qerr)) {
		rc = ERR(r, "cannot rescan: %s: %s", path, run_strerror(errno));
		goto out;
	}
	f.chan = chan.p;
	f.chan_len = chan.len;
	f.err = qerr.p;
	row_init(nr);
	memcpy(nr->boot_id, old->boot_id, sizeof(nr->boot_id));
	nr->run_index = old->run_index;
	nr->cell = old->cell;
	nr->rep = old->rep;
	memcpy(nr->axis, old->axis, sizeof(nr->axis));
	classify_boot(&f, nr, reads, traces);
	/* what the boot got, which its files do not say */
	nr->input_rtc_s = old->input_rtc_s;
	nr->input_seed = old->input_seed;
out:
	sb_free(&chan);
	sb_free(&qerr);
	return rc;
}

static int rescan_rows(struct run *r, const struct row *old, size_t n,
		       FILE *raw, FILE *rd, FILE *tr, size_t *changed)
{
	char line[8192];

	for (size_t i = 0; i < n; i++) {
		struct strbuf reads = { 0 }, traces = { 0 };
		struct row nr = old[i];
		int len, rc = 0;

		if (strcmp(old[i].status, "skipped")) {
			if (rescan_boot(r, &old[i], &nr, &reads, &traces))
				return -1;
			*changed += strcmp(nr.status, old[i].status) != 0;
		}
		len = row_format(&nr, line, sizeof(line));
		if (len < 0 || reads.oom || traces.oom)
			rc = ERR(r, "the row of %s does not fit", nr.boot_id);
		else if (fwrite(reads.p ? reads.p : "", 1, reads.len, rd) !=
				 reads.len ||
			 fwrite(traces.p ? traces.p : "", 1, traces.len, tr) !=
				 traces.len ||
			 fwrite(line, 1, (size_t)len, raw) != (size_t)len)
			rc = ERR(r, "cannot write the rescanned tables: %s",
				 strerror(errno));
		sb_free(&reads);
		sb_free(&traces);
		if (rc)
			return rc;
	}
	return 0;
}

int results_rescan(struct run *r)
{
	char path[PATH_MAX];
	struct row *old = NULL;
	size_t n, changed = 0;
	FILE *raw = NULL, *rd = NULL, *tr = NULL;
	int rc = -1;

	if (results_read_matrix(r->out_dir, &r->m, r->err, sizeof(r->err)) ||
	    results_read_seed(r->out_dir, &r->o.seed, r->err, sizeof(r->err)) ||
	    results_path(r, "raw.csv", path, sizeof(path)) ||
	    row_read_file(path, &old, &n, r->err, sizeof(r->err)) ||
	    rescan_check(r, old, n))
		goto out;
	raw = rescan_table(r, "raw.csv", "");
	if (raw)
		row_write_header(raw);
	rd = rescan_table(r, "reads.csv", READS_HEADER);
	tr = rescan_table(r, "traces.csv", TRACES_HEADER);
	if (!raw || !rd || !tr || rescan_rows(r, old, n, raw, rd, tr, &changed))
		goto out;
	rc = rescan_commit(r, rd, "reads.csv");
	rd = NULL;
	rc = rc ? rc : rescan_commit(r, tr, "traces.csv");
	tr = NULL;
	rc = rc ? rc : rescan_commit(r, raw, "raw.csv");
	raw = NULL;
	if (!rc)
		fprintf(stderr,
			"[rescan] %s: %zu boots re-derived, %zu changed status\n",
			r->out_dir, n, changed);
out:
	if (raw)
		fclose(raw);
	if (rd)
		fclose(rd);
	if (tr)
		fclose(tr);
	if (rc)
		for (int i = 0; i < 3; i++)
			if (!path_fmt(path, sizeof(path), "%s/%s.rescan",
				      r->out_dir,
				      (const char *[]){ "raw.csv", "reads.csv",
							"traces.csv" }[i]))
				unlink(path);
	free(old);
	return rc;
}
