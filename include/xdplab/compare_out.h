/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file compare_out.h
 * A comparison written out: the records of xdplab/compare.h (two files,
 * their latency rows) and xdplab/compare_runs.h (several runs a side) as
 * the text table, the markdown table of a pull request's comment, JSON
 * (schemas xdplab.compare/1 and /2), JUnit XML for a CI job and CSV
 * (benchstat's -format csv); and a row's outcome in one line (struct
 * xl_cmp_case), which the JUnit writer and `xdplab bisect-step` share.
 * docs/compare.md describes the outputs, docs/ci.md the JUnit report.
 *
 * The writers write to the FILE * they are given and nowhere else; they
 * never exit. Text from a results file (paths, row names, reasons, host
 * names) is data: escaped for where it goes (xdplab/escape.h): \xNN for a
 * terminal, a backslash before markdown's | \ < > & [ in a table cell,
 * XML's entities in JUnit, RFC 4180 quoting and a ' before a leading
 * = + - @ in CSV (a spreadsheet would run it as a formula).
 */
#ifndef XDPLAB_COMPARE_OUT_H
#define XDPLAB_COMPARE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "xdplab/calib.h"
#include "xdplab/compare.h"
#include "xdplab/compare_runs.h"

/**
 * enum xl_cmp_format - how a comparison is written. The first four are
 * compare --format's words in order (xl_cmp_format_names[]); JSON is
 * compare --json.
 */
enum xl_cmp_format {
	XL_CMP_OUT_TEXT,     /**< aligned columns for a terminal */
	XL_CMP_OUT_MARKDOWN, /**< a table for a mail or a pull request's comment */
	XL_CMP_OUT_JUNIT,    /**< JUnit XML: a testcase per row, a regression a failure */
	XL_CMP_OUT_CSV,      /**< a line per row and the geomean row; one run a side only */
	XL_CMP_OUT_JSON,     /**< xdplab.compare/1 (two files) or /2 (several runs a side) */
};

/** compare --format's words, NULL-terminated: "text", "markdown", "junit", "csv". */
extern const char *const xl_cmp_format_names[];

/**
 * struct xl_cmp_view - what a writer needs beside the records.
 * @format: enum xl_cmp_format.
 * @o: the options the records were compared under (alpha, threshold in
 *   ns/packet, --figure; @o.calib is the calibration that chose figures,
 *   NULL when none applies): the writers print them, they do not compare.
 * @calib: an A/A calibration given (xdplab/calib.h; NULL: none), borrowed;
 *   @calib_path its file as given (shown, escaped); @calib_ok: it is of
 *   the runs' host and set-up (xl_calib_matches()), so each row's measured
 *   false-alarm rate is shown; else @calib_why says what differs.
 */
struct xl_cmp_view {
	enum xl_cmp_format format;
	struct xl_cmp_opts o;
	const char *calib_path;
	const struct xl_calib *calib;
	bool calib_ok;
	const char *calib_why;
};

/**
 * xl_cmp_write_two() - two files compared, @res (their rate rows) and @lr
 * (their latency rows; empty when neither has any), as @v->format asks,
 * to @out. Text and markdown: the title, warnings (different machines, a
 * generator ceiling that moved), markdown's result line, the environments
 * side by side, the method, the table and benchstat's geomean row, which
 * figure rows were tested on, the calibration's false-alarm rates, the
 * latency table, the notes (too few repetitions, counts risen from 0) and
 * the summary lines. JSON: schema xdplab.compare/1. JUnit: a suite of a
 * testcase per row and per latency row. CSV: the rate rows and the
 * geomean (latency rows are in the other formats only).
 * @b/@n: the files compared (BASE, NEW), borrowed.
 * Return: 0, -ENOMEM, or -EIO when @out reports an error (ferror()).
 */
int xl_cmp_write_two(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
		     const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
		     const struct xl_cmp_view *v);

/**
 * xl_cmp_write_runs() - several runs a side compared (@res of
 * @files[0..@nbase) against the @nnew after them, borrowed) as @v->format
 * asks, to @out: text and markdown (the runs, the permutation test's method
 * line, the table with its interval, spreads and smallest detectable
 * difference), JSON (schema xdplab.compare/2) or JUnit.
 * Return: 0, -EINVAL (CSV: one run a side only; nothing written), -ENOMEM,
 * or -EIO when @out reports an error.
 */
int xl_cmp_write_runs(FILE *out, const struct xl_cmp_file *files, int nbase, int nnew,
		      const struct xl_cmp_mresult *res, const struct xl_cmp_view *v);

/** What a row's comparison says to a CI reader (a testcase) or a bisect step. */
enum xl_cmp_case_kind { XL_CASE_PASS, XL_CASE_FAIL, XL_CASE_SKIP };

/**
 * struct xl_cmp_case - one row's outcome in one line.
 * @name: the row's identity as the text table shows it ("drop/no-touch 64
 *   native threaded"; raw results-file text: escape it where it goes).
 * @cls: "xdplab.compare" or "xdplab.compare.latency" (static).
 * @kind: a regression XL_CASE_FAIL; too few repetitions or runs, not
 *   comparable, not measured, on one side only XL_CASE_SKIP; else
 *   XL_CASE_PASS.
 * @msg: the verdict with the change, the figures, p and the sizes, or why
 *   the row was not judged (raw text too).
 */
struct xl_cmp_case {
	char name[160];
	const char *cls;
	enum xl_cmp_case_kind kind;
	char msg[512];
};

/**
 * xl_cmp_case_two() - @c of the two files' row @r, compared at the
 * significance level @alpha (the too-few message names it).
 */
void xl_cmp_case_two(struct xl_cmp_case *c, const struct xl_cmp_row *r, double alpha);

/** xl_cmp_case_runs() - @c of several runs a side's row @m, compared at @alpha. */
void xl_cmp_case_runs(struct xl_cmp_case *c, const struct xl_cmp_mrow *m, double alpha);

/**
 * struct xl_cmp_tally - how a comparison's rows came out (struct
 * xl_cmp_case @kind): @pass, @fail and @skip rows; @first_fail: the first
 * failing row's name (raw text; "" when none failed).
 */
struct xl_cmp_tally {
	int pass, fail, skip;
	char first_fail[160];
};

/**
 * xl_cmp_write_cases() - every row of two files' @res, or when @res is
 * NULL of several runs a side's @mres, as its outcome in one line on @out,
 * "NAME: MESSAGE" (xl_cmp_case_two() / xl_cmp_case_runs() at @alpha; both
 * escaped for a terminal), counted into @t: bisect-step's lines.
 * Return: 0, or -EIO when @out reports an error.
 */
int xl_cmp_write_cases(FILE *out, const struct xl_cmp_result *res,
		       const struct xl_cmp_mresult *mres, double alpha, struct xl_cmp_tally *t);

#endif /* XDPLAB_COMPARE_OUT_H */
