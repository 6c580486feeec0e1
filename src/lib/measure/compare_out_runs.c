// SPDX-License-Identifier: BSD-2-Clause
/*
 * Several runs a side written out (xdplab/compare_out.h), the run as the
 * unit (xdplab/compare_runs.h): the text and markdown tables and the JSON
 * (schema xdplab.compare/2), xl_cmp_write_runs(); and the lines both
 * kinds of comparison print after their table: which figure rows were
 * tested on and the A/A calibration's false-alarm rates.
 * docs/compare.md "Several runs a side".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare_out_priv.h"
#include "xdplab/report.h"
#include "xdplab/stats.h"

/* "too few runs" where two files say "too few reps". */
static const char *mverdict_text(const struct xl_cmp_mrow *m)
{
	if (m->status == XL_CMP_PAIRED && m->verdict == XL_CMP_TOO_FEW)
		return "too few runs";
	return xl_cmp_status_word(m->status, m->verdict, XL_CMP_WORDS_TEXT);
}

static const char *mverdict_json(const struct xl_cmp_mrow *m)
{
	return m->verdict == XL_CMP_TOO_FEW ? "too-few-runs" : xl_cmp_verdict_name(m->verdict);
}

/* How the relabelings of @nb vs @nn runs are counted, for the method line. */
static void fmt_relabelings(char *buf, size_t len, int nb, int nn)
{
	double c = xl_choose(nb + nn, nb);

	if (c <= XL_PERM_EXACT_MAX)
		snprintf(buf, len, "exact: all C(%d, %d) = %.0f relabelings", nb + nn, nb, c);
	else
		snprintf(buf, len, "C(%d, %d) = %.3g relabelings are too many: %d random ones from the fixed seed %#llx, the observed one among them",
			 nb + nn, nb, c, XL_PERM_DRAWS, (unsigned long long)XL_PERM_SEED);
}

