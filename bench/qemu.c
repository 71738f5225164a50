// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "qemu.h"
#include "../guest-image/record.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

void argv_add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (a->n >= (int)(sizeof(a->v) / sizeof(a->v[0])) - 1)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s) {
		a->v[a->n++] = s;
		a->v[a->n] = NULL;
	}
}

void argv_free(struct argv_buf *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
	a->v[0] = NULL;
}

void argv_join(const struct argv_buf *a, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < a->n && off + 4 < len; i++) {
		const char *s = a->v[i];
		int plain =
			strspn(s,
			       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%") ==
			strlen(s);

		if (i)
			buf[off++] = ' ';
		if (!plain)
			buf[off++] = '\'';
		for (; *s && off + 6 < len; s++) {
			if (*s == '\'') {
				memcpy(buf + off, "'\\''", 4);
				off += 4;
			} else {
				buf[off++] = *s;
			}
		}
		if (!plain)
			buf[off++] = '\'';
		buf[off] = '\0';
	}
}

const char *qemu_accel(const char *accel)
{
	return strcmp(accel, "icount") ? accel : "tcg";
}

void qemu_build_argv(const struct cell *c, const struct boot_params *p,
		     struct argv_buf *a)
{
	char reads[MAX_VALUE_LEN], append[2048];
	size_t off = 0;

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
	argv_add(a, "%s", p->qemu);
	/*
	 * microvm: direct kernel boot with qboot, no PCI or ACPI to set up;
	 * the fastest x86 machine type. virtio devices are virtio-mmio and
	 * QEMU adds them to the kernel command line itself.
	 */
	argv_add(a, "-M");
	argv_add(a, "microvm,x-option-roms=off,rtc=on,isa-serial=on,acpi=off");
	argv_add(a, "-accel");
	argv_add(a, "%s", qemu_accel(c->v[AX_accel]));
	/*
	 * icount: TCG where guest time is instructions (shift=0: one per
	 * virtual ns), so the host's translation work and load cost the guest
	 * no time; an idle guest jumps to its next timer (sleep=off).
	 */
	if (!strcmp(c->v[AX_accel], "icount")) {
		argv_add(a, "-icount");
		argv_add(a, "shift=0,sleep=off");
	}
	argv_add(a, "-cpu");
	argv_add(a, "%s", c->v[AX_cpu]);
	argv_add(a, "-smp");
	argv_add(a, "%s", c->v[AX_smp]);
	argv_add(a, "-m");
	argv_add(a, "256");
	argv_add(a, "-nodefaults");
	argv_add(a, "-no-user-config");
	argv_add(a, "-display");
	argv_add(a, "none");
	argv_add(a, "-no-reboot");
	argv_add(a, "-nic");
	argv_add(a, "none");
	argv_add(a, "-kernel");
	argv_add(a, "%s", p->kernel);
	argv_add(a, "-initrd");
	argv_add(a, "%s", p->image);
	/* Console to a log file; the result channel (ttyS1) to our pipe. */
	argv_add(a, "-chardev");
	argv_add(a, "file,id=con,path=%s", p->console_path);
	argv_add(a, "-serial");
	argv_add(a, "chardev:con");
	argv_add(a, "-chardev");
	argv_add(a, "stdio,id=res,signal=off");
	argv_add(a, "-device");
	argv_add(a, "isa-serial,chardev=res,iobase=0x2f8,irq=3");
	if (!strcmp(c->v[AX_virtio_rng], "on")) {
		argv_add(a, "-object");
		argv_add(a, "rng-random,id=rng0,filename=/dev/urandom");
		argv_add(a, "-device");
		argv_add(a, "virtio-rng-device,rng=rng0");
	}

