// SPDX-License-Identifier: GPL-2.0
/*
 * A machine's kernels are kernel/arches' alone: arches_load_table()
 * (bench/machines/table.c) gives every machine of bench/machines/arch.c its row's name,
 * image, dtb, fixed HZ, QEMU package and guest, read by column name as
 * scripts/table.sh does; and a table that cannot say them is refused,
 * naming the table and what it lacks. Run from the repository root.
 */
#define _GNU_SOURCE
#include "../../bench/machines/arch.h"
#include "../../bench/machines/table.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* kernel/arches, read by bench/machines/table.c (the runner's reader of fact tables). */
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

/* Every machine gets its row's facts, and every machine has a row. */
static void machines_take_their_kernels_from_kernel_arches(void)
{
	char names[512], err[1024], dir[64], want[TABLE_MAX_WORD + 16];
	char *save = NULL;
	int seen = 0;

	CHECK(arches_load_table("kernel/arches", err, sizeof(err)) == 0);
	CHECK(table_read("kernel/arches", &t, err, sizeof(err)) == 0);
	if (t.nrows == 0 || !get(0, "machines")) {
		printf("  %s\n", err);
		return;
	}
	snprintf(names, sizeof(names), "%s", arch_list());
	for (char *m = strtok_r(names, ", ", &save); m;
	     m = strtok_r(NULL, ", ", &save), seen++) {
		const struct arch *a = arch_find(m);
		int r = row_of(m);

		CHECK(a != NULL && r >= 0);
		if (!a || r < 0)
			continue;
		CHECK(same(a->kernel_arch, t.cell[r][0]));
		CHECK(same(a->image, get(r, "image")) && a->image[0]);
		CHECK(same(a->dtb, get(r, "dtb")));
		CHECK(same(a->fixed_hz ? a->fixed_hz : "choice", get(r, "hz")));
		CHECK(same(a->qemu_package, get(r, "qemu_package")));
		CHECK(same(a->systemd ? "systemd" : "probe", get(r, "guest")));
		/* the systemd guest's kernels are named without the row */
		CHECK(snprintf(want, sizeof(want), "stock-hz250%s%s",
			       a->systemd ? "" : "-",
			       a->systemd ? "" : t.cell[r][0]) <
		      (int)sizeof(want));
		CHECK(arch_kernel_dir(a, "stock", "250", dir, sizeof(dir)) ==
			      0 &&
		      !strcmp(dir, want));
	}
	CHECK(seen > 1);
}

/*
 * kernel/arches with the first from replaced by to, loaded: the load's
 * return; its message in err. -2: the table has no from to edit.
 */
static int load_edited(const char *from, const char *to, char *err,
		       size_t errlen)
{
	char path[] = "/tmp/crngbench-arches-XXXXXX", text[TABLE_MAX_BYTES];
	FILE *in = fopen("kernel/arches", "r");
	size_t n = in ? fread(text, 1, sizeof(text) - 1, in) : 0;
	char *at;
	int fd, rc;
	FILE *out;

	if (in)
		fclose(in);
	text[n] = '\0';
	at = strstr(text, from);
	if (!at) {
		snprintf(err, errlen, "kernel/arches has no '%s' to edit",
			 from);
		return -2;
	}
	fd = mkstemp(path);
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out)
		return -2;
	fprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	fclose(out);
	rc = arches_load_table(path, err, errlen);
	unlink(path);
	return rc;
}

/* A table that cannot say a machine's kernels is refused, saying why:
 * kernel/arches with from replaced by to gives an error holding want. */
static void refuses_a_table_that_lacks_a_fact(void)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
		/* no row: the message names the machine and the rows there are */
		{ "\nmipsel ", "\n#mipsel ",
		  ": no row for machine mipsel-malta (no row's machines column names it); rows: x86_64 armv5 armv7 m68k" },
		{ " m68k-virt,m68k-q800 ", " m68k-virt ",
		  ": no row for machine m68k-q800" },
		/* no column: the message names it and the columns there are */
		{ "image    dtb ", "image    devtree ",
		  " has no column 'dtb'; its columns: name kbuild cross compiler libc image devtree hz" },
		{ "    machines ", "    boards ", " has no column 'machines'" },
		/* a machine the runner does not have, or on two rows */
		{ " m68k-virt,m68k-q800 ", " m68k-virt,m68k-q800,sun4m ",
		  ": row m68k names machine sun4m, which the runner does not have; its machines: x86_64, " },
		{ " armv7-virt ", " armv7-virt,armv5-versatilepb ",
		  "both name machine armv5-versatilepb in their machines column: one row per machine" },
		/* values the runner cannot use */
		{ " 100    ", " 100Hz  ",
		  ": row m68k has hz '100Hz'; accepted: choice" },
		{ " zImage   versatile-pb.dtb", " -        versatile-pb.dtb",
		  ": row armv5 has no image" },
		{ "armv5-versatilepb     probe", "armv5-versatilepb     bare",
		  ": row armv5 has guest 'bare'; accepted: systemd, probe" },
		{ "armv5-versatilepb     probe",
		  "armv5-versatilepb     systemd",
		  ": row armv5 has guest systemd, but machine armv5-versatilepb is a probe-only guest (bench/machines/arch.c)" },
	};
	char err[2048];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = load_edited(cases[i].from, cases[i].to, err,
				     sizeof(err));

		CHECK(rc == -1 && strstr(err, cases[i].want));
		if (rc != -1 || !strstr(err, cases[i].want))
			printf("  '%s' -> '%s': rc %d, \"%s\", not \"%s\"\n",
			       cases[i].from, cases[i].to, rc, err,
			       cases[i].want);
	}
	/* and the real table again, for what runs after */
	CHECK(arches_load_table("kernel/arches", err, sizeof(err)) == 0);
}

int main(void)
{
	TEST(machines_take_their_kernels_from_kernel_arches);
	TEST(refuses_a_table_that_lacks_a_fact);
	return check_any_failed;
}
