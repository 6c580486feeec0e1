/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrun_meter.h
 * The lab row that measures the meter's own cost (issue 20 item 2): drop
 * no-touch with the DUT CPU-time hook (the softirq tracepoints,
 * xdplab/softirq_time.h) loaded and not, the two interleaved slice by slice
 * on one traffic set-up, in the lab's wiring. The hook is loaded by the
 * row itself in its slices; the row's meter never loads it, so both arms
 * read their CPU time from sources the hook does not feed: the chain's
 * tasks' schedstat (exact) and the DUT's own source without the hook (the
 * NAPI kthread's schedstat threaded, /proc/stat in softirq wiring).
 */
#ifndef XDPLAB_LABRUN_METER_H
#define XDPLAB_LABRUN_METER_H

#include <stdint.h>

#include "xdplab/labrun.h"

/** Rows xl_labrun_meter_cost() makes: without the hook, with it. */
#define XL_METER_COST_ROWS 2

/**
 * xl_labrun_meter_cost() - measure rows[0] "meter-cost/none" and rows[1]
 * "meter-cost/hook" at @size bytes: max(@o->reps, XL_WATCH_MIN_REPS)
 * repetitions of at most XL_WATCH_MAX_WINDOW_NS per arm, in slices of
 * XL_WATCH_SLICE_NS, the arms' order rotated by the planner. rows[1]
 * carries the part xl_row_part_meter (struct xl_meter_cost): the paired
 * medians of hook minus none and their 95% intervals, the CPU-time source
 * the lab's other rows use in this wiring and whether that is the hook.
 * Return: 0 (both rows finished), -EINTR when stopped, -EBUSY when the
 * hook is already held in this process (both arms would pay it: rows[0]'s
 * note says so), or -errno (the failed row's note says why).
 */
int xl_labrun_meter_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
			 struct xl_row_result *rows);

#endif /* XDPLAB_LABRUN_METER_H */
