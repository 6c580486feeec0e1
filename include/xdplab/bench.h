/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file bench.h
 * The XDP benchmarks (drop, pass, tx): the bench.bpf.c program loaded with
 * its action and packet operation, attached through a bpf_link, and its
 * per-CPU counters read and summed in user space.
 */
#ifndef XDPLAB_BENCH_H
#define XDPLAB_BENCH_H

#include <stdbool.h>

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/attach.h"
#include "xdplab/percpu.h"
#include "xdplab/abi/bench.h"

/**
 * struct xl_bench_opts - one benchmark program.
 * @action: XDP_DROP, XDP_PASS or XDP_TX.
 * @op: the packet operation.
 * @ifname: the interface (current netns); @mode: native or skb.
 * @frags: multi-buffer program (--frags).
 * @extra: load the --extra-ns busy loop (it spins 0 iterations until
 *   xl_bench__calibrate_extra() or xl_bench__set_extra_iters() sets some).
 * @frags: load the program multi-buffer (BPF_F_XDP_HAS_FRAGS, as libbpf's
 *   SEC("xdp.frags")): needed in native mode when the MTU is above what one
 *   buffer holds (a veth: about 3.5 KB, e.g. MTU 9000); rx_bytes is then the
 *   whole frame's length. Kernel 5.18+.
 * @load_bytes: apply read-data / swap-macs with bpf_xdp_load_bytes() and
 *   bpf_xdp_store_bytes() instead of direct packet access (--load-mode
 *   load-bytes; XDP only; parse-ip is direct access only: -EINVAL).
 * @rxq_stats: also count frames per RX queue (xl_bench__read_rxq(); XDP only).
 * @tc: load the tc program instead (tc_bench_drop in bpf/bench.bpf.c: the
 *      same counting, then TC_ACT_SHOT) and attach it at the clsact ingress
 *      hook with libbpf's bpf_tc_* API (a clsact qdisc is made when the
 *      interface has none, and removed again by xl_bench__destroy()).
 *      @action must be XDP_DROP; @mode is not used. Unlike an XDP link, a
 *      tc filter outlives a SIGKILLed process (the lab's namespace does not).
 * @extra_cal/@extra_ns: with @extra, calibrate the loop to @extra_ns CPU ns
 *      per packet (xl_bench__calibrate_extra()) after loading and BEFORE
 *      attaching, the result into *@extra_cal: no live frame meets the
 *      calibration's long loops or is zeroed with its counters, and no
 *      softirq of live traffic lands inside its timed runs. If it fails,
 *      create fails with that errno and @extra_cal->err says so. NULL: not
 *      calibrated; @extra_iters iterations are set before the attach
 *      (those of an earlier calibration; 0: none).
 * @driver_counts: where the device's driver keeps per-queue XDP counters
 *      (veth: rx_queue_N_xdp_*, read through ethtool with a socket of the
 *      current netns) and no option above is on, in native mode, for
 *      XDP_DROP, XDP_PASS or XDP_TX: count with them and load a program
 *      that counts nothing per frame (no-touch: one that only returns its
 *      action; the other operations count only their failures, in
 *      errors). No per-CPU split then (xl_bench__read()'s @per_cpu hold
 *      errors only). Elsewhere the program counts, as without it;
 *      xl_bench__counter() says which.
 */
struct xl_bench_opts {
	int action;
	enum xl_pkt_op op;
	const char *ifname;
	enum xl_xdp_mode mode;
	bool frags;
	bool tc;
	bool extra;
	bool load_bytes;
	bool rxq_stats;
	struct xl_extra_cal *extra_cal;
	double extra_ns;
	uint32_t extra_iters;
	bool driver_counts;
};

/** What a benchmark's counts come from (xl_bench__counter()). */
#define XL_COUNTER_DRIVER "driver:rx_queue_N_xdp_packets"
#define XL_COUNTER_PROGRAM "program:bench_stats"

/**
 * xl_bench__counter() - where @b's frames, bytes and actions are counted:
 * XL_COUNTER_DRIVER (struct xl_bench_opts.driver_counts took effect: the
 * device's per-queue XDP counters, veth's rx_queue_N_xdp_packets, _bytes
 * and per action, since the attach) or XL_COUNTER_PROGRAM (our program's
 * per-CPU map). A static string.
 */
struct xl_bench;

const char *xl_bench__counter(const struct xl_bench *b);

/**
 * xl_bench__read_rxq() - frames per RX queue since create, summed over the
 * CPUs, into @pkts[0..@n) (@n at most XL_RXQ_MAX). Return: 0, -EOPNOTSUPP
 * (not created with @rxq_stats) or -errno.
 */
int xl_bench__read_rxq(struct xl_bench *b, uint64_t *pkts, int n);

