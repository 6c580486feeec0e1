// SPDX-License-Identifier: BSD-2-Clause
/*
 * What watching costs, from the rows of xl_labrun_watch_cost(): paired
 * differences between a monitor level and no monitor within each
 * repetition, their medians and distribution-free 95% confidence
 * intervals (xl_median_ci()), the per-event estimate, the estimate per
 * forwarding hop at the bulk size measured and at full devmap bulks, and
 * its split into the floor (an empty program) and the monitor's own part.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/watch_cost.h"
#include "xdplab/stats.h"

/*
 * get(with) - get(without) for each repetition both rows have with a
 * figure, into @d (XL_MAX_REPS); Return: how many (0 unless paired).
 */
static int paired_diffs(const struct xl_row_result *without, const struct xl_row_result *with,
			double (*get)(const struct xl_rep_result *), double *d)
{
	int i, n = 0;

	if (!without->nreps || without->nreps != with->nreps)
		return 0;
	for (i = 0; i < with->nreps; i++)
		if (get(&with->reps[i]) > 0 && get(&without->reps[i]) > 0)
			d[n++] = get(&with->reps[i]) - get(&without->reps[i]);
	return n;
}

static double rate_ns(const struct xl_rep_result *r)
{
	return xl_ns_per_pkt(r->pps);
}

static double chain_ns(const struct xl_rep_result *r)
{
	return r->chain_ns_per_pkt;
}

static double dut_ns(const struct xl_rep_result *r)
{
	return r->cpu_ns_per_pkt;
}

/* The CPU figure both rows have in every repetition: the chain's, else the judged CPU's. */
static double (*cpu_getter(const struct xl_row_result *without,
			   const struct xl_row_result *with))(const struct xl_rep_result *)
{
	int i;

	for (i = 0; i < with->nreps && i < without->nreps; i++)
		if (with->reps[i].chain_ns_per_pkt <= 0 || without->reps[i].chain_ns_per_pkt <= 0)
			return dut_ns;
	return chain_ns;
}

double xl_watch_cost_ns(const struct xl_row_result *without,
			const struct xl_row_result *with)
{
	double d[XL_MAX_REPS];
	int n;

	if (!without->nreps || !with->nreps || without->mpps.median <= 0 ||
	    with->mpps.median <= 0)
		return 0;
	if (without->nreps != with->nreps)
		return 1e3 / with->mpps.median - 1e3 / without->mpps.median;
	/* Paired: repetition i of both rows ran interleaved in one set-up. */
	n = paired_diffs(without, with, rate_ns, d);
	return xl_summarize(d, n).median;
}

double xl_watch_cpu_cost_ns(const struct xl_row_result *without,
			    const struct xl_row_result *with)
{
	double d[XL_MAX_REPS];
	int n = paired_diffs(without, with, cpu_getter(without, with), d);

	return xl_summarize(d, n).median;
}

int xl_watch_cpu_cost_ci(const struct xl_row_result *without, const struct xl_row_result *with,
			 double *lo, double *hi)
{
	double d[XL_MAX_REPS];
	int n = paired_diffs(without, with, cpu_getter(without, with), d);

	return xl_median_ci(d, n, lo, hi);
}

double xl_watch_dut_cost_ns(const struct xl_row_result *without, const struct xl_row_result *with,
			    bool *ci, double *lo, double *hi)
{
	double d[XL_MAX_REPS];
	int n = paired_diffs(without, with, dut_ns, d);

	if (ci)
		*ci = !xl_median_ci(d, n, lo, hi);
	return xl_summarize(d, n).median;
}

double xl_watch_events_per_pkt(const struct xl_row_result *row)
{
	double e[XL_MAX_REPS];
	int i, n = 0;

	for (i = 0; i < row->nreps; i++)
		if (row->reps[i].xmit_events >= 0 && row->reps[i].packets)
			e[n++] = (double)row->reps[i].xmit_events / row->reps[i].packets;
	return n ? xl_summarize(e, n).median : -1;
}

