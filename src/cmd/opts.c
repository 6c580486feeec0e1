// SPDX-License-Identifier: BSD-2-Clause
/* Option tables -> getopt_long, exact matching, duplicates, --help. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "xdplab/log.h"

#define MAX_OPTS 64

int xl_usage_error(const struct xl_cmd_spec *spec, const char *fmt, ...)
{
	char msg[2048], out[4 * sizeof(msg)];
	va_list ap;

	/* The option's or the file's text in it is data: escaped, one line. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "xdplab %s: %s\n", spec->name, xl_term_esc(out, sizeof(out), msg, 0));
	return -EINVAL;
}

void xl_opts_help(const struct xl_cmd_spec *spec)
{
	size_t i;

	printf("Usage: xdplab %s [options]%s%s\n%s\n\nOptions:\n", spec->name,
	       spec->args && *spec->args ? " " : "", spec->args ? spec->args : "",
	       spec->summary);
	for (i = 0; i < spec->n_opts; i++) {
		const struct xl_opt *o = &spec->opts[i];
		char left[64];

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name,
				 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->alias)
			printf("  %-28s %s (also --%s)\n", left, o->help, o->alias);
		else
			printf("  %-28s %s\n", left, o->help);
	}
	printf("  %-28s %s\n", "-v, --verbose", "more diagnostics on stderr; twice for debug");
	printf("  %-28s %s\n", "-h, --help", "show this help");
}

/*
 * getopt_long accepts unambiguous prefixes ("--cou" for "--count"); we do
 * not. Before parsing, every "--word" must name an option in full. The
 * value of an option that takes one is skipped, so a value may start with
 * "--". Return: 0, or -EINVAL after the message.
 */
static int check_full_names(const struct xl_cmd_spec *spec, int argc, char **argv)
{
	int i;
	size_t j;

	for (i = 1; i < argc; i++) {
		const char *w = argv[i], *eq;
		size_t len;

		if (!strcmp(w, "--") || !strcmp(w, "--help") || !strcmp(w, "-h"))
			return 0; /* getopt stops there, or prints help first */
		if (w[0] == '-' && w[1] != '-' && w[1]) {
			/* Short option: skip its value when it is the next word. */
			for (j = 0; j < spec->n_opts; j++)
				if (spec->opts[j].short_name == w[1] && spec->opts[j].arg &&
				    !w[2])
					i++;
			continue;
		}
		if (w[0] != '-' || w[1] != '-')
			continue;
		eq = strchr(w, '=');
		len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
		if (len == 4 && !strncmp(w + 2, "help", 4))
			continue;
		if (len == 7 && !strncmp(w + 2, "verbose", 7))
			continue;
		for (j = 0; j < spec->n_opts; j++)
			if ((strlen(spec->opts[j].name) == len &&
			     !strncmp(w + 2, spec->opts[j].name, len)) ||
			    (spec->opts[j].alias && strlen(spec->opts[j].alias) == len &&
			     !strncmp(w + 2, spec->opts[j].alias, len)))
				break;
		if (j == spec->n_opts) {
			for (j = 0; j < spec->n_opts; j++)
				if (len && !strncmp(w + 2, spec->opts[j].name, len))
					return xl_usage_error(spec, "unknown option '%s' (did you mean --%s?)",
							      w, spec->opts[j].name);
			return xl_usage_error(spec, "unknown option '%s' (see 'xdplab %s --help')",
					      w, spec->name);
		}
		if (spec->opts[j].arg && !eq)
			i++;
	}
	return 0;
}

