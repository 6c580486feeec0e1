/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the lab rows (src/lib/rows/labrun*.c): what every row's code
 * shares (the generator, the benchmark in a namespace, the traffic, the
 * row's common fields, the profiled repetition, what is at the DUT end)
 * and the custom-DUT row that labrun_prog.c builds on. The commands see xdplab/labrun.h only.
 */
#ifndef XDPLAB_LABRUN_PRIV_H
#define XDPLAB_LABRUN_PRIV_H

#include "xdplab/labrun.h"
#include "xdplab/meter.h"
#include "xdplab/xsk.h"

/** What a row puts at the DUT end (struct xl_labrun_dut.kind). */
enum xl_labrun_dut_kind {
	XL_LABRUN_DUT_BENCH,  /**< our XDP or tc benchmark: @arg is its struct xl_bench_opts */
	XL_LABRUN_DUT_NFT,    /**< stack-drop's nftables rule: @arg is its UDP port (uint16_t) */
	XL_LABRUN_DUT_CUSTOM, /**< the user's own program (xl_labrun_prog()) */
};

/**
 * struct xl_labrun_dut - what a row puts at the DUT end for each
 * repetition, and how its counters are read.
 * @kind: which DUT it is; a benchmark's --extra-ns loop is calibrated by
 *     the row (its options in @arg).
 * @create: called with the thread in the DUT's netns, once per repetition:
 *     load and attach; Return: a handle, or NULL with errno.
 * @read: its counters, as struct xl_counter_src.read (@h the handle; the
 *     source is named after @kind, labrun_xdp.c).
 * @destroy: detach and free the handle.
 * @arg: passed to @create.
 * @prog_fd: the fd of the XDP program the handle @h attached (owned by
 *     @h), for its run time (`lab run --prog-time`); NULL: the DUT is no
 *     one XDP program of ours (nft).
 */
struct xl_labrun_dut {
	enum xl_labrun_dut_kind kind;
	void *(*create)(const void *arg);
	xl_counter_read_fn *read;
	void (*destroy)(void *h);
	const void *arg;
	int (*prog_fd)(void *h);
};

/**
 * xl_labrun_custom() - one row named @name (action @action, kind "xdp",
 * @mode) at @size bytes with @dut (XL_LABRUN_DUT_CUSTOM) at the DUT end,
 * measured as the XDP rows are (same repetitions, windows, count check,
 * verdict).
 * Return: 0 or -errno (the row's note says why).
 */
int xl_labrun_custom(struct xl_lab *lab, const struct xl_labrun_opts *o,
		     const struct xl_labrun_dut *dut, const char *name, const char *action,
		     enum xl_xdp_mode mode, uint32_t size, struct xl_row_result *row);

/**
 * xl_labrun_custom_ab() - two rows, @rows[0] and @rows[1] (@names[k],
 * @duts[k] at the DUT end, both XL_LABRUN_DUT_CUSTOM; otherwise as
 * xl_labrun_custom()), measured in turn, one window each per repetition,
 * A B then B A (struct xl_plan's arms, a set-up per window); @window (may
 * be NULL) is called with @ctx before each window's set-up, with its arm
 * and repetition (== @o->reps: the profiled one).
 * Return: 0 (both rows finished) or -errno (the failed row's note says
 * why; -EINTR when stopped).
 */
int xl_labrun_custom_ab(struct xl_lab *lab, const struct xl_labrun_opts *o,
			const struct xl_labrun_dut *const duts[2], const char *const names[2],
			const char *action, enum xl_xdp_mode mode, uint32_t size,
			struct xl_row_result *rows, void (*window)(void *ctx, int arm, int rep),
			void *ctx);

/**
 * xl_labrun_prof_begin() - for the profiled repetition of @row: start
 * recording @cpus (@n; the same CPU twice is recorded once, its roles
 * joined by '+'), files named after the row and its size. Return: true
 * when recording (a failure is logged and the row goes on without).
 */
bool xl_labrun_prof_begin(const struct xl_labrun_opts *o, const struct xl_row_result *row,
			  const struct xl_prof_cpu *cpus, int n);

/**
 * xl_labrun_prof_end() - stop the recording begun for @row and attach its
 * profile to it (its xl_row_part_profile part; nothing on failure, which
 * is logged).
 */
void xl_labrun_prof_end(const struct xl_labrun_opts *o, struct xl_row_result *row);

/**
 * xl_labrun_prof_window() - the profiled repetition's figures (@pps,
 * @cpu_ns_per_pkt: what recording cost) into @row's profile, when it has one.
 */
void xl_labrun_prof_window(struct xl_row_result *row, double pps, double cpu_ns_per_pkt);

/**
 * xl_labrun_row_base() - zero @row and fill what every XDP row of the lab
 * says alike: kind "xdp", @size (bytes), @mode, the lab's wiring, the NAPI
 * and generator CPUs, engine "live", judged "dut-cpu". The callers then add
 * their own (a real source interface, action, name).
 */
void xl_labrun_row_base(struct xl_row_result *row, const struct xl_lab *lab,
			const struct xl_labrun_opts *o, uint32_t size, enum xl_xdp_mode mode);

/**
 * xl_labrun_gen() - the lab's generator: live engine (packet as fallback),
 * one thread on @o->gen_cpu, @size-byte IPv4/UDP frames from the generator
 * end to the DUT end's MAC and address. Nothing is sent until
 * xl_gen__start(). Return: as xl_gen__create() (NULL with errno).
 */
struct xl_gen *xl_labrun_gen(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size);

/**
 * xl_labrun_gen_paced() - xl_labrun_gen() at @rate_pps (0: unpaced) for
 * @count frames (0: no limit) or @duration_ns (0: no limit), whichever
 * ends first (struct xl_gen_opts). Return: as xl_labrun_gen().
 */
struct xl_gen *xl_labrun_gen_paced(struct xl_lab *lab, const struct xl_labrun_opts *o,
				   uint32_t size, uint64_t rate_pps, uint64_t count,
				   uint64_t duration_ns);

/**
 * xl_labrun_xsk_config() - the AF_XDP rows' application @app at the DUT
 * end (@mode, @zerocopy, @size-byte frames, its thread on @cpu; deep rings,
 * poll() for rxdrop in XDP_DRV) into @c (labrun_xsk.c).
 */
void xl_labrun_xsk_config(struct xl_lab *lab, enum xl_xsk_app_kind app, enum xl_xdp_mode mode,
			  bool zerocopy, uint32_t size, int cpu, struct xl_xsk_config *c);

/**
 * xl_labrun_set_gro() - GRO on or off at the DUT end (gives the veth a
 * NAPI for live frames without a native XDP program; a failure is logged).
 */
void xl_labrun_set_gro(struct xl_lab *lab, bool on);

/**
 * xl_labrun_traffic_start() - start a row's traffic: the lab's generator
 * @gen (xl_gen__start()), or @o->src when set (@gen is then NULL; with
 * @o->src->start NULL the traffic is the user's and nothing is started),
 * @size-byte frames. Return: 0 or -errno.
 */
int xl_labrun_traffic_start(const struct xl_labrun_opts *o, struct xl_gen *gen, uint32_t size);

/** xl_labrun_traffic_stop() - stop it and wait for it. Return: 0 or -errno. */
int xl_labrun_traffic_stop(const struct xl_labrun_opts *o, struct xl_gen *gen);

/**
 * xl_labrun_sample_edge() - xl_meter_sample(@m, @s), taken again (5 times
 * at most) while more than 1 ms passed between our count's read and the
 * kernel's (@s->eth) and @flowing (traffic passes through the reads):
 * a preemption between the two would count as a disagreement.
 * Return: as xl_meter_sample().
 */
int xl_labrun_sample_edge(struct xl_meter *m, struct xl_meter_sample *s, bool flowing);

/**
 * xl_labrun_bench_create() - xl_bench__create() of the struct
 * xl_bench_opts at @arg, in the calling thread's namespace: multi-buffer
 * (xdp.frags) when the interface's MTU is above one buffer (said once per
 * run on stderr). The create hook of a benchmark DUT (struct
 * xl_labrun_dut). Return: as xl_bench__create() (NULL with errno).
 */
void *xl_labrun_bench_create(const void *arg);

/**
 * xl_labrun_bench() - xl_bench__create(@bo) in the namespace of @side (the
 * interface in @bo is named there); the calling thread comes back to the
 * creator's namespace. Return: as xl_bench__create() (NULL with errno).
 */
struct xl_bench *xl_labrun_bench(struct xl_lab *lab, enum xl_lab_side side,
				 const struct xl_bench_opts *bo);

#endif /* XDPLAB_LABRUN_PRIV_H */
