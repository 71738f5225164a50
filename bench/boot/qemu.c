// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU's command line for one boot, built from the cell, the machine's row
 * (arch.c) and the accelerator's (accel.c); and the questions the runner
 * asks before the first boot: does QEMU take this -cpu, its version, the
 * host's TSC rate, can /dev/kvm run a VM.
 */
#define _GNU_SOURCE
#include "qemu.h"
#include "../machines/accel.h"
#include "../machines/arch.h"
#include "../ground/util.h"
#include "../../guest-image/record.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/kvm.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* The kernel command line, built word by word up to KERNEL_CMDLINE_MAX. */
struct kcmd {
	char buf[KERNEL_CMDLINE_MAX];
	size_t len;
	int overflow;
};

static void __attribute__((format(printf, 2, 3)))
kcmd_add(struct kcmd *k, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (k->len && k->len < sizeof(k->buf) - 1)
		k->buf[k->len++] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(k->buf + k->len, sizeof(k->buf) - k->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(k->buf) - k->len) {
		k->overflow = 1;
		k->len = sizeof(k->buf) - 1;
		return;
	}
	k->len += (size_t)n;
}

/*
 * PREFIX then a path inside one QEMU option list (-chardev ...,path=X): a
 * comma there would end the value and start another option, and QEMU reads
 * ",," as one comma. A results directory named "out,x" is legal.
 */
static void argv_add_opt_path(struct argv_buf *a, const char *prefix,
			      const char *path)
{
	size_t n = strlen(path), commas = 0;
	char *v;

	for (size_t i = 0; i < n; i++)
		commas += path[i] == ',';
	v = malloc(n + commas + 1);
	if (!v) {
		a->overflow = 1;
		return;
	}
	for (size_t i = 0, o = 0; i <= n; i++) {
		v[o++] = path[i];
		if (path[i] == ',')
			v[o++] = ',';
	}
	argv_add(a, "%s%s", prefix, v);
	free(v);
}

/* What the guest is told on its command line: RNG knobs and crngbench_*. */
static void kernel_cmdline(const struct cell *c, const struct accel *acc,
			   const struct arch *ar, const struct boot_params *p,
			   struct kcmd *k)
{
	char reads[MAX_VALUE_LEN];

	kcmd_add(k, "console=%s panic=-1", ar->console);
	if (ar->channel_console)
		kcmd_add(k, "quiet");
	if (ar->x86) {
		kcmd_add(k, "reboot=t");
		if (acc->host_tsc_hint && p->tsc_khz > 0)
			kcmd_add(k, "tsc_early_khz=%ld tsc=reliable",
				 p->tsc_khz);
		if (acc->cmdline)
			kcmd_add(k, "%s", acc->cmdline);
		/*
		 * Under icount QEMU's TSC is the virtual clock in ns
		 * (cpu_get_tsc() -> icount_get()): 1 GHz at every shift,
		 * only the instructions slow down. Told 10^9 / 2^shift,
		 * the kernel's clock ran 2^shift times fast (the PIT
		 * calibrates it at 1000 MHz at shift 3 and 5).
		 */
		if (acc->icount)
			kcmd_add(k, "tsc_early_khz=1000000 tsc=reliable");
		/* The tick: the PIT when the LAPIC timer is switched off. */
		if (!strcmp(accel_timer(c->v[AX_accel], c->v[AX_timer]), "pit"))
			kcmd_add(k, "noapictimer");
	} else {
		kcmd_add(k, CRB_SET_INIT "=" CRB_INIT_PROBE_ONLY);
	}
	if (ar->cpu_rng)
		kcmd_add(k, "random.trust_cpu=%s", c->v[AX_trust_cpu]);
	/* A seed from QEMU (m68k boot info, malta's rngseed, ARM virt's
	 * /chosen/rng-seed) is mixed in either way; credited only with on. */
	kcmd_add(k, "random.trust_bootloader=%s", c->v[AX_bootseed]);
	if (!strcmp(c->v[AX_nocounter], "on"))
		kcmd_add(k, "random.no_cycle_counter=1");
	if (!strcmp(c->v[AX_trace], "on"))
		kcmd_add(
			k,
			"ftrace=function_graph ftrace_filter=urandom_read_iter,random_read_iter,__x64_sys_getrandom"
			" trace_clock=boot trace_buf_size=256K");
	kcmd_add(k,
		 CRB_SET_OUT "=%s " CRB_SET_READ_TIMEOUT
			     "=%d " CRB_SET_READY_TIMEOUT "=%d",
		 ar->channel, p->read_timeout_s, p->ready_timeout_s);
	/* The matrix joins reads with ':', the probe with ','. */
	snprintf(reads, sizeof(reads), "%s", c->v[AX_reads]);
	for (char *q = reads; *q; q++)
		if (*q == ':')
			*q = ',';
	if (strcmp(reads, "none"))
		kcmd_add(k, CRB_SET_READS "=%s", reads);
	/* early=pid1 is the probe's default: those lines stay as they were. */
	if (!strcmp(c->v[AX_early], "child"))
		kcmd_add(k, CRB_SET_EARLY "=" CRB_EARLY_CHILD);
	/* waiters=0 is the probe's default: those lines stay as they were. */
	if (strcmp(c->v[AX_waiters], "0"))
		kcmd_add(k, CRB_SET_WAITERS "=%s", c->v[AX_waiters]);
	if (p->seed_hex)
		kcmd_add(k, CRB_SET_SEED "=%s", p->seed_hex);
	if (p->append && *p->append)
		kcmd_add(k, "%s", p->append);
}