static void fmt_num(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

static void print_sides(FILE *out, const struct xl_cmp_file *files, int from, int to, const char *side,
			bool md)
{
	int i;

	for (i = from; i < to; i++)
		fprintf(out, "%s%-4s %s (commit %s, %s)\n", md ? "- " : "  ", i == from ? side : "",
		       TXT(md, files[i].path), TXT(md, files[i].git[0] ? files[i].git : "?"),
		       TXT(md, files[i].date[0] ? files[i].date : "?"));
}

static void print_text(FILE *out, const struct xl_cmp_file *files, int nbase, int nnew,
		       const struct xl_cmp_mresult *res, const struct xl_cmp_view *vw)
{
	bool md = XL_CMP_MD(vw);
	char how[200], v[256], bm[16], nm[16], bn[16], nns[16], d[16], ci[40], sb[16], sw[16],
		mdd[16], p[16], runs[16];
	int i, w = XL_TABLE_NAME_MIN, nlat = 0;
	double minp = xl_perm_min_p(nbase, nnew);
	size_t need = xl_perm_n_needed(vw->o.alpha);

	for (i = 0; i < res->nrows; i++)
		if ((int)strlen(XL_ESC(res->rows[i].id->name)) > w)
			w = strlen(XL_ESC(res->rows[i].id->name));
	for (i = 0; i < nbase + nnew; i++)
		nlat += files[i].nlat;
	fprintf(out, "%sxdplab compare: %d base runs vs %d new runs%s\n", md ? "**" : "", nbase, nnew,
	       md ? "**" : ""); /* markdown: the headline's blank line follows */
	if (md) {
		const struct xl_cmp_rowdata **reg = calloc(res->nrows + 1, sizeof(*reg));
		int n = 0;

		for (i = 0; reg && i < res->nrows; i++)
			if (res->rows[i].status == XL_CMP_PAIRED &&
			    res->rows[i].verdict == XL_CMP_REGRESSION)
				reg[n++] = res->rows[i].id;
		if (reg)
			xl_cmp_out_headline(out, reg, n, res->improvements,
					   res->compared - res->regressions - res->improvements -
						   res->too_few,
					   res->too_few, "runs", res->nrows - res->compared);
		free(reg);
		fprintf(out, "\n");
	}
	print_sides(out, files, 0, nbase, "base", md);
	print_sides(out, files, nbase, nbase + nnew, "new", md);
	if (res->cross_machine)
		fprintf(out, "%sWARNING: the runs were made on different machines (host, CPU model or CPU count differ): the deltas mix machine and change\n",
		       md ? "\n" : "");
	if (res->ceiling_moved)
		fprintf(out, "%sWARNING: the generator ceiling (gen-ceiling: the generator alone, nothing under test) moved %+.1f%% between the sides: the host changed with them, and the other rows' verdicts carry that change too\n",
		       md ? "\n" : "", res->ceiling_pct);
	fprintf(out, "\nenvironment: the first base run against the first new run\n%s", md ? "\n" : "");
	xl_cmp_out_env(out, &files[0], &files[nbase], md);
	fmt_relabelings(how, sizeof(how), nbase, nnew);
	fprintf(out, "\nmethod: permutation test over the run labels (the run is the unit: each run's median of its repetitions' ns/packet, 1e9/pps, or DUT CPU ns/packet for generator-bound rows%s, is one value; Kalibera and Jones 2013), two-sided, statistic the difference of the sides' means of run medians, %s; 95%% interval by inverting the test over shifts; alpha %g, threshold %g ns/packet\n%s",
	       vw->o.figure == XL_CMP_FIG_PROG ?
	       ", or on the rows the figure lines list as prog the program's own time per run" : "",
	       how, vw->o.alpha, vw->o.threshold_ns, md ? "\n" : "");
	fprintf(out, "runs a side: %d base, %d new: the smallest p they can give is %.3f%s\n%s", nbase,
	       nnew, minp, minp >= vw->o.alpha ? ", not below alpha: no verdict is possible ('too few runs')" : "",
	       md ? "\n" : "");
	fprintf(out, "s betw = pooled SD of the run medians within each side; s within = pooled SD of the repetitions within their runs;"
	       " mdd = the smallest difference these runs can detect at 80%% power, (t(1-alpha/2, df) + t(0.8, df)) * s betw * sqrt(1/Rb + 1/Rn), df = Rb + Rn - 2 (the t-test's approximation); all in ns/packet%s, positive = slower\n\n",
	       vw->o.figure == XL_CMP_FIG_PROG ?
	       " (ns per program run on the rows the figure lines list as prog)" : "");
	if (md)
		fprintf(out, "| benchmark | size | mode | wiring | runs b/n | base Mpps | new Mpps | base ns/p | new ns/p | delta | 95%% CI | s betw | s within | mdd | p | verdict |\n"
		       "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|\n");
	else
		fprintf(out, "%-*s %5s %-7s %-9s %8s %9s %9s %9s %9s %8s %19s %7s %8s %7s %6s  %s\n", w,
		       "benchmark", "size", "mode", "wiring", "runs b/n", "base Mpps", "new Mpps",
		       "base ns/p", "new ns/p", "delta", "95% CI", "s betw", "s within", "mdd", "p",
		       "verdict");
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_mrow *m = &res->rows[i];
		bool num = m->status == XL_CMP_PAIRED;

		snprintf(runs, sizeof(runs), num ? "%d/%d" : "-", m->nb, m->nn);
		fmt_num(bm, sizeof(bm), "%.3f", num ? m->base_mpps : NAN);
		fmt_num(nm, sizeof(nm), "%.3f", num ? m->new_mpps : NAN);
		fmt_num(bn, sizeof(bn), "%.2f", num ? m->base_ns : NAN);
		fmt_num(nns, sizeof(nns), "%.2f", num ? m->new_ns : NAN);
		fmt_num(d, sizeof(d), "%+.2f", num ? m->test.estimate : NAN);
		if (num && isfinite(m->test.ci_lo) && isfinite(m->test.ci_hi))
			snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", m->test.ci_lo, m->test.ci_hi);
		else
			snprintf(ci, sizeof(ci), num ? "none" : "-");
		fmt_num(sb, sizeof(sb), "%.2f", num ? m->sd_between : NAN);
		fmt_num(sw, sizeof(sw), "%.2f", num ? m->sd_within : NAN);
		fmt_num(mdd, sizeof(mdd), "%.2f", num ? m->mdd : NAN);
		fmt_num(p, sizeof(p), "%.3f", num ? m->test.p : NAN);
		if (m->status == XL_CMP_NOT_MEASURED)
			snprintf(v, sizeof(v), "%s", m->reason);
		else
			snprintf(v, sizeof(v), "%s%s%s%s", mverdict_text(m),
				 num && m->prog ? " (on the program's own time per run)" :
				 num && m->on_cpu ? " (generator-bound: on DUT CPU ns/packet)" : "",
				 m->reason[0] ? ": " : "", m->reason);
		if (md)
			fprintf(out, "| %s | %u | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			       TXT(md, m->id->name), m->id->size, TXT(md, m->id->mode),
			       TXT(md, m->id->wiring[0] ? m->id->wiring : "-"), runs, bm, nm, bn, nns,
			       d, ci, sb, sw, mdd, p, TXT(md, v));
		else
			fprintf(out, "%-*s %5u %-7s %-9s %8s %9s %9s %9s %9s %8s %19s %7s %8s %7s %6s  %s\n",
			       w, TXT(md, m->id->name), m->id->size, TXT(md, m->id->mode),
			       TXT(md, m->id->wiring[0] ? m->id->wiring : "-"), runs, bm, nm, bn, nns,
			       d, ci, sb, sw, mdd, p, TXT(md, v));
	}
	{
		const struct xl_cmp_rowdata **ids = calloc(res->nrows + 1, sizeof(*ids));
		bool *corr = calloc(res->nrows + 1, sizeof(*corr));

		for (i = 0; ids && corr && i < res->nrows; i++) {
			ids[i] = res->rows[i].status == XL_CMP_PAIRED ? res->rows[i].id : NULL;
			corr[i] = res->rows[i].corrected || res->rows[i].prog;
		}
		if (ids && corr)
			xl_cmp_out_choices(out, vw, ids, corr, res->nrows, true);
		free(ids);
		free(corr);
	}
	if (res->too_few)
		fprintf(out, "\nnote: %d vs %d runs can never reach p < %g (the smallest two-sided p of the permutation test is %.3f): 'too few runs' there means 'cannot tell', not 'no change'; %s\n",
		       nbase, nnew, vw->o.alpha, minp, need ? "" : "no run count up to 32 can reach it");
	if (res->too_few && need)
		fprintf(out, "      it needs at least %zu vs %zu runs, alternated (A B A B...)\n", need, need);
	if (nlat)
		fprintf(out, "\nnote: latency rows are compared one run a side only (xdplab compare BASE.json NEW.json): %d latency rows in these runs are not compared\n",
		       nlat);
	fprintf(out, "\n%d rows: %d in both sides, %d compared; %d regression(s), %d improvement(s), %d ~, %d too few runs, %d not measured, %d in one side only\n",
	       res->nrows, res->paired, res->compared, res->regressions, res->improvements,
	       res->compared - res->regressions - res->improvements - res->too_few, res->too_few,
	       res->paired - res->compared, res->nrows - res->paired);
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *runs_json(const struct xl_cmp_file *files, int from, int to)
{
	json_t *arr = json_array();
	int i;

	for (i = from; i < to; i++)
		json_array_append_new(arr, json_pack("{s:s,s:s,s:s}", "path", files[i].path, "git",
						     files[i].git, "date", files[i].date));
	return arr;
}

static json_t *sums_json(const double *v, int n)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, real_or_null(v[i]));
	return arr;
}

