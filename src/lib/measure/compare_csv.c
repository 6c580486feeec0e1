// SPDX-License-Identifier: BSD-2-Clause
/*
 * compare --format csv (xdplab/compare_out.h, XL_CMP_OUT_CSV): the rate rows
 * of two files, a line each, for a spreadsheet or a script, with
 * benchstat's geomean row last. Empty fields where the text table shows
 * "-". Latency rows are in the text and JSON outputs only.
 */
#include <stdio.h>
#include <string.h>

#include "compare_out_priv.h"
#include "xdplab/compare.h"

/* One text field from a file: terminal-safe, formula-safe, RFC 4180 quoted. */
static void csv_text(FILE *out, const char *s, const char *sep)
{
	const char *e = XL_ESC(s);
	size_t n = strlen(e);
	bool quote = strpbrk(e, ",\"") || (n && (e[0] == ' ' || e[n - 1] == ' '));
	bool formula = strchr("=+-@", e[0]) && e[0];

	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *e; e++) {
		if (*e == '"')
			fputc('"', out);
		fputc(*e, out);
	}
	if (quote)
		fputc('"', out);
	fputs(sep, out);
}

/* A number, or an empty field when @have is false. */
static void csv_num(FILE *out, bool have, const char *fmt, double v)
{
	if (have)
		fprintf(out, fmt, v);
	fputc(',', out);
}

static void csv_side(FILE *out, const struct xl_cmp_rowdata *d)
{
	bool have = d && d->nreps;

	csv_num(out, have, "%.6f", have ? d->mpps.median : 0);
	csv_num(out, have, "%.6f", have ? d->mpps.min : 0);
	csv_num(out, have, "%.6f", have ? d->mpps.max : 0);
}

void xl_cmp_out_csv(FILE *out, const struct xl_cmp_result *res)
{
	struct xl_cmp_geomean g;
	char verdict[256];
	int i;

	fprintf(out, "benchmark,size,mode,wiring,base_mpps,base_min_mpps,base_max_mpps,new_mpps,new_min_mpps,new_max_mpps,delta_mpps,delta_pct,delta_ns_per_packet,base_cpu_ns_per_packet,new_cpu_ns_per_packet,delta_cpu_ns_per_packet,base_reps,new_reps,p,verdict\n");
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = r->base ? r->base : r->new;
		bool num = r->status == XL_CMP_PAIRED, cpu = num && r->base_cpu > 0 && r->new_cpu > 0;

		csv_text(out, d->name, ",");
		fprintf(out, "%u,", d->size);
		csv_text(out, d->mode, ",");
		csv_text(out, d->wiring, ",");
		csv_side(out, r->base);
		csv_side(out, r->new);
		csv_num(out, num, "%+.6f", r->delta_mpps);
		csv_num(out, num, "%+.3f", r->delta_pct);
		csv_num(out, num, "%+.3f", r->delta_ns);
		csv_num(out, num && r->base_cpu > 0, "%.3f", r->base_cpu);
		csv_num(out, num && r->new_cpu > 0, "%.3f", r->new_cpu);
		csv_num(out, cpu, "%+.3f", r->delta_cpu_ns);
		csv_num(out, num, "%.0f", (double)r->test.n2); /* the test's x is NEW's */
		csv_num(out, num, "%.0f", (double)r->test.n1);
		csv_num(out, num, "%.4f", r->test.p);
		if (r->status == XL_CMP_NOT_MEASURED)
			snprintf(verdict, sizeof(verdict), "%s", r->reason);
		else
			snprintf(verdict, sizeof(verdict), "%s%s%s",
				 xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_TEXT),
				 r->reason[0] ? ": " : "", r->reason);
		csv_text(out, verdict, "\n");
	}
	if (xl_cmp_geomean(res, &g) || g.n < 2)
		return;
	fprintf(out, "geomean,,,,%.6f,,,%.6f,,,%+.6f,%+.3f,%+.3f,", g.base_mpps, g.new_mpps,
	       g.new_mpps - g.base_mpps, g.delta_pct, 1e3 / g.new_mpps - 1e3 / g.base_mpps);
	csv_num(out, g.base_cpu > 0, "%.3f", g.base_cpu);
	csv_num(out, g.base_cpu > 0, "%.3f", g.new_cpu);
	csv_num(out, g.base_cpu > 0, "%+.3f", g.new_cpu - g.base_cpu);
	fprintf(out, ",,,geometric mean of %d rows\n", g.n);
}
