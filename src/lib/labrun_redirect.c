// SPDX-License-Identifier: BSD-2-Clause
/*
 * Redirect rows and the price of watching them. Same method as labrun.c
 * (warm-up, one window per repetition, medians), but the frames are counted
 * where they arrive: an XDP_DROP sink on the far end of out pair 0 (its
 * NAPI runs on the DUT's NAPI CPU, so that CPU is judged), or the program
 * on the cpumap entry (its CPU is judged). The monitor, when asked for, is
 * loaded before the generator starts and stays for the whole window.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include "xdplab/gen.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/monitor.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"

static void nap(uint64_t ns, volatile sig_atomic_t *stop)
{
	while (ns && !(stop && *stop)) {
		uint64_t step = ns > 50000000ull ? 50000000ull : ns;
		struct timespec ts = { step / 1000000000ull, step % 1000000000ull };

		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* Median over paired repetitions of get(with) - get(without); 0 if none. */
static double paired(const struct xl_row_result *without, const struct xl_row_result *with,
		     double (*get)(const struct xl_rep_result *))
{
	double d[XL_MAX_REPS];
	int i, n = 0;

	if (!without->nreps || without->nreps != with->nreps)
		return 0;
	for (i = 0; i < with->nreps; i++)
		if (get(&with->reps[i]) > 0 && get(&without->reps[i]) > 0)
			d[n++] = get(&with->reps[i]) - get(&without->reps[i]);
	return xl_summarize(d, n).median;
}

static double rate_ns(const struct xl_rep_result *r)
{
	return r->pps > 0 ? 1e9 / r->pps : 0;
}

static double chain_ns(const struct xl_rep_result *r)
{
	return r->chain_ns_per_pkt;
}

static double dut_ns(const struct xl_rep_result *r)
{
	return r->cpu_ns_per_pkt;
}

double xl_watch_cost_ns(const struct xl_row_result *without,
			const struct xl_row_result *with)
{
	if (!without->nreps || !with->nreps || without->mpps.median <= 0 ||
	    with->mpps.median <= 0)
		return 0;
	if (without->nreps != with->nreps)
		return 1e3 / with->mpps.median - 1e3 / without->mpps.median;
	/* Paired: repetition i of both rows ran back to back in one setup. */
	return paired(without, with, rate_ns);
}

double xl_watch_cpu_cost_ns(const struct xl_row_result *without,
			    const struct xl_row_result *with)
{
	int i;

	for (i = 0; i < with->nreps && i < without->nreps; i++)
		if (with->reps[i].chain_ns_per_pkt <= 0 || without->reps[i].chain_ns_per_pkt <= 0)
			return paired(without, with, dut_ns);
	return paired(without, with, chain_ns);
}

double xl_watch_events_per_pkt(const struct xl_row_result *row)
{
	double e[XL_MAX_REPS];
	int i, n = 0;

	for (i = 0; i < row->nreps; i++)
		if (row->reps[i].xmit_events >= 0 && row->reps[i].packets)
			e[n++] = (double)row->reps[i].xmit_events / row->reps[i].packets;
	return n ? xl_summarize(e, n).median : -1;
}

int xl_watch_estimate(const struct xl_row_result rows[6], struct xl_watch_est *est)
{
	memset(est, 0, sizeof(*est));
	est->cost_ns = xl_watch_cost_ns(&rows[0], &rows[1]);
	est->cpu_cost_ns = xl_watch_cpu_cost_ns(&rows[0], &rows[1]);
	est->events_per_pkt = xl_watch_events_per_pkt(&rows[2]);
	est->b1_cpu_cost_ns = xl_watch_cpu_cost_ns(&rows[3], &rows[4]);
	est->b1_events_per_pkt = xl_watch_events_per_pkt(&rows[5]);
	if (est->events_per_pkt < 0 || est->b1_events_per_pkt <= 0 || !rows[3].nreps ||
	    rows[3].nreps != rows[4].nreps)
		return -ENODATA;
	est->per_event_ns = est->b1_cpu_cost_ns / est->b1_events_per_pkt;
	est->estimate_ns = est->per_event_ns * est->events_per_pkt;
	est->valid = true;
	return 0;
}

