// SPDX-License-Identifier: GPL-2.0
/* Test-only object for tests/e2e/prog.sh: devmap. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_DEVMAP); __uint(max_entries, 4); __type(key, __u32); __type(value, __u32); } tx_port SEC(".maps");
SEC("xdp")
int xdp_fwd(struct xdp_md *ctx) { return bpf_redirect_map(&tx_port, 0, 0); }
char LICENSE[] SEC("license") = "GPL";
