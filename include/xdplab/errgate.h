/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file errgate.h
 * The error counters a device's driver already keeps, read to decide when
 * the xdp tracepoints are worth attaching (`monitor --lazy`, the lab's
 * `redirect+mon-lazy` row): while none of them moves, nothing of ours runs
 * in the kernel. The counters (veth's names; `ethtool -S`), each summed
 * over the device's queues 0..XL_ETHTOOL_MAX_QUEUES-1 that have it:
 * - rx_queue_N_drops: frames the device's XDP program returned XDP_REDIRECT
 *   for that xdp_do_redirect() refused (the target down: ENETDOWN, without
 *   NAPI: EOPNOTSUPP, too big, ...), and XDP_TX frames it could not queue;
 *   what the tracepoint xdp_redirect_err reports one by one;
 * - rx_queue_N_xdp_tx_errors: XDP_TX frames the device's own ring refused;
 * - tx_queue_N_xdp_xmit_errors: frames redirected to this device that its
 *   ndo_xdp_xmit() refused (the peer's ring full, no NAPI there): the
 *   drops that xdp_devmap_xmit reports per bulk.
 * What no driver counter shows, and so is not seen until another counter
 * moves: XDP_ABORTED on veth (counted with XDP_DROP in rx_queue_N_xdp_drops)
 * and cpumap's queue-full drops (xdp_cpumap_enqueue). Source: the kernel's
 * drivers/net/veth.c (veth_xdp_rcv_one(), veth_xdp_xmit(),
 * veth_get_ethtool_stats()).
 */
#ifndef XDPLAB_ERRGATE_H
#define XDPLAB_ERRGATE_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

/** Most devices a gate watches (as the monitor's device filter). */
#define XL_ERRGATE_MAX_DEVS 8
/** Counters read per device (xl_errgate_ctr_name()). */
#define XL_ERRGATE_CTRS 3

/**
 * struct xl_errgate_dev - one device to watch. @sock: any socket in its
 * netns (not owned); @ifname: its name there.
 */
struct xl_errgate_dev {
	int sock;
	char ifname[IF_NAMESIZE];
};

/**
 * struct xl_errgate_snap - the counters of every device at one read.
 * @v[d][k]: device d's counter k (xl_errgate_ctr_name(k)), summed over its
 * queues; @ok[d]: device d was read and has all XL_ERRGATE_CTRS counters.
 */
struct xl_errgate_snap {
	uint64_t v[XL_ERRGATE_MAX_DEVS][XL_ERRGATE_CTRS];
	bool ok[XL_ERRGATE_MAX_DEVS];
};

/** struct xl_errgate_move - counter @ctr of device @dev moved by @delta (> 0). */
struct xl_errgate_move {
	int dev, ctr;
	uint64_t delta;
};

/** xl_errgate_ctr_name() - "rx_queue_N_drops", ...; "?" out of range. */
const char *xl_errgate_ctr_name(int k);

/**
 * xl_errgate_read() - read the counters of @devs[0..@n) into @s (one
 * ETHTOOL_GSTATS ioctl per device, names resolved once: xl_ethtool_stats()).
 * A device that cannot be read, or lacks one of the counters (a driver
 * other than veth), has @s->ok false. Return: how many devices were read,
 * or -EINVAL when @n is out of 0..XL_ERRGATE_MAX_DEVS.
 */
int xl_errgate_read(const struct xl_errgate_dev *devs, int n, struct xl_errgate_snap *s);

/**
 * xl_errgate_moved() - the counters that grew from @a to @b (devices read
 * in both), up to @max into @out, in device then counter order. A counter
 * that went down (the device was recreated) is not a move. Return: how
 * many moved (may exceed @max).
 */
int xl_errgate_moved(const struct xl_errgate_snap *a, const struct xl_errgate_snap *b, int n,
		     struct xl_errgate_move *out, int max);

#endif /* XDPLAB_ERRGATE_H */
