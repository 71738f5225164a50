/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CRNGBENCH_SUMMARY_H
#define CRNGBENCH_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

/*
 * Read DIR/raw.csv, write DIR/summary.csv (one line per cell and measure)
 * and print the terminal table to out (may be NULL). Returns 0, or -1 with
 * a message on stderr.
 */
int summary_write(const char *dir, uint64_t seed, FILE *out);

#endif /* CRNGBENCH_SUMMARY_H */
