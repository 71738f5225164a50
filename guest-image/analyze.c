// SPDX-License-Identifier: GPL-2.0
#include "analyze.h"

#include <stdlib.h>
#include <string.h>

/* A name that another begins with comes after it: "ms" before "s". */
static const struct {
	const char *name;
	double ns;
} units[] = {
	{ "month", 2629800e9 }, { "min", 60e9 },  { "ms", 1e6 },
	{ "us", 1e3 },		{ "ns", 1 },	  { "y", 31557600e9 },
	{ "w", 604800e9 },	{ "d", 86400e9 }, { "h", 3600e9 },
	{ "s", 1e9 },
};

/* One "<number><unit>" word; returns its length, 0 if it is not one. */
static size_t span_word(const char *s, double *ns)
{
	char *after;
	double v;

	if (*s < '0' || *s > '9')
		return 0;
	v = strtod(s, &after);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].name);

		if (!strncmp(after, units[i].name, n) &&
		    (after[n] == ' ' || after[n] == '\0' || after[n] == '\n')) {
			*ns = v * units[i].ns;
			return (size_t)(after - s) + n;
		}
	}
	return 0;
}

int sda_timespan(const char *s, const char **end, int64_t *ns)
{
	double total = 0, v;
	size_t n = span_word(s, &v);

	if (!n)
		return -1;
	while (n) {
		total += v;
		s += n;
		*end = s;
		n = *s == ' ' ? span_word(s + 1, &v) : 0;
		if (n)
			s++;
	}
	*ns = (int64_t)(total + 0.5);
	return 0;
}

int sda_parse_time(const char *line, int64_t *userspace_ns, int64_t *finish_ns)
{
	static const char head[] = "Startup finished in ";
	int64_t before_userspace = 0, span, user = -1, fin = -1;
	const char *p = line;

	if (strncmp(p, head, sizeof(head) - 1))
		return -1;
	p += sizeof(head) - 1;
	for (;;) {
		const char *label, *close;

		if (sda_timespan(p, &p, &span) || strncmp(p, " (", 2))
			return -1;
		label = p + 2;
		close = strchr(label, ')');
		if (!close)
			return -1;
		/* firmware and loader run before the kernel: not on its clock */
		if (!strncmp(label, "kernel)", 7) ||
		    !strncmp(label, "initrd)", 7)) {
			before_userspace += span;
		} else if (!strncmp(label, "userspace)", 10)) {
			user = before_userspace;
			fin = before_userspace + span;
		} else if (strncmp(label, "firmware)", 9) &&
			   strncmp(label, "loader)", 7)) {
			return -1;
		}
		p = close + 1;
		if (!strncmp(p, " + ", 3))
			p += 3;
		else if (!strncmp(p, " = ", 3))
			break;
		else
			return -1;
	}
	if (user < 0 || sda_timespan(p + 3, &p, &span))
		return -1;
	*userspace_ns = user;
	*finish_ns = fin;
	return 0;
}
