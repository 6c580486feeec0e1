/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opts.h - the commands' binding of the option parser (xdplab/opts.h):
 * help on stdout, usage errors on stderr, and the exit statuses. Usage
 * errors print one line and make the command exit 2.
 */
#ifndef XDPLAB_CMD_OPTS_H
#define XDPLAB_CMD_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "xdplab/opts.h"

/** Exit statuses of every command. */
#define XL_EXIT_OK 0
#define XL_EXIT_RUNTIME 1
#define XL_EXIT_USAGE 2

/** xl_opts_parse() - xl_opts_parse_to() with the help on stdout, errors on stderr. */
static inline int xl_opts_parse(const struct xl_cmd_spec *spec, int argc, char **argv,
				xl_opt_handler handler, void *ctx)
{
	return xl_opts_parse_to(stdout, stderr, spec, argc, argv, handler, ctx);
}

/** xl_opts_check() - xl_opts_check_to() on stderr. */
static inline int xl_opts_check(const struct xl_cmd_spec *spec)
{
	return xl_opts_check_to(stderr, spec);
}

/** xl_opts_help() - the command's usage and option list on stdout. */
static inline void xl_opts_help(const struct xl_cmd_spec *spec)
{
	xl_opts_help_to(stdout, spec);
}

/** xl_usage_error() - print "xdplab CMD: <msg>" to stderr (src/cmd/opts.c). Return: -EINVAL. */
int xl_usage_error(const struct xl_cmd_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** xl_parse_u64() - xl_opts_u64() with its message on stderr. */
static inline int xl_parse_u64(const struct xl_cmd_spec *spec, const char *opt, const char *arg,
			       uint64_t min, uint64_t max, uint64_t *out)
{
	return xl_opts_u64(stderr, spec, opt, arg, min, max, out);
}

/**
 * XL_PARSE_INTO() - xl_parse_u64() into @dst, an integer lvalue of any
 * width that holds [@min, @max] (a field narrower than 64 bits), assigned
 * only when the value is accepted; @dst is evaluated once, then.
 * Its value: 0 or -EINVAL (message printed), as xl_parse_u64()'s.
 */
#define XL_PARSE_INTO(spec, opt, arg, min, max, dst)                                        \
	({                                                                                  \
		uint64_t xl_v_;                                                             \
		int xl_r_ = xl_parse_u64((spec), (opt), (arg), (min), (max), &xl_v_);        \
                                                                                            \
		if (!xl_r_)                                                                 \
			(dst) = xl_v_;                                                      \
		xl_r_;                                                                      \
	})

/** xl_parse_real() - xl_opts_real_as() of @arg shown as itself, its message on stderr. */
static inline int xl_parse_real(const struct xl_cmd_spec *spec, const char *opt, const char *arg,
				double min, double max, double *out)
{
	return xl_opts_real_as(stderr, spec, opt, arg, arg, min, max, out);
}

/** xl_parse_real_as() - xl_opts_real_as() with its message on stderr. */
static inline int xl_parse_real_as(const struct xl_cmd_spec *spec, const char *opt,
				   const char *arg, const char *shown, double min, double max,
				   double *out)
{
	return xl_opts_real_as(stderr, spec, opt, arg, shown, min, max, out);
}

/** xl_parse_seconds() - xl_opts_seconds() with its message on stderr. */
static inline int xl_parse_seconds(const struct xl_cmd_spec *spec, const char *opt,
				   const char *arg, double min, double max, uint64_t *out_ns)
{
	return xl_opts_seconds(stderr, spec, opt, arg, min, max, out_ns);
}

/** xl_parse_choice() - xl_opts_choice() with its message on stderr. */
static inline int xl_parse_choice(const struct xl_cmd_spec *spec, const char *opt,
				  const char *arg, const char *const choices[])
{
	return xl_opts_choice(stderr, spec, opt, arg, choices);
}

#endif /* XDPLAB_CMD_OPTS_H */
