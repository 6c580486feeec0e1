// SPDX-License-Identifier: GPL-2.0
/*
 * Counts the return codes of a user's XDP program without touching its
 * code: an fexit program attached to it (the target is set before load with
 * bpf_program__set_attach_target()). A tracing program on a BPF program
 * gets the traced program's arguments and then its return value: for an
 * XDP program ctx[0] is the xdp_md pointer and ctx[1] the action.
 * One per-CPU record (struct xl_bench_rec, as bench.bpf.c), so the meter
 * reads it like the built-in benchmarks' counters; @errors counts return
 * codes outside XDP_ABORTED..XDP_REDIRECT (the driver treats them as
 * XDP_ABORTED). rx_bytes stays 0: the frame is not read here.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xdplab/abi/bench.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_bench_rec);
} count_stats SEC(".maps");

SEC("fexit")
int xl_count_ret(__u64 *ctx)
{
	struct xl_bench_rec *rec;
	__u32 key = 0;
	__u32 act = (__u32)ctx[1];

	rec = bpf_map_lookup_elem(&count_stats, &key);
	if (!rec)
		return 0;
	rec->rx_packets++;
	if (act < XL_XDP_ACTIONS)
		rec->actions[act]++;
	else
		rec->errors++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
