/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_cli.h - between src/cmd/cmd_compare.c (`xdplab compare`: its
 * options, reading the files, two files) and src/cmd/cmd_compare_runs.c
 * (several runs a side). CLI only.
 */
#ifndef XDPLAB_CMD_COMPARE_CLI_H
#define XDPLAB_CMD_COMPARE_CLI_H

#include <stdbool.h>

#include "xdplab/calib.h"
#include "xdplab/compare.h"
#include "xdplab/compare_runs.h"
#include "xdplab/escape.h"

/*
 * `compare`'s options as parsed. @calib_path: --calibration's file, or a
 * calibration.json found in a directory of runs (NULL: none); @calib: it,
 * read when @have_calib; @calib_ok: from the runs' host and set-up, else
 * @calib_why says what differs.
 */
struct compare_args {
	struct xl_cmp_opts o;
	int format; /* --format: 0 text, 1 markdown, 2 junit, 3 csv (the flags below set from it) */
	bool markdown, json, junit, csv, format_given; /* --format markdown, junit or csv, --json */
	const char *db, *label[2]; /* --db, --base-label, --new-label (docs/store.md) */
	const char *calib_path;
	struct xl_calib calib;
	bool have_calib, calib_ok;
	char calib_why[256];
};

/*
 * A results file's text (host, kernel, row names, reasons, paths) as a
 * terminal may show it, and in markdown as one table cell: controls as
 * \xNN, '|' and '\' with a backslash (a name cannot forge a line or a column).
 */
#define TXT(md, s) ((md) ? XL_ESC_MD(s) : XL_ESC(s))

/**
 * xl_cmp_print_env() - the environments of @b and @n side by side (text
 * or @md; markdown folds the table into <details>, titled with how many
 * fields differ, so a pull request's comment shows the rows first).
 */
void xl_cmp_print_env(const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md);

/**
 * xl_cmp_print_runs() - several runs a side: @files[0..@nbase) against
 * the @nnew after them, compared into @res, printed as @a asks (text,
 * markdown, JSON) on stdout.
 */
void xl_cmp_print_runs(const struct xl_cmp_file *files, int nbase, int nnew,
		       const struct xl_cmp_mresult *res, const struct compare_args *a);

/** What a row's comparison says to a CI reader (a testcase) or a bisect step. */
enum xl_cmp_case_kind { XL_CASE_PASS, XL_CASE_FAIL, XL_CASE_SKIP };

/**
 * struct xl_cmp_case - one row's outcome in one line (cmd_compare_junit.c).
 * @name: the row's identity as the text table shows it ("drop/no-touch 64
 *   native threaded"; raw results-file text: escape it where it goes).
 * @cls: "xdplab.compare" or "xdplab.compare.latency". @kind: a regression
 *   XL_CASE_FAIL; too few repetitions or runs, not comparable, not
 *   measured, on one side only XL_CASE_SKIP; else XL_CASE_PASS.
 * @msg: the verdict with the change, the figures, p and the sizes, or
 *   why the row was not judged.
 */
struct xl_cmp_case {
	char name[160];
	const char *cls;
	enum xl_cmp_case_kind kind;
	char msg[512];
};

/** xl_cmp_case_two() - @c of the two files' row @r (compared under @a->o). */
void xl_cmp_case_two(struct xl_cmp_case *c, const struct xl_cmp_row *r,
		     const struct compare_args *a);

/** xl_cmp_case_runs() - @c of several runs a side's row @m. */
void xl_cmp_case_runs(struct xl_cmp_case *c, const struct xl_cmp_mrow *m,
		      const struct compare_args *a);

/**
 * xl_cmp_print_junit() - two files compared (@res, and the latency rows'
 * @lr) as a JUnit XML report on stdout (compare --format junit,
 * src/cmd/cmd_compare_junit.c): one testcase per row, a regression a
 * failure, a row not judged (too few repetitions, not comparable, not
 * measured, in one file only) skipped with the reason; every text from
 * the files XML-escaped (xl_xml_escape()).
 */
void xl_cmp_print_junit(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
			const struct compare_args *a);

