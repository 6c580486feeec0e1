// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab compare BASE.json NEW.json: is NEW slower than BASE, row by row?
 * Its options, reading the files (and directories of them), two files;
 * several runs a side (BASE.json... -- NEW.json...) in cmd_compare_runs.c.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cmd.h"
#include "run_opts.h"
#include "compare_cli.h"
#include "xdplab/log.h"
#include "xdplab/compare.h"
#include "xdplab/report.h"
#include "xdplab/store.h"

#define A struct compare_args
static const char *const formats[] = { "text", "markdown", "junit", "csv", NULL };
static const char *const figures[] = { "auto", "raw", "corrected", NULL };
static const int figure_vals[] = { XL_CMP_FIG_AUTO, XL_CMP_FIG_RAW, XL_CMP_FIG_CORRECTED };

static const struct xl_opt compare_opts[] = {
	{ "alpha", 'a', "P", "significance level of the Mann-Whitney U test, {range} (default " XL_CMP_ALPHA_DEFAULT_TEXT ")",
	  XL_REAL(A, o.alpha, 0.0001, 0.5) },
	{ "threshold-ns", 't', "NS", "a significant change must also exceed this many ns/packet (latency rows: ns of p50/p99), {range} (default 0)",
	  XL_REAL(A, o.threshold_ns, 0, 1e6) },
	{ "format", 'f', "FMT", "text (default), markdown (a table for a mail or a pull request), junit (JUnit XML for a CI job: a testcase per row, a regression a failure; docs/ci.md) or csv (a line per row and the geomean, as benchstat -format csv; one run a side)",
	  XL_ENUM(A, format, formats, NULL), XL_SEEN(A, format_given) },
	{ "json", 'j', NULL, "print the comparison as JSON (schema xdplab.compare/1; /2 for several runs a side) instead",
	  XL_FLAG(A, json) },
	{ "db", 0, "DB", "compare stored runs (docs/store.md) instead of files: an SQLite file or postgresql://...; with --base-label and --new-label", XL_STR(A, db) },
	{ "base-label", 0, "LABEL", "with --db: BASE is the stored runs of this label (several runs a side; the newest 32)", XL_STR(A, label[0]) },
	{ "new-label", 0, "LABEL", "with --db: NEW is the stored runs of this label (several runs a side; the newest 32)", XL_STR(A, label[1]) },
	{ "calibration", 'c', "FILE", "an A/A calibration (lab run --aa's calibration.json; default: one in a directory of runs given): show each row's false-alarm rate measured on this host, when it is from the same host and set-up",
	  XL_STR(A, calib_path) },
	{ "figure", 0, "FIG", "the figure rows are tested on: raw (the repetitions' ns/packet), corrected (relative to the host-speed control measured before each repetition, docs/compare.md) or auto (default: raw, corrected for the rows whose A/A calibration flagged fewer on it)",
	  XL_ENUM(A, o.figure, figures, figure_vals) },
};
#undef A

static const struct compare_args compare_defaults = { .o = { .alpha = XL_CMP_ALPHA_DEFAULT } };

static const struct xl_cmd_spec compare_spec = {
	"compare", "BASE.json NEW.json | BASE.json... -- NEW.json... | --db DB --base-label A --new-label B",
	"Compare two results files row by row: deltas in Mpps, ns/packet and DUT CPU ns/packet, a Mann-Whitney U test over the repetitions, a verdict; latency rows (lab run --latency) by their p50 and p99 over the repetitions, and any loss, gap, reordering or duplicate that rose from 0. Exit 0: no regression, 1: a row regressed (a rate that fell to 0 pps too), 2: usage, bad input (a row twice in a file) or, with no regression, a row with too few repetitions to tell. Several runs a side (files or directories of them, BASE before --, NEW after): each run's median is one value, an exact permutation test over the run labels, a 95% interval, the spreads between and within runs, the smallest difference the runs can detect (docs/compare.md).",
	compare_opts, sizeof(compare_opts) / sizeof(compare_opts[0]), &compare_defaults,
	sizeof(compare_defaults),
};

