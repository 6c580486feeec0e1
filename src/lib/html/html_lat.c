// SPDX-License-Identifier: BSD-2-Clause
/*
 * The report's latency section (html_priv.h): the rows of `lab run
 * --latency` as read by xl_cmp_load() (struct xl_lat_rowrec), charted with
 * svgchart.c on a log axis (one-way rows are microseconds, rt-l2fwd under
 * load tens of milliseconds), tabled, and compared with BASE's through
 * xl_cmp_lat_run().
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"
#include "xdplab/svgchart.h"

#include "html_priv.h"

/* The three figures charted per row. */
static const struct {
	const char *name, *cls;
} figs[] = { { "p50", "lat-p50" }, { "p99", "lat-p99" }, { "max", "lat-max" } };

static uint64_t fig(const struct xl_lat_rep *r, int f)
{
	return f == 0 ? r->p50_ns : f == 1 ? r->p99_ns : r->max_ns;
}

/* "lat/rt-tx/low 64 B softirq" */
static void lat_label(char *buf, size_t len, const struct xl_lat_rowrec *r)
{
	snprintf(buf, len, "%s %u B %s", r->name, r->size, r->wiring);
}

static int lat_chart(FILE *o, const struct xl_cmp_file *run)
{
	struct xl_bar *bars = calloc(3 * run->nlat + 1, sizeof(*bars));
	char (*groups)[96] = calloc(run->nlat + 1, sizeof(*groups));
	char (*notes)[64] = calloc(3 * run->nlat + 1, sizeof(*notes));
	int i, f, k, n = 0, err = -ENOMEM;

	if (!bars || !groups || !notes)
		goto out;
	for (i = 0; i < run->nlat; i++) {
		const struct xl_lat_rowrec *r = &run->lat[i];

		lat_label(groups[i], sizeof(groups[i]), r);
		if (!r->nreps) { /* the note in full on hover, and in the table */
			snprintf(notes[n], sizeof(notes[n]), "%.63s", r->note[0] ? r->note : "-");
			bars[n] = (struct xl_bar){ .label = "not measured", .group = groups[i],
						   .cls = "na", .note = notes[n] };
			n++;
			continue;
		}
		for (f = 0; f < 3; f++) {
			double v[XL_MAX_REPS];
			struct xl_summary s;

			for (k = 0; k < r->nreps; k++)
				v[k] = fig(&r->reps[k], f) / 1e3;
			s = xl_summarize(v, r->nreps);
			snprintf(notes[n], sizeof(notes[n]), "%.1f us (%.1f-%.1f)",
				 fig(&r->med, f) / 1e3, s.min, s.max);
			bars[n] = (struct xl_bar){ .label = figs[f].name, .group = groups[i],
				.cls = figs[f].cls, .has_value = true, .value = fig(&r->med, f) / 1e3,
				.has_whisker = true, .lo = s.min, .hi = s.max, .note = notes[n] };
			n++;
		}
	}
	err = xl_svg_chart(o, &(struct xl_chart){ .title = "Latency per row", .id = "latency",
		.axis = "us, log scale: median over the repetitions (whiskers: min-max of the repetitions)",
		.fmt = "%.1f", .bars = bars, .n = n, .width = 900, .log_scale = true });
out:
	free(bars);
	free(groups);
	free(notes);
	return err;
}

static void lat_table(FILE *o, const struct xl_cmp_file *run)
{
	int i;

	fputs("<table data-table=\"latency\"><tr><th>row</th><th>size</th><th>wiring</th><th>rate</th>"
	      "<th>reps</th><th>sent</th><th>lost</th><th>gaps</th><th>reordered</th><th>duplicates</th>"
	      "<th>p50 us</th><th>p90 us</th><th>p99 us</th><th>p99.9 us</th><th>max us</th><th>note</th></tr>\n",
	      o);
	for (i = 0; i < run->nlat; i++) {
		const struct xl_lat_rowrec *r = &run->lat[i];
		const struct xl_lat_rep *m = &r->med;
		char b[48];

		fputs("<tr>", o);
		xl_html_cell(o, r->name, false);
		xl_html_num_cell(o, "%.0f", r->size);
		xl_html_cell(o, r->wiring, false);
		if (r->rate_pps > 0)
			snprintf(b, sizeof(b), "%.0f kpps", r->rate_pps / 1e3);
		else
			snprintf(b, sizeof(b), "unpaced");
		xl_html_cell(o, b, false);
		xl_html_num_cell(o, "%.0f", r->nreps);
		if (r->nreps) {
			xl_html_num_cell(o, "%.0f", m->sent);
			xl_html_num_cell(o, "%.0f", m->lost);
			xl_html_num_cell(o, "%.0f", m->gaps);
			xl_html_num_cell(o, "%.0f", m->reordered);
			xl_html_num_cell(o, "%.0f", m->duplicates);
			xl_html_num_cell(o, "%.1f", m->p50_ns / 1e3);
			xl_html_num_cell(o, "%.1f", m->p90_ns / 1e3);
			xl_html_num_cell(o, "%.1f", m->p99_ns / 1e3);
			xl_html_num_cell(o, "%.1f", m->p999_ns / 1e3);
			xl_html_num_cell(o, "%.1f", m->max_ns / 1e3);
		} else {
			fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>"
			      "<td>-</td><td>-</td><td>-</td>", o);
		}
		xl_html_cell(o, r->note, false);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
}

