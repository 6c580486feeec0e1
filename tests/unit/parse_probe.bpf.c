// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only XDP program for tests/unit/test_bpf_ops.c: runs the one
 * network-layer parser (xl_parse_l3, include/xdplab/abi/parse.h) and the
 * parse-ip operation's xl_parse_l4() on the frame given by BPF_PROG_RUN and
 * leaves what they found in globals the test reads through the skeleton,
 * so the BPF side can be compared with xl_pkt_parse() frame by frame.
 */
#include "bpf_helpers_local.h"

int ret_l3 = 0;
int ret_l4 = 0;
__u8 l4_proto_l4 = 0;
struct xl_l3_info l3 = {};

SEC("xdp")
int xdp_parse_probe(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xl_l3_info info;
	__u8 proto = 0;

	ret_l3 = xl_parse_l3(data, data_end, &info);
	l3 = info;
	ret_l4 = xl_parse_l4(data, data_end, &proto);
	l4_proto_l4 = proto;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
