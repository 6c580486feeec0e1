// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only tc egress program for tests/e2e (probe-peer-vlan): pushes one
 * VLAN tag on every frame with bpf_skb_vlan_push(), as a VLAN device would
 * (this kernel has neither 8021q nor act_vlan). The tag starts as skb
 * metadata; the device's tx VLAN offload decides whether it is written into
 * the frame (off) or travels beside it (on). -DPROTO=0x88A8 for 802.1ad.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#ifndef PROTO
#define PROTO 0x8100
#endif

SEC("tc")
int tc_vlan_push(struct __sk_buff *skb)
{
	bpf_skb_vlan_push(skb, bpf_htons(PROTO), 10);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
