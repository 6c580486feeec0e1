// SPDX-License-Identifier: BSD-2-Clause
/* A device's per-action XDP counters from ethtool -S (veth's names). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>

#include "xdplab/bench.h"
#include "xdplab/ethxdp.h"
#include "xdplab/sysstat.h"

static const char *const suffix[] = { "xdp_packets", "xdp_bytes", "xdp_drops", "xdp_tx",
				      "xdp_redirect" };
#define NSUF (sizeof(suffix) / sizeof(suffix[0]))

int xl_eth_xdp_read(const struct xl_eth_xdp *e, struct xl_bench_rec *total)
{
	char buf[NSUF][48];
	const char *names[NSUF];
	uint64_t v[NSUF];
	int q, n = e->queues < 1 ? 1 : e->queues > 16 ? 16 : e->queues, got;
	size_t i;

	memset(total, 0, sizeof(*total));
	for (q = 0; q < n; q++) {
		for (i = 0; i < NSUF; i++) {
			snprintf(buf[i], sizeof(buf[i]), "rx_queue_%d_%s", q, suffix[i]);
			names[i] = buf[i];
		}
		got = xl_ethtool_stats(e->sock, e->ifname, names, v, NSUF);
		if (got < 0)
			return got;
		if (got != (int)NSUF)
			return -EOPNOTSUPP;
		total->rx_packets += v[0];
		total->rx_bytes += v[1];
		total->actions[XDP_DROP] += v[2];
		total->actions[XDP_TX] += v[3];
		total->actions[XDP_REDIRECT] += v[4];
	}
	total->actions[XDP_PASS] = total->rx_packets - total->actions[XDP_DROP] -
				   total->actions[XDP_TX] - total->actions[XDP_REDIRECT];
	return 0;
}

int xl_eth_xdp_meter_read(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	if (per_cpu)
		memset(per_cpu, 0, xl_bench_ncpus() * sizeof(*per_cpu));
	return xl_eth_xdp_read(ctx, total);
}

int xl_eth_xdp_probe(struct xl_eth_xdp *e)
{
	struct xl_bench_rec r;
	int q, want = e->queues < 1 ? 1 : e->queues > 16 ? 16 : e->queues, err;

	for (q = 1; q <= want; q++) {
		e->queues = q;
		err = xl_eth_xdp_read(e, &r);
		if (err && q > 1) {
			e->queues = q - 1; /* veth: one queue per possible CPU, counters per real one */
			return 0;
		}
		if (err)
			return err;
	}
	return 0;
}
