// SPDX-License-Identifier: BSD-2-Clause
/*
 * Measuring the XDP lab rows on the one measured run (xdp_ops) they share
 * with a user's own DUT (custom, --ab's two arms), the ceiling and the
 * stack baselines. The method (docs/lab.md): warm up, then one window
 * per repetition in which we read our per-CPU counters, the DUT CPU's busy
 * share and CPU time, the generator's sent count and the veth's own XDP
 * counter; medians over repetitions, since the VM is shared and noisy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <sys/socket.h>

#include "xdplab/bench.h"
#include "xdplab/escape.h"
#include "xdplab/gen.h"
#include "xdplab/labrun.h"
#include "labrun_priv.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/netlink.h"
#include "xdplab/nft.h"
#include "xdplab/plan.h"
#include "xdplab/progtime.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"

static void row_init(struct xl_row_result *row, struct xl_lab *lab,
		     const struct xl_labrun_opts *o, uint32_t size, enum xl_xdp_mode mode)
{
	xl_labrun_row_base(row, lab, o, size, mode);
	if (o->src) {
		/* A real interface: the CPU that counted most frames is judged. */
		row->napi_cpu = -1;
		row->gen_cpu = -1;
		row->engine = o->src->engine;
	}
}

/*
 * After @src started: wait until the DUT's counter moves past @z0 (up to
 * XL_LABRUN_ARRIVE_NS). Return: 0, -ETIMEDOUT, -EINTR or a read's -errno.
 */
static int wait_arrival(struct xl_meter *m, const struct xl_meter_sample *z0,
			const struct xl_labrun_opts *o)
{
	static struct xl_meter_sample s;
	uint64_t waited;
	int err;

	for (waited = 0; waited < XL_LABRUN_ARRIVE_NS; waited += 20000000ull) {
		err = xl_meter_sample(m, &s);
		if (err)
			return err;
		if (s.total.rx_packets != z0->total.rx_packets)
			return 0;
		if (o->src->ended && o->src->ended(o->src->ctx))
			return -EPIPE;
		if (xl_sleep_ns(20000000ull, o->stop))
			return -EINTR;
	}
	return -ETIMEDOUT;
}

static int bench_read(void *h, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	return xl_bench__read(h, total, per_cpu);
}

static void bench_destroy(void *h)
{
	xl_bench__destroy(h);
}

static int bench_prog_fd(void *h)
{
	return xl_bench__prog_fd(h);
}

static void *nft_create(const void *arg)
{
	return xl_nft_drop__create(*(const uint16_t *)arg);
}

static void nft_destroy(void *h)
{
	xl_nft_drop__destroy(h);
}

/* The DUT of an XDP or tc benchmark row: @bo's program (bo outlives it). */
static struct xl_labrun_dut bench_dut(const struct xl_bench_opts *bo)
{
	return (struct xl_labrun_dut){ .kind = XL_LABRUN_DUT_BENCH,
				       .create = xl_labrun_bench_create, .read = bench_read,
				       .destroy = bench_destroy, .arg = bo,
				       .prog_fd = bench_prog_fd };
}

/* The --extra-ns loop of a drop row as the first repetition calibrated it. */
static void set_extra(const struct xl_extra_cal *cal, struct xl_row_result *row)
{
	row->extra = (struct xl_row_extra){ .on = true, .target_ns = cal->target_ns,
					    .ns_per_iter = cal->ns_per_iter, .set_ns = cal->set_ns,
					    .check_ns = cal->check_ns, .iters = cal->iters,
					    .steps = (uint32_t)cal->steps };
	snprintf(row->note, sizeof(row->note), "extra %.0f ns: %u iterations, check %+.1f ns",
		 cal->target_ns, cal->iters, cal->check_ns);
}
static int sample_edge(const struct xl_labrun_opts *o, struct xl_meter *m,
		       struct xl_meter_sample *s)
{
	return xl_labrun_sample_edge(m, s, o->src && !o->src->start);
}

