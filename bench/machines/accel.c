// SPDX-License-Identifier: GPL-2.0
#include "accel.h"

#include <string.h>

static const struct accel accels[] = {
	/*
	 * TCG's RDTSC runs at the host's TSC rate and microvm has no PIT or
	 * HPET to calibrate against: without the hint the guest falls back
	 * to the jiffies clocksource (4 ms resolution).
	 */
	{ .name = "tcg",
	  .qemu_accel = "tcg",
	  .host_tsc_hint = 1,
	  .timer = "lapic" },
	{ .name = "kvm", .qemu_accel = "kvm", .needs_kvm = 1, .timer = "lapic" },
	/*
	 * icount: TCG where guest time is instructions (shift=0: one per
	 * virtual ns), so the host's translation work and load cost the guest
	 * no time; an idle guest jumps to its next timer (sleep=off). The TSC
	 * then counts virtual ns: 1 GHz at shift=0 by definition. The LAPIC timer's
	 * calibration busy-waits on MMIO reads, which icount executes one at
	 * a time (~16 s of host time per boot here), so by default the PIT
	 * drives the tick instead (timer=pit: noapictimer), still HZ times a
	 * second; timer=lapic asks for the LAPIC all the same.
	 */
	{ .name = "icount",
	  .qemu_accel = "tcg",
	  .icount = 1,
	  .timer = "pit",
	  .parallel_safe = 1 },
};

#define NACCELS (sizeof(accels) / sizeof(accels[0]))

const struct accel *accel_find(const char *name)
{
	for (size_t i = 0; i < NACCELS; i++)
		if (!strcmp(name, accels[i].name))
			return &accels[i];
	return NULL;
}

const char *accel_list(void)
{
	static char list[64];

	if (!list[0])
		for (size_t i = 0; i < NACCELS; i++) {
			if (i)
				strncat(list, ", ",
					sizeof(list) - strlen(list) - 1);
			strncat(list, accels[i].name,
				sizeof(list) - strlen(list) - 1);
		}
	return list;
}

const char *accel_timer(const char *accel, const char *timer)
{
	const struct accel *a = accel_find(accel);

	if (strcmp(timer, "auto") || !a)
		return timer;
	return a->timer;
}

int accel_parallel_safe(const char *accel)
{
	const struct accel *a = accel_find(accel);

	return a && a->parallel_safe;
}