int xl_opts_check(const struct xl_cmd_spec *spec)
{
	size_t i, j;

	if (spec->n_opts > MAX_OPTS) {
		fprintf(stderr, "xdplab %s: internal error: %zu options (at most %d)\n",
			spec->name, spec->n_opts, MAX_OPTS);
		return -E2BIG;
	}
	for (i = 0; i < spec->n_opts; i++) {
		const struct xl_opt *a = &spec->opts[i];

		if (!a->name || !*a->name || !strcmp(a->name, "help") ||
		    !strcmp(a->name, "verbose") || (a->alias && (!*a->alias ||
		    !strcmp(a->alias, "help") || !strcmp(a->alias, "verbose") ||
		    !strcmp(a->alias, a->name))) ||
		    a->short_name == 'h' || a->short_name == 'v' || a->short_name == ':' ||
		    a->short_name == '?' || a->short_name == '-' ||
		    (a->short_name && !isalnum((unsigned char)a->short_name))) {
			char letter[8] = "";

			if (a->short_name)
				snprintf(letter, sizeof(letter), ", '-%c'", a->short_name);
			fprintf(stderr, "xdplab %s: internal error: option %zu ('--%s'%s) is not a usable name\n",
				spec->name, i, a->name ? a->name : "", letter);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			const struct xl_opt *b = &spec->opts[j];

			if (!strcmp(a->name, b->name) || (b->alias && !strcmp(a->name, b->alias))) {
				fprintf(stderr, "xdplab %s: internal error: option --%s is in the table twice\n",
					spec->name, a->name);
				return -EINVAL;
			}
			if (a->alias && (!strcmp(a->alias, b->name) ||
					 (b->alias && !strcmp(a->alias, b->alias)))) {
				fprintf(stderr, "xdplab %s: internal error: option --%s is in the table twice\n",
					spec->name, a->alias);
				return -EINVAL;
			}
			if (a->short_name && a->short_name == b->short_name) {
				fprintf(stderr, "xdplab %s: internal error: -%c is both --%s and --%s\n",
					spec->name, a->short_name, b->name, a->name);
				return -EINVAL;
			}
			if (a->id == b->id) {
				/* The handler could not tell them apart. */
				fprintf(stderr, "xdplab %s: internal error: --%s and --%s have one id (%d)\n",
					spec->name, b->name, a->name, a->id);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int xl_opts_parse(const struct xl_cmd_spec *spec, int argc, char **argv,
		  xl_opt_handler handler, void *ctx)
{
	struct option lopts[2 * MAX_OPTS + 3];
	char sopts[MAX_OPTS * 2 + 5] = ":hv";
	int seen[MAX_OPTS] = { 0 };
	size_t i, n = 0, s = strlen(sopts);
	int c, idx, err;

	err = xl_opts_check(spec);
	if (err)
		return err;
	for (i = 0; i < spec->n_opts; i++) {
		int has_arg = spec->opts[i].arg ? required_argument : no_argument;

		/* The name and its alias carry the same val: one option. */
		lopts[n++] = (struct option){ spec->opts[i].name, has_arg, NULL, 256 + (int)i };
		if (spec->opts[i].alias)
			lopts[n++] = (struct option){ spec->opts[i].alias, has_arg, NULL, 256 + (int)i };
		if (spec->opts[i].short_name) {
			sopts[s++] = spec->opts[i].short_name;
			if (spec->opts[i].arg)
				sopts[s++] = ':';
		}
	}
	lopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lopts[n++] = (struct option){ "verbose", no_argument, NULL, 'v' };
	lopts[n] = (struct option){ 0 };
	sopts[s] = '\0';

	err = check_full_names(spec, argc, argv);
	if (err)
		return err;
	optind = 0; /* 0, not 1: a full reset of glibc's getopt state */
	opterr = 0;
	for (;;) {
		idx = -1;
		c = getopt_long(argc, argv, sopts, lopts, &idx);
		if (c == -1)
			break;
		if (c == 'h') {
			xl_opts_help(spec);
			return XL_OPTS_HELP;
		}
		if (c == 'v') {
			/* -v after the command too, as xdp-bench and xdpsock take it. */
			if (xl_log_get_level() < XL_LOG_DEBUG)
				xl_log_set_level(xl_log_get_level() + 1);
			continue;
		}
		/*
		 * optopt is a long option's val (256 + index) when a value was
		 * given to a flag ("--quiet=1"): name the word as written, never
		 * print that val as a character.
		 */
		if (c == '?' && optopt >= 256 && (size_t)(optopt - 256) < spec->n_opts)
			return xl_usage_error(spec, "option '%s': --%s takes no value",
					      argv[optind - 1], spec->opts[optopt - 256].name);
		if (c == '?' && optopt > ' ' && optopt < 127)
			return xl_usage_error(spec, "unknown option '-%c' (see 'xdplab %s --help')",
					      optopt, spec->name);
		if (c == '?' && optopt)
			return xl_usage_error(spec, "unknown option '%s' (see 'xdplab %s --help')",
					      argv[optind - 1], spec->name);
		if (c == '?')
			return xl_usage_error(spec, "unknown option '%s' (see 'xdplab %s --help')",
					      argv[optind - 1], spec->name);
		if (c == ':' && optopt && optopt < 256)
			return xl_usage_error(spec, "option '-%c' needs a value", optopt);
		if (c == ':')
			return xl_usage_error(spec, "option '%s' needs a value",
					      argv[optind - 1]);
		if (c >= 256) {
			i = c - 256;
		} else {
			for (i = 0; i < spec->n_opts; i++)
				if (spec->opts[i].short_name == c)
					break;
			if (i == spec->n_opts)
				return xl_usage_error(spec, "unknown option '-%c'", c);
		}
		if (seen[i]++ && !spec->opts[i].repeatable)
			return xl_usage_error(spec, "option --%s given twice",
					      spec->opts[i].name);
		err = handler(spec->opts[i].id, optarg, ctx);
		if (err)
			return err;
	}
	return optind;
}

int xl_parse_u64(const struct xl_cmd_spec *spec, const char *opt,
		 const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!arg || !isdigit((unsigned char)arg[0]))
		goto out_nan;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end)
		goto out_nan;
	if (errno == ERANGE || v < min || v > max)
		return xl_usage_error(spec, "%s: '%s' is out of range (accepted: %llu..%llu)",
				      opt, arg, (unsigned long long)min,
				      (unsigned long long)max);
	*out = v;
	return 0;
out_nan:
	return xl_usage_error(spec, "%s: '%s' is not a whole number (accepted: %llu..%llu)",
			      opt, arg ? arg : "", (unsigned long long)min,
			      (unsigned long long)max);
}

/*
 * Digits with at most one point and at least one digit, then optionally
 * e or E, a sign and digits: what strtod() takes of a decimal number and
 * nothing else (no sign, blank, hex, "inf" or "nan").
 */
static bool decimal_ok(const char *s)
{
	size_t d = strspn(s, "0123456789");

	if (s[d] == '.')
		d += 1 + strspn(s + d + 1, "0123456789");
	if (!d || !strcmp(s, ".") || (s[0] == '.' && !isdigit((unsigned char)s[1])))
		return false;
	s += d;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		s += strspn(s, "0123456789");
	}
	return !*s;
}

int xl_parse_real(const struct xl_cmd_spec *spec, const char *opt, const char *arg, double min,
		  double max, double *out)
{
	bool neg = arg && arg[0] == '-';
	double v;

	if (!arg || !decimal_ok(arg + neg))
		return xl_usage_error(spec, "%s: '%s' is not a number (accepted: %.10g..%.10g)", opt,
				      arg ? arg : "", min, max);
	errno = 0;
	v = strtod(arg, NULL);
	/* "-0" is no number of ours; a figure beyond a double is out of range. */
	if (errno == ERANGE || (neg && v == 0) || v < min || v > max)
		return xl_usage_error(spec, "%s: '%s' is out of range (accepted: %.10g..%.10g)", opt,
				      arg, min, max);
	*out = v;
	return 0;
}

int xl_parse_seconds(const struct xl_cmd_spec *spec, const char *opt,
		     const char *arg, double min, double max, uint64_t *out_ns)
{
	char *end;
	double v;

	if (!arg || !decimal_ok(arg))
		goto out_nan; /* decimal only: strtod would also take hex */
	errno = 0;
	v = strtod(arg, &end);
	if (*end || isnan(v))
		goto out_nan;
	if (errno == ERANGE || !isfinite(v))
		v = max * 2; /* reported as out of range below */
	if (v < min || v > max)
		return xl_usage_error(spec, "%s: '%s' is out of range (accepted: %.10g..%.10g seconds)",
				      opt, arg, min, max);
	*out_ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
out_nan:
	return xl_usage_error(spec, "%s: '%s' is not a number of seconds (accepted: %.10g..%.10g)",
			      opt, arg ? arg : "", min, max);
}

int xl_parse_choice(const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, const char *const choices[])
{
	char list[256] = "";
	int i;

	for (i = 0; choices[i]; i++)
		if (!strcmp(arg, choices[i]))
			return i;
	for (i = 0; choices[i]; i++) {
		if (i)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, choices[i], sizeof(list) - strlen(list) - 1);
	}
	return xl_usage_error(spec, "%s: '%s' is not accepted (accepted: %s)", opt,
			      arg, list);
}