/**
 * xl_bench__create() - load and attach. Return: the benchmark (free with
 * xl_bench__destroy(), which detaches), or NULL with errno: ENODEV (no such
 * interface), EBUSY (another program is attached; message names it),
 * EPERM (no BPF permission), EINVAL (@action outside XDP_ABORTED..
 * XDP_REDIRECT, or @tc with another action than XDP_DROP), or another
 * load/attach errno.
 */
struct xl_bench *xl_bench__create(const struct xl_bench_opts *opts);

/**
 * xl_bench__read() - sum every possible CPU's record into @total and, when
 * @per_cpu is not NULL, copy the first xl_bench_detail_ncpus() CPUs'
 * records into it (an array of that many, at most XL_MAX_CPUS).
 * actions[] is filled here, not by the program: actions[@action] =
 * rx_packets (XDP_DROP for @tc), the other slots 0 (every frame the
 * program sees gets its one action). rx_bytes is counted by the program.
 * Return: 0 or -errno.
 */
int xl_bench__read(struct xl_bench *b, struct xl_bench_rec *total,
		   struct xl_bench_rec *per_cpu);

/** Most --extra-ns: 1 us of CPU per packet (XL_EXTRA_MAX_ITERS iterations of a fraction of a ns each). */
#define XL_EXTRA_NS_MAX 1000

/**
 * struct xl_extra_cal - the calibration of the --extra-ns busy loop.
 * @target_ns: CPU ns per packet asked for.
 * @ns_per_iter: CPU ns one loop iteration costs: the median over
 *   @rounds of (duration with XL_EXTRA_CAL_ITERS iterations - duration with
 *   0) / XL_EXTRA_CAL_ITERS, each duration the kernel's own average per run
 *   of BPF_PROG_RUN in repeat mode (bpf_prog_test_run_opts.duration, ns);
 *   @ns_per_iter_min/@ns_per_iter_max: the extremes of the rounds.
 * @iters: iterations set: the count whose check came nearest @target_ns,
 *   starting from round(@target_ns / @ns_per_iter) and corrected at most
 *   XL_EXTRA_CAL_STEPS - 1 times (xl_extra_next_iters()). The slope of a
 *   long loop leaves out what a short loop costs once (its exit, when
 *   mispredicted: +10..14 ns on this host) and what it overlaps with the
 *   program around it (a 14-iteration loop: slope 9.8 ns, check 8-9 ns,
 *   live program time +7..9 ns; 2026-12-07); the check sees both.
 * @set_ns: @iters x @ns_per_iter: what the loop costs by the slope alone.
 * @base_ns: the program's duration per run with 0 iterations (BPF_PROG_RUN).
 * @check_ns: measured for @iters: the mean of the middle three of five
 *   interleaved (duration with @iters - duration with 0), each duration
 *   the kernel's integer ns per run.
 * @steps: checks made (1..XL_EXTRA_CAL_STEPS).
 * @err: 0, or the calibration's -errno when xl_bench__create() failed on
 *   it (struct xl_bench_opts.extra_cal).
 */
struct xl_extra_cal {
	double target_ns, ns_per_iter, ns_per_iter_min, ns_per_iter_max;
	uint32_t iters;
	double set_ns, base_ns, check_ns;
	int rounds, steps;
	int err;
};

/** Iterations of the calibration's long runs. */
#define XL_EXTRA_CAL_ITERS 1024
/** Most checks of the iteration count (the first guess and its corrections). */
#define XL_EXTRA_CAL_STEPS 4

/**
 * xl_bench__calibrate_extra() - calibrate the busy loop of a benchmark
 * created with @extra, on the calling CPU, then set it to @ns CPU ns per
 * packet (0..XL_EXTRA_NS_MAX). Runs the program with BPF_PROG_RUN on a
 * 64-byte IPv4/UDP frame about 0.1 s in all, then zeroes its counters (call
 * it before the first xl_bench__read() of a measurement). Only while the
 * program is not attached (created with struct xl_bench_opts.extra_cal,
 * or after xl_bench__detach(); xl_bench__attach() then): live frames would
 * run the calibration's loops and be zeroed with its counters. Return: 0
 * (@cal filled), -EOPNOTSUPP (not created with @extra), -EBUSY (attached),
 * -ERANGE (@ns out of range, or more than XL_EXTRA_MAX_ITERS iterations on
 * this CPU), or -errno of BPF_PROG_RUN.
 */
int xl_bench__calibrate_extra(struct xl_bench *b, double ns, struct xl_extra_cal *cal);

/**
 * xl_bench__set_extra_iters() - set the busy loop to @iters iterations per
 * packet (from an earlier calibration; takes effect on the next packet).
 * Return: 0, -EOPNOTSUPP (not created with @extra).
 */
int xl_bench__set_extra_iters(struct xl_bench *b, uint32_t iters);

