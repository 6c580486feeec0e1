// SPDX-License-Identifier: BSD-2-Clause
/*
 * Redirect rows (the price of watching them: labrun_watch.c). Same method
 * as labrun_xdp.c (warm-up, one window per repetition, medians), but the
 * frames are counted where they arrive: an XDP_DROP sink on the far end of
 * out pair 0 (its NAPI runs on the DUT's NAPI CPU, so that CPU is judged),
 * or the program on the cpumap entry (its CPU is judged). The monitor, when asked for, is
 * loaded before the generator starts and stays for the whole window.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "xdplab/gen.h"
#include "xdplab/hostrec.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/monitor.h"
#include "xdplab/perflisten.h"
#include "xdplab/plan.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"
#include "labrun_priv.h"
#include "labrun_redirect_priv.h"
#include "watch_lazy.h"

/* The XDP_DROP sink at the far end of the first out pair: where frames arrive. */
static struct xl_bench *sink_create(struct xl_lab *lab)
{
	struct xl_bench_opts bo = { .action = XDP_DROP, .op = XL_OP_NO_TOUCH,
				    .ifname = lab->out_ifname[0][XL_LAB_GEN],
				    .mode = XL_MODE_NATIVE };

	return xl_labrun_bench(lab, XL_LAB_GEN, &bo);
}

static void *redirect_create(const void *ro)
{
	return xl_redirect__create(ro);
}

static struct xl_redirect *redir_create(struct xl_lab *lab, enum xl_redir_kind kind, int cpu)
{
	struct xl_redirect_opts ro = { .kind = kind, .in = lab->ifname[XL_LAB_DUT],
				       .mode = XL_MODE_NATIVE, .cpu = cpu,
				       .cpu_action = XL_CPU_ACT_DROP };

	if (kind == XL_REDIR_DEVMAP) {
		ro.out[0] = lab->out_ifname[0][XL_LAB_DUT];
		ro.nout = 1;
	}
	return xl_lab__create_in(lab, XL_LAB_DUT, redirect_create, &ro);
}

/*
 * The monitor's device filter: the lab's veth ends on both sides (the
 * generator's and the DUT's redirect hops), each as (namespace inode,
 * ifindex), so other XDP traffic on the machine (another lab, another
 * user) is not counted in the events per packet. Return: how many.
 */
static int lab_devs(const struct xl_lab *lab, struct xl_mon_dev *devs)
{
	struct stat st;
	int s, i, n = 0;

	for (s = 0; s < 2; s++) {
		if (fstat(lab->ns_fd[s], &st))
			continue;
		if (lab->ifindex[s] && n < XL_MON_MAX_DEVS)
			devs[n++] = (struct xl_mon_dev){ (__u32)st.st_ino, lab->ifindex[s] };
		for (i = 0; i < lab->nout; i++)
			if (lab->out_ifindex[i][s] && n < XL_MON_MAX_DEVS)
				devs[n++] = (struct xl_mon_dev){ (__u32)st.st_ino,
								 lab->out_ifindex[i][s] };
	}
	return n;
}

/* xdp_devmap_xmit events counted so far by @mon, or -1 when unreadable. */
static int64_t xmit_events(struct xl_monitor *mon)
{
	static struct xl_mon_snapshot s;
	int64_t n = 0;
	int i;

	if (!mon || xl_monitor__read(mon, &s))
		return -1;
	for (i = 0; i < s.n; i++)
		if (s.rows[i].key.event == XL_EV_DEVMAP_XMIT)
			n += s.rows[i].val.events;
	return n;
}

/* After a monitor's links are made or cut (jump-label patching): ns. */
#define WATCH_SETTLE_NS 5000000ull

/*
 * One level's sums over the slices of a repetition: the slices' raw deltas
 * add (xl_meter_window_add()), and the figures come from the sums.
 */
struct watch_acc {
	struct xl_meter_window w;
	int64_t events;
};

static void acc_add(struct watch_acc *s, const struct xl_meter_window *w, int64_t events)
{
	xl_meter_window_add(&s->w, w);
	s->events = s->events < 0 || events < 0 ? -1 : s->events + events;
}

