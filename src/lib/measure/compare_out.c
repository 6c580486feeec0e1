// SPDX-License-Identifier: BSD-2-Clause
/*
 * A comparison of two files written out (xdplab/compare_out.h): the text
 * and markdown tables, their notes and summary, and the JSON (schema
 * xdplab.compare/1); xl_cmp_write_two() and xl_cmp_write_runs() choose the
 * writer. The environments side by side and markdown's result line are
 * several runs a side's too. docs/compare.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare_out_priv.h"
#include "xdplab/report.h"

const char *const xl_cmp_format_names[] = { "text", "markdown", "junit", "csv", NULL };

/* ---- text and markdown ---- */

static const char *status_text(const struct xl_cmp_row *r)
{
	return xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_TEXT);
}

static const struct xl_cmp_rowdata *ident(const struct xl_cmp_row *r)
{
	return r->base ? r->base : r->new;
}

static void fmt_side(char *buf, size_t len, const struct xl_cmp_rowdata *d)
{
	if (!d || !d->nreps)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f (%.3f-%.3f)", d->mpps.median, d->mpps.min, d->mpps.max);
}

/* The verdict's column: "regression (CPU)" and what it rests on. */
static void fmt_verdict(char *buf, size_t len, const struct xl_cmp_row *r)
{
	if (r->status == XL_CMP_NOT_MEASURED) { /* the reason says it */
		snprintf(buf, len, "%s", r->reason);
		return;
	}
	snprintf(buf, len, "%s", status_text(r));
	if (r->status == XL_CMP_PAIRED && r->prog)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " (on the program's own time per run)");
	else if (r->status == XL_CMP_PAIRED && r->on_cpu)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " (generator-bound: on DUT CPU ns/packet)");
	if (r->reason[0])
		snprintf(buf + strlen(buf), len - strlen(buf), ": %s", r->reason);
}

void xl_cmp_out_env(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md)
{
	struct xl_cmp_env_row e[64];
	int i, ne = xl_cmp_env(b, n, e, 64), nd = 0;

	for (i = 0; i < ne; i++)
		nd += e[i].differs;
	if (md)
		fprintf(out, "<details><summary>environment: %d field(s) differ</summary>\n\n"
		       "| environment | base | new |\n|---|---|---|\n", nd);
	else
		fprintf(out, "  %-22s %-36s %s\n", "environment", "base", "new");
	for (i = 0; i < ne; i++)
		if (md)
			fprintf(out, "| %s%s | %s | %s |\n", e[i].differs ? "**differs:** " : "",
			       TXT(md, e[i].field), TXT(md, e[i].base), TXT(md, e[i].new));
		else
			fprintf(out, "%c %-22s %-36s %s\n", e[i].differs ? '*' : ' ', TXT(md, e[i].field),
			       TXT(md, e[i].base), TXT(md, e[i].new));
	if (!md)
		fprintf(out, "  (* = differs)\n");
	else
		fprintf(out, "\n</details>\n");
}

void xl_cmp_out_headline(FILE *out, const struct xl_cmp_rowdata *const *reg, int nreg,
			 int improvements, int same, int too_few, const char *few,
			 int not_compared)
{
	int i;

	if (nreg)
		fprintf(out, "\n**Result: %d regression(s)**:", nreg);
	else
		fprintf(out, "\n**Result: no regression**;");
	for (i = 0; i < nreg; i++)
		fprintf(out, " %s %u %s %s%s", XL_ESC_MD(reg[i]->name), reg[i]->size,
		       XL_ESC_MD(reg[i]->mode), XL_ESC_MD(reg[i]->wiring[0] ? reg[i]->wiring : "-"),
		       i + 1 < nreg ? "," : ";");
	fprintf(out, " %d improvement(s), %d ~, %d too few %s, %d not compared\n", improvements, same,
	       too_few, few, not_compared);
}

/* Markdown's headline of two files: the regressed rows named. */
static void md_headline_two(FILE *out, const struct xl_cmp_result *res)
{
	const struct xl_cmp_rowdata **reg = calloc(res->nrows + 1, sizeof(*reg));
	int i, n = 0;

	if (!reg)
		return;
	for (i = 0; i < res->nrows; i++)
		if (res->rows[i].status == XL_CMP_PAIRED && res->rows[i].verdict == XL_CMP_REGRESSION)
			reg[n++] = res->rows[i].base;
	xl_cmp_out_headline(out, reg, n, res->improvements,
			   res->compared - res->regressions - res->improvements - res->too_few,
			   res->too_few, "reps", res->nrows - res->compared);
	free(reg);
}

