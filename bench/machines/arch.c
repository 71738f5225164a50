// SPDX-License-Identifier: GPL-2.0
#include "arch.h"

#include <stdio.h>
#include <string.h>

/*
 * Each machine's kernel facts (kernel_arch, image, dtb, fixed_hz,
 * qemu_package, systemd) are kernel/arches', filled in by arches_load().
 */
static struct arch arches[] = {
	{ .name = "x86_64",
	  /*
	   * microvm: direct kernel boot with qboot, no PCI or ACPI to set
	   * up; the fastest x86 machine type. virtio devices are
	   * virtio-mmio and QEMU adds them to the kernel command line.
	   */
	  .machine = "microvm,x-option-roms=off,rtc=on,isa-serial=on,acpi=off",
	  .cpu = "max",
	  .console = "ttyS0",
	  .channel = "/dev/ttyS1",
	  .rtc = "MC146818 (microvm's rtc=on), read at boot for the wall clock",
	  .cpu_rng = 1,
	  .x86 = 1 },
	/*
	 * The machine of the 2022 report: ARM926EJ-S, SP804 timers, no cycle
	 * counter. Its UARTs are PL011s; the second carries the channel.
	 */
	{ .name = "armv5-versatilepb",
	  .qemu = "qemu-system-arm",
	  .machine = "versatilepb",
	  .cpu = "arm926",
	  .rtc_vm = 1,
	  /* QEMU adds no /chosen/rng-seed to a -dtb (dumpdtb shows none). */
	  .seed_absent = 1,
	  /*
	   * Its PL031 starts at -rtc base=, but the kernel has no RTC driver
	   * (no RTC_CLASS) and ARM no persistent clock here: it reads the
	   * PL031's ID registers only, never the date (.rtc NULL).
	   */
	  .console = "ttyAMA0",
	  .channel = "/dev/ttyAMA1" },
	/* The ARM control with a counter (architected timer); one UART. */
	{ .name = "armv7-virt",
	  .qemu = "qemu-system-arm",
	  .machine = "virt,highmem=off",
	  .seed_off = "dtb-randomness=off",
	  .cpu = "cortex-a15",
	  .rtc_vm = 1,
	  /* A PL031 as on versatilepb, and no RTC driver either (.rtc NULL). */
	  .console = "ttyAMA0",
	  .channel = "/dev/hvc0",
	  .channel_virtio = 1 },
	/* m68k: no cycle counter; goldfish TTY and timer on virt. */
	{ .name = "m68k-virt",
	  .qemu = "qemu-system-m68k",
	  .machine = "virt",
	  .seed_never = 1,
	  .cpu = "m68040",
	  .rtc_vm = 1,
	  /* The wall clock stays at 1970 (no RTC_HCTOSYS), but the timer is
	   * a goldfish RTC too, and random_get_entropy() reads its count. */
	  .rtc = "goldfish RTC: the goldfish_timer clocksource counts ns since 1970 from the date on",
	  .console = "ttyGF0",
	  .channel = "/dev/hvc0",
	  .channel_virtio = 1 },
	/*
	 * m68k: the Macintosh Quadra 800, VIA timers (clocksource "via1",
	 * 783 kHz). Its SCC has two channels, but pmac_zilog 6.1 meets an
	 * interrupt storm ("irq 4: nobody cared") as soon as channel B is
	 * opened under QEMU 7.2, so the report shares the console's line
	 * (channel_console).
	 */
	{ .name = "m68k-q800",
	  .qemu = "qemu-system-m68k",
	  .machine = "q800",
	  .seed_never = 1,
	  .cpu = "m68040",
	  .rtc_vm = 1,
	  .console = "ttyS0",
	  .channel = "/dev/ttyS0",
	  .rtc = "VIA1's PRAM clock, read at boot for the wall clock",
	  .channel_console = 1 },
	/* MIPS32 R2 (24Kf): CP0 count as the counter; two 16550s. */
	{ .name = "mipsel-malta",
	  .qemu = "qemu-system-mipsel",
	  .machine = "malta",
	  .cpu = "24Kf",
	  .rtc_vm = 1,
	  .rtc = "MC146818 (PIIX4), read at boot for the wall clock",
	  .cmdline_max = 209,
	  .halts = 1,
	  .console = "ttyS0",
	  .channel = "/dev/ttyS1" },
};

#define NARCHES (sizeof(arches) / sizeof(arches[0]))

const struct arch *arch_find(const char *name)
{
	for (size_t i = 0; i < NARCHES; i++)
		if (!strcmp(name, arches[i].name))
			return &arches[i];
	return NULL;
}

struct arch *arch_rows(size_t *n)
{
	*n = NARCHES;
	return arches;
}

const char *arch_list(void)
{
	static char list[256];

	if (!list[0])
		for (size_t i = 0; i < NARCHES; i++) {
			if (i)
				strncat(list, ", ",
					sizeof(list) - strlen(list) - 1);
			strncat(list, arches[i].name,
				sizeof(list) - strlen(list) - 1);
		}
	return list;
}

/* The names of the rows that keep() accepts, ", "-joined, into list. */
static void list_where(char *list, size_t len,
		       int (*keep)(const struct arch *a))
{
	for (size_t i = 0; i < NARCHES; i++) {
		if (!keep(&arches[i]))
			continue;
		if (list[0])
			strncat(list, ", ", len - strlen(list) - 1);
		strncat(list, arches[i].name, len - strlen(list) - 1);
	}
}

static int has_rtc(const struct arch *a)
{
	return a->rtc != NULL;
}

static int has_systemd(const struct arch *a)
{
	return a->x86;
}

const char *arch_rtc_list(void)
{
	static char list[256];

	if (!list[0])
		list_where(list, sizeof(list), has_rtc);
	return list;
}

const char *arch_systemd_list(void)
{
	static char list[256];

	if (!list[0])
		list_where(list, sizeof(list), has_systemd);
	return list;
}

int arch_kernel_dir(const struct arch *a, const char *variant, const char *hz,
		    char *buf, size_t len)
{
	int n = a->systemd ? snprintf(buf, len, "%s-hz%s", variant, hz) :
			     snprintf(buf, len, "%s-hz%s-%s", variant, hz,
				      a->kernel_arch);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

const char *arch_cpu(const struct arch *a, const char *cpu)
{
	return strcmp(cpu, "default") ? cpu : a->cpu;
}