/* BASE vs this run: p50 and p99 with their change and p-values, the verdict. */
static int lat_compare(FILE *o, const struct xl_cmp_file *base, const struct xl_cmp_file *run)
{
	struct xl_cmp_latresult lr;
	int i, k;

	if (xl_cmp_lat_run(base, run, &(struct xl_cmp_opts){ .alpha = XL_CMP_ALPHA_DEFAULT }, &lr))
		return -ENOMEM;
	fprintf(o, "<h3>Latency compared with BASE</h3>\n<p class=\"muted\">%d latency rows compared: %d regressions, "
		"%d improvements (Mann-Whitney U over the repetitions' p50 and p99, alpha %g; "
		"docs/compare.md \"Latency rows\"); %d with a loss, gap, reordering or duplicate that rose from 0.</p>\n",
		lr.compared, lr.regressions, lr.improvements, XL_CMP_ALPHA_DEFAULT, lr.rose);
	fputs("<table data-table=\"latency-compare\"><tr><th>row</th><th>size</th><th>wiring</th>"
	      "<th>BASE p50 us</th><th>p50 us</th><th>d%</th><th>p</th><th>BASE p99 us</th><th>p99 us</th>"
	      "<th>d%</th><th>p</th><th>verdict</th></tr>\n", o);
	for (i = 0; i < lr.npairs; i++) {
		const struct xl_cmp_latpair *p = &lr.pairs[i];
		const struct xl_lat_rowrec *d = p->base ? p->base : p->new;
		char v[256];

		fprintf(o, "<tr class=\"%s\">",
			p->status != XL_CMP_PAIRED ? "na" : xl_html_verdict_cls(p->verdict));
		xl_html_cell(o, d->name, false);
		xl_html_num_cell(o, "%.0f", d->size);
		xl_html_cell(o, d->wiring, false);
		for (k = 0; k < XL_CMP_LAT_NTESTS; k++) {
			const struct xl_lat_rowrec *sides[2] = { p->base, p->new };
			int s;

			for (s = 0; s < 2; s++)
				if (sides[s] && sides[s]->nreps)
					xl_html_num_cell(o, "%.1f", (k ? sides[s]->med.p99_ns :
								 sides[s]->med.p50_ns) / 1e3);
				else
					xl_html_cell(o, "-", true);
			if (p->status == XL_CMP_PAIRED) {
				xl_html_num_cell(o, "%+.1f%%", k ? p->pct_p99 : p->pct_p50);
				xl_html_num_cell(o, "%.3f", p->test[k].p);
			} else {
				fputs("<td class=\"n\">-</td><td class=\"n\">-</td>", o);
			}
		}
		snprintf(v, sizeof(v), "%s%s%s", xl_cmp_status_word(p->status, p->verdict, XL_CMP_WORDS_HTML),
			 p->reason[0] ? ": " : "", p->reason);
		xl_cmp_lat_rose_append(v, sizeof(v), p->rose);
		xl_html_cell(o, v, false);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	xl_cmp_latresult_free(&lr);
	return 0;
}

int xl_html_latency(FILE *o, const struct xl_cmp_file *run, const struct xl_cmp_file *base)
{
	int err;

	if (!run->nlat && !(base && base->nlat))
		return 0;
	fprintf(o, "<h2>Latency rows</h2>\n<p class=\"muted\" data-latency-rows=\"%d\">"
		"<code>lab run --latency</code>: stamped frames, CLOCK_MONOTONIC at both ends of one host; "
		"one-way = generator to the DUT end, rt- = the round trip back to the generator side; "
		"percentiles are the upper bounds of 12.5%%-wide buckets; medians over the repetitions "
		"(docs/latency.md).</p>\n", run->nlat);
	if (run->nlat) {
		fputs("<p class=\"legend\"><span style=\"background:var(--ceiling)\"></span>p50"
		      "<span style=\"background:var(--genbound)\"></span>p99"
		      "<span style=\"background:var(--bad)\"></span>max</p>\n", o);
		err = lat_chart(o, run);
		if (err)
			return err;
		lat_table(o, run);
	}
	if (base && (err = lat_compare(o, base, run)))
		return err;
	return ferror(o) ? -EIO : 0;
}
