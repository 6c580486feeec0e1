/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/redirect.h
 * Layout shared by bpf/redirect.bpf.c and user space: the XDP_REDIRECT
 * benchmarks' knobs and the per-CPU record of the program that runs on a
 * cpumap entry. The ingress program counts in struct xl_bench_rec
 * (abi/bench.h), so rx/s, err/s and ns/packet mean the same as for drop.
 * Compiles under clang -target bpf and gcc.
 */
#ifndef XDPLAB_REDIRECT_SHARED_H
#define XDPLAB_REDIRECT_SHARED_H

#include <linux/types.h>

/** Most OUT interfaces of redirect-multi (entries of the devmap_hash). */
#define XL_REDIR_MAX_OUT 8

/** What the program on the cpumap entry does with each frame. */
enum xl_cpu_action {
	XL_CPU_ACT_DROP = 0,     /**< XDP_DROP on the target CPU */
	XL_CPU_ACT_PASS = 1,     /**< XDP_PASS: build an skb, into the stack */
	XL_CPU_ACT_REDIRECT = 2, /**< XDP_REDIRECT again, through the devmap to OUT */
	XL_CPU_ACT__COUNT,
};

/**
 * struct xl_redir_cpu_rec - one CPU's counters of the cpumap-entry program
 * (per-CPU array "cpu_stats", key 0); written only by the CPU that runs the
 * cpumap kthread, summed by user space.
 * @processed: frames the program saw (on the target CPU).
 * @dropped/@passed/@redirected: frames per returned action.
 * @errors: XDP_REDIRECT the devmap could not take (no OUT entry).
 * @enqueued/@enqueue_drops: frames the ingress CPU queued to the cpumap and
 *          frames dropped because the cpumap queue was full (from the
 *          xdp_cpumap_enqueue tracepoint, counted on the ingress CPU).
 */
struct xl_redir_cpu_rec {
	__u64 processed;
	__u64 dropped;
	__u64 passed;
	__u64 redirected;
	__u64 errors;
	__u64 enqueued;
	__u64 enqueue_drops;
	__u64 pad;
} __attribute__((aligned(64)));

#ifndef __bpf__
/* The layout is an ABI between the BPF program and user space. */
_Static_assert(sizeof(struct xl_redir_cpu_rec) == 64, "struct xl_redir_cpu_rec changed size");
#endif

#endif /* XDPLAB_REDIRECT_SHARED_H */
