/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: a command's output files (--json FILE, report -o
 * FILE: opened before the work, written whole or not at all) and a single
 * command's results document with the build it came from (json_cli.c).
 */
#ifndef XDPLAB_JSON_CLI_H
#define XDPLAB_JSON_CLI_H

#include "report_cli.h"
#include "xdplab/atomicfile.h"
#include "xdplab/profile.h"
#include "xdplab/report.h"

/**
 * xl_cmd_write_json() - write @row and @l's interval records to @path
 * (schema XL_RUN_RESULTS_SCHEMA, docs/results.md), through the output file
 * xl_cmd_out_open() opened for it before the run (opened now if not).
 * Return: XL_EXIT_OK or XL_EXIT_RUNTIME (logged: "cannot write PATH: CAUSE").
 */
int xl_cmd_write_json(const char *path, const char *command, const struct xl_cmd_loop *l,
		      const struct xl_row_result *row);

/**
 * xl_cmd_out_open() - open the output file @path (--json, -o) before the
 * work that fills it: its temporary file is made now (xl_afile_open()), so
 * that a missing or unwritable directory fails at once. Opening a path
 * already open returns that one. The command's output files are
 * remembered until committed or aborted; main.c aborts the rest when the
 * command returns.
 * Return: the file (write to ->f), or NULL after the line "cannot write
 * PATH: CAUSE".
 */
struct xl_afile *xl_cmd_out_open(const char *path);

/** xl_cmd_out_find() - the output file open for @path, or NULL. */
struct xl_afile *xl_cmd_out_find(const char *path);

/**
 * xl_cmd_out_commit() - xl_afile_commit() @a and free it; on failure the
 * line "cannot write PATH: CAUSE" (a full disk: "No space left on
 * device") and the earlier file at PATH is untouched.
 * Return: 0 or the negative errno.
 */
int xl_cmd_out_commit(struct xl_afile *a);

/** xl_cmd_out_abort() - xl_afile_abort() @a and free it (NULL: nothing). */
void xl_cmd_out_abort(struct xl_afile *a);

/**
 * xl_cmd_report_json() - xl_report_json_write() to the output file of
 * @path (the one xl_cmd_out_open() opened before the run, else opened
 * now) and commit it.
 * Return: 0, or a negative errno after the line "cannot write PATH: CAUSE".
 */
int xl_cmd_report_json(const char *path, const struct xl_report_meta *meta,
		       const struct xl_row_result *rows, int n);

/** xl_cmd_outs_abort() - abort every output file not committed (main.c). */
void xl_cmd_outs_abort(void);

/**
 * xl_cmd_json_finish() - the end of a run with --json: write @row and
 * @l's records to @path (NULL: no --json) and free the records.
 * Return: @ret, or XL_EXIT_RUNTIME when @ret was XL_EXIT_OK and the write
 * failed.
 */
int xl_cmd_json_finish(const char *path, const char *command, const struct xl_cmd_loop *l,
		       const struct xl_row_result *row, int ret);

/**
 * xl_cmd_profiled_finish() - the end of a profiled single-row run (bench,
 * redirect): when a profile was taken (@pr->folded set; 0 samples too, an
 * incomplete one too) its top XL_PROF_TOP
 * lines per CPU go to stdout and @row gets a copy of @pr as its profile
 * part for --json (@pr stays the caller's); then
 * xl_cmd_json_finish(@path, @command, @l, @row, @ret), and @row's parts
 * (its steering too) are freed.
 * Return: as xl_cmd_json_finish().
 */
int xl_cmd_profiled_finish(const char *path, const char *command, const struct xl_cmd_loop *l,
			   struct xl_row_result *row, struct xl_profile *pr, int ret);

/**
 * xl_cmd_git_commit() - the commit this binary was built from, stamped by
 * the Makefile (build/xl_commit.h): 12 hex digits, "-dirty" appended when
 * the tree had uncommitted changes, "unknown" when built outside a git
 * checkout. Not the working directory's: a run from another directory
 * reports the code that ran.
 */
const char *xl_cmd_git_commit(void);

/**
 * xl_cmd_version() - `xdplab --version`'s version: what `git describe
 * --always --dirty --abbrev=12` said when the binary was built (the
 * Makefile, build/xl_commit.h): "TAG-N-gCOMMIT", or the 12-digit commit
 * while the repository has no tag, "-dirty" appended for uncommitted
 * changes; "unknown" when built outside a git checkout.
 */
const char *xl_cmd_version(void);

#endif /* XDPLAB_JSON_CLI_H */
