// SPDX-License-Identifier: GPL-2.0
/*
 * classify_boot(): one boot's status from what the host knows of it. The
 * channel bytes are a real boot's (tests/fixtures/block-qemu64.result); the
 * console logs are written here, one line each.
 */
#define _GNU_SOURCE
#include "../../bench/rows/classify.h"
#include "../../bench/boot/qemu.h"
#include "../../guest-image/record.h"
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char chan[1 << 16];
static size_t chan_len;
static char dir[] = "/tmp/crngbench-classify.XXXXXX";

static void console(const char *text)
{
	char path[sizeof(dir) + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/console.log", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *accel = "";

static void classify(struct boot_facts *f, struct row *r, size_t cut)
{
	struct strbuf reads = { 0 }, traces = { 0 };

	f->dir = dir;
	f->chan = chan;
	f->chan_len = cut;
	if (!f->err)
		f->err = "";
	f->timeout_s = 25;
	row_init(r);
	r->axis[AX_accel] = accel;
	classify_boot(f, r, &reads, &traces);
	sb_free(&reads);
	sb_free(&traces);
}

/*
 * A boot the runner killed at its 25 s host timeout: the channel cut at
 * marker (keep bytes of it kept), the console showing console_line, under
 * the current accel. 0, or -1 when the fixture lacks the marker.
 */
static int killed_at(const char *marker, size_t keep, const char *console_line,
		     struct row *r)
{
	const char *p = strstr(chan, marker);
	struct boot_facts f = { .timed_out = 1, .t_exit = 25000000000 };

	CHECK(p != NULL); /* the fixture must hold the line cut at */
	if (!p)
		return -1;
	console(console_line);
	classify(&f, r, (size_t)(p - chan) + keep);
	return 0;
}

static void complete_boot_ok(void)
{
	struct boot_facts f = { .t_exit = 3000000000 };
	struct row r;

	console("[    1.0] random: crng init done\n");
	classify(&f, &r, chan_len);
	CHECK(!strcmp(r.status, "ok"));
	CHECK(r.host_exit_ns == 3000000000 && r.first_urandom_dur_ns > 0);
}

/* perf.csv as perf stat -x, writes it; a value past int64 (a run's file
 * from elsewhere, --rescan) is no figure, never an undefined cast. */
static void perf_numbers_in_range(void)
{
	static const char *const cases[][3] = {
		{ "12.5,msec,task-clock,1,100.00\n7,,context-switches\n",
		  "12500000", "7" },
		{ "1e300,msec,task-clock\n1e300,,context-switches\n", "-1",
		  "-1" },
		{ "-5,msec,task-clock\nnan,,context-switches\n", "-1", "-1" },
	};
	char path[sizeof(dir) + 16], want[2][24];

	snprintf(path, sizeof(path), "%s/perf.csv", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct boot_facts f = { .t_exit = 3000000000, .perf = 1 };
		struct row r;
		FILE *p = fopen(path, "w");

		CHECK(p && fputs(cases[i][0], p) >= 0 && !fclose(p));
		console("[    1.0] random: crng init done\n");
		classify(&f, &r, chan_len);
		snprintf(want[0], sizeof(want[0]), "%lld",
			 (long long)r.host_task_clock_ns);
		snprintf(want[1], sizeof(want[1]), "%lld",
			 (long long)r.host_ctx_switches);
		CHECK(!strcmp(want[0], cases[i][1]) &&
		      !strcmp(want[1], cases[i][2]));
	}
	unlink(path);
}

/* Killed at the timeout in its first read, the kernel never ready: censored. */
static void hung_in_read_is_censored(void)
{
	struct row r;

	if (killed_at("\nread iface=urandom ", 1,
		      "[    0.5] Run /init as init process\n", &r))
		return;
	CHECK(!strcmp(r.status, "censored"));
	CHECK(strstr(r.reason, "last record: reading iface=urandom") != NULL);
	CHECK(r.crng_ready_censored == 1 && r.first_urandom_censored == 1);
	CHECK(r.first_urandom_end_ns == 25000000000LL);
}

/*
 * Under icount guest time is not host time: a boot killed at the host's
 * timeout after its probe, still waiting, is censored at the last guest
 * time its records name, not at the host's 25 s.
 */
static void icount_hang_censored_at_guest_time(void)
{
	struct row r;
	int cut;

	accel = "icount";
	cut = killed_at("crngbench/1 seg=report", 0,
			"[    0.5] Run /init as init process\n", &r);
	accel = "";
	if (cut)
		return;
	CHECK(!strcmp(r.status, "censored"));
	CHECK(strstr(r.reason, "25 s of host time") != NULL);
	CHECK(r.first_urandom_end_ns > 0 && r.crng_ready_censored == 1);
	CHECK(r.crng_ready_bound_ns >= r.first_urandom_end_ns &&
	      r.crng_ready_bound_ns < 25000000000LL);
}

/* The same hang, but the kernel said it was ready: a timeout, not data. */
static void hung_after_ready_is_timeout(void)
{
	struct row r;

	if (killed_at("\nread iface=urandom ", 1,
		      "[    1.0] random: crng init done\n", &r))
		return;
	CHECK(!strcmp(r.status, "timeout"));
	CHECK(r.crng_ready_censored != 1);
}

static void panic_wins_over_timeout(void)
{
	struct boot_facts f = { .timed_out = 1, .t_exit = 25000000000 };
	struct row r;

	console("[    0.3] Kernel panic - not syncing: VFS\n");
	classify(&f, &r, 0);
	CHECK(!strcmp(r.status, "panic"));
	CHECK(strstr(r.reason, "Kernel panic") != NULL);
}

static void qemu_failing_at_once(void)
{
	struct boot_facts f = { .t_exit = 40000000,
				.qemu_exit = 1,
				.err = "qemu: bad -cpu\nmore\n" };
	struct row r;

	console("");
	classify(&f, &r, 0);
	CHECK(!strcmp(r.status, "qemu-failed"));
	CHECK(!strcmp(r.reason, "QEMU exited with status 1: qemu: bad -cpu"));
	CHECK(r.qemu_exit == 1 && r.qemu_signal == -1);
}

/* QEMU killed by a signal the runner did not send, mid-report: not corrupt. */
static void qemu_crash_is_qemu_failed(void)
{
	struct boot_facts f = { .t_exit = 2000000000,
				.qemu_exit = -1,
				.qemu_signal = 11 };
	struct row r;

	console("[    1.0] random: crng init done\n");
	classify(&f, &r, chan_len / 2);
	CHECK(!strcmp(r.status, "qemu-failed"));
	CHECK(strstr(r.reason, "signal 11") != NULL && r.qemu_signal == 11);
}

/* A complete report but QEMU exited 0 long after: still ok (exit 0). */
static void exit_zero_after_report_is_ok(void)
{
	struct boot_facts f = { .t_exit = 9000000000, .qemu_exit = 0 };
	struct row r;

	console("[    1.0] random: crng init done\n");
	classify(&f, &r, chan_len);
	CHECK(!strcmp(r.status, "ok") && r.qemu_exit == 0);
	CHECK(r.crng_ready_ns >= 0 && r.crng_ready_src[0]);
}

static void flood_is_corrupt(void)
{
	struct boot_facts f = { .t_exit = 3000000000, .chan_dropped = 12345 };
	struct row r;

	console("[    1.0] random: crng init done\n");
	classify(&f, &r, chan_len);
	CHECK(!strcmp(r.status, "corrupt"));
	CHECK(strstr(r.reason, "flooded: 12345 bytes") != NULL);
}

static void torn_report_is_corrupt(void)
{
	struct boot_facts f = { .t_exit = 3000000000 };
	struct row r;

	console("[    1.0] random: crng init done\n");
	classify(&f, &r, chan_len - 10);
	CHECK(!strcmp(r.status, "corrupt"));
}

/*
 * The runner stalled 3 s from 1 s after QEMU's spawn (RUNNER_STALL_FILE):
 * the boot keeps its status, its host times from then on are left out,
 * its reason says why.
 */
static void runner_stall_leaves_host_times_out(void)
{
	struct boot_facts f = { .t_first_byte = 500000000,
				.t_urandom = 1500000000,
				.t_report = 2500000000,
				.t_exit = 4000000000 };
	char path[sizeof(dir) + 32];
	struct row r;
	FILE *s;

	snprintf(path, sizeof(path), "%s/" RUNNER_STALL_FILE, dir);
	s = fopen(path, "w");
	CHECK(s != NULL);
	if (!s)
		return;
	fputs("3000000000 1000000000\n", s);
	fclose(s);
	console("[    1.0] random: crng init done\n");
	classify(&f, &r, chan_len);
	unlink(path);
	CHECK(!strcmp(r.status, "ok"));
	CHECK(strstr(r.reason, "runner stalled 3.0 s") != NULL);
	CHECK(r.host_first_byte_ns == 500000000 && r.host_urandom_ns == -1 &&
	      r.host_report_ns == -1 && r.host_exit_ns == -1);
}

/* A console.log the runner cut at its cap: corrupt, whatever the channel. */
static void flooded_console_is_corrupt(void)
{
	struct boot_facts f = { .t_exit = 3000000000 };
	char path[sizeof(dir) + 16];
	struct row r;

	console("[    1.0] random: crng init done\n");
	snprintf(path, sizeof(path), "%s/console.log", dir);
	CHECK(truncate(path, VM_CONSOLE_MAX) == 0);
	classify(&f, &r, chan_len);
	CHECK(!strcmp(r.status, "corrupt") &&
	      strstr(r.reason, "console flooded") != NULL);
}

/* The KVM canary's reason: QEMU's error, how it ended, or no progress. */
static void canary_reason_skips_warnings(void)
{
	const char *warn =
		"qemu-system-x86_64: warning: host doesn't support requested feature: CPUID.01H:ECX.pni [bit 0]\n";
	char err[512], why[512];

	canary_reason(warn, 0, 0, 15, 1, why, sizeof(why));
	CHECK(strstr(why,
		     "KVM canary boot made no progress: /dev/kvm passed its checks, but the guest printed nothing in 15 s") ==
	      why);
	CHECK(strstr(why, "QEMU only warned: host doesn't support") != NULL);
	snprintf(err, sizeof(err), "%s%s", warn,
		 "qemu-system-x86_64: error: failed to set MSR 0x38d to 0x0\n");
	canary_reason(err, 1, 6, 15, 1, why, sizeof(why));
	CHECK(!strcmp(
		why,
		"KVM canary boot failed: QEMU said: qemu-system-x86_64: error: failed to set MSR 0x38d to 0x0"));
	snprintf(
		err, sizeof(err), "%s%s", warn,
		"qemu-system-x86_64: Could not access KVM kernel module: Permission denied\n");
	canary_reason(err, 1, 1 << 8, 15, 1, why, sizeof(why));
	CHECK(!strcmp(
		why,
		"KVM canary boot failed: QEMU exited with status 1: qemu-system-x86_64: Could not access KVM kernel module: Permission denied"));
}

/* What would make KVM usable: said for each way it fails. */
static void kvm_remedy_says_the_fix(void)
{
	char fix[512];

	kvm_remedy(KVM_OPEN, ENOENT, "fpu vme vmx sse", "kvm", fix,
		   sizeof(fix));
	CHECK(strstr(fix, "modprobe kvm_intel") != NULL);
	kvm_remedy(KVM_OPEN, ENOENT, "fpu svm", "kvm", fix, sizeof(fix));
	CHECK(strstr(fix, "modprobe kvm_amd") != NULL);
	kvm_remedy(KVM_OPEN, ENOENT, "fpu sse hypervisor", NULL, fix,
		   sizeof(fix));
	CHECK(strstr(fix, "nested virtualization") != NULL);
	/* a word that holds "vmx" is not the flag */
	kvm_remedy(KVM_OPEN, ENOENT, "fpu vmxx", NULL, fix, sizeof(fix));
	CHECK(strstr(fix, "in the firmware setup") != NULL);
	kvm_remedy(KVM_OPEN, EACCES, "vmx", "kvmusers", fix, sizeof(fix));
	CHECK(strstr(fix, "usermod -aG kvmusers USER") != NULL);
	kvm_remedy(KVM_CREATE, EBUSY, "vmx", "kvm", fix, sizeof(fix));
	CHECK(strstr(fix, "another hypervisor") != NULL);
	kvm_remedy(KVM_CANARY, 0, NULL, NULL, fix, sizeof(fix));
	CHECK(strstr(fix, "nested virtualization") != NULL &&
	      strstr(fix, "ACCELS=tcg,icount") != NULL);
}

/*
 * A read kind the guest does not have (getrandom-vdso on a 6.1 kernel) is
 * recorded as unavailable (errno ENOSYS) and breaks nothing: the same
 * boot, its probe segment with such a read first, is still ok.
 */
static void unavailable_read_is_not_a_failure(void)
{
	static char with[sizeof(chan) + 512];
	const char *report = strstr(chan, "crngbench/1 seg=report");
	struct boot_facts f = { .t_exit = 3000000000 };
	struct crb_writer w;
	FILE *tmp = tmpfile();
	size_t n;
	long got;
	struct row r;

	CHECK(report != NULL && tmp != NULL);
	if (!report || !tmp)
		return;
	crb_begin(&w, fileno(tmp), "probe");
	crb_emit(
		&w, CRB_read,
		"iface=getrandom-vdso start_ns=900000000 dur_ns=0 bytes=0 errno=38 timed_out=0 status=unavailable why=x");
	crb_emit(
		&w, CRB_read,
		"iface=urandom start_ns=900000001 dur_ns=5 bytes=32 errno=0 timed_out=0 digest=0123456789abcdef");
	crb_emit(
		&w, CRB_probe,
		"start_ns=800000000 start_mono_ns=1 exec_ns=900000010 reads_ns=5 overhead_ns=5");
	CHECK(crb_end(&w) == 0);
	got = ftell(tmp);
	rewind(tmp);
	n = got > 0 ? fread(with, 1, (size_t)got, tmp) : 0;
	fclose(tmp);
	CHECK(got > 0 && n == (size_t)got);
	memcpy(with + n, report, chan_len - (size_t)(report - chan));
	n += chan_len - (size_t)(report - chan);
	console("[    1.0] random: crng init done\n");
	f.dir = dir;
	f.chan = with;
	f.chan_len = n;
	f.err = "";
	f.timeout_s = 25;
	row_init(&r);
	{
		struct strbuf reads = { 0 }, traces = { 0 };

		classify_boot(&f, &r, &reads, &traces);
		CHECK(reads.p && strstr(reads.p, ",getrandom-vdso,") &&
		      strstr(reads.p, ",38,0,,unavailable,,\n"));
		sb_free(&reads);
		sb_free(&traces);
	}
	CHECK(!strcmp(r.status, "ok"));
	CHECK(!strcmp(r.urandom_digest, "0123456789abcdef"));
}

/*
 * early=child: the report went out while the child was still in its first
 * urandom read (early_child=unfinished, its reading record last): the boot
 * is ok, its reason says so, and the read is censored at the report's time.
 */
static void unfinished_child_is_said_and_censored(void)
{
	static char ch[4096];
	struct boot_facts f = { .t_exit = 3000000000 };
	struct strbuf reads = { 0 }, traces = { 0 };
	struct crb_writer w;
	FILE *tmp = tmpfile();
	long got;
	struct row r;

	CHECK(tmp != NULL);
	if (!tmp)
		return;
	crb_begin(&w, fileno(tmp), "probe");
	crb_emit(&w, CRB_meta, "key=early value=child");
	crb_emit(
		&w, CRB_probe,
		"start_ns=800000000 start_mono_ns=1 exec_ns=800100000 reads_ns=0 overhead_ns=100000");
	CHECK(crb_end(&w) == 0);
	crb_begin(&w, fileno(tmp), "report");
	crb_emit(&w, CRB_event,
		 "name=report t_ns=10000000000 started_ns=900000000");
	crb_emit(&w, CRB_meta, "key=early_pid value=26 deadline_ns=5800000000");
	crb_emit(&w, CRB_reading, "iface=urandom start_ns=800200000");
	crb_emit(&w, CRB_meta, "key=early_child value=unfinished");
	CHECK(crb_end(&w) == 0);
	got = ftell(tmp);
	rewind(tmp);
	CHECK(got > 0 && got < (long)sizeof(ch) &&
	      fread(ch, 1, (size_t)got, tmp) == (size_t)got);
	fclose(tmp);
	console("[    0.5] Run /init as init process\n");
	f.dir = dir;
	f.chan = ch;
	f.chan_len = got > 0 ? (size_t)got : 0;
	f.err = "";
	f.timeout_s = 25;
	row_init(&r);
	classify_boot(&f, &r, &reads, &traces);
	CHECK(!strcmp(r.status, "ok"));
	CHECK(strstr(
		r.reason,
		"the early reads' child had not finished at the report, still reading urandom"));
	CHECK(r.first_urandom_censored == 1 &&
	      r.first_urandom_end_ns == 10000000000LL &&
	      r.first_urandom_dur_ns == 10000000000LL - 800200000);
	CHECK(r.crng_ready_censored == 1 && r.first_urandom_before_ready == 0);
	sb_free(&reads);
	sb_free(&traces);
}

int main(void)
{
	FILE *f = fopen("tests/fixtures/block-qemu64.result", "rb");

	if (!f || !mkdtemp(dir)) {
		printf("FAIL: classify: fixture or temp dir missing\n");
		return 1;
	}
	chan_len = fread(chan, 1, sizeof(chan) - 1, f);
	fclose(f);
	TEST(complete_boot_ok);
	TEST(perf_numbers_in_range);
	TEST(hung_in_read_is_censored);
	TEST(icount_hang_censored_at_guest_time);
	TEST(hung_after_ready_is_timeout);
	TEST(panic_wins_over_timeout);
	TEST(qemu_failing_at_once);
	TEST(qemu_crash_is_qemu_failed);
	TEST(exit_zero_after_report_is_ok);
	TEST(flood_is_corrupt);
	TEST(torn_report_is_corrupt);
	TEST(runner_stall_leaves_host_times_out);
	TEST(flooded_console_is_corrupt);
	TEST(canary_reason_skips_warnings);
	TEST(kvm_remedy_says_the_fix);
	TEST(unavailable_read_is_not_a_failure);
	TEST(unfinished_child_is_said_and_censored);
	{
		char path[sizeof(dir) + 16];

		snprintf(path, sizeof(path), "%s/console.log", dir);
		unlink(path);
		rmdir(dir);
	}
	return check_any_failed;
}