static void print_json(FILE *out, const struct xl_cmp_file *files, int nbase, int nnew,
		       const struct xl_cmp_mresult *res, const struct xl_cmp_view *vw)
{
	json_t *doc = json_object(), *rows = json_array(), *fa;
	int i;
	double c = xl_choose(nbase + nnew, nbase);
	bool exact = c <= XL_PERM_EXACT_MAX;

	json_object_set_new(doc, "schema", json_string("xdplab.compare/2"));
	json_object_set_new(doc, "base", runs_json(files, 0, nbase));
	json_object_set_new(doc, "new", runs_json(files, nbase, nbase + nnew));
	xl_cmp_out_json_head(doc, &files[0], &files[nbase], res->cross_machine, res->ceiling_moved,
			     res->ceiling_pct, vw);
	json_object_set_new(doc, "method", json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:f,s:b,s:f,s:o,s:s}",
		"test", "permutation", "unit", "run", "run_summary", "median",
		"statistic", "difference of means", "runs_base", nbase, "runs_new", nnew,
		"min_p", xl_perm_min_p(nbase, nnew), "exact", exact,
		"relabelings", exact ? c : (double)XL_PERM_DRAWS,
		"seed", exact ? json_null() : json_integer((json_int_t)XL_PERM_SEED),
		"interval", "95% by inverting the test over shifts"));
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_mrow *m = &res->rows[i];
		const struct xl_cmp_rowdata *d = m->id;
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:s}", "name", d->name,
				      "packet_operation", d->op, "size", d->size, "mode", d->mode,
				      "wiring", d->wiring, "gen_engine", d->engine, "status",
				      xl_cmp_status_word(m->status, m->verdict, XL_CMP_WORDS_JSON),
				      "reason", m->reason);

		if (m->status == XL_CMP_PAIRED) {
			json_object_set_new(o, "method", json_string("permutation-runs"));
			json_object_set_new(o, "metric", json_string(m->prog	 ? "prog_ns_per_run" :
								     m->on_cpu ? "cpu_ns_per_pkt" :
										 "ns_per_pkt"));
			json_object_set_new(o, "runs_base", json_integer(m->nb));
			json_object_set_new(o, "runs_new", json_integer(m->nn));
			json_object_set_new(o, "base", json_pack("{s:o,s:o,s:o}", "mpps_median",
				real_or_null(m->base_mpps), "mean", real_or_null(m->base_ns),
				"run_medians", sums_json(m->bsum, m->nb)));
			json_object_set_new(o, "new", json_pack("{s:o,s:o,s:o}", "mpps_median",
				real_or_null(m->new_mpps), "mean", real_or_null(m->new_ns),
				"run_medians", sums_json(m->nsum, m->nn)));
			json_object_set_new(o, "estimate", real_or_null(m->test.estimate));
			json_object_set_new(o, "ci_lo", real_or_null(m->test.ci_lo));
			json_object_set_new(o, "ci_hi", real_or_null(m->test.ci_hi));
			json_object_set_new(o, "sd_between", real_or_null(m->sd_between));
			json_object_set_new(o, "sd_within", real_or_null(m->sd_within));
			json_object_set_new(o, "mdd", real_or_null(m->mdd));
			json_object_set_new(o, "p", real_or_null(m->test.p));
			json_object_set_new(o, "min_p", json_real(m->test.min_p));
			json_object_set_new(o, "exact", json_boolean(m->test.exact));
			json_object_set_new(o, "relabelings", json_integer((json_int_t)m->test.relabelings));
			json_object_set_new(o, "too_few", json_boolean(m->too_few));
			json_object_set_new(o, "verdict", json_string(mverdict_json(m)));
			json_object_set_new(o, "figure", json_string(m->prog	  ? "prog" :
								     m->corrected ? "corrected" :
										    "raw"));
			json_object_set_new(o, "ctl_ref_ns", m->corrected ? json_real(m->ctl_ref_ns) :
									   json_null());
			if ((fa = xl_cmp_out_calib_json(vw, m->id, true)))
				json_object_set_new(o, "false_alarm", fa);
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "summary", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "rows",
		res->nrows, "paired", res->paired, "compared", res->compared, "regressions",
		res->regressions, "improvements", res->improvements, "too_few", res->too_few));
	json_dumpf(doc, out, JSON_INDENT(2));
	fputc('\n', out);
	json_decref(doc);
}

