// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/xdp/ owns the device-under-test programs and their counters: the
 * DROP/PASS/TX benchmarks (bench.c), XDP_REDIRECT through devmap, cpumap
 * and broadcast (redirect.c), and the tracepoint monitor (monitor.c). See
 * docs/architecture.md.
 */
/* XDP benchmark programs: load with rodata knobs, attach by link, read per-CPU counters. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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
	/* tc: the hook and filter to delete, and the netns they are in. */
	bool tc, tc_hook_made;
	int tc_ns_fd;
	struct bpf_tc_hook hook;
	struct bpf_tc_opts tc_opts;
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

/*
 * The clsact ingress hook: make the qdisc if there is none (-EEXIST: keep
 * the one there and leave it at destroy), then one filter running @prog_fd
 * in direct-action mode. Return: 0 or -errno.
 */
static int tc_attach(struct xl_bench *b, int prog_fd, const char *ifname)
{
	int err;

	b->hook = (struct bpf_tc_hook){ .sz = sizeof(b->hook), .ifindex = b->ifindex,
					.attach_point = BPF_TC_INGRESS };
	b->tc_opts = (struct bpf_tc_opts){ .sz = sizeof(b->tc_opts), .prog_fd = prog_fd };
	err = bpf_tc_hook_create(&b->hook);
	if (err && err != -EEXIST) {
		xl_err("interface %s: cannot add a clsact qdisc: %s", ifname, strerror(-err));
		return err;
	}
	b->tc_hook_made = !err;
	err = bpf_tc_attach(&b->hook, &b->tc_opts);
	if (err) {
		xl_err("interface %s: cannot attach the tc program at clsact ingress: %s", ifname,
		       strerror(-err));
		if (b->tc_hook_made) {
			b->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
			bpf_tc_hook_destroy(&b->hook);
		}
		return err;
	}
	b->tc_ns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	return 0;
}

/* Delete the filter (and the qdisc we made) from the netns they are in. */
static void tc_detach(struct xl_bench *b)
{
	int here = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	bool moved = b->tc_ns_fd >= 0 && here >= 0 && !setns(b->tc_ns_fd, CLONE_NEWNET);
	struct bpf_tc_opts o = { .sz = sizeof(o), .handle = b->tc_opts.handle,
				 .priority = b->tc_opts.priority };
	int err;

	err = bpf_tc_detach(&b->hook, &o);
	if (err)
		xl_warn("ifindex %d: cannot delete the tc filter: %s", b->ifindex, strerror(-err));
	if (b->tc_hook_made) {
		b->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&b->hook);
	}
	if (moved && setns(here, CLONE_NEWNET))
		xl_err("cannot return to the caller's network namespace: %s", strerror(errno));
	if (here >= 0)
		close(here);
	if (b->tc_ns_fd >= 0)
		close(b->tc_ns_fd);
}

struct xl_bench *xl_bench__create(const struct xl_bench_opts *opts)
{
	struct xl_bench *b;
	int err;

	if (opts->tc && opts->action != XDP_DROP) {
		xl_err("tc benchmark: only the drop action is supported");
		errno = EINVAL;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->link_fd = -1;
	b->tc_ns_fd = -1;
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
	bpf_program__set_autoload(b->skel->progs.xdp_bench_action, !opts->tc);
	bpf_program__set_autoload(b->skel->progs.tc_bench_drop, opts->tc);
	err = bench__load(b->skel);
	if (err) {
		xl_err("cannot load the XDP program: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		goto out_destroy_skel;
	}
	if (opts->tc) {
		err = tc_attach(b, bpf_program__fd(b->skel->progs.tc_bench_drop), opts->ifname);
		if (err)
			goto out_destroy_skel;
		b->tc = true;
		return b;
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
	if (b->tc)
		tc_detach(b);
	bench__destroy(b->skel);
	free(b->recs);
	free(b);
}
