// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/xdp/ owns the device-under-test programs and their counters: the
 * DROP/PASS/TX benchmarks (bench.c), XDP_REDIRECT through devmap, cpumap
 * and broadcast (redirect.c), and the tracepoint monitor (monitor.c). See
 * docs/architecture.md.
 */
/* XDP benchmark programs: load with rodata knobs, attach by link, read per-CPU counters. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "xdplab/bench.h"
#include "xdplab/ethxdp.h"
#include "xdplab/sysstat.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/progrun.h"
#include "bench_priv.h"

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
 * struct xl_bench_opts.driver_counts: the program that counts nothing
 * (bench.bpf.c "Where the device's driver counts"), when the device keeps
 * per-queue XDP counters and no option needs the full program; @b->eth
 * then has a socket (in the current netns, the device's) and its queues.
 * Return: the program, or NULL (count with the program's map).
 */
static struct bpf_program *driver_prog(struct xl_bench *b, const struct xl_bench_opts *o)
{
	struct bpf_program *p;

	if (!o->driver_counts || o->tc || o->frags || o->extra || o->load_bytes || o->rxq_stats ||
	    o->mode != XL_MODE_NATIVE)
		return NULL;
	if (o->op != XL_OP_NO_TOUCH)
		p = b->skel->progs.xdp_bench_op_only;
	else
		p = o->action == XDP_DROP ? b->skel->progs.xdp_bare_drop :
		    o->action == XDP_PASS ? b->skel->progs.xdp_bare_pass :
		    o->action == XDP_TX	  ? b->skel->progs.xdp_bare_tx :
					    NULL;
	if (!p || o->action < XDP_DROP || o->action > XDP_TX)
		return NULL;
	b->eth.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(b->eth.ifname, sizeof(b->eth.ifname), "%s", o->ifname);
	b->eth.queues = XL_ETHTOOL_MAX_QUEUES;
	if (b->eth.sock >= 0 && !xl_eth_xdp_probe(&b->eth)) {
		/* whole-frame bytes where the veth peer's xdp_xmit can be read (ethxdp.h) */
		if (xl_eth_xdp_peer_probe(&b->eth, b->ifindex))
			xl_info("%s: its veth peer's counters cannot be read: bytes as veth counts them (a frame from the stack 14 short)",
				o->ifname);
		return p;
	}
	if (b->eth.sock >= 0)
		close(b->eth.sock);
	b->eth.sock = -1;
	xl_info("%s: no per-queue XDP counters in its driver: the program counts", o->ifname);
	return NULL;
}

const char *xl_bench__counter(const struct xl_bench *b)
{
	return b->eth.sock >= 0 ? XL_COUNTER_DRIVER : XL_COUNTER_PROGRAM;
}

struct xl_bench *xl_bench__create(const struct xl_bench_opts *opts)
{
	struct xl_bench *b;
	int err;

