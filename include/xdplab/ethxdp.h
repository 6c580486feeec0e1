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
 * header, one redirected to it whole. xl_eth_xdp_peer_probe() makes
 * xl_eth_xdp_meter_read()'s bytes whole frames again: the veth peer's
 * tx_queue_N_xdp_xmit counts the frames it sent as xdp_frames (veth keeps
 * them in the receiver's rq stats, drivers/net/veth.c
 * veth_get_ethtool_stats(), and reports them as the sender's), and every
 * other frame gets its 14 bytes back.
 */
#ifndef XDPLAB_ETHXDP_H
#define XDPLAB_ETHXDP_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

#include "xdplab/abi/bench.h"

/**
 * struct xl_eth_xdp - where to read. @sock: any socket in the device's
 * netns (not owned); @ifname: the device; @queues: RX queues summed,
 * 1..XL_ETHTOOL_MAX_QUEUES
 * (xl_eth_xdp_probe() lowers it to the queues that have counters: veth
 * allocates one per possible CPU but counts only its real ones).
 * The rest is xl_eth_xdp_peer_probe()'s (zero before it):
 * @l2: the veth peer's xdp_xmit counters can be read: xl_eth_xdp_meter_read()
 *      adds XL_ETH_XDP_L2_HLEN bytes per frame that came as an skb;
 *      false: its bytes are the driver's count (an skb's without its header).
 * @peer_sock: a socket in the peer's namespace (owned when @l2;
 *      xl_eth_xdp_close() closes it); @peer_name: the peer.
 * @last_packets/@last_xmit: xdp_packets and the peer's xdp_xmit at the
 *      last read; @l2_bytes: bytes added up to it (a running total, so a
 *      window between two reads gets its own frames' share).
 */
struct xl_eth_xdp {
	int sock;
	char ifname[IF_NAMESIZE];
	int queues;
	bool l2;
	int peer_sock;
	char peer_name[IF_NAMESIZE];
	uint64_t last_packets, last_xmit, l2_bytes;
};

/** The Ethernet header veth's byte count lacks for a frame that came as an skb (bytes). */
#define XL_ETH_XDP_L2_HLEN 14

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
xl_counter_read_fn xl_eth_xdp_meter_read;

/**
 * xl_eth_xdp_l2_add() - the bytes one interval's frames lack in veth's
 * xdp_bytes: XL_ETH_XDP_L2_HLEN for each of @packets (xdp_packets' growth)
 * that was not among @xmit (the peer's xdp_xmit growth: frames sent as
 * xdp_frames, counted whole); 0 when @xmit >= @packets (frames the peer
 * put in the ring before the DUT's NAPI counted them).
 */
uint64_t xl_eth_xdp_l2_add(uint64_t packets, uint64_t xmit);

/**
 * xl_eth_xdp_peer_probe() - find the veth peer of @ifindex (the device
 * @e->ifname, in the calling thread's namespace; the peer may be in a named
 * one, /run/netns) and whether its tx_queue_N_xdp_xmit can be read; if so
 * sets @e->l2 and the peer's fields, and xl_eth_xdp_meter_read()'s bytes
 * are whole frames from its next read on.
 * Return: 0; -ENODEV (@ifindex is not a veth, or its peer is not one);
 * -ENOENT (the peer's namespace has no name, or it has no xdp_xmit
 * counters); or -errno. On error @e->l2 stays false: the bytes stay the
 * driver's count, and the caller says so.
 */
int xl_eth_xdp_peer_probe(struct xl_eth_xdp *e, int ifindex);

/**
 * xl_eth_xdp_open() - @e for @ifname (@ifindex, in the current namespace):
 * its ethtool socket made (@e->sock, the caller's to close; -1 when it
 * could not be made), its RX queues in use (xl_link_rx_queues()), then
 * xl_eth_xdp_probe(). Return: 0, -EOPNOTSUPP (no such counters), or
 * -errno.
 */
int xl_eth_xdp_open(struct xl_eth_xdp *e, const char *ifname, int ifindex);

/** xl_eth_xdp_close() - close what xl_eth_xdp_peer_probe() opened (@e->sock is the caller's). */
void xl_eth_xdp_close(struct xl_eth_xdp *e);

#endif /* XDPLAB_ETHXDP_H */
