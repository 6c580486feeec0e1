// SPDX-License-Identifier: BSD-2-Clause
/*
 * Option tables -> getopt_long, exact matching, duplicates, --help
 * (xdplab/opts.h): the typed entries parsed into the command's args
 * struct; the help and every message written to the FILE * given.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/escape.h"
#include "xdplab/log.h"
#include "xdplab/opts.h"

#define MAX_OPTS 64

int xl_opts_verror(FILE *errf, const struct xl_cmd_spec *spec, const char *fmt, va_list ap)
{
	char small[2048], *msg = NULL, *out;
	va_list ap2;
	int n;

	/* The option's or the file's text in it is data: escaped, one line. */
	va_copy(ap2, ap);
	n = vasprintf(&msg, fmt, ap);
	if (n < 0) { /* out of memory: the message cut to fit */
		msg = NULL;
		vsnprintf(small, sizeof(small), fmt, ap2);
		n = strlen(small);
	}
	va_end(ap2);
	out = malloc(4 * (size_t)n + 1);
	if (out)
		fprintf(errf, "xdplab %s: %s\n", spec->name,
			xl_term_esc(out, 4 * (size_t)n + 1, msg ? msg : small, 0));
	else
		fprintf(errf, "xdplab %s: %s\n", spec->name, XL_ESC(msg ? msg : small));
	free(out);
	free(msg);
	return -EINVAL;
}

/* xl_opts_verror() with the message's arguments. */
static int __attribute__((format(printf, 3, 4)))
opts_error(FILE *errf, const struct xl_cmd_spec *spec, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = xl_opts_verror(errf, spec, fmt, ap);
	va_end(ap);
	return ret;
}

struct xl_opt xl_opt_resolve(const struct xl_opt *o)
{
	struct xl_opt r;

	if (!o->like)
		return *o;
	r = *o->like;
	r.off = o->off;
	r.size = o->size;
	r.like = NULL;
	if (o->short_name || o->no_short)
		r.short_name = o->short_name;
	if (o->help)
		r.help = o->help;
	if (o->suffix)
		r.suffix = o->suffix;
	if (o->hint)
		r.hint = o->hint;
	if (o->check)
		r.check = o->check;
	if (o->has_seen) {
		r.has_seen = true;
		r.seen_off = o->seen_off;
	}
	return r;
}

/* The integer field of @size bytes at @f. */
static int64_t get_int(const void *f, size_t size)
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

static void put_int(void *f, size_t size, int64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)f = v;
		break;
	case 2:
		*(uint16_t *)f = v;
		break;
	case 4:
		*(uint32_t *)f = v;
		break;
	default:
		*(uint64_t *)f = v;
	}
}

