// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/xdp/ owns the device-under-test programs and their counters: the
 * DROP/PASS/TX benchmarks (bench.c), XDP_REDIRECT through devmap, cpumap
 * and broadcast (redirect.c), and the tracepoint monitor (monitor.c). See
 * docs/architecture.md.
 */
/* XDP benchmark programs: load with rodata knobs, attach by link, read per-CPU counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "xdplab/bench.h"
#include "xdplab/log.h"

struct xl_bench {
	struct bench *skel;
	int link_fd;
	int ifindex;
	int ncpus;
	struct xl_bench_rec *recs; /* ncpus: one lookup's values */
};

static const char *const op_names[XL_OP__COUNT] = {
	[XL_OP_NO_TOUCH] = "no-touch",
	[XL_OP_READ_DATA] = "read-data",
	[XL_OP_PARSE_IP] = "parse-ip",
	[XL_OP_SWAP_MACS] = "swap-macs",
};

const char *xl_pkt_op_name(enum xl_pkt_op op)
{
	return op < XL_OP__COUNT ? op_names[op] : "?";
}

int xl_pkt_op_parse(const char *s)
{
	int i;

	for (i = 0; i < XL_OP__COUNT; i++)
		if (!strcmp(s, op_names[i]))
			return i;
	return -EINVAL;
}

const char *xl_xdp_action_name(int action)
{
	static const char *const n[] = { "XDP_ABORTED", "XDP_DROP", "XDP_PASS",
					 "XDP_TX", "XDP_REDIRECT" };

	return action >= 0 && action < 5 ? n[action] : "XDP_?";
}

int xl_bench_ncpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

int xl_bench_detail_ncpus(void)
{
	int n = xl_bench_ncpus();

	return n > XL_MAX_CPUS ? XL_MAX_CPUS : n;
}

void xl_bench_rec_sum(const struct xl_bench_rec *recs, int n, struct xl_bench_rec *total)
{
	int i, j;

	memset(total, 0, sizeof(*total));
	for (i = 0; i < n; i++) {
		total->rx_packets += recs[i].rx_packets;
		total->rx_bytes += recs[i].rx_bytes;
		total->errors += recs[i].errors;
		for (j = 0; j < XL_XDP_ACTIONS; j++)
			total->actions[j] += recs[i].actions[j];
	}
}

struct xl_bench *xl_bench__create(const struct xl_bench_opts *opts)
{
	struct xl_bench *b;
	int err;

	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->link_fd = -1;
	b->ncpus = xl_bench_ncpus();
	b->recs = calloc(b->ncpus, sizeof(*b->recs));
	if (!b->recs) {
		err = -ENOMEM;
		goto out_free;
	}
	b->ifindex = if_nametoindex(opts->ifname);
	if (!b->ifindex) {
		xl_err("interface %s: no such interface", opts->ifname);
		err = -ENODEV;
		goto out_free;
	}
	b->skel = bench__open();
	if (!b->skel) {
		err = -errno;
		goto out_free;
	}
	b->skel->rodata->action = opts->action;
	b->skel->rodata->pkt_op = opts->op;
	b->skel->rodata->frags = opts->frags;
	if (opts->frags)
		xl_xdp_prog_set_frags(b->skel->progs.xdp_bench_action);
	err = bench__load(b->skel);
	if (err) {
		xl_err("cannot load the XDP program: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		goto out_destroy_skel;
	}
	err = xl_xdp_attach_frags(bpf_program__fd(b->skel->progs.xdp_bench_action),
				  b->ifindex, opts->ifname, opts->mode, opts->frags);
	if (err < 0)
		goto out_destroy_skel;
	b->link_fd = err;
	return b;
out_destroy_skel:
	bench__destroy(b->skel);
out_free:
	free(b->recs);
	free(b);
	errno = -err;
	return NULL;
}

int xl_bench__read(struct xl_bench *b, struct xl_bench_rec *total,
		   struct xl_bench_rec *per_cpu)
{
	__u32 key = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.bench_stats), &key, b->recs))
		return -errno;
	xl_bench_rec_sum(b->recs, b->ncpus, total);
	if (per_cpu)
		memcpy(per_cpu, b->recs, xl_bench_detail_ncpus() * sizeof(b->recs[0]));
	return 0;
}

int xl_bench__ifindex(const struct xl_bench *b)
{
	return b->ifindex;
}

void xl_bench__destroy(struct xl_bench *b)
{
	if (!b)
		return;
	if (b->link_fd >= 0)
		close(b->link_fd);
	bench__destroy(b->skel);
	free(b->recs);
	free(b);
}
