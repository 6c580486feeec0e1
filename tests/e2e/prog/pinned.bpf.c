// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only object for tests/e2e/prog.sh (run_pin_by_name): XDP_DROP and a
 * frame counter in a map pinned by name (LIBBPF_PIN_BY_NAME), the way
 * xdp-tools' programs share maps; xdplab must pin it under a per-run
 * directory of its own and remove it at exit.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} pinned_count SEC(".maps");

SEC("xdp")
int xdp_drop_pinned(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&pinned_count, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
