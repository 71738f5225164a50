/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The most a run's tables may hold: the one definition. Every reader of a
 * results directory's CSV files refuses a file above these, naming the
 * file, its size or rows and the limit: the runner (run_table_limits(),
 * util.c: raw.csv, reads.csv, traces.csv in --summarize, --resume,
 * --rescan and --merge) and the Python tools (plots/runfiles.py
 * read_table, which reads this table as text through plots/formats.py).
 * The plan's limit is MAX_RUN_BOOTS too, so a run the runner plans is one
 * it and the tools can read. The largest committed run holds 276 boots
 * and 7184 trace rows (380 KiB): these are far above it, and below what a
 * reader holds in memory comfortably (docs/results.md, "Limits").
 *
 * X(name, value, what it counts)
 */
#ifndef CRNGBENCH_RUNLIMITS_H
#define CRNGBENCH_RUNLIMITS_H

#define RUN_LIMITS(X)                                                              \
	X(MAX_RUN_BOOTS, 200000, "rows of raw.csv: the boots a run may hold")      \
	X(MAX_RUN_ROWS, 4000000,                                                   \
	  "rows of any other table of a run (reads.csv, traces.csv, summary.csv)") \
	X(MAX_RUN_BYTES, 268435456, "bytes of any one table of a run (256 MiB)")

#define RUN_LIMIT_ENUM(name, value, what) name = value,
enum { RUN_LIMITS(RUN_LIMIT_ENUM) };
#undef RUN_LIMIT_ENUM

#endif /* CRNGBENCH_RUNLIMITS_H */