/*
 * One XDP row's measured run, a set-up per repetition (xl_plan_run(),
 * XL_PLAN_PER_REP), or two rows' (lab run --ab: the plan's arms, a set-up
 * per window): what each puts up, reads and keeps. @duts/@rows: the arm's
 * DUT and row; @h/@gen: this set-up's DUT and generator; @flowing: its
 * traffic started (and arrived); @own_err: the error so far is the row's,
 * not the plan's stop; @measuring: the DUT and generator were made, so a
 * failure keeps the repetitions that completed (xl_row_finish());
 * @rec: each arm's record of the repetition, made at its tear-down;
 * @window/@window_ctx: called before each --ab window's set-up.
 * @pt: the program's run time while the extra repetition measures it
 * (--prog-time); @pt_ns: its time per run over the window, ns (0: none).
 */
struct xdp_run {
	struct xl_lab *lab;
	const struct xl_labrun_opts *o;
	const struct xl_labrun_dut *duts[2];
	struct xl_row_result *rows[2];
	uint32_t size;
	bool ceiling, extra;
	struct xl_meter *m;
	struct xl_bench_opts bo_rep;
	struct xl_extra_cal cal;
	struct xl_prof_cpu cpus[XL_PROF_MAX_CPUS];
	int ncpus_prof;
	void *h;
	struct xl_gen *gen;
	bool flowing, profiled, own_err, measuring;
	struct xl_rep_result rec[2];
	void (*window)(void *ctx, int arm, int rep);
	void *window_ctx;
	struct xl_prog_time pt;
	double pt_ns;
};

/*
 * --prog-time, at the extra repetition's window start: the program's own
 * time (xdplab/progtime.h). A failure is said once, naming the first row
 * it hit, and leaves the row without the figure (the repetition goes on).
 */
static void prog_time_begin(struct xdp_run *x, const struct xl_labrun_dut *dut, const char *row)
{
	static bool said;
	int err = xl_prog_time_begin(&x->pt, dut->prog_fd(x->h));

	if (err && !said)
		xl_warn("lab run --prog-time: %s: no run time of its program (BPF_ENABLE_STATS or the program's info: %s): rows where this fails have no prog_ns_per_run",
			XL_ESC(row), strerror(-err));
	said |= err != 0;
}

/* The name of each kind's counter source (struct xl_counter_src.name). */
static const char *const dut_src_names[] = {
	[XL_LABRUN_DUT_BENCH] = "bench",
	[XL_LABRUN_DUT_NFT] = "nft",
	[XL_LABRUN_DUT_CUSTOM] = "prog",
};

/* Both edges of the count check and of the window (large: not on the stack). */
static struct xl_meter_sample z0, a, b, z1;

static int xdp_setup(void *ctx, const struct xl_plan_step *st)
{
	struct xdp_run *x = ctx;
	const struct xl_labrun_opts *o = x->o;
	const struct xl_labrun_dut *dut = x->duts[st->arm];
	struct xl_row_result *row = x->rows[st->arm];
	struct xl_meter *m = x->m;
	int err = 0;

	if (x->window)
		x->window(x->window_ctx, st->arm, st->rep);
	x->own_err = true;
	m->src = (struct xl_counter_src){ dut_src_names[dut->kind], dut->read, NULL };
	/*
	 * --extra-ns: the first repetition calibrates, the others set its
	 * iterations (a row is one cost, not one per repetition); both before
	 * the attach, so no live frame meets the calibration or runs with
	 * another count.
	 */
	if (x->extra) {
		x->bo_rep = *(const struct xl_bench_opts *)dut->arg;
		x->bo_rep.extra_cal = st->rep ? NULL : &x->cal;
		x->bo_rep.extra_ns = o->extra_ns;
		x->bo_rep.extra_iters = row->extra.iters;
		x->cal.err = 0;
	}
	x->h = xl_lab__create_in(x->lab, XL_LAB_DUT, dut->create, x->extra ? &x->bo_rep : dut->arg);
	if (!x->h) {
		err = -errno;
		if (x->extra && x->cal.err)
			snprintf(row->note, sizeof(row->note), "--extra-ns calibration failed: %s",
				 strerror(-x->cal.err));
		else
			snprintf(row->note, sizeof(row->note), "attach failed: %s", strerror(-err));
		return err;
	}
	if (x->extra && !st->rep)
		set_extra(&x->cal, row);
	if (dut->kind == XL_LABRUN_DUT_BENCH)
		row->counter = xl_bench__counter(x->h);
	x->gen = o->src ? NULL : xl_labrun_gen(x->lab, o, x->size);
	if (!x->gen && !o->src) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "generator failed: %s", strerror(-err));
		return err;
	}
	x->measuring = true;
	if (x->gen)
		row->engine = xl_gen_engine_name(xl_gen__engine(x->gen));
	m->src.ctx = x->h;
	m->gen = x->gen;
	m->napi_pid = xl_lab__napi_pid(x->lab);
	if (m->napi_pid < 0) {
		err = m->napi_pid;
		m->napi_pid = 0;
	}
	m->napi_cpu = row->napi_cpu;
	m->eth_sock = xl_lab__socket(x->lab, XL_LAB_DUT, AF_INET, SOCK_DGRAM);
	/*
	 * The count check compares whole runs, from before the first frame
	 * to after the last one was processed: window edges read while
	 * traffic flows would put our counters and the kernel's a few
	 * microseconds apart, which at Mpps is a visible error.
	 */
	if (!err)
		err = sample_edge(o, m, &z0);
	if (!err)
		err = xl_labrun_traffic_start(o, x->gen, x->size);
	if (!err && o->src) {
		err = wait_arrival(m, &z0, o);
		if (err == -ETIMEDOUT)
			snprintf(row->note, sizeof(row->note),
				 "no frame arrived within %.0f s of the generator's start",
				 XL_LABRUN_ARRIVE_NS / 1e9);
		if (err == -EPIPE)
			snprintf(row->note, sizeof(row->note),
				 "the generator ended before any frame arrived");
		if (err)
			xl_labrun_traffic_stop(o, x->gen);
	}
	x->flowing = !err;
	x->own_err = err != 0;
	return err;
}

