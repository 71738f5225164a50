// SPDX-License-Identifier: GPL-2.0
/* Matrix parsing, validation, expansion, run order and shards. */
#define _GNU_SOURCE
#include "../../bench/matrix/matrix.h"
#include "../../bench/matrix/matrixcheck.h"
#include "../../bench/matrix/matrixfile.h"
#include "../../bench/matrix/plan.h"
#include "../../bench/ground/util.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void setm(struct matrix *m, const char *a)
{
	char err[512];

	if (matrix_set(m, a, err, sizeof(err)))
		printf("# %s\n", err);
}

static void expansion_is_the_cross_product(void)
{
	struct matrix m;
	struct cell c;
	int seen[2][2] = { { 0 } };

	matrix_init(&m);
	setm(&m, "variant=stock,block");
	setm(&m, "cpu=qemu64,max,-rdrand");
	CHECK(m.nvalues[AX_cpu] == 2);
	CHECK(!strcmp(m.values[AX_cpu][1], "max,-rdrand"));
	CHECK(matrix_ncells(&m) == 4);
	for (size_t i = 0; i < 4; i++) {
		matrix_cell(&m, i, &c);
		seen[!strcmp(c.v[AX_variant], "block")]
		    [!strcmp(c.v[AX_cpu], "max,-rdrand")]++;
		CHECK(!strcmp(c.v[AX_accel],
			      "tcg")); /* defaults fill the rest */
	}
	CHECK(seen[0][0] == 1 && seen[0][1] == 1 && seen[1][0] == 1 &&
	      seen[1][1] == 1);
}

static void bad_input_names_what_is_accepted(void)
{
	struct matrix m;
	char err[512];

	matrix_init(&m);
	CHECK(matrix_set(&m, "colour=red", err, sizeof(err)) == -1 &&
	      strstr(err, "axes are"));
	CHECK(matrix_set(&m, "reps=0", err, sizeof(err)) == -1 &&
	      strstr(err, "1 to 10000"));
	CHECK(matrix_set(&m, "min_reps=0", err, sizeof(err)) == -1 &&
	      strstr(err, "min_reps=0") && strstr(err, "at most reps"));
	CHECK(matrix_set(&m, "precision=0.5", err, sizeof(err)) == -1 &&
	      strstr(err, "precision=0.5") && strstr(err, "1 to 100"));
	CHECK(matrix_set(&m, "precision=101", err, sizeof(err)) == -1);
	CHECK(matrix_set(&m, "cpu=-rdrand", err, sizeof(err)) == -1 &&
	      strstr(err, "model before"));
	CHECK(matrix_set(&m, "variant=stock,stock", err, sizeof(err)) == -1 &&
	      strstr(err, "twice"));
	CHECK(matrix_set(&m, "novalue", err, sizeof(err)) == -1);
	matrix_init(&m);
	setm(&m, "accel=tcg,xen");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "tcg, kvm, icount"));
	matrix_init(&m);
	setm(&m, "reads=urandom:bogus");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "'bogus'"));
	matrix_init(&m);
	setm(&m, "hz=300");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "100, 250, 1000"));
	matrix_init(&m);
	setm(&m, "trust_cpu=maybe");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "on, off"));
	matrix_init(&m);
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
}

static void load_file(void)
{
	struct matrix m;
	char err[512], path[] = "/tmp/crngbench-test-matrix-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(f != NULL);
	if (!f)
		return;
	fputs("# comment\nvariant = stock, block  # trailing\nreps = 7\n\nbogus line\n",
	      f);
	fclose(f);
	matrix_init(&m);
	CHECK(matrix_load(&m, path, err, sizeof(err)) == -1);
	CHECK(strstr(err, ":5:") != NULL); /* names the line */
	CHECK(m.nvalues[AX_variant] == 2 && m.reps == 7);
	unlink(path);
}

/* A matrix file holding text: returns its path (caller unlinks). */
static int write_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(f != NULL);
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return 0;
}