int xl_watch_estimate(const struct xl_row_result rows[6], struct xl_watch_est *est)
{
	double lo, hi;

	memset(est, 0, sizeof(*est));
	est->cost_ns = xl_watch_cost_ns(&rows[0], &rows[1]);
	est->cpu_cost_ns = xl_watch_cpu_cost_ns(&rows[0], &rows[1]);
	est->cpu_cost_ci = !xl_watch_cpu_cost_ci(&rows[0], &rows[1], &est->cpu_cost_lo,
						 &est->cpu_cost_hi);
	est->events_per_pkt = xl_watch_events_per_pkt(&rows[2]);
	est->b1_cpu_cost_ns = xl_watch_cpu_cost_ns(&rows[3], &rows[4]);
	est->b1_events_per_pkt = xl_watch_events_per_pkt(&rows[5]);
	if (est->events_per_pkt < 0 || est->b1_events_per_pkt <= 0 || !rows[3].nreps ||
	    rows[3].nreps != rows[4].nreps)
		return -ENODATA;
	est->per_event_ns = est->b1_cpu_cost_ns / est->b1_events_per_pkt;
	est->estimate_ns = est->per_event_ns * est->events_per_pkt;
	if (!xl_watch_cpu_cost_ci(&rows[3], &rows[4], &lo, &hi)) {
		est->per_event_lo = lo / est->b1_events_per_pkt;
		est->per_event_hi = hi / est->b1_events_per_pkt;
		est->estimate_lo = est->per_event_lo * est->events_per_pkt;
		est->estimate_hi = est->per_event_hi * est->events_per_pkt;
		est->estimate_ci = true;
	}
	est->valid = true;
	return 0;
}

/* Every repetition of all three rows has the chain's figure: chain_ns, else dut_ns. */
static double (*cpu_getter3(const struct xl_row_result *a, const struct xl_row_result *b,
			    const struct xl_row_result *c))(const struct xl_rep_result *)
{
	return cpu_getter(a, b) == chain_ns && cpu_getter(a, c) == chain_ns ? chain_ns : dut_ns;
}

int xl_watch_floor(const struct xl_row_result *b1_none, const struct xl_row_result *b1_err,
		   const struct xl_row_result *b1_floor, struct xl_watch_est *est)
{
	double (*get)(const struct xl_rep_result *) = cpu_getter3(b1_none, b1_err, b1_floor);
	double f[XL_MAX_REPS], o[XL_MAX_REPS], e, lo, hi, olo, ohi;
	int nf, no;

	if (!est->valid)
		return -EINVAL;
	e = est->b1_events_per_pkt;
	/* floor - none and errors - floor, repetition by repetition */
	nf = paired_diffs(b1_none, b1_floor, get, f);
	no = paired_diffs(b1_floor, b1_err, get, o);
	if (e <= 0 || !nf || !no) /* 0 pairs unless both rows have the same nreps */
		return -ENODATA;
	est->floor_ns = xl_summarize(f, nf).median / e;
	est->own_ns = xl_summarize(o, no).median / e;
	est->floor_hop_ns = est->floor_ns / XL_DEVMAP_BULK;
	est->own_hop_ns = est->own_ns / XL_DEVMAP_BULK;
	if (!xl_median_ci(f, nf, &lo, &hi) && !xl_median_ci(o, no, &olo, &ohi)) {
		est->floor_lo = lo / e;
		est->floor_hi = hi / e;
		est->own_lo = olo / e;
		est->own_hi = ohi / e;
		est->floor_hop_lo = est->floor_lo / XL_DEVMAP_BULK;
		est->floor_hop_hi = est->floor_hi / XL_DEVMAP_BULK;
		est->own_hop_lo = est->own_lo / XL_DEVMAP_BULK;
		est->own_hop_hi = est->own_hi / XL_DEVMAP_BULK;
		est->floor_ci = true;
	}
	est->floor_valid = true;
	return 0;
}

int xl_watch_per_hop(struct xl_watch_est *est, int hops)
{
	if (hops < 1 || !est->valid)
		return -EINVAL;
	if (est->events_per_pkt <= 0)
		return -ENODATA;
	est->hops = hops;
	est->bulk_frames = hops / est->events_per_pkt;
	est->hop_ns = est->estimate_ns / hops;
	est->full_hop_ns = est->per_event_ns / XL_DEVMAP_BULK;
	if (est->estimate_ci) {
		est->hop_lo = est->estimate_lo / hops;
		est->hop_hi = est->estimate_hi / hops;
		est->full_hop_lo = est->per_event_lo / XL_DEVMAP_BULK;
		est->full_hop_hi = est->per_event_hi / XL_DEVMAP_BULK;
	}
	return 0;
}

void xl_watch_note(const struct xl_row_result *without, struct xl_row_result *with)
{
	if (!without->nreps || !with->nreps || without->mpps.median <= 0 ||
	    with->mpps.median <= 0)
		return;
	snprintf(with->note, sizeof(with->note), "monitor %+.1f ns/packet, %+.1f CPU ns/packet vs %s",
		 xl_watch_cost_ns(without, with), xl_watch_cpu_cost_ns(without, with),
		 without->name);
}
