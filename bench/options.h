/* SPDX-License-Identifier: GPL-2.0 */
/* crngbench-run's command line (options.c). */
#ifndef CRNGBENCH_OPTIONS_H
#define CRNGBENCH_OPTIONS_H

#include "matrix/context.h"

#include <stddef.h>
#include <stdio.h>

/*
 * What an invocation does: a sweep (with --resume, --dry-run) or a mode.
 * Every mode before M_HELP reads the machines' kernels from kernel/arches
 * first (run.c's main(): arches_load()).
 */
enum mode {
	M_RUN,
	M_SUMMARIZE,
	M_RESCAN,
	M_MERGE,
	M_DESCRIBE,
	M_AXIS,
	M_HELP, /* --help: the usage on stdout, exit 0 */
	M_USAGE /* an option getopt refused (it said which): usage, exit 2 */
};

/*
 * The options of argv into o. Returns the mode (its directory, or the
 * axis of --print-axis, in *dir; --merge's shards are argv[optind...]),
 * or -1 with a message in err.
 */
int options_parse(struct run_opts *o, int argc, char **argv, const char **dir,
		  char *err, size_t errlen);
/* The options, axes and settings, for --help and a refused option. */
void options_usage(FILE *f);

#endif /* CRNGBENCH_OPTIONS_H */