/* The check spans the same slices as the figures. */
static struct xl_rep_result acc_rep(const struct watch_acc *s)
{
	struct xl_rep_result r;

	xl_meter_window_rep(&s->w, &r);
	r.xmit_events = s->events;
	return r;
}

/* A slice's two samples and its first steering read (large: not on the stack). */
static struct xl_meter_sample redir_a, redir_b;
static struct xl_steer_target redir_st0[XL_STEER_MAX_CPUS];

/* Most programs of one set's monitors (about 12: errors-only, --all and the floor). */
#define WATCH_MAX_PROGS 64

/* @row's note when its monitor did not come off its tracepoints. */
/* The kthread whose CPU time is the row's: the DUT's NAPI, or cpumap's; 0: softirq. */
static int dut_kthread_pid(struct xl_lab *lab, enum xl_redir_kind kind, struct xl_redirect *r)
{
	return kind == XL_REDIR_DEVMAP ? xl_lab__napi_pid(lab) : xl_redirect__cpumap_kthread_pid(r);
}

static void detach_note(struct xl_row_result *row, int err)
{
	if (err == -EBUSY)
		snprintf(row->note, sizeof(row->note),
			 "monitor detach: its links stayed attached for %d ms, held by another process (a pin? see bpftool link list)",
			 XL_MON_DETACH_WAIT_MS);
	else
		snprintf(row->note, sizeof(row->note), "monitor detach failed: %s",
			 strerror(-err));
}

/*
 * The kernel's ids of the set's monitors' programs (@ids[0..@n)) and of
 * the floor's (its one program, on xdp_devmap_xmit), read once after load:
 * a program's id is fixed while it stays loaded. @n < 0: not read (-errno).
 */
struct watch_ids {
	uint32_t ids[WATCH_MAX_PROGS], floor;
	int n;
};

/* Read @wi from the set's monitors @mon[0..@n) and @floor, once after their load. */
static void watch_ids_read(struct xl_monitor **mon, int n, struct xl_monitor *floor,
			   struct watch_ids *wi)
{
	int k, got;

	wi->n = 0;
	for (k = 0; k < n; k++) {
		if (!mon[k])
			continue;
		got = xl_monitor__prog_ids(mon[k], wi->ids + wi->n, WATCH_MAX_PROGS - wi->n);
		if (got > 0)
			wi->n += got < WATCH_MAX_PROGS - wi->n ? got : WATCH_MAX_PROGS - wi->n;
	}
	got = xl_monitor__prog_ids(floor, &wi->floor, 1);
	if (got != 1)
		wi->n = got < 0 ? got : -ENOENT;
}

/* Count the links of the set's programs @wi while the floor's slice runs. */
static void census_slice(const struct watch_ids *wi, struct watch_census *wc)
{
	struct xl_mon_census c;

	wc->slices++;
	if (wi->n < 0 || xl_mon_link_census(wi->ids, wi->n, &c)) {
		xl_warn("floor slice: cannot count the kernel's links");
		return;
	}
	if (c.xmit_total > wc->xmit_max)
		wc->xmit_max = c.xmit_total;
	if (c.links == 1 && c.on_xmit == 1 && c.first_prog_id == wi->floor)
		wc->alone++;
	else
		xl_warn("floor slice: %d links of the set's programs attached (%d on xdp_devmap_xmit), not the floor's alone",
			c.links, c.on_xmit);
	xl_dbg("floor slice: %d link(s) of the set's %d programs, %d on xdp_devmap_xmit (prog id %u, the floor's %u); %d on xdp_devmap_xmit in all",
	       c.links, wi->n, c.on_xmit, c.first_prog_id, wi->floor, c.xmit_total);
}

/*
 * A redirect row's measured run (xl_plan_run()): one traffic set-up (sink,
 * redirect, monitors, generator), then per repetition each of the @nlevels
 * monitor levels (the plan's arms) for o->seconds_ns, in @nslices slices
 * per level, the levels interleaved slice by slice in the plan's rotated
 * order; level k's sums go to rows[k]->reps[rep]. A monitor is attached
 * for its level's slices only; in the floor level's slices the kernel's
 * links are counted into @wc (census_slice(); NULL: not counted), of the
 * programs' ids read once after the monitors' load. The profiled
 * repetition's figures go to rows[0]->profile only (its notes to @scratch).
 */