/* XL_OT_UINT's upper bound: XL_OPT_MAX_CPU is the last online CPU, XL_OPT_NCPU their number. */
static uint64_t uint_max(const struct xl_opt *o)
{
	if (o->max == XL_OPT_MAX_CPU)
		return (uint64_t)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (o->max == XL_OPT_NCPU)
		return (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
	return o->max;
}

/* "{range}", "{choices}" or "{default}" of @o into @buf. */
static void help_word(const struct xl_opt *o, const void *defaults, const char *w, char *buf,
		      size_t len)
{
	const void *f = defaults ? (const char *)defaults + o->off : NULL;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	if (!strcmp(w, "range")) {
		if (o->type == XL_OT_UINT)
			snprintf(buf, len, "%llu..%llu", (unsigned long long)o->min,
				 (unsigned long long)uint_max(o));
		else if (o->type == XL_OT_SECONDS || o->type == XL_OT_REAL)
			snprintf(buf, len, "%.10g..%.10g", o->rmin, o->rmax);
	} else if (!strcmp(w, "choices") && o->choices) {
		for (i = 0; o->choices[i] && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%s", !i ? "" : o->choices[i + 1] ? ", " : " or ",
				      o->choices[i]);
	} else if (!strcmp(w, "default") && f) {
		uint64_t ns;
		double d;

		switch (o->type) {
		case XL_OT_UINT:
			snprintf(buf, len, "%llu", (unsigned long long)get_int(f, o->size));
			break;
		case XL_OT_SECONDS:
			memcpy(&ns, f, sizeof(ns));
			snprintf(buf, len, "%.10g", ns / 1e9);
			break;
		case XL_OT_REAL:
			memcpy(&d, f, sizeof(d));
			snprintf(buf, len, "%.10g", d);
			break;
		case XL_OT_ENUM:
			for (i = 0; o->choices[i]; i++)
				if ((o->values ? o->values[i] : i) == get_int(f, o->size)) {
					snprintf(buf, len, "%s", o->choices[i]);
					break;
				}
			break;
		case XL_OT_STR:
			snprintf(buf, len, "%s", *(const char *const *)f ? *(const char *const *)f : "");
			break;
		default:
			break;
		}
	}
}

char *xl_opt_help_text(const struct xl_opt *e, const void *defaults, char *buf, size_t len)
{
	static const char *const words[] = { "range", "choices", "default", NULL };
	struct xl_opt o = xl_opt_resolve(e);
	const char *p = o.help ? o.help : "";
	size_t n = 0;
	int i;

	buf[0] = '\0';
	while (*p && n + 1 < len) {
		char word[1024];

		for (i = 0; words[i]; i++)
			if (p[0] == '{' && !strncmp(p + 1, words[i], strlen(words[i])) &&
			    p[1 + strlen(words[i])] == '}')
				break;
		if (!words[i]) {
			buf[n++] = *p++;
			continue;
		}
		help_word(&o, defaults, words[i], word, sizeof(word));
		n += snprintf(buf + n, len - n, "%s", word);
		p += strlen(words[i]) + 2;
	}
	if (n < len)
		buf[n] = '\0';
	if (o.suffix && n + 1 < len)
		snprintf(buf + n, len - n, "%s", o.suffix);
	return buf;
}

void xl_opts_help_to(FILE *out, const struct xl_cmd_spec *spec)
{
	size_t i;

	fprintf(out, "Usage: xdplab %s [options]%s%s\n%s\n\nOptions:\n", spec->name,
	       spec->args && *spec->args ? " " : "", spec->args ? spec->args : "",
	       spec->summary);
	for (i = 0; i < spec->n_opts; i++) {
		const struct xl_opt o = xl_opt_resolve(&spec->opts[i]);
		char left[64], help[2048];

		if (o.short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o.short_name,
				 o.name, o.arg ? " " : "", o.arg ? o.arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o.name,
				 o.arg ? " " : "", o.arg ? o.arg : "");
		xl_opt_help_text(&spec->opts[i], spec->defaults, help, sizeof(help));
		if (o.alias)
			fprintf(out, "  %-28s %s (also --%s)\n", left, help, o.alias);
		else
			fprintf(out, "  %-28s %s\n", left, help);
	}
	fprintf(out, "  %-28s %s\n", "-v, --verbose", "more diagnostics on stderr; twice for debug");
	fprintf(out, "  %-28s %s\n", "-h, --help", "show this help");
}

/*
 * getopt_long accepts unambiguous prefixes ("--cou" for "--count"); we do
 * not. Before parsing, every "--word" must name an option in full. The
 * value of an option that takes one is skipped, so a value may start with
 * "--". Return: 0, or -EINVAL after the message.
 */
static int check_full_names(FILE *errf, const struct xl_cmd_spec *spec, const struct xl_opt *ro, int argc,
			    char **argv)
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
				if (ro[j].short_name == w[1] && ro[j].arg &&
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
			if ((strlen(ro[j].name) == len &&
			     !strncmp(w + 2, ro[j].name, len)) ||
			    (ro[j].alias && strlen(ro[j].alias) == len &&
			     !strncmp(w + 2, ro[j].alias, len)))
				break;
		if (j == spec->n_opts) {
			for (j = 0; j < spec->n_opts; j++)
				if (len && !strncmp(w + 2, ro[j].name, len))
					return opts_error(errf, spec, "unknown option '%s' (did you mean --%s?)",
							      w, ro[j].name);
			return opts_error(errf, spec, "unknown option '%s' (see 'xdplab %s --help')",
					      w, spec->name);
		}
		if (ro[j].arg && !eq)
			i++;
	}
	return 0;
}

