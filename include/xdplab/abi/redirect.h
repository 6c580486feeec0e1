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
	XL_CPU_ACT_DISABLED = 3, /**< no program on the entry: the kthread builds skbs for the stack */
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

/**
 * struct xl_egress_rec - the devmap egress program's counters (per-CPU
 * array "egress_stats", key 0; --load-egress). @processed: frames it saw on
 * their way out of OUT; @forwarded: sent on (source MAC set to OUT's);
 * @dropped: XDP_DROP (--egress-action drop).
 */
struct xl_egress_rec {
	__u64 processed;
	__u64 forwarded;
	__u64 dropped;
	__u64 pad[5];
} __attribute__((aligned(64)));

/** Most target CPUs of one redirect-cpu (the steering list). */
#define XL_STEER_MAX_CPUS 64

/**
 * enum xl_steer - how the ingress program picks the target CPU from the
 * list (the policies of xdp-bench redirect-cpu --program-mode, written
 * anew). An index past the list wraps (modulo the count).
 * XL_STEER_DEFAULT is resolved by user space before load (l4-hash with
 * several CPUs, no-touch with one); the program never sees it.
 */
enum xl_steer {
	XL_STEER_DEFAULT = 0,
	XL_STEER_NO_TOUCH = 1,    /**< all to the first CPU, frame not read */
	XL_STEER_TOUCH = 2,       /**< all to the first CPU, Ethernet header read */
	XL_STEER_ROUND_ROBIN = 3, /**< a turn per RX CPU (xdp-bench's): exact turns per RX CPU */
	XL_STEER_L4_PROTO = 4,    /**< TCP 1st, UDP 2nd, ICMP/ICMPv6 3rd, other IP 1st */
	XL_STEER_L4_FILTER = 5,   /**< l4-proto, and UDP to port 9 dropped on the RX CPU */
	XL_STEER_L4_SPORT = 6,    /**< L4 source port modulo the count */
	XL_STEER_L4_DPORT = 7,    /**< L4 destination port modulo the count */
	XL_STEER_L4_HASH = 8,     /**< hash of addresses, protocol and ports */
	XL_STEER__COUNT,
};

/**
 * struct xl_steer_rec - per target CPU (per-CPU array "steer_stats" keyed
 * by the target CPU's id; each CPU adds to its own copy, user space sums).
 * @steered: frames the ingress program sent to this CPU (bpf_redirect_map
 *           accepted them).
 * @enqueued/@enqueue_drops: of those, queued to / dropped at this CPU's
 *           cpumap queue (xdp_cpumap_enqueue tracepoint, its to_cpu).
 * @kthread_processed/@kthread_drops: frames this CPU's cpumap kthread took
 *           off its queue / dropped (xdp_cpumap_kthread tracepoint): the
 *           processed count with --remote-action disabled (no program).
 */
struct xl_steer_rec {
	__u64 steered;
	__u64 enqueued;
	__u64 enqueue_drops;
	__u64 kthread_processed;
	__u64 kthread_drops;
	__u64 pad[3];
} __attribute__((aligned(64)));

/**
 * struct xl_steer_miss - frames the policy could not read (per-CPU array
 * "steer_miss", key 0). They still go to the first CPU, and are counted
 * here by reason, so a spread is never skewed unseen.
 * @not_ip: well formed but neither IPv4 nor IPv6 (L4 policies only).
 * @malformed: truncated or malformed (abi/parse.h XL_PARSE_BAD).
 * @no_ports: IP without UDP/TCP ports (another protocol, a non-first
 *            fragment) for l4-sport/l4-dport/l4-hash (l4-hash then hashes
 *            the addresses and protocol alone, and still counts it here).
 * @filtered: dropped by l4-filter (UDP to port 9).
 * @redirect_errors: bpf_redirect_map() refused (no cpumap entry).
 */
struct xl_steer_miss {
	__u64 not_ip;
	__u64 malformed;
	__u64 no_ports;
	__u64 filtered;
	__u64 redirect_errors;
	__u64 pad[3];
} __attribute__((aligned(64)));

#ifndef __bpf__
/* The layout is an ABI between the BPF program and user space. */
_Static_assert(sizeof(struct xl_redir_cpu_rec) == 64, "struct xl_redir_cpu_rec changed size");
_Static_assert(sizeof(struct xl_egress_rec) == 64, "struct xl_egress_rec changed size");
_Static_assert(sizeof(struct xl_steer_rec) == 64, "struct xl_steer_rec changed size");
_Static_assert(sizeof(struct xl_steer_miss) == 64, "struct xl_steer_miss changed size");
#endif

#endif /* XDPLAB_REDIRECT_SHARED_H */