struct redir_run {
	struct xl_lab *lab;
	const struct xl_labrun_opts *o;
	enum xl_redir_kind kind;
	const enum xl_watch *levels;
	int nlevels, cpu, nst;
	uint32_t size;
	struct xl_row_result **rows;
	struct watch_census *wc;
	struct xl_watch_lazy *lazy;
	struct xl_meter *m;
	struct xl_monitor *mon[5];
	struct xl_perf_listener *perf;
	struct xl_bench *sink;
	struct xl_redirect *r;
	struct xl_gen *gen;
	struct watch_ids wids;
	struct watch_acc acc[5];
	const char *engine;
	int64_t ev0;
	bool profiled, steer_ok;
	struct xl_steer_miss miss0;
};

/* The row of level @k whose note a failure goes to (the profiled repetition's: none kept). */
static struct xl_row_result *note_row(struct redir_run *x, const struct xl_plan_step *st, int k)
{
	static struct xl_row_result scratch;

	return st->profiled ? &scratch : x->rows[k];
}

static int redir_setup(void *ctx, const struct xl_plan_step *st)
{
	struct redir_run *x = ctx;
	struct xl_lab *lab = x->lab;
	struct xl_row_result *row = note_row(x, st, 0);
	struct xl_meter *m = x->m;
	int k, err;

	if (x->kind == XL_REDIR_DEVMAP) {
		x->sink = sink_create(lab);
		if (!x->sink) {
			err = -errno;
			snprintf(row->note, sizeof(row->note), "sink attach failed: %s", strerror(-err));
			return err;
		}
	}
	x->r = redir_create(lab, x->kind, x->cpu);
	if (!x->r) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "redirect attach failed: %s", strerror(-err));
		return err;
	}
	x->nst = xl_redirect__steer_count(x->r); /* the policy is the default: l4-hash over several */
	for (k = 0; k < x->nlevels; k++) {
		struct xl_row_result *rk = note_row(x, st, k);
		struct xl_monitor_opts mo = { .all = x->levels[k] == XL_WATCH_ALL,
					      .floor = x->levels[k] == XL_WATCH_FLOOR };

		mo.ndevs = lab_devs(lab, mo.devs);

		if (x->levels[k] == XL_WATCH_PERF && !x->perf) {
			x->perf = xl_perf_listener__create(XL_WATCH_PERF_EVENT, XL_WATCH_PERF_FILTER);
			if (!x->perf) {
				err = -errno;
				snprintf(rk->note, sizeof(rk->note), "perf listener failed: %s",
					 strerror(-err));
				return err;
			}
		}
		if (x->levels[k] == XL_WATCH_NONE || x->levels[k] == XL_WATCH_PERF)
			continue;
		x->mon[k] = xl_monitor__create(&mo);
		if (!x->mon[k]) {
			err = -errno;
			snprintf(rk->note, sizeof(rk->note), "monitor failed: %s", strerror(-err));
			return err;
		}
		err = xl_monitor__detach(x->mon[k]);
		if (err) {
			detach_note(rk, err);
			return err;
		}
	}
	for (k = 0; x->wc && k < x->nlevels; k++)
		if (x->levels[k] == XL_WATCH_FLOOR)
			watch_ids_read(x->mon, x->nlevels, x->mon[k], &x->wids);
	for (k = 0; x->lazy && k < x->nlevels; k++) {
		if (x->levels[k] != XL_WATCH_LAZY)
			continue;
		err = xl_watch_lazy_open(x->lazy, lab, x->mon[k]);
		if (err) {
			snprintf(note_row(x, st, k)->note, sizeof(row->note),
				 "lazy monitor: no socket for the counters: %s", strerror(-err));
			return err;
		}
	}
	x->gen = xl_labrun_gen(lab, x->o, x->size);
	if (!x->gen) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "generator failed: %s", strerror(-err));
		return err;
	}
	x->engine = xl_gen_engine_name(xl_gen__engine(x->gen));
	m->gen = x->gen;
	if (x->kind == XL_REDIR_DEVMAP) {
		m->src = xl_counter_src_bench(x->sink);
		m->ifname = lab->out_ifname[0][XL_LAB_GEN];
		m->eth_sock = xl_lab__socket(lab, XL_LAB_GEN, AF_INET, SOCK_DGRAM);
	} else {
		m->src = (struct xl_counter_src){ "redirect-cpu", xl_redirect__read_cpu, x->r };
	}
	/*
	 * In softirq wiring the meter loads the softirq tracepoints
	 * (milliseconds): here, before the warm-up, so that the first window
	 * does not open straight after their load. The repetitions look the
	 * NAPI up again.
	 */
	m->napi_pid = dut_kthread_pid(lab, x->kind, x->r);
	xl_meter_prepare(m); /* nothing unless softirq wiring (napi_pid 0) */
	return xl_gen__start(x->gen);
}