/* A typed entry's field: a size its type stores, inside the args struct. */
static int check_field(FILE *errf, const struct xl_cmd_spec *spec, const struct xl_opt *a)
{
	bool ok = true;

	switch (a->type) {
	case XL_OT_CODE:
		return 0;
	case XL_OT_FLAG:
		ok = a->size == sizeof(bool);
		break;
	case XL_OT_STR:
		ok = a->size == sizeof(const char *);
		break;
	case XL_OT_SECONDS:
	case XL_OT_REAL:
		ok = a->size == 8;
		break;
	case XL_OT_IPV4:
		ok = a->size == sizeof(struct in_addr);
		break;
	case XL_OT_ENUM:
		ok = a->choices && a->choices[0];
		/* fall through */
	case XL_OT_SET:
	case XL_OT_UINT:
		ok = ok && (a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8);
		break;
	default:
		ok = false;
	}
	if (spec->size && (a->off + a->size > spec->size ||
			   (a->has_seen && a->seen_off + sizeof(bool) > spec->size)))
		ok = false;
	if (!ok)
		fprintf(errf, "xdplab %s: internal error: option --%s: its field (offset %zu, %zu bytes) does not fit its type\n",
			spec->name, a->name ? a->name : "", a->off, a->size);
	return ok ? 0 : -EINVAL;
}

