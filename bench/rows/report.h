/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turn the bytes a guest wrote on its result channel into a raw.csv row and
 * the rows of reads.csv and traces.csv, using the record reader of
 * guest-image/record.h. Only complete (terminated, checksummed) segments
 * contribute data.
 */
#ifndef CRNGBENCH_REPORT_H
#define CRNGBENCH_REPORT_H

#include "row.h"
#include "../ground/util.h"

#include <stddef.h>

/*
 * reads.csv: one row per read record. digest: the record's (record.h),
 * empty where it has none; status: "unavailable" where the read kind does
 * not exist in the guest (not a failure), else empty; ready_before,
 * ready_after: the CRNG ready just before and after the call (0 or 1),
 * empty where the probe did not look (every read but getrandom-vdso).
 */
#define READS_HEADER                                                             \
	"boot_id,seq,iface,start_ns,dur_ns,bytes,errno,timed_out,digest,status," \
	"ready_before,ready_after\n"
#define TRACES_HEADER "boot_id,comm,pid,func,start_ns,dur_ns\n"

struct report_outcome {
	int probe_complete; /* the PID 1 segment verified */
	int report_complete; /* the report segment verified */
	int guest_failed; /* a fail segment arrived */
	char error[300]; /* first segment error, if any */
	char last[256]; /* last record of an incomplete segment */
	char pending[200]; /* systemd jobs still running at report time */
	/* early=child: the child had not finished its reads at the report
	 * (meta early_child=unfinished); the read it was in, if any */
	int early_unfinished;
	char early_reading[64];
};

/*
 * Parse chan (len bytes) into r's guest measures and append reads/traces
 * rows (prefixed with r->boot_id). Does not set r->status: the caller
 * classifies the boot with what it also knows (timeout, exit status).
 */
void report_parse(const char *chan, size_t len, struct row *r,
		  struct strbuf *reads, struct strbuf *traces,
		  struct report_outcome *out);

#endif /* CRNGBENCH_REPORT_H */