/*
 * benchstat's geomean row under a table of more than one compared row: the
 * geometric means of the median rates (and of the DUT CPU ns/packet when
 * every one of those rows has it), their delta; no test, no verdict.
 */
static void print_geomean(FILE *out, const struct xl_cmp_result *res, bool md, int w)
{
	char bs[48], ns[48], delta[40], dns[16], bc[16] = "-", nc[16] = "-", dc[16] = "-", v[48];
	struct xl_cmp_geomean g;

	if (xl_cmp_geomean(res, &g) || g.n < 2)
		return;
	snprintf(bs, sizeof(bs), "%.3f", g.base_mpps);
	snprintf(ns, sizeof(ns), "%.3f", g.new_mpps);
	snprintf(delta, sizeof(delta), "%+.3f (%+.1f%%)", g.new_mpps - g.base_mpps, g.delta_pct);
	snprintf(dns, sizeof(dns), "%+.2f", 1e3 / g.new_mpps - 1e3 / g.base_mpps);
	if (g.base_cpu > 0) {
		snprintf(bc, sizeof(bc), "%.1f", g.base_cpu);
		snprintf(nc, sizeof(nc), "%.1f", g.new_cpu);
		snprintf(dc, sizeof(dc), "%+.2f", g.new_cpu - g.base_cpu);
	}
	snprintf(v, sizeof(v), "geometric mean of %d rows", g.n);
	if (md)
		fprintf(out, "| geomean | | | | %s | %s | %s | %s | %s | %s | %s | | | %s |\n", bs, ns, delta,
		       dns, bc, nc, dc, v);
	else
		fprintf(out, "%-*s %5s %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n", w,
		       "geomean", "", "", "", bs, ns, delta, dns, bc, nc, dc, "", "", v);
}

