// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/html/ owns the HTML report of a run (html.c) and its one chart
 * writer (this file): horizontal bar charts in SVG, a row per bar, so 40+
 * rows stay readable with no label over another.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "xdplab/svgchart.h"

#define ROW_H 18
#define BAR_H 12
#define TITLE_H 24
#define AXIS_H 40
#define NOTE_W 190

double xl_svg_nice_step(double lo, double hi, int want)
{
	double span = hi - lo, raw, mag, f;

	if (!(span > 0) || want < 1)
		return 1;
	raw = span / want;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

const char *xl_svg_chart_css(void)
{
	return "svg.xl-chart{font:11px sans-serif;display:block;max-width:100%;height:auto}"
	       ".xl-chart text{fill:var(--fg)}.xl-chart .title{font-size:13px;font-weight:bold}"
	       ".xl-chart .grid{stroke:var(--grid);stroke-width:1}.xl-chart .zero{stroke:var(--fg);stroke-width:1}"
	       ".xl-chart .whisker{stroke:var(--fg);stroke-width:1.2}.xl-chart .group{font-weight:bold}"
	       ".xl-chart .note{fill:var(--muted)}"
	       ".bar.valid{fill:var(--valid)}.bar.generator-bound{fill:var(--genbound)}"
	       ".bar.ceiling{fill:var(--ceiling)}.bar.na{fill:var(--muted)}"
	       ".bar.regression{fill:var(--bad)}.bar.improvement{fill:var(--valid)}.bar.same{fill:var(--muted)}"
	       ".bar.level{fill:var(--ceiling)}"
	       ".bar.lat-p50{fill:var(--ceiling)}.bar.lat-p99{fill:var(--genbound)}.bar.lat-max{fill:var(--bad)}";
}

/* A label cut to @max characters with "..", the whole one in the title. */
static void put_label(FILE *out, const char *s, int max)
{
	int n = (int)strlen(s);

	if (n <= max) {
		xl_xml_escape(out, s);
		return;
	}
	xl_xml_escape_n(out, s, max - 2 > 0 ? max - 2 : 0);
	fputs("..", out);
}

/* The x axis: linear, or log10 (lo > 0) when @log. */
struct axis {
	double lo, hi, x0, x1;
	bool log;
};

static double xpos(const struct axis *a, double v)
{
	if (a->log)
		return a->x0 + (log10(fmax(v, a->lo)) - log10(a->lo)) /
			       (log10(a->hi) - log10(a->lo)) * (a->x1 - a->x0);
	return a->x0 + (v - a->lo) / (a->hi - a->lo) * (a->x1 - a->x0);
}

int xl_svg_chart(FILE *out, const struct xl_chart *c)
{
	double w = c->width < 400 ? 400 : c->width, lw = w * 0.3 > 260 ? 260 : w * 0.3;
	double x0 = lw + 10, x1 = w - NOTE_W, lo = 0, hi = 0, step, t, y, h, minpos = INFINITY;
	const char *fmt = c->fmt ? c->fmt : "%.2f";
	const char *group = NULL;
	struct axis ax = { .x0 = x0, .x1 = x1, .log = c->log_scale };
	int i, rows = 0;

	for (i = 0; i < c->n; i++) {
		const struct xl_bar *b = &c->bars[i];

		if (b->group && (!group || strcmp(group, b->group))) {
			rows++;
			group = b->group;
		}
		rows++;
		if (b->has_value) {
			lo = fmin(lo, b->value);
			hi = fmax(hi, b->value);
			if (b->value > 0)
				minpos = fmin(minpos, b->value);
		}
		if (b->has_whisker) {
			lo = fmin(lo, b->lo);
			hi = fmax(hi, b->hi);
			if (b->lo > 0)
				minpos = fmin(minpos, b->lo);
		}
	}
	if (ax.log) {
		/* Whole decades around the positive values; 1..10 without any. */
		lo = isfinite(minpos) ? pow(10, floor(log10(minpos))) : 1;
		hi = hi > lo ? pow(10, ceil(log10(hi))) : lo * 10;
		if (hi <= lo)
			hi = lo * 10;
		step = 10; /* a factor per tick */
	} else {
		if (hi <= lo)
			hi = lo + 1;
		step = xl_svg_nice_step(lo, hi, 6);
		lo = floor(lo / step) * step;
		hi = ceil(hi / step) * step;
	}
	ax.lo = lo;
	ax.hi = hi;
	h = TITLE_H + rows * ROW_H + AXIS_H;
#define X(v) xpos(&ax, (v))
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"xl-chart\" data-chart=\"", out);
	xl_xml_escape(out, c->id);
	fprintf(out, "\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", w, h, w, h);
	fputs("<text class=\"title\" x=\"4\" y=\"16\">", out);
	xl_xml_escape(out, c->title);
	fputs("</text>\n", out);
	/* Grid and tick labels. */
	for (t = lo; ax.log ? t <= hi * 1.001 : t <= hi + step / 2; t = ax.log ? t * step : t + step) {
		double v = !ax.log && fabs(t) < step / 1e6 ? 0 : t;

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.0f\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
			X(v), X(v), TITLE_H, h - AXIS_H + 4, X(v), h - AXIS_H + 17, v);
	}
	if (!ax.log && lo < 0)
		fprintf(out, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.0f\"/>\n",
			X(0.0), X(0.0), TITLE_H, h - AXIS_H + 4);
	fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", (x0 + x1) / 2, h - 6);
	xl_xml_escape(out, c->axis);
	fputs("</text>\n", out);
	y = TITLE_H;
	group = NULL;
	for (i = 0; i < c->n; i++) {
		const struct xl_bar *b = &c->bars[i];
		char val[48];
		double bx, bw;

		if (b->group && (!group || strcmp(group, b->group))) {
			fprintf(out, "<text class=\"group\" x=\"4\" y=\"%.0f\">", y + 13);
			xl_xml_escape(out, b->group);
			fputs("</text>\n", out);
			group = b->group;
			y += ROW_H;
		}
		snprintf(val, sizeof(val), fmt, b->value);
		fprintf(out, "<g class=\"row\"><title>");
		if (b->tip) {
			xl_xml_escape(out, b->tip);
		} else {
			xl_xml_escape(out, b->label);
			fputs(": ", out);
			xl_xml_escape(out, b->has_value ? val : b->note ? b->note : "-");
		}
		fprintf(out, "</title><text class=\"label\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">",
			lw, y + 13);
		put_label(out, b->label, (int)(lw / 6.2));
		fputs("</text>", out);
		if (b->has_value) {
			/* Log: from the axis' start (no zero on a log axis). */
			bx = ax.log ? x0 : X(fmin(0, b->value));
			bw = ax.log ? X(b->value) - x0 : fabs(X(b->value) - X(0.0));
			fputs("<rect class=\"bar ", out);
			xl_xml_escape(out, b->cls ? b->cls : "valid");
			fprintf(out, "\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\"/>", bx,
				y + (ROW_H - BAR_H) / 2.0, bw, BAR_H);
		}
		if (b->has_whisker) {
			double ym = y + ROW_H / 2.0;

			fprintf(out, "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
				"<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
				"<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
				X(b->lo), X(b->hi), ym, ym, X(b->lo), X(b->lo), ym - 4, ym + 4,
				X(b->hi), X(b->hi), ym - 4, ym + 4);
		}
		fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.0f\">", x1 + 6, y + 13);
		if (b->note)
			put_label(out, b->note, NOTE_W / 6);
		else if (b->has_value)
			xl_xml_escape(out, val);
		fputs("</text></g>\n", out);
		y += ROW_H;
	}
#undef X
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
