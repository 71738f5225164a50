// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "qemu.h"
#include "accel.h"
#include "arch.h"
#include "util.h"
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
#include <sys/prctl.h>
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

	if (a->n >= ARGV_MAX - 1) {
		a->overflow = 1;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s) {
		a->overflow = 1;
		return;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void argv_free(struct argv_buf *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
	a->v[0] = NULL;
	a->overflow = 0;
}

int argv_join(const struct argv_buf *a, char *buf, size_t len)
{
	static const char plain_chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%";
	struct strbuf b = { 0 };
	int rc = 0;

	for (int i = 0; i < a->n; i++) {
		const char *s = a->v[i];
		int plain = *s && strspn(s, plain_chars) == strlen(s);

		sb_printf(&b, "%s%s", i ? " " : "", plain ? "" : "'");
		for (; *s; s++) {
			if (*s == '\'')
				sb_printf(&b, "'\\''");
			else
				sb_printf(&b, "%c", *s);
		}
		sb_printf(&b, "%s", plain ? "" : "'");
	}
	if (b.oom || b.len >= len)
		rc = -1;
	else
		memcpy(buf, b.p ? b.p : "", b.len + 1);
	sb_free(&b);
	return rc;
}

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
		/* The TSC counts instructions: 10^9 / 2^shift a second. */
		if (acc->icount)
			kcmd_add(k, "tsc_early_khz=%d tsc=reliable",
				 1000000 >> p->icount_shift);
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
	if (ar->rtc_vm) {
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
		argv_add(a, "stdio,id=res,signal=off,logfile=%s",
			 p->console_path);
		argv_add(a, "-serial");
		argv_add(a, "chardev:res");
	} else {
		argv_add(a, "-chardev");
		argv_add(a, "file,id=con,path=%s", p->console_path);
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

/*
 * fork and exec argv with stdin from in_fd, stdout to out_fd, stderr to
 * err_fd (-1: /dev/null), in a process group of its own if pgroup, so a
 * timeout can kill perf and QEMU alike. The child dies with the runner
 * (PR_SET_PDEATHSIG): a killed runner leaves no QEMU behind. The one place
 * the runner starts a program; no shell is involved. Returns the pid, or -1
 * with errno.
 */
static pid_t spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
		   int pgroup)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (pgroup)
			setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
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
	vm->t_report_end = -1;
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close_pair(out);
		return -1;
	}
	/* Only our ends are non-blocking: QEMU's writes must block as usual. */
	if (fcntl(out[0], F_SETFL, O_NONBLOCK) ||
	    fcntl(err[0], F_SETFL, O_NONBLOCK)) {
		close_pair(out);
		close_pair(err);
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

/*
 * Timestamp the moments that matter as their lines complete, recognising
 * them with the record reader (record.h), never by matching text: the first
 * urandom read's record and the report segment's header.
 */
static void scan_lines(struct vm *vm, int64_t now)
{
	while (vm->scanned < vm->chan_len) {
		char *start = vm->chan + vm->scanned, seg[CRB_MAX_KEY], err[8];
		char *nl = memchr(start, '\n', vm->chan_len - vm->scanned);
		size_t len;
		struct crb_record rec;

		if (!nl)
			break;
		len = (size_t)(nl - start);
		vm->scanned += len + 1;
		if (vm->t_urandom < 0 &&
		    !crb_parse_line(start, len, &rec, err, sizeof(err)) &&
		    rec.type == CRB_read && crb_get(&rec, "iface") &&
		    !strcmp(crb_get(&rec, "iface"), "urandom"))
			vm->t_urandom = now - vm->t_spawn;
		if (vm->t_report < 0 &&
		    !crb_parse_header(start, len, seg, sizeof(seg), err,
				      sizeof(err)) &&
		    !strcmp(seg, "report"))
			vm->t_report = now - vm->t_spawn;
		else if (vm->t_report >= 0 && vm->t_report_end < 0 && len > 4 &&
			 !strncmp(start, "end ", 4))
			vm->t_report_end = now - vm->t_spawn;
	}
}

static void vm_close(struct vm *vm, int fd)
{
	close(fd);
	if (fd == vm->out_fd)
		vm->out_fd = -1;
	else
		vm->err_fd = -1;
}

/* Keep at most VM_CHAN_MAX bytes of the channel; count the rest. */
static void keep_chan(struct vm *vm, const char *buf, size_t n, int64_t now)
{
	if (vm->t_first_byte < 0)
		vm->t_first_byte = now - vm->t_spawn;
	if (vm->chan_len + n > VM_CHAN_MAX) {
		size_t room = VM_CHAN_MAX - vm->chan_len;

		vm->chan_dropped += n - room;
		n = room;
	}
	if (vm->chan_len + n > vm->chan_cap) {
		size_t cap = (vm->chan_cap ? vm->chan_cap * 2 : 65536) + n;
		char *p = realloc(vm->chan, cap);

		if (!p) {
			vm->chan_dropped += n;
			return;
		}
		vm->chan = p;
		vm->chan_cap = cap;
	}
	memcpy(vm->chan + vm->chan_len, buf, n);
	vm->chan_len += n;
	scan_lines(vm, now);
}

void vm_read(struct vm *vm, int fd)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));
	int64_t now = host_now_ns();

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		vm_close(vm, fd);
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
	keep_chan(vm, buf, (size_t)n, now);
}

