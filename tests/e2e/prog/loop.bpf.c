// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only object for tests/e2e/prog.sh: XDP_DROP after LOOP iterations
 * of a loop the compiler cannot remove (built with -DLOOP=0 and with a
 * few hundred: the same program with an added loop, for ab).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef LOOP
#define LOOP 0
#endif

SEC("xdp")
int xdp_drop_loop(struct xdp_md *ctx)
{
	volatile __u32 x = 0;
	int i;

	for (i = 0; i < LOOP; i++)
		x += i;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
