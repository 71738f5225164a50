// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line: the ETA adds up each accelerator's own boots (icount
 * boots several at once and quick, TCG boots one at a time and ten times
 * longer), says "unknown" for an accelerator none of whose boots has ended,
 * and the line names the running cell.
 */
#define _GNU_SOURCE
#include "../../bench/boot/progress.h"
#include "check.h"

#include <string.h>

static void eta_per_accelerator(void)
{
	struct spans s = { .n = 0 };
	struct acc_span *ic = span_of(&s, "icount"), *tc = span_of(&s, "tcg");
	const char *unknown;
	double eta;

	CHECK(ic && tc && span_of(&s, "icount") == ic);
	if (!ic || !tc)
		return;
	*ic = (struct acc_span){ .accel = "icount",
				 .todo = 10,
				 .boots = 4,
				 .boot_ns = 8000000000LL,
				 .at_once = 2 };
	*tc = (struct acc_span){ .accel = "tcg", .todo = 10, .at_once = 1 };
	/* icount: 6 left of 2 s each, 2 at once; TCG not known yet */
	eta = progress_eta(&s, &unknown);
	CHECK(unknown && !strcmp(unknown, "tcg") && eta > 5.99 && eta < 6.01);
	/* one TCG boot of 20 s: 9 more, one at a time */
	tc->boots = 1;
	tc->boot_ns = 20000000000LL;
	eta = progress_eta(&s, &unknown);
	CHECK(!unknown && eta > 185.99 && eta < 186.01);
	/* the last icount boots run one beside the other at most */
	ic->boots = 9;
	ic->boot_ns = 18000000000LL;
	tc->boots = 10;
	eta = progress_eta(&s, &unknown);
	CHECK(!unknown && eta > 1.99 && eta < 2.01);
}

static void line_names_cell_and_eta(void)
{
	char buf[256];

	progress_format(buf, sizeof(buf), 122, 320, "block tcg cpu=max", 0, 167,
			271, NULL);
	CHECK(!strncmp(buf, "[bench] 122/320 boots  block tcg cpu=max ", 41));
	CHECK(strstr(buf, "elapsed 167s  eta 271s") != NULL);
	progress_format(buf, sizeof(buf), 3, 320, "stock icount cpu=qemu64", 1,
			5, 40, "tcg");
	CHECK(strstr(buf, "stock icount cpu=qemu64 (+1)") != NULL);
	CHECK(strstr(buf, "eta >40s (tcg unknown)") != NULL);
	progress_format(buf, sizeof(buf), 0, 320, "stock tcg cpu=max", 0, 0, 0,
			"tcg");
	CHECK(strstr(buf, "eta unknown") != NULL);
}

int main(void)
{
	TEST(eta_per_accelerator);
	TEST(line_names_cell_and_eta);
	return check_any_failed;
}
