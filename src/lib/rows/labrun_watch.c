// SPDX-License-Identifier: BSD-2-Clause
/*
 * The price of watching the redirect path: lab run's watch-cost rows. The
 * levels (no monitor, errors only, all events, the lazy monitor, perf
 * record, the empty floor program) are measured on the redirect run of
 * labrun_redirect.c, interleaved in slices, plain and with a generator
 * batch of one frame (every frame its own devmap bulk), and the cost per
 * event and per hop estimated from the pairs (measure/watch_cost.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/labrun_redirect.h"
#include "xdplab/log.h"
#include "labrun_priv.h"
#include "labrun_redirect_priv.h"
#include "watch_lazy.h"

/*
 * The cost rows take many short windows: what counts is the difference
 * between levels, and this VM's speed swings on a scale of a second, so
 * each repetition interleaves the levels in slices of XL_WATCH_SLICE_NS
 * (the monitors stay loaded and only their links are made and cut, in
 * milliseconds), and a median over at least 9 repetitions resists the ones
 * a swing still lands on.
 */
#define WATCH_MIN_REPS XL_WATCH_MIN_REPS
#define WATCH_MAX_WINDOW_NS XL_WATCH_MAX_WINDOW_NS

/* The "/b1" calibration rows' generator batch: every frame its own bulk. */
/*
 * Redirecting hops on the lab's redirect path: the live-frames generator
 * (its program redirects into the generator veth) and the DUT (into out
 * pair 0); each hands devmap bulks to ndo_xdp_xmit.
 */
#define XL_LAB_REDIRECT_HOPS 2
#define WATCH_CAL_BATCH 1

/* The perf row's note: its cost against @without, with the CPU cost's 95% CI. */
static void perf_note(const struct xl_row_result *without, struct xl_row_result *with)
{
	double lo, hi;
	int n;

	if (!without->nreps || !with->nreps || without->mpps.median <= 0 ||
	    with->mpps.median <= 0)
		return;
	n = snprintf(with->note, sizeof(with->note),
		     "perf record on %s, --filter '%s' (matches nothing): %+.1f ns/packet, %+.1f CPU ns/packet vs %s, %+.1f per redirect hop",
		     XL_WATCH_PERF_EVENT, XL_WATCH_PERF_FILTER, xl_watch_cost_ns(without, with),
		     xl_watch_cpu_cost_ns(without, with), without->name,
		     xl_watch_cpu_cost_ns(without, with) / XL_LAB_REDIRECT_HOPS);
	if (n > 0 && (size_t)n < sizeof(with->note) && !xl_watch_cpu_cost_ci(without, with, &lo, &hi))
		snprintf(with->note + n, sizeof(with->note) - n, " (95%% CI %.1f..%.1f)", lo, hi);
}

/*
 * Measure rows[0..2] (none, errors, all), @lazy_row at the lazy level
 * (NULL: none) and @extra_row at level @extra (the perf listener or the
 * floor; NULL: none): one traffic set-up, then each repetition interleaves
 * the levels in slices (one_set()); @wc as there.
 */
static int watch_set(struct xl_lab *lab, const struct xl_labrun_opts *lo, uint32_t size,
		     struct xl_row_result *rows, struct xl_row_result *lazy_row,
		     struct xl_row_result *extra_row, enum xl_watch extra, struct watch_census *wc)
{
	enum xl_watch levels[5] = { XL_WATCH_NONE, XL_WATCH_ERRORS, XL_WATCH_ALL };
	struct xl_row_result *rp[5] = { &rows[0], &rows[1], &rows[2] };
	struct xl_labrun_opts wo = *lo, *o = &wo;
	int w, err, nslices, nlevels = 3;
	struct xl_watch_lazy lazy = { .nids = -ENOENT };
	bool failed_profiled;

