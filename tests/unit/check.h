/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smallest test harness that does the job: CHECK() records a failure
 * with its location and goes on; TEST() prints one PASS/FAIL line per test,
 * which tests/run.sh counts.
 */
#ifndef CRNGBENCH_CHECK_H
#define CRNGBENCH_CHECK_H

#include <stdio.h>

static int check_failed;
static int check_any_failed;

#define CHECK(cond)                                                         \
	do {                                                                \
		if (!(cond)) {                                              \
			if (!check_failed)                                  \
				printf("FAIL: %s: %s:%d: %s\n", check_name, \
				       __FILE__, __LINE__, #cond);          \
			check_failed = 1;                                   \
		}                                                           \
	} while (0)

static const char *check_name = "";

#define TEST(fn)                                   \
	do {                                       \
		check_name = #fn;                  \
		check_failed = 0;                  \
		fn();                              \
		if (!check_failed)                 \
			printf("PASS: %s\n", #fn); \
		else                               \
			check_any_failed = 1;      \
	} while (0)

#endif /* CRNGBENCH_CHECK_H */
