/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A device's own counters from /proc/net/dev (the kernel's struct
 * rtnl_link_stats64 as text): what left a device, counted by the device.
 */
#ifndef XDPLAB_NETDEV_H
#define XDPLAB_NETDEV_H

#include <stdint.h>
#include <stdio.h>

/**
 * xl_netdev_tx_packets_from() - the TX packets of @ifname in @f, text in
 * /proc/net/dev's layout (two header lines, then "NAME: " and 8 RX and 8
 * TX counters; the 10th number is TX packets), read from its current
 * position. Return: 0 and *@out, -ENODEV (no line of @ifname) or -EPROTO
 * (its line has fewer than 10 numbers).
 */
int xl_netdev_tx_packets_from(FILE *f, const char *ifname, uint64_t *out);

/**
 * xl_netdev_tx_packets() - frames @ifname really transmitted: its TX
 * packets counter from /proc/thread-self/net/dev (the network namespace
 * this thread is in). A sent count cannot tell: a live-frames redirect the
 * device refuses fails before any driver counter moves (a veth whose peer
 * has no NAPI lacks the NDO_XMIT feature, so bpf_redirect drops in the
 * core and neither tx_queue_0_xdp_xmit_errors nor TX dropped counts it).
 * On veth TX packets include the frames its peer's NAPI took; drivers
 * differ on whether XDP transmits count there. One open and read of the
 * file per call. Return: 0 and *@out, -errno of the open, or as
 * xl_netdev_tx_packets_from().
 */
int xl_netdev_tx_packets(const char *ifname, uint64_t *out);

#endif