/* After the warm-up: the NAPI kthread may be new after attach: find and pin it. */
static int xdp_open(void *ctx, const struct xl_plan_step *st)
{
	struct xdp_run *x = ctx;
	struct xl_row_result *row = x->rows[st->arm];
	struct xl_meter *m = x->m;
	int err = 0;

	m->napi_pid = xl_lab__napi_pid(x->lab);
	if (m->napi_pid < 0) {
		err = m->napi_pid; /* the generator is stopped in the tear-down */
		m->napi_pid = 0;
	}
	xl_meter_set_chain(m, row->gen_cpu, row->napi_cpu);
	x->profiled = false;
	if (!err && st->profiled)
		x->profiled = xl_labrun_prof_begin(x->o, row, x->cpus, x->ncpus_prof);
	x->pt_ns = 0;
	if (!err && st->profiled && x->o->prog_time && x->duts[st->arm]->prog_fd && !x->ceiling)
		prog_time_begin(x, x->duts[st->arm], row->name);
	if (!err)
		err = xl_meter_sample(m, &a);
	if (err && x->profiled)
		xl_labrun_prof_end(x->o, row);
	x->own_err = err != 0;
	return err;
}

static int xdp_close(void *ctx, const struct xl_plan_step *st)
{
	struct xdp_run *x = ctx;
	int err = xl_meter_sample(x->m, &b);

	if (x->pt.stats_fd >= 0)
		x->pt_ns = xl_prog_time_end(&x->pt, x->duts[st->arm]->prog_fd(x->h));
	if (x->profiled)
		xl_labrun_prof_end(x->o, x->rows[st->arm]);
	x->own_err = err != 0;
	return err;
}

