// SPDX-License-Identifier: BSD-2-Clause
/* The commands' usage error: the option parser's message (xdplab/opts.h) on stderr. */
#include <stdarg.h>
#include <stdio.h>

#include "opts.h"

int xl_usage_error(const struct xl_cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = xl_opts_verror(stderr, spec, fmt, ap);
	va_end(ap);
	return ret;
}