/*
 * A slice of level st->arm: at a repetition's first, its sums emptied and
 * the NAPI looked up again; the level's monitor attached (or perf
 * enabled), settled, then the counters read.
 */
static int redir_open(void *ctx, const struct xl_plan_step *st)
{
	struct redir_run *x = ctx;
	const struct xl_labrun_opts *o = x->o;
	struct xl_row_result *rk = note_row(x, st, st->arm);
	struct xl_meter *m = x->m;
	int k = st->arm, err;

	if (!st->window) {
		for (k = 0; k < x->nlevels; k++) {
			xl_meter_window_zero(&x->acc[k].w);
			x->acc[k].events = 0;
		}
		k = st->arm;
		m->napi_pid = dut_kthread_pid(x->lab, x->kind, x->r);
		if (m->napi_pid < 0) {
			err = m->napi_pid;
			m->napi_pid = 0;
			return err;
		}
		xl_meter_set_chain(m, o->gen_cpu, x->rows[0]->napi_cpu);
	}
	/* The lazy level's monitor: only once its counters moved. */
	if (x->levels[k] == XL_WATCH_LAZY && !x->lazy->tripped) {
		xl_watch_lazy_begin(x->lazy);
	} else if (x->mon[k] || x->levels[k] == XL_WATCH_PERF) {
		err = x->mon[k] ? xl_monitor__attach(x->mon[k]) : xl_perf_listener__enable(x->perf);
		if (err) {
			snprintf(rk->note, sizeof(rk->note), "%s failed: %s",
				 x->mon[k] ? "monitor attach" : "perf enable", strerror(-err));
			return err;
		}
	}
	if (x->wc && x->levels[k] == XL_WATCH_FLOOR)
		census_slice(&x->wids, x->wc);
	if (x->nlevels > 1)
		xl_sleep_ns(WATCH_SETTLE_NS, o->stop);
	x->ev0 = x->levels[k] == XL_WATCH_ALL ? xmit_events(x->mon[k]) : -1;
	/* The profiled repetition: perf records the first slice (one slice in a plain row). */
	x->profiled = false;
	if (st->profiled && !st->window) {
		const struct xl_prof_cpu cpus[] = { { x->rows[0]->napi_cpu, "dut" },
						    { o->gen_cpu, "gen" } };

		x->profiled = xl_labrun_prof_begin(o, x->rows[0], cpus, 2);
	}
	x->steer_ok = x->kind == XL_REDIR_CPUMAP &&
		      !xl_redirect__read_steer(x->r, redir_st0, &x->miss0, NULL);
	err = xl_meter_sample(m, &redir_a);
	if (err) {
		if (x->profiled)
			xl_labrun_prof_end(o, x->rows[0]);
		if (x->mon[k])
			xl_monitor__detach(x->mon[k]);
		if (x->levels[k] == XL_WATCH_PERF)
			xl_perf_listener__disable(x->perf);
		snprintf(rk->note, sizeof(rk->note), "measurement failed: %s", strerror(-err));
		return err;
	}
	return 0;
}

/*
 * The slice's end: the counters read (events just before the packets, at
 * both ends), the monitor detached (or perf disabled), the slice added to
 * its level's sums and the steering of the measured slices to its row.
 */
