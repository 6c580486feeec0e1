/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the XDP benchmark (bench.c: loading, attaching, reading,
 * --extra-ns; bench_tc.c: the tc-drop row's clsact hook and filter, and
 * `xdplab cleanup`'s part for them): the benchmark's state, and the tc
 * attach and detach bench.c calls.
 */
#ifndef XDPLAB_BENCH_PRIV_H
#define XDPLAB_BENCH_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <net/if.h>

#include <bpf/libbpf.h>

#include "xdplab/bench.h"
#include "xdplab/ethxdp.h"

struct bench; /* bench.skel.h */

struct xl_bench {
	struct bench *skel;
	bool extra, rxq;
	int link_fd;
	int ifindex;
	enum xl_xdp_mode mode;
	bool frags;
	int action; /* the program's one verdict: actions[action] = rx_packets */
	char ifname[IF_NAMESIZE];
	int ncpus;
	struct xl_bench_rec *recs; /* ncpus: one lookup's values */
	/* tc: the hook and filter to delete, and the netns they are in. */
	bool tc, tc_hook_made;
	int tc_ns_fd;
	char tc_mark[PATH_MAX]; /* tc_mark.h: the qdisc we made, "" when none */
	struct bpf_tc_hook hook;
	struct bpf_tc_opts tc_opts;
	struct bpf_program *prog; /* the XDP program loaded and attached */
	/* driver counting: the device's counters (eth.sock -1: the program's map) at attach */
	struct xl_eth_xdp eth;
	struct xl_bench_rec eth0;
};

/**
 * xl_bench_tc_attach() - the clsact ingress hook of @b->ifindex (@ifname,
 * in the calling thread's netns): the qdisc made if there is none (or
 * taken over from a killed run of ours, tc_mark.h), then one filter
 * running @prog_fd in direct-action mode; @b's tc fields record what to
 * undo. Return: 0 or -errno (logged; nothing left attached).
 */
int xl_bench_tc_attach(struct xl_bench *b, int prog_fd, const char *ifname);

/**
 * xl_bench_tc_detach() - delete @b's filter, and the qdisc it made unless
 * another filter is on it, from the netns they are in; closes
 * @b->tc_ns_fd. Failures are logged as warnings.
 */
void xl_bench_tc_detach(struct xl_bench *b);

#endif /* XDPLAB_BENCH_PRIV_H */