void xl_watch_note(const struct xl_row_result *without, struct xl_row_result *with)
{
	if (!without->nreps || !with->nreps || without->mpps.median <= 0 ||
	    with->mpps.median <= 0)
		return;
	snprintf(with->note, sizeof(with->note), "monitor %+.1f ns/packet, %+.1f CPU ns/packet vs %s",
		 xl_watch_cost_ns(without, with), xl_watch_cpu_cost_ns(without, with),
		 without->name);
}

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

/* Settling time after a monitor is attached, before its window: ns. */
#define WATCH_SETTLE_NS 150000000ull
/*
 * The cost rows take many short windows: what counts is the difference
 * within a repetition, and this VM's rate swings on a scale of seconds, so
 * adjacent short windows pair better than long ones, and a median of 9
 * pairs resists the ones that straddle a swing.
 */
#define WATCH_MIN_REPS XL_WATCH_MIN_REPS
#define WATCH_MAX_WINDOW_NS XL_WATCH_MAX_WINDOW_NS

/*
 * One traffic set-up: sink, redirect and generator set up once; then one
 * window per entry of @levels, each with that monitor attached for the
 * window only, so the windows being compared are adjacent in time. Window
 * i goes to rows[i]->reps[reps[i]]. Return: 0, -EINTR when stopped, or
 * -errno (the row's note says why).
 */
static int one_rep(struct xl_lab *lab, const struct xl_labrun_opts *o, enum xl_redir_kind kind,
		   const enum xl_watch *levels, int nlevels, uint32_t size, int cpu,
		   struct xl_row_result **rows, const int *reps)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = rows[0]->napi_cpu, .eth_sock = -1, .queues = 1 };
	struct xl_row_result *row = rows[0];
	struct xl_bench *sink = NULL;
	struct xl_redirect *r;
	struct xl_meter_window w;
	struct xl_gen *gen;
	int i, rep, err = 0;

	if (kind == XL_REDIR_DEVMAP) {
		sink = sink_create(lab);
		if (!sink) {
			err = -errno;
			snprintf(row->note, sizeof(row->note), "sink attach failed: %s", strerror(-err));
			return err;
		}
	}
	r = redir_create(lab, kind, cpu);
	if (!r) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "redirect attach failed: %s", strerror(-err));
		goto out_sink;
	}
	gen = xl_labrun_gen(lab, o, size);
	if (!gen) {
		err = -errno;
		snprintf(row->note, sizeof(row->note), "generator failed: %s", strerror(-err));
		goto out_redir;
	}
	m.gen = gen;
	if (kind == XL_REDIR_DEVMAP) {
		m.bench = sink;
		m.ifname = lab->out_ifname[0][XL_LAB_GEN];
		m.eth_sock = xl_lab__socket(lab, XL_LAB_GEN, AF_INET, SOCK_DGRAM);
	} else {
		m.read = xl_redirect__read_cpu;
		m.read_ctx = r;
	}
	err = xl_gen__start(gen);
	if (!err)
		nap(o->warmup_ns, o->stop);
	for (i = 0; !err && i < nlevels; i++) {
		struct xl_monitor_opts mo = { .all = levels[i] == XL_WATCH_ALL };
		struct xl_monitor *mon = NULL;
		int64_t ev0 = -1, ev1 = -1;

		row = rows[i];
		rep = reps[i];
		if (o->stop && *o->stop) {
			err = -EINTR;
			break;
		}
		row->engine = xl_gen_engine_name(xl_gen__engine(gen));
		if (levels[i] != XL_WATCH_NONE) {
			mon = xl_monitor__create(&mo);
			if (!mon) {
				err = -errno;
				snprintf(row->note, sizeof(row->note), "monitor failed: %s",
					 strerror(-err));
				break;
			}
		}
		if (levels[i] != XL_WATCH_NONE || i)
			nap(WATCH_SETTLE_NS, o->stop);
		m.napi_pid = kind == XL_REDIR_DEVMAP ? xl_lab__napi_pid(lab) :
						       xl_redirect__cpumap_kthread_pid(r);
		xl_meter_set_chain(&m, o->gen_cpu, row->napi_cpu);
		if (levels[i] == XL_WATCH_ALL)
			ev0 = xmit_events(mon);
		err = xl_meter_sample(&m, &a);
		nap(o->seconds_ns, o->stop);
		if (!err && o->stop && *o->stop)
			err = -EINTR; /* a window cut short is no repetition */
		if (!err)
			err = xl_meter_sample(&m, &b);
		if (ev0 >= 0)
			ev1 = xmit_events(mon);
		xl_monitor__destroy(mon);
		if (err) {
			if (err != -EINTR)
				snprintf(row->note, sizeof(row->note), "measurement failed: %s",
					 strerror(-err));
			break;
		}
		xl_meter_window(&m, &a, &b, &w);
		row->reps[rep] = (struct xl_rep_result){
			.ns = w.ns, .packets = w.packets, .pps = w.pps, .gen_pps = w.gen_pps,
			.gen_xmit_errors = w.gen_xmit_errors, .cpu_busy = w.cpu_busy,
			.cpu_ns_per_pkt = w.cpu_ns_per_pkt, .eth_packets = w.eth_packets,
			.chain_ns_per_pkt = w.chain_ns_per_pkt,
			.run_packets = w.packets, /* the check spans the window here */
			.eth_ok = w.eth_ok, .disagreement = w.disagreement,
			.xmit_events = ev0 >= 0 && ev1 >= ev0 ? ev1 - ev0 : -1,
		};
		row->nreps = rep + 1;
		xl_dbg("%s %uB rep %d: %.3f Mpps, gen %.3f Mpps, cpu%d %.0f%%", row->name, size,
		       rep, w.pps / 1e6, w.gen_pps / 1e6, w.napi_cpu, w.cpu_busy * 100);
	}
	xl_gen__stop(gen);
	if (!err)
		err = xl_gen__join(gen);
	if (m.eth_sock >= 0)
		close(m.eth_sock);
	xl_gen__destroy(gen);
