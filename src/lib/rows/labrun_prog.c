// SPDX-License-Identifier: BSD-2-Clause
/*
 * The lab row of a user's own XDP program (lab run --prog FILE.o): loaded
 * and attached per repetition in the DUT's netns, measured as the built-in
 * XDP rows are (xl_labrun_custom()), counted by the DUT veth's own XDP
 * counters (ethtool rx_queue_N_xdp_*: no code of ours near the program, no
 * cost to it), so the measured repetitions' count check compares that
 * counter with itself. With struct xl_labrun_opts.prog_count_check the row
 * gets an independent check: one extra repetition, not among the measured
 * ones, whose packets are the program's own run count, the kernel's
 * run_cnt of it (bpf_prog_info, kept while a BPF_ENABLE_STATS fd is open),
 * compared with veth's rx_queue_N_xdp_packets. That repetition is apart
 * because the run count is not free: two clock reads per run, about 70 ns
 * per run of BPF_PROG_RUN on this VM (bench/own-program-20261201T121742Z/
 * bpf-stats-cost.txt).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>

#include <bpf/bpf.h>

#include "xdplab/abtest.h"
#include "xdplab/ethxdp.h"
#include "xdplab/labrun.h"
#include "labrun_priv.h"
#include "xdplab/log.h"
#include "xdplab/userprog.h"

struct prog_arg {
	const struct xl_userprog_opts *uo;
	const char *ifname;
	enum xl_xdp_mode mode;
	bool run_cnt;	 /* count with the kernel's run_cnt (the check repetition) */
	int *no_run_cnt; /* set when it could not */
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
	xl_xdp_link_close(d->link_fd); /* -1: nothing */
	if (d->stats_fd >= 0)
		close(d->stats_fd);
	if (d->eth.sock >= 0)
		close(d->eth.sock);
	xl_userprog__destroy(d->u);
	free(d);
}

static int prog_fd(void *h)
{
	return xl_userprog__fd(((struct prog_dut *)h)->u);
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
	d->stats_fd = -1;
	/* The kernel counts the program's runs while this fd is open. */
	if (pa->run_cnt) {
		d->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (d->stats_fd < 0) {
			xl_warn("lab run --prog: no run count of the program (BPF_ENABLE_STATS: %s): no independent count check",
				strerror(-d->stats_fd));
			d->stats_fd = -1;
			*pa->no_run_cnt = 1;
		}
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

/* Append "; @what" (or @what) to @row's note. */
static void note_add(struct xl_row_result *row, const char *what)
{
	size_t n = strlen(row->note);

	snprintf(row->note + n, sizeof(row->note) - n, "%s%s", n ? "; " : "", what);
}

int xl_labrun_prog(struct xl_lab *lab, const struct xl_labrun_opts *o,
		   const struct xl_userprog_opts *uo, const char *func, enum xl_xdp_mode mode,
		   uint32_t size, struct xl_row_result *row)
{
	static char name[32];
	int no_run_cnt = 0, err;
	struct prog_arg pa = { uo, lab->ifname[XL_LAB_DUT], mode, false, &no_run_cnt };
	struct xl_labrun_dut dut = { .kind = XL_LABRUN_DUT_CUSTOM, .create = prog_create,
				    .read = prog_read, .destroy = prog_destroy, .arg = &pa,
				    .prog_fd = prog_fd };
	struct xl_labrun_opts c;
	struct xl_row_result *chk;
	const struct xl_rep_result *r;
	char buf[160];

	snprintf(name, sizeof(name), "prog/%s", func);
	err = xl_labrun_custom(lab, o, &dut, name, "user program", mode, size, row);
	if (err || !o->prog_count_check)
		return err;
	/* The check repetition: the program's own count against veth's. */
	chk = calloc(1, sizeof(*chk));
	if (!chk)
		return -ENOMEM;
	c = *o;
	c.reps = 1;
	c.profiler = NULL;
	c.prog_time = false;
	c.companion = NULL; /* not a measured repetition: nothing recorded beside it */
	pa.run_cnt = true;
	err = xl_labrun_custom(lab, &c, &dut, name, "user program", mode, size, chk);
	r = &chk->reps[0];
	if (err || chk->nreps != 1 || no_run_cnt || !r->eth_ok) {
		note_add(row, "no independent count check (the check repetition had no run count)");
		err = err == -EINTR ? err : 0;
	} else if (r->run_packets == r->eth_packets) {
		snprintf(buf, sizeof(buf), "count check (an extra repetition, run count on): run_cnt %llu = veth's rx_queue_N_xdp_packets",
			 (unsigned long long)r->run_packets);
		note_add(row, buf);
	} else {
		snprintf(buf, sizeof(buf), "count check (an extra repetition, run count on): run_cnt %llu, veth's rx_queue_N_xdp_packets %llu: counts disagree",
			 (unsigned long long)r->run_packets, (unsigned long long)r->eth_packets);
		note_add(row, buf);
	}
	free(chk);
	return err;
}

int xl_labrun_prog_ab(struct xl_lab *lab, const struct xl_labrun_opts *o,
		     const struct xl_userprog_opts *uo, const char *const path[2],
		     const char *const func[2], enum xl_xdp_mode mode, uint32_t size,
		     struct xl_row_result *rows, void (*window)(void *ctx, int side, int rep),
		     void *ctx)
{
	struct xl_userprog_opts u[2] = { *uo, *uo };
	int no_run_cnt = 0, err, k, i, n;
	struct prog_arg pa[2] = { { &u[0], lab->ifname[XL_LAB_DUT], mode, false, &no_run_cnt },
				  { &u[1], lab->ifname[XL_LAB_DUT], mode, false, &no_run_cnt } };
	struct xl_labrun_dut d[2];
	const struct xl_labrun_dut *const duts[2] = { &d[0], &d[1] };
	char name[2][sizeof(rows->name)];
	const char *const names[2] = { name[0], name[1] };
	double cpu[2][XL_MAX_REPS];
	struct xl_ab_result r;

	for (k = 0; k < 2; k++) {
		u[k].path = path[k];
		d[k] = (struct xl_labrun_dut){ .kind = XL_LABRUN_DUT_CUSTOM, .create = prog_create,
					       .read = prog_read, .destroy = prog_destroy,
					       .arg = &pa[k], .prog_fd = prog_fd };
		snprintf(name[k], sizeof(name[k]), "ab-%c/%s", 'a' + k, func[k]);
	}
	err = xl_labrun_custom_ab(lab, o, duts, names, "user program", mode, size, rows, window,
				  ctx);
	if (err)
		return err;
	n = rows[0].nreps < rows[1].nreps ? rows[0].nreps : rows[1].nreps;
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++)
			cpu[k][i] = rows[k].reps[i].cpu_ns_per_pkt;
	if (n && !xl_ab_compare(cpu[0], cpu[1], n, false, 0, &r)) {
		char ci[48] = "n/a (< 6 reps)";

		if (r.ci)
			snprintf(ci, sizeof(ci), "%.1f..%.1f", r.diff_lo, r.diff_hi);
		snprintf(rows[1].note, sizeof(rows[1].note),
			 "vs ab-a: CPU ns/packet %+.1f (paired median of %d, 95%% CI %s, p %.3f): %s",
			 r.diff_median, n, ci, r.p, xl_ab_verdict_name(r.verdict));
	}
	return 0;
}