static int redir_close(void *ctx, const struct xl_plan_step *st)
{
	static struct xl_steer_target st1[XL_STEER_MAX_CPUS];
	struct redir_run *x = ctx;
	const struct xl_labrun_opts *o = x->o;
	struct xl_row_result *rk = note_row(x, st, st->arm);
	bool stopped = o->stop && *o->stop; /* a repetition cut short is no repetition */
	struct xl_steer_miss miss1;
	struct xl_meter_window w;
	int64_t ev1 = -1;
	int k = st->arm, err = 0, e;

	if (x->ev0 >= 0)
		ev1 = xmit_events(x->mon[k]);
	if (!stopped)
		err = xl_meter_sample(x->m, &redir_b);
	if (x->levels[k] == XL_WATCH_LAZY)
		xl_watch_lazy_end(x->lazy); /* after the sample: outside the window */
	if (x->profiled)
		xl_labrun_prof_end(o, x->rows[0]);
	if (x->mon[k]) {
		e = xl_monitor__detach(x->mon[k]);
		if (!err && !stopped && e) {
			detach_note(rk, e);
			return e;
		}
	}
	if (x->levels[k] == XL_WATCH_PERF) {
		e = xl_perf_listener__disable(x->perf);
		if (!err && !stopped && e) {
			snprintf(rk->note, sizeof(rk->note), "perf disable failed: %s", strerror(-e));
			return e;
		}
	}
	if (err) {
		snprintf(rk->note, sizeof(rk->note), "measurement failed: %s", strerror(-err));
		return err;
	}
	if (stopped)
		return 0; /* the plan ends with -EINTR */
	xl_meter_window(x->m, &redir_a, &redir_b, &w);
	acc_add(&x->acc[k], &w, x->ev0 >= 0 && ev1 >= x->ev0 ? ev1 - x->ev0 : -1);
	/* The steering of the measured slices only (the JSON's "steering"). */
	if (x->steer_ok && !st->profiled && !xl_redirect__read_steer(x->r, st1, &miss1, NULL)) {
		struct xl_row_steer *rs = xl_row_part_get(x->rows[k], &xl_row_part_steer);

		if (rs)
			xl_steer_row_add(rs, x->nst > 1 ? XL_STEER_L4_HASH : XL_STEER_NO_TOUCH,
					 redir_st0, &x->miss0, st1, &miss1, x->nst);
	}
	return 0;
}

static int redir_rep_done(void *ctx, const struct xl_plan_step *st)
{
	struct redir_run *x = ctx;
	int k;

	if (st->profiled) {
		struct xl_row_result *row = x->rows[0];
		struct xl_rep_result r = acc_rep(&x->acc[0]);

		xl_labrun_prof_window(row, r.pps, r.cpu_ns_per_pkt);
		return 0;
	}
	for (k = 0; k < x->nlevels; k++) {
		struct xl_row_result *rk = x->rows[k];

		rk->engine = x->engine;
		rk->reps[st->rep] = acc_rep(&x->acc[k]);
		rk->nreps = st->rep + 1;
		xl_dbg("%s %uB rep %d: %.3f Mpps, chain %.1f ns/packet", rk->name, x->size, st->rep,
		       rk->reps[st->rep].pps / 1e6, rk->reps[st->rep].chain_ns_per_pkt);
	}
	return 0;
}

static int redir_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct redir_run *x = ctx;
	int k;

	if (x->gen) {
		xl_gen__stop(x->gen);
		if (!err)
			err = xl_gen__join(x->gen);
	}
	if (x->m->eth_sock >= 0)
		close(x->m->eth_sock);
	x->m->eth_sock = -1;
	xl_meter_done(x->m); /* the softirq tracepoints go with the set-up */
	xl_gen__destroy(x->gen);
	for (k = 0; k < x->nlevels; k++)
		xl_monitor__destroy(x->mon[k]);
	xl_perf_listener__destroy(x->perf);
	xl_redirect__destroy(x->r);
	xl_bench__destroy(x->sink);
	memset(x->mon, 0, sizeof(x->mon));
	if (x->lazy)
		xl_watch_lazy_close(x->lazy);
	x->perf = NULL;
	x->r = NULL;
	x->sink = NULL;
	x->gen = NULL;
	return err;
}

static const struct xl_plan_ops redir_ops = { .setup = redir_setup, .teardown = redir_teardown,
					      .open = redir_open, .close = redir_close,
					      .rep_done = redir_rep_done };