/* The result channel's device, beside the console's serial line. */
static void channel_device(const struct arch *ar, struct argv_buf *a)
{
	if (ar->x86) {
		argv_add(a, "-device");
		argv_add(a, "isa-serial,chardev=res,iobase=0x2f8,irq=3");
	} else if (ar->channel_virtio) {
		argv_add(a, "-device");
		argv_add(a, "virtio-serial-device");
		argv_add(a, "-device");
		argv_add(a, "virtconsole,chardev=res");
	} else {
		argv_add(a, "-serial");
		argv_add(a, "chardev:res");
	}
}

/* The machine, its devices and channels: the same for every accelerator. */
static void machine_args(const struct cell *c, const struct arch *ar,
			 const struct boot_params *p, struct argv_buf *a)
{
	argv_add(a, "-cpu");
	argv_add(a, "%s", arch_cpu(ar, c->v[AX_cpu]));
	argv_add(a, "-smp");
	argv_add(a, "%s", c->v[AX_smp]);
	argv_add(a, "-m");
	argv_add(a, "256");
	argv_add(a, "-nodefaults");
	argv_add(a, "-no-user-config");
	argv_add(a, "-display");
	argv_add(a, "none");
	argv_add(a, "-no-reboot");
	/* rtc=fixed: one date for every boot, on the virtual clock. */
	if (!strcmp(c->v[AX_rtc], "fixed")) {
		argv_add(a, "-rtc");
		argv_add(a, "base=" RTC_FIXED_DATE ",clock=vm");
	} else if (ar->rtc_vm) {
		argv_add(a, "-rtc");
		argv_add(a, "clock=vm");
	}
	argv_add(a, "-nic");
	argv_add(a, "none");
	argv_add(a, "-kernel");
	argv_add(a, "%s", p->kernel);
	if (p->dtb) {
		argv_add(a, "-dtb");
		argv_add(a, "%s", p->dtb);
	}
	argv_add(a, "-initrd");
	argv_add(a, "%s", p->image);
	/* Console to a log file; the result channel to our pipe. */
	if (ar->channel_console) {
		/* One line for both: QEMU copies it to the console log. */
		argv_add(a, "-chardev");
		argv_add_opt_path(
			a, "stdio,id=res,signal=off,logfile=", p->console_path);
		argv_add(a, "-serial");
		argv_add(a, "chardev:res");
	} else {
		argv_add(a, "-chardev");
		argv_add_opt_path(a, "file,id=con,path=", p->console_path);
		argv_add(a, "-serial");
		argv_add(a, "chardev:con");
		argv_add(a, "-chardev");
		argv_add(a, "stdio,id=res,signal=off");
		channel_device(ar, a);
	}
	if (!strcmp(c->v[AX_virtio_rng], "on")) {
		argv_add(a, "-object");
		argv_add(a, "rng-random,id=rng0,filename=/dev/urandom");
		argv_add(a, "-device");
		argv_add(a, "virtio-rng-device,rng=rng0");
	}
}

int qemu_build_argv(const struct cell *c, const struct boot_params *p,
		    struct argv_buf *a, char *err, size_t errlen)
{
	const struct accel *acc = accel_find(c->v[AX_accel]);
	const struct arch *ar = arch_find(c->v[AX_arch]);
	struct kcmd k = { .len = 0 };