/* ---- the A/A calibration's rates ---- */

/* "3 of 28 pairs (10.7%)", "too few reps in the calibration", "" without. */
static bool calib_rate(const struct xl_cmp_view *vw, const struct xl_cmp_rowdata *id, bool multi,
		       char *buf, size_t len)
{
	const struct xl_calib_row *c;

	buf[0] = '\0';
	if (!vw->calib || !vw->calib_ok || !id || !(c = xl_calib_find(vw->calib, id)))
		return false;
	if (multi ? !c->splits : !c->pairs)
		return false;
	if (multi ? c->split_too_few : c->pair_too_few)
		snprintf(buf, len, "%d of %d %s: too few %s in the calibration to flag", multi ?
			 c->split_flags : c->pair_flags, multi ? c->splits : c->pairs,
			 multi ? "splits" : "pairs", multi ? "runs" : "repetitions");
	else
		snprintf(buf, len, "%d of %d %s (%.1f%%)", multi ? c->split_flags : c->pair_flags,
			 multi ? c->splits : c->pairs, multi ? "splits" : "pairs",
			 100.0 * (multi ? c->split_flags : c->pair_flags) /
				 (multi ? c->splits : c->pairs));
	return true;
}

static void print_calib(FILE *out, const struct xl_cmp_view *vw,
			const struct xl_cmp_rowdata *const *ids, int n, bool multi)
{
	bool md = XL_CMP_MD(vw);
	char buf[128];
	int i, shown = 0;

	if (!vw->calib)
		return;
	if (!vw->calib_ok) {
		fprintf(out, "\nnote: the A/A calibration %s is from another host or set-up (%s): its false-alarm rates are not shown\n",
		       TXT(md, vw->calib_path), TXT(md, vw->calib_why));
		return;
	}
	for (i = 0; i < n; i++) {
		if (!calib_rate(vw, ids[i], multi, buf, sizeof(buf)))
			continue;
		if (!shown++) {
			fprintf(out, "\nthis host's measured false-alarm rate (A/A calibration %s: %d runs of the same code, %s, alpha %g), ",
			       TXT(md, vw->calib_path), vw->calib->nruns,
			       TXT(md, vw->calib->date[0] ? vw->calib->date : "?"), vw->calib->alpha);
			if (multi)
				fprintf(out, "several runs a side (its balanced splits, %d vs %d)",
				       vw->calib->split_base, vw->calib->split_new);
			else
				fprintf(out, "one run a side (every pair of its runs)");
			/* It measured ns/packet: beside a prog verdict it is not that verdict's rate. */
			fprintf(out, "%s:\n", vw->o.figure == XL_CMP_FIG_PROG ?
				", on the raw figure (the calibration has none of the program's own time)" : "");
		}
		fprintf(out, "%s%s %u %s %s: %s\n", md ? "- " : "  ", TXT(md, ids[i]->name), ids[i]->size,
		       TXT(md, ids[i]->mode), TXT(md, ids[i]->wiring[0] ? ids[i]->wiring : "-"), buf);
	}
	if (!shown)
		fprintf(out, "\nnote: the A/A calibration %s has no %s rate for these rows\n",
		       TXT(md, vw->calib_path), multi ? "several-runs (it has fewer than 6 runs)" :
						      "one-run-a-side");
}

