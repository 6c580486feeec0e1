/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ndr_cli.h - between src/cmd/cmd_ndr.c (`xdplab ndr`) and `lab run --ndr`
 * (cmd_lab.c, cmd_lab_opts.c): the loss-share options. The searches and
 * their table are the library's (xdplab/labrun_ndr.h). CLI only.
 */
#ifndef XDPLAB_CMD_NDR_CLI_H
#define XDPLAB_CMD_NDR_CLI_H

#include <stdbool.h>
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
 * struct xl_cmd_ndr_pcts - the search's percentages as given (--loss,
 * --pdr, --resolution), percent; @set: one of them was given.
 */
struct xl_cmd_ndr_pcts {
	double loss, pdr, res;
	bool set;
};

/** Their defaults: no loss for the NDR, 0.1% for the PDR (as TRex's), 1% resolution. */
#define XL_CMD_NDR_PCTS_DEFAULT { .loss = 0, .pdr = 0.1, .res = 1 }

/** The shared entries' ids (XL_OT_CODE), past every command's own. */
enum { XL_OPT_NDR_LOSS = 960, XL_OPT_NDR_PDR, XL_OPT_NDR_RES };

/** Index of an entry in xl_ndr_opt_table[]. */
enum xl_ndr_opt { XL_NDR_OPT_LOSS, XL_NDR_OPT_PDR, XL_NDR_OPT_RES, XL_NDR_OPT_N };

/**
 * The search's options, written once (names, alias, argument), for
 * `xdplab ndr` and `lab run --ndr`: each command takes them with
 * XL_NDR_OPT() into its struct xl_cmd_ndr_pcts member and passes the
 * ids to xl_cmd_ndr_opt(); its help may be the command's own.
 */
extern const struct xl_opt xl_ndr_opt_table[XL_NDR_OPT_N];

/* The member of struct xl_cmd_ndr_pcts each entry sets (its help's {default}). */
#define XL_NDR_MEMBER_LOSS loss
#define XL_NDR_MEMBER_PDR pdr
#define XL_NDR_MEMBER_RES res
#define XL_NDR_MEMBER_(k) XL_NDR_MEMBER_##k

/**
 * XL_NDR_OPT() - shared entry @k into member @f (struct xl_cmd_ndr_pcts) of
 * @T; the entry's field is the percentage it sets, so its help's
 * "{default}" reads the command's default of it.
 */
#define XL_NDR_OPT(k, T, f, ...) \
	XL_LIKE(xl_ndr_opt_table[XL_NDR_OPT_##k], T, f.XL_NDR_MEMBER_(k), __VA_ARGS__)

/**
 * xl_cmd_ndr_opt() - option @id of xl_ndr_opt_table[] = @arg into @p (set
 * too), in its entry's range (@rmin..@rmax percent; --loss and --pdr
 * 0..XL_NDR_LOSS_MAX, --resolution above 0..50), read by
 * xl_cmd_parse_pct(). Return: 0, -EINVAL (one line printed), or 1
 * when @id is not one of them.
 */
int xl_cmd_ndr_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
		   struct xl_cmd_ndr_pcts *p);

/**
 * xl_cmd_ndr_search_opts() - @no->search's loss shares and resolution
 * from the percentages @p, checked (--pdr not below --loss, xl_ndr_opts_check()).
 * Return: 0 or -EINVAL (one line printed).
 */
int xl_cmd_ndr_search_opts(const struct xl_cmd_spec *spec, const struct xl_cmd_ndr_pcts *p,
			   struct xl_ndr_row_opts *no);

#endif /* XDPLAB_CMD_NDR_CLI_H */
