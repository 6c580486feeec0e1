// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xdplab history --html FILE`: one self-contained page of the stored
 * rows' trends (xdplab/htmlreport.h): per row a chart of its runs in date
 * order, drawn by the one chart writer (svgchart.c: a bar per run, its
 * median with the repetitions' min-max as whiskers), the runs grouped
 * between change points, each group's heading naming the change.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/atomicfile.h"
#include "xdplab/htmlreport.h"
#include "xdplab/svgchart.h"
#include "xdplab/trend.h"

#include "html_priv.h"

/* Each run's label and each group's heading: text the bars point to. */
struct hist_text {
	char label[320], group[200];
};

static int series_chart(FILE *o, const struct xl_store_series *x, const struct xl_cp_opts *opts,
			int idx)
{
	struct xl_bar *bars = calloc(x->npts + 1, sizeof(*bars));
	struct hist_text *tx = calloc(x->npts + 1, sizeof(*tx));
	char title[160], id[32];
	struct xl_trend t;
	int i, k = 0, err;

	if (!bars || !tx) {
		free(bars);
		free(tx);
		return -ENOMEM;
	}
	err = xl_trend_of(x, opts, &t);
	if (err) {
		free(bars);
		free(tx);
		return err;
	}
	for (i = 0; i < x->npts; i++) {
		const struct xl_store_run *r = &x->pts[i].run;
		struct xl_bar *b = &bars[i];

		snprintf(tx[i].label, sizeof(tx[i].label), "run %lld %.10s %s", r->id, r->date,
			 r->label[0] ? r->label : "-");
		b->label = tx[i].label;
		b->cls = k == 0 ? "level" : t.cp[k - 1].after > t.cp[k - 1].before ? "regression" :
										     "improvement";
		if (k < t.ncp && t.cp[k].point == i) {
			const struct xl_trend_cp *c = &t.cp[k];

			snprintf(tx[i].group, sizeof(tx[i].group),
				 "change point: %+.2f ns (%+.1f%%), p = %.4f", c->after - c->before,
				 c->before > 0 ? (c->after - c->before) / c->before * 100 : 0, c->p);
			b->group = tx[i].group;
			b->cls = c->after > c->before ? "regression" : "improvement";
			k++;
		} else if (i == 0) {
			b->group = t.ncp ? "before the first change point" : "no change point";
		}
		if (t.value[i] == t.value[i]) {
			b->has_value = true;
			b->has_whisker = isfinite(t.hi[i]); /* not with a repetition at 0 pps */
			b->value = t.value[i];
			b->lo = t.lo[i];
			b->hi = t.hi[i];
		} else {
			b->note = "no figure";
		}
	}
	snprintf(title, sizeof(title), "%s %u B, %s, %s, %s", x->name, x->size, x->mode,
		 x->wiring[0] ? x->wiring : "-", x->engine[0] ? x->engine : "-");
	snprintf(id, sizeof(id), "trend-%d", idx);
	fputs("<h2>", o);
	xl_xml_escape(o, title);
	fprintf(o, "</h2>\n<p class=\"muted\" data-runs=\"%d\" data-change-points=\"%d\">%d runs; ",
		x->npts, t.ncp, x->npts);
	if (t.last_point >= 0)
		fprintf(o, "the best %scandidate not significant: p = %.4f", t.ncp ? "further " : "",
			t.last_p);
	else if (!t.ncp)
		fputs("too few runs to test", o);
	else
		fputs("no further candidate", o);
	fputs(".</p>\n", o);
	err = xl_svg_chart(o, &(struct xl_chart){ .title = title, .id = id,
		.axis = t.on_cpu ? "median DUT CPU ns/packet of the run (whiskers: min-max of its repetitions)" :
				   "median ns/packet of the run, 1e9/pps (whiskers: min-max of its repetitions)",
		.fmt = "%.2f", .bars = bars, .n = x->npts, .width = 900 });
	xl_trend_free(&t);
	free(bars);
	free(tx);
	return err;
}

static int page(FILE *o, const char *title, const struct xl_store_series *ser, int n,
		const struct xl_cp_opts *opts)
{
	int i, err = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\"><meta name=\"color-scheme\" content=\"light dark\">"
	      "<title>xdplab history</title>\n<style>", o);
	fputs(xl_html_css(), o);
	fputs(xl_svg_chart_css(), o);
	fputs("</style></head>\n<body>\n<h1>xdplab history: ", o);
	xl_xml_escape(o, title);
	fprintf(o, "</h1>\n<p data-rows=\"%d\">%d row(s). Each bar is a run, in date order: the median over its "
		"repetitions, whiskers from their smallest to their largest. Change points: E-divisive means "
		"(Matteson and James 2014) over the runs' medians, permutation test with alpha %g and %d "
		"permutations, at least %d runs on each side (docs/store.md).</p>\n",
		n, n, opts->alpha, opts->permutations, opts->min_size);
	for (i = 0; i < n && !err; i++)
		err = series_chart(o, &ser[i], opts, i);
	fputs("</body></html>\n", o);
	return err;
}

int xl_html_history(const char *out_path, const char *title, const struct xl_store_series *ser,
		    int n, const struct xl_cp_opts *opts, char *err, size_t errlen)
{
	struct xl_afile a;
	int ret = xl_afile_open_user(&a, out_path, 0644);

	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", out_path, strerror(-ret));
		return -EIO;
	}
	ret = page(a.f, title, ser, n, opts);
	if (ret && !a.err) {
		xl_afile_abort(&a); /* an earlier page at @out_path stays */
		snprintf(err, errlen, "cannot write %s: %s", out_path, strerror(-ret));
		return ret;
	}
	ret = xl_afile_commit(&a);
	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", out_path, strerror(-ret));
		return -EIO;
	}
	return 0;
}
