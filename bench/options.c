// SPDX-License-Identifier: GPL-2.0
/*
 * crngbench-run's command line: the options into struct run_opts, and
 * which mode they ask for. Errors are returned with a message naming the
 * option and what it accepts; main() (run.c) prints them and exits.
 */
#define _GNU_SOURCE
#include "options.h"
#include "ground/err.h"
#include "ground/util.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_usage(FILE *f)
{
	fputs("usage: crngbench-run [options]\n"
	      "  --matrix FILE       matrix file (studies/*/*.matrix, bench/*.matrix)\n"
	      "  --set AXIS=V1,V2    override an axis or setting (repeatable, once per key)\n"
	      "  --out DIR           results directory (new or empty; a run only with --resume)\n"
	      "  --resume            finish the run in --out without redoing its boots; with\n"
	      "                      --set (or --matrix) that only adds axis values, grow it:\n"
	      "                      its boots are kept, only the new cells boot\n"
	      "  --kernels DIR       one base's built kernels (default: each base's,\n"
	      "                      KERNEL_BASE=<base> kernel/build.sh --kernels-dir)\n"
	      "  --image FILE        guest initramfs (default build/guest.cpio, from make image)\n"
	      "  --qemu PATH         QEMU binary (default qemu-system-x86_64)\n"
	      "  --jobs N            TCG/KVM boots at once (default: 1 on <= 2 CPUs, else CPUs - 1)\n"
	      "  --parallel-jobs N   icount boots at once (guest time free of host load; default: CPUs)\n"
	      "  --seed N            run-order and bootstrap seed (default: random, recorded)\n"
	      "  --shard K/N         run only shard K of N (deterministic, disjoint)\n",
	      f);
	fprintf(f,
		"  --kvm-canary S      seconds a KVM canary boot gets to show progress (default %d)\n",
		KVM_CANARY_S);
	fputs("  --perf              perf stat each QEMU process (task-clock, context switches)\n"
	      "  --dry-run           validate, print the plan and the QEMU command lines, boot nothing\n"
	      "  --summarize DIR     recompute DIR/summary.csv from DIR/raw.csv and print it\n"
	      "  --rescan DIR        re-derive DIR's tables from its boots/ (after a parser change)\n"
	      "  --merge OUT DIR...  merge the shards DIR... of one run into OUT (checked first;\n"
	      "                      with --matrix FILE [--set ...] and --seed N, every shard\n"
	      "                      must have that resolved matrix and seed)\n"
	      "  --describe          axes, settings, columns and measures, as JSON\n"
	      "  --print-axis AXIS   the resolved matrix's values of AXIS (--matrix, --set);\n"
	      "                      kernel_arch: the arch axis as kernel/arches rows;\n"
	      "                      kernels: the planned cells' kernels, a line per\n"
	      "                      base, kernel/arches row and HZ: BASE ARCH HZ VARIANTS;\n"
	      "                      plan: the planned cells (of --shard) as CSV: cell,\n"
	      "                      reps, every axis as raw.csv records it, timeout,\n"
	      "                      parallel, kvm (plots/estimate.py reads it);\n"
	      "                      matrix: the resolved matrix, as a run's run.matrix\n"
	      "                      holds it (make reproduce compares them)\n"
	      "  --quiet             no progress line\n"
	      "  --verbose           every measure of every cell at the end, not the compact table\n"
	      "  --append 'ARGS'     extra kernel command line for every boot\n"
	      "  --qemu-arg ARG      extra QEMU argument for every boot (repeatable)\n"
	      "  --commit ID         the code the run is made from, recorded in run.args\n"
	      "                      (letters, digits, +._-): --resume refuses another,\n"
	      "                      --merge shards that differ (make reproduce gives\n"
	      "                      the commit, +TREE with uncommitted changes)\n"
	      "axes:",
	      f);
	for (int a = 0; a < AX_N; a++)
		fprintf(f, " %s", axis_name((enum axis)a));
	fputs("\nsettings: reps timeout read_timeout ready_timeout (each also per accelerator: read_timeout.icount=600) icount exclude name\n",
	      f);
}

/* Where an option's error goes; bad once one is there. */
struct opt_err {
	char *err;
	size_t errlen;
	int bad;
};

/*
 * A whole number in [lo, hi] by the one integer rule (crb_parse_i64), or
 * lo and an error naming the option.
 */
static long long number(struct opt_err *e, const char *opt, const char *s,
			long long lo, long long hi)
{
	int64_t v;

	if (crb_parse_i64(s, &v) || v < lo || v > hi) {
		e->bad = err_set(
			e->err, e->errlen,
			"%s %s: need a whole number from %lld to %lld" DIGITS_ONLY,
			opt, s, lo, hi);
		return lo;
	}
	return v;
}

