// SPDX-License-Identifier: GPL-2.0
/* Test-only object for tests/e2e/prog.sh: reject. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("xdp")
int xdp_reject(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	return data[20] ? XDP_DROP : XDP_PASS; /* no bounds check */
}
char LICENSE[] SEC("license") = "GPL";
