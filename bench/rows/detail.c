// SPDX-License-Identifier: GPL-2.0
/*
 * reads.csv's and traces.csv's rows as plots/runfiles.py read_table reads
 * them (its _tables() spec): the same kinds, so the runner never passes a
 * row (through --merge or --resume) that make report refuses later.
 */
#define _GNU_SOURCE
#include "detail.h"
#include "../ground/err.h"
#include "report.h"
#include "row.h"
#include "../ground/util.h"
#include "../../guest-image/record.h"

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* i: an integer or nothing; I: an integer; d: a digest or nothing; s: a
 * read's status or nothing; t: text (a boot_id: not empty). */
static const struct {
	const char *header, *kinds;
} specs[] = {
	/* boot_id,seq,iface,start_ns,dur_ns,bytes,errno,timed_out,digest,
	 * status,ready_before,ready_after */
	{ READS_HEADER, "Ti-IIiiidsii" },
	/* boot_id,comm,pid,func,start_ns,dur_ns */
	{ TRACES_HEADER, "T-I-II" },
};

static int field_bad(const char *col, const char *v, const char *what,
		     char *why, size_t whylen)
{
	return err_set(why, whylen, "column %s: '%.40s%s' is not %s", col, v,
		       strlen(v) > 40 ? "..." : "", what);
}

int detail_row_check(const char *header, char *const *field, int nf, char *why,
		     size_t whylen)
{
	const char *kinds = "", *col = header;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (!strcmp(header, specs[i].header))
			kinds = specs[i].kinds;
	for (int i = 0; i < nf; i++) {
		char name[32];
		const char *v = field[i];
		char k = i < (int)strlen(kinds) ? kinds[i] : '-';
		int64_t x;

		set_text(name, "%.*s", (int)strcspn(col, ",\n"), col);
		col += strcspn(col, ",\n");
		col += *col == ',';
		for (const char *p = v; *p; p++)
			if (control_len(p))
				return err_set(
					why, whylen,
					"column %s holds a control character (byte 0x%02x): a results file holds printable text only",
					name, (unsigned char)*p);
		if ((k == 'I' || (k == 'i' && *v)) && crb_parse_i64(v, &x))
			return field_bad(name, v,
					 k == 'I' ? CRB_INT_WORDS :
						    CRB_INT_WORDS " or nothing",
					 why, whylen);
		if (k == 'd' && *v && !crb_digest_ok(v, strlen(v)))
			return field_bad(
				name, v,
				"a digest (16 lowercase hex digits) or nothing",
				why, whylen);
		if (k == 's' && *v && !crb_status_ok(v, strlen(v)))
			return field_bad(name, v,
					 "'" CRB_STATUS_UNAVAILABLE
					 "' or nothing",
					 why, whylen);
		if (k == 'T' && !*v)
			return err_set(
				why, whylen,
				"column %s: empty (every row names its boot)",
				name);
	}
	return 0;
}

int detail_line_check(const char *header, const char *line, size_t len,
		      char *why, size_t whylen)
{
	char *copy, *field[32];
	int want = 1, nf, rc;

	for (const char *c = header; *c; c++)
		want += *c == ',';
	if (len && line[len - 1] == '\n')
		len--;
	if (memchr(line, '\0', len))
		return err_set(why, whylen, "holds a NUL byte: not a row");
	if (!(copy = strndup(line, len)))
		return err_set(why, whylen, "out of memory");
	nf = csv_split(copy, field, 32);
	rc = nf != want ? err_set(why, whylen,
				  "has %d fields, its header %d: not a row", nf,
				  want) :
			  detail_row_check(header, field, nf, why, whylen);
	free(copy);
	return rc;
}
