// SPDX-License-Identifier: GPL-2.0
/*
 * row_derive(), the one definition of "CRNG ready" (crng_ready_ns): the
 * kernel's own log line when the probe saw it, else the watcher's poll,
 * and nothing for a boot censored before either. And the axis values a
 * read row keeps once for the process (keep_str()).
 */
#include "../../bench/rows/keep.h"
#include "../../bench/rows/row.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

static void kernel_log_wins_over_the_poll(void)
{
	struct row r;

	row_init(&r);
	r.crng_ready_kmsg_ns = 2000;
	r.crng_ready_poll_ns = 1500; /* a poll can see ready earlier or later */
	row_derive(&r);
	CHECK(r.crng_ready_ns == 2000 && !strcmp(r.crng_ready_src, "kmsg"));
}

static void the_poll_when_the_log_is_missing(void)
{
	struct row r;

	row_init(&r);
	r.crng_ready_poll_ns = 1500;
	row_derive(&r);
	CHECK(r.crng_ready_ns == 1500 && !strcmp(r.crng_ready_src, "poll"));
}

static void censored_has_no_ready_time(void)
{
	struct row r;

	row_init(&r);
	r.crng_ready_kmsg_ns = 2000;
	r.crng_ready_censored = 1;
	row_derive(&r);
	CHECK(r.crng_ready_ns == -1 && r.crng_ready_src[0] == '\0');
}

static void neither_is_no_ready_time(void)
{
	struct row r;

	row_init(&r);
	row_derive(&r);
	CHECK(r.crng_ready_ns == -1 && r.crng_ready_src[0] == '\0');
}

static void axis_values_are_kept_once(void)
{
	char buf[32] = "max,-rdrand";
	const char *a = keep_str(buf), *b;
	struct row r;

	CHECK(a && a != buf && !strcmp(a, "max,-rdrand"));
	snprintf(buf, sizeof(buf), "max");
	b = keep_str(buf);
	CHECK(b && b != a && !strcmp(b, "max"));
	CHECK(!strcmp(a, "max,-rdrand")); /* a copy, not the caller's buffer */
	snprintf(buf, sizeof(buf), "max,-rdrand");
	CHECK(keep_str(buf) == a);
	CHECK(keep_str("") && !*keep_str(""));
	row_init(&r);
	for (int i = 0; i < AX_N; i++)
		CHECK(r.axis[i] && !*r.axis[i]);
}

/* Many distinct values (a hostile raw.csv's): each kept, none refused. */
static void many_axis_values_are_all_kept(void)
{
	char v[32];
	const char *first = keep_str("kept-0"), *last;
	int kept = 1;

	for (int i = 1; i < 200000; i++) {
		snprintf(v, sizeof(v), "kept-%d", i);
		kept += keep_str(v) != NULL;
	}
	CHECK(kept == 200000);
	CHECK(keep_str("kept-0") == first);
	last = keep_str("kept-199999");
	CHECK(last && !strcmp(last, "kept-199999"));
}

int main(void)
{
	TEST(kernel_log_wins_over_the_poll);
	TEST(the_poll_when_the_log_is_missing);
	TEST(censored_has_no_ready_time);
	TEST(neither_is_no_ready_time);
	TEST(axis_values_are_kept_once);
	TEST(many_axis_values_are_all_kept);
	return check_any_failed;
}