out_redir:
	xl_redirect__destroy(r);
out_sink:
	xl_bench__destroy(sink);
	return err;
}

/* Fill @row's description; return the cpumap target CPU. */
static int row_setup(struct xl_lab *lab, const struct xl_labrun_opts *o,
		     enum xl_redir_kind kind, enum xl_watch watch, uint32_t size,
		     struct xl_row_result *row)
{
	static const char *const suffix[] = { "", "+mon-err", "+mon-all" };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int cpu;

	memset(row, 0, sizeof(*row));
	row->kind = "xdp";
	row->size = size;
	row->mode = xl_xdp_mode_name(XL_MODE_NATIVE);
	row->wiring = xl_wiring_name(lab->wiring);
	row->napi_cpu = lab->wiring == XL_WIRING_THREADED ? lab->napi_cpu : o->gen_cpu;
	row->gen_cpu = o->gen_cpu;
	row->engine = "live";
	row->judged = "dut-cpu";
	row->action = xl_xdp_action_name(XDP_REDIRECT);
	row->op = xl_pkt_op_name(XL_OP_NO_TOUCH);
	snprintf(row->name, sizeof(row->name), "%s%s",
		 kind == XL_REDIR_CPUMAP ? "redirect-cpu" : "redirect", suffix[watch % 3]);
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
	int rep, err, cpu = row_setup(lab, o, kind, watch, size, row);

	if (lab->nout < 1) {
		snprintf(row->note, sizeof(row->note), "the lab has no out pair");
		return -ENODEV;
	}
	for (rep = 0; rep < o->reps; rep++) {
		if (o->stop && *o->stop)
			return -EINTR;
		err = one_rep(lab, o, kind, &watch, 1, size, cpu, &row, &rep);
		if (err)
			return err;
		if (o->stop && *o->stop)
			return -EINTR;
	}
	xl_row_finish(row);
	return 0;
}

/* The "/b1" calibration rows' generator batch: every frame its own bulk. */
/*
 * Redirecting hops on the lab's redirect path: the live-frames generator
 * (its program redirects into the generator veth) and the DUT (into out
 * pair 0); each hands devmap bulks to ndo_xdp_xmit.
 */
#define XL_LAB_REDIRECT_HOPS 2
#define WATCH_CAL_BATCH 1

/*
 * Measure rows[0..2] (none, errors, all): one traffic set-up, then a
 * repetition is three adjacent windows, one per level, in an order rotated
 * per repetition so that no level always comes first.
 */
static int watch_set(struct xl_lab *lab, const struct xl_labrun_opts *lo, uint32_t size,
		     struct xl_row_result *rows)
{
	static enum xl_watch levels[3 * XL_MAX_REPS];
	static struct xl_row_result *rp[3 * XL_MAX_REPS];
	static int reps[3 * XL_MAX_REPS];
	struct xl_labrun_opts wo = *lo, *o = &wo;
	int rep, w, err;

