/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/core's option parser (opts.c, opts_help.c,
 * opts_value.c): what the parser, the help writer and the value parsers
 * share.
 */
#ifndef XDPLAB_OPTS_PRIV_H
#define XDPLAB_OPTS_PRIV_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "xdplab/opts.h"

/* xl_opts_verror() with the message's arguments. */
static inline int __attribute__((format(printf, 3, 4)))
opts_error(FILE *errf, const struct xl_cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = xl_opts_verror(errf, spec, fmt, ap);
	va_end(ap);
	return ret;
}

/* The integer field of @size bytes at @f. */
static inline int64_t get_int(const void *f, size_t size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)f;
	case 2:
		return *(const uint16_t *)f;
	case 4:
		return *(const int32_t *)f; /* enums and ints: their sign kept */
	default:
		return *(const int64_t *)f;
	}
}

/* XL_OT_UINT's upper bound: XL_OPT_MAX_CPU is the last online CPU, XL_OPT_NCPU their number. */
static inline uint64_t uint_max(const struct xl_opt *o)
{
	if (o->max == XL_OPT_MAX_CPU)
		return (uint64_t)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (o->max == XL_OPT_NCPU)
		return (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	return o->max;
}

#endif