/* What the reader must refuse instead of misreading. */
static void load_refuses_what_it_would_misread(void)
{
	char err[512], path[] = "/tmp/crngbench-test-matrix-XXXXXX",
		       path2[] = "/tmp/crngbench-test-matrix-XXXXXX";
	char *longline = malloc(5000);
	struct matrix m;

	CHECK(longline != NULL);
	if (!longline)
		return;
	memset(longline, 'x', 4999);
	longline[0] = '#';
	longline[4990] = '\n';
	memcpy(longline + 4991, "reps=7\n", 8);
	if (!write_tmp(path, "reps = 3\nvariant = stock\nreps = 4\n")) {
		matrix_init(&m);
		CHECK(matrix_load(&m, path, err, sizeof(err)) == -1);
		CHECK(strstr(err, "sets 'reps' again") != NULL);
		unlink(path);
	}
	if (!write_tmp(path2, longline)) {
		matrix_init(&m);
		CHECK(matrix_load(&m, path2, err, sizeof(err)) == -1);
		CHECK(strstr(err, ":1: line longer than") != NULL);
		CHECK(m.reps == 3); /* the tail was not read as a setting */
		unlink(path2);
	}
	free(longline);
	matrix_init(&m);
	CHECK(matrix_load(&m, "/tmp", err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a regular file") != NULL);
	CHECK(matrix_set(&m, "cpu=max,pmu=off#1", err, sizeof(err)) == -1);
	CHECK(matrix_set(&m, "name=a\nb", err, sizeof(err)) == -1);
}

/* run.matrix reads back as written, for a value of every axis. */
static void write_then_load_round_trips(void)
{
	static const char *const sets[] = {
		"variant=stock,my-kernel_2",
		"hz=100,1000",
		"accel=tcg,icount,kvm",
		"cpu=qemu64,max,-rdrand,+rdseed,Haswell-v4,pmu=off",
		"trust_cpu=off,on",
		"virtio_rng=on",
		"nocounter=on,off",
		"smp=1,4",
		"reads=urandom:random,none",
		"trace=off",
		"seed=saved,none",
		"reps=12",
		"min_reps=3",
		"precision=2",
		"timeout=600",
		"read_timeout=0",
		"ready_timeout=900",
		"read_timeout.icount=600",
		"timeout.icount=120",
		"ready_timeout.tcg=40",
		"icount=shift=2,sleep=off",
		"exclude=accel=tcg nocounter=on",
		"exclude=cpu=max,-rdrand,+rdseed smp=4",
		"exclude=accel=icount smp=4",
		"name=my run, take 2",
	};
	struct matrix a, b;
	char err[512], path[] = "/tmp/crngbench-test-matrix-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	matrix_init(&a);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		CHECK(matrix_set(&a, sets[i], err, sizeof(err)) == 0);
	CHECK(matrix_validate(&a, err, sizeof(err)) == 0);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(matrix_write(&a, f) == 0);
	fclose(f);
	matrix_init(&b);
	CHECK(matrix_load(&b, path, err, sizeof(err)) == 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(b.nvalues[AX_cpu] == 3 &&
	      !strcmp(b.values[AX_cpu][1], "max,-rdrand,+rdseed"));
	unlink(path);
}

static void plan_interleaves_and_covers(void)
{
	struct matrix m;
	struct boot_plan *p;
	size_t n, ncells;
	int *count;

	matrix_init(&m);
	setm(&m, "variant=stock,legacy,block,block-v0");
	setm(&m, "cpu=qemu64,max");
	setm(&m, "reps=3");
	ncells = matrix_ncells(&m);
	p = matrix_plan(&m, 1234, 1, 1, &n);
	CHECK(p && n == ncells * 3);
	count = calloc(ncells * 3, sizeof(int));
	for (size_t i = 0; p && i < n; i++) {
		count[p[i].canonical]++;
		/* rounds: every cell once per repetition, in order of rounds */
		CHECK(p[i].rep == (int)(i / ncells));
	}
	for (size_t i = 0; i < ncells * 3; i++)
		CHECK(count[i] == 1);
	/* not cell after cell: the first round is not the identity order */
	{
		int identity = 1;

		for (size_t i = 0; p && i < ncells; i++)
			identity &= p[i].cell == i;
		CHECK(!identity);
	}
	/* same seed, same order */
	{
		size_t n2;
		struct boot_plan *q = matrix_plan(&m, 1234, 1, 1, &n2);

		CHECK(q && n2 == n && !memcmp(p, q, n * sizeof(*p)));
		free(q);
	}
	free(count);
	free(p);
}

static void shards_disjoint_union_is_matrix(void)
{
	struct matrix m;
	size_t total, ncells;
	int *count;

	matrix_init(&m);
	setm(&m, "variant=stock,legacy,block");
	setm(&m, "cpu=qemu64,max");
	setm(&m, "trust_cpu=on,off");
	setm(&m, "reps=5");
	ncells = matrix_ncells(&m);
	count = calloc(ncells * 5, sizeof(int));
	for (int n = 1; n <= 7; n++) {
		int shard_of[12], least = 99, most = 0;

		total = 0;
		memset(count, 0, ncells * 5 * sizeof(int));
		for (int k = 1; k <= n; k++) {
			size_t c, cells = 0;
			struct boot_plan *p = matrix_plan(&m, 99, k, n, &c);

			for (size_t i = 0; p && i < c; i++) {
				count[p[i].canonical]++;
				/* a cell's boots are all in one shard */
				if (!p[i].rep) {
					shard_of[p[i].cell] = k;
					cells++;
				}
				CHECK(shard_of[p[i].cell] == k);
			}
			total += c;
			least = (int)cells < least ? (int)cells : least;
			most = (int)cells > most ? (int)cells : most;
			free(p);
		}
		CHECK(total == ncells * 5);
		/* the cells dealt evenly: 12 cells, shards differ by one */
		CHECK(most - least <= 1);
		for (size_t i = 0; i < ncells * 5; i++)
			CHECK(count[i] == 1);
	}
	free(count);
}

/* min_reps: the default capped at reps; above reps, refused by name. */
static void min_reps_against_reps(void)
{
	struct matrix m;
	char err[512];

	matrix_init(&m);
	CHECK(matrix_min_reps(&m) == MIN_REPS_DEFAULT);
	CHECK(m.precision == PRECISION_DEFAULT);
	setm(&m, "reps=1");
	CHECK(matrix_min_reps(&m) == 1);
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
	setm(&m, "min_reps=4");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "min_reps=4 is above reps=1") &&
	      strstr(err, "min_reps <= reps"));
	setm(&m, "reps=4");
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
	CHECK(matrix_min_reps(&m) == 4);
}

static void host_cpu_is_kvm_only(void)
{
	struct matrix m;
	struct boot_plan *p;
	size_t n;

	matrix_init(&m);
	setm(&m, "accel=tcg,kvm");
	setm(&m, "cpu=max,host,host,-rdrand");
	setm(&m, "reps=1");
	p = matrix_plan(&m, 1, 1, 1, &n);
	CHECK(n == 4); /* tcg:max, kvm:max, kvm:host, kvm:host,-rdrand */
	CHECK(!matrix_combination_ok("tcg", "host,-rdrand"));
	CHECK(matrix_combination_ok("tcg", "hostile-model"));
	free(p);
}

/* read_timeout.icount applies to icount cells only; the rest get the base. */
static void settings_per_accelerator(void)
{
	struct matrix m;
	char err[512];

	matrix_init(&m);
	setm(&m, "accel=tcg,icount");
	setm(&m, "read_timeout=5");
	setm(&m, "read_timeout.icount=600");
	CHECK(matrix_setting(&m, SET_read_timeout, "tcg") == 5);
	CHECK(matrix_setting(&m, SET_read_timeout, "icount") == 600);
	CHECK(matrix_setting(&m, SET_read_timeout, "kvm") == 5);
	/* ready_timeout left out: each accelerator's read_timeout */
	CHECK(matrix_setting(&m, SET_ready_timeout, "icount") == 600);
	CHECK(matrix_setting(&m, SET_ready_timeout, "tcg") == 5);
	CHECK(matrix_setting(&m, SET_timeout, "icount") == 60);
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
	/* a censor bound below the read budget, for one accelerator */
	setm(&m, "ready_timeout=10");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "accel=icount") && strstr(err, "read_timeout=600"));
	setm(&m, "ready_timeout.icount=600");
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "read_timeout.xen=5", err, sizeof(err)) == -1 &&
	      strstr(err, "tcg, kvm, icount"));
	CHECK(matrix_set(&m, "reps.icount=5", err, sizeof(err)) == -1 &&
	      strstr(err, "only the time settings"));
	CHECK(matrix_set(&m, "timeout.icount=4", err, sizeof(err)) == -1 &&
	      strstr(err, "5 to 3600"));
	/* icount's shift fixes the guest clock; auto or none is refused */
	CHECK(matrix_icount_shift(&m) == 0);
	setm(&m, "icount=sleep=off,shift=3");
	CHECK(matrix_icount_shift(&m) == 3);
	setm(&m, "icount=shift=auto,sleep=off");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "shift=N"));
	/* not refused where no icount cell uses it */
	setm(&m, "accel=tcg");
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
}

