// SPDX-License-Identifier: BSD-2-Clause
/*
 * Lab rows of the AF_XDP applications: the method of labrun.c (warm-up,
 * repetitions of a fixed window, medians), with the counting point of each
 * application as in the AF_XDP paper's table: rxdrop at the application,
 * txpush where the frames arrive (the peer), l2fwd where they come back
 * (the generator's end).
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/labrun_xsk.h"
#include "xdplab/log.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"
#include "xdplab/window.h"
#include "labrun_priv.h"

static void set_gro(struct xl_lab *lab, bool on)
{
	char *argv[] = { "ethtool", "-K", lab->ifname[XL_LAB_DUT], "gro", on ? "on" : "off", NULL };

	if (xl_lab__exec(lab, XL_LAB_DUT, argv))
		xl_warn("lab %s: ethtool -K %s gro %s failed", lab->tag, lab->ifname[XL_LAB_DUT],
			on ? "on" : "off");
}

static void xsk_config(struct xl_lab *lab, enum xl_xsk_app_kind app, enum xl_xdp_mode mode,
		       bool zerocopy, uint32_t size, int cpu, struct xl_xsk_config *c)
{
	xl_xsk_config_defaults(c);
	c->ifname = lab->ifname[XL_LAB_DUT];
	c->app = app;
	c->mode = mode;
	c->copy = zerocopy ? XL_XSK_ZEROCOPY : XL_XSK_COPY;
	c->first_cpu = cpu;
	xl_xsk_config_wait_default(c);
	/*
	 * rxdrop XDP_DRV rows keep poll(): the row's verdict judges the
	 * application's CPU share, which a spinning application fills whether
	 * or not frames come (every row would say "valid"). The command's
	 * default spins when pinned (xl_xsk_config_wait_default()).
	 */
	if (app == XL_XSK_RXDROP && mode != XL_MODE_SKB)
		c->poll = true;
	/* Deeper rings absorb the generator's bursts while poll() wakes up. */
	c->fill_size = c->rx_size = 4096;
	c->frames = 8192;
	c->spec.size = size;
	c->spec.src_port = 1024;
	c->spec.dst_port = 9;
	c->spec.src_ip4 = lab->ip4[XL_LAB_DUT];
	c->spec.dst_ip4 = lab->ip4[XL_LAB_GEN];
	memcpy(c->spec.src_mac, lab->mac[XL_LAB_DUT], 6);
	memcpy(c->spec.dst_mac, lab->mac[XL_LAB_GEN], 6);
}

static void *app_create(const void *c)
{
	return xl_xsk_app__create(c);
}

/* The application, created in the DUT's namespace; errno kept. */
static struct xl_xsk_app *app_in_dut(struct xl_lab *lab, const struct xl_xsk_config *c)
{
	return xl_lab__create_in(lab, XL_LAB_DUT, app_create, c);
}

static struct xl_bench *sink_at_gen(struct xl_lab *lab)
{
	struct xl_bench_opts bo = { .action = XDP_DROP, .op = XL_OP_NO_TOUCH,
				    .ifname = lab->ifname[XL_LAB_GEN], .mode = XL_MODE_NATIVE };

	return xl_labrun_bench(lab, XL_LAB_GEN, &bo);
}

/* Frames counted at the row's counting point. */
static uint64_t counted(enum xl_xsk_app_kind app, struct xl_xsk_app *a, struct xl_bench *sink)
{
	struct xl_xsk_sock_stats s;
	struct xl_bench_rec r;

	if (app == XL_XSK_RXDROP) {
		xl_xsk_app__read(a, &s);
		return s.c.rx_packets;
	}
	return xl_bench__read(sink, &r, NULL) ? 0 : r.rx_packets;
}

/*
 * The kernel's own count at the counting point, for the check column:
 * rxdrop in XDP_DRV, frames our program redirected at the DUT end; txpush
 * and l2fwd, frames the generator end's XDP program saw. Return: false when
 * there is none (XDP_SKB rxdrop: veth does not count generic XDP).
 */
