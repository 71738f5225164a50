// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the report reader: whatever bytes a broken or hostile
 * guest puts on the result channel, the reader never crashes, never reads out
 * of bounds, and hands out only records that pass its own checks.
 */
#include "../../guest-image/record.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int on_record(void *ctx, const char *seg, const struct crb_record *r)
{
	(void)ctx;
	(void)seg;
	const char *v;

	/* Anything delivered must have a known type and its required keys. */
	if ((unsigned int)r->type >= CRB_NTYPES || r->nfields < 1)
		abort();
	/* and the keys of a fixed form (record.h, CRB_FORMS) in that form */
	if ((v = crb_get(r, "digest")) && !crb_digest_ok(v, strlen(v)))
		abort();
	if ((v = crb_get(r, "status")) && !crb_status_ok(v, strlen(v)))
		abort();
	return 0;
}

static int on_segment(void *ctx, const struct crb_segment_info *s)
{
	(void)ctx;
	if (s->complete && s->error[0])
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct crb_record r;
	char err[256];

	crb_read_stream((const char *)data, size, on_record, on_segment, NULL);
	if (size < CRB_MAX_LINE)
		crb_parse_line((const char *)data, size, &r, err, sizeof(err));
	return 0;
}