static void print_table(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct xl_cmp_view *vw)
{
	bool md = XL_CMP_MD(vw);
	char bs[48], ns[48], v[256], delta[40], dns[16], bc[16], nc[16], dc[16], p[24], pv[16];
	int i, w = XL_TABLE_NAME_MIN;

	/*
	 * The name column fits the longest name as shown (redirect/b1+mon-floor:
	 * 21), as the lab's table.
	 */
	for (i = 0; i < res->nrows; i++)
		if ((int)strlen(XL_ESC(ident(&res->rows[i])->name)) > w)
			w = strlen(XL_ESC(ident(&res->rows[i])->name));

	/* Markdown: the closing ** on the same line, or CommonMark shows them. */
	fprintf(out, "%sxdplab compare: base %s (commit %s, %s) vs new %s (commit %s, %s)%s\n",
	       md ? "**" : "", TXT(md, b->path), TXT(md, b->git[0] ? b->git : "?"),
	       TXT(md, b->date[0] ? b->date : "?"), TXT(md, n->path),
	       TXT(md, n->git[0] ? n->git : "?"), TXT(md, n->date[0] ? n->date : "?"),
	       md ? "**" : "");
	if (res->cross_machine)
		fprintf(out, "%sWARNING: the two runs were made on different machines (host, CPU model or CPU count differ): the deltas mix machine and change\n",
		       md ? "\n" : "");
	if (res->ceiling_moved)
		fprintf(out, "%sWARNING: the generator ceiling (gen-ceiling: the generator alone, nothing under test) moved %+.1f%% between the runs: the host changed, and the other rows' verdicts carry that change too\n",
		       md ? "\n" : "", res->ceiling_pct);
	if (md)
		md_headline_two(out, res);
	fprintf(out, "%s", md ? "\n" : "");
	xl_cmp_out_env(out, b, n, md);
	/* Markdown: a blank line between the notes, or they run into one paragraph. */
	fprintf(out, "\nMann-Whitney U, two-sided, exact, over the repetitions' ns/packet (1e9/pps; DUT CPU ns/packet for generator-bound rows); alpha %g, threshold %g ns/packet\n%s",
	       vw->o.alpha, vw->o.threshold_ns, md ? "\n" : "");
	fprintf(out, "note: one run a side cannot separate the patch from the host: the repetitions of one run share its host's state, so this test compares two runs, not two codes; for a decision alternate several runs a side (xdplab compare BASE.json... -- NEW.json..., docs/compare.md)\n%s",
	       md ? "\n" : "");
	fprintf(out, "d ns/p = 1e9/new - 1e9/base of the median rates; d CPU = new - base median DUT CPU ns/packet%s; positive = slower\n\n",
	       vw->o.figure == XL_CMP_FIG_PROG ?
	       " (base CPU, new CPU and d CPU: ns per program run on the rows the figure lines list as prog)" : "");
	if (md)
		fprintf(out, "| benchmark | size | mode | wiring | base Mpps (min-max) | new Mpps (min-max) | delta Mpps | d ns/p | base CPU ns/p | new CPU ns/p | d CPU | n | p | verdict |\n"
		       "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	else
		fprintf(out, "%-*s %5s %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n", w, "benchmark",
		       "size", "mode", "wiring", "base Mpps (min-max)", "new Mpps (min-max)",
		       "delta Mpps", "d ns/p", "base CPU", "new CPU", "d CPU", "n", "p", "verdict");
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = ident(r);
		bool num = r->status == XL_CMP_PAIRED;

		fmt_side(bs, sizeof(bs), r->base);
		fmt_side(ns, sizeof(ns), r->new);
		fmt_verdict(v, sizeof(v), r);
		snprintf(delta, sizeof(delta), num ? "%+.3f (%+.1f%%)" : "-", r->delta_mpps,
			 r->delta_pct);
		snprintf(dns, sizeof(dns), num ? "%+.2f" : "-", r->delta_ns);
		snprintf(bc, sizeof(bc), num && r->base_cpu > 0 ? "%.1f" : "-", r->base_cpu);
		snprintf(nc, sizeof(nc), num && r->new_cpu > 0 ? "%.1f" : "-", r->new_cpu);
		snprintf(dc, sizeof(dc), num && r->base_cpu > 0 && r->new_cpu > 0 ? "%+.2f" : "-",
			 r->delta_cpu_ns);
		snprintf(p, sizeof(p), num ? "%zu/%zu" : "-", r->test.n2, r->test.n1);
		snprintf(pv, sizeof(pv), num ? "%.3f" : "-", r->test.p);
		if (md)
			fprintf(out, "| %s | %u | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			       TXT(md, d->name), d->size, TXT(md, d->mode),
			       TXT(md, d->wiring[0] ? d->wiring : "-"), bs, ns, delta, dns, bc, nc,
			       dc, p, pv, TXT(md, v));
		else
			fprintf(out, "%-*s %5u %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n",
			       w, TXT(md, d->name), d->size, TXT(md, d->mode),
			       TXT(md, d->wiring[0] ? d->wiring : "-"), bs, ns, delta, dns, bc, nc,
			       dc, p, pv, TXT(md, v));
	}
	print_geomean(out, res, md, w);
}

const char *xl_cmp_out_too_few(char *buf, size_t len, int n)
{
	buf[0] = '\0';
	if (n)
		snprintf(buf, len, "%d too few reps, ", n);
	return buf;
}

static void print_notes(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct xl_cmp_view *vw)
{
	size_t seen[XL_MAX_REPS + 1][XL_MAX_REPS + 1] = { { 0 } };
	size_t need = xl_mann_whitney_n_needed(vw->o.alpha);
	int i;

	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];

		/* --figure prog's rows: their reason says it (--reps would not help). */
		if (r->status != XL_CMP_PAIRED || r->verdict != XL_CMP_TOO_FEW || r->prog ||
		    seen[r->test.n2][r->test.n1]++)
			continue;
		fprintf(out, "\nnote: %zu vs %zu repetitions can never reach p < %g (the smallest two-sided p they can give is %.3f):"
		       " 'too few reps' there means 'cannot tell', not 'no change'; %s\n",
		       r->test.n2, r->test.n1, vw->o.alpha,
		       xl_mann_whitney_min_p(r->test.n2, r->test.n1),
		       need ? "" : "no repetition count up to 32 can reach it");
		if (need)
			fprintf(out, "      it needs at least %zu vs %zu (lab run --reps %zu)\n", need, need, need);
	}
	fprintf(out, "\n%d rows in base, %d in new: %d paired, %d compared; %d regression(s), %d improvement(s), %d ~, %s%d not comparable or not measured, %d in one file only\n",
	       b->nrows, n->nrows, res->paired, res->compared, res->regressions,
	       res->improvements, res->compared - res->regressions - res->improvements - res->too_few,
	       xl_cmp_out_too_few((char[32]){ 0 }, 32, res->too_few), res->paired - res->compared, res->nrows - res->paired);
}