/*
 * m's plan (seed 7, one shard): how many boots, with keep() checked true
 * of every planned boot's cell.
 */
static size_t planned_where(const struct matrix *m,
			    int (*keep)(const struct cell *c))
{
	struct boot_plan *p;
	struct cell c;
	size_t n;

	p = matrix_plan(m, 7, 1, 1, &n);
	for (size_t i = 0; p && i < n; i++) {
		matrix_cell(m, p[i].cell, &c);
		CHECK(keep(&c));
	}
	free(p);
	return n;
}

static int not_tcg_without_counter(const struct cell *c)
{
	return strcmp(c->v[AX_accel], "tcg") ||
	       strcmp(c->v[AX_nocounter], "on");
}

/* An exclusion removes exactly the cells matching all of its pairs. */
static void exclusions_leave_cells_out(void)
{
	struct matrix m;
	char err[512];

	matrix_init(&m);
	setm(&m, "accel=icount,tcg");
	setm(&m, "nocounter=off,on");
	setm(&m, "cpu=qemu64,max,-rdrand");
	setm(&m, "reps=2");
	setm(&m, "exclude=accel=tcg nocounter=on");
	CHECK(planned_where(&m, not_tcg_without_counter) == (8 - 2) * 2);
	/* a value with QEMU's commas is one value; a second line adds to it */
	setm(&m, "exclude=cpu=max,-rdrand accel=icount nocounter=off");
	CHECK(planned_where(&m, not_tcg_without_counter) == (8 - 3) * 2);
	/* a value the matrix does not have matches nothing */
	setm(&m, "exclude=cpu=Haswell");
	CHECK(planned_where(&m, not_tcg_without_counter) == (8 - 3) * 2);
	CHECK(matrix_set(&m, "exclude=colour=red", err, sizeof(err)) == -1 &&
	      strstr(err, "unknown axis 'colour'"));
	CHECK(matrix_set(&m, "exclude=accel", err, sizeof(err)) == -1 &&
	      strstr(err, "axis=value"));
	CHECK(matrix_set(&m, "exclude=accel=tcg accel=kvm", err, sizeof(err)) ==
		      -1 &&
	      strstr(err, "twice"));
}

