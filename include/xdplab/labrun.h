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
#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/abi/bench.h"
#include "xdplab/lab.h"
#include "xdplab/plan.h"
#include "xdplab/report.h"

/**
 * struct xl_labrun_source - the traffic when it is not the lab's own
 * generator (`lab run --dut`): a generator on another host, or the user's.
 * @start: start @size-byte frames for at most @max_ns; NULL: the traffic
 *         is the user's, nothing to start. Return: 0 or -errno.
 * @stop: stop it and wait for it (NULL with @start NULL). Return: 0 or
 *         -errno (the row is then marked failed).
 * @ended: true when the traffic has ended by itself (the generator
 *         failed): a repetition then stops waiting for its first frame
 *         (NULL: never asked).
 * @ctx: passed to all three.
 * @engine: the rows' gen_engine, e.g. "ssh" or "external".
 * Each repetition waits, after @start, up to XL_LABRUN_ARRIVE_NS for the
 * DUT's counter to move before its warm-up (the connection and the
 * generator's start take that long on another host).
 */
struct xl_labrun_source {
	int (*start)(void *ctx, uint32_t size, uint64_t max_ns);
	int (*stop)(void *ctx);
	void *ctx;
	const char *engine;
	bool (*ended)(void *ctx);
};

/** How long a repetition waits for the first frame from a struct xl_labrun_source, ns. */
#define XL_LABRUN_ARRIVE_NS 15000000000ull

/**
 * struct xl_labrun_opts - how to measure.
 * @reps: repetitions per row (1..XL_MAX_REPS).
 * @seconds_ns: measured window per repetition; @warmup_ns: run before it.
 * @gen_cpu: CPU of the generator thread; @napi_cpu: CPU of the DUT's
 *           threaded NAPI (XL_WIRING_THREADED rows).
 * @stop: set asynchronously (signal) to abort between windows; may be NULL.
 * @gen_batch: the generator's live-frames batch (struct xl_gen_opts.batch;
 *           0: the default 64).
 * @profiler: `lab run --profile`: each row runs one extra repetition whose
 *           window perf records (the row's profile part); its figures are not kept,
 *           since perf's own load changes them. NULL: none.
 * @with_perf: the watch-cost rows add a perf listener level
 *           (xl_labrun_watch_cost()).
 * @with_floor: the watch-cost rows' batch-1 set adds the floor level, an
 *           empty program on xdp_devmap_xmit (xl_labrun_watch_cost()).
 * @program_counts: the XDP rows' program counts every frame even where the
 *           driver keeps per-queue XDP counters (`lab run --count
 *           program`); false (the default): there the driver counts and the
 *           program does not (struct xl_bench_opts.driver_counts).
 * @extra/@extra_ns: the XDP_DROP rows run with the --extra-ns busy loop
 *           set to @extra_ns CPU ns per packet (calibrated on the row's
 *           first repetition; struct xl_row_result.extra).
 * @src: the traffic of xl_labrun_xdp() and xl_labrun_stack() rows when not
 *           the lab's generator (a lab from xl_lab__open_device()); NULL:
 *           the lab's generator.
 * @prog_count_check: xl_labrun_prog() adds one extra, unmeasured repetition
 *           that counts with the kernel's run_cnt of the program and checks
 *           it against veth's counter (the row's note); false: none (the
 *           --ab rows, which call it per window).
 * @prog_time: the XDP rows (ours and a user's program) run one extra
 *           repetition, not counted, with the kernel's BPF run-time stats on
 *           (BPF_ENABLE_STATS), and keep the program's own time per run
 *           (struct xl_row_result.prog_ns). The stats cost two clock reads
 *           per run, so the counted repetitions run without them. With
 *           @profiler the two share that repetition.
 * @companion: measurements beside every row's repetitions (a control
 *           workload, noise readings), run by the rows' plans
 *           (struct xl_plan.companion, xdplab/plan.h); NULL: none.
 * @host:    the host recorder whose companion @companion is
 *           (xdplab/hostrec.h), or NULL. A measurement of one row leaves
 *           its records to the caller; the measurements of several rows
 *           on one plan (the watch-cost sets, the meter-cost row) move
 *           them into each of their rows themselves
 *           (xl_hostrec__take_set()), since a later plan forgets them.
 */
struct xl_hostrec;

struct xl_labrun_opts {
	int reps;
	uint64_t seconds_ns, warmup_ns;
	int gen_cpu, napi_cpu;
	volatile sig_atomic_t *stop;
	uint32_t gen_batch;
	struct xl_profiler *profiler;
	bool with_perf;
	bool with_floor;
	bool program_counts;
	bool extra;
	double extra_ns;
	const struct xl_labrun_source *src;
	bool prog_count_check;
	bool prog_time;
	const struct xl_plan_companion *companion;
	struct xl_hostrec *host;
};

