// SPDX-License-Identifier: BSD-2-Clause
/*
 * `lab run --sensitivity`: the smallest extra CPU cost per packet that a
 * compare of this lab's repetitions flags (xdplab/labrun.h). One benchmark
 * with the calibrated --extra-ns loop and one generator run per row; the
 * cost is switched between windows by writing the loop's iteration count.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include "xdplab/compare.h"
#include "xdplab/labrun.h"
#include "labrun_priv.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/plan.h"
#include "xdplab/time.h"

/* Time the NAPI takes to pick up a new iteration count, before a window. */
#define SETTLE_NS 20000000ull

/*
 * One cost tried (xl_plan_run(), one set-up for all: the benchmark and the
 * generator run through the whole search): arm 0 windows with @iters of
 * the loop, arm 1 without, A B, B A...; each window's pps and CPU
 * ns/packet go to its side's next repetition.
 */
struct sens_run {
	struct xl_meter *m;
	struct xl_bench *bench;
	uint32_t iters;
	const struct xl_labrun_opts *o;
	struct xl_cmp_rowdata *side[2];
	double *busy[2];
};

/* The window's two samples (large: not on the stack). */
static struct xl_meter_sample sens_a, sens_b;

/* The arm's iteration count, given the NAPI time to pick it up, then the first read. */
static int sens_open(void *ctx, const struct xl_plan_step *st)
{
	struct sens_run *x = ctx;

	xl_bench__set_extra_iters(x->bench, st->arm ? 0 : x->iters);
	xl_sleep_ns(SETTLE_NS, x->o->stop);
	return xl_meter_sample(x->m, &sens_a);
}

static int sens_close(void *ctx, const struct xl_plan_step *st)
{
	struct sens_run *x = ctx;
	struct xl_cmp_rowdata *d = x->side[st->arm];
	struct xl_meter_window w;
	int err = xl_meter_sample(x->m, &sens_b);

	if (err || (x->o->stop && *x->o->stop))
		return err; /* stopped: the plan ends with -EINTR */
	xl_meter_window(x->m, &sens_a, &sens_b, &w);
	d->pps[d->nreps] = w.pps;
	d->cpu_ns[d->nreps] = w.cpu_ns_per_pkt;
	x->busy[st->arm][d->nreps] = w.cpu_busy;
	d->nreps++;
	return 0;
}

static const struct xl_plan_ops sens_ops = { .open = sens_open, .close = sens_close };

/* A side's figures as compare reads them from a file. */
static void finish_side(struct xl_cmp_rowdata *d, const char *name, uint32_t size,
			const double *busy)
{
	double v[XL_MAX_REPS];
	int i;

	snprintf(d->name, sizeof(d->name), "%s", name);
	d->size = size;
	for (i = 0; i < d->nreps; i++)
		v[i] = d->pps[i] / 1e6;
	d->mpps = xl_summarize(v, d->nreps);
	snprintf(d->verdict, sizeof(d->verdict), "%s",
		 xl_summarize(busy, d->nreps).median >= XL_SATURATED_SHARE ? "valid" :
									     "generator-bound");
}

/*
 * Calibrate @bench's loop again between windows, for @ns CPU ns per packet
 * (its count checked with BPF_PROG_RUN, xl_bench__calibrate_extra()):
 * detached (the generator's frames meanwhile go to the stack, not into the
 * calibration's loops or zeroed counters), then attached again in the
 * DUT's netns.
 */
static int recalibrate(struct xl_lab *lab, struct xl_bench *bench, double ns,
		       struct xl_extra_cal *cal)
{
	int err, e;

	xl_bench__detach(bench);
	err = xl_bench__calibrate_extra(bench, ns, cal);
	e = xl_lab__enter(lab, XL_LAB_DUT);
	if (e)
		return e;
	e = xl_bench__attach(bench);
	xl_lab__leave(lab);
	return err ? err : e;
}

/* Measure one cost @t->extra_ns (@cal's loop) against none and compare the two. */
static int try_cost(struct xl_meter *m, struct xl_bench *bench, const struct xl_extra_cal *cal,
		    const struct xl_labrun_opts *o, const struct xl_sens_result *res,
		    struct xl_sens_try *t)
{
	static struct xl_cmp_rowdata zero, with;
	double bz[XL_MAX_REPS], bw[XL_MAX_REPS];
	const struct xl_cmp_opts co = { .alpha = XL_CMP_ALPHA_DEFAULT, .threshold_ns = 0 };
	struct xl_cmp_row r = { .base = &zero, .new = &with };
	uint32_t iters = cal->iters;
	int err;

	memset(&zero, 0, sizeof(zero));
	memset(&with, 0, sizeof(with));
	t->set_ns = cal->check_ns;
	t->ns_per_iter = cal->ns_per_iter;
	{
		struct sens_run x = { .m = m, .bench = bench, .iters = iters, .o = o,
				      .side = { &with, &zero }, .busy = { bw, bz } };
		struct xl_plan p = { .reps = o->reps, .arms = 2, .scope = XL_PLAN_ONCE,
				     .window_ns = o->seconds_ns, .stop = o->stop, .cpu = m->napi_cpu,
				     .ops = &sens_ops, .ctx = &x, .companion = o->companion };

		err = xl_plan_run(&p);
	}
	if (err)
		return err;
	finish_side(&zero, res->name, res->size, bz);
	finish_side(&with, res->name, res->size, bw);
	xl_cmp_row_compare(&r, &co);
	t->p = r.test.p;
	t->on_cpu = r.on_cpu;
	t->delta_ns = r.delta;
	t->regression = r.verdict == XL_CMP_REGRESSION;
	xl_dbg("sensitivity %s %uB +%g ns: p %.4f, delta %+.2f %s", res->name, res->size,
	       t->extra_ns, t->p, t->delta_ns, t->on_cpu ? "CPU ns/packet" : "ns/packet");
	return 0;
}

