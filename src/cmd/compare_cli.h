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
	bool markdown, json, format_given;
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

/** xl_cmp_print_env() - the environments of @b and @n side by side (text or @md). */
void xl_cmp_print_env(const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md);

/**
 * xl_cmp_print_runs() - several runs a side: @files[0..@nbase) against
 * the @nnew after them, compared into @res, printed as @a asks (text,
 * markdown, JSON) on stdout.
 */
void xl_cmp_print_runs(const struct xl_cmp_file *files, int nbase, int nnew,
		       const struct xl_cmp_mresult *res, const struct compare_args *a);

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

#endif /* XDPLAB_CMD_COMPARE_CLI_H */
