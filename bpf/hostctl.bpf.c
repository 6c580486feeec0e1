// SPDX-License-Identifier: GPL-2.0
/*
 * The host-speed control (issue 19): a fixed amount of work per run, timed
 * with BPF_PROG_RUN on the judged CPU between a row's windows
 * (src/lib/xdp/hostctl.c). Its cost moves with the host (clock speed,
 * another guest's steal, an SMT sibling's load, interrupts) and with
 * nothing xdplab or a patched network path changes.
 *
 * The work: XL_HOSTCTL_ITERS steps of x = x * M + A (Knuth's MMIX linear
 * congruential constants), each step depending on the last, so the chain
 * runs at the core's multiply latency whatever its width. It touches no
 * memory: cache state does not move it. Every operand of the loop is kept
 * in a register (the empty asm hides the constants from clang), so the
 * loop has no immediate: constant blinding (net.core.bpf_jit_harden 2,
 * which adds instructions to every immediate) does not change its cost,
 * while it does change a program under test; the loop bound is read from
 * rodata for the same reason (the verifier knows its value: frozen rodata).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xdplab/abi/hostctl.h"

const volatile __u64 iters = XL_HOSTCTL_ITERS;

SEC("xdp")
int xdp_hostctl_fixed_work(struct xdp_md *ctx)
{
	__u64 x = ctx->data_end - ctx->data, m = 6364136223846793005ull;
	__u64 a = 1442695040888963407ull, one = 1, i, n = iters;

	asm volatile("" : "+r"(m), "+r"(a), "+r"(one));
	/* The verifier knows @n (frozen rodata): a bounded loop. */
	for (i = 0; i < n; i += one) {
		x = x * m + a;
		asm volatile("" : "+r"(x));
	}
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