/*
 * Measure @rows (one per level of @levels) as struct redir_run says:
 * @nslices slices per level and repetition; @per_rep: a traffic set-up per
 * repetition (a plain row, with the profiled repetition when there is a
 * profiler), else one for all (the watch-cost sets). Return: as
 * xl_plan_run(); *@failed_profiled: the error came from the profiled
 * repetition.
 */
int xl_labrun_redir_set(struct xl_lab *lab, const struct xl_labrun_opts *o,
			enum xl_redir_kind kind, const enum xl_watch *levels, int nlevels,
			uint32_t size, int cpu, struct xl_row_result **rows, int nslices,
			bool per_rep, struct watch_census *wc, struct xl_watch_lazy *lazy,
			bool *failed_profiled)
{
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = rows[0]->napi_cpu, .eth_sock = -1,
					      .queues = 1 };
	struct redir_run x = { .lab = lab, .o = o, .kind = kind, .levels = levels,
			       .nlevels = nlevels, .cpu = cpu, .size = size, .rows = rows,
			       .wc = wc, .lazy = lazy, .m = &m, .wids = { .n = -ENOENT } };
	struct xl_plan p = { .reps = o->reps, .arms = nlevels, .slices = nslices,
			     .profile = per_rep && o->profiler,
			     .scope = per_rep ? XL_PLAN_PER_REP : XL_PLAN_ONCE,
			     .warmup_ns = o->warmup_ns, .window_ns = o->seconds_ns / nslices,
			     .stop = o->stop, .cpu = rows[0]->napi_cpu, .ops = &redir_ops,
			     .ctx = &x, .companion = o->companion };
	int err = xl_plan_run(&p);

	/* A set of levels on one plan: the host's records go to each now
	 * (a plain row's plan leaves them to its caller, xdplab/labrun.h). */
	if (!per_rep && o->host)
		xl_hostrec__take_set(o->host, rows, nlevels);
	*failed_profiled = p.failed_profiled;
	return err;
}

/* Fill @row's description; return the cpumap target CPU. */
int xl_labrun_redir_row(struct xl_lab *lab, const struct xl_labrun_opts *o,
			enum xl_redir_kind kind, enum xl_watch watch, uint32_t size,
			struct xl_row_result *row)
{
	static const char *const suffix[] = { "", "+mon-err", "+mon-all", "+perf", "+mon-floor",
					      "+mon-lazy" };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int cpu;

	xl_labrun_row_base(row, lab, o, size, XL_MODE_NATIVE);
	row->action = xl_xdp_action_name(XDP_REDIRECT);
	row->op = xl_pkt_op_name(XL_OP_NO_TOUCH);
	snprintf(row->name, sizeof(row->name), "%s%s",
		 kind == XL_REDIR_CPUMAP ? "redirect-cpu" : "redirect", suffix[watch % 6]);
	/* cpumap target: a CPU other than the generator's and the NAPI's if
	 * there is one, else the generator's (2 CPUs: someone must share). */
	cpu = o->gen_cpu;
	if (ncpu > 2)
		for (cpu = 0; cpu == o->gen_cpu || cpu == row->napi_cpu; cpu++)
			;
	if (kind == XL_REDIR_CPUMAP)
		row->napi_cpu = cpu;
	return cpu;
}


int xl_labrun_redirect(struct xl_lab *lab, const struct xl_labrun_opts *o,
		       enum xl_redir_kind kind, enum xl_watch watch, uint32_t size,
		       struct xl_row_result *row)
{
	int err, cpu = xl_labrun_redir_row(lab, o, kind, watch, size, row);
	bool failed_profiled;

	if (lab->nout < 1) {
		snprintf(row->note, sizeof(row->note), "the lab has no out pair");
		return -ENODEV;
	}
	err = xl_labrun_redir_set(lab, o, kind, &watch, 1, size, cpu, &row, 1, true, NULL, NULL,
				  &failed_profiled);
	if (err && !failed_profiled)
		return err;
	xl_row_finish(row);
	if (err == -EINTR)
		return err;
	if (err)
		xl_warn("%s %uB: the profiled repetition failed: %s", row->name, size, strerror(-err));
	return 0;
}
