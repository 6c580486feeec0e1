// SPDX-License-Identifier: BSD-2-Clause
/*
 * Two XDP programs on one interface, interleaved in slices
 * (xdplab/abslice.h): the device's per-action counters as the meter's
 * source, one plan of two arms, a slice a step; the comparison, its lines
 * and its JSON.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "xdplab/abslice.h"
#include "xdplab/abtest.h"
#include "xdplab/escape.h"
#include "xdplab/ethxdp.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/plan.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"

/* The DUT's wiring as the slices found it: none measured yet, or how its NAPI ran. */
enum ab_wiring { AB_WIRING_UNKNOWN, AB_WIRING_THREADED, AB_WIRING_SOFTIRQ };

/* One side: its program and its slices' figures. */
struct ab_side {
	const char *spec, *name;
	int prog_fd;
	double *pps, *cpu_ns; /* per repetition */
	uint64_t packets, bytes, ns;
	const char *cpu_source; /* the last slice's (XL_CPU_SRC_* of xdplab/meter.h) */
	struct xl_row_result *row;
};

struct xl_abslice {
	struct xl_abslice_opts o;
	struct xl_meter m;
	struct xl_eth_xdp eth;
	int l2_err;
	struct ab_side sides[2];
	enum ab_wiring wiring; /* the first slice's: every later one must match */
	int link, done;
	struct xl_meter_sample s0, s1; /* a slice's two samples */
	struct xl_ab_result cpu_r, pps_r;
	double *mem;
};

static bool stopped(const struct xl_abslice *ab)
{
	return ab->o.stop && *ab->o.stop;
}

struct xl_abslice *xl_abslice__open(const struct xl_abslice_opts *o)
{
	struct xl_abslice *ab = calloc(1, sizeof(*ab));
	int err;

	if (!ab)
		return NULL;
	ab->o = *o;
	ab->m = (struct xl_meter){ .napi_cpu = -1, .eth_sock = -1, .queues = 1 };
	ab->eth = (struct xl_eth_xdp){ .sock = -1, .queues = 1 };
	ab->link = -1;
	if (xl_eth_xdp_open(&ab->eth, o->ifname, o->ifindex)) {
		xl_err("%s has no per-action XDP counters in ethtool -S (known: veth's rx_queue_N_xdp_*): ab counts both sides with them",
		       o->ifname);
		err = EOPNOTSUPP;
		goto out_close;
	}
	/* Whole frames' bytes when the sender's side says which came as skbs. */
	ab->l2_err = xl_eth_xdp_peer_probe(&ab->eth, o->ifindex);
	err = ENOMEM;
	ab->mem = calloc(4 * (size_t)o->reps, sizeof(double));
	if (!ab->mem)
		goto out_close;
	ab->m.src = (struct xl_counter_src){ "ethtool-xdp", xl_eth_xdp_meter_read, &ab->eth };
	ab->m.eth_sock = ab->eth.sock;
	ab->m.ifname = o->ifname;
	ab->m.queues = ab->eth.queues;
	return ab;

out_close:
	xl_abslice__close(ab);
	errno = err;
	return NULL;
}

void xl_abslice__close(struct xl_abslice *ab)
{
	if (!ab)
		return;
	xl_meter_done(&ab->m);
	xl_eth_xdp_close(&ab->eth);
	if (ab->eth.sock >= 0)
		close(ab->eth.sock);
	free(ab->mem);
	free(ab);
}

int xl_abslice__arm(struct xl_abslice *ab, int k, const char *spec, const char *name, int prog_fd,
		    struct xl_row_result *row)
{
	struct ab_side *s;

	if (k < 0 || k > 1)
		return -EINVAL;
	s = &ab->sides[k];
	s->spec = spec;
	s->name = name;
	s->prog_fd = prog_fd;
	s->row = row;
	s->pps = ab->mem + (2 * k) * ab->o.reps;
	s->cpu_ns = ab->mem + (2 * k + 1) * ab->o.reps;
	return 0;
}

int xl_abslice__done(const struct xl_abslice *ab)
{
	return ab->done;
}