/* " (A/A: 1 of 28 pairs flagged on it, 5 of 28 raw)" for @id, "" without. */
static void figure_why(const struct xl_cmp_view *vw, const struct xl_cmp_rowdata *id, bool multi,
		       char *buf, size_t len)
{
	const struct xl_calib_row *c = vw->o.calib ? xl_calib_find(vw->o.calib, id) : NULL;
	bool sp = multi && c && c->splits && c->csplits;

	buf[0] = '\0';
	if (c && (sp ? c->csplits : c->cpairs))
		snprintf(buf, len, " (A/A: %d of %d %s flagged on it, %d of %d raw)",
			 sp ? c->csplit_flags : c->cpair_flags, sp ? c->csplits : c->cpairs,
			 sp ? "splits" : "pairs", sp ? c->split_flags : c->pair_flags,
			 sp ? c->splits : c->pairs);
}

static void print_figure(FILE *out, const struct xl_cmp_view *vw,
			 const struct xl_cmp_rowdata *const *ids, const bool *corrected, int n,
			 bool multi)
{
	bool md = XL_CMP_MD(vw);
	char why[128];
	int i, ncorr = 0, ncmp = 0;

	for (i = 0; i < n; i++) {
		ncmp += ids[i] != NULL;
		ncorr += ids[i] && corrected[i];
	}
	if (vw->o.figure == XL_CMP_FIG_PROG) {
		if (!ncorr) {
			fprintf(out, "\nfigure: raw for every row: no compared row has the program's own time in every run (lab run --prog-time)\n");
			return;
		}
		fprintf(out, "\nfigure: %d of %d compared rows tested on the program's own time per run as asked (--figure prog: the kernel's run_time_ns / run_cnt in an extra repetition of lab run --prog-time, one value a run, docs/compare.md); the rest raw:\n",
			ncorr, ncmp);
		/* The rows left raw say why: else a hand-edited or partial run goes unseen. */
		for (i = 0; i < n; i++)
			if (ids[i])
				fprintf(out, "%s%s %u %s %s: %s\n", md ? "- " : "  ",
					TXT(md, ids[i]->name), ids[i]->size, TXT(md, ids[i]->mode),
					TXT(md, ids[i]->wiring[0] ? ids[i]->wiring : "-"),
					corrected[i] ? "prog" :
					multi ? "raw (a run of it has no prog_ns_per_run)" :
						"raw (a side has no prog_ns_per_run)");
		return;
	}
	/* Raw by default with nothing to choose from, or as asked: nothing to say. */
	if (!ncmp || vw->o.figure == XL_CMP_FIG_RAW ||
	    (vw->o.figure == XL_CMP_FIG_AUTO && !vw->o.calib && !ncorr))
		return;
	if (!ncorr) {
		fprintf(out, "\nfigure: raw for every row: %s\n", vw->o.figure == XL_CMP_FIG_CORRECTED ?
		       "no compared row has the host-speed control on every repetition of its runs (runs from before it, AF_XDP and watch-cost rows)" :
		       "the A/A calibration flagged no row less often on the figure corrected by the host-speed control");
		return;
	}
	fprintf(out, "\nfigure: %d of %d compared rows tested on the figure corrected by the host-speed control (each repetition's ns/packet times the median control of the row over its own, docs/compare.md)%s; the rest raw:\n",
	       ncorr, ncmp, vw->o.figure == XL_CMP_FIG_CORRECTED ? " as asked (--figure corrected)" :
	       ", where this host's A/A calibration flagged fewer on it");
	for (i = 0; i < n; i++) {
		if (!ids[i] || !corrected[i])
			continue;
		figure_why(vw, ids[i], multi, why, sizeof(why));
		fprintf(out, "%s%s %u %s %s: corrected%s\n", md ? "- " : "  ", TXT(md, ids[i]->name),
		       ids[i]->size, TXT(md, ids[i]->mode),
		       TXT(md, ids[i]->wiring[0] ? ids[i]->wiring : "-"), why);
	}
}

