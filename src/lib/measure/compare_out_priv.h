/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/measure/: what the writers of a comparison
 * (xdplab/compare_out.h) share: compare_out.c (two files: text, markdown,
 * JSON; the environments, markdown's result line), compare_out_runs.c
 * (several runs a side; the figure and the A/A calibration's lines),
 * compare_out_lat.c (latency rows), compare_junit.c and compare_csv.c.
 * Each writes to the FILE * it is given.
 */
#ifndef XDPLAB_COMPARE_OUT_PRIV_H
#define XDPLAB_COMPARE_OUT_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "xdplab/compare_out.h"
#include "xdplab/escape.h"

struct json_t;

/*
 * A results file's text (host, kernel, row names, reasons, paths) as a
 * terminal may show it, and in markdown as one table cell: controls as
 * \xNN, '|' and '\' with a backslash (a name cannot forge a line or a column).
 */
#define TXT(md, s) ((md) ? XL_ESC_MD(s) : XL_ESC(s))

/* Whether @v asks for markdown. */
#define XL_CMP_MD(v) ((v)->format == XL_CMP_OUT_MARKDOWN)

/**
 * xl_cmp_out_env() - the environments of @b and @n side by side on @out
 * (text or @md; markdown folds the table into <details>, titled with how
 * many fields differ, so a pull request's comment shows the rows first).
 */
void xl_cmp_out_env(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md);

/**
 * xl_cmp_out_headline() - markdown's result line, under the title (a pull
 * request's comment says its outcome first): "**Result: 1 regression(s)**:
 * NAME SIZE MODE WIRING, ...; 2 improvement(s), 26 ~, 0 too few reps, 3 not
 * compared", or "**Result: no regression**; ...". @reg: the @nreg
 * regressed rows' identities; @few: "reps" or "runs".
 */
void xl_cmp_out_headline(FILE *out, const struct xl_cmp_rowdata *const *reg, int nreg,
			 int improvements, int same, int too_few, const char *few,
			 int not_compared);

/** xl_cmp_out_too_few() - "3 too few reps, " into @buf (@len bytes) for the summaries; "" when @n is 0. Return: @buf. */
const char *xl_cmp_out_too_few(char *buf, size_t len, int n);

/**
 * xl_cmp_out_choices() - after a table, which figure the @n rows @ids
 * (NULL: not compared) were tested on (@corrected[i]: the corrected one)
 * and why (--figure, or the A/A calibration's counts: its splits when
 * @multi), then the calibration's measured false-alarm rates of those rows
 * (one run a side's pairs, or the balanced splits' when @multi), or why
 * they are not shown. Nothing said where there is nothing to say (raw by
 * default without a calibration, no calibration).
 */
void xl_cmp_out_choices(FILE *out, const struct xl_cmp_view *v,
			const struct xl_cmp_rowdata *const *ids, const bool *corrected, int n,
			bool multi);

/**
 * xl_cmp_out_calib_json() - the rate of @id as a JSON object ({pairs or
 * splits, flags, rate, too_few}) when @v's calibration applies and has the
 * row, else NULL (a new reference).
 */
struct json_t *xl_cmp_out_calib_json(const struct xl_cmp_view *v, const struct xl_cmp_rowdata *id,
				     bool multi);

/** xl_cmp_out_calib_head_json() - the "calibration" member: {path, runs, alpha, matches, why}, or NULL. */
struct json_t *xl_cmp_out_calib_head_json(const struct xl_cmp_view *v);

/**
 * xl_cmp_out_json_head() - the members compare --json's schemas /1 and /2
 * share after "base" and "new", set in @doc: "environment" (@b's against
 * @n's, xl_cmp_env()), "cross_machine", "ceiling_moved", "ceiling_pct"
 * (null unless it moved), "alpha", "threshold_ns", "figure" and, with a
 * calibration, "calibration".
 */
void xl_cmp_out_json_head(struct json_t *doc, const struct xl_cmp_file *b,
			  const struct xl_cmp_file *n, bool cross_machine, bool ceiling_moved,
			  double ceiling_pct, const struct xl_cmp_view *vw);

/** xl_cmp_out_lat_table() - the latency rows' table of two files (compare_out_lat.c). */
void xl_cmp_out_lat_table(FILE *out, const struct xl_cmp_latresult *lr,
			  const struct xl_cmp_view *v);

/** xl_cmp_out_lat_notes() - every latency count that rose from 0, and the latency summary line. */
void xl_cmp_out_lat_notes(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			  const struct xl_cmp_latresult *lr, const struct xl_cmp_view *v);

/** xl_cmp_out_lat_json() - the "latency" array of compare --json (a new reference). */
struct json_t *xl_cmp_out_lat_json(const struct xl_cmp_latresult *lr);

/**
 * xl_cmp_out_junit_two() - two files compared (@res, and the latency rows'
 * @lr) as a JUnit XML report on @out (compare_junit.c): one testcase per
 * row, a regression a failure, a row not judged skipped with the reason;
 * every text from the files XML-escaped (xl_xml_escape()). Return: 0, -ENOMEM.
 */
int xl_cmp_out_junit_two(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			 const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
			 const struct xl_cmp_view *v);

/** xl_cmp_out_junit_runs() - xl_cmp_out_junit_two() of several runs a side. Return: 0, -ENOMEM. */
int xl_cmp_out_junit_runs(FILE *out, const struct xl_cmp_file *files, int nbase, int nnew,
			  const struct xl_cmp_mresult *res, const struct xl_cmp_view *v);

/**
 * xl_cmp_out_csv() - two files compared (@res) as CSV on @out
 * (compare_csv.c; benchstat's -format csv): a header line, a line per row,
 * then the geomean row (xl_cmp_geomean()) when more than one row is in it.
 */
void xl_cmp_out_csv(FILE *out, const struct xl_cmp_result *res);

#endif /* XDPLAB_COMPARE_OUT_PRIV_H */