int xl_labrun_sensitivity(struct xl_lab *lab, const struct xl_labrun_opts *o,
			  enum xl_pkt_op op, enum xl_xdp_mode mode, uint32_t size,
			  struct xl_sens_result *res)
{
	static const double ladder[] = XL_SENS_LADDER;
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1,
					      .queues = lab->queues,
					      .ifname = lab->ifname[XL_LAB_DUT] };
	struct xl_extra_cal cal;
	struct xl_bench *bench;
	struct xl_gen *gen;
	size_t need, i;
	int err;

	memset(res, 0, sizeof(*res));
	snprintf(res->name, sizeof(res->name), "drop/%s", xl_pkt_op_name(op));
	res->size = size;
	res->reps = o->reps;
	res->detected_ns = -1;
	if (xl_mann_whitney_min_p(o->reps, o->reps) >= XL_CMP_ALPHA_DEFAULT) {
		need = xl_mann_whitney_n_needed(XL_CMP_ALPHA_DEFAULT);
		snprintf(res->note, sizeof(res->note),
			 "%d vs %d repetitions can never reach p < %g (smallest p %.3f): no cost is detectable; use --reps %zu or more",
			 o->reps, o->reps, XL_CMP_ALPHA_DEFAULT,
			 xl_mann_whitney_min_p(o->reps, o->reps), need);
		return 0;
	}
	/* Calibrated before the attach (struct xl_bench_opts.extra_cal). */
	cal.err = 0;
	bench = xl_labrun_bench(lab, XL_LAB_DUT,
				&(struct xl_bench_opts){ .action = XDP_DROP, .op = op,
							 .ifname = lab->ifname[XL_LAB_DUT],
							 .mode = mode, .extra = true, .extra_cal = &cal });
	if (!bench) {
		err = -errno;
		if (cal.err)
			snprintf(res->note, sizeof(res->note), "--extra-ns calibration failed: %s",
				 strerror(-cal.err));
		else
			snprintf(res->note, sizeof(res->note), "attach failed: %s", strerror(-err));
		return err;
	}
	res->ns_per_iter = cal.ns_per_iter;
	gen = xl_labrun_gen(lab, o, size);
	if (!gen) {
		err = -errno;
		snprintf(res->note, sizeof(res->note), "generator failed: %s", strerror(-err));
		goto out_bench;
	}
	m.src = xl_counter_src_bench(bench);
	m.gen = gen;
	m.napi_cpu = lab->wiring == XL_WIRING_THREADED ? lab->napi_cpu : o->gen_cpu;
	m.eth_sock = xl_lab__socket(lab, XL_LAB_DUT, AF_INET, SOCK_DGRAM);
	err = xl_gen__start(gen);
	if (err) {
		snprintf(res->note, sizeof(res->note), "generator failed: %s", strerror(-err));
		goto out_gen;
	}
	xl_sleep_ns(o->warmup_ns, o->stop);
	m.napi_pid = xl_lab__napi_pid(lab);
	xl_meter_set_chain(&m, o->gen_cpu, m.napi_cpu);
	/*
	 * Each cost is a test at alpha 0.05, and the ladder makes up to 15 of
	 * them: a cost flagged is measured once more and counts only if
	 * flagged again (chance alone then passes a step with p <= 0.0025).
	 */
	for (i = 0; i < sizeof(ladder) / sizeof(ladder[0]) && res->ntries < XL_SENS_MAX_TRIES; ) {
		struct xl_sens_try *t = &res->tries[res->ntries];
		bool confirming = res->ntries && t[-1].regression && !t[-1].confirmation &&
				  t[-1].extra_ns == ladder[i];

		t->extra_ns = ladder[i];
		t->confirmation = confirming;
		/*
		 * Calibrated again for each try, between windows: this host's
		 * vCPU was seen to change speed 2x for minutes at a time.
		 */
		err = recalibrate(lab, bench, t->extra_ns, &cal);
		if (!err)
			err = try_cost(&m, bench, &cal, o, res, t);
		if (err)
			break;
		res->ntries++;
		if (t->regression && confirming) {
			res->detected_ns = t->extra_ns;
			break;
		}
		if (!t->regression || confirming)
			i++; /* else: the same cost again, to confirm */
	}
	if (!err && res->detected_ns < 0)
		snprintf(res->note, sizeof(res->note), "no cost up to %g ns/packet was detected",
			 res->tries[res->ntries - 1].extra_ns);
	if (err && err != -EINTR)
		snprintf(res->note, sizeof(res->note), "measurement failed: %s", strerror(-err));
	xl_gen__stop(gen);
	xl_gen__join(gen);
out_gen:
	if (m.eth_sock >= 0)
		close(m.eth_sock);
	xl_gen__destroy(gen);
out_bench:
	xl_bench__destroy(bench);
	return err;
}