/* --commit ID: a word of letters, digits and +._- (a run.args value). */
static void parse_commit(struct opt_err *e, struct run_opts *o, const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+._-");

	o->commit = s;
	if (!n || s[n] || n > MAX_COMMIT_LEN)
		e->bad = err_set(
			e->err, e->errlen,
			"--commit '%.60s': need 1 to %d letters, digits or +._- (e.g. a git commit)",
			s, MAX_COMMIT_LEN);
}

static void parse_shard(struct opt_err *e, struct run_opts *o, const char *s)
{
	if (shard_parse(s, &o->shard_k, &o->shard_n))
		e->bad = err_set(e->err, e->errlen, "--shard %s: need %s", s,
				 SHARD_WORDS);
}

static const struct option long_opts[] = {
	{ "matrix", required_argument, 0, 'm' },
	{ "set", required_argument, 0, 's' },
	{ "out", required_argument, 0, 'o' },
	{ "resume", no_argument, 0, 'r' },
	{ "kernels", required_argument, 0, 'k' },
	{ "image", required_argument, 0, 'i' },
	{ "qemu", required_argument, 0, 'q' },
	{ "jobs", required_argument, 0, 'j' },
	{ "parallel-jobs", required_argument, 0, 'J' },
	{ "seed", required_argument, 0, 'S' },
	{ "shard", required_argument, 0, 'h' },
	{ "kvm-canary", required_argument, 0, 'c' },
	{ "perf", no_argument, 0, 'p' },
	{ "dry-run", no_argument, 0, 'n' },
	{ "summarize", required_argument, 0, 'u' },
	{ "rescan", required_argument, 0, 'R' },
	{ "merge", required_argument, 0, 'M' },
	{ "describe", no_argument, 0, 'D' },
	{ "print-axis", required_argument, 0, 'P' },
	{ "quiet", no_argument, 0, 'Q' },
	{ "verbose", no_argument, 0, 'V' },
	{ "append", required_argument, 0, 'A' },
	{ "qemu-arg", required_argument, 0, 'X' },
	{ "commit", required_argument, 0, 'C' },
	{ "help", no_argument, 0, 'H' },
	{ 0, 0, 0, 0 }
};

int options_parse(struct run_opts *o, int argc, char **argv, const char **dir,
		  char *err, size_t errlen)
{
	struct opt_err e = { err, errlen, 0 };
	enum mode mode = M_RUN;
	int c;

	while (!e.bad &&
	       (c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->matrix_file = optarg;
			break;
		case 's':
			if (o->nsets == MAX_SETS)
				return err_set(err, errlen,
					       "more than %d --set options",
					       MAX_SETS);
			o->sets[o->nsets++] = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'r':
			o->resume = 1;
			break;
		case 'k':
			o->kernels = optarg;
			break;
		case 'i':
			o->image = optarg;
			break;
		case 'q':
			o->qemu = optarg;
			break;
		case 'j':
			o->jobs =
				(int)number(&e, "--jobs", optarg, 1, MAX_JOBS);
			break;
		case 'J':
			o->par_jobs = (int)number(&e, "--parallel-jobs", optarg,
						  1, MAX_JOBS);
			break;
		case 'S':
			o->seed = (uint64_t)number(&e, "--seed", optarg, 0,
						   LLONG_MAX);
			o->seed_given = 1;
			break;
		case 'h':
			parse_shard(&e, o, optarg);
			break;
		case 'c':
			o->canary_s =
				(int)number(&e, "--kvm-canary", optarg, 1, 600);
			break;
		case 'p':
			o->perf = 1;
			break;
		case 'n':
			o->dry_run = 1;
			break;
		case 'u':
		case 'R':
		case 'M':
			mode = c == 'u' ? M_SUMMARIZE :
			       c == 'R' ? M_RESCAN :
					  M_MERGE;
			*dir = optarg;
			break;
		case 'D':
			mode = M_DESCRIBE;
			break;
		case 'P':
			mode = M_AXIS;
			*dir = optarg;
			break;
		case 'Q':
			o->quiet = 1;
			break;
		case 'V':
			o->verbose = 1;
			break;
		case 'A':
			o->append = optarg;
			break;
		case 'C':
			parse_commit(&e, o, optarg);
			break;
		case 'X':
			if (o->nqemu_args == MAX_QEMU_ARGS)
				return err_set(
					err, errlen,
					"more than %d --qemu-arg options",
					MAX_QEMU_ARGS);
			o->qemu_args[o->nqemu_args++] = optarg;
			break;
		case 'H':
			return M_HELP;
		default:
			return M_USAGE;
		}
	}
	if (e.bad)
		return -1;
	if (optind != argc && mode != M_MERGE)
		return err_set(err, errlen,
			       "unexpected argument '%s' (see --help)",
			       argv[optind]);
	return mode;
}