/* ---- JSON ---- */

/*
 * A side of a row; @cpu its DUT CPU ns/packet, or with @prog (the row was
 * tested on the program's own time) the program's ns per run, written
 * under prog_ns_per_run with cpu_ns_per_pkt null: a reader of
 * cpu_ns_per_pkt must not get a program time.
 */
static json_t *side_json(const struct xl_cmp_rowdata *d, double cpu, bool prog)
{
	json_t *o;

	if (!d)
		return json_null();
	o = json_pack("{s:i,s:o,s:s,s:o}", "n", d->nreps, "mpps",
		      d->nreps ? json_pack("{s:f,s:f,s:f}", "median", d->mpps.median, "min",
					   d->mpps.min, "max", d->mpps.max) : json_null(),
		      "verdict", d->verdict,
		      "cpu_ns_per_pkt", cpu > 0 && !prog ? json_real(cpu) : json_null());
	if (prog)
		json_object_set_new(o, "prog_ns_per_run", cpu > 0 ? json_real(cpu) : json_null());
	return o;
}

void xl_cmp_out_json_head(json_t *doc, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			  bool cross_machine, bool ceiling_moved, double ceiling_pct,
			  const struct xl_cmp_view *vw)
{
	struct xl_cmp_env_row e[64];
	json_t *env = json_array(), *fa;
	int i, ne = xl_cmp_env(b, n, e, 64);

	for (i = 0; i < ne; i++)
		json_array_append_new(env, json_pack("{s:s,s:s,s:s,s:b}", "field", e[i].field,
						     "base", e[i].base, "new", e[i].new,
						     "differs", e[i].differs));
	json_object_set_new(doc, "environment", env);
	json_object_set_new(doc, "cross_machine", json_boolean(cross_machine));
	json_object_set_new(doc, "ceiling_moved", json_boolean(ceiling_moved));
	json_object_set_new(doc, "ceiling_pct", ceiling_moved ? json_real(ceiling_pct) : json_null());
	json_object_set_new(doc, "alpha", json_real(vw->o.alpha));
	json_object_set_new(doc, "threshold_ns", json_real(vw->o.threshold_ns));
	json_object_set_new(doc, "figure", json_string(xl_cmp_figure_name(vw->o.figure)));
	if ((fa = xl_cmp_out_calib_head_json(vw)))
		json_object_set_new(doc, "calibration", fa);
}