	if (!acc)
		return err_set(err, errlen, "accel=%s: accepted values are %s",
			       c->v[AX_accel], accel_list());
	if (!ar)
		return err_set(err, errlen, "arch=%s: accepted values are %s",
			       c->v[AX_arch], arch_list());
	if (p->perf_out) {
		argv_add(a, "perf");
		argv_add(a, "stat");
		argv_add(a, "-x,");
		argv_add(a, "-e");
		argv_add(a, "task-clock,context-switches");
		argv_add(a, "-o");
		argv_add(a, "%s", p->perf_out);
		argv_add(a, "--");
	}
	argv_add(a, "%s", ar->qemu ? ar->qemu : p->qemu);
	argv_add(a, "-M");
	if (ar->seed_off && !strcmp(c->v[AX_bootseed], "off"))
		argv_add(a, "%s,%s", ar->machine, ar->seed_off);
	else
		argv_add(a, "%s", ar->machine);
	argv_add(a, "-accel");
	argv_add(a, "%s", acc->qemu_accel);
	for (const char *const *x = acc->qemu_args; *x; x++)
		argv_add(a, "%s", *x);
	if (acc->icount) {
		argv_add(a, "-icount");
		argv_add(a, "%s", p->icount);
	}
	machine_args(c, ar, p, a);
	kernel_cmdline(c, acc, ar, p, &k);
	if (k.overflow) {
		argv_free(a);
		return err_set(
			err, errlen,
			"the kernel command line would be longer than %d bytes (x86's COMMAND_LINE_SIZE; the kernel would cut it): shorten --append",
			KERNEL_CMDLINE_MAX - 1);
	}
	if (ar->cmdline_max && k.len > (size_t)ar->cmdline_max) {
		argv_free(a);
		return err_set(
			err, errlen,
			"arch=%s: the kernel command line of this cell is %zu bytes, and this machine's boot loader passes at most %d (QEMU would cut the rest, crngbench_* settings with it): exclude the cell or shorten --append",
			ar->name, k.len, ar->cmdline_max);
	}
	argv_add(a, "-append");
	argv_add(a, "%s", k.buf);
	for (char *const *x = p->qemu_args; x && *x; x++)
		argv_add(a, "%s", *x);
	if (a->overflow) {
		argv_free(a);
		return err_set(
			err, errlen,
			"the QEMU command line has more than %d arguments: fewer --qemu-arg",
			ARGV_MAX - 1);
	}
	return 0;
}

long host_tsc_khz(void)
{
#if defined(__x86_64__) || defined(__i386__)
	struct timespec a, b, d = { 0, 50 * 1000 * 1000 };
	unsigned long long t0, t1;
	double ns;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __rdtsc();
	nanosleep(&d, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	t1 = __rdtsc();
	ns = (double)(b.tv_sec - a.tv_sec) * 1e9 +
	     (double)(b.tv_nsec - a.tv_nsec);
	if (ns <= 0 || t1 <= t0)
		return 0;
	return (long)((double)(t1 - t0) / ns * 1e6 + 0.5);
#else
	return 0;
#endif
}

int qemu_check_cpu(const char *qemu, const struct arch *ar, const char *kernel,
		   const char *accel, const char *cpu, const char *icount,
		   char *err, size_t errlen)
{
	const struct accel *acc = accel_find(accel);
	struct argv_buf a = { .n = 0 };
	int rc;

	argv_add(&a, "%s", ar->qemu ? ar->qemu : qemu);
	argv_add(&a, "-M");
	argv_add(&a, "%s", ar->machine);
	argv_add(&a, "-accel");
	argv_add(&a, "%s", acc ? acc->qemu_accel : accel);
	for (const char *const *x = acc ? acc->qemu_args : NULL; x && *x; x++)
		argv_add(&a, "%s", *x);
	if (acc && acc->icount) {
		argv_add(&a, "-icount");
		argv_add(&a, "%s", icount);
	}
	argv_add(&a, "-cpu");
	argv_add(&a, "%s", arch_cpu(ar, cpu));
	argv_add(&a, "-nodefaults");
	argv_add(&a, "-no-user-config");
	argv_add(&a, "-display");
	argv_add(&a, "none");
	/* q800 without a kernel wants a Mac ROM; -S runs none of it. */
	if (kernel) {
		argv_add(&a, "-kernel");
		argv_add(&a, "%s", kernel);
	}
	argv_add(&a, "-S");
	argv_add(&a, "-monitor");
	argv_add(&a, "stdio");
	rc = a.overflow ? -1 : run_quick(a.v, "quit\n", 20, err, errlen);
	argv_free(&a);
	if (rc == 0)
		return 0;
	/* The monitor's banner is not the reason; QEMU's error line is. */
	{
		char *e = strstr(err, "qemu-system");

		if (!e)
			e = err;
		e[strcspn(e, "\n")] = '\0';
		memmove(err, e, strlen(e) + 1);
	}
	if (!err[0])
		snprintf(err, errlen, "QEMU exited with status %d", rc);
	return -1;
}

/* Is flag one of the space-separated words of flags? */
static int has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = flags; p && *p; p += strcspn(p, " ")) {
		p += strspn(p, " ");
		if (!strncmp(p, flag, n) && (p[n] == ' ' || !p[n]))
			return 1;
	}
	return 0;
}

