/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/xsk.h
 * What bpf/xsk.bpf.c and user space agree on: the XSKMAP's size (one entry
 * per RX queue, key = queue index, value = AF_XDP socket fd at update time).
 * Compiles under clang -target bpf and gcc.
 */
#ifndef XDPLAB_XSK_SHARED_H
#define XDPLAB_XSK_SHARED_H

/** Entries of "xsks_map": queue indexes 0 .. XL_XSK_MAP_SIZE - 1. */
#define XL_XSK_MAP_SIZE 64

#endif /* XDPLAB_XSK_SHARED_H */
