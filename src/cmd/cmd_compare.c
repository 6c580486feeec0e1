// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab compare BASE.json NEW.json: is NEW slower than BASE, row by row?
 * Its options, reading the files (and directories of them), two files;
 * several runs a side (BASE.json... -- NEW.json...) in cmd_compare_runs.c.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "run_opts.h"
#include "compare_cli.h"
#include "xdplab/log.h"
#include "xdplab/compare.h"
#include "xdplab/report.h"
#include "xdplab/store_io.h"

#define A struct compare_args
static const char *const figures[] = { "auto", "raw", "corrected", "prog", NULL };
static const int figure_vals[] = { XL_CMP_FIG_AUTO, XL_CMP_FIG_RAW, XL_CMP_FIG_CORRECTED,
				   XL_CMP_FIG_PROG };

static const struct xl_opt compare_opts[] = {
	{ "alpha", 'a', "P", "significance level of the Mann-Whitney U test, {range} (default " XL_CMP_ALPHA_DEFAULT_TEXT ")",
	  XL_REAL(A, v.o.alpha, 0.0001, 0.5) },
	{ "threshold-ns", 't', "NS", "a significant change must also exceed this many ns/packet (latency rows: ns of p50/p99), {range} (default 0)",
	  XL_REAL(A, v.o.threshold_ns, 0, 1e6) },
	{ "format", 'f', "FMT", "text (default), markdown (a table for a mail or a pull request), junit (JUnit XML for a CI job: a testcase per row, a regression a failure; docs/ci.md) or csv (a line per row and the geomean, as benchstat -format csv; one run a side)",
	  XL_ENUM(A, v.format, xl_cmp_format_names, NULL), XL_SEEN(A, format_given) },
	{ "json", 'j', NULL, "print the comparison as JSON (schema xdplab.compare/1; /2 for several runs a side) instead",
	  XL_FLAG(A, json) },
	{ "db", 0, "DB", "compare stored runs (docs/store.md) instead of files: an SQLite file or postgresql://...; with --base-label and --new-label", XL_STR(A, db) },
	{ "base-label", 0, "LABEL", "with --db: BASE is the stored runs of this label (several runs a side; the newest 32)", XL_STR(A, label[0]) },
	{ "new-label", 0, "LABEL", "with --db: NEW is the stored runs of this label (several runs a side; the newest 32)", XL_STR(A, label[1]) },
	{ "calibration", 'c', "FILE", "an A/A calibration (lab run --aa's calibration.json; default: one in a directory of runs given): show each row's false-alarm rate measured on this host, when it is from the same host and set-up",
	  XL_STR(A, v.calib_path) },
	{ "figure", 0, "FIG", "the figure rows are tested on: raw (the repetitions' ns/packet), corrected (relative to the host-speed control measured before each repetition, docs/compare.md), prog (the XDP program's own time per run, where every run has it: lab run --prog-time; one value a run, so several runs a side) or auto (default: raw, corrected for the rows whose A/A calibration flagged fewer on it)",
	  XL_ENUM(A, v.o.figure, figures, figure_vals) },
};
#undef A

static const struct compare_args compare_defaults = { .v.o.alpha = XL_CMP_ALPHA_DEFAULT };

static const struct xl_cmd_spec compare_spec = {
	"compare", "BASE.json NEW.json | BASE.json... -- NEW.json... | --db DB --base-label A --new-label B",
	"Compare two results files row by row: deltas in Mpps, ns/packet and DUT CPU ns/packet, a Mann-Whitney U test over the repetitions, a verdict; latency rows (lab run --latency) by their p50 and p99 over the repetitions, and any loss, gap, reordering or duplicate that rose from 0. Exit 0: no regression, 1: a row regressed (a rate that fell to 0 pps too), 2: usage, bad input (a row twice in a file) or, with no regression, a row with too few repetitions to tell. Several runs a side (files or directories of them, BASE before --, NEW after): each run's median is one value, an exact permutation test over the run labels, a 95% interval, the spreads between and within runs, the smallest difference the runs can detect (docs/compare.md).",
	compare_opts, sizeof(compare_opts) / sizeof(compare_opts[0]), &compare_defaults,
	sizeof(compare_defaults),
};