	if (lazy_row) {
		levels[nlevels] = XL_WATCH_LAZY;
		rp[nlevels++] = lazy_row;
	}
	if (extra_row) {
		levels[nlevels] = extra;
		rp[nlevels++] = extra_row;
	}
	if (wo.reps < WATCH_MIN_REPS)
		wo.reps = WATCH_MIN_REPS;
	if (wo.seconds_ns > WATCH_MAX_WINDOW_NS)
		wo.seconds_ns = WATCH_MAX_WINDOW_NS;
	nslices = wo.seconds_ns / XL_WATCH_SLICE_NS > 1 ? wo.seconds_ns / XL_WATCH_SLICE_NS : 1;
	err = xl_labrun_redir_set(lab, o, XL_REDIR_DEVMAP, levels, nlevels, size, 0, rp, nslices,
				  false, wc, lazy_row ? &lazy : NULL, &failed_profiled);
	if (err)
		return err;
	for (w = 0; w < nlevels; w++)
		xl_row_finish(rp[w]);
	xl_watch_note(&rows[0], &rows[1]);
	xl_watch_note(&rows[0], &rows[2]);
	if (lazy_row)
		xl_watch_lazy_note(&lazy, &rows[0], lazy_row, XL_LAB_REDIRECT_HOPS);
	if (extra == XL_WATCH_PERF && extra_row)
		perf_note(&rows[0], extra_row);
	return 0;
}

/*
 * The floor row's note: the floor per event and the monitor's own part,
 * per hop at full bulks, and the census of its slices (@est NULL or
 * without the floor: the census only).
 */
static void floor_note(struct xl_row_result *row, const struct xl_watch_est *est,
		       const struct watch_census *wc)
{
	size_t len = sizeof(row->note);
	int n = 0;

	if (est && est->floor_valid && est->floor_ci)
		n = snprintf(row->note, len,
			     "empty program: %.1f ns per event (95%% CI %.1f..%.1f), the monitor's own part %.1f (95%% CI %.1f..%.1f); at full bulks of %d: %.2f and %.2f per hop; ",
			     est->floor_ns, est->floor_lo, est->floor_hi, est->own_ns, est->own_lo,
			     est->own_hi, XL_DEVMAP_BULK, est->floor_hop_ns, est->own_hop_ns);
	else if (est && est->floor_valid)
		n = snprintf(row->note, len,
			     "empty program: %.1f ns per event, the monitor's own part %.1f; at full bulks of %d: %.2f and %.2f per hop; ",
			     est->floor_ns, est->own_ns, XL_DEVMAP_BULK, est->floor_hop_ns,
			     est->own_hop_ns);
	if (n < 0 || (size_t)n >= len)
		return;
	n += snprintf(row->note + n, len - n, "the set's only link, on xdp_devmap_xmit, in %d of %d slices",
		      wc->alone, wc->slices);
	/* Another watcher's program there: the tracepoint was enabled at every level. */
	if (wc->xmit_max > 1 && (size_t)n < len)
		snprintf(row->note + n, len - n, " (up to %d links there machine-wide)",
			 wc->xmit_max);
}

static int watch_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
		      struct xl_row_result *rows)
{
	struct xl_labrun_opts cal = *o;
	struct xl_row_result *floor_row = o->with_floor ? &rows[6 + o->with_perf] : NULL;
	struct xl_row_result *lazy_row = &rows[6 + o->with_perf + o->with_floor];
	struct watch_census wc = { 0 };
	struct xl_watch_est est, *w1;
	int w, err;

