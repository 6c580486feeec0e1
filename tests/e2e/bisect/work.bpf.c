// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only XDP program for tests/e2e/bisect.sh: XDP_DROP after WORK
 * multiply-adds the compiler cannot remove (an LCG step each, its value
 * kept in a register by an empty asm). The test commits it into a git
 * repository with WORK 0, then plants WORK 3000 at one commit: a slowdown
 * of a known size (~1 ns per multiply-add on this host, so ~3 us/packet).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef WORK
#define WORK 0
#endif

SEC("xdp")
int xdp_work(struct xdp_md *ctx)
{
	__u64 x = ctx->rx_queue_index + 1;
	int i;

	for (i = 0; i < WORK; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		asm volatile("" : "+r"(x));
	}
	return x == 42 ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
