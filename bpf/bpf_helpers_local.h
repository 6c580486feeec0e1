/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file bpf_helpers_local.h
 * Small helpers shared by the BPF programs in bpf/ (BPF side only): bounded
 * header parsing that the verifier accepts. Kernel UAPI headers only, so the
 * build does not depend on the build host's kernel.
 */
#ifndef XDPLAB_BPF_HELPERS_LOCAL_H
#define XDPLAB_BPF_HELPERS_LOCAL_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xdplab/abi/bench.h"
#include "xdplab/abi/parse.h"

#ifndef ETH_P_8021AD
#define ETH_P_8021AD 0x88A8
#endif

/** struct xl_vlan_hdr - an 802.1Q/802.1ad tag after the MAC addresses. */
struct xl_vlan_hdr {
	__be16 tci;
	__be16 encap_proto;
};

/**
 * xl_parse_l4() - the L4 header's offset by xl_parse_l3() (abi/parse.h: the
 * parser user space runs too), for parse-ip.
 * @data, @data_end: the frame.
 * @l4_proto: out, IP protocol of the L4 header.
 * Return: offset of the L4 header in bytes (0 when the frame has none by
 * design: a non-first fragment), or -1 if the frame is not IPv4/IPv6 or is
 * truncated or malformed.
 */
static __always_inline int xl_parse_l4(void *data, void *data_end,
				       __u8 *l4_proto)
{
	struct xl_l3_info l3;

	if (xl_parse_l3(data, data_end, &l3) != XL_PARSE_OK)
		return -1;
	*l4_proto = l3.l4_proto;
	return l3.l4_off;
}

/**
 * xl_pkt_op_apply() - the benchmarks' packet operation (enum xl_pkt_op in
 * abi/bench.h; @op is a rodata constant, so the verifier keeps only the
 * branch taken): nothing, read the Ethernet header, parse to L4, or swap
 * the MACs. Return: 0, or -1 when the frame is too short or not IP for
 * parse-ip (the caller counts an error; the frame still gets its action).
 */
static __always_inline int xl_pkt_op_apply(void *data, void *data_end, __u32 op)
{
	/*
	 * Word accesses through @data, not through struct ethhdr: that struct
	 * is packed (alignment 1), so clang turns every access through it into
	 * byte loads and stores (swap-macs: 36 instead of 8). Unaligned word
	 * accesses are fine for the x86-64 and arm64 JITs; the frame's start is
	 * at least 2-byte aligned on every driver anyway.
	 */
	__u8 *p = data;

	if (op == 1 /* XL_OP_READ_DATA */) {
		volatile __u64 sink;

		if (p + ETH_HLEN > (__u8 *)data_end)
			return -1;
		/* Read dst, src and type so the cache line is really loaded. */
		sink = *(__u32 *)p ^ *(__u32 *)(p + ETH_ALEN) ^ *(__u16 *)(p + 2 * ETH_ALEN);
		(void)sink;
	} else if (op == 2 /* XL_OP_PARSE_IP */) {
		__u8 l4 = 0;

		if (xl_parse_l4(data, data_end, &l4) < 0)
			return -1;
	} else if (op == 3 /* XL_OP_SWAP_MACS */) {
		__u32 d0, s0;
		__u16 d1, s1;

		if (p + ETH_HLEN > (__u8 *)data_end)
			return -1;
		/* Every load before any store: no overlap to reason about. */
		d0 = *(__u32 *)p;
		d1 = *(__u16 *)(p + 4);
		s0 = *(__u32 *)(p + ETH_ALEN);
		s1 = *(__u16 *)(p + ETH_ALEN + 4);
		*(__u32 *)p = s0;
		*(__u16 *)(p + 4) = s1;
		*(__u32 *)(p + ETH_ALEN) = d0;
		*(__u16 *)(p + ETH_ALEN + 4) = d1;
	}
	return 0;
}

/**
 * xl_rec_rx_lin() - xl_rec_rx() for a program loaded without frags, on the
 * frame @data..@data_end its caller read from the context: count the frame
 * and its bytes, apply @op (xl_pkt_op_apply()), count an error when it
 * fails. Its caller reads the two pointers after its record's lookup
 * (bpf/bench.bpf.c): only the context pointer then lives across the
 * lookup's helper call, so the JIT saves and restores fewer registers.
 */
static __always_inline void xl_rec_rx_lin(struct xl_bench_rec *rec, void *data, void *data_end,
					  __u32 op)
{
	rec->rx_packets++;
	rec->rx_bytes += data_end - data;
	if (xl_pkt_op_apply(data, data_end, op))
		rec->errors++;
}

/**
 * xl_rec_rx() - the receive side of the benchmarks' per-CPU record (struct
 * xl_bench_rec, abi/bench.h), shared by the drop/pass/tx and redirect
 * programs: count the frame and its bytes, apply the packet operation @op
 * (xl_pkt_op_apply()) and count an error when it fails.
 * @frags: the program was loaded multi-buffer (BPF_F_XDP_HAS_FRAGS, a
 * rodata constant): the bytes are the whole frame, bpf_xdp_get_buff_len()
 * (kernel 5.18+, the verifier drops the call when @frags is 0), not only
 * the first buffer; the packet operation sees the first buffer, where the
 * headers are.
 */
static __always_inline void xl_rec_rx(struct xl_bench_rec *rec, struct xdp_md *ctx,
				      __u32 op, __u32 frags)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	if (!frags) {
		xl_rec_rx_lin(rec, data, data_end, op);
		return;
	}
	rec->rx_packets++;
	rec->rx_bytes += bpf_xdp_get_buff_len(ctx);
	if (xl_pkt_op_apply(data, data_end, op))
		rec->errors++;
}

#endif /* XDPLAB_BPF_HELPERS_LOCAL_H */
