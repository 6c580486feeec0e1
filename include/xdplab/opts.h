/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file opts.h
 * Command-line option tables: one table per command, from which the
 * getopt_long options and --help are both made, so they cannot drift.
 * Typed entries (type, field offset, range, choices) fill the command's
 * args struct, copied first from its default struct, so no option's name
 * or range is written twice (the model: xdp-tools' DEFINE_OPTION with
 * OPT_ENUM, OPT_U32, OPT_BOOL and per-command default structs). Long
 * options match exactly (no prefix abbreviations); an option given twice
 * (under its name, its alias or its letter) is an error. Every table also
 * takes -h/--help and -v/--verbose (repeatable: one log level each,
 * xdplab/log.h).
 * The parser never exits: it returns 0/-errno (or XL_OPTS_HELP) and
 * writes the help to the @out and every message, one line "xdplab CMD:
 * MSG" with the user's text escaped for a terminal (xl_term_esc()), to the
 * @errf it is given; src/cmd/opts.h binds them to stdout and stderr.
 */
#ifndef XDPLAB_OPTS_H
#define XDPLAB_OPTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * enum xl_opt_type - what an option's value is and where the parser puts
 * it (struct xl_opt @type): typed entries fill the command's args struct
 * at @off themselves, so no handler repeats the option's name or range
 * (the model: xdp-tools' DEFINE_OPTION with OPT_ENUM, OPT_U32, OPT_BOOL).
 * @XL_OT_CODE: the command's handler gets @id and the argument (an option
 *   that needs code: a list, a file checked at once).
 * @XL_OT_FLAG: a bool field, set true.
 * @XL_OT_SET: a flag that stores @min into an integer field of @size bytes
 *   (xsk's --copy: the copy mode XL_XSK_COPY).
 * @XL_OT_STR: a const char * field, set to the argument (argv's, not copied).
 * @XL_OT_UINT: an unsigned integer field of @size bytes, the value in
 *   [@min, @max] (xl_opts_u64() and its messages); @max XL_OPT_MAX_CPU or
 *   XL_OPT_NCPU: the last online CPU or their number.
 * @XL_OT_SECONDS: a uint64_t field in ns, the value in [@rmin, @rmax]
 *   seconds (xl_opts_seconds()).
 * @XL_OT_REAL: a double field in [@rmin, @rmax] (xl_opts_real_as()).
 * @XL_OT_ENUM: an integer field of @size bytes set to @values[i] (NULL:
 *   i) for the argument @choices[i] (xl_opts_choice() and its message).
 * @XL_OT_IPV4: a struct in_addr field set from a dotted quad
 *   ("--src-ip: 'x' is not an IPv4 address").
 */
enum xl_opt_type {
	XL_OT_CODE = 0,
	XL_OT_FLAG,
	XL_OT_SET,
	XL_OT_STR,
	XL_OT_UINT,
	XL_OT_SECONDS,
	XL_OT_REAL,
	XL_OT_ENUM,
	XL_OT_IPV4,
};

/*
 * struct xl_opt @max of an XL_OT_UINT read at parse time: the number of
 * online CPUs - 1 (a CPU number), or their number. Values no option takes
 * as a bound (UINT64_MAX itself is one: dump --count).
 */
#define XL_OPT_MAX_CPU (UINT64_MAX - 1)
#define XL_OPT_NCPU (UINT64_MAX - 2)

/**
 * struct xl_opt - one option.
 * @name: long name without "--"; @short_name: one letter or 0.
 * @arg: metavar when the option takes a value ("BYTES"), NULL for a flag.
 * @help: one line; include the accepted range and the default. In it
 *   "{range}" is the entry's range ("0.1..60", "1..32"), "{max}" its upper
 *   bound alone (a range whose lower bound is another option's), "{choices}" its
 *   @choices as "a, b or c", "{default}" the field's value in the
 *   command's default struct (struct xl_cmd_spec @defaults): written once,
 *   in the entry, they cannot drift from what the parser takes.
 * @id: value passed to the command's handler (XL_OT_CODE entries only).
 * @repeatable: may be given more than once (e.g. -v).
 * @alias: a second long name, exact, for the same option: the spelling a
 *   peer tool uses (xdp-bench's --xdp-mode for --mode); NULL if none.
 *   docs/cli.md lists them.
 * @type: enum xl_opt_type. @off/@size: the field's offset in the command's
 *   args struct (the handler's ctx) and its size in bytes (XL_FIELD()).
 * @min/@max: XL_OT_UINT's range (@max XL_OPT_MAX_CPU: a CPU number);
 *   XL_OT_SET's value in @min. @rmin/@rmax: XL_OT_SECONDS' and XL_OT_REAL's,
 *   and an XL_OT_CODE entry's when @rmax > @rmin (its help's "{range}" and
 *   "{max}"; its handler reads them from the entry, so they are written once;
 *   such an entry's field is a double, its help's "{default}").
 * @choices/@values: XL_OT_ENUM's NULL-terminated words and their values.
 * @has_seen/@seen_off: when set, a bool field at @seen_off is set true when
 *   the option is given (for a command's check of combinations).
 * @like: an entry of a shared table (xl_run_opt_table[]) this one is: its
 *   name, letter, metavar, help, type and range come from there, the field
 *   (@off, @size) from this entry, and this entry's @short_name, @help and
 *   @suffix, when set, replace or extend the shared ones.
 * @suffix: text appended to the help (redirect's " on IN").
 * @no_short: an XL_LIKE() entry without the shared entry's letter (xsk's
 *   --mode: -m is xdpsock's --no-need-wakeup there).
 * @hint: XL_OT_UINT: the text in parentheses when the value is not a
 *   whole number, "{range}" filled in as in @help, for a letter that a peer
 *   spells otherwise ("--qsize: 'x' is not a whole number (accepted:
 *   1..16384; -q is --qsize, as in xdp-bench redirect-cpu; quiet is -Q)");
 *   NULL: "accepted: {range}".
 * @check: XL_OT_UINT: a rule beyond the range (a ring size a power of
 *   two), called with "--name" and the value in range: 0, or not 0 with
 *   one line in @msg (@len bytes) that becomes the usage error; NULL: none.
 *   The library's own check, so the rule is written once.
 */
struct xl_opt {
	const char *name;
	char short_name;
	const char *arg;
	const char *help;
	int id;
	bool repeatable;
	const char *alias;
	enum xl_opt_type type;
	size_t off, size;
	uint64_t min, max;
	double rmin, rmax;
	const char *const *choices;
	const int *values;
	bool has_seen;
	size_t seen_off;
	const struct xl_opt *like;
	const char *suffix;
	bool no_short;
	const char *hint;
	int (*check)(const char *opt, uint64_t v, char *msg, size_t len);
};

/** XL_FIELD() - the @off and @size of member @f of the args struct type @T. */
#define XL_FIELD(T, f) .off = offsetof(T, f), .size = sizeof(((T *)0)->f)
/** Typed entries' tails: { "name", 'n', "N", "help", XL_UINT(T, f, 1, 32) }. */
#define XL_FLAG(T, f) .type = XL_OT_FLAG, XL_FIELD(T, f)
#define XL_SET(T, f, v) .type = XL_OT_SET, XL_FIELD(T, f), .min = (v)
#define XL_STR(T, f) .type = XL_OT_STR, XL_FIELD(T, f)
#define XL_UINT(T, f, lo, hi) .type = XL_OT_UINT, XL_FIELD(T, f), .min = (lo), .max = (hi)
#define XL_SECONDS(T, f, lo, hi) .type = XL_OT_SECONDS, XL_FIELD(T, f), .rmin = (lo), .rmax = (hi)
#define XL_REAL(T, f, lo, hi) .type = XL_OT_REAL, XL_FIELD(T, f), .rmin = (lo), .rmax = (hi)
#define XL_ENUM(T, f, words, vals) .type = XL_OT_ENUM, XL_FIELD(T, f), .choices = (words), .values = (vals)
#define XL_IPV4(T, f) .type = XL_OT_IPV4, XL_FIELD(T, f)
/** XL_SEEN() - also set the bool member @f of @T when the option is given. */
#define XL_SEEN(T, f) .has_seen = true, .seen_off = offsetof(T, f)
/** XL_LIKE() - entry @e of a shared table, into member @f of @T; overrides after. */
#define XL_LIKE(e, T, f, ...) { .like = &(e), XL_FIELD(T, f), __VA_ARGS__ }

/**
 * struct xl_cmd_spec - a command's name, positional arguments and options.
 * @name: e.g. "drop" or "lab run"; @args: e.g. "IFACE"; @summary: one line.
 * @defaults/@size: NULL, or the command's default args struct of @size
 *   bytes: xl_opts_parse() copies it into ctx before parsing, and --help's
 *   "{default}" reads it (tx's default packet operation is its own struct's).
 * @code: the handler of the XL_OT_CODE entries, given @spec (for its
 *   messages), the entry's @id, the argument (NULL for a flag) and the
 *   args struct; 0 or -errno after one line (the command's usage error). NULL: the
 *   handler passed to xl_opts_parse().
 */
struct xl_cmd_spec {
	const char *name;
	const char *args;
	const char *summary;
	const struct xl_opt *opts;
	size_t n_opts;
	const void *defaults;
	size_t size;
	int (*code)(const struct xl_cmd_spec *spec, int id, const char *arg, void *ctx);
};

/**
 * Handler of one parsed XL_OT_CODE option: return 0, or -EINVAL after
 * printing the one-line usage error. NULL when the
 * table has no such entry.
 */
typedef int (*xl_opt_handler)(int id, const char *arg, void *ctx);

/**
 * xl_opts_parse_to() - parse argv[1..] (argv[0] is the command name) into
 * @ctx, the command's args struct: first @spec's @defaults copied in, then
 * every typed entry's value checked and stored at its field, every
 * XL_OT_CODE entry handed to @spec's @code or else @handler.
 * --help/-h writes the help to @out (xl_opts_help_to()) and returns
 * XL_OPTS_HELP; a usage error is one line on @errf.
 * Not thread-safe: getopt_long's state is the process's.
 * Return: index in argv of the first positional argument (positional
 * arguments may not be mixed after options are done), XL_OPTS_HELP, or
 * -EINVAL / -E2BIG on a usage error or a bad table (message written).
 */
int xl_opts_parse_to(FILE *out, FILE *errf, const struct xl_cmd_spec *spec, int argc,
		     char **argv, xl_opt_handler handler, void *ctx);
#define XL_OPTS_HELP 1000000

/**
 * xl_opts_check_to() - check @spec's option table as it is built: every
 * long name and alias non-empty and unique among names and aliases, every
 * short letter alphanumeric and unique, none of "help"/'h' and
 * "verbose"/'v' (built in). xl_opts_parse_to() calls it first, so a table
 * with a letter twice (getopt would silently give the letter to the first
 * entry) fails on every invocation, not only when the letter is used.
 * A typed entry's field must be inside @spec's @size (when set) and of a
 * size its type can store (1, 2, 4 or 8 bytes; a pointer for XL_OT_STR).
 * Return: 0, or -EINVAL / -E2BIG (more than 64 options) after one line
 * "xdplab CMD: internal error: -q is both --quiet and --qsize" on @errf.
 */
int xl_opts_check_to(FILE *errf, const struct xl_cmd_spec *spec);

/**
 * xl_opt_resolve() - @o as it applies: an entry made with XL_LIKE() merged
 * with the shared entry it names (see struct xl_opt @like); else a copy.
 */
struct xl_opt xl_opt_resolve(const struct xl_opt *o);

/**
 * xl_opt_help_text() - @o's help line (resolved) with "{range}", "{max}",
 * "{choices}" and "{default}" (from @defaults, NULL: "") filled in, into
 * @buf (@len bytes; cut to fit). Return: @buf.
 */
char *xl_opt_help_text(const struct xl_opt *o, const void *defaults, char *buf, size_t len);

/** xl_opts_help_to() - the command's usage line and option list on @out. */
void xl_opts_help_to(FILE *out, const struct xl_cmd_spec *spec);

/**
 * xl_opts_verror() - "xdplab CMD: <msg>" on @errf, one line: the message
 * made from @fmt and @ap, escaped for a terminal (a newline or a control
 * character in an option's text shown as \xNN). Return: -EINVAL.
 */
int xl_opts_verror(FILE *errf, const struct xl_cmd_spec *spec, const char *fmt, va_list ap);

/**
 * xl_opts_u64() - parse a decimal integer in [@min, @max] for option @opt
 * (as "--size"). Rejects signs, blanks, trailing text and overflow with
 * "--size: 'x' is not a whole number (accepted: 60..1514)" or "... out of
 * range" on @errf. Return: 0 with *@out set, or -EINVAL.
 */
int xl_opts_u64(FILE *errf, const struct xl_cmd_spec *spec, const char *opt, const char *arg,
		uint64_t min, uint64_t max, uint64_t *out);

/**
 * xl_opts_real_as() - parse a decimal number in [@min, @max] for option
 * @opt ("0.05", ".5", "1e-3"): digits, one point, an exponent; a leading
 * minus only to say the value is below the range ("-0" is refused too).
 * Rejects hex, "inf", "nan", blanks, "+" and trailing text with "--alpha:
 * 'x' is not a number (accepted: 0.0001..0.5)", else "... is out of
 * range", on @errf, showing @shown: the argument as the user wrote it
 * when @arg is a part of it (a percentage's number without its '%'), else
 * @arg itself. Return: 0 with *@out set, or -EINVAL (*@out untouched).
 */
int xl_opts_real_as(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, const char *shown, double min, double max, double *out);

/**
 * xl_opts_seconds() - parse a decimal number of seconds in [@min, @max]
 * (e.g. "0.5"). Return: 0 with *@out_ns in ns, or -EINVAL (message on @errf).
 */
int xl_opts_seconds(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, double min, double max, uint64_t *out_ns);

/**
 * xl_opts_choice() - index of @arg in the NULL-terminated @choices, or
 * -EINVAL after "--mode: 'x' is not accepted (accepted: native, skb)" on
 * @errf (the whole list, however long).
 */
int xl_opts_choice(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		   const char *arg, const char *const choices[]);

#endif /* XDPLAB_OPTS_H */