/* @spec's entries resolved (xl_opt_resolve()) into @ro (MAX_OPTS), checked. */
static int resolve_checked(FILE *errf, const struct xl_cmd_spec *spec, struct xl_opt *ro)
{
	size_t i, j;

	if (spec->n_opts > MAX_OPTS) {
		fprintf(errf, "xdplab %s: internal error: %zu options (at most %d)\n",
			spec->name, spec->n_opts, MAX_OPTS);
		return -E2BIG;
	}
	for (i = 0; i < spec->n_opts; i++)
		ro[i] = xl_opt_resolve(&spec->opts[i]);
	for (i = 0; i < spec->n_opts; i++) {
		const struct xl_opt *a = &ro[i];

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
			fprintf(errf, "xdplab %s: internal error: option %zu ('--%s'%s) is not a usable name\n",
				spec->name, i, a->name ? a->name : "", letter);
			return -EINVAL;
		}
		if (check_field(errf, spec, a))
			return -EINVAL;
		for (j = 0; j < i; j++) {
			const struct xl_opt *b = &ro[j];

			if (!strcmp(a->name, b->name) || (b->alias && !strcmp(a->name, b->alias))) {
				fprintf(errf, "xdplab %s: internal error: option --%s is in the table twice\n",
					spec->name, a->name);
				return -EINVAL;
			}
			if (a->alias && (!strcmp(a->alias, b->name) ||
					 (b->alias && !strcmp(a->alias, b->alias)))) {
				fprintf(errf, "xdplab %s: internal error: option --%s is in the table twice\n",
					spec->name, a->alias);
				return -EINVAL;
			}
			if (a->short_name && a->short_name == b->short_name) {
				fprintf(errf, "xdplab %s: internal error: -%c is both --%s and --%s\n",
					spec->name, a->short_name, b->name, a->name);
				return -EINVAL;
			}
			if (a->type == XL_OT_CODE && b->type == XL_OT_CODE && a->id == b->id) {
				/* The handler could not tell them apart. */
				fprintf(errf, "xdplab %s: internal error: --%s and --%s have one id (%d)\n",
					spec->name, b->name, a->name, a->id);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int xl_opts_check_to(FILE *errf, const struct xl_cmd_spec *spec)
{
	struct xl_opt ro[MAX_OPTS];

	return resolve_checked(errf, spec, ro);
}

/* A typed entry's value into its field of @ctx. Return: 0 or -EINVAL (message printed). */
static int store(FILE *errf, const struct xl_cmd_spec *spec, const struct xl_opt *o, const char *arg,
		 void *ctx)
{
	char opt[80], msg[512], *f = (char *)ctx + o->off;
	uint64_t v = 0;
	double d;
	int i, err = 0;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->type) {
	case XL_OT_FLAG:
		*(bool *)f = true;
		break;
	case XL_OT_SET:
		put_int(f, o->size, o->min);
		break;
	case XL_OT_STR:
		memcpy(f, &arg, sizeof(arg));
		break;
	case XL_OT_UINT:
		if (o->hint && (!arg[0] || strspn(arg, "0123456789") != strlen(arg))) {
			struct xl_opt h = *o;

			h.help = o->hint;
			h.suffix = NULL;
			return opts_error(errf, spec, "%s: '%s' is not a whole number (%s)", opt, arg,
					      xl_opt_help_text(&h, NULL, msg, sizeof(msg)));
		}
		err = xl_opts_u64(errf, spec, opt, arg, o->min, uint_max(o), &v);
		if (!err && o->check && o->check(opt, v, msg, sizeof(msg)))
			return opts_error(errf, spec, "%s", msg);
		if (!err)
			put_int(f, o->size, v);
		break;
	case XL_OT_IPV4:
		if (inet_pton(AF_INET, arg, f) != 1)
			return opts_error(errf, spec, "%s: '%s' is not an IPv4 address", opt, arg);
		break;
	case XL_OT_SECONDS:
		err = xl_opts_seconds(errf, spec, opt, arg, o->rmin, o->rmax, &v);
		if (!err)
			memcpy(f, &v, sizeof(v));
		break;
	case XL_OT_REAL:
		err = xl_opts_real_as(errf, spec, opt, arg, arg, o->rmin, o->rmax, &d);
		if (!err)
			memcpy(f, &d, sizeof(d));
		break;
	case XL_OT_ENUM:
		i = xl_opts_choice(errf, spec, opt, arg, o->choices);
		if (i < 0)
			return i;
		put_int(f, o->size, o->values ? o->values[i] : i);
		break;
	default:
		return -EINVAL;
	}
	if (!err && o->has_seen)
		*(bool *)((char *)ctx + o->seen_off) = true;
	return err;
}

int xl_opts_parse_to(FILE *out, FILE *errf, const struct xl_cmd_spec *spec, int argc,
		     char **argv, xl_opt_handler handler, void *ctx)
{
	struct xl_opt ro[MAX_OPTS];
	struct option lopts[2 * MAX_OPTS + 3];
	char sopts[MAX_OPTS * 2 + 5] = ":hv";
	int seen[MAX_OPTS] = { 0 };
	size_t i, n = 0, s = strlen(sopts);
	int c, idx, err;

	err = resolve_checked(errf, spec, ro);
	if (err)
		return err;
	if (spec->defaults)
		memcpy(ctx, spec->defaults, spec->size);
	for (i = 0; i < spec->n_opts; i++) {
		int has_arg = ro[i].arg ? required_argument : no_argument;

		/* The name and its alias carry the same val: one option. */
		lopts[n++] = (struct option){ ro[i].name, has_arg, NULL, 256 + (int)i };
		if (ro[i].alias)
			lopts[n++] = (struct option){ ro[i].alias, has_arg, NULL, 256 + (int)i };
		if (ro[i].short_name) {
			sopts[s++] = ro[i].short_name;
			if (ro[i].arg)
				sopts[s++] = ':';
		}
	}
	lopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lopts[n++] = (struct option){ "verbose", no_argument, NULL, 'v' };
	lopts[n] = (struct option){ 0 };
	sopts[s] = '\0';

	err = check_full_names(errf, spec, ro, argc, argv);
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
			xl_opts_help_to(out, spec);
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
			return opts_error(errf, spec, "option '%s': --%s takes no value",
					      argv[optind - 1], ro[optopt - 256].name);
		if (c == '?' && optopt > ' ' && optopt < 127)
			return opts_error(errf, spec, "unknown option '-%c' (see 'xdplab %s --help')",
					      optopt, spec->name);
		if (c == '?' && optopt)
			return opts_error(errf, spec, "unknown option '%s' (see 'xdplab %s --help')",
					      argv[optind - 1], spec->name);
		if (c == '?')
			return opts_error(errf, spec, "unknown option '%s' (see 'xdplab %s --help')",
					      argv[optind - 1], spec->name);
		if (c == ':' && optopt && optopt < 256)
			return opts_error(errf, spec, "option '-%c' needs a value", optopt);
		if (c == ':')
			return opts_error(errf, spec, "option '%s' needs a value",
					      argv[optind - 1]);
		if (c >= 256) {
			i = c - 256;
		} else {
			for (i = 0; i < spec->n_opts; i++)
				if (ro[i].short_name == c)
					break;
			if (i == spec->n_opts)
				return opts_error(errf, spec, "unknown option '-%c'", c);
		}
		if (seen[i]++ && !ro[i].repeatable)
			return opts_error(errf, spec, "option --%s given twice",
					      ro[i].name);
		if (ro[i].type != XL_OT_CODE) {
			err = store(errf, spec, &ro[i], optarg, ctx);
		} else if (spec->code) {
			err = spec->code(spec, ro[i].id, optarg, ctx);
		} else if (handler) {
			err = handler(ro[i].id, optarg, ctx);
		} else {
			fprintf(errf, "xdplab %s: internal error: option --%s has no handler\n",
				spec->name, ro[i].name);
			return -EINVAL;
		}
		if (err)
			return err;
	}
	return optind;
}

int xl_opts_u64(FILE *errf, const struct xl_cmd_spec *spec, const char *opt, const char *arg,
		uint64_t min, uint64_t max, uint64_t *out)
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
		return opts_error(errf, spec, "%s: '%s' is out of range (accepted: %llu..%llu)",
				      opt, arg, (unsigned long long)min,
				      (unsigned long long)max);
	*out = v;
	return 0;
out_nan:
	return opts_error(errf, spec, "%s: '%s' is not a whole number (accepted: %llu..%llu)",
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

int xl_opts_real_as(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, const char *shown, double min, double max, double *out)
{
	bool neg = arg && arg[0] == '-';
	double v;

	if (!arg || !decimal_ok(arg + neg))
		return opts_error(errf, spec, "%s: '%s' is not a number (accepted: %.10g..%.10g)", opt,
				      shown ? shown : "", min, max);
	errno = 0;
	v = strtod(arg, NULL);
	/* "-0" is no number of ours; a figure beyond a double is out of range. */
	if (errno == ERANGE || (neg && v == 0) || v < min || v > max)
		return opts_error(errf, spec, "%s: '%s' is out of range (accepted: %.10g..%.10g)", opt,
				      shown, min, max);
	*out = v;
	return 0;
}

int xl_opts_seconds(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
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
		return opts_error(errf, spec, "%s: '%s' is out of range (accepted: %.10g..%.10g seconds)",
				      opt, arg, min, max);
	*out_ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
out_nan:
	return opts_error(errf, spec, "%s: '%s' is not a number of seconds (accepted: %.10g..%.10g)",
			      opt, arg ? arg : "", min, max);
}

int xl_opts_choice(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		   const char *arg, const char *const choices[])
{
	size_t len = 1;
	char *list;
	int i;

	for (i = 0; choices[i]; i++)
		if (!strcmp(arg, choices[i]))
			return i;
	for (i = 0; choices[i]; i++)
		len += strlen(choices[i]) + 2;
	list = calloc(1, len);
	for (i = 0; list && choices[i]; i++) {
		if (i)
			strcat(list, ", ");
		strcat(list, choices[i]);
	}
	opts_error(errf, spec, "%s: '%s' is not accepted (accepted: %s)", opt, arg,
		       list ? list : "(out of memory)");
	free(list);
	return -EINVAL;
}
