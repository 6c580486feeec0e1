// SPDX-License-Identifier: GPL-2.0
/* Test-only object for tests/e2e/prog.sh: no_xdp. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
SEC("tc")
int not_xdp(struct __sk_buff *skb) { return 0; }
char LICENSE[] SEC("license") = "GPL";
