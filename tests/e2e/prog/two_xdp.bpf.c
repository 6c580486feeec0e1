// SPDX-License-Identifier: GPL-2.0
/* Test-only object for tests/e2e/prog.sh: two_xdp. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("xdp")
int xdp_one(struct xdp_md *ctx) { return XDP_PASS; }
SEC("xdp.frags")
int xdp_two(struct xdp_md *ctx) { return XDP_DROP; }
char LICENSE[] SEC("license") = "GPL";
