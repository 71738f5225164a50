// SPDX-License-Identifier: GPL-2.0
/*
 * What both reporters (report_x86.c, report_probe_only.c) put into the
 * report segment: files of /proc and /sys as meta records, the records
 * the watcher and the game left, the interrupt counts, and what the kernel
 * log says (CRNG ready, the jitter trial, clocksources, urandom warnings).
 */
#define _GNU_SOURCE
#include "guest.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void emit_meta_file(const char *key, const char *path)
{
	char buf[CRB_MAX_VALUE], esc[CRB_MAX_LINE];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) / 3 - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	crb_emit(&w, CRB_meta, "key=%s value=%s", key,
		 crb_escape(esc, sizeof(esc), buf));
}

/*
 * The report's own event (when it went out; started: when the reporter
 * began), then what the kernel says of itself: release, version, command
 * line, current clocksource.
 */
void emit_report_event(int64_t started)
{
	crb_emit(&w, CRB_event,
		 "name=report t_ns=%" PRId64 " started_ns=%" PRId64, boot_ns(),
		 started);
	emit_meta_file("release", "/proc/sys/kernel/osrelease");
	emit_meta_file("version", "/proc/version");
	emit_meta_file("cmdline", "/proc/cmdline");
	emit_meta_file("clocksource", CLOCKSOURCE);
}

/* Re-emit the records another process left in a file (watcher, game). */
void emit_record_file(const char *path)
{
	char buf[8192], *line, *save = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct crb_record r;
		const char *rest = strchr(line, ' ');

		if (rest && !crb_parse_line(line, strlen(line), &r, NULL, 0))
			crb_emit(&w, r.type, "%s", rest + 1);
	}
}

/*
 * /dev/kmsg: the kernel's own "crng init done" time, and the "uninitialized
 * urandom read" warnings (legacy and stock print them).
 */
#define KMSG_SYNC "crngbench: clock sync"

/*
 * printk times come from local_clock(), not CLOCK_BOOTTIME, and the two can
 * differ by tens of milliseconds (the clocksource changes during boot). Write
 * a marker between two boottime reads; its printk time gives the offset.
 */
static int64_t kmsg_mark(void)
{
	int64_t t1, t2;
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	t1 = boot_ns();
	if (write(fd, KMSG_SYNC "\n", sizeof(KMSG_SYNC)) !=
	    (ssize_t)sizeof(KMSG_SYNC)) {
		close(fd);
		return -1;
	}
	t2 = boot_ns();
	close(fd);
	return t1 + (t2 - t1) / 2;
}

/*
 * The guest's interrupt counts (/proc/interrupts, summed over CPUs) when the
 * report runs: without a cycle counter these are what credits entropy
 * (add_interrupt_randomness() runs in handle_irq_event_percpu(), which the
 * IRQ-0 tick goes through and the LAPIC timer does not). Three totals as
 * numbers, and every non-zero line as "name:count;..." for the record.
 */
void emit_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char line[1024], all[CRB_MAX_VALUE / 3] = "", esc[CRB_MAX_LINE];
	int64_t timer = 0, local = 0, devices = 0;
	size_t off = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p, *name = line;
		int64_t sum = 0;

		if (!colon)
			continue; /* the CPU header */
		*colon = '\0';
		while (*name == ' ')
			name++;
		for (p = colon + 1;;) {
			char *end;
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
		if (!strcmp(name, "0"))
			timer = sum;
		else if (!strcmp(name, "LOC"))
			local = sum;
		if (isdigit((unsigned char)name[0]))
			devices += sum;
		if (sum && off < sizeof(all))
			off += (size_t)snprintf(all + off, sizeof(all) - off,
						"%s%s:%" PRId64, off ? ";" : "",
						name, sum);
	}
	fclose(f);
	crb_emit(&w, CRB_meta, "key=irq_timer value=%" PRId64, timer);
	crb_emit(&w, CRB_meta, "key=irq_local_timer value=%" PRId64, local);
	crb_emit(&w, CRB_meta, "key=irq_devices value=%" PRId64, devices);
	if (all[0])
		crb_emit(&w, CRB_meta, "key=interrupts value=%s",
			 crb_escape(esc, sizeof(esc), all));
}

/*
 * The jitter trial's log lines (kernel patch 0005): its first result and
 * each change of outcome, or that random.no_cycle_counter skipped it. A
 * handful per boot at most; kept until the printk offset is known.
 */
#define JITTER_PREFIX "random: jitter trial: "
#define MAX_JITTER_LINES 8

struct jitter_line {
	unsigned long long us;
	unsigned int differed, of, per_bit, max;
	int passed; /* 1 running, 0 giving up, -1 skipped */
};

static int parse_jitter(const char *msg, struct jitter_line *j)
{
	char outcome[16];

	msg += strlen(JITTER_PREFIX);
	if (!strncmp(msg, "skipped", 7)) {
		j->passed = -1;
		return 0;
	}
	if (sscanf(msg,
		   "%u of %u samples differed, %u per bit (at most %u): %15[a-z ]",
		   &j->differed, &j->of, &j->per_bit, &j->max, outcome) != 5)
		return -1;
	if (!strcmp(outcome, "running"))
		j->passed = 1;
	else if (!strcmp(outcome, "giving up"))
		j->passed = 0;
	else
		return -1;
	return 0;
}

