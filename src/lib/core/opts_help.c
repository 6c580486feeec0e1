// SPDX-License-Identifier: BSD-2-Clause
/*
 * An option table's --help (xdplab/opts.h): each entry's help with its
 * {range}, {choices} and {default} filled in from the entry and the
 * command's defaults, written to the FILE * given.
 */
#include <stdio.h>
#include <string.h>

#include "xdplab/opts.h"
#include "opts_priv.h"

/* "{range}", "{max}", "{choices}" or "{default}" of @o into @buf. */
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
		else if (o->type == XL_OT_SECONDS || o->type == XL_OT_REAL ||
			 (o->type == XL_OT_CODE && o->rmax > o->rmin))
			snprintf(buf, len, "%.10g..%.10g", o->rmin, o->rmax);
	} else if (!strcmp(w, "max")) {
		if (o->type == XL_OT_UINT)
			snprintf(buf, len, "%llu", (unsigned long long)uint_max(o));
		else if (o->type == XL_OT_SECONDS || o->type == XL_OT_REAL ||
			 (o->type == XL_OT_CODE && o->rmax > o->rmin))
			snprintf(buf, len, "%.10g", o->rmax);
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
		case XL_OT_CODE:
			/* One with a real range sets a double (ndr's percentages). */
			if (o->rmax > o->rmin && o->size == sizeof(double)) {
				memcpy(&d, f, sizeof(d));
				snprintf(buf, len, "%.10g", d);
			}
			break;
		default:
			break;
		}
	}
}

char *xl_opt_help_text(const struct xl_opt *e, const void *defaults, char *buf, size_t len)
{
	static const char *const words[] = { "range", "max", "choices", "default", NULL };
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
