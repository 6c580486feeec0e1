// SPDX-License-Identifier: BSD-2-Clause
/*
 * The Prometheus text exposition format (xdplab/prom.h): families and
 * samples for --prometheus FILE; label values and help text through the
 * one escaper of untrusted text (core/escape.c, xl_prom_escape()).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "xdplab/escape.h"
#include "xdplab/prom.h"

void xl_prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s ", name);
	xl_prom_escape(f, help, true);
	fprintf(f, "\n# TYPE %s %s\n", name, type);
}

static void labels(FILE *f, const char *name, const struct xl_prom_label *l, int n)
{
	int i;

	fputs(name, f);
	if (!n)
		return;
	fputc('{', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s%s=\"", i ? "," : "", l[i].name);
		xl_prom_escape(f, l[i].value, false);
		fputc('"', f);
	}
	fputc('}', f);
}

/* @v in the fewest significant digits (15..17) that read back as @v. */
static const char *shortest(char *buf, size_t len, double v)
{
	int p;

	for (p = 15; p < 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

void xl_prom_sample(FILE *f, const char *name, const struct xl_prom_label *l, int n, double v)
{
	char buf[32];

	labels(f, name, l, n);
	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, " %.0f\n", v);
	else
		fprintf(f, " %s\n", shortest(buf, sizeof(buf), v));
}

void xl_prom_sample_u64(FILE *f, const char *name, const struct xl_prom_label *l, int n,
			uint64_t v)
{
	labels(f, name, l, n);
	fprintf(f, " %llu\n", (unsigned long long)v);
}