static void emit_jitter(const struct jitter_line *j, int n, int64_t offset)
{
	for (int i = 0; i < n; i++) {
		int64_t t = (int64_t)j[i].us * 1000 - offset;

		if (j[i].passed < 0)
			crb_emit(&w, CRB_event,
				 "name=jitter-skipped t_ns=%" PRId64,
				 t > 0 ? t : 0);
		else
			crb_emit(
				&w, CRB_event,
				"name=jitter-trial t_ns=%" PRId64
				" differed=%u of=%u per_bit=%u max=%u passed=%d",
				t > 0 ? t : 0, j[i].differed, j[i].of,
				j[i].per_bit, j[i].max, j[i].passed);
	}
}

/*
 * The fast pool's mixes into the input pool before the CRNG was ready
 * (kernel patch 0007): each with its interrupt count, the bits it
 * credited, and whether 1024 interrupts or a second since the last mix
 * made it. What shows when interrupt entropy is credited: a 32-bit
 * kernel's first mix waits for 1024 interrupts or ~301 s (its jiffies
 * start 300 s before they wrap and the fast pool's last mix at 0).
 * Kept until the printk offset is known, as the jitter lines are.
 */
#define MIX_PREFIX "random: fast pool mix: "
#define MAX_MIX_LINES 2048

struct mix_line {
	unsigned long long us;
	unsigned int cpu, count, bits;
	int by_time;
};

static int parse_mix(const char *msg, struct mix_line *m)
{
	char by[8];

	if (sscanf(msg + strlen(MIX_PREFIX),
		   "cpu %u, %u interrupts, %u bits, by %7[a-z]", &m->cpu,
		   &m->count, &m->bits, by) != 4)
		return -1;
	if (!strcmp(by, "time"))
		m->by_time = 1;
	else if (!strcmp(by, "count"))
		m->by_time = 0;
	else
		return -1;
	return 0;
}

static void emit_mixes(const struct mix_line *m, int n, int64_t offset)
{
	for (int i = 0; i < n; i++) {
		int64_t t = (int64_t)m[i].us * 1000 - offset;

		crb_emit(&w, CRB_event,
			 "name=mix t_ns=%" PRId64
			 " cpu=%u count=%u bits=%u by_time=%d",
			 t > 0 ? t : 0, m[i].cpu, m[i].count, m[i].bits,
			 m[i].by_time);
	}
}

/*
 * A clocksource's registration line, "NAME: mask: 0x... max_cycles: 0x...,
 * max_idle_ns: N ns" (__clocksource_update_freq_scale()): the guest's own
 * word on its rate, which the runner derives (report.c). /dev/kmsg has it
 * where a quiet console does not (q800).
 */
static void emit_clocksource(const char *msg, unsigned long long usec)
{
	char name[32], esc[100];
	unsigned long long mask, max_cycles, max_idle_ns;

	if (sscanf(msg,
		   "%31[^: ]: mask: 0x%llx max_cycles: 0x%llx, max_idle_ns: %llu ns",
		   name, &mask, &max_cycles, &max_idle_ns) != 4)
		return;
	crb_emit(
		&w, CRB_event,
		"name=clocksource t_ns=%llu cs=%s max_cycles=%llu max_idle_ns=%llu",
		usec * 1000ULL, crb_escape(esc, sizeof(esc), name), max_cycles,
		max_idle_ns);
}

void emit_kmsg(void)
{
	char rec[2048];
	int64_t mark = kmsg_mark(), offset = 0;
	unsigned long long ready_us = 0;
	struct jitter_line jitter[MAX_JITTER_LINES];
	static struct mix_line mix[MAX_MIX_LINES];
	int njitter = 0, nmix = 0, have_ready = 0,
	    fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	for (;;) {
		unsigned long long usec;
		char *msg;
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: keep reading */
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg || sscanf(rec, "%*u,%*u,%llu", &usec) != 1)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (!strncmp(msg, "random: crng init done", 22)) {
			ready_us = usec;
			have_ready = 1;
		} else if (!strcmp(msg, KMSG_SYNC) && mark > 0) {
			offset = (int64_t)usec * 1000 - mark;
			crb_emit(&w, CRB_meta,
				 "key=printk_offset_ns value=%" PRId64, offset);
		} else if (!strncmp(msg, "clocksource: ", 13)) {
			emit_clocksource(msg + 13, usec);
		} else if (!strncmp(msg, JITTER_PREFIX,
				    strlen(JITTER_PREFIX))) {
			if (njitter < MAX_JITTER_LINES &&
			    !parse_jitter(msg, &jitter[njitter])) {
				jitter[njitter].us = usec;
				njitter++;
			}
		} else if (!strncmp(msg, MIX_PREFIX, strlen(MIX_PREFIX))) {
			if (nmix < MAX_MIX_LINES &&
			    !parse_mix(msg, &mix[nmix])) {
				mix[nmix].us = usec;
				nmix++;
			}
		} else if (strstr(msg, "uninitialized urandom read")) {
			char comm[64], esc[200];

			if (sscanf(msg, "random: %63[^:]:", comm) == 1)
				crb_emit(
					&w, CRB_event,
					"name=urandom-warning t_ns=%llu comm=%s",
					usec * 1000ULL,
					crb_escape(esc, sizeof(esc), comm));
		}
	}
	close(fd);
	emit_jitter(jitter, njitter, offset);
	emit_mixes(mix, nmix, offset);
	/* t_ns on CLOCK_BOOTTIME like every guest time; printk_ns as logged. */
	if (have_ready) {
		int64_t t = (int64_t)ready_us * 1000 - offset;

		/* Ready before timekeeping started (RDRAND, seed): time 0. */
		crb_emit(&w, CRB_ready,
			 "src=kmsg t_ns=%" PRId64 " printk_ns=%llu",
			 t > 0 ? t : 0, ready_us * 1000ULL);
	}
}