void kvm_remedy(enum kvm_stage stage, int e, const char *flags,
		const char *group, char *buf, size_t len)
{
	int vmx = has_flag(flags, "vmx"), svm = has_flag(flags, "svm");

	if (stage == KVM_OPEN && e == ENOENT && (vmx || svm))
		text_printf(
			buf, len,
			"the CPU has %s but no KVM module is loaded: as root, modprobe %s",
			vmx ? "VT-x (vmx)" : "AMD-V (svm)",
			vmx ? "kvm_intel" : "kvm_amd");
	else if (stage == KVM_OPEN && e == ENOENT &&
		 has_flag(flags, "hypervisor"))
		text_printf(
			buf, len,
			"this is a VM whose CPU shows no vmx or svm flag: enable nested virtualization on its host (kvm_intel or kvm_amd nested=1) and give the VM a CPU model with vmx/svm (-cpu host), then modprobe kvm_intel or kvm_amd in it");
	else if (stage == KVM_OPEN && e == ENOENT)
		text_printf(
			buf, len,
			"the CPU shows no vmx or svm flag: enable virtualization (VT-x, AMD-V/SVM) in the firmware setup, then modprobe kvm_intel or kvm_amd as root");
	else if (stage == KVM_OPEN && (e == EACCES || e == EPERM))
		text_printf(
			buf, len,
			"join /dev/kvm's group: as root, usermod -aG %s USER, then log in again (or run as root)",
			group && *group ? group : "kvm");
	else if (stage == KVM_CREATE && e == EBUSY)
		text_printf(
			buf, len,
			"another hypervisor (VirtualBox, VMware) holds the CPU's virtualization: stop it");
	else if (stage == KVM_CANARY)
		text_printf(
			buf, len,
			"KVM opens but the guest does not run: in a VM, enable nested virtualization on its host (cat /sys/module/kvm_intel/parameters/nested there says Y) and give the VM the host's CPU model; or leave kvm out (ACCELS=tcg,icount)");
	else
		text_printf(
			buf, len,
			"the kernel's log says why (dmesg | grep -i kvm); in a VM, enable nested virtualization on its host");
}

/* The first CPU's flags (/proc/cpuinfo), "" if unknown. */
static void cpu_flags(char *buf, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	while (f && getline(&line, &cap, f) > 0)
		if (!strncmp(line, "flags", 5) && strchr(line, ':')) {
			text_printf(buf, len, "%s", strchr(line, ':') + 1);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	free(line);
	if (f)
		fclose(f);
}

/* why, and what would fix it (kvm_remedy) into fix; returns -1. */
static int kvm_failed(enum kvm_stage stage, int e, char *fix, size_t fixlen)
{
	char flags[4096], group[64] = "";
	struct stat st;
	struct group *g;

	cpu_flags(flags, sizeof(flags));
	if (!stat("/dev/kvm", &st) && (g = getgrgid(st.st_gid)))
		text_printf(group, sizeof(group), "%s", g->gr_name);
	kvm_remedy(stage, e, flags, group, fix, fixlen);
	return -1;
}

int kvm_device_check(char *why, size_t whylen, char *fix, size_t fixlen)
{
	int fd, api, vmfd, e;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		err_set(why, whylen,
			e == ENOENT ? "/dev/kvm does not exist" :
			e == EACCES ? "/dev/kvm: permission denied" :
				      "/dev/kvm: %s",
			strerror(e));
		return kvm_failed(KVM_OPEN, e, fix, fixlen);
	}
	api = ioctl(fd, KVM_GET_API_VERSION, 0);
	if (api != KVM_API_VERSION) {
		close(fd);
		err_set(why, whylen, "/dev/kvm: API version %d, expected %d",
			api, KVM_API_VERSION);
		return kvm_failed(KVM_API, 0, fix, fixlen);
	}
	vmfd = ioctl(fd, KVM_CREATE_VM, 0);
	if (vmfd < 0) {
		e = errno;
		err_set(why, whylen, "/dev/kvm: KVM_CREATE_VM failed: %s",
			strerror(e));
		close(fd);
		return kvm_failed(KVM_CREATE, e, fix, fixlen);
	}
	close(vmfd);
	close(fd);
	return 0;
}