/* A BOM is not part of the first key; a file that sets nothing is refused. */
static void load_bom_and_empty_files(void)
{
	char err[512], p1[] = "/tmp/crngbench-test-matrix-XXXXXX",
		       p2[] = "/tmp/crngbench-test-matrix-XXXXXX",
		       p3[] = "/tmp/crngbench-test-matrix-XXXXXX";
	struct matrix m;

	if (!write_tmp(p1, "\xef\xbb\xbfname = bom\nvariant = stock,block\n")) {
		matrix_init(&m);
		CHECK(matrix_load(&m, p1, err, sizeof(err)) == 0);
		CHECK(!strcmp(m.name, "bom") && m.nvalues[AX_variant] == 2);
		unlink(p1);
	}
	if (!write_tmp(p2, "")) {
		matrix_init(&m);
		CHECK(matrix_load(&m, p2, err, sizeof(err)) == -1 &&
		      strstr(err, "holds no axis or setting"));
		unlink(p2);
	}
	if (!write_tmp(p3, "# just a comment\n\n  \t\n# another\n")) {
		matrix_init(&m);
		CHECK(matrix_load(&m, p3, err, sizeof(err)) == -1 &&
		      strstr(err, "holds no axis or setting"));
		unlink(p3);
	}
}

/* --set lines follow the matrix file's rule: one per axis or setting. */
static void set_twice_is_refused(void)
{
	char *twice[] = { "cpu=max", "reps=2", "cpu=qemu64" },
	     *ok[] = { "cpu=max", "exclude=cpu=max", "exclude=accel=kvm",
		       "read_timeout=5", "read_timeout.icount=600" };
	struct matrix m;
	char err[512];

	matrix_init(&m);
	CHECK(matrix_set_list(&m, twice, 3, err, sizeof(err)) == -1 &&
	      strstr(err, "sets 'cpu' again"));
	matrix_init(&m);
	CHECK(matrix_set_list(&m, ok, 5, err, sizeof(err)) == 0);
	CHECK(m.nexclude == 2);
}

