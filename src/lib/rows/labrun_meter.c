// SPDX-License-Identifier: BSD-2-Clause
/*
 * The meter-cost row (xdplab/labrun_meter.h): drop no-touch on one traffic
 * set-up, the DUT CPU-time hook (the softirq tracepoints) loaded in one
 * arm's slices and not in the other's, interleaved by the planner
 * (xl_plan_run(), XL_PLAN_ONCE, 2 arms, slices); each arm's slices add into
 * its repetition (xl_meter_window_add()), and the cost is the watch-cost
 * rows' paired arithmetic (xl_watch_cpu_cost_ns() and its interval).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include "xdplab/hostrec.h"
#include "xdplab/labrun_meter.h"
#include "xdplab/labrun_redirect.h"
#include "labrun_priv.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/plan.h"
#include "xdplab/softirq_time.h"
#include "xdplab/time.h"

/* After the hook is loaded or detached, before the slice's first read: ns. */
#define METER_SETTLE_NS 5000000ull

/* The arms: rows[ARM_NONE] "meter-cost/none", rows[ARM_HOOK] "meter-cost/hook". */
enum { ARM_NONE, ARM_HOOK };

/*
 * One measured run. @bo: the DUT's benchmark options (drop no-touch);
 * @h/@gen: the set-up's DUT and generator; @hooked: this slice holds a
 * reference on the hook; @acc: each arm's sums over the repetition's
 * slices.
 */
struct meter_run {
	struct xl_lab *lab;
	const struct xl_labrun_opts *o;
	struct xl_row_result *rows;
	uint32_t size;
	struct xl_meter *m;
	struct xl_bench_opts bo;
	struct xl_bench *h;
	struct xl_gen *gen;
	bool hooked;
	struct xl_meter_window acc[XL_METER_COST_ROWS];
	uint64_t runs0, runs, hook_packets;
};

/*
 * The judged CPU's NET_RX runs so far, from the hook itself (loaded in the
 * hook arm's slices only); *@runs untouched when it cannot be read.
 */
static void hook_runs(int cpu, uint64_t *runs)
{
	uint64_t ns[XL_MAX_CPUS], r[XL_MAX_CPUS], t, gen;

	if (cpu >= 0 && cpu < XL_MAX_CPUS && !xl_sirq_read(ns, r, XL_MAX_CPUS, &t, &gen))
		*runs = r[cpu];
}

/* A slice's two samples (large: not on the stack). */
static struct xl_meter_sample meter_a, meter_b;

static int meter_setup(void *ctx, const struct xl_plan_step *st)
{
	struct meter_run *x = ctx;
	struct xl_row_result *row = &x->rows[ARM_NONE];
	struct xl_meter *m = x->m;
	int err;

	x->h = xl_labrun_bench(x->lab, XL_LAB_DUT, &x->bo);
	if (!x->h) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "attach failed: %s", strerror(-err));
		return err;
	}
	x->gen = xl_labrun_gen(x->lab, x->o, x->size);
	if (!x->gen) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "generator failed: %s", strerror(-err));
		return err;
	}
	x->rows[ARM_NONE].engine = x->rows[ARM_HOOK].engine =
		xl_gen_engine_name(xl_gen__engine(x->gen));
	x->rows[ARM_NONE].counter = x->rows[ARM_HOOK].counter = xl_bench__counter(x->h);
	m->src = xl_counter_src_bench(x->h);
	m->gen = x->gen;
	m->eth_sock = xl_lab__socket(x->lab, XL_LAB_DUT, AF_INET, SOCK_DGRAM);
	return xl_labrun_traffic_start(x->o, x->gen, x->size);
}

/*
 * A slice of arm st->arm: at a repetition's first, the sums emptied and
 * the NAPI looked up again; the hook loaded for the hook arm (outside the
 * window: loading takes milliseconds), settled, then the counters read.
 */
static int meter_open(void *ctx, const struct xl_plan_step *st)
{
	struct meter_run *x = ctx;
	struct xl_row_result *rk = &x->rows[st->arm];
	struct xl_meter *m = x->m;
	int k, err;

	if (!st->window) {
		for (k = 0; k < XL_METER_COST_ROWS; k++)
			xl_meter_window_zero(&x->acc[k]);
		m->napi_pid = xl_lab__napi_pid(x->lab);
		if (m->napi_pid < 0) {
			err = m->napi_pid;
			m->napi_pid = 0;
			return err;
		}
		xl_meter_set_chain(m, x->o->gen_cpu, x->rows[ARM_NONE].napi_cpu);
	}
	if (st->arm == ARM_HOOK) {
		err = xl_sirq_get();
		if (err) {
			snprintf(rk->note, sizeof(rk->note), "cannot load the softirq tracepoints: %s",
				 strerror(-err));
			return err;
		}
		x->hooked = true;
	}
	xl_sleep_ns(METER_SETTLE_NS, x->o->stop);
	err = xl_labrun_sample_edge(m, &meter_a, true);
	if (x->hooked)
		hook_runs(m->napi_cpu, &x->runs0);
	if (err)
		snprintf(rk->note, sizeof(rk->note), "measurement failed: %s", strerror(-err));
	return err;
}