static bool kernel_count(struct xl_lab *lab, const struct xl_xsk_config *c, uint64_t *out)
{
	enum xl_lab_side side = c->app == XL_XSK_RXDROP ? XL_LAB_DUT : XL_LAB_GEN;
	int fd, err;

	if (c->app == XL_XSK_RXDROP && c->mode == XL_MODE_SKB)
		return false;
	fd = xl_lab__socket(lab, side, AF_INET, SOCK_DGRAM);
	if (fd < 0)
		return false;
	err = xl_ethtool_queue_sum(fd, lab->ifname[side], "rx",
				   side == XL_LAB_DUT ? "xdp_redirect" : "xdp_packets", 1, out, NULL);
	close(fd);
	return !err;
}

struct rep_parts {
	struct xl_xsk_app *app;
	struct xl_bench *sink;
	struct xl_gen *gen;
};

static void parts_destroy(struct rep_parts *p)
{
	xl_gen__destroy(p->gen);
	xl_xsk_app__destroy(p->app);
	xl_bench__destroy(p->sink);
	memset(p, 0, sizeof(*p));
}

/* The generator's sent and refused counts, stamped; not ok without one. */
static void gen_reads(struct xl_gen *gen, struct xl_read *sent, struct xl_read *refused)
{
	struct xl_gen_stats g = { 0 };

	if (gen)
		xl_gen__read(gen, &g);
	*sent = xl_read_now(g.sent, gen != NULL);
	*refused = *sent;
	refused->v = g.xmit_errors;
}

/* The app CPU's /proc/stat times, stamped: busy and total ns. */
static void cpu_reads(int cpu, struct xl_read *busy, struct xl_read *total)
{
	struct xl_cpu_times t;
	bool ok = !xl_cpu_times_read(cpu, &t);

	*busy = xl_read_now(t.busy, ok);
	*total = *busy;
	total->v = ok ? t.total : 0;
}

/*
 * One repetition. The rate window holds only the counter reads and their
 * stamps: our count, the generator's and the app CPU's, taken next to each
 * other at both edges, so the sleep is the only thing between them. The
 * cross-check with the kernel's count spans the whole repetition, from
 * before the first frame to after the last one was processed, as the XDP
 * rows do (src/lib/rows/labrun.c): at window edges while traffic flows the
 * two counters would be read microseconds apart, a visible error at Mpps,
 * and the ethtool round trip would sit inside the rate window.
 */
static int one_rep(struct xl_lab *lab, const struct xl_labrun_opts *o,
		   const struct xl_xsk_config *c, uint32_t size, int app_cpu,
		   struct xl_rep_result *rep, struct xl_row_result *prof_row)
{
	const struct xl_prof_cpu cpus[] = { { app_cpu, "xsk-app" }, { o->gen_cpu, "gen+napi" } };
	bool profiled = false;
	struct rep_parts p = { 0 };
	struct xl_read c0, c1, s0, s1, f0, f1, b0, b1, t0, t1;
	struct xl_delta rx, sent, refused, busy, total;
	uint64_t k0 = 0, k1 = 0, r0, r1;
	bool k_ok;
	int err;

