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
#include "xdplab/watch_cost.h"

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
	XL_WATCH_LAZY = 5,   /**< `xdplab monitor --lazy`: loaded, attached once a driver error counter moves */
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
 * rows[1]'s xl_row_part_watch part, and the notes of rows[1] and rows[4] carry it.
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
 * program; xl_watch_floor() goes into rows[1]'s xl_row_part_watch part.
 * The last row ("redirect+mon-lazy", rows[6 + with_perf + with_floor]) is
 * a fourth level of the first set: the errors-only monitor loaded but
 * attached only once one of the lab's veths' error counters (errgate.h,
 * read before and after each of its slices, outside the window) has
 * moved, as `monitor --lazy`; in each of its slices before that the
 * kernel's links of its programs are counted; its note says whether a
 * counter moved, in how many slices none of its programs was attached,
 * and its cost against rows[0] with the 95% CI, per redirect hop.
 * Return: as xl_labrun_redirect(); the cause is in the note of the row
 * that failed; on -EINTR each row cut short says so in its note.
 */
int xl_labrun_watch_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
			 struct xl_row_result *rows);

/** xl_labrun_watch_rows() - how many rows xl_labrun_watch_cost() fills: 7, +1 with @o->with_perf, +1 with @o->with_floor. */
int xl_labrun_watch_rows(const struct xl_labrun_opts *o);

#endif /* XDPLAB_LABRUN_REDIRECT_H */
