// SPDX-License-Identifier: BSD-2-Clause
/*
 * The latency receiver (latency.h): load bpf/latency.bpf.c with its action
 * and busy wait, attach by link, sum the per-CPU records; the histogram's
 * bucket bounds and percentiles.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "latency.skel.h"
#include "xdplab/latency.h"
#include "xdplab/log.h"

struct xl_latency {
	struct latency *skel;
	int link_fd;
	int ifindex;
	int ncpus;
	struct xl_lat_rec *recs; /* ncpus, one lookup */
};

void xl_lat_bucket_bounds(uint32_t idx, uint64_t *lo, uint64_t *hi)
{
	uint32_t e, sub;

	if (idx < 8) {
		*lo = *hi = idx;
		return;
	}
	e = idx / 8 + 2;
	sub = idx % 8;
	*lo = (uint64_t)(8 + sub) << (e - 3);
	*hi = ((uint64_t)(9 + sub) << (e - 3)) - 1;
}

uint64_t xl_lat_percentile(const uint64_t hist[XL_LAT_BUCKETS], uint64_t n, double q,
			   uint64_t max_ns)
{
	uint64_t rank, seen = 0, lo, hi;
	uint32_t i;

	if (!n)
		return 0;
	rank = (uint64_t)ceil(q * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	for (i = 0; i < XL_LAT_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= rank) {
			xl_lat_bucket_bounds(i, &lo, &hi);
			return hi < max_ns ? hi : max_ns;
		}
	}
	return max_ns;
}

char *xl_lat_notes(const struct xl_lat_totals *t, char *buf, size_t len)
{
	int n = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	if (t->negative)
		n = snprintf(buf, len, "%llu stamps from another clock (negative delta), not in the percentiles",
			     (unsigned long long)t->negative);
	if (t->unset && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "%s%llu stamps of time 0 (unset), not in the percentiles",
			 n ? "; " : "", (unsigned long long)t->unset);
	return buf;
}

void xl_lat_totals_diff(const struct xl_lat_totals *a, const struct xl_lat_totals *b,
			struct xl_lat_totals *d)
{
	uint32_t i;

	*d = *b;
	d->frames = b->frames - a->frames;
	d->stamped = b->stamped - a->stamped;
	d->sum_ns = b->sum_ns - a->sum_ns;
	d->negative = b->negative - a->negative;
	d->unset = b->unset - a->unset;
	d->timed = b->timed - a->timed;
	d->reordered = b->reordered - a->reordered;
	d->duplicates = b->duplicates - a->duplicates;
	for (i = 0; i < XL_LAT_BUCKETS; i++)
		d->hist[i] = b->hist[i] - a->hist[i];
}

struct xl_latency *xl_latency__create(const struct xl_latency_opts *o)
{
	struct xl_latency *l;
	int err;

	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->link_fd = -1;
	l->ncpus = libbpf_num_possible_cpus();
	l->recs = calloc(l->ncpus > 0 ? l->ncpus : 1, sizeof(*l->recs));
	if (!l->recs) {
		err = -ENOMEM;
		goto out_free;
	}
	l->ifindex = if_nametoindex(o->ifname);
	if (!l->ifindex) {
		xl_err("interface %s: no such interface", o->ifname);
		err = -ENODEV;
		goto out_free;
	}
	l->skel = latency__open();
	if (!l->skel) {
		err = -errno;
		goto out_free;
	}
	l->skel->rodata->action = o->action;
	l->skel->rodata->busy_wait_ns = o->busy_wait_ns;
	err = latency__load(l->skel);
	if (err) {
		xl_err("cannot load the latency receiver: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		goto out_destroy;
	}
	err = xl_xdp_attach(bpf_program__fd(l->skel->progs.xdp_latency), l->ifindex, o->ifname,
			    o->mode);
	if (err < 0)
		goto out_destroy;
	l->link_fd = err;
	return l;
out_destroy:
	latency__destroy(l->skel);
out_free:
	free(l->recs);
	free(l);
	errno = -err;
	return NULL;
}

void xl_lat_sum(const struct xl_lat_rec *recs, int n, struct xl_lat_totals *t)
{
	bool any = false, any_timed = false;
	uint64_t uniq;
	int i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		const struct xl_lat_rec *r = &recs[i];

		t->frames += r->frames;
		if (!r->stamped)
			continue;
		t->stamped += r->stamped;
		t->sum_ns += r->sum_ns;
		t->negative += r->negative;
		t->unset += r->unset;
		t->timed += r->timed;
		t->reordered += r->reordered;
		t->duplicates += r->duplicates;
		for (j = 0; j < XL_LAT_BUCKETS; j++)
			t->hist[j] += r->hist[j];
		if (r->timed) {
			if (!any_timed || r->min_ns < t->min_ns)
				t->min_ns = r->min_ns;
			if (!any_timed || r->max_ns > t->max_ns)
				t->max_ns = r->max_ns;
			any_timed = true;
		}
		if (!any || r->seq_min < t->seq_first)
			t->seq_first = r->seq_min;
		if (!any || r->seq_max > t->seq_last)
			t->seq_last = r->seq_max;
		any = true;
	}
	if (any) {
		t->expected = t->seq_last - t->seq_first + 1;
		uniq = t->stamped - t->duplicates;
		t->lost = t->expected > uniq ? t->expected - uniq : 0;
	}
}

int xl_latency__read(struct xl_latency *l, struct xl_lat_totals *t)
{
	__u32 key = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lat_stats), &key, l->recs))
		return -errno;
	xl_lat_sum(l->recs, l->ncpus, t);
	return 0;
}

int xl_latency__ifindex(const struct xl_latency *l)
{
	return l->ifindex;
}

void xl_latency__destroy(struct xl_latency *l)
{
	if (!l)
		return;
	xl_xdp_link_close(l->link_fd); /* -1: nothing */
	latency__destroy(l->skel);
	free(l->recs);
	free(l);
}
