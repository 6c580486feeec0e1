// SPDX-License-Identifier: GPL-2.0
/*
 * Example XDP program for xdplab run / prog-run / ab (docs/own-program.md):
 * a reflection-DDoS filter. It drops
 *   - IPv4 frames whose source address is in a blocked prefix (LPM trie
 *     "blocked_src", filled from examples/blocked_src.txt), and
 *   - IPv4 UDP frames whose source port is a blocked one (array
 *     "blocked_sport", 65536 one-byte flags, from examples/blocked_sport.txt:
 *     chargen 19, NTP 123, SSDP 1900, memcached 11211: the usual
 *     amplification reflectors),
 * and passes everything else (ARP, IPv6, other traffic) to the stack.
 * Built with -DXL_EXTRA_LOOKUP (ddos_filter_extra.bpf.c) it does a second,
 * useless trie lookup per IPv4 frame: the variant an A/B should find slower.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct src_key {
	__u32 prefixlen; /* bits of addr that count */
	__u32 addr;      /* IPv4 address, network order */
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 4096);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct src_key);
	__type(value, __u32);
} blocked_src SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} blocked_sport SEC(".maps");

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

SEC("xdp")
int xdp_ddos_filter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct src_key key;
	struct iphdr *iph;
	struct udphdr *udph;
	void *pos = eth + 1;
	__u16 proto;
	__u32 sport;
	__u8 *flag;

	if (pos > data_end)
		return XDP_DROP; /* not even an Ethernet header */
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD)) {
		struct vlan_hdr *vh = pos;

		if ((void *)(vh + 1) > data_end)
			return XDP_DROP;
		proto = vh->proto;
		pos = vh + 1;
	}
	if (proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = pos;
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	key.prefixlen = 32;
	key.addr = iph->saddr;
	if (bpf_map_lookup_elem(&blocked_src, &key))
		return XDP_DROP;
#ifdef XL_EXTRA_LOOKUP
	/* Deliberately wasted work: the same lookup with the destination. */
	key.addr = iph->daddr;
	if (bpf_map_lookup_elem(&blocked_src, &key))
		key.prefixlen = 0; /* the result is not used; the call stays */
#endif
	if (iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udph = pos + iph->ihl * 4;
	if (iph->ihl < 5 || (void *)(udph + 1) > data_end)
		return XDP_PASS;
	sport = bpf_ntohs(udph->source);
	flag = bpf_map_lookup_elem(&blocked_sport, &sport);
	if (flag && *flag)
		return XDP_DROP;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
