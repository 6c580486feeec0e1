/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file ethxdp.h
 * A device's own per-action XDP counters, read through ethtool -S
 * (SIOCETHTOOL), so a user's program's actions are counted without any code
 * of ours near it. Drivers whose names are known: veth
 * (rx_queue_N_xdp_packets, _xdp_bytes, _xdp_drops, _xdp_tx,
 * _xdp_redirect, _xdp_tx_errors). veth counts XDP_ABORTED and invalid
 * actions inside xdp_drops, so XL_XDP_ABORTED stays 0 and XDP_PASS is
 * packets less the others; an XDP_TX frame its ring refused
 * (_xdp_tx_errors: the peer has no NAPI, or its ring is full) is an
 * XDP_TX verdict and an error. Bytes are what veth counts: a frame that
 * came through the stack (a sender's skb) without its 14-byte Ethernet
 * header, one redirected to it whole.
 */
#ifndef XDPLAB_ETHXDP_H
#define XDPLAB_ETHXDP_H

#include <net/if.h>

#include "xdplab/abi/bench.h"

/**
 * struct xl_eth_xdp - where to read. @sock: any socket in the device's
 * netns (not owned); @ifname: the device; @queues: RX queues summed,
 * 1..XL_ETHTOOL_MAX_QUEUES
 * (xl_eth_xdp_probe() lowers it to the queues that have counters: veth
 * allocates one per possible CPU but counts only its real ones).
 */
struct xl_eth_xdp {
	int sock;
	char ifname[IF_NAMESIZE];
	int queues;
};

/**
 * xl_eth_xdp_read() - the device's counters since it was created, summed
 * over @e->queues, into @total: rx_packets (frames run through XDP),
 * rx_bytes, actions[XDP_DROP/PASS/TX/REDIRECT]. Return: 0, -EOPNOTSUPP
 * (the driver has no such counters), or -errno.
 */
int xl_eth_xdp_read(const struct xl_eth_xdp *e, struct xl_bench_rec *total);

/**
 * xl_eth_xdp_probe() - whether the device has the counters; lowers
 * @e->queues to the queues that have them. Return: 0, -EOPNOTSUPP, -errno.
 */
int xl_eth_xdp_probe(struct xl_eth_xdp *e);

/**
 * xl_eth_xdp_meter_read() - xl_eth_xdp_read() as struct xl_counter_src.read
 * (@ctx: the struct xl_eth_xdp): no per-CPU split, @per_cpu (when not NULL,
 * xl_bench_detail_ncpus() records) all zero, so the meter judges the CPU
 * with the most softirq time.
 */
int xl_eth_xdp_meter_read(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu);

#endif /* XDPLAB_ETHXDP_H */
