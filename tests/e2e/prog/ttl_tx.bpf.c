// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only object for tests/e2e/prog.sh: a router's forwarding step.
 * IPv4 with a TTL above 1: decrement it (checksum updated, RFC 1624),
 * swap the MACs and XDP_TX; a TTL of 1 or 0: XDP_DROP; not IPv4: XDP_PASS.
 * It changes every frame it sends, so --repeat N runs it over the frame
 * the run before left: from TTL 64, the 64th run and after drop.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_ttl_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	unsigned char tmp[ETH_ALEN];
	__u32 csum;

	if ((void *)(ip + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (ip->ttl <= 1)
		return XDP_DROP;
	/* TTL is the high byte of its 16-bit word: the word drops by 0x0100. */
	ip->ttl--;
	csum = (__u32)ip->check + bpf_htons(0x0100);
	ip->check = (__u16)(csum + (csum >> 16));
	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
