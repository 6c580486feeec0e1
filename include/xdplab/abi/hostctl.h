/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host-speed control's program (bpf/hostctl.bpf.c) and its loader
 * (src/lib/xdp/hostctl.c) agree on its fixed work: XL_HOSTCTL_ITERS steps
 * of a dependent 64-bit multiply-add chain per run.
 */
#ifndef XDPLAB_ABI_HOSTCTL_H
#define XDPLAB_ABI_HOSTCTL_H

/* Steps per run: about 1 us of work on a 2-3 GHz core (the kernel's
 * duration is an integer in ns per run: 0.1% resolution). */
#define XL_HOSTCTL_ITERS 512

#endif /* XDPLAB_ABI_HOSTCTL_H */
