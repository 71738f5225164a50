/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C reader of crngbench's fact tables (kernel/bases), by the rules of
 * the shell's (scripts/table.sh) and Python's (plots/tool.py
 * fact_table()): a line starting with '#' is a comment and a blank line
 * nothing; the first other line names the columns; fields are separated
 * by white space; '-' is an empty value; columns are read by name. A row
 * with more or fewer fields than the header is an error naming its line.
 * The machines' kernels from kernel/arches (table.c).
 */
#ifndef CRNGBENCH_TABLE_H
#define CRNGBENCH_TABLE_H

#include <stddef.h>

#define TABLE_MAX_ROWS 32
#define TABLE_MAX_COLS 16
#define TABLE_MAX_WORD 256
/* What a table file may be: bytes, lines, bytes in one line. */
#define TABLE_MAX_BYTES 65536
#define TABLE_MAX_LINES 1024
#define TABLE_MAX_LINE 4096

struct fact_table {
	char head[TABLE_MAX_COLS][TABLE_MAX_WORD];
	char cell[TABLE_MAX_ROWS][TABLE_MAX_COLS][TABLE_MAX_WORD];
	int line[TABLE_MAX_ROWS]; /* each row's line in the file */
	int nrows, ncols;
};

/* Read the table at path into t: 0, or -1 with a message naming the file
 * (and line) and what was wrong. Read as a file from elsewhere: a regular
 * file (no link, FIFO or device; opened O_NOFOLLOW|O_NONBLOCK), within
 * TABLE_MAX_BYTES, TABLE_MAX_LINES and TABLE_MAX_LINE; a key (first
 * column) on two rows is an error naming both lines. */
int table_read(const char *path, struct fact_table *t, char *err,
	       size_t errlen);
/*
 * The text of the table file at path, as table_read reads it, into b: 0,
 * or -1 with a message (b freed): not a regular file, a link, longer than
 * TABLE_MAX_BYTES, a NUL byte. kernel/variants' reader too (matrixcheck.c).
 */
struct strbuf;
int table_slurp(const char *path, struct strbuf *b, char *err, size_t errlen);
/* The row whose first column is key, or -1. */
int table_row(const struct fact_table *t, const char *key);
/* Row row's value of column col ("" for '-'), or NULL: no such column. */
const char *table_get(const struct fact_table *t, int row, const char *col);
/* "6.1 6.12": every row's first column, for messages. */
void table_keys(const struct fact_table *t, char *buf, size_t len);

/*
 * A table of the runner's own checkout (table: "kernel/bases"), <dir of
 * the binary>/../<table>, never the current directory's (a directory the
 * runner is started in may hold anything). 0 with the path, or -1.
 */
int table_path(const char *table, char *buf, size_t len);
/*
 * kernel/arches (table_path) into every machine of arch.c: the row whose
 * machines column names it gives its kernel_arch (the row's name), image,
 * dtb, fixed_hz (hz unless "choice"), qemu_package and systemd (guest).
 * 0, or -1 with a message naming the table and what is wrong: no row for
 * a machine (naming the rows), a machine on two rows, a machine the
 * runner does not have, a column missing (naming the columns), a value
 * not accepted. Before anything reads those fields; again is harmless.
 */
int arches_load(char *err, size_t errlen);
/* The same from the table at path. */
int arches_load_table(const char *path, char *err, size_t errlen);
#endif /* CRNGBENCH_TABLE_H */
