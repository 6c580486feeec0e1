/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ndr_cli.h - between src/cmd/cmd_ndr.c (`xdplab ndr`) and `lab run --ndr`
 * (cmd_lab.c, cmd_lab_opts.c): the loss-share options. The searches and
 * their table are the library's (xdplab/labrun_ndr.h). CLI only.
 */
#ifndef XDPLAB_CMD_NDR_CLI_H
#define XDPLAB_CMD_NDR_CLI_H

#include <stdio.h>

#include "opts.h"
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

#endif /* XDPLAB_CMD_NDR_CLI_H */
