// SPDX-License-Identifier: GPL-2.0
/*
 * bench/arch.c keeps, per machine, facts that kernel/arches holds for the
 * shell and the Makefile (its kernel row, image, dtb, fixed HZ, QEMU
 * package): the runner does not read that file, so this test is the check
 * that the two copies agree, in both directions. It reads kernel/arches
 * with bench/table.c, by column name, as scripts/table.sh does (run from
 * the repository root).
 */
#define _POSIX_C_SOURCE 200809L
#include "../../bench/arch.h"
#include "../../bench/table.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* kernel/arches, read by bench/table.c (the runner's reader of fact tables). */
static struct fact_table t;

static const char *get(int row, const char *col)
{
	return table_get(&t, row, col);
}

/* The kernel/arches row whose machines column names this machine. */
static int row_of(const char *machine)
{
	for (int r = 0; r < t.nrows; r++) {
		char list[TABLE_MAX_WORD + 2];
		char want[TABLE_MAX_WORD + 2];

		snprintf(list, sizeof(list), ",%s,", get(r, "machines"));
		snprintf(want, sizeof(want), ",%s,", machine);
		if (strstr(list, want))
			return r;
	}
	return -1;
}

static int same(const char *c_value, const char *table_value)
{
	return !strcmp(c_value ? c_value : "", table_value ? table_value : "");
}

static void machines_agree_with_kernel_arches(void)
{
	char names[512], err[512];
	char *save = NULL;
	int seen = 0;

	CHECK(table_read("kernel/arches", &t, err, sizeof(err)) == 0);
	if (t.nrows == 0) {
		printf("  %s\n", err);
		return;
	}
	CHECK(get(0, "machines") && get(0, "image") && get(0, "qemu_package") &&
	      get(0, "guest"));
	if (!get(0, "machines") || !get(0, "image") ||
	    !get(0, "qemu_package") || !get(0, "guest"))
		return;
	snprintf(names, sizeof(names), "%s", arch_list());
	for (char *m = strtok_r(names, ", ", &save); m;
	     m = strtok_r(NULL, ", ", &save), seen++) {
		const struct arch *a = arch_find(m);
		int r = row_of(m);

		CHECK(a != NULL);
		CHECK(r >= 0);
		if (!a || r < 0) {
			printf("  machine %s: no kernel/arches row names it\n",
			       m);
			continue;
		}
		if (!same(a->kernel_arch, t.cell[r][0]) ||
		    !same(a->image, get(r, "image")) ||
		    !same(a->dtb, get(r, "dtb")) ||
		    !same(a->fixed_hz ? a->fixed_hz : "choice", get(r, "hz")) ||
		    !same(a->x86 ? "systemd" : "probe", get(r, "guest")) ||
		    !(a->qemu_package ?
			      same(a->qemu_package, get(r, "qemu_package")) :
			      a->x86)) {
			printf("  machine %s: bench/arch.c says %s %s %s %s %s %s, "
			       "kernel/arches row %s says %s %s %s %s %s\n",
			       m, a->kernel_arch, a->image,
			       a->dtb ? a->dtb : "-",
			       a->fixed_hz ? a->fixed_hz : "choice",
			       a->qemu_package ? a->qemu_package : "(--qemu)",
			       a->x86 ? "systemd" : "probe", t.cell[r][0],
			       get(r, "image"), get(r, "dtb"), get(r, "hz"),
			       get(r, "qemu_package"), get(r, "guest"));
			CHECK(!"bench/arch.c and kernel/arches disagree");
		}
	}
	CHECK(seen > 1);
	/* and every machine the table names is one the runner knows */
	for (int r = 0; r < t.nrows; r++) {
		char list[TABLE_MAX_WORD];

		snprintf(list, sizeof(list), "%s", get(r, "machines"));
		save = NULL;
		for (char *m = strtok_r(list, ",", &save); m;
		     m = strtok_r(NULL, ",", &save)) {
			CHECK(arch_find(m) != NULL);
			if (!arch_find(m))
				printf("  kernel/arches row %s names machine %s, "
				       "which bench/arch.c does not have\n",
				       t.cell[r][0], m);
		}
	}
}

int main(void)
{
	TEST(machines_agree_with_kernel_arches);
	return check_any_failed;
}
