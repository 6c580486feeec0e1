/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrun.h
 * Measuring lab rows: a generator in the lab's generator namespace, a
 * benchmark at the DUT end, repetitions of a fixed window after a warm-up,
 * each checked against the kernel's counters and the DUT CPU's load.
 */
#ifndef XDPLAB_LABRUN_H
#define XDPLAB_LABRUN_H

#include <signal.h>

#include "xdplab/attach.h"
#include "xdplab/bench_shared.h"
#include "xdplab/lab.h"
#include "xdplab/report.h"

/**
 * struct xl_labrun_opts - how to measure.
 * @reps: repetitions per row (1..XL_MAX_REPS).
 * @seconds_ns: measured window per repetition; @warmup_ns: run before it.
 * @gen_cpu: CPU of the generator thread; @napi_cpu: CPU of the DUT's
 *           threaded NAPI (XL_WIRING_THREADED rows).
 * @stop: set asynchronously (signal) to abort between windows; may be NULL.
 */
struct xl_labrun_opts {
	int reps;
	uint64_t seconds_ns, warmup_ns;
	int gen_cpu, napi_cpu;
	volatile sig_atomic_t *stop;
};

/**
 * xl_labrun_xdp() - measure one XDP row: attach an @action/@op benchmark at
 * the DUT end in @mode, generate @size-byte frames with the live engine,
 * @o->reps times. The lab's current wiring is used and recorded.
 * Return: 0 (row filled; xl_row_finish() done), -EINTR when stopped, or
 * -errno (the cause is logged; row->note says it in a few words).
 */
int xl_labrun_xdp(struct xl_lab *lab, const struct xl_labrun_opts *o, int action,
		  enum xl_pkt_op op, enum xl_xdp_mode mode, uint32_t size,
		  struct xl_row_result *row);

/**
 * xl_labrun_ceiling() - the generator ceiling: the live engine's sent rate
 * into a bare XDP_DROP at the DUT, judged by the generator CPU's load.
 * Return: as xl_labrun_xdp().
 */
int xl_labrun_ceiling(struct xl_lab *lab, const struct xl_labrun_opts *o,
		      uint32_t size, struct xl_row_result *row);

#endif /* XDPLAB_LABRUN_H */