	snprintf(reads, sizeof(reads), "%s", c->v[AX_reads]);
	for (char *q = reads; *q; q++)
		if (*q == ':')
			*q = ',';
#define APP(...)                                                           \
	(off +=                                                            \
	 (size_t)snprintf(append + off,                                    \
			  off < sizeof(append) ? sizeof(append) - off : 0, \
			  __VA_ARGS__))
	APP("console=ttyS0 panic=-1 reboot=t");
	if (!strcmp(c->v[AX_accel], "tcg") && p->tsc_khz > 0)
		APP(" tsc_early_khz=%ld tsc=reliable", p->tsc_khz);
	/*
	 * Under icount the TSC counts virtual ns: 1 GHz by definition. The
	 * LAPIC timer's calibration busy-waits on MMIO reads, which icount
	 * executes one at a time (~16 s of host time per boot here), so the
	 * PIT drives the tick instead (noapictimer), still HZ times a second.
	 */
	if (!strcmp(c->v[AX_accel], "icount"))
		APP(" tsc_early_khz=1000000 tsc=reliable noapictimer");
	APP(" random.trust_cpu=%s", c->v[AX_trust_cpu]);
	if (!strcmp(c->v[AX_nocounter], "on"))
		APP(" random.no_cycle_counter=1");
	if (!strcmp(c->v[AX_trace], "on"))
		APP(" ftrace=function_graph ftrace_filter=urandom_read_iter,random_read_iter,__x64_sys_getrandom"
		    " trace_clock=boot trace_buf_size=256K");
	APP(" crngbench_out=/dev/ttyS1 crngbench_read_timeout=%d",
	    p->read_timeout_s);
	if (strcmp(reads, "none"))
		APP(" crngbench_reads=%s", reads);
	if (p->seed_hex)
		APP(" crngbench_seed=%s", p->seed_hex);
	if (p->append && *p->append)
		APP(" %s", p->append);
#undef APP
	argv_add(a, "-append");
	argv_add(a, "%s", append);
	for (char *const *x = p->qemu_args; x && *x; x++)
		argv_add(a, "%s", *x);
}

int64_t host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * fork and exec argv with stdin from in_fd, stdout to out_fd, stderr to
 * err_fd (-1: /dev/null), in a process group of its own if pgroup, so a
 * timeout can kill perf and QEMU alike. The one place the runner starts a
 * program. Returns the pid, or -1 with errno.
 */
static pid_t spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
		   int pgroup)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (pgroup)
			setpgid(0, 0);
		if (null < 0 || dup2(in_fd >= 0 ? in_fd : null, 0) < 0 ||
		    dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
		    dup2(err_fd >= 0 ? err_fd : null, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		dprintf(2, "cannot execute %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid > 0 && pgroup)
		setpgid(pid, pid); /* also here: no race with a quick kill */
	return pid;
}

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

int vm_spawn(struct vm *vm, const struct argv_buf *a)
{
	int out[2], err[2];

	memset(vm, 0, sizeof(*vm));
	vm->out_fd = vm->err_fd = -1;
	vm->t_first_byte = vm->t_urandom = vm->t_report = vm->t_exit = -1;
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close_pair(out);
		return -1;
	}
	vm->t_spawn = host_now_ns();
	vm->pid = spawn(a->v, -1, out[1], err[1], 1);
	if (vm->pid < 0) {
		close_pair(out);
		close_pair(err);
		return -1;
	}
	close(out[1]);
	close(err[1]);
	vm->out_fd = out[0];
	vm->err_fd = err[0];
	return 0;
}

/* Timestamp the lines that matter as they complete. */
static void scan_lines(struct vm *vm, int64_t now)
{
	while (vm->scanned < vm->chan_len) {
		char *start = vm->chan + vm->scanned;
		char *nl = memchr(start, '\n', vm->chan_len - vm->scanned);

		if (!nl)
			break;
		if (vm->t_urandom < 0 &&
		    !strncmp(start, "read iface=urandom ", 19))
			vm->t_urandom = now - vm->t_spawn;
		if (vm->t_report < 0 &&
		    memmem(start, (size_t)(nl - start), CRB_MAGIC "/",
			   sizeof(CRB_MAGIC)) &&
		    memmem(start, (size_t)(nl - start), "seg=report", 10))
			vm->t_report = now - vm->t_spawn;
		vm->scanned = (size_t)(nl - vm->chan) + 1;
	}
}

void vm_read(struct vm *vm, int fd)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));
	int64_t now = host_now_ns();

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(fd);
		if (fd == vm->out_fd)
			vm->out_fd = -1;
		else
			vm->err_fd = -1;
		return;
	}
	if (fd == vm->err_fd) {
		size_t room = sizeof(vm->err) - 1 - vm->err_len;

		if ((size_t)n > room)
			n = (ssize_t)room;
		memcpy(vm->err + vm->err_len, buf, (size_t)n);
		vm->err_len += (size_t)n;
		vm->err[vm->err_len] = '\0';
		return;
	}
	if (vm->t_first_byte < 0)
		vm->t_first_byte = now - vm->t_spawn;
	if (vm->chan_len + (size_t)n > vm->chan_cap) {
		size_t cap =
			(vm->chan_cap ? vm->chan_cap * 2 : 65536) + (size_t)n;
		char *p = realloc(vm->chan, cap);

		if (!p)
			return;
		vm->chan = p;
		vm->chan_cap = cap;
	}
	memcpy(vm->chan + vm->chan_len, buf, (size_t)n);
	vm->chan_len += (size_t)n;
	scan_lines(vm, now);
}

