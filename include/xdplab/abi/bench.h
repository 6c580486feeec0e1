/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/bench.h
 * Layout shared by bpf/bench.bpf.c and user space: the packet operations and
 * the per-CPU counter record of the XDP benchmarks (drop, pass, tx).
 * Compiles under clang -target bpf and gcc.
 */
#ifndef XDPLAB_BENCH_SHARED_H
#define XDPLAB_BENCH_SHARED_H

#include <linux/types.h>

/** RX queues counted by --rxq-stats (per-CPU array "rxq_stats", key: the
 * frame's rx_queue_index; frames of higher queues are not counted there). */
#define XL_RXQ_MAX 64

/** What the benchmark program does to each frame before its action. */
enum xl_pkt_op {
	XL_OP_NO_TOUCH = 0,  /**< touch nothing: the pure action cost */
	XL_OP_READ_DATA = 1, /**< read the Ethernet header (dst, src, type) */
	XL_OP_PARSE_IP = 2,  /**< parse VLAN tags, IPv4/IPv6 to the L4 header */
	XL_OP_SWAP_MACS = 3, /**< write: swap source and destination MAC */
	XL_OP__COUNT,
};

/**
 * Most iterations of the --extra-ns busy loop (bpf/bench.bpf.c; four
 * dependent operations each): the verifier walks every iteration, so
 * this bounds its work (about 50 instructions each).
 */
#define XL_EXTRA_MAX_ITERS 4096

/** Number of XDP actions counted (XDP_ABORTED .. XDP_REDIRECT). */
#define XL_XDP_ACTIONS 5

/**
 * struct xl_bench_rec - one CPU's counters (a value of the per-CPU array
 * "bench_stats", key 0). Written only by the CPU that owns it, read by user
 * space summing all CPUs: no atomics in the fast path.
 * @rx_packets: frames seen by the program.
 * @rx_bytes: bytes of those frames (data_end - data; the whole frame when
 *            loaded multi-buffer, skb->len for the tc program).
 * @actions: frames per returned action, indexed by XDP action value. The
 *           drop/pass/tx and tc programs leave it 0 (one constant action:
 *           xl_bench__read() sets actions[action] = rx_packets); the
 *           redirect programs count it.
 * @errors: frames the packet operation could not handle (too short for the
 *          Ethernet header, or not parseable IP for parse-ip); they still
 *          get the configured action.
 */
struct xl_bench_rec {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 actions[XL_XDP_ACTIONS];
	__u64 errors;
} __attribute__((aligned(64)));

#ifndef __bpf__
/* The layout is an ABI between the BPF program and user space. */
_Static_assert(sizeof(struct xl_bench_rec) == 64, "struct xl_bench_rec changed size");

/**
 * xl_counter_read_fn - the one signature of a packet-counter read, whatever
 * counts (our benchmark's per-CPU map, redirect's, an nftables rule, a
 * driver's per-action XDP counters, a user program's count): the totals
 * into *@total and, when @per_cpu is not NULL, each CPU's record (at most
 * XL_MAX_CPUS, xdplab/percpu.h; zero when the source has no per-CPU
 * split). @ctx: the source's object. Return: 0 or -errno. A meter reads
 * through one (struct xl_counter_src, xdplab/meter.h); readers are
 * declared with it (xl_counter_read_fn xl_nft_drop__read;) so the
 * compiler holds each definition to it.
 */
typedef int xl_counter_read_fn(void *ctx, struct xl_bench_rec *total,
			       struct xl_bench_rec *per_cpu);
#endif

#endif /* XDPLAB_BENCH_SHARED_H */
