// SPDX-License-Identifier: BSD-2-Clause
/* A device's per-action XDP counters from ethtool -S (veth's names). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/bpf.h>

#include "xdplab/ethxdp.h"
#include "xdplab/netlink.h"
#include "xdplab/percpu.h"
#include "xdplab/sysstat.h"

static const char *const suffix[] = { "xdp_packets", "xdp_bytes", "xdp_drops", "xdp_tx",
				      "xdp_redirect", "xdp_tx_errors" };
#define NSUF (sizeof(suffix) / sizeof(suffix[0]))

/* The six counters' names of queues 0..@n-1, queue by queue. */
static void queue_names(char buf[][48], const char *names[], int n)
{
	size_t i;
	int q;

	for (q = 0; q < n; q++)
		for (i = 0; i < NSUF; i++) {
			snprintf(buf[q * NSUF + i], 48, "rx_queue_%d_%s", q, suffix[i]);
			names[q * NSUF + i] = buf[q * NSUF + i];
		}
}

int xl_eth_xdp_read(const struct xl_eth_xdp *e, struct xl_bench_rec *total)
{
	char buf[XL_ETHTOOL_MAX_QUEUES * NSUF][48];
	const char *names[XL_ETHTOOL_MAX_QUEUES * NSUF];
	uint64_t v[XL_ETHTOOL_MAX_QUEUES * NSUF];
	int q, n = e->queues < 1 ? 1 : e->queues > XL_ETHTOOL_MAX_QUEUES ? XL_ETHTOOL_MAX_QUEUES :
					 e->queues, got;

	/* Every queue's counters in one read (one GSTATS once resolved). */
	queue_names(buf, names, n);
	got = xl_ethtool_stats(e->sock, e->ifname, names, v, n * NSUF);
	if (got < 0)
		return got;
	if (got != n * (int)NSUF)
		return -EOPNOTSUPP;
	memset(total, 0, sizeof(*total));
	for (q = 0; q < n; q++) {
		const uint64_t *qv = &v[q * NSUF];

		total->rx_packets += qv[0];
		total->rx_bytes += qv[1];
		total->actions[XDP_DROP] += qv[2];
		/* XDP_TX frames the ring refused: the program's verdict, an error */
		total->actions[XDP_TX] += qv[3] + qv[5];
		total->errors += qv[5];
		total->actions[XDP_REDIRECT] += qv[4];
	}
	total->actions[XDP_PASS] = total->rx_packets - total->actions[XDP_DROP] -
				   total->actions[XDP_TX] - total->actions[XDP_REDIRECT];
	return 0;
}

uint64_t xl_eth_xdp_l2_add(uint64_t packets, uint64_t xmit)
{
	return packets > xmit ? (packets - xmit) * XL_ETH_XDP_L2_HLEN : 0;
}

/* The peer's frames sent into @e's device as xdp_frames, over its TX queues. */
static int peer_xmit(const struct xl_eth_xdp *e, uint64_t *xmit)
{
	return xl_ethtool_queue_sum(e->peer_sock, e->peer_name, "tx", "xdp_xmit", 0, xmit, NULL);
}

int xl_eth_xdp_meter_read(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	struct xl_eth_xdp *e = ctx;
	uint64_t xmit = 0;
	int err;

	if (per_cpu)
		memset(per_cpu, 0, xl_bench_detail_ncpus() * sizeof(*per_cpu));
	/* The sender's count first: a frame it has sent may not be counted here yet. */
	if (e->l2 && (err = peer_xmit(e, &xmit)))
		return err;
	err = xl_eth_xdp_read(e, total);
	if (err || !e->l2)
		return err;
	e->l2_bytes += xl_eth_xdp_l2_add(total->rx_packets - e->last_packets, xmit - e->last_xmit);
	e->last_packets = total->rx_packets;
	e->last_xmit = xmit;
	total->rx_bytes += e->l2_bytes;
	return 0;
}

int xl_eth_xdp_peer_probe(struct xl_eth_xdp *e, int ifindex)
{
	struct xl_link_info li, peer;
	uint64_t xmit;
	int err, sock;

	err = xl_link_get(ifindex, -1, &li);
	if (err)
		return err;
	if (strcmp(li.kind, "veth") || !li.peer_ifindex)
		return -ENODEV;
	err = xl_link_get(li.peer_ifindex, li.peer_netnsid, &peer);
	if (err)
		return err;
	if (strcmp(peer.kind, "veth"))
		return -ENODEV;
	sock = xl_link_peer_socket(&peer, li.peer_netnsid);
	if (sock < 0)
		return -ENOENT;
	e->peer_sock = sock;
	snprintf(e->peer_name, sizeof(e->peer_name), "%s", peer.name);
	err = peer_xmit(e, &xmit);
	if (err) {
		close(sock);
		e->peer_sock = -1;
		return err;
	}
	e->l2 = true;
	e->last_packets = e->last_xmit = e->l2_bytes = 0;
	return 0;
}

void xl_eth_xdp_close(struct xl_eth_xdp *e)
{
	if (e->l2)
		close(e->peer_sock);
	e->l2 = false;
}

int xl_eth_xdp_open(struct xl_eth_xdp *e, const char *ifname, int ifindex)
{
	e->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(e->ifname, sizeof(e->ifname), "%s", ifname);
	e->queues = xl_link_rx_queues(ifindex);
	if (e->sock < 0)
		return -errno;
	return xl_eth_xdp_probe(e);
}

int xl_eth_xdp_probe(struct xl_eth_xdp *e)
{
	char buf[XL_ETHTOOL_MAX_QUEUES * NSUF][48];
	const char *names[XL_ETHTOOL_MAX_QUEUES * NSUF];
	uint64_t v[XL_ETHTOOL_MAX_QUEUES * NSUF];
	int q, want = e->queues < 1 ? 1 : e->queues > XL_ETHTOOL_MAX_QUEUES ? XL_ETHTOOL_MAX_QUEUES :
					    e->queues, got;
	size_t i;

	/* One read of every queue asked for; the queues that have all six count. */
	queue_names(buf, names, want);
	got = xl_ethtool_stats(e->sock, e->ifname, names, v, want * NSUF);
	if (got < 0)
		return got;
	for (q = 0; q < want; q++) {
		for (i = 0; i < NSUF && v[q * NSUF + i] != UINT64_MAX; i++)
			;
		if (i < NSUF)
			break;
	}
	if (!q)
		return -EOPNOTSUPP;
	e->queues = q; /* veth: one queue per possible CPU, counters per real one */
	return 0;
}