json_t *xl_cmp_out_calib_json(const struct xl_cmp_view *vw, const struct xl_cmp_rowdata *id,
			      bool multi)
{
	const struct xl_calib_row *c;
	char buf[128];

	if (!calib_rate(vw, id, multi, buf, sizeof(buf)) || !(c = xl_calib_find(vw->calib, id)))
		return NULL;
	if (multi)
		return json_pack("{s:i,s:i,s:f,s:b}", "splits", c->splits, "flags", c->split_flags,
				 "rate", (double)c->split_flags / c->splits, "too_few",
				 c->split_too_few);
	return json_pack("{s:i,s:i,s:f,s:b}", "pairs", c->pairs, "flags", c->pair_flags, "rate",
			 (double)c->pair_flags / c->pairs, "too_few", c->pair_too_few);
}

json_t *xl_cmp_out_calib_head_json(const struct xl_cmp_view *vw)
{
	if (!vw->calib)
		return NULL;
	return json_pack("{s:s,s:i,s:f,s:b,s:s}", "path", vw->calib_path, "runs", vw->calib->nruns,
			 "alpha", vw->calib->alpha, "matches", vw->calib_ok, "why", vw->calib_why);
}

void xl_cmp_out_choices(FILE *out, const struct xl_cmp_view *vw,
			const struct xl_cmp_rowdata *const *ids, const bool *corrected, int n,
			bool multi)
{
	print_figure(out, vw, ids, corrected, n, multi);
	print_calib(out, vw, ids, n, multi);
}

int xl_cmp_write_runs(FILE *out, const struct xl_cmp_file *files, int nbase, int nnew,
		      const struct xl_cmp_mresult *res, const struct xl_cmp_view *vw)
{
	int ret = 0;

	if (vw->format == XL_CMP_OUT_CSV)
		return -EINVAL;
	if (vw->format == XL_CMP_OUT_JUNIT)
		ret = xl_cmp_out_junit_runs(out, files, nbase, nnew, res, vw);
	else if (vw->format == XL_CMP_OUT_JSON)
		print_json(out, files, nbase, nnew, res, vw);
	else
		print_text(out, files, nbase, nnew, res, vw);
	return ret ? ret : ferror(out) ? -EIO : 0;
}
