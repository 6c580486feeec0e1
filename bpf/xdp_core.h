/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file xdp_core.h
 * The few kernel types the tracepoint programs read, for BPF CO-RE
 * (BPF side only): each declares only the fields we read, marked
 * preserve_access_index so libbpf relocates the offsets against the
 * running kernel's BTF (/sys/kernel/btf/vmlinux). Not a vmlinux.h.
 */
#ifndef XDPLAB_XDP_CORE_H
#define XDPLAB_XDP_CORE_H

struct net_device {
	int ifindex;
} __attribute__((preserve_access_index));

/* kernel/bpf/devmap.c: the devmap entry a redirect targets. */
struct bpf_dtab_netdev {
	struct net_device *dev;
} __attribute__((preserve_access_index));

struct bpf_prog;

#endif /* XDPLAB_XDP_CORE_H */
