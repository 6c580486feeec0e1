// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP selftest's receive program (xdplab xsk selftest): steers every
 * frame to the socket of its RX queue (XSKMAP), after doing what the case
 * asks (abi/xsk_selftest.h): nothing, dropping every other frame, moving
 * the tail by tail_delta bytes (bpf_xdp_adjust_tail), or writing a count
 * as metadata in front of the frame (bpf_xdp_adjust_meta). The same cases
 * as the kernel's xskxceiver programs (tools/testing/selftests/bpf/progs/
 * xsk_xdp_progs.c), our own code. Two entry points: xdp and xdp.frags
 * (multi-buffer cases), and xdp_xskst_meta for the metadata case. The knobs are .bss, set before attach; count is
 * read back by user space.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xdplab/abi/xsk_selftest.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XL_XSKST_MAP_SIZE);
	__type(key, __u32);
	__type(value, __u32);
} xsks_map SEC(".maps");

__u32 prog_kind;  /* enum xl_xskst_prog */
__s32 tail_delta; /* XL_XSKST_PROG_TAIL: bytes added (>0) or cut (<0) */
__u32 count;      /* frames seen; the program is its only writer (one RX queue) */
__u32 tail_fail;  /* XL_XSKST_PROG_TAIL: frames bpf_xdp_adjust_tail() refused (dropped) */
__u32 tail_fail_len; /* the first refused frame's length, bytes */

static __always_inline int selftest(struct xdp_md *ctx)
{
	__u32 n = count++;

	if (prog_kind == XL_XSKST_PROG_DROP_HALF && (n & 1))
		return XDP_DROP;
	if (prog_kind == XL_XSKST_PROG_TAIL && bpf_xdp_adjust_tail(ctx, tail_delta)) {
		if (!tail_fail++)
			tail_fail_len = bpf_xdp_get_buff_len(ctx);
		return XDP_DROP;
	}
	return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_DROP);
}

SEC("xdp")
int xdp_xskst(struct xdp_md *ctx)
{
	return selftest(ctx);
}

SEC("xdp.frags")
int xdp_xskst_mb(struct xdp_md *ctx)
{
	return selftest(ctx);
}

/* Its own entry point: a kernel may refuse the helper (the case is then skipped). */
SEC("xdp")
int xdp_xskst_meta(struct xdp_md *ctx)
{
	struct xl_xskst_meta *m;
	__u32 n = count++;
	void *data;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > data)
		return XDP_DROP;
	m->count = n;
	m->magic = XL_XSKST_META_MAGIC;
	return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_DROP);
}

char LICENSE[] SEC("license") = "GPL";
