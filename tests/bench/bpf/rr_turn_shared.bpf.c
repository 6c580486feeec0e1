// SPDX-License-Identifier: BSD-2-Clause
/*
 * redirect-cpu's old round-robin turn, alone: one counter shared by every
 * RX CPU, an atomic add and a division per frame. scripts/bench.sh runs it
 * against rr_turn_percpu.bpf.c (xdplab prog-run --a/--b), so the difference
 * is the turn's own cost (docs/performance.md, "The meter's own cost").
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The same frame as rr_turn_percpu.bpf.c on purpose: the A/B pair differs in the turn only. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rr_turn SEC(".maps");

const volatile __u32 steer_count = 2;

SEC("xdp")
int rr_turn_shared(struct xdp_md *ctx)
{
	__u32 key = 0, idx = 0;
	__u64 *turn = bpf_map_lookup_elem(&rr_turn, &key);

	if (turn)
		idx = __sync_fetch_and_add(turn, 1) % steer_count;
	return idx < 64 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