int xl_cmp_load_label(const struct xl_cmd_spec *spec, struct xl_store *s, const char *label,
		      const char *opt, struct xl_cmp_file *f, int *nf)
{
	struct xl_store_run *runs;
	char err[1024], name[320];
	int n, k, ret = 0;

	if (xl_store_list(s, label, &runs, &n, err, sizeof(err))) {
		xl_usage_error(spec, "%s", err);
		return XL_EXIT_RUNTIME;
	}
	if (!n) {
		xl_usage_error(spec, "%s '%s': no stored run has this label in %s (store list shows them)",
			       opt, label, xl_store_name(s));
		free(runs);
		return XL_EXIT_USAGE;
	}
	if (n > XL_CMP_MAX_RUNS)
		fprintf(stderr, "xdplab %s: label %s has %d stored runs: the newest %d are compared (at most %d a side)\n",
			spec->name, XL_ESC(label), n, XL_CMP_MAX_RUNS, XL_CMP_MAX_RUNS);
	for (k = n > XL_CMP_MAX_RUNS ? n - XL_CMP_MAX_RUNS : 0; k < n && !ret; k++) {
		json_t *doc = NULL;
		size_t len;
		char *text;

		if (xl_store_doc(s, runs[k].id, &text, &len, NULL, err, sizeof(err))) {
			xl_usage_error(spec, "%s", err);
			ret = XL_EXIT_RUNTIME;
			break;
		}
		snprintf(name, sizeof(name), "store run %lld (label %s)", runs[k].id, label);
		doc = json_loadb(text, len, 0, NULL);
		ret = doc ? xl_cmp_from_doc(name, doc, &f[*nf], err, sizeof(err)) : -EINVAL;
		if (ret) {
			xl_usage_error(spec, "%s", doc ? err : "stored document is not JSON");
			ret = XL_EXIT_USAGE;
		} else {
			(*nf)++;
		}
		json_decref(doc);
		free(text);
	}
	free(runs);
	return ret;
}

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
	if (r->status == XL_CMP_PAIRED && r->on_cpu)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " (generator-bound: on DUT CPU ns/packet)");
	if (r->reason[0])
		snprintf(buf + strlen(buf), len - strlen(buf), ": %s", r->reason);
}

void xl_cmp_print_env(const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md)
{
	struct xl_cmp_env_row e[64];
	int i, ne = xl_cmp_env(b, n, e, 64), nd = 0;

	for (i = 0; i < ne; i++)
		nd += e[i].differs;
	if (md)
		printf("<details><summary>environment: %d field(s) differ</summary>\n\n"
		       "| environment | base | new |\n|---|---|---|\n", nd);
	else
		printf("  %-22s %-36s %s\n", "environment", "base", "new");
	for (i = 0; i < ne; i++)
		if (md)
			printf("| %s%s | %s | %s |\n", e[i].differs ? "**differs:** " : "",
			       TXT(md, e[i].field), TXT(md, e[i].base), TXT(md, e[i].new));
		else
			printf("%c %-22s %-36s %s\n", e[i].differs ? '*' : ' ', TXT(md, e[i].field),
			       TXT(md, e[i].base), TXT(md, e[i].new));
	if (!md)
		printf("  (* = differs)\n");
	else
		printf("\n</details>\n");
}

void xl_cmp_md_headline(const struct xl_cmp_rowdata *const *reg, int nreg, int improvements,
			int same, int too_few, const char *few, int not_compared)
{
	int i;

	if (nreg)
		printf("\n**Result: %d regression(s)**:", nreg);
	else
		printf("\n**Result: no regression**;");
	for (i = 0; i < nreg; i++)
		printf(" %s %u %s %s%s", XL_ESC_MD(reg[i]->name), reg[i]->size,
		       XL_ESC_MD(reg[i]->mode), XL_ESC_MD(reg[i]->wiring[0] ? reg[i]->wiring : "-"),
		       i + 1 < nreg ? "," : ";");
	printf(" %d improvement(s), %d ~, %d too few %s, %d not compared\n", improvements, same,
	       too_few, few, not_compared);
}

