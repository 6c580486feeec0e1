// SPDX-License-Identifier: GPL-2.0
/* Test-only XDP program: returns an action that does not exist (7), which
 * the driver turns into XDP_ABORTED after firing xdp_exception. Built by
 * tests/e2e/redirect.sh, attached only to the test's own veth. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xl_test_bad_action(struct xdp_md *ctx)
{
	return 7;
}

char LICENSE[] SEC("license") = "GPL";
