// SPDX-License-Identifier: GPL-2.0
/* Reading `systemd-analyze time` (guest-image/analyze.h). */
#include "../../guest-image/analyze.h"
#include "check.h"

#include <string.h>

static void spans(void)
{
	const char *end;
	int64_t ns;

	CHECK(sda_timespan("538ms", &end, &ns) == 0 && ns == 538000000 &&
	      *end == '\0');
	CHECK(sda_timespan("1.282s (kernel)", &end, &ns) == 0 &&
	      ns == 1282000000 && !strcmp(end, " (kernel)"));
	CHECK(sda_timespan("1min 2.345s = x", &end, &ns) == 0 &&
	      ns == 62345000000 && !strcmp(end, " = x"));
	CHECK(sda_timespan("12us", &end, &ns) == 0 && ns == 12000);
	CHECK(sda_timespan("1h 1min", &end, &ns) == 0 && ns == 3660000000000);
	CHECK(sda_timespan("kernel", &end, &ns) == -1);
	CHECK(sda_timespan("12 ms", &end, &ns) == -1); /* no unit: not one */
	CHECK(sda_timespan("12parsecs", &end, &ns) == -1);
}

static void startup_line(void)
{
	int64_t u = -1, f = -1;

	CHECK(sda_parse_time("Startup finished in 1.282s (kernel) + 538ms "
			     "(userspace) = 1.820s ",
			     &u, &f) == 0);
	CHECK(u == 1282000000 && f == 1820000000);
	/* firmware and loader are not on the kernel's clock; initrd is */
	CHECK(sda_parse_time("Startup finished in 2.1s (firmware) + 1s "
			     "(loader) + 900ms (kernel) + 300ms (initrd) + "
			     "1min 1s (userspace) = 1min 5.3s",
			     &u, &f) == 0);
	CHECK(u == 1200000000 && f == 62200000000);
}

static void other_lines_rejected(void)
{
	int64_t u = 7, f = 7;

	CHECK(sda_parse_time(
		      "Bootup is not yet finished "
		      "(org.freedesktop.systemd1.Manager.FinishTimestampMonotonic=0).",
		      &u, &f) == -1);
	CHECK(sda_parse_time("Startup finished in 1s (kernel) = 1s", &u, &f) ==
	      -1); /* no userspace part */
	CHECK(sda_parse_time("Startup finished in 1s (kernel) + 2s (weird) = 3s",
			     &u, &f) == -1);
	CHECK(sda_parse_time("Startup finished in 1s (kernel) + 2s (userspace)",
			     &u, &f) == -1); /* truncated */
	CHECK(sda_parse_time("", &u, &f) == -1);
	CHECK(u == 7 && f == 7);
}

int main(void)
{
	TEST(spans);
	TEST(startup_line);
	TEST(other_lines_rejected);
	return check_any_failed;
}
