// SPDX-License-Identifier: BSD-2-Clause
/*
 * redirect-cpu's round-robin turn now (bpf/redirect.bpf.c), alone: one turn
 * per RX CPU in a per-CPU array, the next index wrapped by a compare; no
 * atomic, no division. Measured against rr_turn_shared.bpf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* bpf/redirect.bpf.c's rr_turn again on purpose: the turn alone, an object of its
 * own for prog-run, differing from rr_turn_shared.bpf.c only in the map and the turn. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} rr_turn SEC(".maps");

const volatile __u32 steer_count = 2;

SEC("xdp")
int rr_turn_percpu(struct xdp_md *ctx)
{
	__u32 key = 0, idx = 0, *turn = bpf_map_lookup_elem(&rr_turn, &key);

	if (turn) {
		idx = *turn;
		*turn = idx + 1 < steer_count ? idx + 1 : 0;
	}
	return idx < 64 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