/* The slice's end: the counters read, the hook let go, the slice added to its arm's sums. */
static int meter_close(void *ctx, const struct xl_plan_step *st)
{
	struct meter_run *x = ctx;
	struct xl_row_result *rk = &x->rows[st->arm];
	bool stopped = x->o->stop && *x->o->stop;
	struct xl_meter_window w;
	int err = 0;
	uint64_t runs1 = x->runs0;

	if (!stopped)
		err = xl_labrun_sample_edge(x->m, &meter_b, true);
	if (x->hooked) {
		hook_runs(x->m->napi_cpu, &runs1);
		xl_sirq_put(); /* after the sample: outside the window */
	}
	x->hooked = false;
	if (err) {
		snprintf(rk->note, sizeof(rk->note), "measurement failed: %s", strerror(-err));
		return err;
	}
	if (stopped)
		return 0; /* the plan ends with -EINTR */
	xl_meter_window(x->m, &meter_a, &meter_b, &w);
	xl_meter_window_add(&x->acc[st->arm], &w);
	if (st->arm == ARM_HOOK && runs1 >= x->runs0) {
		x->runs += runs1 - x->runs0;
		x->hook_packets += w.packets;
	}
	return 0;
}

static int meter_rep_done(void *ctx, const struct xl_plan_step *st)
{
	struct meter_run *x = ctx;
	int k;

	for (k = 0; k < XL_METER_COST_ROWS; k++) {
		struct xl_row_result *rk = &x->rows[k];

		xl_meter_window_rep(&x->acc[k], &rk->reps[st->rep]);
		rk->nreps = st->rep + 1;
		xl_dbg("%s %uB rep %d: %.3f Mpps, chain %.1f, DUT %.1f CPU ns/packet", rk->name,
		       x->size, st->rep, rk->reps[st->rep].pps / 1e6,
		       rk->reps[st->rep].chain_ns_per_pkt, rk->reps[st->rep].cpu_ns_per_pkt);
	}
	return 0;
}

static int meter_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct meter_run *x = ctx;

	if (x->hooked)
		xl_sirq_put();
	x->hooked = false;
	if (x->gen) {
		int e = xl_labrun_traffic_stop(x->o, x->gen);

		err = err ? err : e;
	}
	if (x->m->eth_sock >= 0)
		close(x->m->eth_sock);
	x->m->eth_sock = -1;
	xl_gen__destroy(x->gen);
	xl_bench__destroy(x->h);
	x->gen = NULL;
	x->h = NULL;
	return err;
}

static const struct xl_plan_ops meter_ops = { .setup = meter_setup, .teardown = meter_teardown,
					      .open = meter_open, .close = meter_close,
					      .rep_done = meter_rep_done };

/* rows[ARM_HOOK]'s part and note from the two rows' paired repetitions. */
static void meter_estimate(struct meter_run *x, const char *meter_source, int slices)
{
	struct xl_row_result *none = &x->rows[ARM_NONE], *hook = &x->rows[ARM_HOOK];
	struct xl_meter_cost *c = xl_row_part_get(hook, &xl_row_part_meter);
	double lo, hi;
	int n;

	if (!c || !none->nreps || none->nreps != hook->nreps)
		return;
	c->hook = XL_CPU_SRC_TRACEPOINT;
	c->meter_source = meter_source;
	c->meter_uses_hook = !strcmp(meter_source, XL_CPU_SRC_TRACEPOINT);
	c->slices = slices;
	c->pairs = none->nreps;
	c->chain_ns = xl_watch_cpu_cost_ns(none, hook);
	c->chain_ci = !xl_watch_cpu_cost_ci(none, hook, &lo, &hi);
	c->chain_lo = c->chain_ci ? lo : 0;
	c->chain_hi = c->chain_ci ? hi : 0;
	c->dut_ns = xl_watch_dut_cost_ns(none, hook, &c->dut_ci, &c->dut_lo, &c->dut_hi);
	c->dut_source = hook->cpu_source;
	c->net_rx_runs = x->runs;
	/* Threaded: the DUT runs in no softirq; the few runs counted are others'. */
	c->frames_per_run = x->runs && !x->m->napi_pid ? (double)x->hook_packets / x->runs : -1;
	c->valid = true;
	n = snprintf(hook->note, sizeof(hook->note),
		     "hook %+.2f chain CPU ns/packet", c->chain_ns);
	if (c->chain_ci && n > 0 && (size_t)n < sizeof(hook->note))
		n += snprintf(hook->note + n, sizeof(hook->note) - n, " (95%% CI %.2f..%.2f)",
			      c->chain_lo, c->chain_hi);
	if (n > 0 && (size_t)n < sizeof(hook->note))
		n += snprintf(hook->note + n, sizeof(hook->note) - n, ", %+.2f DUT CPU ns/packet",
			      c->dut_ns);
	if (c->frames_per_run > 0 && n > 0 && (size_t)n < sizeof(hook->note))
		n += snprintf(hook->note + n, sizeof(hook->note) - n,
			      " at %.1f frames per NET_RX run", c->frames_per_run);
	if (n > 0 && (size_t)n < sizeof(hook->note))
		snprintf(hook->note + n, sizeof(hook->note) - n, "; the rows here read %s: %s",
			 meter_source, c->meter_uses_hook ? "they pay it" : "no hook");
}

