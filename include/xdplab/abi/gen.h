/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/gen.h
 * Layout shared by bpf/gen.bpf.c and user space: the live-frames traffic
 * generator's flow table.
 */
#ifndef XDPLAB_GEN_SHARED_H
#define XDPLAB_GEN_SHARED_H

#include <linux/types.h>

/** Most flows the generator rotates through (UDP source ports). */
#define XL_GEN_MAX_FLOWS 65536

/**
 * struct xl_gen_flow - one flow: the UDP source port and the UDP checksum of
 * the template frame with that port, both in network byte order, computed in
 * user space by the packet builder so the BPF side does no checksum math.
 * Value of the array map "flows", keys 0 .. nr_flows-1.
 */
struct xl_gen_flow {
	__u16 src_port;
	__u16 udp_csum;
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
_Static_assert(sizeof(struct xl_gen_flow) == 4, "struct xl_gen_flow changed size");
_Static_assert(sizeof(struct xl_gen_cpu) == 64, "struct xl_gen_cpu changed size");
#endif

#endif /* XDPLAB_GEN_SHARED_H */
