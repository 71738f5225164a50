// SPDX-License-Identifier: GPL-2.0
/*
 * bench/machines/table.c: the C reader of the fact tables reads them by
 * scripts/table.sh's rules (comments, header, columns by name, '-' as
 * empty); the base axis is checked against kernel/bases, the variant axis
 * against the variants of one base (scripts/variants.sh --one-base); and
 * the base axis's default is kernel/bases' first row. Run from the
 * repository root.
 */
#define _GNU_SOURCE
#include "../../bench/machines/table.h"
#include "../../bench/matrix/matrixcheck.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct fact_table t;

/* A table with this text, read: table_read()'s return, message in err. */
static int read_text(const char *text, char *err, size_t errlen)
{
	char path[] = "/tmp/crngbench-table-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -2;
	fputs(text, f);
	fclose(f);
	rc = table_read(path, &t, err, errlen);
	unlink(path);
	return rc;
}

static void reads_by_column_name(void)
{
	char err[512];
	const char *a =
		"# a comment\n\nname  b   a\nr1    x   -\n\nr2    y\tz\n";
	const char *swapped = "name a b\n# r1\nr1 - x\nr2 z y\n";

	CHECK(read_text(a, err, sizeof(err)) == 0);
	CHECK(t.nrows == 2 && t.ncols == 3);
	CHECK(table_row(&t, "r2") == 1 && table_row(&t, "name") == -1);
	CHECK(!strcmp(table_get(&t, table_row(&t, "r1"), "b"), "x"));
	CHECK(!strcmp(table_get(&t, table_row(&t, "r1"), "a"), ""));
	CHECK(!strcmp(table_get(&t, table_row(&t, "r2"), "a"), "z"));
	CHECK(table_get(&t, 0, "c") == NULL);
	CHECK(read_text(swapped, err, sizeof(err)) == 0);
	CHECK(!strcmp(table_get(&t, table_row(&t, "r1"), "b"), "x") &&
	      !strcmp(table_get(&t, table_row(&t, "r1"), "a"), "") &&
	      !strcmp(table_get(&t, table_row(&t, "r2"), "a"), "z"));
	table_keys(&t, err, sizeof(err));
	CHECK(!strcmp(err, "r1 r2"));
}

static void refuses_what_it_cannot_read(void)
{
	char err[512];

	CHECK(read_text("name a b\nr1 x\n", err, sizeof(err)) == -1);
	CHECK(strstr(err, "line 2 has 2 fields, its header 3") != NULL);
	CHECK(read_text("# only a comment\n\n", err, sizeof(err)) == -1);
	CHECK(strstr(err, "no header line") != NULL);
	CHECK(table_read("/nonexistent/bases", &t, err, sizeof(err)) == -1);
	CHECK(strstr(err, "cannot read /nonexistent/bases") != NULL);
}

static void base_axis_checked_against_kernel_bases(void)
{
	struct matrix m;
	char err[1024], want[600], keys[512];

	CHECK(table_read("kernel/bases", &t, err, sizeof(err)) == 0);
	CHECK(t.nrows >= 1);
	/* a run from before the base axis booted the default base's
	 * kernels: the axis default is what kernel/bases calls default */
	CHECK(t.nrows >= 1 && !strcmp(t.cell[0][0], axis_default(AX_base)));
	for (int r = 0; r < t.nrows; r++)
		CHECK(table_get(&t, r, "package") &&
		      *table_get(&t, r, "package") &&
		      table_get(&t, r, "patches") &&
		      *table_get(&t, r, "patches"));
	matrix_init(&m);
	CHECK(bases_check_table(&m, "kernel/bases", err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "base=6.1,no-such-base", err, sizeof(err)) == 0);
	CHECK(bases_check_table(&m, "kernel/bases", err, sizeof(err)) == -1);
	table_keys(&t, keys, sizeof(keys));
	snprintf(
		want, sizeof(want),
		"base=no-such-base: not a kernel base; known bases: %s (the rows of kernel/bases)",
		keys);
	CHECK(!strcmp(err, want));
}

/*
 * The vDSO's getrandom() is x86_64's on a base of Linux 6.11+: asked on
 * studies/arches/arches.matrix's machines (none x86) on base 6.12 alone, every such
 * read would be "unavailable", so the matrix is refused; x86_64 beside
 * them makes it possible.
 */