int xl_labrun_meter_cost(struct xl_lab *lab, const struct xl_labrun_opts *lo, uint32_t size,
			 struct xl_row_result *rows)
{
	static const char *const names[] = { "meter-cost/none", "meter-cost/hook" };
	/* The row's meter never loads the hook: the row does, in one arm's slices. */
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1,
					      .queues = lab->queues,
					      .ifname = lab->ifname[XL_LAB_DUT], .no_sirq = true };
	struct xl_meter rows_meter;
	struct xl_labrun_opts wo = *lo, *o = &wo;
	struct meter_run x = { .lab = lab, .o = o, .rows = rows, .size = size, .m = &m };
	struct xl_plan p = { .arms = XL_METER_COST_ROWS, .scope = XL_PLAN_ONCE, .stop = lo->stop,
			     .ops = &meter_ops, .ctx = &x, .companion = lo->companion };
	int k, err, nslices;

	for (k = 0; k < XL_METER_COST_ROWS; k++) {
		xl_labrun_row_base(&rows[k], lab, o, size, XL_MODE_NATIVE);
		rows[k].action = xl_xdp_action_name(XDP_DROP);
		rows[k].op = xl_pkt_op_name(XL_OP_NO_TOUCH);
		snprintf(rows[k].name, sizeof(rows[k].name), "%s", names[k]);
	}
	if (xl_sirq_users()) {
		snprintf(rows[ARM_NONE].note, sizeof(rows[ARM_NONE].note),
			 "the softirq tracepoints are held by another meter: both arms would pay them");
		return -EBUSY;
	}
	m.napi_cpu = rows[ARM_NONE].napi_cpu;
	x.bo = (struct xl_bench_opts){ .action = XDP_DROP, .op = XL_OP_NO_TOUCH,
				       .ifname = lab->ifname[XL_LAB_DUT], .mode = XL_MODE_NATIVE,
				       .driver_counts = !o->program_counts };
	if (wo.reps < XL_WATCH_MIN_REPS)
		wo.reps = XL_WATCH_MIN_REPS;
	if (wo.seconds_ns > XL_WATCH_MAX_WINDOW_NS)
		wo.seconds_ns = XL_WATCH_MAX_WINDOW_NS;
	nslices = wo.seconds_ns / XL_WATCH_SLICE_NS > 1 ? wo.seconds_ns / XL_WATCH_SLICE_NS : 1;
	p.reps = wo.reps;
	p.slices = nslices;
	p.warmup_ns = wo.warmup_ns;
	p.window_ns = wo.seconds_ns / nslices;
	p.cpu = rows[ARM_NONE].napi_cpu;
	err = xl_plan_run(&p);
	if (lo->host) {
		struct xl_row_result *set[XL_METER_COST_ROWS];

		for (k = 0; k < XL_METER_COST_ROWS; k++)
			set[k] = &rows[k];
		xl_hostrec__take_set(lo->host, set, XL_METER_COST_ROWS);
	}
	if (err == -EINTR)
		for (k = 0; k < XL_METER_COST_ROWS; k++)
			if (!rows[k].note[0])
				snprintf(rows[k].note, sizeof(rows[k].note),
					 "interrupted after %d of %d repetitions", rows[k].nreps,
					 wo.reps);
	for (k = 0; k < XL_METER_COST_ROWS; k++)
		xl_row_finish(&rows[k]);
	if (err)
		return err;
	/* What the lab's other rows read in this wiring: their meters load the hook where chosen. */
	rows_meter = m;
	rows_meter.no_sirq = false;
	rows_meter.sirq_held = false; /* a copy: no reference of its own (m holds none) */
	meter_estimate(&x, xl_meter_cpu_source(&rows_meter), nslices);
	return 0;
}