static int variant_x(const struct cell *c)
{
	return !strcmp(c->v[AX_variant], "x");
}

static int variant_x_on_max(const struct cell *c)
{
	return variant_x(c) && !strcmp(c->v[AX_cpu], "max");
}

/* exclude = axis=a,b: any of the values (cpu flags join their model). */
static void exclusion_lists_match_any_value(void)
{
	struct matrix m;
	char err[512];

	matrix_init(&m);
	setm(&m, "variant=ok,slow,x");
	setm(&m, "cpu=qemu64,max,max,-rdrand");
	setm(&m, "exclude=variant=ok,slow");
	CHECK(planned_where(&m, variant_x) == 3 * 3);
	setm(&m, "exclude=cpu=qemu64,max,-rdrand");
	CHECK(planned_where(&m, variant_x_on_max) == 3);
	CHECK(matrix_set(&m, "exclude=variant=ok,,slow", err, sizeof(err)) ==
		      -1 &&
	      strstr(err, "empty value"));
	CHECK(matrix_set(&m, "exclude=cpu=-rdrand", err, sizeof(err)) == -1 &&
	      strstr(err, "model before"));
}

/* A plan too big to hold is refused by size before anything is allocated. */
static void huge_plan_names_its_size(void)
{
	struct matrix m;
	size_t n = 99;
	char err[512];

	matrix_init(&m);
	setm(&m, "variant=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p");
	setm(&m, "cpu=c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,c16");
	setm(&m, "smp=1,2,3,4,5,6,7,8");
	setm(&m, "trust_cpu=on,off");
	setm(&m, "reps=10000");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "4096 cells x 10000 reps = 40960000 boots") &&
	      strstr(err, "limit"));
	CHECK(matrix_plan(&m, 1, 1, 1, &n) == NULL && n == 0);
	setm(&m, "reps=40");
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
}