int xl_cmp_load_label(const struct xl_cmd_spec *spec, struct xl_store *s, const char *label,
		      const char *opt, struct xl_cmp_file *f, int *nf)
{
	char err[1024];
	int n, ret;

	ret = xl_store_read_label(s, label, XL_CMP_MAX_RUNS, f, nf, &n, err, sizeof(err));
	if (n > XL_CMP_MAX_RUNS)
		fprintf(stderr, "xdplab %s: label %s has %d stored runs: the newest %d are compared (at most %d a side)\n",
			spec->name, XL_ESC(label), n, XL_CMP_MAX_RUNS, XL_CMP_MAX_RUNS);
	if (ret) {
		xl_usage_error(spec, "%s", err);
		return ret == -EBADMSG ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	}
	if (!n) {
		xl_usage_error(spec, "%s '%s': no stored run has this label in %s (store list shows them)",
			       opt, label, xl_store_name(s));
		return XL_EXIT_USAGE;
	}
	return 0;
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

/* @paths[0..n): files, or directories of them, into @r; one line on stderr on failure. */
static int load_side(struct runs *r, char **paths, int n)
{
	char err[1024];

	if (xl_cmp_load_side(paths, n, r->f, 2 * XL_CMP_MAX_RUNS + 2, &r->n, r->calib,
			     sizeof(r->calib), err, sizeof(err)))
		return xl_usage_error(&compare_spec, "%s", err);
	return 0;
}

/* A writer's failure said in one line: true when there was one. */
static bool write_failed(int ret)
{
	if (ret == -ENOMEM)
		xl_err("compare: out of memory");
	else if (ret)
		xl_err("compare: cannot write the comparison to standard output: %s", strerror(-ret));
	return ret;
}

/* Two files: the test over the repetitions, as always. */
static int compare_two(const struct xl_cmp_file *f, const struct compare_args *a)
{
	struct xl_cmp_result res;
	struct xl_cmp_latresult lr = { 0 };
	int ret = XL_EXIT_USAGE;

	if (xl_cmp_run(&f[0], &f[1], &a->v.o, &res)) {
		xl_err("compare: out of memory");
		return XL_EXIT_RUNTIME;
	}
	if (xl_cmp_lat_run(&f[0], &f[1], &a->v.o, &lr)) {
		xl_err("compare: out of memory");
		ret = XL_EXIT_RUNTIME;
		goto out_result;
	}
	if (!res.paired && !lr.paired) {
		xl_usage_error(&compare_spec, "%s and %s have no row in common (%d and %d rows; rows pair by name, packet operation, size and mode)",
			       f[0].path, f[1].path, f[0].nrows, f[1].nrows);
		goto out_result;
	}
	if (write_failed(xl_cmp_write_two(stdout, &f[0], &f[1], &res, &lr, &a->v))) {
		ret = XL_EXIT_RUNTIME;
		goto out_result;
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
	if (xl_cmp_runs(r->f, r->nbase, r->n - r->nbase, &a->v.o, &res)) {
		xl_err("compare: out of memory");
		return XL_EXIT_RUNTIME;
	}
	if (a->v.format == XL_CMP_OUT_CSV) {
		xl_cmp_mresult_free(&res);
		return xl_usage_error(&compare_spec, "--format csv is for one run a side (several runs a side: text, markdown, junit or --json)"), XL_EXIT_USAGE;
	}
	if (write_failed(xl_cmp_write_runs(stdout, r->f, r->nbase, r->n - r->nbase, &res, &a->v))) {
		xl_cmp_mresult_free(&res);
		return XL_EXIT_RUNTIME;
	}
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
	if (a.json)
		a.v.format = XL_CMP_OUT_JSON;
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
	if (!a.v.calib_path && r.calib[0])
		a.v.calib_path = r.calib;
	if (a.v.calib_path) {
		char err[512];

		if (xl_calib_load(a.v.calib_path, &a.calib, err, sizeof(err))) {
			xl_usage_error(&compare_spec, "--calibration: %s", err);
			goto out;
		}
		a.v.calib = &a.calib;
		a.v.calib_ok = xl_calib_matches(&a.calib, &r.f[0], a.calib_why, sizeof(a.calib_why));
		a.v.calib_why = a.calib_why;
		/* Its per-row choice of figure, only when it is this host's. */
		a.v.o.calib = a.v.calib_ok ? &a.calib : NULL;
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
