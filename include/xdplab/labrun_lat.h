/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrun_lat.h
 * `lab run --latency`: latency rows on the veth lab (docs/latency.md). The
 * lab's generator stamps every frame ('gen --stamp': a sequence number and
 * the CLOCK_MONOTONIC send time in the pktgen header) and the latency
 * receiver (latency.h) reads the stamp where the frame ends its path:
 * one-way at the DUT end, or round-trip at the generator side after the
 * DUT sent it back (XDP_TX, a devmap redirect into the out pair whose far
 * end is in the generator's namespace, or AF_XDP l2fwd). One host, one
 * clock: no offset to estimate.
 */
#ifndef XDPLAB_LABRUN_LAT_H
#define XDPLAB_LABRUN_LAT_H

#include <stdint.h>

#include "xdplab/lab.h"
#include "xdplab/labrun.h"
#include "xdplab/latency.h"
#include "xdplab/report.h"

/** The paths a latency row measures. */
enum xl_lat_path {
	XL_LAT_ONEWAY = 0,   /**< gen -> DUT end, where the receiver drops */
	XL_LAT_TX = 1,       /**< gen -> DUT XDP_TX (swap-macs) -> generator end */
	XL_LAT_REDIRECT = 2, /**< gen -> DUT devmap redirect (swap-macs) -> out pair -> its far end */
	XL_LAT_L2FWD = 3,    /**< gen -> DUT AF_XDP l2fwd (copy mode) -> generator end */
	XL_LAT_NPATHS
};

/** xl_lat_path_name() - "one-way", "rt-tx", "rt-redirect", "rt-l2fwd". */
const char *xl_lat_path_name(enum xl_lat_path p);

/** The low rate of the "low" latency rows, frames per second. */
#define XL_LAT_LOW_PPS 10000

/**
 * struct xl_lat_row - one latency row.
 * @rec: what its results file holds (struct xl_lat_rowrec, written by its
 *   field table: name, path's name, round trip, size, rate, seconds, batch,
 *   wiring, added delay, repetitions, their medians, note). Its @rec.note:
 *   empty, or why the row has fewer repetitions than asked, then rt-l2fwd's
 *   socket thread's share of waiting for its CPU, then the stamps not timed
 *   (xl_lat_notes() of @all).
 * @path: its path (@rec.path is this path's name).
 * @all: every repetition's histogram summed (the JSON's buckets),
 *   with @all.min_ns/@all.max_ns over all of them, and their stamped,
 *   timed, negative and unset counts.
 * @app_wait_ns/@app_window_ns: rt-l2fwd only (0 otherwise): the socket
 *   thread's run delay (runnable, waiting for its CPU; xl_xsk_app__wait_ns())
 *   over the repetitions' generator runs and drains, and those runs' length,
 *   ns, summed over the repetitions read.
 */
struct xl_lat_row {
	struct xl_lat_rowrec rec;
	enum xl_lat_path path;
	struct xl_lat_totals all;
	uint64_t app_wait_ns, app_window_ns;
};

/**
 * xl_labrun_latency() - measure latency row @path at @size bytes (>= 62:
 * the stamp is 20 bytes of UDP payload) and @rate_pps (0: as fast as the
 * generator goes) into @row: @o->reps generator runs of @o->seconds_ns
 * each (no warm-up: the books start at the first frame), each into a
 * receiver (and a DUT program) made for it and removed after, the
 * receiver spinning @delay_ns per frame. The lab's wiring is used, except
 * for rt-l2fwd, which runs softirq as the AF_XDP rows do; rt-redirect
 * needs the lab's first out pair (lab->nout >= 1).
 * Return: 0, -EINTR when stopped (the repetitions done are kept), or
 * -errno (@row->note says what failed).
 */
int xl_labrun_latency(struct xl_lab *lab, const struct xl_labrun_opts *o, enum xl_lat_path path,
		      uint64_t rate_pps, uint64_t delay_ns, uint32_t size, struct xl_lat_row *row);

/**
 * xl_lat_rep_from() - a repetition's figures from the receiver's totals
 * @t and the generator's @sent and @xmit_errors (pure; unit-tested).
 */
void xl_lat_rep_from(const struct xl_lat_totals *t, uint64_t sent, uint64_t xmit_errors,
		     struct xl_lat_rep *r);

/**
 * xl_lat_row_notes() - append to @row->note, after what it holds ("; "
 * between): for rt-l2fwd with @row->app_window_ns, the share of that window
 * its socket thread waited for CPU @app_cpu while runnable ("socket thread
 * waited P% of S s for CPU C (run delay: frames wait in its RX ring
 * meanwhile)"), then the stamps of @row->all not timed (xl_lat_notes()).
 * Pure (unit-tested); cut to the note's size.
 */
void xl_lat_row_notes(struct xl_lat_row *row, int app_cpu);

/** xl_lat_row_finish() - @row->med from its repetitions (pure). */
void xl_lat_row_finish(struct xl_lat_row *row);

struct json_t;

/**
 * xl_lat_row_json() - one latency row as a JSON object (an element of
 * xl_lat_rows_json()'s "latency": docs/results.md). Return: a new
 * reference (json_decref() it), NULL on ENOMEM.
 */
struct json_t *xl_lat_row_json(const struct xl_lat_row *row);

/**
 * xl_lat_clock_json() - set @doc's "latency_clock" and "latency_resolution"
 * (what every latency figure was measured with: docs/results.md).
 */
void xl_lat_clock_json(struct json_t *doc);

/**
 * xl_lat_rows_json() - `{"latency": [...]}`, the rows as JSON text for
 * struct xl_report_meta.extra_json (docs/results.md: each row's figures,
 * its repetitions and its non-empty buckets with their bounds).
 * Return: the text (free() it) or NULL (ENOMEM).
 */
char *xl_lat_rows_json(const struct xl_lat_row *rows, int n);

#endif /* XDPLAB_LABRUN_LAT_H */
