// SPDX-License-Identifier: BSD-2-Clause
/*
 * The drivers' own error counters, read in one ioctl per device: the gate
 * in front of the xdp tracepoints (include/xdplab/errgate.h says which
 * counters and why). Reading them costs the reader a system call per
 * device per interval and the datapath nothing: veth keeps them whether
 * or not anyone reads them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/ethtool.h>

#include "xdplab/errgate.h"
#include "xdplab/sysstat.h"

/* Each counter as the driver names it: the direction and the name after the queue. */
static const struct {
	const char *dir, *name, *shown;
} ctrs[XL_ERRGATE_CTRS] = {
	{ "rx", "drops", "rx_queue_N_drops" },
	{ "rx", "xdp_tx_errors", "rx_queue_N_xdp_tx_errors" },
	{ "tx", "xdp_xmit_errors", "tx_queue_N_xdp_xmit_errors" },
};

_Static_assert(XL_ERRGATE_CTRS * XL_ETHTOOL_MAX_QUEUES <= XL_ETHTOOL_MAX_NAMES,
	       "one read holds every queue's counters");

const char *xl_errgate_ctr_name(int k)
{
	return k >= 0 && k < XL_ERRGATE_CTRS ? ctrs[k].shown : "?";
}

/* One device's counters, every queue's in one read. Return: 0, -ENOENT (one lacking), -errno. */
static int read_dev(const struct xl_errgate_dev *d, uint64_t sums[XL_ERRGATE_CTRS])
{
	static __thread char bufs[XL_ERRGATE_CTRS * XL_ETHTOOL_MAX_QUEUES][ETH_GSTRING_LEN];
	const char *names[XL_ERRGATE_CTRS * XL_ETHTOOL_MAX_QUEUES];
	uint64_t v[XL_ERRGATE_CTRS * XL_ETHTOOL_MAX_QUEUES];
	bool have[XL_ERRGATE_CTRS] = { false };
	int k, q, i, err;

	for (k = 0; k < XL_ERRGATE_CTRS; k++)
		for (q = 0; q < XL_ETHTOOL_MAX_QUEUES; q++) {
			i = k * XL_ETHTOOL_MAX_QUEUES + q;
			snprintf(bufs[i], ETH_GSTRING_LEN, "%s_queue_%d_%s", ctrs[k].dir, q,
				 ctrs[k].name);
			names[i] = bufs[i];
		}
	err = xl_ethtool_stats(d->sock, d->ifname, names, v, XL_ERRGATE_CTRS * XL_ETHTOOL_MAX_QUEUES);
	if (err < 0)
		return err;
	for (k = 0; k < XL_ERRGATE_CTRS; k++) {
		sums[k] = 0;
		for (q = 0; q < XL_ETHTOOL_MAX_QUEUES; q++) {
			i = k * XL_ETHTOOL_MAX_QUEUES + q;
			if (v[i] == UINT64_MAX)
				continue;
			sums[k] += v[i];
			have[k] = true;
		}
	}
	for (k = 0; k < XL_ERRGATE_CTRS; k++)
		if (!have[k])
			return -ENOENT;
	return 0;
}

int xl_errgate_read(const struct xl_errgate_dev *devs, int n, struct xl_errgate_snap *s)
{
	int d, got = 0;

	if (n < 0 || n > XL_ERRGATE_MAX_DEVS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	for (d = 0; d < n; d++) {
		s->ok[d] = !read_dev(&devs[d], s->v[d]);
		got += s->ok[d];
	}
	return got;
}

int xl_errgate_moved(const struct xl_errgate_snap *a, const struct xl_errgate_snap *b, int n,
		     struct xl_errgate_move *out, int max)
{
	int d, k, moved = 0;

	for (d = 0; d < n && d < XL_ERRGATE_MAX_DEVS; d++) {
		if (!a->ok[d] || !b->ok[d])
			continue;
		for (k = 0; k < XL_ERRGATE_CTRS; k++) {
			if (b->v[d][k] <= a->v[d][k])
				continue;
			if (moved < max)
				out[moved] = (struct xl_errgate_move){ d, k, b->v[d][k] - a->v[d][k] };
			moved++;
		}
	}
	return moved;
}