/* Markdown's headline of two files: the regressed rows named. */
static void md_headline_two(const struct xl_cmp_result *res)
{
	const struct xl_cmp_rowdata **reg = calloc(res->nrows + 1, sizeof(*reg));
	int i, n = 0;

	if (!reg)
		return;
	for (i = 0; i < res->nrows; i++)
		if (res->rows[i].status == XL_CMP_PAIRED && res->rows[i].verdict == XL_CMP_REGRESSION)
			reg[n++] = res->rows[i].base;
	xl_cmp_md_headline(reg, n, res->improvements,
			   res->compared - res->regressions - res->improvements - res->too_few,
			   res->too_few, "reps", res->nrows - res->compared);
	free(reg);
}

/*
 * benchstat's geomean row under a table of more than one compared row: the
 * geometric means of the median rates (and of the DUT CPU ns/packet when
 * every one of those rows has it), their delta; no test, no verdict.
 */
static void print_geomean(const struct xl_cmp_result *res, bool md, int w)
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
		printf("| geomean | | | | %s | %s | %s | %s | %s | %s | %s | | | %s |\n", bs, ns, delta,
		       dns, bc, nc, dc, v);
	else
		printf("%-*s %5s %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n", w,
		       "geomean", "", "", "", bs, ns, delta, dns, bc, nc, dc, "", "", v);
}

static void print_table(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct compare_args *a)
{
	bool md = a->markdown;
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
	printf("%sxdplab compare: base %s (commit %s, %s) vs new %s (commit %s, %s)%s\n",
	       md ? "**" : "", TXT(md, b->path), TXT(md, b->git[0] ? b->git : "?"),
	       TXT(md, b->date[0] ? b->date : "?"), TXT(md, n->path),
	       TXT(md, n->git[0] ? n->git : "?"), TXT(md, n->date[0] ? n->date : "?"),
	       md ? "**" : "");
	if (res->cross_machine)
		printf("%sWARNING: the two runs were made on different machines (host, CPU model or CPU count differ): the deltas mix machine and change\n",
		       md ? "\n" : "");
	if (res->ceiling_moved)
		printf("%sWARNING: the generator ceiling (gen-ceiling: the generator alone, nothing under test) moved %+.1f%% between the runs: the host changed, and the other rows' verdicts carry that change too\n",
		       md ? "\n" : "", res->ceiling_pct);
	if (md)
		md_headline_two(res);
	printf("%s", md ? "\n" : "");
	xl_cmp_print_env(b, n, md);
	/* Markdown: a blank line between the notes, or they run into one paragraph. */
	printf("\nMann-Whitney U, two-sided, exact, over the repetitions' ns/packet (1e9/pps; DUT CPU ns/packet for generator-bound rows); alpha %g, threshold %g ns/packet\n%s",
	       a->o.alpha, a->o.threshold_ns, md ? "\n" : "");
	printf("note: one run a side cannot separate the patch from the host: the repetitions of one run share its host's state, so this test compares two runs, not two codes; for a decision alternate several runs a side (xdplab compare BASE.json... -- NEW.json..., docs/compare.md)\n%s",
	       md ? "\n" : "");
	printf("d ns/p = 1e9/new - 1e9/base of the median rates; d CPU = new - base median DUT CPU ns/packet; positive = slower\n\n");
	if (md)
		printf("| benchmark | size | mode | wiring | base Mpps (min-max) | new Mpps (min-max) | delta Mpps | d ns/p | base CPU ns/p | new CPU ns/p | d CPU | n | p | verdict |\n"
		       "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	else
		printf("%-*s %5s %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n", w, "benchmark",
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
			printf("| %s | %u | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			       TXT(md, d->name), d->size, TXT(md, d->mode),
			       TXT(md, d->wiring[0] ? d->wiring : "-"), bs, ns, delta, dns, bc, nc,
			       dc, p, pv, TXT(md, v));
		else
			printf("%-*s %5u %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n",
			       w, TXT(md, d->name), d->size, TXT(md, d->mode),
			       TXT(md, d->wiring[0] ? d->wiring : "-"), bs, ns, delta, dns, bc, nc,
			       dc, p, pv, TXT(md, v));
	}
	print_geomean(res, md, w);
}

const char *xl_cmp_too_few_text(int n)
{
	static char buf[32];

	if (!n)
		return "";
	snprintf(buf, sizeof(buf), "%d too few reps, ", n);
	return buf;
}

static void print_notes(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct compare_args *a)
{
	size_t seen[XL_MAX_REPS + 1][XL_MAX_REPS + 1] = { { 0 } };
	size_t need = xl_mann_whitney_n_needed(a->o.alpha);
	int i;

	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];

		if (r->status != XL_CMP_PAIRED || r->verdict != XL_CMP_TOO_FEW ||
		    seen[r->test.n2][r->test.n1]++)
			continue;
		printf("\nnote: %zu vs %zu repetitions can never reach p < %g (the smallest two-sided p they can give is %.3f):"
		       " 'too few reps' there means 'cannot tell', not 'no change'; %s\n",
		       r->test.n2, r->test.n1, a->o.alpha,
		       xl_mann_whitney_min_p(r->test.n2, r->test.n1),
		       need ? "" : "no repetition count up to 32 can reach it");
		if (need)
			printf("      it needs at least %zu vs %zu (lab run --reps %zu)\n", need, need, need);
	}
	printf("\n%d rows in base, %d in new: %d paired, %d compared; %d regression(s), %d improvement(s), %d ~, %s%d not comparable or not measured, %d in one file only\n",
	       b->nrows, n->nrows, res->paired, res->compared, res->regressions,
	       res->improvements, res->compared - res->regressions - res->improvements - res->too_few,
	       xl_cmp_too_few_text(res->too_few), res->paired - res->compared, res->nrows - res->paired);
}

