// SPDX-License-Identifier: BSD-2-Clause
/*
 * Option tables -> getopt_long, exact matching, duplicates
 * (xdplab/opts.h): the typed entries checked and parsed into the
 * command's args struct; every message written to the FILE * given. The
 * help is opts_help.c's, the values' parsers opts_value.c's.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/log.h"
#include "xdplab/opts.h"
#include "opts_priv.h"

#define MAX_OPTS 64

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
