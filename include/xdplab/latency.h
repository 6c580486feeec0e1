/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file latency.h
 * One-way latency of stamped frames (xdplab latency, docs/latency.md): the
 * receiver program bpf/latency.bpf.c on the DUT decodes the stamp that
 * 'gen --stamp' writes (abi/latency.h), and keeps per-CPU histograms and
 * sequence books that this module sums; plus the histogram arithmetic
 * (bucket bounds, percentiles), pure functions for the unit tests.
 */
#ifndef XDPLAB_LATENCY_H
#define XDPLAB_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "xdplab/attach.h"
#include "xdplab/abi/latency.h"

/**
 * struct xl_latency_opts - the receiver.
 * @ifname: interface (current netns); @mode: native or skb.
 * @action: XDP_DROP or XDP_PASS, returned for every frame.
 * @busy_wait_ns: spin this long per frame before reading the clock (a
 *   known added delay; 0: none). At most ~200 ms (bpf_loop's 2^23 turns).
 */
struct xl_latency_opts {
	const char *ifname;
	enum xl_xdp_mode mode;
	int action;
	uint64_t busy_wait_ns;
};

/**
 * struct xl_lat_totals - all CPUs summed.
 * @frames/@stamped: frames seen / carrying a stamp.
 * @timed: stamped frames that were timed (@stamped - @negative - @unset):
 *   the frames of @hist; the percentiles take @timed as their count.
 * @sum_ns, @min_ns, @max_ns: latency of the timed frames, ns (0 when none).
 * @negative: stamps later than the receiver's clock (from another clock),
 *   not timed; @unset: stamps of time 0, not timed.
 * @seq_first/@seq_last: lowest and highest sequence number (when stamped).
 * @expected: @seq_last - @seq_first + 1; @lost: @expected minus the
 *   distinct sequence numbers received (@stamped - @duplicates), 0 if below.
 * @reordered, @duplicates: as in struct xl_lat_rec.
 * @hist: timed frames per bucket.
 */
struct xl_lat_totals {
	uint64_t frames, stamped, sum_ns, min_ns, max_ns, negative;
	uint64_t seq_first, seq_last, expected, lost, reordered, duplicates;
	uint64_t timed, unset;
	uint64_t hist[XL_LAT_BUCKETS];
};

struct xl_latency;

/**
 * xl_latency__create() - load the receiver and attach it through a bpf_link.
 * Return: the receiver (free with xl_latency__destroy(), which detaches) or
 * NULL with errno: ENODEV, EBUSY (a program is attached; logged), EPERM, or
 * a load/attach errno.
 */
struct xl_latency *xl_latency__create(const struct xl_latency_opts *opts);

/** xl_latency__read() - the totals now. Return: 0 or -errno. */
int xl_latency__read(struct xl_latency *l, struct xl_lat_totals *t);

/**
 * xl_lat_sum() - the totals of @n per-CPU records @recs (as the receiver's
 * map holds them) into @t: counts and histograms summed, min/max over the
 * CPUs that timed a frame, the lowest/highest sequence number over the
 * CPUs that saw a stamp, then
 * @t->expected and @t->lost (pure; xl_latency__read() uses it).
 */
void xl_lat_sum(const struct xl_lat_rec *recs, int n, struct xl_lat_totals *t);

/** xl_latency__ifindex() - the interface the receiver is attached to. */
int xl_latency__ifindex(const struct xl_latency *l);

/** xl_latency__destroy() - detach and free. NULL is fine. */
void xl_latency__destroy(struct xl_latency *l);

/**
 * xl_lat_bucket_bounds() - the values of bucket @idx: [*@lo, *@hi] ns,
 * inclusive (xl_lat_bucket() maps exactly these values to @idx).
 */
void xl_lat_bucket_bounds(uint32_t idx, uint64_t *lo, uint64_t *hi);

/**
 * xl_lat_percentile() - the @q quantile (0 < @q <= 1) of the histogram
 * @hist holding @n values: the upper bound of the bucket holding the
 * ceil(@q * @n)-th smallest value (HdrHistogram's "highest equivalent
 * value"), capped at @max_ns, the exact maximum. Return: ns; 0 when @n is 0.
 */
uint64_t xl_lat_percentile(const uint64_t hist[XL_LAT_BUCKETS], uint64_t n, double q,
			   uint64_t max_ns);

/**
 * xl_lat_notes() - what the percentiles of @t leave out, as text into @buf
 * (@len bytes, always terminated): "N stamps from another clock (negative
 * delta), not in the percentiles" when @t->negative > 0, "N stamps of time
 * 0 (unset), not in the percentiles" when @t->unset > 0, joined by "; ".
 * Return: @buf; "" when nothing was left out.
 */
char *xl_lat_notes(const struct xl_lat_totals *t, char *buf, size_t len);

/** xl_lat_totals_diff() - @b - @a for the counts and histogram (min/max from @b). */
void xl_lat_totals_diff(const struct xl_lat_totals *a, const struct xl_lat_totals *b,
			struct xl_lat_totals *d);

#endif /* XDPLAB_LATENCY_H */