	for (w = XL_WATCH_NONE; w <= XL_WATCH_ALL; w++) {
		xl_labrun_redir_row(lab, o, XL_REDIR_DEVMAP, w, size, &rows[w]);
		if (w == XL_WATCH_NONE) /* not the lab's own "redirect" row */
			snprintf(rows[w].name, sizeof(rows[w].name), "redirect+no-mon");
		xl_labrun_redir_row(lab, o, XL_REDIR_DEVMAP, w, size, &rows[3 + w]);
		snprintf(rows[3 + w].name, sizeof(rows[3 + w].name), "redirect/b%d%s",
			 WATCH_CAL_BATCH, rows[w].name + strlen("redirect"));
	}
	if (o->with_perf)
		xl_labrun_redir_row(lab, o, XL_REDIR_DEVMAP, XL_WATCH_PERF, size, &rows[6]);
	if (floor_row) {
		xl_labrun_redir_row(lab, o, XL_REDIR_DEVMAP, XL_WATCH_FLOOR, size, floor_row);
		snprintf(floor_row->name, sizeof(floor_row->name), "redirect/b%d+mon-floor",
			 WATCH_CAL_BATCH);
	}
	xl_labrun_redir_row(lab, o, XL_REDIR_DEVMAP, XL_WATCH_LAZY, size, lazy_row);
	if (lab->nout < 1) {
		snprintf(rows[0].note, sizeof(rows[0].note), "the lab has no out pair");
		return -ENODEV;
	}
	err = watch_set(lab, o, size, rows, lazy_row, o->with_perf ? &rows[6] : NULL, XL_WATCH_PERF,
			NULL);
	if (err)
		return err;
	cal.gen_batch = WATCH_CAL_BATCH;
	err = watch_set(lab, &cal, size, rows + 3, NULL, floor_row, XL_WATCH_FLOOR, &wc);
	if (err)
		return err;
	if (xl_watch_estimate(rows, &est)) {
		if (floor_row)
			floor_note(floor_row, NULL, &wc);
		return 0;
	}
	xl_watch_per_hop(&est, XL_LAB_REDIRECT_HOPS);
	if (floor_row) {
		xl_watch_floor(&rows[3], &rows[4], floor_row, &est);
		floor_note(floor_row, &est, &wc);
	}
	w1 = xl_row_part_get(&rows[1], &xl_row_part_watch);
	if (w1)
		*w1 = est;
	if (est.estimate_ci) {
		snprintf(rows[4].note, sizeof(rows[4].note),
			 "monitor %+.1f CPU ns/packet at %.2f devmap_xmit events/packet: %.1f ns per event (95%% CI %.1f..%.1f)",
			 est.b1_cpu_cost_ns, est.b1_events_per_pkt, est.per_event_ns,
			 est.per_event_lo, est.per_event_hi);
		snprintf(rows[1].note, sizeof(rows[1].note),
			 "monitor %+.1f ns/packet, %+.1f CPU ns/packet vs %s; estimate %.1f ns/event x %.4f events/packet (bulks of %.1f frames) = %.2f CPU ns/packet, %.2f per redirect hop (95%% CI %.2f..%.2f); at full bulks of %d: %.2f per hop (95%% CI %.2f..%.2f)",
			 est.cost_ns, est.cpu_cost_ns, rows[0].name, est.per_event_ns,
			 est.events_per_pkt, est.bulk_frames, est.estimate_ns, est.hop_ns, est.hop_lo,
			 est.hop_hi, XL_DEVMAP_BULK, est.full_hop_ns, est.full_hop_lo, est.full_hop_hi);
	}
	return 0;
}

int xl_labrun_watch_rows(const struct xl_labrun_opts *o)
{
	return 7 + o->with_perf + o->with_floor;
}

int xl_labrun_watch_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
			 struct xl_row_result *rows)
{
	enum xl_wiring old_wiring = lab->wiring;
	int old_napi = lab->napi_cpu;
	int err;

	/*
	 * Softirq wiring: the whole chain runs inline on the generator's CPU
	 * and veth's ring never overflows, so the chain's CPU time per packet
	 * is the work for packets that arrived (with threaded NAPI, frames
	 * the ring refused would be paid for too).
	 */
	if (old_wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, XL_WIRING_SOFTIRQ, -1);
	err = watch_cost(lab, o, size, rows);
	if (old_wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, old_wiring, old_napi);
	if (err == -EINTR) {
		int i, want = o->reps > WATCH_MIN_REPS ? o->reps : WATCH_MIN_REPS;

		for (i = 0; i < xl_labrun_watch_rows(o); i++)
			if (rows[i].nreps < want && !rows[i].note[0])
				snprintf(rows[i].note, sizeof(rows[i].note),
					 "interrupted after %d of %d repetitions", rows[i].nreps, want);
	}
	return err;
}
