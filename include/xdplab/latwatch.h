/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file latwatch.h
 * Watching a latency receiver (`xdplab latency`, docs/latency.md): its
 * totals read every interval on the one sampler (xdplab/sampler.h), a
 * line per interval, and the run's totals as text or JSON: percentiles
 * from the stamp to the receiver, loss, reordering, duplicates. The
 * receiver is xdplab/latency.h's.
 */
#ifndef XDPLAB_LATWATCH_H
#define XDPLAB_LATWATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/latency.h"

/**
 * struct xl_lat_watch - a watch of a receiver.
 * @l: the receiver (xl_latency__create(); the caller destroys it).
 * @ifname: its interface, for messages; borrowed.
 * @interval_ns: a reading and a line every so many ns.
 * @duration_ns: the run's length, ns (0: until a stop).
 * @stop: set asynchronously (a signal) to stop; NULL: never.
 * @lines: where each interval's line goes ("T s  rx/s N  stamped/s N
 *	p50 X us  p99 Y us  max Z us"); NULL: none.
 * @total/@secs: out: the counts since the receiver was loaded as of the
 *	last good reading, and the seconds from the first to it.
 * @have: out: @total was read at least once after the start.
 */
struct xl_lat_watch {
	struct xl_latency *l;
	const char *ifname;
	uint64_t interval_ns, duration_ns;
	volatile sig_atomic_t *stop;
	FILE *lines;
	struct xl_lat_totals total;
	double secs;
	bool have;
};

/**
 * xl_lat_watch_run() - watch @w->l until its duration or a stop; the
 * interface vanishing ends it (logged). Return: 0, -ENODEV (vanished),
 * -ENOMEM, or a reading's -errno; @w->total and @w->secs are those of the
 * last good reading either way (@w->have).
 */
int xl_lat_watch_run(struct xl_lat_watch *w);

/**
 * xl_lat_totals_print() - @t, read over @secs s, as text on @out: frames,
 * stamped, the latency's min, percentiles, max and mean (or why none),
 * notes (negative or unset stamps), and the sequence: lost, reordered,
 * duplicates.
 */
void xl_lat_totals_print(FILE *out, const struct xl_lat_totals *t, double secs);

/**
 * xl_lat_totals_json() - @t, read over @secs s, as one compact JSON object
 * and a newline on @out (with the histogram's non-empty buckets).
 * Return: 0, -ENOMEM, or -EIO (a write failed).
 */
int xl_lat_totals_json(FILE *out, const struct xl_lat_totals *t, double secs);

struct json_t;

/**
 * xl_lat_buckets_json() - the non-empty buckets of histogram @hist
 * (XL_LAT_BUCKETS counts) as a JSON array of {"lo_ns", "hi_ns" (inclusive),
 * "count"}: `xdplab latency --json`'s and a latency row's "buckets"
 * (docs/results.md). Return: a new reference (json_decref() it), NULL on
 * ENOMEM.
 */
struct json_t *xl_lat_buckets_json(const uint64_t *hist);

#endif /* XDPLAB_LATWATCH_H */