/* A slice's start: its side attached, settled, the first sample. */
static int slice_open(void *ctx, const struct xl_plan_step *st)
{
	struct xl_abslice *ab = ctx;
	struct ab_side *s = &ab->sides[st->arm];
	struct xl_meter *m = &ab->m;
	const char *ifname = ab->o.ifname;
	enum ab_wiring now;
	int err;

	ab->link = xl_xdp_attach(s->prog_fd, ab->o.ifindex, ifname, ab->o.mode);
	if (ab->link < 0)
		return -EIO;
	xl_sleep_ns(XL_ABSLICE_SETTLE_NS, ab->o.stop);
	/*
	 * The NAPI kthread of this attach: looked up in every slice, since
	 * veth with threaded NAPI and GRO off makes its NAPI (and a new
	 * kthread, a new pid) at each attach and deletes it at each detach;
	 * the first slice's pid would leave the later ones without a CPU
	 * figure. A wiring that changes between slices would mix two CPU
	 * sources in one comparison: refused.
	 */
	m->napi_pid = xl_napi_kthread_pid(ifname);
	now = m->napi_pid ? AB_WIRING_THREADED : AB_WIRING_SOFTIRQ;
	if (ab->wiring != AB_WIRING_UNKNOWN && ab->wiring != now) {
		xl_xdp_link_close(ab->link);
		xl_err("%s: %s's slice in repetition %d has %s NAPI kthread and the slices before %s: the wiring changed during ab (its CPU figures would mix sources)",
		       ifname, s->name, st->rep + 1, m->napi_pid ? "a" : "no",
		       m->napi_pid ? "had none" : "had one");
		return -EIO;
	}
	ab->wiring = now;
	err = xl_meter_sample(m, &ab->s0);
	if (err) {
		xl_xdp_link_close(ab->link);
		if (stopped(ab))
			return -EINTR;
		xl_err("%s: cannot read the counters: %s", ifname, strerror(-err));
		return -EIO;
	}
	return 0;
}

/* A slice's end: the second sample, the link cut, the window into its side. */
static int slice_close(void *ctx, const struct xl_plan_step *st)
{
	struct xl_abslice *ab = ctx;
	struct ab_side *s = &ab->sides[st->arm];
	struct xl_meter_window w;
	int rep = st->rep, err = 0;

	if (!stopped(ab))
		err = xl_meter_sample(&ab->m, &ab->s1);
	xl_xdp_link_close(ab->link);
	if (stopped(ab))
		return 0; /* the plan ends with -EINTR */
	if (err) {
		xl_err("%s: cannot read the counters: %s", ab->o.ifname, strerror(-err));
		return -EIO;
	}
	xl_meter_window(&ab->m, &ab->s0, &ab->s1, &w);
	if (!w.packets) {
		xl_err("%s: no frames in %s's slice: send traffic to it while ab runs (e.g. xdplab gen from the peer)",
		       ab->o.ifname, s->name);
		return -EIO;
	}
	s->pps[rep] = w.pps;
	s->cpu_ns[rep] = w.cpu_ns_per_pkt;
	s->packets += w.packets;
	s->bytes += w.bytes;
	s->ns += w.ns;
	s->cpu_source = w.cpu_source;
	if (rep < XL_MAX_REPS) {
		xl_meter_window_rep(&w, &s->row->reps[rep]);
		s->row->nreps = rep + 1;
		s->row->napi_cpu = w.napi_cpu;
	}
	return 0;
}

/* A repetition's line: both sides' rate and CPU ns/packet. */
static int rep_line(void *ctx, const struct xl_plan_step *st)
{
	struct xl_abslice *ab = ctx;
	const struct ab_side *sd = ab->sides;
	int i = st->rep;

	if (ab->o.lines)
		fprintf(ab->o.lines, "%4d %12.3f %12.1f %12.3f %12.1f\n", i + 1, sd[0].pps[i] / 1e6,
			sd[0].cpu_ns[i], sd[1].pps[i] / 1e6, sd[1].cpu_ns[i]);
	return 0;
}