	p.app = app_in_dut(lab, c);
	if (!p.app)
		return -errno;
	if (c->app != XL_XSK_RXDROP) {
		p.sink = sink_at_gen(lab);
		if (!p.sink) {
			err = -errno;
			goto out;
		}
	}
	if (c->app != XL_XSK_TXPUSH && !o->src) {
		p.gen = xl_labrun_gen(lab, o, size);
		if (!p.gen) {
			err = -errno;
			goto out;
		}
	}
	k_ok = kernel_count(lab, c, &k0);
	r0 = counted(c->app, p.app, p.sink);
	err = xl_xsk_app__start(p.app);
	if (!err && (p.gen || o->src))
		err = xl_labrun_traffic_start(o, p.gen, size);
	if (!err && o->src) {
		/* Traffic from elsewhere (lab run --dut): wait for its first frame. */
		uint64_t waited;

		for (waited = 0; counted(c->app, p.app, p.sink) == r0; waited += 20000000ull) {
			if (waited >= XL_LABRUN_ARRIVE_NS) {
				err = -ETIMEDOUT;
				break;
			}
			if (o->src->ended && o->src->ended(o->src->ctx)) {
				err = -EPIPE; /* the generator failed: its stop says why */
				break;
			}
			if (xl_sleep_ns(20000000ull, o->stop)) {
				err = -EINTR;
				break;
			}
		}
		if (err)
			xl_labrun_traffic_stop(o, NULL);
	}
	if (err) {
		xl_xsk_app__stop(p.app);
		xl_xsk_app__join(p.app);
		goto out;
	}
	xl_sleep_ns(o->warmup_ns, o->stop);
	if (prof_row)
		profiled = xl_labrun_prof_begin(o, prof_row, cpus, 2);
	c0 = xl_read_now(counted(c->app, p.app, p.sink), true);
	gen_reads(p.gen, &s0, &f0);
	cpu_reads(app_cpu, &b0, &t0);
	xl_sleep_ns(o->seconds_ns, o->stop);
	c1 = xl_read_now(counted(c->app, p.app, p.sink), true);
	gen_reads(p.gen, &s1, &f1);
	cpu_reads(app_cpu, &b1, &t1);
	if (profiled)
		xl_labrun_prof_end(o, prof_row);
	if (p.gen || o->src)
		err = xl_labrun_traffic_stop(o, p.gen);
	xl_sleep_ns(50000000ull, NULL); /* let the app drain its rings */
	xl_xsk_app__stop(p.app);
	if (!err)
		err = xl_xsk_app__join(p.app);
	r1 = counted(c->app, p.app, p.sink);
	k_ok = k_ok && kernel_count(lab, c, &k1);
	if (!err && o->stop && *o->stop)
		err = -EINTR;
	if (err)
		goto out;
	rx = xl_delta_of(&c0, &c1);
	sent = xl_delta_of(&s0, &s1);
	refused = xl_delta_of(&f0, &f1);
	busy = xl_delta_of(&b0, &b1);
	total = xl_delta_of(&t0, &t1);
	*rep = (struct xl_rep_result){
		.ns = rx.ns, .packets = rx.n, .pps = xl_delta_rate(&rx),
		.gen_sent = sent.n, .gen_xmit_errors = refused.n,
		.gen_pps = sent.ok && sent.n >= refused.n ? xl_rate(sent.n - refused.n, sent.ns) : 0,
		.cpu_busy = xl_delta_ratio(&busy, &total),
		.cpu_ns_per_pkt = xl_delta_ratio(&busy, &rx),
		.run_packets = r1 - r0,
		.eth_ok = k_ok, .eth_packets = k_ok ? k1 - k0 : 0,
		.disagreement = k_ok ? xl_disagreement(r1 - r0, k1 - k0) : 0,
		.xmit_events = -1,
	};
	if (rep->cpu_busy > 1.0)
		rep->cpu_busy = 1.0;
out:
	parts_destroy(&p);
	return err;
}