/** The UDP destination port of the lab's frames (discard), which stack-drop drops. */
#define XL_LABRUN_UDP_DPORT 9

/** The baselines one hook up from XDP (xl_labrun_stack()). */
enum xl_baseline {
	XL_BASE_NFT = 0, /**< "stack-drop": nftables raw prerouting UDP drop */
	XL_BASE_TC = 1,  /**< "tc-drop": a BPF program at clsact ingress */
};

struct xl_userprog_opts;
/**
 * xl_labrun_prog() - the row "prog/FUNC" of a user's XDP program (@uo:
 * object, choice, map fills; loaded and attached per repetition in the
 * DUT's netns), counted by the DUT veth's ethtool XDP counters; with
 * @o->prog_count_check an extra repetition checks the program's own run
 * count against them (labrun_prog.c).
 * Return: as xl_labrun_custom().
 */
int xl_labrun_prog(struct xl_lab *lab, const struct xl_labrun_opts *o,
		   const struct xl_userprog_opts *uo, const char *func, enum xl_xdp_mode mode,
		   uint32_t size, struct xl_row_result *row);

/**
 * xl_labrun_prog_ab() - `lab run --ab`: rows "ab-a/FUNC" (@rows[0]: the
 * object @path[0], its program @func[0]) and "ab-b/FUNC" (@rows[1]) at
 * @size, each loaded as xl_labrun_prog() does (@uo: the choice and map
 * fills; its path is replaced), measured in turn, one window each per
 * repetition, A first in even repetitions and B first in odd ones;
 * @rows[1]'s note gets B's paired difference of the CPU ns per packet
 * from A (xl_ab_compare()). @window (may be NULL) is called with @ctx
 * before each window (@side 0: A, 1: B; @rep == @o->reps: the profiled
 * repetition), e.g. for a progress line.
 * Return: 0, -EINTR when stopped, or -errno (the failed row's note says why).
 */
int xl_labrun_prog_ab(struct xl_lab *lab, const struct xl_labrun_opts *o,
		     const struct xl_userprog_opts *uo, const char *const path[2],
		     const char *const func[2], enum xl_xdp_mode mode, uint32_t size,
		     struct xl_row_result *rows, void (*window)(void *ctx, int side, int rep),
		     void *ctx);

/**
 * xl_labrun_xdp() - measure one XDP row ("drop/OP", "pass", "tx", or "pass/OP",
 * "tx/OP" with an operation other than no-touch): attach an @action/@op benchmark at
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

/**
 * xl_labrun_stack() - measure a baseline with no XDP program at the DUT:
 * row "stack-drop" (@kind XL_BASE_NFT: the kernel stack up to the raw
 * prerouting hook, where an nftables rule drops the lab's UDP frames;
 * counted by the rule's own counter, xl_nft_drop__create()) or "tc-drop"
 * (XL_BASE_TC: a BPF program at clsact ingress that counts and drops,
 * struct xl_bench_opts.tc). Same method and count check as
 * xl_labrun_xdp(); the veth counter the check reads (rx_queue_N_xdp_packets)
 * counts every frame veth's NAPI took from its ring, XDP program or not.
 * With softirq wiring GRO is turned on at the DUT end for the row (frames
 * from the generator's ndo_xdp_xmit need a NAPI there) and off after.
 * Return: as xl_labrun_xdp().
 */
int xl_labrun_stack(struct xl_lab *lab, const struct xl_labrun_opts *o, enum xl_baseline kind,
		    uint32_t size, struct xl_row_result *row);

/** The extra costs `lab run --sensitivity` tries, in ns per packet, in order. */
#define XL_SENS_LADDER { 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 1000 }

/**
 * xl_labrun_sensitivity() - for the drop row @op at @size in @mode: the
 * smallest extra CPU cost per packet that `xdplab compare` flags with
 * @o->reps repetitions. One benchmark (with the --extra-ns loop, calibrated
 * once) and one generator run for the whole search; for each cost N of
 * XL_SENS_LADDER, @o->reps windows of @o->seconds_ns with N alternate with
 * @o->reps without (N first in odd pairs, last in even ones, so a drift of
 * the host falls on both), and the two sets are compared as compare does
 * (xl_cmp_row_compare(), alpha 0.05, no threshold); an N flagged as a
 * regression is measured again, and the first N flagged twice in a row
 * ends the search (one test per step would be fooled by chance in 1 of 20
 * steps; two in a row in 1 of 400). When @o->reps a side can never reach
 * p < 0.05 nothing is measured and @res->note says so.
 * Return: 0 (@res filled), -EINTR when stopped, -errno (@res->note says
 * what failed).
 */
int xl_labrun_sensitivity(struct xl_lab *lab, const struct xl_labrun_opts *o,
			  enum xl_pkt_op op, enum xl_xdp_mode mode, uint32_t size,
			  struct xl_sens_result *res);

#endif /* XDPLAB_LABRUN_H */