static const struct xl_plan_ops ab_ops = { .open = slice_open, .close = slice_close,
					   .rep_done = rep_line };

int xl_abslice__run(struct xl_abslice *ab)
{
	struct xl_plan p = { .reps = ab->o.reps, .arms = 2, .scope = XL_PLAN_ONCE,
			     .window_ns = ab->o.slice_ns, .stop = ab->o.stop, .cpu = -1,
			     .ops = &ab_ops, .ctx = ab };
	struct xl_ab_result *r = &ab->pps_r;
	int err, k;

	if (ab->o.lines)
		fprintf(ab->o.lines, "%4s %12s %12s %12s %12s\n", "rep", "A Mpps", "A cpu-ns/pkt",
			"B Mpps", "B cpu-ns/pkt");
	err = xl_plan_run(&p);
	ab->done = p.done;
	if (err) {
		if (stopped(ab))
			xl_err("ab: stopped after %d complete repetitions", ab->done);
		return err == -EINTR ? err : -EIO;
	}
	xl_ab_compare(ab->sides[0].cpu_ns, ab->sides[1].cpu_ns, ab->done, false, 0, &ab->cpu_r);
	xl_ab_compare(ab->sides[0].pps, ab->sides[1].pps, ab->done, true, 0, r);
	r->a_median /= 1e6;
	r->b_median /= 1e6;
	r->diff_median /= 1e6;
	r->diff_lo /= 1e6;
	r->diff_hi /= 1e6;
	/*
	 * The rows' identity as measured: where the NAPI ran (a kthread
	 * found in the slices: threaded) and the frames' mean size, from
	 * the device's own byte count (no FCS, as the lab's sizes; whole
	 * frames when eth.l2, said in the "frame size:" line).
	 */
	for (k = 0; k < 2; k++) {
		uint64_t n = ab->sides[0].packets + ab->sides[1].packets;

		ab->sides[k].row->wiring = ab->m.napi_pid ? "threaded" : "softirq";
		ab->sides[k].row->size = n ? (uint32_t)((ab->sides[0].bytes + ab->sides[1].bytes +
							 n / 2) / n) : 0;
	}
	return 0;
}

static void print_cmp(FILE *out, const char *what, const struct xl_ab_result *r, int prec)
{
	char ci[48] = "-";

	if (r->ci)
		snprintf(ci, sizeof(ci), "%.*f..%.*f", prec, r->diff_lo, prec, r->diff_hi);
	fprintf(out, "%-14s %10.*f %10.*f %+11.*f  %-20s %8.4f  %s\n", what, prec, r->a_median,
		prec, r->b_median, prec, r->diff_median, ci, r->p, xl_ab_verdict_name(r->verdict));
}

static const char *cpu_source(const struct xl_abslice *ab)
{
	return ab->sides[0].cpu_source ? ab->sides[0].cpu_source : "none";
}

