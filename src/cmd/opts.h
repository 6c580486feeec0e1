/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file opts.h
 * Command-line option tables: one table per command, from which the
 * getopt_long options and --help are both made, so they cannot drift.
 * Long options match exactly (no prefix abbreviations); an option given
 * twice (under its name, its alias or its letter) is an error. Every
 * command also takes -h/--help and -v/--verbose (repeatable: one level of
 * diagnostics each, as -v before the command). Usage errors print one line
 * and make the command exit 2.
 */
#ifndef XDPLAB_OPTS_H
#define XDPLAB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Exit statuses of every command. */
#define XL_EXIT_OK 0
#define XL_EXIT_RUNTIME 1
#define XL_EXIT_USAGE 2

/**
 * struct xl_opt - one option.
 * @name: long name without "--"; @short_name: one letter or 0.
 * @arg: metavar when the option takes a value ("BYTES"), NULL for a flag.
 * @help: one line; include the accepted range and the default.
 * @id: value passed to the command's handler.
 * @repeatable: may be given more than once (e.g. -v).
 * @alias: a second long name, exact, for the same option: the spelling a
 *   peer tool uses (xdp-bench's --xdp-mode for --mode); NULL if none.
 *   docs/cli.md lists them.
 */
struct xl_opt {
	const char *name;
	char short_name;
	const char *arg;
	const char *help;
	int id;
	bool repeatable;
	const char *alias;
};

/**
 * struct xl_cmd_spec - a command's name, positional arguments and options.
 * @name: e.g. "drop" or "lab run"; @args: e.g. "IFACE"; @summary: one line.
 */
struct xl_cmd_spec {
	const char *name;
	const char *args;
	const char *summary;
	const struct xl_opt *opts;
	size_t n_opts;
};

/**
 * Handler of one parsed option: return 0, or -EINVAL after printing the
 * one-line usage error (xl_usage_error()).
 */
typedef int (*xl_opt_handler)(int id, const char *arg, void *ctx);

/**
 * xl_opts_parse() - parse argv[1..] (argv[0] is the command name).
 * --help/-h prints help to stdout and returns XL_OPTS_HELP.
 * Return: index in argv of the first positional argument (positional
 * arguments may not be mixed after options are done), XL_OPTS_HELP, or
 * -EINVAL on a usage error (message printed).
 */
int xl_opts_parse(const struct xl_cmd_spec *spec, int argc, char **argv,
		  xl_opt_handler handler, void *ctx);
#define XL_OPTS_HELP 1000000

/**
 * xl_opts_check() - check @spec's option table as it is built: every long
 * name and alias non-empty and unique among names and aliases, every short
 * letter alphanumeric and unique, none of "help"/'h' and "verbose"/'v'
 * (built in). xl_opts_parse() calls it first,
 * so a table with a letter twice (getopt would silently give the letter to
 * the first entry) fails on every invocation, not only when the letter is used.
 * Return: 0, or -EINVAL / -E2BIG (more than 64 options) after one line
 * "xdplab CMD: internal error: -q is both --quiet and --qsize" on stderr.
 */
int xl_opts_check(const struct xl_cmd_spec *spec);

/** xl_opts_help() - print the command's usage and option list to stdout. */
void xl_opts_help(const struct xl_cmd_spec *spec);

/** xl_usage_error() - print "xdplab CMD: <msg>" to stderr. Return: -EINVAL. */
int xl_usage_error(const struct xl_cmd_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * xl_parse_u64() - parse a decimal integer in [@min, @max] for option @opt
 * (as "--size"). Rejects signs, blanks, trailing text and overflow with
 * "--size: 'x' is not a whole number (accepted: 60..1514)" or "... out of range".
 * Return: 0 or -EINVAL (message printed).
 */
int xl_parse_u64(const struct xl_cmd_spec *spec, const char *opt,
		 const char *arg, uint64_t min, uint64_t max, uint64_t *out);

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

/**
 * xl_parse_real() - parse a decimal number in [@min, @max] for option @opt
 * ("0.05", ".5", "1e-3"): digits, one point, an exponent; a leading minus
 * only to say the value is below the range ("-0" is refused too). Rejects
 * hex, "inf", "nan", blanks, "+" and trailing text with "--alpha: 'x' is
 * not a number (accepted: 0.0001..0.5)", else "... is out of range".
 * Return: 0 with *@out set, or -EINVAL (message printed, *@out untouched).
 */
int xl_parse_real(const struct xl_cmd_spec *spec, const char *opt, const char *arg, double min,
		  double max, double *out);

/**
 * xl_parse_seconds() - parse a decimal number of seconds in [@min, @max]
 * (e.g. "0.5"). Return: 0 with *@out_ns in ns, or -EINVAL (message printed).
 */
int xl_parse_seconds(const struct xl_cmd_spec *spec, const char *opt,
		     const char *arg, double min, double max, uint64_t *out_ns);

/**
 * xl_parse_choice() - index of @arg in the NULL-terminated @choices, or
 * -EINVAL after "--mode: 'x' is not accepted (accepted: native, skb)".
 */
int xl_parse_choice(const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, const char *const choices[]);

#endif /* XDPLAB_OPTS_H */
