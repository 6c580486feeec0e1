// SPDX-License-Identifier: BSD-2-Clause
/* xdplab compare BASE.json NEW.json: is NEW slower than BASE, row by row? */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "xdplab/compare.h"

enum { O_ALPHA, O_THRESHOLD, O_FORMAT, O_JSON };

static const struct xl_opt compare_opts[] = {
	{ "alpha", 'a', "P", "significance level of the Mann-Whitney U test, 0.0001..0.5 (default 0.05)", O_ALPHA },
	{ "threshold-ns", 't', "NS", "a significant change must also exceed this many ns/packet, 0..1000000 (default 0)", O_THRESHOLD },
	{ "format", 'f', "FMT", "text (default) or markdown (a table to paste into a mail)", O_FORMAT },
	{ "json", 'j', NULL, "print the comparison as JSON (schema xdplab.compare/1) instead", O_JSON },
};

static const struct xl_cmd_spec compare_spec = {
	"compare", "BASE.json NEW.json",
	"Compare two results files row by row: deltas in Mpps, ns/packet and DUT CPU ns/packet, a Mann-Whitney U test over the repetitions, a verdict. Exit 0: no regression, 1: a row regressed, 2: usage or bad input.",
	compare_opts, sizeof(compare_opts) / sizeof(compare_opts[0]),
};

struct compare_args {
	struct xl_cmp_opts o;
	bool markdown, json, format_given;
};

/* A decimal number in [@min, @max] for option @opt. */
static int parse_real(const char *opt, const char *arg, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(v))
		return xl_usage_error(&compare_spec, "%s: '%s' is not a number (accepted: %g..%g)",
				      opt, arg, min, max);
	if (v < min || v > max)
		return xl_usage_error(&compare_spec, "%s: '%s' is out of range (accepted: %g..%g)",
				      opt, arg, min, max);
	*out = v;
	return 0;
}

static int on_opt(int id, const char *arg, void *ctx)
{
	static const char *const formats[] = { "text", "markdown", NULL };
	struct compare_args *a = ctx;
	int i;

	switch (id) {
	case O_ALPHA:
		return parse_real("--alpha", arg, 0.0001, 0.5, &a->o.alpha);
	case O_THRESHOLD:
		return parse_real("--threshold-ns", arg, 0, 1e6, &a->o.threshold_ns);
	case O_FORMAT:
		i = xl_parse_choice(&compare_spec, "--format", arg, formats);
		if (i < 0)
			return i;
		a->markdown = i == 1;
		a->format_given = true;
		return 0;
	case O_JSON:
		a->json = true;
		return 0;
	}
	return -EINVAL;
}

/* ---- text and markdown ---- */

/* Each status's name in JSON and in the text and markdown tables. */
static const struct {
	const char *json, *text;
} status_names[] = {
	[XL_CMP_PAIRED] = { "compared", NULL /* the verdict's name */ },
	[XL_CMP_NOT_COMPARABLE] = { "not-comparable", "not comparable" },
	[XL_CMP_NOT_MEASURED] = { "not-measured", "not measured" },
	[XL_CMP_BASE_ONLY] = { "base-only", "only in base" },
	[XL_CMP_NEW_ONLY] = { "new-only", "only in new" },
};

static const char *status_text(const struct xl_cmp_row *r)
{
	return r->status == XL_CMP_PAIRED ? xl_cmp_verdict_name(r->verdict) :
					    status_names[r->status].text;
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
	if (r->status == XL_CMP_PAIRED && r->too_few)
		snprintf(buf + strlen(buf), len - strlen(buf), " (too few reps)");
	if (r->reason[0])
		snprintf(buf + strlen(buf), len - strlen(buf), ": %s", r->reason);
}

static void print_env(const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md)
{
	struct xl_cmp_env_row e[64];
	int i, ne = xl_cmp_env(b, n, e, 64);

	if (md)
		printf("| environment | base | new |\n|---|---|---|\n");
	else
		printf("  %-22s %-36s %s\n", "environment", "base", "new");
	for (i = 0; i < ne; i++)
		if (md)
			printf("| %s%s | %s | %s |\n", e[i].differs ? "**differs:** " : "",
			       e[i].field, e[i].base, e[i].new);
		else
			printf("%c %-22s %-36s %s\n", e[i].differs ? '*' : ' ', e[i].field,
			       e[i].base, e[i].new);
	if (!md)
		printf("  (* = differs)\n");
}

static void print_table(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct compare_args *a)
{
	bool md = a->markdown;
	char bs[48], ns[48], v[256], delta[40], dns[16], bc[16], nc[16], dc[16], p[24], pv[16];
	int i;

	/* Markdown: the closing ** on the same line, or CommonMark shows them. */
	printf("%sxdplab compare: base %s (commit %s, %s) vs new %s (commit %s, %s)%s\n",
	       md ? "**" : "", b->path, b->git[0] ? b->git : "?", b->date[0] ? b->date : "?",
	       n->path, n->git[0] ? n->git : "?", n->date[0] ? n->date : "?", md ? "**" : "");
	if (res->cross_machine)
		printf("%sWARNING: the two runs were made on different machines (host, CPU model or CPU count differ): the deltas mix machine and change\n",
		       md ? "\n" : "");
	if (res->ceiling_moved)
		printf("%sWARNING: the generator ceiling (gen-ceiling: the generator alone, nothing under test) moved %+.1f%% between the runs: the host changed, and the other rows' verdicts carry that change too\n",
		       md ? "\n" : "", res->ceiling_pct);
	printf("%s", md ? "\n" : "");
	print_env(b, n, md);
	printf("\nMann-Whitney U, two-sided, exact, over the repetitions' ns/packet (1e9/pps; DUT CPU ns/packet for generator-bound rows); alpha %g, threshold %g ns/packet\n",
	       a->o.alpha, a->o.threshold_ns);
	printf("d ns/p = 1e9/new - 1e9/base of the median rates; d CPU = new - base median DUT CPU ns/packet; positive = slower\n\n");
	if (md)
		printf("| benchmark | size | mode | wiring | base Mpps (min-max) | new Mpps (min-max) | delta Mpps | d ns/p | base CPU ns/p | new CPU ns/p | d CPU | n | p | verdict |\n"
		       "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	else
		printf("%-19s %5s %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n", "benchmark",
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
			       d->name, d->size, d->mode, d->wiring[0] ? d->wiring : "-", bs, ns,
			       delta, dns, bc, nc, dc, p, pv, v);
		else
			printf("%-19s %5u %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n",
			       d->name, d->size, d->mode, d->wiring[0] ? d->wiring : "-", bs, ns,
			       delta, dns, bc, nc, dc, p, pv, v);
	}
}

