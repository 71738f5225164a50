// SPDX-License-Identifier: GPL-2.0
/*
 * The probe's timed reads (guest-image/reads.c, built in here with stand-ins
 * for the probe's globals) and the vDSO's getrandom (vdso.c) on this host:
 * the vDSO's symbols found by the probe's own ELF walk, "unavailable"
 * where there is no vDSO, each read's digest, and the read record's keys
 * through the record format into reads.csv.
 */
#define _GNU_SOURCE
#include "../../guest-image/reads.c"
#include "../../guest-image/vdso.h"
#include "../../bench/rows/report.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

/* What reads.c takes from the rest of the probe. */
struct probe_options opt;

int64_t boot_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_BOOTTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void panic(const char *what)
{
	printf("FAIL: panic: %s: %s\n", what, strerror(errno));
	exit(1);
}

int open_dev(const char *path, int flags)
{
	return open(path, flags | O_CLOEXEC);
}

static void no_vdso_is_unavailable(void)
{
	struct vgetrandom v;
	const char *why = NULL;

	CHECK(vgetrandom_init(0, &v, &why) == 1);
	CHECK(why && strstr(why, "no vDSO") && v.fn == NULL && !v.state);
	CHECK(vdso_sym(0, "LINUX_2.6", "__vdso_getrandom") == NULL);
}

/* Something that is no ELF image of this machine: nothing is found. */
static void not_an_elf_image(void)
{
	static unsigned long page[512];

	CHECK(vdso_sym((uintptr_t)page, NULL, "__vdso_getrandom") == NULL);
	memcpy(page, "\177ELF", 4); /* the magic, but class 0 */
	CHECK(vdso_sym((uintptr_t)page, NULL, "__vdso_getrandom") == NULL);
}

/* The host's vDSO: its clock_gettime found by name and version, and
 * called, tells the time; a wrong version or name finds nothing. */
static void host_vdso_symbols(void)
{
	uintptr_t base = getauxval(AT_SYSINFO_EHDR);
#if defined(__x86_64__)
	int (*cgt)(clockid_t, struct timespec *);
	void *p = vdso_sym(base, "LINUX_2.6", "__vdso_clock_gettime");
	struct timespec a, b;

	CHECK(base != 0 && p != NULL);
	if (!p)
		return;
	memcpy(&cgt, &p, sizeof(cgt));
	CHECK(clock_gettime(CLOCK_MONOTONIC, &a) == 0 &&
	      cgt(CLOCK_MONOTONIC, &b) == 0 && b.tv_sec - a.tv_sec < 2 &&
	      b.tv_sec >= a.tv_sec);
	CHECK(vdso_sym(base, "LINUX_9.9", "__vdso_clock_gettime") == NULL);
	CHECK(vdso_sym(base, "LINUX_2.6", "__vdso_no_such_thing") == NULL);
#else
	(void)base;
#endif
}

static int is_digest(const char *d)
{
	return crb_digest_ok(d, strlen(d));
}

/*
 * getrandom-vdso on this host: where the kernel (6.11+, x86_64) has it, 32
 * bytes with a digest, the CRNG ready before and after; elsewhere
 * unavailable, as the probe says on a 6.1 guest: ENOSYS, nothing read.
 */
static void vdso_read_on_this_host(void)
{
	struct vgetrandom v;
	const char *why = NULL;
	int have = vgetrandom_init(getauxval(AT_SYSINFO_EHDR), &v, &why);
	struct read_result r = do_read(RD_GETRANDOM_VDSO, 32), r2;

	CHECK(have >= 0);
	printf("(this host: vDSO getrandom %s%s)\n",
	       have ? "unavailable: " : "available", have ? why : "");
	if (have == 0) {
		CHECK(r.bytes == 32 && r.err == 0 && is_digest(r.digest));
		CHECK(!r.unavailable && r.ready_before == 1 &&
		      r.ready_after == 1);
		r2 = do_read(RD_GETRANDOM_VDSO, 32);
		CHECK(r2.bytes == 32 && strcmp(r.digest, r2.digest));
	} else {
		CHECK(r.bytes == 0 && r.err == ENOSYS && r.unavailable &&
		      !r.digest[0] && r.ready_before == -1);
	}
}

/* Every other read kind's digest: there when bytes came back. */
static void digests_of_reads(void)
{
	struct read_result a = do_read(RD_URANDOM, 32),
			   b = do_read(RD_GETRANDOM_INSECURE, 16);

	CHECK(a.bytes == 32 && is_digest(a.digest) && a.ready_before == -1);
	CHECK(b.bytes == 16 && is_digest(b.digest) &&
	      strcmp(a.digest, b.digest));
}

/* The read record's keys as the probe writes them, through the record
 * format, into reads.csv: the digest, and "unavailable". */
static void read_keys_reach_reads_csv(void)
{
	struct read_result ok = { .bytes = 32,
				  .digest = "0123456789abcdef",
				  .ready_before = 0,
				  .ready_after = 1 },
			   none = { .err = ENOSYS,
				    .unavailable = "no vDSO = none",
				    .ready_before = -1,
				    .ready_after = -1 };
	char keys[256], line[512];
	struct strbuf b = { 0 }, reads = { 0 }, traces = { 0 };
	struct crb_writer wr;
	struct report_outcome o;
	struct row row;
	FILE *f = tmpfile();
	size_t got;

	CHECK(!strcmp(read_keys(&ok, keys, sizeof(keys)),
		      " digest=0123456789abcdef ready_before=0 ready_after=1"));
	CHECK(!strcmp(read_keys(&none, keys, sizeof(keys)),
		      " status=unavailable why=no%20vDSO%20%3D%20none"));
	CHECK(f != NULL);
	if (!f)
		return;
	crb_begin(&wr, fileno(f), "probe");
	CHECK(crb_emit(
		      &wr, CRB_read,
		      "iface=getrandom-vdso start_ns=1 dur_ns=0 bytes=0 errno=%d timed_out=0%s",
		      none.err, read_keys(&none, keys, sizeof(keys))) == 0);
	CHECK(crb_emit(
		      &wr, CRB_read,
		      "iface=getrandom-vdso start_ns=2 dur_ns=3 bytes=32 errno=0 timed_out=0%s",
		      read_keys(&ok, keys, sizeof(keys))) == 0);
	CHECK(crb_end(&wr) == 0);
	rewind(f);
	while ((got = fread(line, 1, sizeof(line), f)) > 0)
		sb_append(&b, line, got);
	fclose(f);
	row_init(&row);
	snprintf(row.boot_id, sizeof(row.boot_id), "t");
	report_parse(b.p, b.len, &row, &reads, &traces, &o);
	CHECK(o.probe_complete && reads.p);
	CHECK(reads.p &&
	      !strcmp(reads.p,
		      "t,0,getrandom-vdso,1,0,0,38,0,,unavailable,,\n"
		      "t,1,getrandom-vdso,2,3,32,0,0,0123456789abcdef,,0,1\n"));
	sb_free(&b);
	sb_free(&reads);
	sb_free(&traces);
}

int main(void)
{
	TEST(no_vdso_is_unavailable);
	TEST(not_an_elf_image);
	TEST(host_vdso_symbols);
	TEST(vdso_read_on_this_host);
	TEST(digests_of_reads);
	TEST(read_keys_reach_reads_csv);
	return check_any_failed;
}