/* ---- JSON ---- */

static json_t *side_json(const struct xl_cmp_rowdata *d, double cpu)
{
	if (!d)
		return json_null();
	return json_pack("{s:i,s:o,s:s,s:o}", "n", d->nreps, "mpps",
			 d->nreps ? json_pack("{s:f,s:f,s:f}", "median", d->mpps.median, "min",
					      d->mpps.min, "max", d->mpps.max) : json_null(),
			 "verdict", d->verdict,
			 "cpu_ns_per_pkt", cpu > 0 ? json_real(cpu) : json_null());
}

static void print_json(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
		       const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
		       const struct compare_args *a)
{
	struct xl_cmp_env_row e[64];
	json_t *doc = json_object(), *env = json_array(), *rows = json_array(), *sum, *fa;
	int i, ne = xl_cmp_env(b, n, e, 64);

	json_object_set_new(doc, "schema", json_string("xdplab.compare/1"));
	json_object_set_new(doc, "base", json_pack("{s:s,s:s,s:s}", "path", b->path, "git",
						    b->git, "date", b->date));
	json_object_set_new(doc, "new", json_pack("{s:s,s:s,s:s}", "path", n->path, "git",
						   n->git, "date", n->date));
	for (i = 0; i < ne; i++)
		json_array_append_new(env, json_pack("{s:s,s:s,s:s,s:b}", "field", e[i].field,
						     "base", e[i].base, "new", e[i].new,
						     "differs", e[i].differs));
	json_object_set_new(doc, "environment", env);
	json_object_set_new(doc, "cross_machine", json_boolean(res->cross_machine));
	json_object_set_new(doc, "ceiling_moved", json_boolean(res->ceiling_moved));
	json_object_set_new(doc, "ceiling_pct", res->ceiling_moved ? json_real(res->ceiling_pct) :
								      json_null());
	json_object_set_new(doc, "alpha", json_real(a->o.alpha));
	json_object_set_new(doc, "threshold_ns", json_real(a->o.threshold_ns));
	json_object_set_new(doc, "figure", json_string(xl_cmp_figure_name(a->o.figure)));
	if ((fa = xl_cmp_calib_head_json(a)))
		json_object_set_new(doc, "calibration", fa);
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = ident(r);
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:s,s:o,s:o}", "name", d->name,
				      "packet_operation", d->op, "size", d->size, "mode", d->mode,
				      "wiring", d->wiring, "gen_engine", d->engine,
				      "status", xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_JSON), "reason", r->reason,
				      "base", side_json(r->base, r->base_cpu),
				      "new", side_json(r->new, r->new_cpu));

		if (r->status == XL_CMP_PAIRED) {
			json_object_set_new(o, "delta_mpps", json_real(r->delta_mpps));
			json_object_set_new(o, "delta_pct", json_real(r->delta_pct));
			json_object_set_new(o, "delta_ns_per_pkt", json_real(r->delta_ns));
			json_object_set_new(o, "delta_cpu_ns_per_pkt",
					    r->base_cpu > 0 && r->new_cpu > 0 ?
					    json_real(r->delta_cpu_ns) : json_null());
			json_object_set_new(o, "metric", json_string(r->on_cpu ? "cpu_ns_per_pkt" :
									       "ns_per_pkt"));
			json_object_set_new(o, "figure", json_string(r->corrected ? "corrected" : "raw"));
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
			if ((fa = xl_cmp_calib_json(a, r->base, false)))
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
	json_object_set_new(doc, "latency", xl_cmp_lat_json(lr));
	sum = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "base_rows", b->nlat, "new_rows", n->nlat,
			"paired", lr->paired, "compared", lr->compared, "regressions",
			lr->regressions, "improvements", lr->improvements, "rose_from_zero",
			lr->rose);
	if (lr->too_few)
		json_object_set_new(sum, "too_few", json_integer(lr->too_few));
	json_object_set_new(doc, "latency_summary", sum);
	json_dumpf(doc, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(doc);
}

