/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ndr_cli.h - between src/cmd/cmd_ndr.c (`xdplab ndr`) and `lab run --ndr`
 * (cmd_lab.c, cmd_lab_opts.c): the loss-share options and the table of
 * zero-loss throughput rows. CLI only.
 */
#ifndef XDPLAB_CMD_NDR_CLI_H
#define XDPLAB_CMD_NDR_CLI_H

#include <stdio.h>

#include "opts.h"
#include "progress_cli.h"
#include "xdplab/labrun_ndr.h"

/**
 * xl_cmd_parse_pct() - a percentage for option @opt ("0.001%" or "0.001"),
 * [@min, @max] percent, into *@out (percent). Return: 0 or -EINVAL (one
 * line printed, as xl_parse_real()).
 */
int xl_cmd_parse_pct(const struct xl_cmd_spec *spec, const char *opt, const char *arg,
		     double min, double max, double *out);

/**
 * xl_cmd_ndr_pct_opt() - the search's percentage option @opt, "--loss"
 * or "--pdr" (0..XL_NDR_LOSS_MAX) or "--resolution" (above 0..50), = @arg
 * into *@out (percent; xl_cmd_parse_pct()). Return: 0 or -EINVAL (one line
 * printed).
 */
int xl_cmd_ndr_pct_opt(const struct xl_cmd_spec *spec, const char *opt, const char *arg,
		       double *out);

/**
 * xl_cmd_ndr_search_opts() - @no->search's loss shares and resolution
 * from percentages, checked (--pdr not below --loss, xl_ndr_opts_check()).
 * Return: 0 or -EINVAL (one line printed).
 */
int xl_cmd_ndr_search_opts(const struct xl_cmd_spec *spec, double loss_pct, double pdr_pct,
			   double res_pct, struct xl_ndr_row_opts *no);

/**
 * xl_cmd_ndr_print() - the rows' table on @out (row, size, engine, the
 * bounds, resolution, NDR and PDR and where each failed, trials, note),
 * then each row's trials, fixed-rate runs and latency points.
 */
void xl_cmd_ndr_print(FILE *out, const struct xl_ndr_row *rows, int n,
		      const struct xl_ndr_row_opts *no);

/**
 * xl_cmd_ndr_rows() - the searches of `xdplab ndr` and `lab run --ndr`:
 * each row of @rows (by xl_labrow() index) that xl_labrun_ndr_applies(), at
 * each of @sizes (@nsizes), on @lab with @o and @no, into @out (room for
 * @max; *@n set to the rows made, a failed one included with its note).
 * A row that cannot be searched is one line on stderr (AF_XDP zero-copy's
 * refusal is the bind's own line) and sets *@failed, but a refusal of the
 * device (-EOPNOTSUPP) only with @unsupported_fails. @progress: a
 * progress line per row (NULL: none). Return: 0, or -EINTR when stopped.
 */
int xl_cmd_ndr_rows(struct xl_lab *lab, const struct xl_labrun_opts *o,
		    const struct xl_ndr_row_opts *no, const bool *rows, const uint32_t *sizes,
		    int nsizes, struct xl_cmd_progress *progress, bool unsupported_fails,
		    struct xl_ndr_row *out, int max, int *n, bool *failed);

/** xl_cmd_ndr_nrows() - how many searches xl_cmd_ndr_rows() makes of @rows at one size. */
int xl_cmd_ndr_nrows(const bool *rows);

#endif /* XDPLAB_CMD_NDR_CLI_H */