	if (opts->action < 0 || opts->action >= XL_XDP_ACTIONS) {
		xl_err("benchmark action %d: accepted 0..%d (XDP_ABORTED..XDP_REDIRECT)", opts->action, XL_XDP_ACTIONS - 1);
		errno = EINVAL;
		return NULL;
	}
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
	b->eth.sock = -1;
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
	if (opts->load_bytes && (opts->tc || opts->op == XL_OP_PARSE_IP)) {
		xl_err("--load-mode load-bytes applies to XDP with no-touch, read-data or swap-macs (parse-ip reads by direct packet access only)");
		err = -EINVAL;
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
	b->skel->rodata->extra_on = opts->extra;
	b->skel->rodata->load_bytes = opts->load_bytes;
	b->skel->rodata->rxq_on = opts->rxq_stats && !opts->tc;
	b->rxq = opts->rxq_stats && !opts->tc;
	b->extra = opts->extra;
	/* No option on: the lean path (bench.bpf.c "lean"), 1 + the op. */
	if (!opts->frags && !opts->extra && !opts->load_bytes && !b->rxq)
		b->skel->rodata->lean = 1 + opts->op;
	b->action = opts->action;
	b->prog = driver_prog(b, opts);
	if (!b->prog)
		b->prog = b->skel->progs.xdp_bench_action;
	if (opts->frags)
		xl_xdp_prog_set_frags(b->prog);
	bpf_program__set_autoload(b->skel->progs.xdp_bench_action, false);
	bpf_program__set_autoload(b->skel->progs.xdp_bare_drop, false);
	bpf_program__set_autoload(b->skel->progs.xdp_bare_pass, false);
	bpf_program__set_autoload(b->skel->progs.xdp_bare_tx, false);
	bpf_program__set_autoload(b->skel->progs.xdp_bench_op_only, false);
	bpf_program__set_autoload(b->prog, !opts->tc);
	bpf_program__set_autoload(b->skel->progs.tc_bench_drop, opts->tc);
	err = bench__load(b->skel);
	if (err) {
		xl_err("cannot load the XDP program: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		goto out_destroy_skel;
	}
	b->mode = opts->mode;
	b->frags = opts->frags;
	snprintf(b->ifname, sizeof(b->ifname), "%s", opts->ifname);
	/* Calibrated detached: see struct xl_bench_opts.extra_cal. */
	if (opts->extra && opts->extra_cal) {
		err = xl_bench__calibrate_extra(b, opts->extra_ns, opts->extra_cal);
		opts->extra_cal->err = err;
		if (err) {
			xl_err("--extra-ns: calibration with BPF_PROG_RUN failed: %s", strerror(-err));
			goto out_destroy_skel;
		}
	} else if (opts->extra) {
		b->skel->bss->extra_iters = opts->extra_iters;
	}
	if (opts->tc) {
		err = xl_bench_tc_attach(b, bpf_program__fd(b->skel->progs.tc_bench_drop), opts->ifname);
		if (err)
			goto out_destroy_skel;
		b->tc = true;
		return b;
	}
	err = b->eth.sock >= 0 ? xl_eth_xdp_meter_read(&b->eth, &b->eth0, NULL) : 0;
	if (err < 0)
		goto out_destroy_skel;
	err = xl_xdp_attach_frags(bpf_program__fd(b->prog),
				  b->ifindex, opts->ifname, opts->mode, opts->frags);
	if (err < 0)
		goto out_destroy_skel;
	b->link_fd = err;
	return b;
out_destroy_skel:
	bench__destroy(b->skel);
out_free:
	xl_eth_xdp_close(&b->eth);
	if (b->eth.sock >= 0)
		close(b->eth.sock);
	free(b->recs);
	free(b);
	errno = -err;
	return NULL;
}

int xl_bench__read_rxq(struct xl_bench *b, uint64_t *pkts, int n)
{
	uint64_t v[b->ncpus];
	__u32 q;
	int c;

	if (!b->rxq)
		return -EOPNOTSUPP;
	for (q = 0; q < (__u32)n && q < XL_RXQ_MAX; q++) {
		if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.rxq_stats), &q, v))
			return -errno;
		pkts[q] = 0;
		for (c = 0; c < b->ncpus; c++)
			pkts[q] += v[c];
	}
	return 0;
}

/*
 * Driver counting: frames, bytes and actions since the attach from the
 * device's counters (the program counted only errors, in @total already);
 * no per-CPU split (@per_cpu zero but for each CPU's errors).
 */
static int read_driver(struct xl_bench *b, struct xl_bench_rec *total,
		       struct xl_bench_rec *per_cpu)
{
	struct xl_bench_rec now;
	int i, err = xl_eth_xdp_meter_read(&b->eth, &now, NULL);

	if (err)
		return err;
	total->rx_packets = now.rx_packets - b->eth0.rx_packets;
	total->rx_bytes = now.rx_bytes - b->eth0.rx_bytes;
	total->errors += now.errors - b->eth0.errors; /* XDP_TX refused by the ring */
	for (i = 0; i < XL_XDP_ACTIONS; i++)
		total->actions[i] = now.actions[i] - b->eth0.actions[i];
	if (per_cpu) {
		memset(per_cpu, 0, xl_bench_detail_ncpus() * sizeof(*per_cpu));
		for (i = 0; i < xl_bench_detail_ncpus() && i < b->ncpus; i++)
			per_cpu[i].errors = b->recs[i].errors;
	}
	return 0;
}

int xl_bench__read(struct xl_bench *b, struct xl_bench_rec *total,
		   struct xl_bench_rec *per_cpu)
{
	__u32 key = 0;

	int c;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.bench_stats), &key, b->recs))
		return -errno;
	/*
	 * The programs do not count actions[]: every frame they see gets the
	 * one rodata action (the tc program's TC_ACT_SHOT reads as XDP_DROP),
	 * so that slot is rx_packets, per CPU as in total. One increment fewer
	 * per frame (issue 12).
	 */
	for (c = 0; c < b->ncpus; c++)
		b->recs[c].actions[b->action] = b->recs[c].rx_packets;
	xl_bench_rec_sum(b->recs, b->ncpus, total);
	if (b->eth.sock >= 0)
		return read_driver(b, total, per_cpu);
	if (per_cpu)
		memcpy(per_cpu, b->recs, xl_bench_detail_ncpus() * sizeof(b->recs[0]));
	return 0;
}