/* ---- the files ---- */

/* The files compare reads: each side's, expanded from directories. */
struct runs {
	struct xl_cmp_file *f; /* base's, then new's */
	int n, nbase;
	char calib[4096];      /* the first calibration.json in a directory given */
};

static void runs_free(struct runs *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		xl_cmp_file_free(&r->f[i]);
	free(r->f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An A/A calibration (lab run --aa) in a directory of runs is not a run. */
static bool is_calibration(const char *path)
{
	const char *b = strrchr(path, '/');

	return !strcmp(b ? b + 1 : path, "calibration.json");
}

/* Load @path into the next slot; one line on stderr on failure. */
static int load_one(struct runs *r, const char *path)
{
	char err[512];

	if (r->n == 2 * XL_CMP_MAX_RUNS + 2)
		return xl_usage_error(&compare_spec, "%s: more than %d runs a side", path,
				      XL_CMP_MAX_RUNS);
	if (xl_cmp_load(path, &r->f[r->n], err, sizeof(err)))
		return xl_usage_error(&compare_spec, "%s", err);
	r->n++;
	return 0;
}

/* Every *.json in directory @dir (but calibration.json), by name. */
static int load_dir(struct runs *r, const char *dir)
{
	struct dirent *de;
	char **names = NULL, path[4096];
	int n = 0, i, ret = 0;
	size_t len;
	DIR *d = opendir(dir);

	if (!d)
		return xl_usage_error(&compare_spec, "%s: cannot open: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		char **nn;

		len = strlen(de->d_name);
		if (is_calibration(de->d_name) && !r->calib[0])
			snprintf(r->calib, sizeof(r->calib), "%s/%s", dir, de->d_name);
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") ||
		    is_calibration(de->d_name))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || !(nn[n] = strdup(de->d_name))) {
			names = nn ? nn : names;
			ret = xl_usage_error(&compare_spec, "%s: out of memory", dir);
			goto out;
		}
		names = nn;
		n++;
	}
	if (!n) {
		ret = xl_usage_error(&compare_spec, "%s: no results file (*.json) in the directory",
				     dir);
		goto out;
	}
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ret = load_one(r, path);
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

/* @args[0..n): files, or directories of them. */
static int load_side(struct runs *r, char **args, int n)
{
	struct stat st;
	int i, ret;

	for (i = 0; i < n; i++) {
		if (!stat(args[i], &st) && S_ISDIR(st.st_mode))
			ret = load_dir(r, args[i]);
		else
			ret = load_one(r, args[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Two files: the test over the repetitions, as always. */
static int compare_two(const struct xl_cmp_file *f, const struct compare_args *a)
{
	struct xl_cmp_result res;
	struct xl_cmp_latresult lr = { 0 };
	int ret = XL_EXIT_USAGE;

	if (xl_cmp_run(&f[0], &f[1], &a->o, &res)) {
		xl_err("compare: out of memory");
		return XL_EXIT_RUNTIME;
	}
	if (xl_cmp_lat_run(&f[0], &f[1], &a->o, &lr)) {
		xl_err("compare: out of memory");
		ret = XL_EXIT_RUNTIME;
		goto out_result;
	}
	if (!res.paired && !lr.paired) {
		xl_usage_error(&compare_spec, "%s and %s have no row in common (%d and %d rows; rows pair by name, packet operation, size and mode)",
			       f[0].path, f[1].path, f[0].nrows, f[1].nrows);
		goto out_result;
	}
	if (a->json) {
		print_json(&f[0], &f[1], &res, &lr, a);
	} else if (a->junit) {
		xl_cmp_print_junit(&f[0], &f[1], &res, &lr, a);
	} else if (a->csv) {
		xl_cmp_print_csv(&res);
	} else {
		print_table(&f[0], &f[1], &res, a);
		{
			const struct xl_cmp_rowdata **ids = calloc(res.nrows + 1, sizeof(*ids));
			bool *corr = calloc(res.nrows + 1, sizeof(*corr));
			int i;

			for (i = 0; ids && corr && i < res.nrows; i++) {
				ids[i] = res.rows[i].status == XL_CMP_PAIRED ? res.rows[i].base : NULL;
				corr[i] = res.rows[i].corrected;
			}
			if (ids && corr) {
				xl_cmp_print_figure(a, ids, corr, res.nrows, false);
				xl_cmp_print_calib(a, ids, res.nrows, false);
			}
			free(ids);
			free(corr);
		}
		if (lr.npairs)
			xl_cmp_print_lat_table(&lr, a);
		print_notes(&f[0], &f[1], &res, a);
		if (lr.npairs)
			xl_cmp_print_lat_notes(&f[0], &f[1], &lr, a);
	}
	/* Cannot tell is no pass: 2 unless a row regressed. */
	if (res.regressions || lr.regressions)
		ret = XL_EXIT_RUNTIME;
	else if (res.too_few || lr.too_few)
		ret = XL_EXIT_USAGE;
	else
		ret = XL_EXIT_OK;
out_result:
	xl_cmp_latresult_free(&lr);
	xl_cmp_result_free(&res);
	return ret;
}

/* Several runs a side: the run is the unit (cmd_compare_runs.c prints). */
static int compare_runs(const struct runs *r, const struct compare_args *a)
{
	struct xl_cmp_mresult res;
	char err[1024];
	int ret;

	ret = xl_cmp_runs_check(r->f, r->n, err, sizeof(err));
	if (ret == -ENOMEM) {
		xl_err("compare: out of memory");
		return XL_EXIT_RUNTIME;
	}
	if (ret)
		return xl_usage_error(&compare_spec, "%s", err), XL_EXIT_USAGE;
	if (xl_cmp_runs(r->f, r->nbase, r->n - r->nbase, &a->o, &res)) {
		xl_err("compare: out of memory");
		return XL_EXIT_RUNTIME;
	}
	if (a->csv) {
		xl_cmp_mresult_free(&res);
		return xl_usage_error(&compare_spec, "--format csv is for one run a side (several runs a side: text, markdown, junit or --json)"), XL_EXIT_USAGE;
	}
	if (a->junit)
		xl_cmp_print_junit_runs(r->f, r->nbase, r->n - r->nbase, &res, a);
	else
		xl_cmp_print_runs(r->f, r->nbase, r->n - r->nbase, &res, a);
	ret = res.regressions ? XL_EXIT_RUNTIME : res.too_few ? XL_EXIT_USAGE : XL_EXIT_OK;
	xl_cmp_mresult_free(&res);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a;
	struct runs r = { 0 };
	int idx, dash, nb, nn, ret;

	/* getopt would drop "--" from its place: options end there. */
	dash = xl_cmd_find_dash(argc, argv);
	idx = xl_opts_parse(&compare_spec, dash < 0 ? argc : dash, argv, NULL, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	a.markdown = a.format == 1;
	a.junit = a.format == 2;
	a.csv = a.format == 3;
	nb = (dash < 0 ? argc : dash) - idx;
	nn = dash < 0 ? 0 : argc - dash - 1;
	if (a.db && (nb || dash >= 0)) {
		xl_usage_error(&compare_spec, "--db compares stored runs: no file expected (got %d)",
			       nb + nn);
		return XL_EXIT_USAGE;
	}
	if (a.db && (!a.label[0] || !a.label[1])) {
		xl_usage_error(&compare_spec, "--db needs --base-label and --new-label");
		return XL_EXIT_USAGE;
	}
	if (!a.db && (a.label[0] || a.label[1])) {
		xl_usage_error(&compare_spec, "--base-label and --new-label need --db (the store to read)");
		return XL_EXIT_USAGE;
	}
	if (!a.db && dash < 0 && nb > 2) {
		xl_usage_error(&compare_spec, "%d files: put -- between the BASE runs and the NEW runs (BASE.json... -- NEW.json...)",
			       nb);
		return XL_EXIT_USAGE;
	}
	if (!a.db && dash < 0 && nb != 2) {
		xl_usage_error(&compare_spec, "two files expected: BASE.json NEW.json (got %d)", nb);
		return XL_EXIT_USAGE;
	}
	if (dash >= 0 && (!nb || !nn)) {
		xl_usage_error(&compare_spec, "no %s runs %s -- (BASE.json... -- NEW.json...: files or directories of them)",
			       nb ? "NEW" : "BASE", nb ? "after" : "before");
		return XL_EXIT_USAGE;
	}
	if (a.json && a.format_given) {
		xl_usage_error(&compare_spec, "--json and --format exclude each other (choose one output)");
		return XL_EXIT_USAGE;
	}
	r.f = calloc(2 * XL_CMP_MAX_RUNS + 2, sizeof(*r.f));
	if (!r.f) {
		xl_err("compare: out of memory");
		return XL_EXIT_RUNTIME;
	}
	ret = XL_EXIT_USAGE;
	if (a.db) {
		struct xl_store *st = xl_cmd_store_open(&compare_spec, a.db, false, &ret);
		int i;

		if (!st)
			goto out;
		for (i = 0; i < 2 && !ret; i++) {
			ret = xl_cmp_load_label(&compare_spec, st, a.label[i],
						i ? "--new-label" : "--base-label", r.f, &r.n);
			if (!i)
				r.nbase = r.n;
		}
		xl_store_close(st);
		if (ret)
			goto out;
		ret = r.nbase == 1 && r.n == 2 ? compare_two(r.f, &a) : compare_runs(&r, &a);
		goto out;
	}
	if (dash < 0)
		nn = 1; /* BASE NEW: the second is NEW's */
	if (load_side(&r, argv + idx, nb - (dash < 0)))
		goto out;
	r.nbase = r.n;
	if (load_side(&r, dash < 0 ? argv + idx + 1 : argv + dash + 1, nn))
		goto out;
	if (r.nbase > XL_CMP_MAX_RUNS || r.n - r.nbase > XL_CMP_MAX_RUNS) {
		xl_usage_error(&compare_spec, "%d base and %d new runs: at most %d a side", r.nbase,
			       r.n - r.nbase, XL_CMP_MAX_RUNS);
		goto out;
	}
	if (!a.calib_path && r.calib[0])
		a.calib_path = r.calib;
	if (a.calib_path) {
		char err[512];

		if (xl_calib_load(a.calib_path, &a.calib, err, sizeof(err))) {
			xl_usage_error(&compare_spec, "--calibration: %s", err);
			goto out;
		}
		a.have_calib = true;
		a.calib_ok = xl_calib_matches(&a.calib, &r.f[0], a.calib_why, sizeof(a.calib_why));
		/* Its per-row choice of figure, only when it is this host's. */
		a.o.calib = a.calib_ok ? &a.calib : NULL;
	}
	/* One run a side, however named: the two files' comparison. */
	if (r.nbase == 1 && r.n == 2)
		ret = compare_two(r.f, &a);
	else
		ret = compare_runs(&r, &a);
out:
	xl_calib_free(&a.calib);
	runs_free(&r);
	return ret;
}