	if (wo.reps < WATCH_MIN_REPS)
		wo.reps = WATCH_MIN_REPS;
	if (wo.seconds_ns > WATCH_MAX_WINDOW_NS)
		wo.seconds_ns = WATCH_MAX_WINDOW_NS;
	for (rep = 0; rep < o->reps; rep++)
		for (w = 0; w < 3; w++) {
			levels[3 * rep + w] = (w + rep) % 3;
			rp[3 * rep + w] = &rows[(w + rep) % 3];
			reps[3 * rep + w] = rep;
		}
	err = one_rep(lab, o, XL_REDIR_DEVMAP, levels, 3 * o->reps, size, 0, rp, reps);
	if (err)
		return err;
	for (w = XL_WATCH_NONE; w <= XL_WATCH_ALL; w++)
		xl_row_finish(&rows[w]);
	xl_watch_note(&rows[0], &rows[1]);
	xl_watch_note(&rows[0], &rows[2]);
	return 0;
}

static int watch_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
		      bool calibrate, struct xl_row_result rows[6])
{
	struct xl_labrun_opts cal = *o;
	struct xl_watch_est est;
	int w, err;

	for (w = XL_WATCH_NONE; w <= XL_WATCH_ALL; w++) {
		row_setup(lab, o, XL_REDIR_DEVMAP, w, size, &rows[w]);
		if (w == XL_WATCH_NONE) /* not the lab's own "redirect" row */
			snprintf(rows[w].name, sizeof(rows[w].name), "redirect+no-mon");
		if (calibrate) {
			row_setup(lab, o, XL_REDIR_DEVMAP, w, size, &rows[3 + w]);
			snprintf(rows[3 + w].name, sizeof(rows[3 + w].name), "redirect/b%d%s",
				 WATCH_CAL_BATCH, rows[w].name + strlen("redirect"));
		}
	}
	if (lab->nout < 1) {
		snprintf(rows[0].note, sizeof(rows[0].note), "the lab has no out pair");
		return -ENODEV;
	}
	err = watch_set(lab, o, size, rows);
	if (err || !calibrate)
		return err;
	cal.gen_batch = WATCH_CAL_BATCH;
	err = watch_set(lab, &cal, size, rows + 3);
	if (err)
		return err;
	if (xl_watch_estimate(rows, &est))
		return 0;
	rows[1].watch = est;
	snprintf(rows[4].note, sizeof(rows[4].note),
		 "monitor %+.1f CPU ns/packet at %.2f devmap_xmit events/packet: %.1f ns per event",
		 est.b1_cpu_cost_ns, est.b1_events_per_pkt, est.per_event_ns);
	snprintf(rows[1].note, sizeof(rows[1].note),
		 "monitor %+.1f ns/packet, %+.1f CPU ns/packet vs %s; estimate %.1f ns/event x %.4f events/packet = %.2f CPU ns/packet (%.2f per redirect hop)",
		 est.cost_ns, est.cpu_cost_ns, rows[0].name, est.per_event_ns, est.events_per_pkt,
		 est.estimate_ns, est.estimate_ns / XL_LAB_REDIRECT_HOPS);
	return 0;
}

int xl_labrun_watch_cost(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size,
			 bool calibrate, struct xl_row_result rows[6])
{
	enum xl_wiring old_wiring = lab->wiring;
	int old_napi = lab->napi_cpu;
	int err;

	/*
	 * Softirq wiring: the whole chain runs inline on the generator's CPU
	 * and veth's ring never overflows, so the chain's CPU time per packet
	 * is the work for packets that arrived (with threaded NAPI, frames
	 * the ring refused would be paid for too).
	 */
	if (old_wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, XL_WIRING_SOFTIRQ, -1);
	err = watch_cost(lab, o, size, calibrate, rows);
	if (old_wiring != XL_WIRING_SOFTIRQ)
		xl_lab__wire(lab, old_wiring, old_napi);
	if (err == -EINTR) {
		int i, want = o->reps > WATCH_MIN_REPS ? o->reps : WATCH_MIN_REPS;

		for (i = 0; i < (calibrate ? 6 : 3); i++)
			if (rows[i].nreps < want && !rows[i].note[0])
				snprintf(rows[i].note, sizeof(rows[i].note),
					 "interrupted after %d of %d repetitions", rows[i].nreps, want);
	}
	return err;
}
