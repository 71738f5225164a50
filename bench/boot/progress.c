// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "progress.h"
#include "../matrix/context.h"
#include "../results/results.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct acc_span *span_of(struct spans *s, const char *accel)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->span[i].accel, accel))
			return &s->span[i];
	if (s->n == MAX_SPANS)
		return NULL;
	s->span[s->n] = (struct acc_span){ .accel = accel, .at_once = 1 };
	return &s->span[s->n++];
}

double progress_eta(const struct spans *s, const char **unknown)
{
	double eta = 0;

	*unknown = NULL;

	for (int i = 0; i < s->n; i++) {
		const struct acc_span *sp = &s->span[i];
		size_t left = sp->todo > sp->boots ? sp->todo - sp->boots : 0;
		size_t at_once = sp->at_once > 0 ? (size_t)sp->at_once : 1;

		if (!left)
			continue;
		if (!sp->boots) {
			if (!*unknown)
				*unknown = sp->accel;
			continue;
		}
		if (at_once > left)
			at_once = left;
		eta += (double)sp->boot_ns / 1e9 / (double)sp->boots *
		       (double)left / (double)at_once;
	}
	return eta;
}

void progress_format(char *buf, size_t len, size_t done, size_t todo,
		     const char *cell, int more, double elapsed, double eta,
		     const char *unknown)
{
	char c[160], e[64];

	if (more > 0)
		snprintf(c, sizeof(c), "%s (+%d)", cell, more);
	else
		snprintf(c, sizeof(c), "%s", cell);
	if (unknown && eta < 0.5)
		snprintf(e, sizeof(e), "eta unknown");
	else if (unknown)
		snprintf(e, sizeof(e), "eta >%.0fs (%.12s unknown)", eta,
			 unknown);
	else
		snprintf(e, sizeof(e), "eta %.0fs", eta);
	snprintf(buf, len, "[bench] %zu/%zu boots  %-40s  elapsed %.0fs  %s",
		 done, todo, c, elapsed, e);
}

int progress_in_place(void)
{
	return isatty(STDERR_FILENO);
}

int spans_report(struct run *r, const struct spans *s)
{
	char csv[1024], line[1024];
	size_t len = 0, ll = 0;

	len += (size_t)snprintf(csv, sizeof(csv),
				"accel,boots,skipped,host_s\n");
	ll += (size_t)snprintf(line, sizeof(line),
			       "[bench] host time by accelerator:");
	for (int i = 0; i < s->n && len < sizeof(csv) && ll < sizeof(line);
	     i++) {
		const struct acc_span *sp = &s->span[i];
		double t = sp->boots ? (double)(sp->last - sp->first) / 1e9 : 0;

		len += (size_t)snprintf(csv + len, sizeof(csv) - len,
					"%s,%zu,%zu,%.1f\n", sp->accel,
					sp->boots, sp->skipped, t);
		ll += (size_t)snprintf(line + ll, sizeof(line) - ll,
				       "%s %s %.1f s (%zu boots", i ? "," : "",
				       sp->accel, t, sp->boots);
		if (sp->skipped && ll < sizeof(line))
			ll += (size_t)snprintf(line + ll, sizeof(line) - ll,
					       ", %zu skipped", sp->skipped);
		if (ll < sizeof(line))
			ll += (size_t)snprintf(line + ll, sizeof(line) - ll,
					       ")");
	}
	if (len >= sizeof(csv) || ll >= sizeof(line))
		return ERR(r, "host time summary too long");
	if (!r->o.quiet)
		fprintf(stderr, "%s\n", line);
	return results_write_out(r, "host_time.csv", csv, len);
}
