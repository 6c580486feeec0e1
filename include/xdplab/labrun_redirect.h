/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrun_redirect.h
 * Lab rows for XDP_REDIRECT and for what watching it costs: the generator
 * sends into the DUT, the DUT redirects to the lab's first out pair, and
 * the rate is measured where the frames arrive (an XDP_DROP sink on the far
 * end for redirect; the cpumap-entry program for redirect-cpu). Needs a lab
 * made with xl_lab_opts.out_pairs >= 1.
 */
#ifndef XDPLAB_LABRUN_REDIRECT_H
#define XDPLAB_LABRUN_REDIRECT_H

#include "xdplab/labrun.h"
#include "xdplab/redirect.h"

/* The cost rows' repetitions (at least), window length per level and
 * repetition (at most), and the slices the levels are interleaved in. */
#define XL_WATCH_MIN_REPS 9
#define XL_WATCH_MAX_WINDOW_NS 300000000ull
#define XL_WATCH_SLICE_NS 50000000ull

/** Which monitor watches while a redirect row is measured. */
enum xl_watch {
	XL_WATCH_NONE = 0,   /**< no tracepoint program */
	XL_WATCH_ERRORS = 1, /**< `xdplab monitor` (errors only) */
	XL_WATCH_ALL = 2,    /**< `xdplab monitor --all` (success path too) */
	XL_WATCH_PERF = 3,   /**< `perf record` on xdp:xdp_redirect, a filter matching nothing */
	XL_WATCH_FLOOR = 4,  /**< an empty program on xdp_devmap_xmit (struct xl_monitor_opts.floor) */
};

/** The perf listener's event and filter (no interface has ifindex 0). */
#define XL_WATCH_PERF_EVENT "xdp:xdp_redirect"
#define XL_WATCH_PERF_FILTER "ifindex == 0"

/**
 * xl_labrun_redirect() - measure one redirect row: @kind XL_REDIR_DEVMAP
 * (row "redirect") or XL_REDIR_CPUMAP (row "redirect-cpu": cpumap entry
 * program drops on the CPU that is not the generator's NAPI CPU), with
 * @watch's monitor loaded for the whole run ("redirect+mon-err",
 * "redirect+mon-all"), @size-byte frames, @o->reps times.
 * Return: 0 (row filled, xl_row_finish() done), -EINTR when stopped,
 * -ENODEV when the lab has no out pair, or -errno (row->note says why).
 */
int xl_labrun_redirect(struct xl_lab *lab, const struct xl_labrun_opts *o,
		       enum xl_redir_kind kind, enum xl_watch watch, uint32_t size,
		       struct xl_row_result *row);

/**
 * xl_labrun_watch_cost() - the three rows "redirect+no-mon",
 * "redirect+mon-err" and "redirect+mon-all" (the redirect row with each
 * enum xl_watch), with the lab switched to softirq wiring for them (and
 * back after): one traffic set-up, the monitors loaded once, then
 * max(@o->reps, XL_WATCH_MIN_REPS) repetitions, each measuring every level
 * for at most XL_WATCH_MAX_WINDOW_NS in slices of XL_WATCH_SLICE_NS,
 * interleaved (a monitor's links are made for its slices only, 5 ms before
 * each), so that the host's swings in speed fall on all three alike. The
 * cost notes (xl_watch_note()) are written into rows[1] and rows[2]. Then
 * rows[3..5]
 * ("redirect/b1+no-mon", "redirect/b1+mon-err", "redirect/b1+mon-all")
 * are measured the same way with a generator batch of 1 frame, where each
 * frame is a devmap bulk of its own; xl_watch_estimate() then goes into
 * rows[1].watch, and the notes of rows[1] and rows[4] carry it.
 * With @o->with_perf, rows[6] ("redirect+perf") is a fourth level in the
 * first set: a perf listener (xl_perf_listener__create() with
 * XL_WATCH_PERF_EVENT and XL_WATCH_PERF_FILTER), started once for the set
 * and enabled for its slices only; its note gives its cost against
 * rows[0]. While it is disabled its event stays open (perflisten.h), so
 * the other levels of that set carry a disabled probe's residual.
 * With @o->with_floor, the next row ("redirect/b1+mon-floor", rows[6] or
 * rows[7] after the perf row) is a fourth level in the batch-1 set: the
 * floor monitor (XL_WATCH_FLOOR), attached for its slices only; in each of
 * them the kernel's links are counted (xl_mon_link_census()) and its note
 * says in how many slices the floor program was the set's only attached
 * program; xl_watch_floor() goes into rows[1].watch.
 * Return: as xl_labrun_redirect(); the cause is in the note of the row
 * that failed; on -EINTR each row cut short says so in its note.
 */
int xl_labrun_watch_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
			 struct xl_row_result *rows);

/** xl_labrun_watch_rows() - how many rows xl_labrun_watch_cost() fills: 6, +1 with @o->with_perf, +1 with @o->with_floor. */
int xl_labrun_watch_rows(const struct xl_labrun_opts *o);

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
 * xl_watch_note() - write ", monitor +X.X ns/packet, +Y.Y CPU ns/packet vs
 * redirect" (xl_watch_cost_ns() and xl_watch_cpu_cost_ns() of @with against
 * @without) into with->note, which the lab table prints after the verdict.
 * No-op when either row has no figure.
 */
void xl_watch_note(const struct xl_row_result *without, struct xl_row_result *with);

#endif /* XDPLAB_LABRUN_REDIRECT_H */
