// SPDX-License-Identifier: BSD-2-Clause
/*
 * The HTML report of a run (htmlreport.h). The page is written in one
 * pass: rows are read from the results JSON with jansson (the fields the
 * charts need, including "profile" and the reps), the environment and the
 * comparison come from compare.h (xl_cmp_load(), xl_cmp_env(),
 * xl_cmp_run()), the charts from svgchart.h, the latency rows' section
 * from html_lat.c. The AF_XDP grouping follows
 * the i40e AF_XDP zero-copy cover letter's table (benchmark x XDP_SKB /
 * XDP_DRV / zero-copy, at 64 and 1500 bytes).
 */
#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/atomicfile.h"
#include "xdplab/compare.h"
#include "xdplab/htmlreport.h"
#include "xdplab/stats.h"
#include "xdplab/svgchart.h"

#include "html_priv.h"

/* One row of the run, as the page needs it. */
struct hrow {
	char label[96], name[48], kind[16], mode[16], wiring[16], verdict[24], note[256];
	char folded[4096];
	bool profiled;
	unsigned int size;
	int nreps;
	double med, min, max, ns_per_pkt, cpu_busy, cpu_ns, gen_mpps;
	double cost[64]; /* per rep: chain CPU ns/packet, else DUT CPU ns/packet */
	json_t *monitor_cost;
};

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static double jnum(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static const char *verdict_cls(const char *v)
{
	if (!strcmp(v, "valid") || !strcmp(v, "generator-bound") || !strcmp(v, "ceiling"))
		return v;
	return "na";
}

/* "xsk-rxdrop 64 B skb": name, size, and the mode unless native. */
static void row_label(char *buf, size_t len, const char *name, unsigned int size, const char *mode)
{
	bool native = !strcmp(mode, "native");

	snprintf(buf, len, "%s %u B%s%s", name, size, native ? "" : " ", native ? "" : mode);
}

static int load_rows(json_t *doc, struct hrow **out, int *n)
{
	json_t *rows = json_object_get(doc, "rows"), *o;
	struct hrow *v;
	size_t i;

	v = calloc(json_array_size(rows) ? json_array_size(rows) : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	json_array_foreach(rows, i, o) {
		struct hrow *r = &v[i];
		const struct xl_field *mf = &xl_row_fields[XL_ROW_F_MPPS];
		json_t *mpps = json_object_get(o, mf->key), *p;
		json_t *reps = json_object_get(o, xl_row_fields[XL_ROW_F_REPS].key);
		json_t *prof = json_object_get(o, "profile");
		struct xl_rep_result rep;
		struct xl_summary sum;
		size_t k;

		snprintf(r->name, sizeof(r->name), "%s", xl_row_field_str(o, XL_ROW_F_NAME));
		snprintf(r->kind, sizeof(r->kind), "%s", xl_row_field_str(o, XL_ROW_F_KIND));
		snprintf(r->mode, sizeof(r->mode), "%s", xl_row_field_str(o, XL_ROW_F_MODE));
		snprintf(r->wiring, sizeof(r->wiring), "%s", xl_row_field_str(o, XL_ROW_F_WIRING));
		snprintf(r->verdict, sizeof(r->verdict), "%s", xl_row_field_str(o, XL_ROW_F_VERDICT));
		snprintf(r->note, sizeof(r->note), "%s", xl_row_field_str(o, XL_ROW_F_NOTE));
		r->size = json_integer_value(json_object_get(o, xl_row_fields[XL_ROW_F_SIZE].key));
		row_label(r->label, sizeof(r->label), r->name, r->size, r->mode);
		if (json_is_object(mpps)) {
			memset(&sum, 0, sizeof(sum));
			xl_fields_from_json(mpps, mf->sub, mf->nsub, &sum);
			r->med = sum.median;
			r->min = sum.min;
			r->max = sum.max;
		}
		r->ns_per_pkt = xl_row_field_num(o, XL_ROW_F_NS_PER_PKT);
		r->cpu_busy = xl_row_field_num(o, XL_ROW_F_CPU_BUSY);
		r->cpu_ns = xl_row_field_num(o, XL_ROW_F_CPU_NS_PER_PKT);
		r->gen_mpps = xl_row_field_num(o, XL_ROW_F_GEN_MPPS);
		json_array_foreach(reps, k, p) {
			if (k >= 64)
				break;
			memset(&rep, 0, sizeof(rep));
			xl_fields_from_json(p, xl_rep_fields, XL_REP_F__COUNT, &rep);
			r->cost[k] = rep.chain_ns_per_pkt > 0 ? rep.chain_ns_per_pkt : rep.cpu_ns_per_pkt;
			r->nreps = k + 1;
		}
		if (!json_is_object(mpps))
			r->nreps = 0;
		r->monitor_cost = json_object_get(o, "monitor_cost");
		/* The path as written: xl_html_flame() decides what it may read. */
		r->profiled = json_is_object(prof);
		if (r->profiled)
			snprintf(r->folded, sizeof(r->folded), "%s", jstr(prof, "folded"));
	}
	*out = v;
	*n = json_array_size(rows);
	return 0;
}

static const char css[] =
	":root{--bg:#fff;--fg:#1d1d1f;--muted:#8a8a90;--grid:#e3e3e8;--valid:#2f7d32;"
	"--genbound:#d08a00;--ceiling:#2860b0;--bad:#c62828;--th:#f2f2f5}"
	"@media (prefers-color-scheme: dark){:root{--bg:#17171a;--fg:#e6e6ea;--muted:#8f8f99;"
	"--grid:#33333a;--valid:#5cb860;--genbound:#f0b232;--ceiling:#6b9ef0;--bad:#ef5350;--th:#24242a}}"
	"body{background:var(--bg);color:var(--fg);font:14px/1.45 sans-serif;margin:24px;max-width:1500px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:32px}"
	"table{border-collapse:collapse;font-size:12px}td,th{padding:3px 8px;border-bottom:1px solid var(--grid);"
	"text-align:left}th{background:var(--th)}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".pair{display:flex;flex-wrap:wrap;gap:16px}.pair>div{flex:1 1 600px;min-width:0}"
	".legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 14px;vertical-align:-2px}"
	"details{margin:8px 0}summary{cursor:pointer;font-weight:bold}"
	".flame{overflow-x:auto}.muted{color:var(--muted)}";

const char *xl_html_css(void)
{
	return css;
}

static void legend(FILE *o)
{
	fputs("<p class=\"legend\">Verdict:<span style=\"background:var(--valid)\"></span>valid (the judged CPU saturated: "
	      "the device's figure)<span style=\"background:var(--genbound)\"></span>generator-bound (a lower bound; "
	      "CPU ns/packet is the cost)<span style=\"background:var(--ceiling)\"></span>generator ceiling"
	      "<span style=\"background:var(--muted)\"></span>not supported / not measured</p>\n", o);
}

/* A row's bar in a rate or CPU chart. */
static struct xl_bar rate_bar(const struct hrow *r, const char *label, const char *group)
{
	struct xl_bar b = { .label = label, .group = group, .cls = verdict_cls(r->verdict) };

	if (r->nreps) {
		b.has_value = b.has_whisker = true;
		b.value = r->med;
		b.lo = r->min;
		b.hi = r->max;
	} else {
		b.note = r->note[0] ? r->note : "not measured";
	}
	return b;
}

static struct xl_bar cpu_bar(const struct hrow *r, const char *label, const char *group)
{
	struct xl_bar b = { .label = label, .group = group, .cls = verdict_cls(r->verdict) };

	if (r->nreps && r->cpu_ns > 0) {
		b.has_value = true;
		b.value = r->cpu_ns;
	} else {
		b.note = r->nreps ? "not measured" : r->note[0] ? r->note : "not measured";
	}
	return b;
}

static bool is_cost_row(const struct hrow *r)
{
	return strstr(r->name, "+no-mon") || strstr(r->name, "+mon-");
}

static bool is_xsk(const struct hrow *r)
{
	return !strcmp(r->kind, "xsk");
}

/* The per-row charts of the non-AF_XDP, non-cost rows. */
static int rows_charts(FILE *o, struct hrow *rows, int n, struct xl_bar *bars)
{
	int i, k = 0, err;

	for (i = 0; i < n; i++)
		if (!is_xsk(&rows[i]) && !is_cost_row(&rows[i]))
			bars[k++] = rate_bar(&rows[i], rows[i].label, NULL);
	if (!k)
		return 0;
	fputs("<h2>XDP rows</h2>\n", o);
	legend(o);
	fputs("<div class=\"pair\"><div>\n", o);
	err = xl_svg_chart(o, &(struct xl_chart){ .title = "Rate per row", .id = "mpps",
		.axis = "median Mpps (whiskers: min-max of the repetitions)", .fmt = "%.2f",
		.bars = bars, .n = k, .width = 700 });
	fputs("</div><div>\n", o);
	for (i = 0, k = 0; i < n; i++)
		if (!is_xsk(&rows[i]) && !is_cost_row(&rows[i]))
			bars[k++] = cpu_bar(&rows[i], rows[i].label, NULL);
	err = err ? err : xl_svg_chart(o, &(struct xl_chart){ .title = "DUT CPU time per packet",
		.id = "cpu", .axis = "median CPU ns/packet of the judged CPU", .fmt = "%.0f",
		.bars = bars, .n = k, .width = 700 });
	fputs("</div></div>\n", o);
	return err;
}

/* AF_XDP: a group per benchmark x size, a bar per XDP_SKB / XDP_DRV / zero-copy. */
static int xsk_charts(FILE *o, struct hrow *rows, int n, struct xl_bar *bars, char (*groups)[64])
{
	static const char *const modes[] = { "skb", "native", "zc" };
	static const char *const names[] = { "XDP_SKB (copy)", "XDP_DRV (copy)", "zero-copy" };
	int i, m, k = 0, err, pass, ng = 0, gi;

	for (i = 0; i < n; i++)
		if (is_xsk(&rows[i]))
			k++;
	if (!k)
		return 0;
	fputs("<h2>AF_XDP rows</h2>\n<p class=\"muted\">Grouped as the i40e AF_XDP zero-copy cover letter "
	      "groups them: each benchmark and frame size across XDP_SKB, XDP_DRV and zero-copy.</p>\n", o);
	/* The groups, benchmark and size, in the order the file has them. */
	for (i = 0; i < n; i++) {
		char g[64];

		if (!is_xsk(&rows[i]))
			continue;
		snprintf(g, sizeof(g), "%s, %u B", rows[i].name + 4, rows[i].size);
		for (m = 0; m < ng && strcmp(groups[m], g); m++)
			;
		if (m == ng)
			snprintf(groups[ng++], 64, "%s", g);
	}
	fputs("<div class=\"pair\">", o);
	for (pass = 0; pass < 2; pass++) {
		k = 0;
		for (gi = 0; gi < ng; gi++)
			for (m = 0; m < 3; m++)
				for (i = 0; i < n; i++) {
					char g[64];

					if (!is_xsk(&rows[i]) || strcmp(rows[i].mode, modes[m]))
						continue;
					snprintf(g, sizeof(g), "%s, %u B", rows[i].name + 4, rows[i].size);
					if (strcmp(g, groups[gi]))
						continue;
					bars[k++] = pass ? cpu_bar(&rows[i], names[m], groups[gi]) :
							   rate_bar(&rows[i], names[m], groups[gi]);
				}
		fputs("<div>\n", o);
		err = xl_svg_chart(o, pass ? &(struct xl_chart){ .title = "AF_XDP: application CPU time per packet",
			.id = "xsk-cpu", .axis = "median CPU ns/packet of the application's CPU", .fmt = "%.0f",
			.bars = bars, .n = k, .width = 700 } :
			&(struct xl_chart){ .title = "AF_XDP: rate", .id = "xsk-mpps",
			.axis = "median Mpps (whiskers: min-max of the repetitions)", .fmt = "%.2f",
			.bars = bars, .n = k, .width = 700 });
		fputs("</div>\n", o);
		if (err)
			return err;
	}
	fputs("</div>\n", o);
	return 0;
}

/* The watch-cost rows: CPU ns/packet per monitor level with 95% CIs, and the estimate. */
static int cost_charts(FILE *o, struct hrow *rows, int n, struct xl_bar *bars, char (*tips)[64])
{
	int i, k = 0, err;
	const struct hrow *est = NULL;

	for (i = 0; i < n; i++) {
		struct hrow *r = &rows[i];
		double lo, hi;

		if (!is_cost_row(r))
			continue;
		if (r->monitor_cost)
			est = r;
		bars[k] = (struct xl_bar){ .label = r->label, .cls = "level" };
		if (r->nreps) {
			struct xl_summary s = xl_summarize(r->cost, r->nreps);

			bars[k].has_value = true;
			bars[k].value = s.median;
			if (!xl_median_ci(r->cost, r->nreps, &lo, &hi)) {
				bars[k].has_whisker = true;
				bars[k].lo = lo;
				bars[k].hi = hi;
				snprintf(tips[k], 64, "%.1f (CI %.1f-%.1f)", s.median, lo, hi);
			} else {
				snprintf(tips[k], 64, "%.1f (no CI: %d reps)", s.median, r->nreps);
			}
			bars[k].note = tips[k];
		} else {
			bars[k].note = "not measured";
		}
		k++;
	}
	if (!k)
		return 0;
	fputs("<h2>What watching costs</h2>\n<p class=\"muted\">The redirect row measured without a monitor, under "
	      "<code>monitor</code> (errors only) and under <code>monitor --all</code>, interleaved; /b1: generator "
	      "batch of 1 frame (a devmap bulk per frame). Bars: median CPU ns per packet of the whole chain; "
	      "whiskers: distribution-free 95% confidence intervals of the median (docs/monitor.md).</p>\n", o);
	err = xl_svg_chart(o, &(struct xl_chart){ .title = "Chain CPU time per packet, per monitor level",
		.id = "watch-cost", .axis = "median CPU ns/packet (whiskers: 95% CI of the median)",
		.fmt = "%.1f", .bars = bars, .n = k, .width = 900 });
	if (!err && est) {
		json_t *mc = est->monitor_cost, *c1 = json_object_get(mc, "cpu_ns_per_pkt_ci"),
		       *c2 = json_object_get(mc, "ns_per_event_ci"),
		       *c3 = json_object_get(mc, "estimate_ns_per_pkt_ci");
		struct xl_bar e[3] = {
			{ .label = "errors-only monitor, measured", .cls = "level", .has_value = true,
			  .value = jnum(mc, "cpu_ns_per_pkt") },
			{ .label = "one xdp_devmap_xmit event", .cls = "level", .has_value = true,
			  .value = jnum(mc, "ns_per_event") },
			{ .label = "errors-only monitor, estimate", .cls = "level", .has_value = true,
			  .value = jnum(mc, "estimate_ns_per_pkt") },
		};
		json_t *cis[3] = { c1, c2, c3 };

		for (i = 0; i < 3; i++)
			if (json_array_size(cis[i]) == 2) {
				e[i].has_whisker = true;
				e[i].lo = json_number_value(json_array_get(cis[i], 0));
				e[i].hi = json_number_value(json_array_get(cis[i], 1));
			}
		err = xl_svg_chart(o, &(struct xl_chart){ .title = "The errors-only monitor's cost",
			.id = "watch-estimate", .axis = "CPU ns (per packet; per event) with 95% CIs",
			.fmt = "%.2f", .bars = e, .n = 3, .width = 900 });
	}
	return err;
}

void xl_html_cell(FILE *o, const char *s, bool num)
{
	fputs(num ? "<td class=\"n\">" : "<td>", o);
	xl_xml_escape(o, s);
	fputs("</td>", o);
}

void xl_html_num_cell(FILE *o, const char *fmt, double v)
{
	char b[48];

	snprintf(b, sizeof(b), fmt, v);
	xl_html_cell(o, b, true);
}

static void table(FILE *o, const struct hrow *rows, int n)
{
	int i;

	fputs("<h2>Table</h2>\n<table data-table=\"rows\"><tr><th>row</th><th>size</th><th>mode</th><th>wiring</th>"
	      "<th>Mpps median (min-max)</th><th>ns/packet</th><th>judged CPU busy</th><th>CPU ns/packet</th>"
	      "<th>gen Mpps</th><th>verdict</th><th>note</th></tr>\n", o);
	for (i = 0; i < n; i++) {
		const struct hrow *r = &rows[i];
		char b[64];

		fputs("<tr>", o);
		xl_html_cell(o, r->name, false);
		xl_html_num_cell(o, "%.0f", r->size);
		xl_html_cell(o, r->mode, false);
		xl_html_cell(o, r->wiring, false);
		if (r->nreps) {
			snprintf(b, sizeof(b), "%.2f (%.2f-%.2f)", r->med, r->min, r->max);
			xl_html_cell(o, b, true);
			xl_html_num_cell(o, "%.1f", r->ns_per_pkt);
			xl_html_num_cell(o, "%.0f%%", r->cpu_busy * 100);
			xl_html_num_cell(o, "%.1f", r->cpu_ns);
			xl_html_num_cell(o, "%.2f", r->gen_mpps);
		} else {
			fputs("<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>", o);
		}
		xl_html_cell(o, r->verdict, false);
		xl_html_cell(o, r->note, false);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
}

static void env_table(FILE *o, const struct xl_cmp_file *run, const struct xl_cmp_file *base)
{
	struct xl_cmp_env_row e[64];
	int i, ne = xl_cmp_env(base ? base : run, run, e, 64);

	fputs("<h2>Environment</h2>\n<table data-table=\"env\"><tr><th></th>", o);
	if (base) {
		fputs("<th>BASE ", o);
		xl_xml_escape(o, base->path);
		fputs("</th>", o);
	}
	fputs("<th>", o);
	xl_xml_escape(o, run->path);
	fputs("</th></tr>\n", o);
	for (i = 0; i < ne; i++) {
		fputs("<tr>", o);
		xl_html_cell(o, e[i].field, false);
		if (base)
			xl_html_cell(o, e[i].base, false);
		fputs(e[i].differs ? "<td style=\"color:var(--bad)\">" : "<td>", o);
		xl_xml_escape(o, e[i].new);
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

const char *xl_html_verdict_cls(enum xl_cmp_verdict v)
{
	return v == XL_CMP_REGRESSION ? "regression" : v == XL_CMP_IMPROVEMENT ? "improvement" : "same";
}

/* BASE vs RUN: the deciding delta ns/packet per row, coloured by verdict. */
static int compare_view(FILE *o, const struct xl_cmp_file *base, const struct xl_cmp_file *run)
{
	struct xl_cmp_result res;
	struct xl_bar *bars;
	char (*labels)[96], (*notes)[64];
	int i, err;

	if (xl_cmp_run(base, run, &(struct xl_cmp_opts){ .alpha = XL_CMP_ALPHA_DEFAULT }, &res))
		return -ENOMEM;
	bars = calloc(res.nrows + 1, sizeof(*bars));
	labels = calloc(res.nrows + 1, sizeof(*labels));
	notes = calloc(res.nrows + 1, sizeof(*notes));
	if (!bars || !labels || !notes) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < res.nrows; i++) {
		const struct xl_cmp_row *r = &res.rows[i];
		const struct xl_cmp_rowdata *d = r->new ? r->new : r->base;

		row_label(labels[i], sizeof(labels[i]), d->name, d->size, d->mode);
		bars[i] = (struct xl_bar){ .label = labels[i], .cls = xl_html_verdict_cls(r->verdict) };
		if (r->status == XL_CMP_PAIRED) {
			bars[i].has_value = true;
			bars[i].value = r->delta;
			snprintf(notes[i], sizeof(notes[i]), "%+.1f%s %s", r->delta, r->on_cpu ? " cpu" : "",
				 xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_HTML));
			bars[i].note = notes[i];
		} else {
			bars[i].note = xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_HTML);
		}
	}
	fprintf(o, "<h2>Compared with BASE</h2>\n<p class=\"muted\">%d rows compared: %d regressions, %d improvements "
		"(Mann-Whitney U over the repetitions, alpha %g; docs/compare.md). Bars: new - base ns/packet "
		"(1e9/pps), or DUT CPU ns/packet (\"cpu\") where a side was generator-bound; positive is slower.</p>\n",
		res.compared, res.regressions, res.improvements, XL_CMP_ALPHA_DEFAULT);
	err = xl_svg_chart(o, &(struct xl_chart){ .title = "Delta per row", .id = "compare",
		.axis = "delta ns/packet, this run - BASE (positive: slower)", .fmt = "%+.1f",
		.bars = bars, .n = res.nrows, .width = 900 });
out:
	free(bars);
	free(labels);
	free(notes);
	xl_cmp_result_free(&res);
	return err;
}

/* Each profiled row's flame graph, drawn from its folded stacks (xl_html_flame()). */
static int flames(FILE *o, const char *dir, const struct hrow *rows, int n)
{
	int i, k = 0, err;

	for (i = 0; i < n; i++) {
		if (!rows[i].profiled)
			continue;
		if (!k++)
			fputs("<h2>Flame graphs</h2>\n<p class=\"muted\">One extra repetition per row, recorded by perf "
			      "(not among the figures above). Hover: frame and share; click: zoom; the root frames are "
			      "the CPUs and their roles (docs/profile.md).</p>\n", o);
		fputs("<details class=\"flame\"><summary>", o);
		xl_xml_escape(o, rows[i].label);
		fputs("</summary>\n", o);
		err = xl_html_flame(o, dir, rows[i].label, rows[i].folded[0] ? rows[i].folded : NULL);
		if (err)
			return err;
		fputs("</details>\n", o);
	}
	return 0;
}

/* The page of @run (and @base) to @o; 0 or -errno with @err set (not a write's: the caller's xl_afile keeps those). */
int xl_html_report_write(const char *run, const char *base, FILE *o, char *err, size_t errlen)
{
	struct xl_cmp_file frun = { 0 }, fbase = { 0 };
	struct hrow *rows = NULL;
	struct xl_bar *bars = NULL;
	char (*scratch)[64] = NULL, dir[4096];
	json_t *doc = NULL;
	int n = 0, ret, measured = 0, i;

	ret = xl_cmp_load_doc(run, &frun, &doc, err, errlen);
	if (ret)
		return ret;
	if (base && (ret = xl_cmp_load(base, &fbase, err, errlen)))
		goto out;
	snprintf(dir, sizeof(dir), "%s", run);
	ret = load_rows(doc, &rows, &n);
	if (ret)
		goto out;
	bars = calloc(n + 1, sizeof(*bars));
	scratch = calloc(n + 1, sizeof(*scratch));
	if (!bars || !scratch) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		measured += rows[i].nreps > 0;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\"><meta name=\"color-scheme\" content=\"light dark\">"
	      "<title>xdplab report</title>\n<style>", o);
	fputs(xl_html_css(), o);
	fputs(xl_svg_chart_css(), o);
	fputs("</style></head>\n<body>\n<h1>xdplab lab run ", o);
	xl_xml_escape(o, frun.date);
	fputs(frun.git[0] ? ", commit " : "", o);
	xl_xml_escape(o, frun.git);
	fprintf(o, "</h1>\n<p data-rows=\"%d\" data-measured=\"%d\">%d rows, %d measured; %d repetitions of %.2g s "
		"after %.2g s warm-up, medians. From ", n, measured, n, measured, frun.reps, frun.seconds,
		frun.warmup);
	xl_xml_escape(o, run);
	fputs(".</p>\n", o);
	env_table(o, &frun, base ? &fbase : NULL);
	if (base && (ret = compare_view(o, &fbase, &frun)))
		goto out;
	ret = rows_charts(o, rows, n, bars);
	if (!ret)
		ret = xsk_charts(o, rows, n, bars, scratch);
	if (!ret)
		ret = cost_charts(o, rows, n, bars, scratch);
	if (ret)
		goto out;
	table(o, rows, n);
	ret = xl_html_latency(o, &frun, base ? &fbase : NULL);
	if (ret)
		goto out;
	ret = flames(o, dirname(dir), rows, n);
	if (ret)
		goto out;
	fputs("</body></html>\n", o);
out:
	free(bars);
	free(scratch);
	free(rows);
	json_decref(doc);
	xl_cmp_file_free(&frun);
	if (base)
		xl_cmp_file_free(&fbase);
	return ret;
}

int xl_html_report(const char *run, const char *base, const char *out_path, char *err,
		   size_t errlen)
{
	struct xl_afile a;
	int ret = xl_afile_open_user(&a, out_path, 0644);

	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", out_path, strerror(-ret));
		return -EIO;
	}
	ret = xl_html_report_write(run, base, a.f, err, errlen);
	if (ret && !a.err) {
		xl_afile_abort(&a); /* an earlier page at @out_path stays */
		return ret;
	}
	ret = xl_afile_commit(&a); /* a failed write's errno, the first one */
	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", out_path, strerror(-ret));
		return -EIO;
	}
	return 0;
}
