/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading `systemd-analyze time`, so the reporter needs one systemd tool
 * spawn after the boot (each costs ~0.25 s under TCG), not two.
 */
#ifndef CRNGBENCH_ANALYZE_H
#define CRNGBENCH_ANALYZE_H

#include <stdint.h>

/*
 * A systemd time span as systemd prints it: "538ms", "1.282s",
 * "1min 2.345s", "12us". Stops at the first word that is not one.
 * Returns 0 and the span in ns, *end after it; -1 if s does not start
 * with a span.
 */
int sda_timespan(const char *s, const char **end, int64_t *ns);

/*
 * The first line of `systemd-analyze time` (systemd 252):
 *   "Startup finished in 1.282s (kernel) + 538ms (userspace) = 1.820s"
 * with optional (firmware), (loader) and (initrd) parts. Sets when
 * userspace started and when the boot finished, both from kernel start
 * (CLOCK_MONOTONIC, as systemd's *TimestampMonotonic), at the ms precision
 * systemd prints. Returns 0, or -1 if the line is not one of these.
 */
int sda_parse_time(const char *line, int64_t *userspace_ns, int64_t *finish_ns);

#endif /* CRNGBENCH_ANALYZE_H */
