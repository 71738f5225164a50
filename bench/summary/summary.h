/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CRNGBENCH_SUMMARY_H
#define CRNGBENCH_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Read DIR/raw.csv, write DIR/summary.csv (one line per cell and measure,
 * cells in matrix order) and print to out (may be NULL) the compact table
 * (terminal.c), or with verbose every measure of every cell. Every
 * statistic a chart or table shows comes from here. Returns 0, or -1 with
 * a message in err.
 */
int summary_write(const char *dir, uint64_t seed, FILE *out, int verbose,
		  char *err, size_t errlen);

/* The measures' names, in summary.csv order, for --describe. */
/* --describe's "measures", "median_ci" (its rule, stats.h) and
 * "limits" (runlimits.h) members, each followed by a comma. */
void summary_describe(FILE *out);
const char *summary_measure(size_t i, const char **clock, const char **doc);

/*
 * A measure's bootstrap seed in summary.csv: the run's seed plus the
 * measure's index (the stop rule's CI of crng_ready is summary.csv's).
 */
static inline uint64_t summary_measure_seed(const char *measure, uint64_t seed)
{
	const char *clock, *doc, *name;

	for (size_t i = 0; (name = summary_measure(i, &clock, &doc)); i++)
		if (!strcmp(name, measure))
			return seed + i;
	return seed;
}

#endif /* CRNGBENCH_SUMMARY_H */