/* The repetition's record of @st->arm from the samples (struct xdp_run.rec). */
static void xdp_record(struct xdp_run *x, const struct xl_plan_step *st)
{
	const struct xl_labrun_opts *o = x->o;
	struct xl_row_result *row = x->rows[st->arm];
	struct xl_rep_result *r = &x->rec[st->arm];
	struct xl_meter_window w;

	if (st->profiled) {
		if (x->pt_ns > 0)
			row->prog_ns = x->pt_ns;
		/* The profiled one: its figures only to show perf's cost. */
		if (xl_row_part(row, &xl_row_part_profile) && !x->ceiling) {
			xl_meter_window(x->m, &a, &b, &w);
			xl_meter_window_rep(&w, r);
			xl_labrun_prof_window(row, r->pps, r->cpu_ns_per_pkt);
		}
		return;
	}
	xl_meter_window(x->m, &z0, &z1, &w);
	{
		/* The check over the whole repetition, not the window's edges. */
		uint64_t eth_packets = w.eth_packets, run_packets = w.packets;
		double disagreement = w.disagreement;
		bool eth_ok = w.eth_ok;

		xl_meter_window(x->m, &a, &b, &w);
		xl_meter_window_rep(&w, r);
		r->eth_packets = eth_packets;
		r->run_packets = run_packets;
		r->eth_ok = eth_ok;
		r->disagreement = disagreement;
	}
	if (x->ceiling) {
		/*
		 * Judge and cost the generator's CPU, not the DUT's, over the
		 * same two samples as its frames (the /proc/stat reads of @a
		 * and @b); delivered frames, not offered.
		 */
		int g = o->gen_cpu;
		bool ok = g >= 0 && g < XL_MAX_CPUS && a.cpu_ok[g] && b.cpu_ok[g];
		struct xl_delta busy = { .n = ok ? b.cpu[g].busy - a.cpu[g].busy : 0, .ok = ok };
		struct xl_delta dlv = { .n = w.gen_sent.n - w.gen_refused.n, .ok = ok };
		struct xl_delta steal, span;

		r->pps = w.gen_pps;
		r->packets = dlv.n;
		r->cpu_busy = ok ? xl_cpu_busy_share(&a.cpu[g], &b.cpu[g]) : 0;
		r->cpu_ns_per_pkt = xl_delta_ratio(&busy, &dlv);
		r->cpu_source = ok ? XL_CPU_SRC_PROCSTAT : NULL;
		r->softirq_runs = 0;
		/* Its steal too is the generator CPU's. */
		xl_meter_steal(&a, &b, g, &steal, &span);
		r->steal_share = xl_steal_share(&steal, &span, &r->steal_high);
		r->steal_ok = r->steal_share >= 0;
	}
	xl_dbg("%s %uB rep %d: %.3f Mpps, gen %.3f Mpps, cpu %.0f%%", row->name, x->size, st->rep,
	       r->pps / 1e6, w.gen_pps / 1e6, r->cpu_busy * 100);
}

static int xdp_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct xdp_run *x = ctx;
	struct xl_row_result *row = x->rows[st->arm];
	struct xl_meter *m = x->m;

	if (x->flowing) {
		int e = xl_labrun_traffic_stop(x->o, x->gen);

		if (!err)
			err = e;
		xl_sleep_ns(50000000ull, NULL); /* let the DUT drain its ring */
		if (!err)
			err = sample_edge(x->o, m, &z1);
	}
	xl_prog_time_drop(&x->pt); /* the window failed before its end */
	if (m->eth_sock >= 0)
		close(m->eth_sock);
	m->eth_sock = -1;
	xl_gen__destroy(x->gen);
	if (x->h)
		x->duts[st->arm]->destroy(x->h);
	x->gen = x->h = NULL;
	x->flowing = false;
	if (!err && !(x->o->stop && *x->o->stop))
		xdp_record(x, st);
	/* Stopped in the window: no note, nothing kept of this repetition. */
	if (err && (x->own_err || err != -EINTR) && x->measuring) {
		if (!row->note[0] || (err != -ETIMEDOUT && err != -EPIPE))
			snprintf(row->note, sizeof(row->note), "measurement failed: %s",
				 strerror(-err));
		xl_row_finish(row); /* keep the repetitions that completed */
	}
	x->measuring = false;
	return err;
}

static int xdp_rep_done(void *ctx, const struct xl_plan_step *st)
{
	struct xdp_run *x = ctx;
	int k;

	for (k = 0; !st->profiled && k < 2 && x->rows[k]; k++) {
		x->rows[k]->reps[st->rep] = x->rec[k];
		x->rows[k]->nreps = st->rep + 1;
	}
	return 0;
}

static const struct xl_plan_ops xdp_ops = { .setup = xdp_setup, .teardown = xdp_teardown,
					    .open = xdp_open, .close = xdp_close,
					    .rep_done = xdp_rep_done };

/*
 * One measured run of @o->reps repetitions of @rows[0] (@duts[0] at the
 * DUT end), or with @rows[1] too, of the two in turn, a window each per
 * repetition (A B, B A...; @window called before each). @ceiling judges
 * the generator CPU.
 */