/* ---- --extra-ns: the busy loop's calibration ---- */

uint32_t xl_extra_iters(double ns, double ns_per_iter)
{
	double n;

	if (ns <= 0 || ns_per_iter <= 0)
		return 0;
	n = ns / ns_per_iter + 0.5;
	return n > XL_EXTRA_MAX_ITERS ? XL_EXTRA_MAX_ITERS : (uint32_t)n;
}

int xl_bench__set_extra_iters(struct xl_bench *b, uint32_t iters)
{
	if (!b->extra)
		return -EOPNOTSUPP;
	b->skel->bss->extra_iters = iters;
	return 0;
}

/* One BPF_PROG_RUN of @repeat runs with @iters: the kernel's ns per run. */
static int test_run(struct xl_bench *b, const void *frame, size_t len, uint32_t iters,
		    uint32_t repeat, double *ns)
{
	struct xl_run_result r;
	int err;

	b->skel->bss->extra_iters = iters;
	err = xl_prog_run_frame(bpf_program__fd(b->prog), frame,
				(uint32_t)len, repeat, NULL, 0, &r);
	if (err)
		return err;
	*ns = r.duration_ns;
	return 0;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, c = *(const double *)y;

	return a < c ? -1 : a > c;
}

#define CAL_ROUNDS 5
#define CAL_BASE_REPEAT 200000
#define CAL_LONG_REPEAT 2000

/*
 * What @iters iterations add per run: the mean of the middle three of five interleaved
 * (duration with @iters - duration with none), so a drift of the host
 * falls on both sides of each difference.
 */
static int check_iters(struct xl_bench *b, const void *frame, size_t len, uint32_t iters,
		       double *ns)
{
	double d[5], base, with;
	int i, err;

	for (i = 0; i < 5; i++) {
		err = test_run(b, frame, len, 0, CAL_BASE_REPEAT, &base);
		if (!err)
			err = test_run(b, frame, len, iters, CAL_BASE_REPEAT / (1 + iters / 16), &with);
		if (err)
			return err;
		d[i] = with - base;
	}
	qsort(d, 5, sizeof(d[0]), cmp_dbl);
	*ns = (d[1] + d[2] + d[3]) / 3;
	return 0;
}

uint32_t xl_extra_next_iters(uint32_t n, double check_ns, double ns, double ns_per_iter)
{
	double per = n > 0 && check_ns > 0 ? check_ns / n : ns_per_iter, d = ns - check_ns, step;
	long next;

	if (ns <= 0)
		return 0; /* nothing to add: a check of 0 iterations is noise alone */
	if (fabs(d) <= 0.5 || fabs(d) <= 0.03 * ns || !(per > 0) || isnan(d))
		return n; /* near enough, or nothing to go by (no cost, a NaN) */
	step = d / per; /* capped: lround() of what a long cannot hold is undefined */
	if (step > XL_EXTRA_MAX_ITERS)
		step = XL_EXTRA_MAX_ITERS;
	if (step < -XL_EXTRA_MAX_ITERS)
		step = -XL_EXTRA_MAX_ITERS;
	next = (long)n + lround(step);
	if (next == (long)n)
		next += d > 0 ? 1 : -1;
	if (next < 0)
		next = 0;
	if (next > XL_EXTRA_MAX_ITERS)
		next = XL_EXTRA_MAX_ITERS;
	return (uint32_t)next;
}

