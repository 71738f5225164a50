// SPDX-License-Identifier: GPL-2.0
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

int err_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}