int vm_done(struct vm *vm)
{
	if (!vm->exited && vm->pid > 0) {
		int st;
		pid_t r = waitpid(vm->pid, &st, WNOHANG);

		if (r == vm->pid) {
			vm->exited = 1;
			vm->status = st;
			vm->t_exit = host_now_ns() - vm->t_spawn;
		}
	}
	return vm->exited && vm->out_fd < 0 && vm->err_fd < 0;
}

void vm_kill(struct vm *vm)
{
	if (vm->pid > 0 && !vm->exited) {
		vm->killed = 1;
		kill(-vm->pid, SIGKILL);
		kill(vm->pid, SIGKILL);
		waitpid(vm->pid, &vm->status, 0);
		vm->exited = 1;
		vm->t_exit = host_now_ns() - vm->t_spawn;
	}
	/* Drain and close what is left; the writers are gone. */
	while (vm->out_fd >= 0)
		vm_read(vm, vm->out_fd);
	while (vm->err_fd >= 0)
		vm_read(vm, vm->err_fd);
}

void vm_free(struct vm *vm)
{
	if (vm->out_fd >= 0)
		close(vm->out_fd);
	if (vm->err_fd >= 0)
		close(vm->err_fd);
	free(vm->chan);
	vm->chan = NULL;
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

/* Run argv with stdin text; capture stderr; kill after timeout_s. */
static int run_quick(char *const argv[], const char *input, int timeout_s,
		     char *err, size_t errlen)
{
	int in[2], errp[2], status = 0;
	int64_t deadline;
	size_t off = 0;
	pid_t pid;

	err[0] = '\0';
	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(errp, O_CLOEXEC)) {
		close_pair(in);
		return -1;
	}
	pid = spawn(argv, in[0], -1, errp[1], 0);
	if (pid < 0) {
		close_pair(in);
		close_pair(errp);
		return -1;
	}
	close(in[0]);
	close(errp[1]);
	/* A write error means QEMU already exited with an error: read it below. */
	(void)!write(in[1], input, strlen(input));
	close(in[1]);
	deadline = host_now_ns() + (int64_t)timeout_s * 1000000000;
	for (;;) {
		struct pollfd p = { .fd = errp[0], .events = POLLIN };
		int64_t left = (deadline - host_now_ns()) / 1000000;
		ssize_t n;

		if (left <= 0) {
			kill(pid, SIGKILL);
			snprintf(err, errlen, "QEMU did not answer within %d s",
				 timeout_s);
			break;
		}
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = read(errp[0], err + off, errlen - 1 - off);
		if (n <= 0)
			break;
		off += (size_t)n;
		err[off] = '\0';
		if (off + 1 >= errlen)
			break;
	}
	close(errp[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int qemu_check_cpu(const char *qemu, const char *accel, const char *cpu,
		   char *err, size_t errlen)
{
	char acc[16], cpubuf[MAX_VALUE_LEN];
	char *argv[] = { (char *)qemu, "-M",	      "microvm",
			 "-accel",     acc,	      "-cpu",
			 cpubuf,       "-nodefaults", "-no-user-config",
			 "-display",   "none",	      "-S",
			 "-monitor",   "stdio",	      NULL };
	int rc;

	snprintf(acc, sizeof(acc), "%s", qemu_accel(accel));
	snprintf(cpubuf, sizeof(cpubuf), "%s", cpu);
	rc = run_quick(argv, "quit\n", 20, err, errlen);
	err[strcspn(err, "\n")] = '\0';
	if (rc == 0)
		return 0;
	if (!err[0])
		snprintf(err, errlen, "QEMU exited with status %d", rc);
	return -1;
}

int kvm_usable(const struct boot_params *p, int canary_s, char *why,
	       size_t whylen)
{
	struct argv_buf a = { 0 };
	struct boot_params cp = *p;
	struct cell c;
	struct vm vm;
	int fd, api, vmfd;
	int64_t deadline;
	const char *progress = NULL;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(
			why, whylen,
			errno == ENOENT ?
				"/dev/kvm does not exist (no KVM module or no hardware virtualization)" :
			errno == EACCES ?
				"/dev/kvm: permission denied (run as root or join the kvm group)" :
				"/dev/kvm: %s",
			strerror(errno));
		return -1;
	}
	api = ioctl(fd, KVM_GET_API_VERSION, 0);
	if (api != KVM_API_VERSION) {
		snprintf(why, whylen, "/dev/kvm: API version %d, expected %d",
			 api, KVM_API_VERSION);
		close(fd);
		return -1;
	}
	vmfd = ioctl(fd, KVM_CREATE_VM, 0);
	if (vmfd < 0) {
		snprintf(why, whylen, "/dev/kvm: KVM_CREATE_VM failed: %s",
			 strerror(errno));
		close(fd);
		return -1;
	}
	close(vmfd);
	close(fd);

	/* The canary: the real guest, no reads, no tracing. */
	memset(&c, 0, sizeof(c));
	c.v[AX_accel] = "kvm";
	c.v[AX_cpu] = "host";
	c.v[AX_smp] = "1";
	c.v[AX_trust_cpu] = "on";
	c.v[AX_virtio_rng] = "off";
	c.v[AX_nocounter] = "off";
	c.v[AX_trace] = "off";
	c.v[AX_reads] = "none";
	c.v[AX_seed] = "none";
	cp.perf_out = NULL;
	cp.seed_hex = NULL;
	qemu_build_argv(&c, &cp, &a);
	if (vm_spawn(&vm, &a)) {
		snprintf(why, whylen, "cannot start QEMU: %s", strerror(errno));
		argv_free(&a);
		return -1;
	}
	argv_free(&a);
	deadline = vm.t_spawn + (int64_t)canary_s * 1000000000;
	while (!progress) {
		struct pollfd pf[2];
		int n = 0;
		int64_t left = (deadline - host_now_ns()) / 1000000;

		if (vm.out_fd >= 0)
			pf[n++] = (struct pollfd){ .fd = vm.out_fd,
						   .events = POLLIN };
		if (vm.err_fd >= 0)
			pf[n++] = (struct pollfd){ .fd = vm.err_fd,
						   .events = POLLIN };
		if (left <= 0 || n == 0)
			break;
		if (poll(pf, (nfds_t)n, (int)(left > 200 ? 200 : left)) > 0)
			for (int i = 0; i < n; i++)
				if (pf[i].revents)
					vm_read(&vm, pf[i].fd);
		if (strstr(vm.err, "internal error") ||
		    strstr(vm.err, "KVM: entry failed")) {
			break;
		}
		if (vm.chan_len && memmem(vm.chan, vm.chan_len, "seg=probe", 9))
			progress = "probe";
		if (vm_done(&vm))
			break;
	}
	vm_kill(&vm);
	if (progress) {
		vm_free(&vm);
		return 0;
	}
	if (vm.err_len) {
		char *nl;

		for (nl = vm.err; (nl = strchr(nl, '\n'));)
			*nl = ' ';
		snprintf(why, whylen,
			 "KVM canary boot failed: QEMU said: %.300s", vm.err);
	} else {
		snprintf(
			why, whylen,
			"KVM canary boot made no progress in %d s (nothing from the guest; "
			"nested or paravirtual KVM that cannot run a standard guest?)",
			canary_s);
	}
	vm_free(&vm);
	return -1;
}
