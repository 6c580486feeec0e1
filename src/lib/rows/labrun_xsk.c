// SPDX-License-Identifier: BSD-2-Clause
/*
 * Lab rows of the AF_XDP applications: the method of labrun_xdp.c (warm-up,
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
#include "xdplab/plan.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"
#include "xdplab/window.h"
#include "labrun_priv.h"

void xl_labrun_set_gro(struct xl_lab *lab, bool on)
{
	char *argv[] = { "ethtool", "-K", lab->ifname[XL_LAB_DUT], "gro", on ? "on" : "off", NULL };

	if (xl_lab__exec(lab, XL_LAB_DUT, argv))
		xl_warn("lab %s: ethtool -K %s gro %s failed", lab->tag, lab->ifname[XL_LAB_DUT],
			on ? "on" : "off");
}

void xl_labrun_xsk_config(struct xl_lab *lab, enum xl_xsk_app_kind app, enum xl_xdp_mode mode,
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
 * One AF_XDP row's measured run, a repetition per set-up (xl_plan_run(),
 * XL_PLAN_PER_REP): the application, the sink at the generator's end
 * (txpush, l2fwd) and the generator, made and destroyed per repetition.
 * The rate window holds only the counter reads and their stamps: our
 * count, the generator's and the app CPU's, taken next to each other at
 * both edges, so the wait is the only thing between them. The
 * cross-check with the kernel's count spans the whole repetition, from
 * before the first frame to after the last one was processed, as the XDP
 * rows do (src/lib/rows/labrun_xdp.c): at window edges while traffic flows the
 * two counters would be read microseconds apart, a visible error at Mpps,
 * and the ethtool round trip would sit inside the rate window.
 */
struct xsk_run {
	struct xl_lab *lab;
	const struct xl_labrun_opts *o;
	const struct xl_xsk_config *c;
	uint32_t size;
	int app_cpu;
	struct xl_row_result *row;
	struct xl_xsk_app *app;
	struct xl_bench *sink;
	struct xl_gen *gen;
	bool started, profiled, k_ok;
	struct xl_read c0, c1, s0, s1, f0, f1, b0, b1, t0, t1;
	uint64_t k0, k1, r0, r1;
	struct xl_rep_result rep; /* the repetition just measured */
};

static int xsk_setup(void *ctx, const struct xl_plan_step *st)
{
	struct xsk_run *x = ctx;
	const struct xl_labrun_opts *o = x->o;
	enum xl_xsk_app_kind app = x->c->app;
	int err;

	x->app = app_in_dut(x->lab, x->c);
	if (!x->app)
		return -errno;
	if (app != XL_XSK_RXDROP) {
		x->sink = sink_at_gen(x->lab);
		if (!x->sink)
			return -errno;
	}
	if (app != XL_XSK_TXPUSH && !o->src) {
		x->gen = xl_labrun_gen(x->lab, o, x->size);
		if (!x->gen)
			return -errno;
		/* The engine it got: packet where the host refuses live frames. */
		x->row->engine = xl_gen_engine_name(xl_gen__engine(x->gen));
	}
	x->k_ok = kernel_count(x->lab, x->c, &x->k0);
	x->r0 = counted(app, x->app, x->sink);
	err = xl_xsk_app__start(x->app);
	if (!err && (x->gen || o->src))
		err = xl_labrun_traffic_start(o, x->gen, x->size);
	if (!err && o->src) {
		/* Traffic from elsewhere (lab run --dut): wait for its first frame. */
		uint64_t waited;

		for (waited = 0; counted(app, x->app, x->sink) == x->r0; waited += 20000000ull) {
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
		xl_xsk_app__stop(x->app);
		xl_xsk_app__join(x->app);
		return err;
	}
	x->started = true;
	return 0;
}

static int xsk_open(void *ctx, const struct xl_plan_step *st)
{
	struct xsk_run *x = ctx;
	const struct xl_prof_cpu cpus[] = { { x->app_cpu, "xsk-app" }, { x->o->gen_cpu, "gen+napi" } };

	x->profiled = st->profiled && xl_labrun_prof_begin(x->o, x->row, cpus, 2);
	x->c0 = xl_read_now(counted(x->c->app, x->app, x->sink), true);
	gen_reads(x->gen, &x->s0, &x->f0);
	cpu_reads(x->app_cpu, &x->b0, &x->t0);
	return 0;
}

static int xsk_close(void *ctx, const struct xl_plan_step *st)
{
	struct xsk_run *x = ctx;

	x->c1 = xl_read_now(counted(x->c->app, x->app, x->sink), true);
	gen_reads(x->gen, &x->s1, &x->f1);
	cpu_reads(x->app_cpu, &x->b1, &x->t1);
	if (x->profiled)
		xl_labrun_prof_end(x->o, x->row);
	return 0;
}

/* The repetition's record from its reads (struct xsk_run.rep). */
static void xsk_record(struct xsk_run *x)
{
	struct xl_delta rx = xl_delta_of(&x->c0, &x->c1), sent = xl_delta_of(&x->s0, &x->s1);
	struct xl_delta refused = xl_delta_of(&x->f0, &x->f1), busy = xl_delta_of(&x->b0, &x->b1);
	struct xl_delta total = xl_delta_of(&x->t0, &x->t1);

	x->rep = (struct xl_rep_result){
		.ns = rx.ns, .packets = rx.n, .pps = xl_delta_rate(&rx),
		.gen_sent = sent.n, .gen_xmit_errors = refused.n,
		.gen_pps = sent.ok && sent.n >= refused.n ? xl_rate(sent.n - refused.n, sent.ns) : 0,
		.cpu_busy = xl_delta_ratio(&busy, &total),
		.cpu_ns_per_pkt = xl_delta_ratio(&busy, &rx),
		.run_packets = x->r1 - x->r0,
		.eth_ok = x->k_ok, .eth_packets = x->k_ok ? x->k1 - x->k0 : 0,
		.disagreement = x->k_ok ? xl_disagreement(x->r1 - x->r0, x->k1 - x->k0) : 0,
		.xmit_events = -1,
	};
	if (x->rep.cpu_busy > 1.0)
		x->rep.cpu_busy = 1.0;
}

static int xsk_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct xsk_run *x = ctx;
	const struct xl_labrun_opts *o = x->o;

	if (x->started) {
		int e = x->gen || o->src ? xl_labrun_traffic_stop(o, x->gen) : 0;

		if (!err)
			err = e;
		xl_sleep_ns(50000000ull, NULL); /* let the app drain its rings */
		xl_xsk_app__stop(x->app);
		e = xl_xsk_app__join(x->app);
		if (!err)
			err = e;
		x->r1 = counted(x->c->app, x->app, x->sink);
		x->k_ok = x->k_ok && kernel_count(x->lab, x->c, &x->k1);
		if (!err && o->stop && *o->stop)
			err = -EINTR;
		if (!err)
			xsk_record(x);
	}
	xl_gen__destroy(x->gen);
	xl_xsk_app__destroy(x->app);
	xl_bench__destroy(x->sink);
	x->gen = NULL;
	x->app = NULL;
	x->sink = NULL;
	x->started = false;
	if (err && !st->profiled)
		snprintf(x->row->note, sizeof(x->row->note), "measurement failed: %s",
			 strerror(-err));
	return err;
}

