/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/dump.h
 * Layout shared by bpf/dump.bpf.c and user space (src/lib/xdp/dump.c): the
 * ring-buffer record of one captured frame and the per-CPU counters of the
 * capture hook. Compiles under clang -target bpf and gcc.
 */
#ifndef XDPLAB_DUMP_SHARED_H
#define XDPLAB_DUMP_SHARED_H

#include <linux/types.h>

/** Where a record was taken. */
enum xl_dump_hook {
	XL_DUMP_HOOK_OWN = 0,	/**< our XDP program on the interface */
	XL_DUMP_HOOK_ENTRY = 1, /**< fentry of the program already attached */
	XL_DUMP_HOOK_EXIT = 2,	/**< fexit of that program (after it ran) */
	XL_DUMP_HOOKS,
};

/** Most bytes of a frame a record holds (the largest snaplen). */
#define XL_DUMP_MAX_SNAPLEN 16384u

/**
 * struct xl_dump_hdr - the head of one ring-buffer record; @caplen bytes of
 * the frame follow it (the record is reserved in one of a few fixed sizes,
 * so bytes after @caplen are padding).
 * @ts_ns: bpf_ktime_get_ns() at the hook (CLOCK_MONOTONIC, ns).
 * @len: the frame's length in bytes (linear part plus fragments).
 * @caplen: bytes copied (min(@len, snaplen); only the linear part at the
 *          fentry/fexit hooks).
 * @hook: enum xl_dump_hook. @action: the XDP action at the exit hook, the
 *        action returned by our program at the own hook, 0xffff at entry.
 * @ifindex: the receiving interface; @rxq: its RX queue index.
 */
struct xl_dump_hdr {
	__u64 ts_ns;
	__u32 len;
	__u32 caplen;
	__u16 hook;
	__u16 action;
	__u32 ifindex;
	__u32 rxq;
	__u32 pad;
};

/**
 * struct xl_dump_stats - one CPU's counters of the capture hook (a value of
 * the per-CPU array "dump_stats", key = enum xl_dump_hook). Written only by
 * the CPU that owns it.
 * @seen: frames the hook saw; @seen_bytes: their bytes (@len).
 * @ring_full: frames not captured because the ring buffer had no room
 *             (bpf_ringbuf_reserve failed; also the copy failing, which
 *             a frame of @len bytes should never make happen): the loss.
 * @truncated: captured frames cut to the snaplen (@caplen < @len).
 * @wakeups: records submitted with BPF_RB_FORCE_WAKEUP.
 * @actions: frames per XDP action at the hook (exit and own hooks).
 */
struct xl_dump_stats {
	__u64 seen;
	__u64 seen_bytes;
	__u64 ring_full;
	__u64 truncated;
	__u64 wakeups;
	__u64 actions[5]; /* indexed by XDP action, XDP_ABORTED..XDP_REDIRECT */
	__u64 pad[6];
} __attribute__((aligned(64)));

#ifndef __bpf__
_Static_assert(sizeof(struct xl_dump_hdr) == 32, "struct xl_dump_hdr changed size");
_Static_assert(sizeof(struct xl_dump_stats) == 128, "struct xl_dump_stats changed size");
#endif

#endif /* XDPLAB_DUMP_SHARED_H */