int xl_bench__calibrate_extra(struct xl_bench *b, double ns, struct xl_extra_cal *cal)
{
	struct xl_pkt_spec spec = { .size = 64, .src_port = 1024, .dst_port = 9,
				    .src_ip4 = { htonl(0xc6120001) }, .dst_ip4 = { htonl(0xc6120002) } };
	double base[CAL_ROUNDS], per[CAL_ROUNDS], lng, chk;
	uint8_t frame[64];
	__u32 key = 0;
	uint32_t n;
	int i, step, err, len;

	if (!b->extra)
		return -EOPNOTSUPP;
	if (b->link_fd >= 0 || b->tc)
		return -EBUSY;
	if (!(ns >= 0 && ns <= XL_EXTRA_NS_MAX))
		return -ERANGE;
	len = xl_pkt_build(&spec, frame, sizeof(frame));
	if (len < 0)
		return len;
	memset(cal, 0, sizeof(*cal));
	cal->target_ns = ns;
	cal->rounds = CAL_ROUNDS;
	/* Interleaved rounds: a drift of the host falls on both durations. */
	for (i = 0; i < CAL_ROUNDS; i++) {
		err = test_run(b, frame, len, 0, CAL_BASE_REPEAT, &base[i]);
		if (!err)
			err = test_run(b, frame, len, XL_EXTRA_CAL_ITERS, CAL_LONG_REPEAT, &lng);
		if (err)
			goto out_zero;
		per[i] = (lng - base[i]) / XL_EXTRA_CAL_ITERS;
	}
	qsort(per, CAL_ROUNDS, sizeof(per[0]), cmp_dbl);
	qsort(base, CAL_ROUNDS, sizeof(base[0]), cmp_dbl);
	cal->ns_per_iter = per[CAL_ROUNDS / 2];
	cal->ns_per_iter_min = per[0];
	cal->ns_per_iter_max = per[CAL_ROUNDS - 1];
	cal->base_ns = base[CAL_ROUNDS / 2];
	if (cal->ns_per_iter <= 0 || ns / cal->ns_per_iter > XL_EXTRA_MAX_ITERS) {
		err = -ERANGE; /* the loop cannot spin that long on this CPU */
		goto out_zero;
	}
	/*
	 * Closed loop on the check: the slope's guess, then corrections by
	 * the check's distance from @ns, keeping the nearest count.
	 */
	n = xl_extra_iters(ns, cal->ns_per_iter);
	for (step = 0; step < XL_EXTRA_CAL_STEPS; step++) {
		uint32_t next;

		err = check_iters(b, frame, len, n, &chk);
		if (err)
			goto out_zero;
		cal->steps = step + 1;
		xl_dbg("--extra-ns %.0f: check %d: %u iterations add %.2f ns (slope %.3f ns each)",
		       ns, step + 1, n, chk, cal->ns_per_iter);
		if (step == 0 || fabs(chk - ns) < fabs(cal->check_ns - ns)) {
			cal->iters = n;
			cal->check_ns = chk;
		}
		next = xl_extra_next_iters(n, chk, ns, cal->ns_per_iter);
		if (next == n)
			break;
		n = next;
	}
	cal->set_ns = cal->iters * cal->ns_per_iter;
	b->skel->bss->extra_iters = cal->iters;
out_zero:
	/* The calibration's frames are not the measurement's: neither in the
	 * counters nor in queue 0's --rxq-stats (BPF_PROG_RUN frames arrive
	 * on RX queue 0). */
	/* b->recs (one record per possible CPU) is the zero value of both:
	 * a record is larger than rxq_stats' __u64. */
	memset(b->recs, 0, (size_t)b->ncpus * sizeof(*b->recs));
	bpf_map_update_elem(bpf_map__fd(b->skel->maps.bench_stats), &key, b->recs, 0);
	if (b->rxq)
		bpf_map_update_elem(bpf_map__fd(b->skel->maps.rxq_stats), &key, b->recs, 0);
	if (err)
		b->skel->bss->extra_iters = 0;
	return err;
}

int xl_bench__prog_fd(const struct xl_bench *b)
{
	/* A tc benchmark's XDP program is not loaded (autoload off): its tc program runs. */
	return bpf_program__fd(b->tc ? b->skel->progs.tc_bench_drop : b->prog);
}

void xl_bench__detach(struct xl_bench *b)
{
	xl_xdp_link_close(b->link_fd); /* -1: nothing */
	b->link_fd = -1;
}

int xl_bench__attach(struct xl_bench *b)
{
	int fd;

	if (b->tc)
		return -EOPNOTSUPP;
	if (b->link_fd >= 0)
		return -EBUSY;
	if (b->eth.sock >= 0) {
		fd = xl_eth_xdp_meter_read(&b->eth, &b->eth0, NULL);
		if (fd)
			return fd;
	}
	fd = xl_xdp_attach_frags(bpf_program__fd(b->prog), b->ifindex,
				 b->ifname, b->mode, b->frags);
	if (fd < 0)
		return fd;
	b->link_fd = fd;
	return 0;
}

int xl_bench__link_alive(const struct xl_bench *b)
{
	return b->link_fd < 0 ? -EOPNOTSUPP : xl_xdp_link_alive(b->link_fd);
}

int xl_bench__ifindex(const struct xl_bench *b)
{
	return b->ifindex;
}

void xl_bench__destroy(struct xl_bench *b)
{
	if (!b)
		return;
	xl_xdp_link_close(b->link_fd); /* -1: nothing */
	if (b->tc)
		xl_bench_tc_detach(b);
	bench__destroy(b->skel);
	xl_eth_xdp_close(&b->eth);
	if (b->eth.sock >= 0)
		close(b->eth.sock);
	free(b->recs);
	free(b);
}