/* The shift axis: icount's shift per cell, its setting's other flags kept. */
static void shift_axis_per_cell(void)
{
	struct matrix m;
	char err[512], opt[64], speeds[256];

	matrix_init(&m);
	CHECK(!strcmp(m.values[AX_shift][0], "auto"));
	setm(&m, "icount=sleep=off,shift=2,align=off");
	CHECK(matrix_cell_shift(&m, "auto") == 2);
	CHECK(matrix_cell_shift(&m, "7") == 7);
	CHECK(matrix_icount_option(&m, 7, opt, sizeof(opt)) == 0 &&
	      !strcmp(opt, "sleep=off,shift=7,align=off"));
	CHECK(matrix_icount_option(&m, 2, opt, sizeof(opt)) == 0 &&
	      !strcmp(opt, m.icount));
	CHECK(matrix_icount_option(&m, 10, opt, 12) == -1);
	setm(&m, "accel=tcg,icount");
	setm(&m, "shift=auto,0,10");
	matrix_shift_speeds(&m, speeds, sizeof(speeds));
	CHECK(!strcmp(
		speeds,
		"icount shift=2: 250 MHz, shift=0: 1000 MHz, shift=10: 0.9765625 MHz"));
	/* a number under tcg: refused, naming the exclude line */
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "accel=tcg with shift=") &&
	      strstr(err, "exclude = accel=tcg shift=0,10"));
	setm(&m, "exclude=accel=tcg shift=0,10");
	CHECK(matrix_validate(&m, err, sizeof(err)) == 0);
	setm(&m, "shift=auto,11");
	CHECK(matrix_validate(&m, err, sizeof(err)) == -1 &&
	      strstr(err, "shift=11: accepted values are auto") &&
	      strstr(err, "0 to 10"));
	setm(&m, "accel=tcg");
	setm(&m, "shift=auto");
	matrix_shift_speeds(&m, speeds, sizeof(speeds));
	CHECK(!speeds[0]);
}

/*
 * Every number of a matrix by raw.csv's integer rule (crb_parse_i64):
 * strtol once took '+3', ' 3' inside a value (icount's shift= 3) and
 * '\v3'-like leading white space. Around '=' and at the ends, white space
 * is the line's syntax (reps = 20), not the value's.
 */
static void numbers_by_the_one_integer_rule(void)
{
	static const char *const bad[] = {
		"min_reps=+3",
		"reps=+5",
		"precision=+5",
		"timeout=+30",
		"timeout.icount=0x20",
		"read_timeout=1e2",
		"min_reps=3 4",
		"reps=٣",
		"min_reps=00000000000000000003x",
	};
	struct matrix m;
	char err[512];
	int shift;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		matrix_init(&m);
		err[0] = '\0';
		CHECK(matrix_set(&m, bad[i], err, sizeof(err)) == -1);
		/* the setting and the value named, and what is accepted */
		CHECK(strstr(err, bad[i]) && strstr(err, "digits only"));
	}
	matrix_init(&m);
	CHECK(matrix_set(&m, "min_reps = 3", err, sizeof(err)) == 0 &&
	      m.min_reps == 3);
	CHECK(matrix_set(&m, "reps=0007", err, sizeof(err)) == 0 &&
	      m.reps == 7);
	snprintf(m.icount, sizeof(m.icount), "shift= 3,sleep=off");
	CHECK(matrix_icount_shift(&m) == -1);
	snprintf(m.icount, sizeof(m.icount), "shift=+3");
	CHECK(matrix_icount_shift(&m) == -1);
	snprintf(m.icount, sizeof(m.icount), "sleep=off,shift=3");
	CHECK(matrix_icount_shift(&m) == 3);
	CHECK(parse_int("-0", -1, 1, &shift) == 0 && shift == 0);
	CHECK(parse_int(" 1", 0, 9, &shift) == -1 &&
	      parse_int("1 ", 0, 9, &shift) == -1 &&
	      parse_int("", 0, 9, &shift) == -1 &&
	      parse_int("99999999999999999999", 0, 9, &shift) == -1);
}

int main(void)
{
	TEST(expansion_is_the_cross_product);
	TEST(numbers_by_the_one_integer_rule);
	TEST(bad_input_names_what_is_accepted);
	TEST(load_file);
	TEST(load_refuses_what_it_would_misread);
	TEST(write_then_load_round_trips);
	TEST(plan_interleaves_and_covers);
	TEST(shards_disjoint_union_is_matrix);
	TEST(min_reps_against_reps);
	TEST(host_cpu_is_kvm_only);
	TEST(settings_per_accelerator);
	TEST(exclusions_leave_cells_out);
	TEST(load_bom_and_empty_files);
	TEST(set_twice_is_refused);
	TEST(exclusion_lists_match_any_value);
	TEST(huge_plan_names_its_size);
	TEST(shift_axis_per_cell);
	return check_any_failed;
}
