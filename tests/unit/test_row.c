// SPDX-License-Identifier: GPL-2.0
/*
 * row_derive(), the one definition of "CRNG ready" (crng_ready_ns): the
 * kernel's own log line when the probe saw it, else the watcher's poll,
 * and nothing for a boot censored before either.
 */
#include "../../bench/row.h"
#include "check.h"

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

int main(void)
{
	TEST(kernel_log_wins_over_the_poll);
	TEST(the_poll_when_the_log_is_missing);
	TEST(censored_has_no_ready_time);
	TEST(neither_is_no_ready_time);
	return check_any_failed;
}