/**
 * xl_extra_iters() - iterations for @ns CPU ns per packet at @ns_per_iter:
 * round(@ns / @ns_per_iter), 0 when either is <= 0, at most
 * XL_EXTRA_MAX_ITERS.
 */
uint32_t xl_extra_iters(double ns, double ns_per_iter);

/**
 * xl_extra_next_iters() - the calibration's next count: @n iterations
 * were checked to add @check_ns CPU ns per run against the target @ns.
 * Return: 0 when @ns <= 0 (--extra-ns 0: no iterations, whatever the
 * check's noise read); @n when the check is within 0.5 ns or 3% of @ns (done);
 * otherwise @n + round((@ns - @check_ns) / per), per the check's own ns
 * per iteration (@check_ns / @n; @ns_per_iter while @n or @check_ns is
 * <= 0), moved by at least one iteration towards @ns, within
 * 0..XL_EXTRA_MAX_ITERS (so @n again at a bound: done); @n when no cost
 * per iteration is known (<= 0 or NaN) or @check_ns is NaN.
 */
uint32_t xl_extra_next_iters(uint32_t n, double check_ns, double ns, double ns_per_iter);

/**
 * xl_bench__attach() - attach the XDP program again after
 * xl_bench__detach(), to the same interface and mode, in the calling
 * thread's netns (the one it was created in). Return: 0, -EBUSY (attached),
 * -EOPNOTSUPP (a tc benchmark), or -errno of the attach.
 */
int xl_bench__attach(struct xl_bench *b);

/**
 * xl_bench__prog_fd() - the fd of the program @b loaded (owned by @b): the
 * XDP program, to attach it elsewhere (ab), or a tc benchmark's tc program
 * (its run time, lab run --prog-time).
 */
int xl_bench__prog_fd(const struct xl_bench *b);

/**
 * xl_bench__detach() - close the benchmark's own XDP link, keeping the
 * program loaded and its counters (xdplab ab makes and cuts its own links
 * to it). Detaching twice does nothing; not for @tc benchmarks.
 */
void xl_bench__detach(struct xl_bench *b);

/**
 * xl_bench__link_alive() - whether the benchmark's own XDP link still
 * holds the program on its device: one bpf(BPF_OBJ_GET_INFO_BY_FD) on the
 * link, no socket (the report loop asks once a second, XL_CMD_POLL_NS; the
 * netlink query and the name lookup it replaces opened two sockets each time).
 * Return: 0 (attached), -ENOLINK (the link was detached, e.g. by xdplab
 * cleanup, or the device went away), -EOPNOTSUPP (no link of its own: a tc
 * benchmark, or after xl_bench__detach()), or -errno.
 */
int xl_bench__link_alive(const struct xl_bench *b);

/** xl_bench__ifindex() - the interface the program is attached to. */
int xl_bench__ifindex(const struct xl_bench *b);

/**
 * xl_tc_cleanup() - delete the tc filters at @ifname's clsact ingress
 * (current netns) that run our tc_bench_drop: what a SIGKILLed tc-drop
 * row leaves (a tc filter is no bpf_link). Read with `tc -j filter show`
 * (iproute2), deleted with bpf_tc_detach(). The clsact qdisc is deleted
 * too when a tc-drop row that is gone made it (its mark in
 * XL_RUN_STATE_DIR, clsact.NETNS.IFINDEX.PID) and no filter is left on it
 * (*@qdisc_deleted says so); else it stays (it may not be ours). The next
 * tc-drop row on the interface takes such a qdisc over and deletes it
 * when done. Return: filters deleted, or -errno (-ENODEV: no such
 * interface; -EIO: tc failed).
 */
int xl_tc_cleanup(const char *ifname, bool *qdisc_deleted);

/**
 * xl_bench__destroy() - detach (close the link; for @tc, delete the filter
 * and the clsact qdisc we made, from the netns the benchmark was created
 * in, whichever netns the caller is in) and free. NULL is fine.
 */
void xl_bench__destroy(struct xl_bench *b);

/**
 * xl_bench_rec_sum() - add @n per-CPU records @recs into @total (zeroed
 * first): packets, bytes, errors and every action.
 */
void xl_bench_rec_sum(const struct xl_bench_rec *recs, int n, struct xl_bench_rec *total);

/** xl_pkt_op_name() - "no-touch", "read-data", "parse-ip", "swap-macs". */
const char *xl_pkt_op_name(enum xl_pkt_op op);

/** xl_pkt_op_parse() - the op named @s, or -EINVAL. */
int xl_pkt_op_parse(const char *s);

/** xl_xdp_action_name() - "XDP_DROP" etc.; "XDP_?" out of range. */
const char *xl_xdp_action_name(int action);

#endif /* XDPLAB_BENCH_H */
