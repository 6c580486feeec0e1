/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/xsk_selftest.h
 * What bpf/xsk_selftest.bpf.c and the AF_XDP selftest (src/lib/xsk/
 * xsk_selftest*.c) agree on: the program's behaviour (a .bss knob set
 * before attach), its XSKMAP, and the metadata it writes in front of each
 * frame. Compiles under clang -target bpf and gcc.
 */
#ifndef XDPLAB_XSK_SELFTEST_SHARED_H
#define XDPLAB_XSK_SELFTEST_SHARED_H

#include <linux/types.h>

/** enum xl_xskst_prog - what the selftest's XDP program does to each frame. */
enum xl_xskst_prog {
	XL_XSKST_PROG_REDIRECT = 0,  /**< redirect to XSKMAP[rx queue] */
	XL_XSKST_PROG_DROP_HALF = 1, /**< XDP_DROP every other frame (the 2nd, 4th...), redirect the rest */
	XL_XSKST_PROG_TAIL = 2,      /**< bpf_xdp_adjust_tail(tail_delta) then redirect */
	XL_XSKST_PROG_META = 3,      /**< bpf_xdp_adjust_meta(-sizeof meta), write the count, redirect */
};

/** Entries of the selftest's XSKMAP (queue indexes). */
#define XL_XSKST_MAP_SIZE 16

/**
 * struct xl_xskst_meta - the metadata XL_XSKST_PROG_META puts right before
 * the frame's data: @count, the frames the program had seen before this
 * one (0, 1, 2...); @magic, XL_XSKST_META_MAGIC.
 */
struct xl_xskst_meta {
	__u32 count;
	__u32 magic;
};
#define XL_XSKST_META_MAGIC 0x584c4d44u /* "XLMD" */

#endif /* XDPLAB_XSK_SELFTEST_SHARED_H */