static void print_json(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
		       const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
		       const struct xl_cmp_view *vw)
{
	json_t *doc = json_object(), *rows = json_array(), *sum, *fa;
	int i;

	json_object_set_new(doc, "schema", json_string("xdplab.compare/1"));
	json_object_set_new(doc, "base", json_pack("{s:s,s:s,s:s}", "path", b->path, "git",
						    b->git, "date", b->date));
	json_object_set_new(doc, "new", json_pack("{s:s,s:s,s:s}", "path", n->path, "git",
						   n->git, "date", n->date));
	xl_cmp_out_json_head(doc, b, n, res->cross_machine, res->ceiling_moved, res->ceiling_pct, vw);
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = ident(r);
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:s,s:o,s:o}", "name", d->name,
				      "packet_operation", d->op, "size", d->size, "mode", d->mode,
				      "wiring", d->wiring, "gen_engine", d->engine,
				      "status", xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_JSON), "reason", r->reason,
				      "base", side_json(r->base, r->base_cpu, r->prog),
				      "new", side_json(r->new, r->new_cpu, r->prog));

		if (r->status == XL_CMP_PAIRED) {
			json_object_set_new(o, "delta_mpps", json_real(r->delta_mpps));
			json_object_set_new(o, "delta_pct", json_real(r->delta_pct));
			json_object_set_new(o, "delta_ns_per_pkt", json_real(r->delta_ns));
			json_object_set_new(o, "delta_cpu_ns_per_pkt",
					    r->base_cpu > 0 && r->new_cpu > 0 && !r->prog ?
					    json_real(r->delta_cpu_ns) : json_null());
			if (r->prog)
				json_object_set_new(o, "delta_prog_ns_per_run",
						    r->base_cpu > 0 && r->new_cpu > 0 ?
						    json_real(r->delta_cpu_ns) : json_null());
			json_object_set_new(o, "metric", json_string(r->prog	 ? "prog_ns_per_run" :
								     r->on_cpu ? "cpu_ns_per_pkt" :
										 "ns_per_pkt"));
			json_object_set_new(o, "figure", json_string(r->prog	  ? "prog" :
								     r->corrected ? "corrected" :
										    "raw"));
			json_object_set_new(o, "ctl_ref_ns", r->corrected ? json_real(r->ctl_ref_ns) :
									   json_null());
			/* The test over one run a side's repetitions (docs/compare.md). */
			json_object_set_new(o, "method", json_string("mann-whitney-reps"));
			json_object_set_new(o, "u", json_real(r->test.u));
			json_object_set_new(o, "p", json_real(r->test.p));
			json_object_set_new(o, "n_base", json_integer(r->test.n2));
			json_object_set_new(o, "n_new", json_integer(r->test.n1));
			json_object_set_new(o, "min_p", json_real(xl_mann_whitney_min_p(r->test.n1,
										       r->test.n2)));
			json_object_set_new(o, "too_few", json_boolean(r->too_few));
			json_object_set_new(o, "verdict", json_string(xl_cmp_verdict_name(r->verdict)));
			if ((fa = xl_cmp_out_calib_json(vw, r->base, false)))
				json_object_set_new(o, "false_alarm", fa);
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(doc, "rows", rows);
	sum = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "base_rows", b->nrows, "new_rows", n->nrows,
			"paired", res->paired, "compared", res->compared, "regressions",
			res->regressions, "improvements", res->improvements);
	/* Only when there are any: the files of before it read the same. */
	if (res->too_few)
		json_object_set_new(sum, "too_few", json_integer(res->too_few));
	json_object_set_new(doc, "summary", sum);
	json_object_set_new(doc, "latency", xl_cmp_out_lat_json(lr));
	sum = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "base_rows", b->nlat, "new_rows", n->nlat,
			"paired", lr->paired, "compared", lr->compared, "regressions",
			lr->regressions, "improvements", lr->improvements, "rose_from_zero",
			lr->rose);
	if (lr->too_few)
		json_object_set_new(sum, "too_few", json_integer(lr->too_few));
	json_object_set_new(doc, "latency_summary", sum);
	json_dumpf(doc, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(doc);
}


/* The rows compared, and which of them on the corrected figure: the figure's and the calibration's lines. */
static int choices_two(FILE *out, const struct xl_cmp_result *res, const struct xl_cmp_view *vw)
{
	const struct xl_cmp_rowdata **ids = calloc(res->nrows + 1, sizeof(*ids));
	bool *corr = calloc(res->nrows + 1, sizeof(*corr));
	int i;

	if (!ids || !corr) {
		free(ids);
		free(corr);
		return -ENOMEM;
	}
	for (i = 0; i < res->nrows; i++) {
		ids[i] = res->rows[i].status == XL_CMP_PAIRED ? res->rows[i].base : NULL;
		corr[i] = res->rows[i].corrected || res->rows[i].prog;
	}
	xl_cmp_out_choices(out, vw, ids, corr, res->nrows, false);
	free(ids);
	free(corr);
	return 0;
}

int xl_cmp_write_two(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
		     const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
		     const struct xl_cmp_view *vw)
{
	int ret = 0;

	switch (vw->format) {
	case XL_CMP_OUT_JSON:
		print_json(out, b, n, res, lr, vw);
		break;
	case XL_CMP_OUT_JUNIT:
		ret = xl_cmp_out_junit_two(out, b, n, res, lr, vw);
		break;
	case XL_CMP_OUT_CSV:
		xl_cmp_out_csv(out, res);
		break;
	default:
		print_table(out, b, n, res, vw);
		ret = choices_two(out, res, vw);
		if (ret)
			break;
		if (lr->npairs)
			xl_cmp_out_lat_table(out, lr, vw);
		print_notes(out, b, n, res, vw);
		if (lr->npairs)
			xl_cmp_out_lat_notes(out, b, n, lr, vw);
	}
	return ret ? ret : ferror(out) ? -EIO : 0;
}