static void print_notes(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct compare_args *a)
{
	size_t seen[XL_MAX_REPS + 1][XL_MAX_REPS + 1] = { { 0 } };
	size_t need = xl_mann_whitney_n_needed(a->o.alpha);
	int i, only = 0, notc = 0, same = 0;

	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];

		only += r->status == XL_CMP_BASE_ONLY || r->status == XL_CMP_NEW_ONLY;
		notc += r->status == XL_CMP_NOT_COMPARABLE || r->status == XL_CMP_NOT_MEASURED;
		same += r->status == XL_CMP_PAIRED && r->verdict == XL_CMP_SAME;
		if (r->status != XL_CMP_PAIRED || !r->too_few || seen[r->test.n2][r->test.n1]++)
			continue;
		printf("\nnote: %zu vs %zu repetitions can never reach p < %g (the smallest two-sided p they can give is %.3f):"
		       " '~' there means 'cannot tell', not 'no change'; %s\n",
		       r->test.n2, r->test.n1, a->o.alpha,
		       xl_mann_whitney_min_p(r->test.n2, r->test.n1),
		       need ? "" : "no repetition count up to 32 can reach it");
		if (need)
			printf("      it needs at least %zu vs %zu (lab run --reps %zu)\n", need, need, need);
	}
	printf("\n%d rows in base, %d in new: %d paired, %d compared; %d regression(s), %d improvement(s), %d ~, %d not comparable or not measured, %d in one file only\n",
	       b->nrows, n->nrows, res->paired, res->compared, res->regressions,
	       res->improvements, same, notc, only);
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
		       const struct xl_cmp_result *res, const struct compare_args *a)
{
	struct xl_cmp_env_row e[64];
	json_t *doc = json_object(), *env = json_array(), *rows = json_array();
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
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = ident(r);
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:s,s:o,s:o}", "name", d->name,
				      "packet_operation", d->op, "size", d->size, "mode", d->mode,
				      "wiring", d->wiring, "gen_engine", d->engine,
				      "status", status_names[r->status].json, "reason", r->reason,
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
			json_object_set_new(o, "u", json_real(r->test.u));
			json_object_set_new(o, "p", json_real(r->test.p));
			json_object_set_new(o, "n_base", json_integer(r->test.n2));
			json_object_set_new(o, "n_new", json_integer(r->test.n1));
			json_object_set_new(o, "min_p", json_real(xl_mann_whitney_min_p(r->test.n1,
										       r->test.n2)));
			json_object_set_new(o, "too_few", json_boolean(r->too_few));
			json_object_set_new(o, "verdict", json_string(xl_cmp_verdict_name(r->verdict)));
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(doc, "rows", rows);
	json_object_set_new(doc, "summary", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "base_rows",
						       b->nrows, "new_rows", n->nrows, "paired",
						       res->paired, "compared", res->compared,
						       "regressions", res->regressions,
						       "improvements", res->improvements));
	json_dumpf(doc, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(doc);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .o = { .alpha = 0.05, .threshold_ns = 0 } };
	struct xl_cmp_file f[2];
	struct xl_cmp_result res;
	char err[512];
	int idx, i, ret;

	idx = xl_opts_parse(&compare_spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (argc - idx != 2) {
		xl_usage_error(&compare_spec, "two files expected: BASE.json NEW.json (got %d)",
			       argc - idx);
		return XL_EXIT_USAGE;
	}
	if (a.json && a.format_given) {
		xl_usage_error(&compare_spec, "--json and --format exclude each other (choose one output)");
		return XL_EXIT_USAGE;
	}
	for (i = 0; i < 2; i++)
		if (xl_cmp_load(argv[idx + i], &f[i], err, sizeof(err))) {
			xl_usage_error(&compare_spec, "%s", err);
			if (i)
				xl_cmp_file_free(&f[0]);
			return XL_EXIT_USAGE;
		}
	ret = XL_EXIT_USAGE;
	if (xl_cmp_run(&f[0], &f[1], &a.o, &res)) {
		xl_usage_error(&compare_spec, "out of memory");
		goto out_files;
	}
	if (!res.paired) {
		xl_usage_error(&compare_spec, "%s and %s have no row in common (%d and %d rows; rows pair by name, packet operation, size and mode)",
			       f[0].path, f[1].path, f[0].nrows, f[1].nrows);
		goto out_result;
	}
	if (a.json) {
		print_json(&f[0], &f[1], &res, &a);
	} else {
		print_table(&f[0], &f[1], &res, &a);
		print_notes(&f[0], &f[1], &res, &a);
	}
	ret = res.regressions ? XL_EXIT_RUNTIME : XL_EXIT_OK;
out_result:
	xl_cmp_result_free(&res);
out_files:
	xl_cmp_file_free(&f[0]);
	xl_cmp_file_free(&f[1]);
	return ret;
}