static int xsk_rep_done(void *ctx, const struct xl_plan_step *st)
{
	struct xsk_run *x = ctx;
	struct xl_row_result *row = x->row;

	if (st->profiled) {
		xl_labrun_prof_window(row, x->rep.pps, x->rep.cpu_ns_per_pkt);
		return 0;
	}
	row->reps[st->rep] = x->rep;
	row->nreps = st->rep + 1;
	xl_dbg("%s %s %uB rep %d: %.3f Mpps, gen %.3f Mpps, app cpu %.0f%%", row->name, row->mode,
	       x->size, st->rep, x->rep.pps / 1e6, x->rep.gen_pps / 1e6, x->rep.cpu_busy * 100);
	return 0;
}

static const struct xl_plan_ops xsk_ops = { .setup = xsk_setup, .teardown = xsk_teardown,
					    .open = xsk_open, .close = xsk_close,
					    .rep_done = xsk_rep_done };

int xl_labrun_xsk(struct xl_lab *lab, const struct xl_labrun_opts *o,
		  enum xl_xsk_app_kind app, enum xl_xdp_mode mode, bool zerocopy,
		  uint32_t size, struct xl_row_result *row)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int app_cpu = ncpu > 1 ? (o->gen_cpu + 1) % ncpu : 0;
	enum xl_wiring old_wiring = lab->wiring;
	int old_napi = lab->napi_cpu, err = 0;
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
	xl_labrun_xsk_config(lab, app, mode, zerocopy, size, app_cpu, &c);
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
		xl_labrun_set_gro(lab, true);
	{
		struct xsk_run x = { .lab = lab, .o = o, .c = &c, .size = size, .app_cpu = app_cpu,
				     .row = row };
		/* With a profiler, one more repetition, recorded by perf and not counted. */
		struct xl_plan p = { .reps = o->reps, .profile = o->profiler != NULL,
				     .scope = XL_PLAN_PER_REP, .warmup_ns = o->warmup_ns,
				     .window_ns = o->seconds_ns, .stop = o->stop, .cpu = app_cpu,
				     .ops = &xsk_ops, .ctx = &x, .companion = o->companion };

		err = xl_plan_run(&p);
		if (err && p.failed_profiled && err != -EINTR) {
			xl_warn("%s %uB: the profiled repetition failed: %s", row->name, size,
				strerror(-err));
			err = 0;
		}
	}
	if (!device && mode == XL_MODE_SKB && app != XL_XSK_TXPUSH)
		xl_labrun_set_gro(lab, false);
	if (!device && old_wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, old_wiring, old_napi);
	if (err == -EINTR)
		return err;
	xl_row_finish(row);
	return err;
}