void xl_abslice__print(const struct xl_abslice *ab, FILE *out)
{
	const struct ab_side *sd = ab->sides;
	const char *src = cpu_source(ab);
	int l2_err = ab->l2_err;

	fprintf(out, "%-14s %10s %10s %11s  %-20s %8s  %s\n", "", "A median", "B median",
		"B-A median", "95% CI", "p", "verdict");
	print_cmp(out, "Mpps", &ab->pps_r, 3);
	print_cmp(out, "CPU ns/packet", &ab->cpu_r, 1);
	fprintf(out, "verdict: %s (CPU ns/packet, the paired difference over %d repetitions: median %+.1f ns, sign-test p %.4f; ~ unless p < 0.05)\n",
		xl_ab_verdict_name(ab->cpu_r.verdict), ab->done, ab->cpu_r.diff_median, ab->cpu_r.p);
	fprintf(out, "totals: A %llu packets in %.3f s, B %llu packets in %.3f s\n",
		(unsigned long long)sd[0].packets, sd[0].ns / 1e9, (unsigned long long)sd[1].packets,
		sd[1].ns / 1e9);
	fprintf(out, "cpu figure: %s\n", ab->m.napi_pid ?
		"the DUT's threaded NAPI kthread's run time (schedstat, ns)" :
		!strcmp(src, XL_CPU_SRC_TRACEPOINT) ?
		"the judged CPU's NET_RX softirq time (irq:softirq_entry/exit tracepoints, ns)" :
		!strcmp(src, XL_CPU_SRC_PROCSTAT_IRQTIME) ?
		"the judged CPU's softirq time (/proc/stat with IRQ time accounting: no program, counted at each softirq's entry and exit, printed in 10 ms units)" :
		"the judged CPU's softirq time (/proc/stat, 10 ms ticks: coarse in short slices; threaded NAPI gives ns, docs/own-program.md)");
	if (ab->eth.l2)
		fprintf(out, "frame size: the DUT's xdp_bytes over xdp_packets, %d bytes added per frame that came as an skb (veth counts it without its Ethernet header; the peer %s's tx_queue_N_xdp_xmit counts the others)\n",
			XL_ETH_XDP_L2_HLEN, XL_ESC(ab->eth.peer_name));
	else
		fprintf(out, "frame size: the driver's byte count over packets (xdp_bytes / xdp_packets), possibly without the %d-byte L2 header: the sender's side cannot be read (%s)\n",
			XL_ETH_XDP_L2_HLEN, l2_err == -ENODEV ? "the peer is not a veth" :
			l2_err == -ENOENT ? "the peer's namespace has no name, or it has no xdp_xmit counters" :
			strerror(-l2_err));
}

static json_t *side_json(const struct ab_side *s, int n)
{
	json_t *o = json_object(), *pps = json_array(), *cpu = json_array();
	int i;

	for (i = 0; i < n; i++) {
		json_array_append_new(pps, json_real(s->pps[i]));
		json_array_append_new(cpu, json_real(s->cpu_ns[i]));
	}
	json_object_set_new(o, "program", json_string(s->spec));
	json_object_set_new(o, "name", json_string(s->name));
	json_object_set_new(o, "pps", pps);
	json_object_set_new(o, "cpu_ns_per_pkt", cpu);
	json_object_set_new(o, "packets", json_integer(s->packets));
	return o;
}

static json_t *cmp_json(const struct xl_ab_result *r, const char *unit)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:o, s:f, s:s}", "unit", unit, "a_median", r->a_median,
			 "b_median", r->b_median, "diff_median", r->diff_median, "diff_ci95",
			 r->ci ? json_pack("[f, f]", r->diff_lo, r->diff_hi) : json_null(), "p", r->p,
			 "verdict", xl_ab_verdict_name(r->verdict));
}

int xl_abslice__json(const struct xl_abslice *ab, FILE *out)
{
	json_t *o = json_object();
	int err;

	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "command", json_string("ab"));
	json_object_set_new(o, "interface", json_string(ab->o.ifname));
	json_object_set_new(o, "mode", json_string(xl_xdp_mode_name(ab->o.mode)));
	json_object_set_new(o, "reps", json_integer(ab->done));
	json_object_set_new(o, "slice_s", json_real(ab->o.slice_ns / 1e9));
	json_object_set_new(o, "counted_by", json_string("ethtool"));
	json_object_set_new(o, "cpu_from", json_string(cpu_source(ab)));
	json_object_set_new(o, "size_from", json_string(ab->eth.l2 ? "xdp_bytes+l2" : "xdp_bytes"));
	json_object_set_new(o, "a", side_json(&ab->sides[0], ab->done));
	json_object_set_new(o, "b", side_json(&ab->sides[1], ab->done));
	json_object_set_new(o, "cpu_ns_per_pkt", cmp_json(&ab->cpu_r, "ns"));
	json_object_set_new(o, "mpps", cmp_json(&ab->pps_r, "Mpps"));
	json_object_set_new(o, "verdict", json_string(xl_ab_verdict_name(ab->cpu_r.verdict)));
	err = json_dumpf(o, out, JSON_INDENT(1)) ? -EIO : 0;
	json_decref(o);
	return err;
}
