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

#include "xdplab/attach.h"
#include "xdplab/abi/bench.h"

/**
 * Most CPUs whose per-CPU detail is kept (struct xl_meter_sample's arrays,
 * the --extended lines, the CPU judged for the verdict). Totals count every
 * possible CPU however many there are: the buffers the per-CPU maps are
 * read into are sized from libbpf_num_possible_cpus() when an object is
 * created.
 */
#define XL_MAX_CPUS 256

/**
 * struct xl_bench_opts - one benchmark program.
 * @action: XDP_DROP, XDP_PASS or XDP_TX.
 * @op: the packet operation.
 * @ifname: the interface (current netns); @mode: native or skb.
 * @frags: load the program multi-buffer (BPF_F_XDP_HAS_FRAGS, as libbpf's
 *   SEC("xdp.frags")): needed in native mode when the MTU is above what one
 *   buffer holds (a veth: about 3.5 KB, e.g. MTU 9000); rx_bytes is then the
 *   whole frame's length. Kernel 5.18+.
 * @tc: load the tc program instead (tc_bench_drop in bpf/bench.bpf.c: the
 *      same counting, then TC_ACT_SHOT) and attach it at the clsact ingress
 *      hook with libbpf's bpf_tc_* API (a clsact qdisc is made when the
 *      interface has none, and removed again by xl_bench__destroy()).
 *      @action must be XDP_DROP; @mode is not used. Unlike an XDP link, a
 *      tc filter outlives a SIGKILLed process (the lab's namespace does not).
 */
struct xl_bench_opts {
	int action;
	enum xl_pkt_op op;
	const char *ifname;
	enum xl_xdp_mode mode;
	bool frags;
	bool tc;
};

struct xl_bench;

/**
 * xl_bench__create() - load and attach. Return: the benchmark (free with
 * xl_bench__destroy(), which detaches), or NULL with errno: ENODEV (no such
 * interface), EBUSY (another program is attached; message names it),
 * EPERM (no BPF permission), EINVAL (@tc with another action than
 * XDP_DROP), or another load/attach errno.
 */
struct xl_bench *xl_bench__create(const struct xl_bench_opts *opts);

/**
 * xl_bench__read() - sum every possible CPU's record into @total and, when
 * @per_cpu is not NULL, copy the first xl_bench_detail_ncpus() CPUs'
 * records into it (an array of that many, at most XL_MAX_CPUS).
 * Return: 0 or -errno.
 */
int xl_bench__read(struct xl_bench *b, struct xl_bench_rec *total,
		   struct xl_bench_rec *per_cpu);

/** xl_bench__ifindex() - the interface the program is attached to. */
int xl_bench__ifindex(const struct xl_bench *b);

/**
 * xl_bench__destroy() - detach (close the link; for @tc, delete the filter
 * and the clsact qdisc we made, from the netns the benchmark was created
 * in, whichever netns the caller is in) and free. NULL is fine.
 */
void xl_bench__destroy(struct xl_bench *b);

/**
 * xl_bench_ncpus() - possible CPUs (libbpf_num_possible_cpus()): how many
 * values a per-CPU map lookup writes, and how many CPUs totals add up.
 * 1 when the kernel does not say (a lookup would then fail, not overflow).
 */
int xl_bench_ncpus(void);

/** xl_bench_detail_ncpus() - CPUs with per-CPU detail: min(xl_bench_ncpus(), XL_MAX_CPUS). */
int xl_bench_detail_ncpus(void);

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
