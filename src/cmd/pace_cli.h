/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: what a sender's rate pacer did (xdplab/pace.h), in
 * its totals and its --json file, the same for gen and xsk txpush.
 */
#ifndef XDPLAB_PACE_CLI_H
#define XDPLAB_PACE_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/pace.h"

/**
 * xl_cmd_print_pace() - the totals' line "pacing: fell behind N times; M
 * frames' worth of the schedule skipped (catch-up capped at D frames:
 * @cap; the largest L): ..." on stdout, ending in what became of those
 * frames (@counted: a --count, every frame still sent later; else not
 * sent). Nothing when the pacer never fell behind (@st->stalls 0).
 */
void xl_cmd_print_pace(const struct xl_pace_stats *st, bool counted, const char *cap);

/**
 * xl_cmd_pace_json() - the text of a JSON object {"pacing": {...}} for a
 * single command's --json file (struct xl_cmd_loop.extra_json): @rate_pps
 * and @st's stalls, skipped, depth and largest_catchup (docs/results.md).
 * Return: malloc'ed text (the caller frees it), NULL when out of memory.
 */
char *xl_cmd_pace_json(const struct xl_pace_stats *st, uint64_t rate_pps);

#endif /* XDPLAB_PACE_CLI_H */