static void vdso_read_needs_x86(void)
{
	static const char arches[] =
		"arch=armv5-versatilepb,armv7-virt,m68k-virt,m68k-q800,mipsel-malta";
	static const char want[] =
		"reads=getrandom-vdso: no planned cell has the vDSO's getrandom() (x86_64";
	struct matrix m;
	char err[1024];

	matrix_init(&m);
	CHECK(matrix_set(&m, arches, err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "base=6.12", err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "reads=urandom:getrandom-vdso", err,
			 sizeof(err)) == 0);
	CHECK(bases_check_table(&m, "kernel/bases", err, sizeof(err)) == -1);
	CHECK(strstr(err, want) != NULL);
	matrix_init(&m);
	CHECK(matrix_set(&m, "arch=x86_64,armv7-virt", err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "base=6.12", err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "reads=urandom:getrandom-vdso", err,
			 sizeof(err)) == 0);
	CHECK(bases_check_table(&m, "kernel/bases", err, sizeof(err)) == 0);
}

/*
 * A variant of one base only (kernel/variants, below "[6.1]"): a matrix
 * that boots it on 6.12 is refused, naming the variant, both bases and the
 * line; one whose exclude line leaves those cells out, or of base 6.1
 * alone, is not; a listing not of "NAME BASE LINE" lines is refused.
 */
static void one_base_variant_on_its_base(void)
{
	static const char one[] = "other 6.12 30\nmine 6.1 29\n";
	static const char want[] =
		"variant=mine is a variant of base 6.1 only (kernel/variants line 29, below [6.1]), and the matrix boots it on base 6.12: set base=6.1, or leave those cells out (exclude = base=6.12 variant=mine)";
	struct matrix m;
	char err[1024];

	matrix_init(&m);
	CHECK(matrix_set(&m, "variant=stock,mine", err, sizeof(err)) == 0);
	CHECK(variants_check_text(&m, one, err, sizeof(err)) == 0);
	CHECK(variants_check_text(&m, "", err, sizeof(err)) == 0);
	CHECK(matrix_set(&m, "base=6.1,6.12", err, sizeof(err)) == 0);
	CHECK(variants_check_text(&m, one, err, sizeof(err)) == -1);
	CHECK(!strcmp(err, want));
	CHECK(matrix_set(&m, "exclude=base=6.12 variant=mine", err,
			 sizeof(err)) == 0);
	CHECK(variants_check_text(&m, one, err, sizeof(err)) == 0);
	CHECK(variants_check_text(&m, "mine 6.1\n", err, sizeof(err)) == -1);
	CHECK(strstr(err, "not 'NAME BASE LINE'") != NULL);
}

/*
 * A table is a file from elsewhere too (issue 35 item 14): no FIFO that
 * would hang the runner, no device that grows its memory, no link, lines
 * and rows bounded, and a key on two rows is named with both lines.
 */
static void refuses_hostile_tables(void)
{
	char err[512], dir[] = "/tmp/crngbench-table-XXXXXX", path[600];
	char *big;

	CHECK(table_read("/dev/zero", &t, err, sizeof(err)) == -1);
	CHECK(strstr(err, "cannot read /dev/zero: not a regular file") != NULL);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK(table_read(path, &t, err, sizeof(err)) == -1);
	CHECK(strstr(err, "not a regular file") != NULL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK(symlink("/etc/hostname", path) == 0);
	CHECK(table_read(path, &t, err, sizeof(err)) == -1);
	CHECK(strstr(err, "symbolic link") != NULL);
	unlink(path);
	rmdir(dir);
	CHECK(read_text("name a\n6.1 x\n6.12 y\n# again\n6.1 z\n", err,
			sizeof(err)) == -1);
	CHECK(strstr(err, "lines 2 and 5 both have the key '6.1'") != NULL);
	big = malloc(TABLE_MAX_BYTES + 2);
	CHECK(big != NULL);
	if (!big)
		return;
	memset(big, 'x', TABLE_MAX_LINE + 20);
	memcpy(big, "name a\nr1 ", 10);
	big[TABLE_MAX_LINE + 20] = '\0';
	CHECK(read_text(big, err, sizeof(err)) == -1);
	CHECK(strstr(err, "line 2: longer than 4095 bytes") != NULL);
	memset(big, '\n', TABLE_MAX_BYTES - 1);
	memcpy(big, "name a\n", 7);
	big[TABLE_MAX_BYTES - 1] = '\0';
	CHECK(read_text(big, err, sizeof(err)) == -1);
	CHECK(strstr(err, "more than 1024 lines") != NULL);
	memset(big, '#', TABLE_MAX_BYTES + 1);
	big[TABLE_MAX_BYTES + 1] = '\0';
	CHECK(read_text(big, err, sizeof(err)) == -1);
	CHECK(strstr(err, "at most 65536 bytes") != NULL);
	free(big);
}

int main(void)
{
	TEST(reads_by_column_name);
	TEST(refuses_what_it_cannot_read);
	TEST(base_axis_checked_against_kernel_bases);
	TEST(vdso_read_needs_x86);
	TEST(one_base_variant_on_its_base);
	TEST(refuses_hostile_tables);
	return check_any_failed;
}
