// SPDX-License-Identifier: GPL-2.0
/*
 * AF_XDP steering: redirect every frame to the AF_XDP socket bound to the
 * queue it arrived on (XSKMAP keyed by RX queue index); frames of a queue
 * without a socket go to the stack (XDP_PASS as the redirect's fallback
 * action). Two entry points, the same code: xdp_xsk_redirect for ordinary
 * frames and xdp_xsk_redirect_mb (xdp.frags) for multi-buffer frames, which
 * a driver accepts only from a program declaring frags support. User space
 * loads one of them (autoload) and attaches it through a bpf_link.
 */
#include "bpf_helpers_local.h"
#include "xdplab/abi/xsk.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XL_XSK_MAP_SIZE);
	__type(key, __u32);
	__type(value, __u32);
} xsks_map SEC(".maps");

static __always_inline int redirect(struct xdp_md *ctx)
{
	return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
}

SEC("xdp")
int xdp_xsk_redirect(struct xdp_md *ctx)
{
	return redirect(ctx);
}

SEC("xdp.frags")
int xdp_xsk_redirect_mb(struct xdp_md *ctx)
{
	return redirect(ctx);
}

char LICENSE[] SEC("license") = "GPL";