static void reap(struct vm *vm, int block)
{
	int st;
	pid_t r;

	if (vm->exited || vm->pid <= 0)
		return;
	r = waitpid(vm->pid, &st, block ? 0 : WNOHANG);
	if (r == vm->pid) {
		vm->exited = 1;
		vm->status = st;
		vm->t_exit = host_now_ns() - vm->t_spawn;
	}
}

int vm_done(struct vm *vm)
{
	reap(vm, 0);
	return vm->exited && vm->out_fd < 0 && vm->err_fd < 0;
}

/*
 * End the boot now, in bounded time whatever its processes do: kill the
 * process group, reap QEMU, then take only what is already in the pipes
 * (they are non-blocking) and close them, even if something outside the
 * group (a helper in its own session) still holds the write ends.
 */
void vm_kill(struct vm *vm)
{
	if (vm->pid > 0 && !vm->exited) {
		vm->killed = 1;
		kill(-vm->pid, SIGKILL);
		kill(vm->pid, SIGKILL);
		reap(vm, 1);
	}
	for (int i = 0; i < 64 && (vm->out_fd >= 0 || vm->err_fd >= 0); i++) {
		if (vm->out_fd >= 0)
			vm_read(vm, vm->out_fd);
		if (vm->err_fd >= 0)
			vm_read(vm, vm->err_fd);
	}
	if (vm->out_fd >= 0)
		vm_close(vm, vm->out_fd);
	if (vm->err_fd >= 0)
		vm_close(vm, vm->err_fd);
}

void vm_free(struct vm *vm)
{
	if (vm->out_fd >= 0)
		close(vm->out_fd);
	if (vm->err_fd >= 0)
		close(vm->err_fd);
	vm->out_fd = vm->err_fd = -1;
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

/*
 * Run argv with stdin text; capture its stdout and stderr (together) in
 * out; kill it after timeout_s. Returns the exit status, or -1 (killed,
 * signalled, or not started: out says which).
 */
static int run_quick(char *const argv[], const char *input, int timeout_s,
		     char *out, size_t outlen)
{
	int in[2], op[2], status = 0, killed = 0;
	int64_t deadline;
	size_t off = 0;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(op, O_CLOEXEC)) {
		close_pair(in);
		return -1;
	}
	pid = spawn(argv, in[0], op[1], op[1], 1);
	close(in[0]);
	close(op[1]);
	if (pid < 0) {
		snprintf(out, outlen, "cannot start %s: %s", argv[0],
			 strerror(errno));
		close(in[1]);
		close(op[0]);
		return -1;
	}
	/* EPIPE (SIGPIPE is ignored) means it already exited: read why. */
	if (input && write(in[1], input, strlen(input)) < 0 && errno != EPIPE)
		snprintf(out, outlen, "cannot write to %s: %s", argv[0],
			 strerror(errno));
	close(in[1]);
	deadline = host_now_ns() + (int64_t)timeout_s * 1000000000;
	for (;;) {
		struct pollfd p = { .fd = op[0], .events = POLLIN };
		int64_t left = (deadline - host_now_ns()) / 1000000;
		ssize_t n;

		if (left <= 0) {
			kill(-pid, SIGKILL);
			killed = 1;
			snprintf(out, outlen, "%s did not answer within %d s",
				 argv[0], timeout_s);
			break;
		}
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = read(op[0], out + off, outlen - 1 - off);
		if (n <= 0)
			break;
		off += (size_t)n;
		out[off] = '\0';
		if (off + 1 >= outlen)
			break;
	}
	close(op[0]);
	if (!killed) {
		/* Output closed or full: it has a moment to exit, no more. */
		for (int i = 0; i < 50 && waitpid(pid, &status, WNOHANG) == 0;
		     i++)
			usleep(100000);
		if (waitpid(pid, &status, WNOHANG) == 0) {
			kill(-pid, SIGKILL);
			killed = 1;
		}
	}
	if (killed) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

void qemu_version(const char *qemu, char *buf, size_t len)
{
	char *argv[] = { (char *)qemu, "--version", NULL };

	if (run_quick(argv, NULL, 5, buf, len) != 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

int kvm_device_check(char *why, size_t whylen)
{
	int fd, api, vmfd;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return err_set(
			why, whylen,
			errno == ENOENT ?
				"/dev/kvm does not exist (no KVM module or no hardware virtualization)" :
			errno == EACCES ?
				"/dev/kvm: permission denied (run as root or join the kvm group)" :
				"/dev/kvm: %s",
			strerror(errno));
	api = ioctl(fd, KVM_GET_API_VERSION, 0);
	if (api != KVM_API_VERSION) {
		close(fd);
		return err_set(why, whylen,
			       "/dev/kvm: API version %d, expected %d", api,
			       KVM_API_VERSION);
	}
	vmfd = ioctl(fd, KVM_CREATE_VM, 0);
	if (vmfd < 0) {
		err_set(why, whylen, "/dev/kvm: KVM_CREATE_VM failed: %s",
			strerror(errno));
		close(fd);
		return -1;
	}
	close(vmfd);
	close(fd);
	return 0;
}