/**
 * xl_cmp_print_csv() - two files compared (@res) as CSV on stdout (compare
 * --format csv, src/cmd/cmd_compare_csv.c; benchstat's -format csv): a
 * header line, a line per row, then the geomean row (xl_cmp_geomean())
 * when more than one row is in it. Text from the files is made terminal-
 * safe (XL_ESC), quoted as RFC 4180 says when it holds a comma, a quote or
 * a blank at an end, and a leading =, +, - or @ gets a ' before it (a
 * spreadsheet would run it as a formula).
 */
void xl_cmp_print_csv(const struct xl_cmp_result *res);

/** xl_cmp_print_junit_runs() - xl_cmp_print_junit() of several runs a side. */
void xl_cmp_print_junit_runs(const struct xl_cmp_file *files, int nbase, int nnew,
			     const struct xl_cmp_mresult *res, const struct compare_args *a);

/**
 * xl_cmp_md_headline() - markdown's result line, under the title (a pull
 * request's comment says its outcome first): "**Result: 1 regression(s)**:
 * NAME SIZE MODE WIRING, ...; 2 improvement(s), 26 ~, 0 too few reps, 3 not
 * compared", or "**Result: no regression**; ...". @reg: the @nreg
 * regressed rows' identities; @few: "reps" or "runs".
 */
void xl_cmp_md_headline(const struct xl_cmp_rowdata *const *reg, int nreg, int improvements,
			int same, int too_few, const char *few, int not_compared);

struct xl_store;

/**
 * xl_cmp_load_label() - the stored runs of @label (store @s) as one side of
 * a comparison: every run, by date then id, into @f[*@nf...] (the newest
 * XL_CMP_MAX_RUNS when there are more, said on stderr), each named "store
 * run N (label L)"; *@nf counts them. @opt names the option in messages
 * ("--base-label"); @spec the command. compare --db and bisect-step.
 * Return: 0, XL_EXIT_USAGE (no run has @label, or a stored document is not
 * a results file) or XL_EXIT_RUNTIME (the store failed); one line printed.
 */
int xl_cmp_load_label(const struct xl_cmd_spec *spec, struct xl_store *s, const char *label,
		      const char *opt, struct xl_cmp_file *f, int *nf);

/** xl_cmp_too_few_text() - "3 too few reps, " for the summaries; "" when @n is 0 (a static buffer). */
const char *xl_cmp_too_few_text(int n);

/** xl_cmp_print_lat_table() - the latency rows' table of two files (src/cmd/cmd_compare_lat.c). */
void xl_cmp_print_lat_table(const struct xl_cmp_latresult *lr, const struct compare_args *a);

/** xl_cmp_print_lat_notes() - every latency count that rose from 0, and the latency summary line. */
void xl_cmp_print_lat_notes(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			    const struct xl_cmp_latresult *lr, const struct compare_args *a);

struct json_t;

/** xl_cmp_lat_json() - the "latency" array of compare --json (a new reference). */
struct json_t *xl_cmp_lat_json(const struct xl_cmp_latresult *lr);

/**
 * xl_cmp_print_calib() - the calibration's measured false-alarm rates of
 * the @n rows @ids (identities; NULL entries skipped) as lines of text:
 * one run a side's when @multi is false, the balanced splits' when true;
 * or one line saying why they are not shown. Nothing without a calibration.
 */
void xl_cmp_print_calib(const struct compare_args *a, const struct xl_cmp_rowdata *const *ids,
			int n, bool multi);

/**
 * xl_cmp_calib_json() - the rate of @id as a JSON object ({pairs or splits,
 * flags, rate, too_few}) when @a's calibration applies and has the row, else
 * NULL (a new reference).
 */
struct json_t *xl_cmp_calib_json(const struct compare_args *a, const struct xl_cmp_rowdata *id,
				 bool multi);

/** xl_cmp_calib_head_json() - the "calibration" member: {path, runs, alpha, matches, why}, or NULL. */
struct json_t *xl_cmp_calib_head_json(const struct compare_args *a);

/*
 * xl_cmp_print_figure() - after the table, which figure the @n rows @ids
 * (NULL: not compared) were tested on (@corrected[i]: the corrected one)
 * and why (--figure, or the A/A calibration's counts of each: several runs
 * a side when @multi). Nothing when every row is raw by default without a
 * calibration, or with --figure raw.
 */
void xl_cmp_print_figure(const struct compare_args *a, const struct xl_cmp_rowdata *const *ids,
			 const bool *corrected, int n, bool multi);

#endif /* XDPLAB_CMD_COMPARE_CLI_H */