static int measure_arms(struct xl_lab *lab, const struct xl_labrun_opts *o,
			const struct xl_labrun_dut *const duts[2], uint32_t size, bool ceiling,
			struct xl_row_result *rows[2], void (*window)(void *ctx, int arm, int rep),
			void *window_ctx)
{
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1,
					      .queues = lab->queues,
					      .ifname = lab->ifname[XL_LAB_DUT], .no_sirq = ceiling };
	const struct xl_bench_opts *bo =
		duts[0]->kind == XL_LABRUN_DUT_BENCH ? duts[0]->arg : NULL;
	struct xl_row_result *row = rows[0];
	struct xdp_run x = { .lab = lab, .o = o, .duts = { duts[0], duts[1] },
			     .rows = { rows[0], rows[1] }, .size = size, .ceiling = ceiling,
			     .extra = bo && bo->extra && !ceiling, .m = &m,
			     .cpus = { { row->napi_cpu, "dut" }, { o->gen_cpu, "gen" } },
			     .ncpus_prof = 2, .window = window, .window_ctx = window_ctx,
			     .pt = XL_PROG_TIME_INIT };
	/* With a profiler or --prog-time, one more repetition: recorded, not counted. */
	struct xl_plan p = { .reps = o->reps, .arms = rows[1] ? 2 : 1,
			     .profile = o->profiler != NULL ||
					(o->prog_time && duts[0]->prog_fd && !ceiling),
			     .scope = rows[1] ? XL_PLAN_PER_WINDOW : XL_PLAN_PER_REP,
			     .warmup_ns = o->warmup_ns, .window_ns = o->seconds_ns,
			     .stop = o->stop, .cpu = ceiling ? o->gen_cpu : row->napi_cpu,
			     .ops = &xdp_ops, .ctx = &x, .companion = o->companion };
	int k, err;

	/* A --dut interface: the judged CPU is known only after the window; record them all. */
	if (row->napi_cpu < 0)
		for (x.ncpus_prof = 0; x.ncpus_prof < XL_PROF_MAX_CPUS &&
				       x.ncpus_prof < sysconf(_SC_NPROCESSORS_ONLN); x.ncpus_prof++)
			x.cpus[x.ncpus_prof] = (struct xl_prof_cpu){ x.ncpus_prof, "dut?" };
	err = xl_plan_run(&p);
	if (err)
		return err;
	for (k = 0; k < 2 && rows[k]; k++)
		xl_row_finish(rows[k]);
	return 0;
}

/* One row's measured run: measure_arms() with one arm. */
static int measure(struct xl_lab *lab, const struct xl_labrun_opts *o,
		   const struct xl_labrun_dut *dut, uint32_t size, bool ceiling,
		   struct xl_row_result *row)
{
	const struct xl_labrun_dut *const duts[2] = { dut, NULL };
	struct xl_row_result *rows[2] = { row, NULL };

	return measure_arms(lab, o, duts, size, ceiling, rows, NULL, NULL);
}

int xl_labrun_xdp(struct xl_lab *lab, const struct xl_labrun_opts *o, int action,
		  enum xl_pkt_op op, enum xl_xdp_mode mode, uint32_t size,
		  struct xl_row_result *row)
{
	const char *act = action == XDP_DROP ? "drop" : action == XDP_PASS ? "pass" :
			  action == XDP_TX ? "tx" : "?";
	row_init(row, lab, o, size, mode);
	row->action = xl_xdp_action_name(action);
	row->op = xl_pkt_op_name(op);
	/* "drop/OP"; pass and tx by their action alone, or "ACTION/OP" with an operation. */
	if (action == XDP_DROP || op != XL_OP_NO_TOUCH)
		snprintf(row->name, sizeof(row->name), "%s/%s", act, row->op);
	else
		snprintf(row->name, sizeof(row->name), "%s", act);
	{
		/* Where the driver counts (veth), the program does not (bench.h). */
		struct xl_bench_opts bo = { .action = action, .op = op,
					    .ifname = lab->ifname[XL_LAB_DUT], .mode = mode,
					    .extra = o->extra && action == XDP_DROP,
					    .driver_counts = !o->program_counts };
		struct xl_labrun_dut d = bench_dut(&bo);

		return measure(lab, o, &d, size, false, row);
	}
}

