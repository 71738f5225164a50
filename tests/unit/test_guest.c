// SPDX-License-Identifier: GPL-2.0
/*
 * The probe's knobs (guest-image/guest.c, built in here): what PID 1 takes
 * from its environment, where the kernel puts the command line's
 * crngbench_* words. crngbench_waiters: one digit from 0 to 7, absent 0;
 * anything else is a complaint naming the knob and what it accepts (PID 1
 * sends it as a fail record and the boot ends), never a guess.
 */
#define _GNU_SOURCE
#include "../../guest-image/guest.c"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* PID 1's environment holding word: what parse_init_env() says of it. */
static const char *init_env(const char *word, int *left)
{
	char w[64], other[] = "TERM=linux";
	char *env[] = { other, w, NULL };
	char **was = environ;
	const char *bad;

	snprintf(w, sizeof(w), "%s", word);
	opt.waiters = 0;
	environ = env;
	bad = parse_init_env();
	environ = was;
	/* our words are taken out before systemd inherits the rest */
	*left = env[1] == NULL && !strcmp(env[0], "TERM=linux");
	return bad;
}

static void waiters_knob(void)
{
	static const char *const refused[] = { "-1", "8",  "x",	 "",
					       "03", "10", "+3", "3 " };
	char word[64];
	int left;

	for (int n = 0; n <= 7; n++) {
		snprintf(word, sizeof(word), CRB_SET_WAITERS "=%d", n);
		CHECK(init_env(word, &left) == NULL && opt.waiters == n &&
		      left);
	}
	CHECK(init_env("HOME=/", &left) == NULL && opt.waiters == 0);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const char *bad;

		snprintf(word, sizeof(word), CRB_SET_WAITERS "=%s", refused[i]);
		bad = init_env(word, &left);
		CHECK(bad && !strcmp(bad, "crngbench_waiters must be one "
					  "digit, 0 to 7"));
	}
}

int main(void)
{
	TEST(waiters_knob);
	return check_any_failed;
}
