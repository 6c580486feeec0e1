// SPDX-License-Identifier: BSD-2-Clause
/*
 * The lab row of a user's own XDP program (lab run --prog FILE.o): loaded
 * and attached per repetition in the DUT's netns, measured as the built-in
 * XDP rows are (xl_labrun_custom()). Its packets are the program's own run
 * count, the kernel's run_cnt of it (bpf_prog_info, kept while a
 * BPF_ENABLE_STATS fd is open: two clock reads per run, as `bpftool prog`
 * shows them); its bytes and actions the DUT veth's XDP counters (ethtool
 * rx_queue_N_xdp_*, no code of ours near the program). So the count check
 * compares the program's count with veth's rx_queue_N_xdp_packets, as the
 * built-in rows compare their program's counter with it. Where the kernel
 * keeps no run count, the veth's counter is the count too, the check
 * compares it with itself, and the row's note says so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>

#include <bpf/bpf.h>

#include "xdplab/ethxdp.h"
#include "xdplab/labrun.h"
#include "labrun_priv.h"
#include "xdplab/log.h"
#include "xdplab/userprog.h"

struct prog_arg {
	const struct xl_userprog_opts *uo;
	const char *ifname;
	enum xl_xdp_mode mode;
	int *no_run_cnt; /* set when a repetition had no run count */
};

struct prog_dut {
	struct xl_userprog *u;
	int link_fd;
	int stats_fd; /* BPF_ENABLE_STATS; -1: no run count (ethtool counts) */
	struct xl_eth_xdp eth;
};

static void prog_destroy(void *h)
{
	struct prog_dut *d = h;

	if (!d)
		return;
	if (d->link_fd >= 0)
		close(d->link_fd);
	if (d->stats_fd >= 0)
		close(d->stats_fd);
	if (d->eth.sock >= 0)
		close(d->eth.sock);
	xl_userprog__destroy(d->u);
	free(d);
}

static int prog_read(void *h, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	struct prog_dut *d = h;
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	int err = xl_eth_xdp_meter_read(&d->eth, total, per_cpu);

	if (err || d->stats_fd < 0)
		return err;
	err = bpf_obj_get_info_by_fd(xl_userprog__fd(d->u), &info, &len);
	if (err)
		return err;
	total->rx_packets = info.run_cnt; /* the program's own count */
	return 0;
}

/* In the DUT's netns: load, attach, open the counters. */
static void *prog_create(const void *arg)
{
	const struct prog_arg *pa = arg;
	struct prog_dut *d = calloc(1, sizeof(*d));
	int ifindex = if_nametoindex(pa->ifname), err;

	if (!d)
		return NULL;
	d->link_fd = -1;
	/* The kernel counts the program's runs while this fd is open. */
	d->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (d->stats_fd < 0) {
		xl_warn("lab run --prog: no run count of the program (BPF_ENABLE_STATS: %s): veth's counter is its count and its check",
			strerror(-d->stats_fd));
		d->stats_fd = -1;
		*pa->no_run_cnt = 1;
	}
	d->eth.queues = 16;
	snprintf(d->eth.ifname, sizeof(d->eth.ifname), "%s", pa->ifname);
	d->eth.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	d->u = xl_userprog__load(pa->uo);
	if (!d->u) {
		err = -errno;
		goto out;
	}
	err = d->eth.sock < 0 ? -errno : xl_eth_xdp_probe(&d->eth);
	if (err)
		goto out;
	err = xl_xdp_attach(xl_userprog__fd(d->u), ifindex, pa->ifname, pa->mode);
	if (err < 0)
		goto out;
	d->link_fd = err;
	return d;
out:
	prog_destroy(d);
	errno = -err;
	return NULL;
}

int xl_labrun_prog(struct xl_lab *lab, const struct xl_labrun_opts *o,
		   const struct xl_userprog_opts *uo, const char *func, enum xl_xdp_mode mode,
		   uint32_t size, struct xl_row_result *row)
{
	static char name[32];
	int no_run_cnt = 0, err;
	struct prog_arg pa = { uo, lab->ifname[XL_LAB_DUT], mode, &no_run_cnt };
	struct xl_labrun_dut dut = { prog_create, prog_read, prog_destroy, &pa };
	size_t n;

	snprintf(name, sizeof(name), "prog/%s", func);
	err = xl_labrun_custom(lab, o, &dut, name, "user program", mode, size, row);
	n = strlen(row->note);
	snprintf(row->note + n, sizeof(row->note) - n, "%s%s", n ? "; " : "",
		 no_run_cnt ? "counted by veth's XDP counters only (no run count): the check compares them with themselves" :
			      "count: the program's run_cnt, checked against veth's rx_queue_N_xdp_packets");
	return err;
}