int xl_labrun_custom(struct xl_lab *lab, const struct xl_labrun_opts *o,
		     const struct xl_labrun_dut *dut, const char *name, const char *action,
		     enum xl_xdp_mode mode, uint32_t size, struct xl_row_result *row)
{
	row_init(row, lab, o, size, mode);
	row->action = action;
	snprintf(row->name, sizeof(row->name), "%s", name);
	return measure(lab, o, dut, size, false, row);
}

int xl_labrun_custom_ab(struct xl_lab *lab, const struct xl_labrun_opts *o,
			const struct xl_labrun_dut *const duts[2], const char *const names[2],
			const char *action, enum xl_xdp_mode mode, uint32_t size,
			struct xl_row_result *rows, void (*window)(void *ctx, int arm, int rep),
			void *ctx)
{
	struct xl_row_result *rp[2] = { &rows[0], &rows[1] };
	int k;

	for (k = 0; k < 2; k++) {
		row_init(&rows[k], lab, o, size, mode);
		rows[k].action = action;
		snprintf(rows[k].name, sizeof(rows[k].name), "%s", names[k]);
	}
	return measure_arms(lab, o, duts, size, false, rp, window, ctx);
}

int xl_labrun_ceiling(struct xl_lab *lab, const struct xl_labrun_opts *o,
		      uint32_t size, struct xl_row_result *row)
{
	row_init(row, lab, o, size, XL_MODE_NATIVE);
	row->kind = "gen";
	row->judged = "gen-cpu";
	snprintf(row->name, sizeof(row->name), "gen-ceiling");
	{
		struct xl_bench_opts bo = { .action = XDP_DROP, .op = XL_OP_NO_TOUCH,
					    .ifname = lab->ifname[XL_LAB_DUT],
					    .mode = XL_MODE_NATIVE };
		struct xl_labrun_dut d = bench_dut(&bo);

		return measure(lab, o, &d, size, true, row);
	}
}

int xl_labrun_stack(struct xl_lab *lab, const struct xl_labrun_opts *o, enum xl_baseline kind,
		    uint32_t size, struct xl_row_result *row)
{
	static const uint16_t port = XL_LABRUN_UDP_DPORT;
	struct xl_bench_opts bo = { .action = XDP_DROP, .op = XL_OP_NO_TOUCH,
				    .ifname = lab->ifname[XL_LAB_DUT], .tc = true };
	struct xl_labrun_dut nft = { .kind = XL_LABRUN_DUT_NFT, .create = nft_create,
				     .read = xl_nft_drop__read, .destroy = nft_destroy, .arg = &port };
	struct xl_labrun_dut tc = bench_dut(&bo);
	char *gro_on[] = { "ethtool", "-K", lab->ifname[XL_LAB_DUT], "gro", "on", NULL };
	char *gro_off[] = { "ethtool", "-K", lab->ifname[XL_LAB_DUT], "gro", "off", NULL };
	bool gro = lab->wiring == XL_WIRING_SOFTIRQ;
	int err;

	row_init(row, lab, o, size, XL_MODE_NATIVE);
	row->mode = "none";
	row->op = xl_pkt_op_name(XL_OP_NO_TOUCH);
	if (kind == XL_BASE_NFT) {
		row->kind = "stack";
		row->action = "NF_DROP";
		snprintf(row->name, sizeof(row->name), "stack-drop");
	} else {
		row->kind = "tc";
		row->action = "TC_ACT_SHOT";
		snprintf(row->name, sizeof(row->name), "tc-drop");
	}
	/*
	 * With no XDP program the DUT end has a NAPI (which the generator's
	 * ndo_xdp_xmit needs) only with GRO on: threaded wiring has it;
	 * softirq wiring gets it for this row.
	 */
	if (gro && xl_lab__exec(lab, XL_LAB_DUT, gro_on)) {
		snprintf(row->note, sizeof(row->note), "cannot turn GRO on at the DUT end");
		return -EOPNOTSUPP;
	}
	err = measure(lab, o, kind == XL_BASE_NFT ? &nft : &tc, size, false, row);
	if (gro)
		xl_lab__exec(lab, XL_LAB_DUT, gro_off);
	return err;
}
