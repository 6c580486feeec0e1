/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/gen.h
 * Layout shared by bpf/gen.bpf.c and user space: the live-frames traffic
 * generator's flow table.
 */
#ifndef XDPLAB_GEN_SHARED_H
#define XDPLAB_GEN_SHARED_H

#include <linux/types.h>

/** Most flows the generator rotates through (ports x destination ports x source addresses). */
#define XL_GEN_MAX_FLOWS 65536

/**
 * struct xl_gen_flow - one flow: what differs from the template frame, all
 * in network byte order, computed in user space by the packet builder (so
 * the BPF side does no checksum math): the L4 source and destination
 * ports, the low 16 bits of the source address (IPv4 bytes 2-3, IPv6
 * bytes 14-15), the UDP/TCP checksum and the IPv4 header checksum of the
 * frame built with them. Value of the array map "flows", keys 0 ..
 * nr_flows-1 (flow i: source port i % ports, destination port
 * (i / ports) % dst_ports, source address i / (ports * dst_ports)).
 */
struct xl_gen_flow {
	__u16 src_port;
	__u16 dst_port;
	__u16 saddr_lo;
	__u16 l4_csum;
	__u16 ip_csum;
	__u16 pad[3];
};

/**
 * struct xl_gen_cpu - per-CPU generator state ("gen_state" per-CPU array,
 * key 0). @next: index of the next flow to write on this CPU.
 * @frames: frames this CPU's program redirected.
 */
struct xl_gen_cpu {
	__u64 next;
	__u64 frames;
} __attribute__((aligned(64)));

#ifndef __bpf__
/* The layout is an ABI between the BPF program and user space. */
_Static_assert(sizeof(struct xl_gen_flow) == 16, "struct xl_gen_flow changed size");
_Static_assert(sizeof(struct xl_gen_cpu) == 64, "struct xl_gen_cpu changed size");
#endif

#endif /* XDPLAB_GEN_SHARED_H */
