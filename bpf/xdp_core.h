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

struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct net {
	struct ns_common ns;
} __attribute__((preserve_access_index));

/* nd_net is possible_net_t, a struct holding one struct net pointer. */
struct xl_possible_net {
	struct net *net;
} __attribute__((preserve_access_index));

struct net_device {
	int ifindex;
	struct xl_possible_net nd_net;
} __attribute__((preserve_access_index));

/* kernel/bpf/devmap.c: the devmap entry a redirect targets. */
struct bpf_dtab_netdev {
	struct net_device *dev;
} __attribute__((preserve_access_index));

struct bpf_prog;

#endif /* XDPLAB_XDP_CORE_H */
