// SPDX-License-Identifier: BSD-2-Clause
/* A device's per-action XDP counters from ethtool -S (veth's names). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "xdplab/ethxdp.h"
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

int xl_eth_xdp_meter_read(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	if (per_cpu)
		memset(per_cpu, 0, xl_bench_detail_ncpus() * sizeof(*per_cpu));
	return xl_eth_xdp_read(ctx, total);
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
