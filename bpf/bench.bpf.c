// SPDX-License-Identifier: GPL-2.0
/*
 * XDP benchmark program: applies a packet operation, counts per CPU and
 * returns a fixed action (XDP_DROP, XDP_PASS or XDP_TX). Both knobs are
 * rodata constants set before load, so the verifier prunes every branch not
 * taken and each configuration runs only its own code.
 * The same program with action XDP_DROP is the lab's sink on the generator
 * side. The counters follow xdp-bench's rx/s and err/s semantics.
 */
#include "xdplab/bpf_helpers_local.h"
#include "xdplab/bench_shared.h"

const volatile __u32 action = XDP_DROP;
const volatile __u32 pkt_op = XL_OP_NO_TOUCH;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_bench_rec);
} bench_stats SEC(".maps");

SEC("xdp")
int xdp_bench_action(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct xl_bench_rec *rec;
	__u32 key = 0;
	__u32 act = action;

	rec = bpf_map_lookup_elem(&bench_stats, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->rx_packets++;
	rec->rx_bytes += data_end - data;

	if (pkt_op == XL_OP_READ_DATA) {
		/* Read dst, src and type so the cache line is really loaded. */
		if ((void *)(eth + 1) > data_end) {
			rec->errors++;
		} else {
			volatile __u64 sink;

			sink = *(__u32 *)eth->h_dest ^ *(__u32 *)eth->h_source ^
			       eth->h_proto;
			(void)sink;
		}
	} else if (pkt_op == XL_OP_PARSE_IP) {
		__u8 l4 = 0;

		if (xl_parse_l4(data, data_end, &l4) < 0)
			rec->errors++;
	} else if (pkt_op == XL_OP_SWAP_MACS) {
		if ((void *)(eth + 1) > data_end) {
			rec->errors++;
		} else {
			__u8 tmp[ETH_ALEN];

			__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
			__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
			__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
		}
	}
	if (act < XL_XDP_ACTIONS)
		rec->actions[act]++;
	return act;
}

char LICENSE[] SEC("license") = "GPL";
