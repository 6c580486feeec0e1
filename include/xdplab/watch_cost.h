/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file watch_cost.h
 * What watching costs, from the rows xl_labrun_watch_cost()
 * (xdplab/labrun_redirect.h) measures: paired differences between a
 * monitor level and no monitor within each repetition, their medians and
 * 95% intervals, the per-event estimate, per forwarding hop, and its split
 * into the floor and the monitor's own part. Pure arithmetic on the rows.
 */
#ifndef XDPLAB_WATCH_COST_H
#define XDPLAB_WATCH_COST_H

#include "xdplab/report.h"

/**
 * xl_watch_cpu_cost_ci() - distribution-free 95% confidence interval
 * (xl_median_ci()) of xl_watch_cpu_cost_ns(), in ns, into *@lo and *@hi.
 * Return: 0, or -EDOM with fewer than 6 paired repetitions.
 */
int xl_watch_cpu_cost_ci(const struct xl_row_result *without, const struct xl_row_result *with,
			 double *lo, double *hi);

/**
 * xl_watch_events_per_pkt() - median over @row's repetitions of
 * xdp_devmap_xmit events per packet (struct xl_rep_result.xmit_events /
 * packets). Return: the median, or -1 when no repetition counted them.
 */
double xl_watch_events_per_pkt(const struct xl_row_result *row);

/**
 * xl_watch_estimate() - the errors-only monitor's cost from the six rows
 * of xl_labrun_watch_cost(): measured (rows 0-1), and estimated
 * as per-event cost x events per packet, where the per-event cost is the
 * chain's CPU cost difference at batch 1 (rows 3-4) divided by the events
 * per packet counted there (row 5), and the events per packet at the
 * normal batch are counted in row 2. Amplifying the event rate 16 times
 * makes a cost of ~1 ns/packet measurable on a machine whose windows vary
 * by tens of ns. Return: 0 (*@est filled, valid), -ENODATA when a row
 * lacks the figures (*@est has the measured part only).
 */
int xl_watch_estimate(const struct xl_row_result rows[6], struct xl_watch_est *est);

/**
 * xl_watch_floor() - split the per-event cost of @est (xl_watch_estimate(),
 * valid) into the floor and the monitor's own part, from the batch-1 rows
 * @b1_none ("redirect/b1+no-mon"), @b1_err ("redirect/b1+mon-err") and
 * @b1_floor ("redirect/b1+mon-floor"), measured in one interleaved set:
 * the floor per event is the paired median of the chain's CPU ns/packet
 * floor minus none, the own part the paired median of errors minus floor,
 * each divided by @est->b1_events_per_pkt, with the 95% intervals of those
 * medians (xl_median_ci()); per hop at full bulks, each / XL_DEVMAP_BULK.
 * The same CPU figure (chain's, else the judged CPU's) for all three rows.
 * Return: 0 (@est->floor_valid), -EINVAL when @est is not valid, -ENODATA
 * when the rows are not paired (the same repetitions) or lack figures.
 */
int xl_watch_floor(const struct xl_row_result *b1_none, const struct xl_row_result *b1_err,
		   const struct xl_row_result *b1_floor, struct xl_watch_est *est);

/*
 * Frames per devmap bulk when it fills: the kernel flushes a devmap's
 * per-CPU queue at 16 frames (DEV_MAP_BULK_SIZE, include/net/xdp.h) and
 * at the end of each NAPI poll; one xdp_devmap_xmit event per flush.
 */
#define XL_DEVMAP_BULK 16

/**
 * xl_watch_per_hop() - the estimate of @est (xl_watch_estimate(), valid)
 * per forwarding hop on a chain of @hops redirecting hops, two ways: at
 * the bulk size measured (@est->bulk_frames, @est->hop_ns) and at full
 * bulks of XL_DEVMAP_BULK frames (@est->full_hop_ns), with their 95%
 * intervals when @est->estimate_ci. The second is what a saturated hop
 * pays per frame, whatever the offered rate of the run; the first is
 * what this run paid, and grows as the bulks shrink (docs/monitor.md).
 * Return: 0, -EINVAL when @hops < 1 or @est is not valid, -ENODATA when
 * no devmap_xmit event was counted (@est->events_per_pkt <= 0).
 */
int xl_watch_per_hop(struct xl_watch_est *est, int hops);

/**
 * xl_watch_cost_ns() - what watching costs per packet, in ns:
 * 1e9/pps_with - 1e9/pps_without (positive: slower with the monitor), the
 * median over repetitions of the paired differences when both rows have
 * the same repetitions (xl_labrun_watch_cost(): each pair ran back to back
 * on one traffic set-up), else from the rows' median Mpps.
 * Return: the cost, or 0 when either row has no figure.
 */
double xl_watch_cost_ns(const struct xl_row_result *without,
			const struct xl_row_result *with);

/**
 * xl_watch_cpu_cost_ns() - the same from CPU time per packet: the chain's
 * (struct xl_rep_result.chain_ns_per_pkt: generator, NAPI kthreads and
 * ksoftirqds, from schedstat, which other load on the machine does not
 * inflate), or the judged CPU's (cpu_ns_per_pkt) when a repetition lacks
 * it: median of paired differences in ns, 0 without paired reps.
 */
double xl_watch_cpu_cost_ns(const struct xl_row_result *without,
			    const struct xl_row_result *with);

/**
 * xl_watch_dut_cost_ns() - the paired median of the judged CPU's figure
 * (struct xl_rep_result.cpu_ns_per_pkt) of @with minus @without, ns, and
 * its 95% interval (xl_median_ci()) into *@lo and *@hi when @ci is not NULL
 * (*@ci: false with fewer than 6 pairs). Return: the median, 0 without
 * paired repetitions.
 */
double xl_watch_dut_cost_ns(const struct xl_row_result *without, const struct xl_row_result *with,
			    bool *ci, double *lo, double *hi);

/**
 * xl_watch_note() - write ", monitor +X.X ns/packet, +Y.Y CPU ns/packet vs
 * redirect" (xl_watch_cost_ns() and xl_watch_cpu_cost_ns() of @with against
 * @without) into with->note, which the lab table prints after the verdict.
 * No-op when either row has no figure.
 */
void xl_watch_note(const struct xl_row_result *without, struct xl_row_result *with);

#endif /* XDPLAB_WATCH_COST_H */
