// SPDX-License-Identifier: GPL-2.0
/* Test-only XDP program: returns an action that does not exist
 * (XL_BAD_ACTION, 7 unless the build gives another), which the driver turns
 * into XDP_ABORTED after firing xdp_exception. Built by tests/e2e/redirect.sh
 * with an action of its own per run (the raw_tp monitor sees no device, so
 * the action is what tells this run's exceptions from another's), attached
 * only to the test's own veth. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef XL_BAD_ACTION
#define XL_BAD_ACTION 7
#endif

SEC("xdp")
int xl_test_bad_action(struct xdp_md *ctx)
{
	return XL_BAD_ACTION;
}

char LICENSE[] SEC("license") = "GPL";