int xl_labrun_xsk(struct xl_lab *lab, const struct xl_labrun_opts *o,
		  enum xl_xsk_app_kind app, enum xl_xdp_mode mode, bool zerocopy,
		  uint32_t size, struct xl_row_result *row)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int app_cpu = ncpu > 1 ? (o->gen_cpu + 1) % ncpu : 0;
	enum xl_wiring old_wiring = lab->wiring;
	int old_napi = lab->napi_cpu, rep, err = 0;
	bool device = lab->wiring == XL_WIRING_DEVICE;
	struct xl_xsk_config c;
	char drv[32];

	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "xsk-%s", xl_xsk_app_name(app));
	row->kind = "xsk";
	row->action = "XDP_REDIRECT";
	row->op = xl_xsk_app_name(app);
	row->size = size;
	row->mode = zerocopy ? "zc" : mode == XL_MODE_SKB ? "skb" : "native";
	row->wiring = xl_wiring_name(XL_WIRING_SOFTIRQ);
	row->napi_cpu = o->gen_cpu;
	row->gen_cpu = o->gen_cpu;
	row->engine = app == XL_XSK_TXPUSH ? "xsk" : "live";
	row->judged = "app-cpu";
	if (device) {
		/* lab run --dut: the interface keeps its placement; rxdrop only. */
		row->wiring = xl_wiring_name(XL_WIRING_DEVICE);
		row->napi_cpu = row->gen_cpu = -1;
		row->engine = o->src ? o->src->engine : "external";
	}
	xsk_config(lab, app, mode, zerocopy, size, app_cpu, &c);
	if (zerocopy) {
		/* Zero-copy is a driver feature: say so instead of a figure.
		 * Probed once per lab (the failure is logged once). */
		static char probed_tag[sizeof(lab->tag)];
		static int probed_err;
		struct xl_xsk_app *a = NULL;

		if (strcmp(probed_tag, lab->tag)) {
			a = app_in_dut(lab, &c);
			probed_err = a ? 0 : errno;
			snprintf(probed_tag, sizeof(probed_tag), "%s", lab->tag);
		}
		if (probed_err) {
			err = probed_err;
			snprintf(drv, sizeof(drv), "the driver");
			if (!xl_lab__enter(lab, XL_LAB_DUT)) {
				xl_xsk_driver(lab->ifname[XL_LAB_DUT], drv, sizeof(drv));
				xl_lab__leave(lab);
			}
			if (err == EOPNOTSUPP) {
				snprintf(row->note, sizeof(row->note), "not supported by %s", drv);
				return 0;
			}
			snprintf(row->note, sizeof(row->note), "zero-copy bind failed: %s",
				 strerror(err));
			return -err;
		}
		xl_xsk_app__destroy(a);
	}
	if (device && app != XL_XSK_RXDROP) {
		snprintf(row->note, sizeof(row->note), "skipped: needs the veth lab: counted at the veth peer");
		return 0;
	}
	if (!device && lab->wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, XL_WIRING_SOFTIRQ, -1);
	/* XDP_SKB attaches no native program, so the DUT veth has no NAPI for
	 * the live frames (they would all be dropped): GRO gives it one. */
	if (!device && mode == XL_MODE_SKB && app != XL_XSK_TXPUSH)
		set_gro(lab, true);
	for (rep = 0; rep < o->reps; rep++) {
		if (o->stop && *o->stop) {
			err = -EINTR;
			break;
		}
		err = one_rep(lab, o, &c, size, app_cpu, &row->reps[rep], NULL);
		if (err) {
			snprintf(row->note, sizeof(row->note), "measurement failed: %s",
				 strerror(-err));
			break;
		}
		row->nreps = rep + 1;
		xl_dbg("%s %s %uB rep %d: %.3f Mpps, gen %.3f Mpps, app cpu %.0f%%", row->name,
		       row->mode, size, rep, row->reps[rep].pps / 1e6, row->reps[rep].gen_pps / 1e6,
		       row->reps[rep].cpu_busy * 100);
	}
	if (!err && o->profiler && !(o->stop && *o->stop)) {
		/* One more repetition, recorded by perf and not counted. */
		struct xl_rep_result extra;

		err = one_rep(lab, o, &c, size, app_cpu, &extra, row);
		if (!err && row->profile) {
			row->profile->have_window = true;
			row->profile->pps = extra.pps;
			row->profile->cpu_ns_per_pkt = extra.cpu_ns_per_pkt;
		}
		if (err && err != -EINTR) {
			xl_warn("%s %uB: the profiled repetition failed: %s", row->name, size,
				strerror(-err));
			err = 0;
		}
	}
	if (!device && mode == XL_MODE_SKB && app != XL_XSK_TXPUSH)
		set_gro(lab, false);
	if (!device && old_wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, old_wiring, old_napi);
	if (err == -EINTR)
		return err;
	xl_row_finish(row);
	return err;
}
