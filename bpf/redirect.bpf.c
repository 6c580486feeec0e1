// SPDX-License-Identifier: GPL-2.0
/*
 * XDP_REDIRECT benchmark programs. Each ingress program applies the packet
 * operation (as bench.bpf.c does), counts in the same per-CPU record, and
 * redirects through a map:
 *  - xdp_redir_devmap: bpf_redirect_map() into a devmap (one OUT, key 0);
 *  - xdp_redir_cpumap: into a cpumap entry (the target CPU), where
 *    xdp_redir_cpu_prog runs in the cpumap kthread and drops, passes or
 *    redirects again through the devmap;
 *  - xdp_redir_multi: BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS over a
 *    devmap_hash keyed by ifindex (kernel 5.13, commit e624d4ed4aa8
 *    "xdp: Extend xdp_redirect_map with broadcast support").
 * A failed bpf_redirect_map() returns XDP_ABORTED (flags 0) and counts as an
 * error. Knobs are rodata constants, so each configuration runs only its code.
 */
#include "bench_stats.h"
#include "xdplab/abi/redirect.h"
#include <bpf/bpf_tracing.h>

const volatile __u32 pkt_op = XL_OP_NO_TOUCH;
const volatile __u32 target_cpu = 0;
const volatile __u32 cpu_action = XL_CPU_ACT_DROP;
/* 1: loaded with BPF_F_XDP_HAS_FRAGS (--frags), frames may span buffers. */
const volatile __u32 frags = 0;
/* Set after load: the id of our cpumap, to filter its tracepoint. */
volatile __u32 cpumap_id = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_redir_cpu_rec);
} cpu_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, XL_REDIR_MAX_OUT + 1);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_multi SEC(".maps");

/* max_entries is set to the number of possible CPUs before load. */
struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cpu_map SEC(".maps");

/* Count the frame and apply the packet operation; NULL: no record. */
static __always_inline struct xl_bench_rec *rx_count(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec;

	rec = xl_bench_rec_this_cpu();
	if (!rec)
		return NULL;
	xl_rec_rx(rec, ctx, pkt_op, frags);
	return rec;
}

static __always_inline int rx_done(struct xl_bench_rec *rec, long act)
{
	if (act != XDP_REDIRECT)
		rec->errors++;
	if (act >= 0 && act < XL_XDP_ACTIONS)
		rec->actions[act]++;
	return act;
}

SEC("xdp")
int xdp_redir_devmap(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);

	if (!rec)
		return XDP_ABORTED;
	return rx_done(rec, bpf_redirect_map(&tx_port, 0, 0));
}

SEC("xdp")
int xdp_redir_cpumap(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);

	if (!rec)
		return XDP_ABORTED;
	return rx_done(rec, bpf_redirect_map(&cpu_map, target_cpu, 0));
}

SEC("xdp")
int xdp_redir_multi(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);

	if (!rec)
		return XDP_ABORTED;
	return rx_done(rec, bpf_redirect_map(&tx_multi, 0,
					     BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS));
}

/* Runs in the cpumap kthread of the target CPU. */
SEC("xdp/cpumap")
int xdp_redir_cpu_prog(struct xdp_md *ctx)
{
	struct xl_redir_cpu_rec *rec;
	__u32 key = 0;
	long act;

	rec = bpf_map_lookup_elem(&cpu_stats, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->processed++;
	if (cpu_action == XL_CPU_ACT_PASS) {
		rec->passed++;
		return XDP_PASS;
	}
	if (cpu_action == XL_CPU_ACT_REDIRECT) {
		act = bpf_redirect_map(&tx_port, 0, 0);
		if (act == XDP_REDIRECT)
			rec->redirected++;
		else
			rec->errors++;
		return act;
	}
	rec->dropped++;
	return XDP_DROP;
}

/* Queue-full drops of our cpumap, counted on the enqueuing CPU. Attached
 * only for redirect-cpu; fires once per bulk flush (up to 8 frames). */
SEC("tp_btf/xdp_cpumap_enqueue")
int BPF_PROG(xdp_redir_enqueue_tp, int map_id, unsigned int processed,
	     unsigned int drops, int to_cpu)
{
	struct xl_redir_cpu_rec *rec;
	__u32 key = 0;

	if ((__u32)map_id != cpumap_id)
		return 0;
	rec = bpf_map_lookup_elem(&cpu_stats, &key);
	if (!rec)
		return 0;
	rec->enqueued += processed - drops;
	rec->enqueue_drops += drops;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
