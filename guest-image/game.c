// SPDX-License-Identifier: GPL-2.0
/*
 * probe game: the NetHack stand-in. Seeds from /dev/urandom at once, as a
 * game would, and leaves when it got it in GAME_FILE for the reporter.
 */
#define _GNU_SOURCE
#include "guest.h"

#include <inttypes.h>
#include <stdio.h>

int run_game(void)
{
	struct read_result r;
	char line[384], keys[128];

	/* The game's records go to a file; a bad value only affects reads. */
	(void)parse_cmdline();
	r = do_read(RD_URANDOM, 8); /* a game wants a seed, not a key */
	snprintf(line, sizeof(line),
		 "event name=game-seeded t_ns=%" PRId64 " start_ns=%" PRId64
		 " dur_ns=%" PRId64 " bytes=%zd errno=%d timed_out=%d%s\n",
		 r.start_ns + r.dur_ns, r.start_ns, r.dur_ns,
		 r.bytes < 0 ? (ssize_t)0 : r.bytes, r.err, r.timed_out,
		 read_keys(&r, keys, sizeof(keys)));
	append_record(GAME_FILE, line);
	printf("crngbench-game: seeded after %" PRId64 " us, errno %d\n",
	       r.dur_ns / 1000, r.err);
	return 0;
}
