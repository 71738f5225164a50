/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs per guest machine, in one table (like accel.h): the QEMU
 * binary, the machine and its devices, the console and the result
 * channel. The matrix's arch axis names a row. What a machine's kernels
 * are (its kernel/arches row, image, dtb, HZ, QEMU package) is
 * kernel/arches' alone: arches_load() (table.c) fills those fields from it
 * before anything reads them. x86_64 is the
 * systemd guest on microvm; every other row is a probe-only guest
 * (guest-image/build-probe-image.sh) on a machine of the architectures
 * whose boot tests hung in 2022.
 */
#ifndef CRNGBENCH_ARCH_H
#define CRNGBENCH_ARCH_H

#include <stddef.h>

struct arch {
	const char *name; /* the matrix's arch value */
	/*
	 * From kernel/arches (arches_load(), table.c), never spelled here:
	 * the row whose machines column names this machine, its kernel
	 * image's file name, a device tree to pass with -dtb (NULL: none),
	 * the only CONFIG_HZ the architecture has (NULL: hz "choice"), the
	 * Debian package of its QEMU, and whether its guest is "systemd"
	 * (its kernels named without the row) or "probe".
	 */
	const char *kernel_arch, *image, *dtb, *fixed_hz, *qemu_package;
	int systemd;
	const char *qemu; /* QEMU binary; NULL: the runner's --qemu (x86) */
	const char *machine; /* -M */
	/*
	 * The boot-loader seed (bootseed axis). QEMU hands most of these
	 * machines one, and 6.1 credits it while parsing the device tree or
	 * boot info, before random.trust_bootloader= is parsed (ARM, m68k;
	 * MIPS reads it after): so "off" is a -M option that withholds it
	 * where QEMU has one (seed_off), else the command line; seed_never:
	 * this kernel never credits it (built without RANDOM_TRUST_BOOTLOADER),
	 * so bootseed=on is refused.
	 */
	const char *seed_off;
	int seed_never;
	/* QEMU gives this machine no seed at all: bootseed=on is refused. */
	int seed_absent;
	const char *cpu; /* -cpu for the cpu axis' "default" */
	const char *console; /* the kernel's console= */
	const char *channel; /* the probe's result channel device */
	/*
	 * The channel is a virtio console (hvc0) on machines with one UART;
	 * else a second serial port (the x86 row adds its own isa-serial).
	 */
	int channel_virtio;
	/*
	 * The report shares the console's serial line (no usable second
	 * one): the kernel is told "quiet" so that its messages rarely
	 * interleave with records (a record they break fails its CRC), and
	 * the console log is QEMU's copy of that line.
	 */
	int channel_console;
	/*
	 * -rtc clock=vm: the machine's RTC runs on QEMU's virtual clock
	 * instead of the host's. m68k virt's goldfish RTC is its clocksource
	 * and clockevent, and malta calibrates its CP0 count against the
	 * PIIX4 RTC: on the host clock, under icount, the one follows host
	 * time and the other measures instructions per host second (CPU
	 * frequency 12.85 then 11.92 MHz, CRNG ready at 3.3 s then 33.9 s in
	 * two identical boots). On the virtual clock every guest clock is
	 * instruction time under icount, and host time under TCG as before.
	 * x86 reads the RTC only for the wall clock.
	 */
	int rtc_vm;
	/*
	 * Where the RTC's date reaches the guest (the rtc axis: QEMU's
	 * -rtc base=), checked under QEMU 7.2 by booting the machine with a
	 * fixed base and tracing what its kernel read
	 * (studies/entropy/NOTES.md); NULL: it never does, so rtc=fixed would
	 * boot the same as rtc=host and is refused.
	 */
	const char *rtc;
	/*
	 * The most of the kernel command line the machine's boot loader
	 * passes on (0: the runner's KERNEL_CMDLINE_MAX). QEMU's malta puts
	 * "rd_start=0x... rd_size=N " and our line into one 256-byte YAMON
	 * environment entry and cuts the rest: 255 bytes, less up to 46 of
	 * its own, leave 209 (the knob's word made a line of 226 lose
	 * crngbench_reads=, so its probe read nothing).
	 */
	int cmdline_max;
	/*
	 * The machine halts on power-off and QEMU stays (malta): the runner
	 * ends it as soon as the report's terminator has arrived instead of
	 * granting it the grace a machine that exits by itself gets.
	 */
	int halts;
	/*
	 * The architecture has a CPU RNG that random.trust_cpu= governs
	 * (x86's RDRAND/RDSEED). Elsewhere arch_get_random_*() return
	 * nothing in 6.1, so the trust_cpu axis changes nothing there and
	 * its word is left out: it would only use up a command line that
	 * malta limits.
	 */
	int cpu_rng;
	/*
	 * The x86 systemd guest: the cpu axis' models and RDRAND, the TSC
	 * hints, the timer axis, read tracing, virtio-rng and KVM apply only
	 * here.
	 */
	int x86;
};

/*
 * rtc=fixed: the date every guest's RTC starts at (QEMU's -rtc base=), the
 * day "random: block in /dev/urandom" was posted. The RTC then runs on
 * QEMU's virtual clock (clock=vm): instruction time under icount.
 */
#define RTC_FIXED_DATE "2022-02-11T00:00:00"

/* The row for a matrix value, or NULL. */
const struct arch *arch_find(const char *name);
/* Every row, writable, and their count in *n: for arches_load() alone. */
struct arch *arch_rows(size_t *n);
/* "x86_64, armv5-versatilepb, ...": the accepted values, for messages. */
const char *arch_list(void);
/* "x86_64, m68k-virt, ...": the machines whose guests the RTC's date
 * reaches (rtc=fixed's accepted arch values), for messages. */
const char *arch_rtc_list(void);
/* "x86_64": the machines whose guests run systemd (x86), the ones that
 * take early=child, for messages. */
const char *arch_systemd_list(void);
/* The kernels directory's entry for a variant and HZ on this arch:
 * "<variant>-hz<HZ>" for the systemd guest's (x86_64),
 * "<variant>-hz<HZ>-<kernel_arch>" for the others (kernel/arches' guest). */
int arch_kernel_dir(const struct arch *a, const char *variant, const char *hz,
		    char *buf, size_t len);
/* The cpu axis value as QEMU gets it ("default": the row's cpu). */
const char *arch_cpu(const struct arch *a, const char *cpu);

#endif /* CRNGBENCH_ARCH_H */
