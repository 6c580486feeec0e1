// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/measure/ owns turning counters into figures: measurement windows
 * and the validity verdict (meter.c), medians, spreads and intervals
 * (stats.c), tables and JSON (report.c), and the watch-cost estimate
 * (watch_cost.c). See docs/architecture.md.
 */
/*
 * Measurement windows. A receive rate is only an XDP figure when the CPU
 * running the DUT's NAPI is saturated; otherwise the generator was the
 * bottleneck. The CPU cost per packet (CPU time / packets) stays fair in
 * both cases, so every window reports it too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/softirq_time.h"
#include "xdplab/stats.h"
#include "xdplab/time.h"

void xl_meter_set_chain(struct xl_meter *m, int gen_cpu, int napi_cpu)
{
	memset(m->chain_pids, 0, sizeof(m->chain_pids));
	m->chain_pids[0] = m->napi_pid;
	m->chain_pids[1] = gen_cpu >= 0 ? xl_ksoftirqd_pid(gen_cpu) : 0;
	m->chain_pids[2] = napi_cpu >= 0 && napi_cpu != gen_cpu ? xl_ksoftirqd_pid(napi_cpu) : 0;
	m->chain_cpus[0] = gen_cpu;
	m->chain_cpus[1] = napi_cpu != gen_cpu ? napi_cpu : -1;
	m->chain_set = true;
}

/*
 * @m's reference on the softirq tracepoints, taken once (a failed load is
 * kept by softirq_time.c: asking again costs nothing).
 */
static bool hold_sirq(struct xl_meter *m)
{
	if (!m->sirq_held)
		m->sirq_held = !xl_sirq_get();
	return m->sirq_held;
}

/*
 * Softirq wiring (no NAPI kthread), a meter that wants the DUT's CPU, and
 * the tracepoints chosen for it (xl_sirq_source(): not where the kernel's
 * IRQ time accounting gives the time with no program per NET_RX run).
 */
static bool wants_sirq(const struct xl_meter *m)
{
	return !m->napi_pid && !m->no_sirq && xl_sirq_source() == XL_SIRQ_SRC_TRACEPOINT;
}

const char *xl_meter_cpu_source(const struct xl_meter *m)
{
	if (m->napi_pid)
		return XL_CPU_SRC_KTHREAD;
	if (wants_sirq(m))
		return XL_CPU_SRC_TRACEPOINT;
	return xl_irq_time_accounting() == 1 ? XL_CPU_SRC_PROCSTAT_IRQTIME : XL_CPU_SRC_PROCSTAT;
}

void xl_meter_prepare(struct xl_meter *m)
{
	if (wants_sirq(m))
		hold_sirq(m);
}

void xl_meter_done(struct xl_meter *m)
{
	if (m->sirq_held)
		xl_sirq_put();
	m->sirq_held = false;
}

static int bench_src_read(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	return xl_bench__read(ctx, total, per_cpu);
}

struct xl_counter_src xl_counter_src_bench(struct xl_bench *b)
{
	return (struct xl_counter_src){ .name = "bench", .read = bench_src_read, .ctx = b };
}

/*
 * The host's counters a sample reads beside the DUT's (@m->src, read
 * first): each fills its own fields of the sample, or
 * marks them not read when the meter does not ask for it. Read in the
 * table's order, so that each sits where its window wants it.
 */
struct host_src {
	const char *name;
	void (*read)(struct xl_meter *m, struct xl_meter_sample *s, int ncpus);
};

/* rx_queue_N_xdp_packets summed over the DUT's queues (veth's own count). */
static void read_eth(struct xl_meter *m, struct xl_meter_sample *s, int ncpus)
{
	int n = m->queues < 1 ? 1 : m->queues > XL_ETHTOOL_MAX_QUEUES ? XL_ETHTOOL_MAX_QUEUES : m->queues;
	uint64_t sum = 0;
	bool ok;

	if (m->eth_sock < 0) {
		s->eth = (struct xl_read){ 0 };
		return;
	}
	ok = !xl_ethtool_queue_sum(m->eth_sock, m->ifname, "rx", "xdp_packets", n, &sum, NULL);
	s->eth = xl_read_now(sum, ok);
}

/* Every CPU's /proc/stat line in one read (a failed read: none ok). */
static void read_procstat(struct xl_meter *m, struct xl_meter_sample *s, int ncpus)
{
	xl_cpu_times_read_load(s->cpu, s->cpu_ok, ncpus, &s->procs_running);
	s->cpu_t_ns = xl_now_ns();
	s->irqtime = xl_irq_time_accounting() == 1; /* cached after the first */
}

/* Softirq wiring: the DUT's exact NET_RX time, one map read (held by xl_meter_sample()). */
static void read_sirq(struct xl_meter *m, struct xl_meter_sample *s, int ncpus)
{
	s->sirq_ok = !m->napi_pid && !m->no_sirq && m->sirq_held &&
		     !xl_sirq_read(s->sirq_ns, s->sirq_runs, ncpus, &s->sirq_t_ns, &s->sirq_gen);
	if (!s->sirq_ok)
		s->sirq_gen = 0;
}

/* Threaded NAPI: its kthread's run time. */
static void read_napi(struct xl_meter *m, struct xl_meter_sample *s, int ncpus)
{
	uint64_t ns = m->napi_pid ? xl_task_runtime_ns(m->napi_pid) : 0;

	s->napi_runtime = m->napi_pid ? xl_read_now(ns, ns != 0) : (struct xl_read){ 0 };
}

/* The generator's frames handed to its device and refused by it. */
static void read_gen(struct xl_meter *m, struct xl_meter_sample *s, int ncpus)
{
	struct xl_gen_stats gs;

	s->gen_sent = s->gen_refused = (struct xl_read){ 0 };
	if (!m->gen)
		return;
	xl_gen__read(m->gen, &gs);
	s->gen_sent = xl_read_now(gs.sent, true);
	s->gen_refused = s->gen_sent;
	s->gen_refused.v = gs.xmit_errors;
}

/* The run time of every task that runs the chain's work: the generator's threads and @m->chain_pids. */
static void read_chain(struct xl_meter *m, struct xl_meter_sample *s, int ncpus)
{
	uint64_t chain;
	bool ok;
	int i;

	s->chain_runtime = (struct xl_read){ 0 };
	if (!m->gen)
		return;
	ok = !xl_gen__runtime(m->gen, &chain);
	for (i = 0; i < XL_METER_CHAIN_PIDS; i++) {
		uint64_t ns = m->chain_pids[i] ? xl_task_runtime_ns(m->chain_pids[i]) : 0;

		ok = ok && (!m->chain_pids[i] || ns);
		chain += ns;
	}
	s->chain_runtime = xl_read_now(chain, ok);
}

static const struct host_src host_srcs[] = {
	/*
	 * The kernel's count right after ours: with traffic flowing through
	 * the reads (a generator that is not ours), anything read in between
	 * (every CPU's /proc/stat line) would count as a disagreement.
	 */
	{ "ethtool", read_eth },
	{ "proc-stat", read_procstat },
	{ "softirq-tracepoint", read_sirq },
	{ "napi-kthread", read_napi },
	{ "generator", read_gen },
	{ "chain", read_chain },
};

int xl_meter_sample(struct xl_meter *m, struct xl_meter_sample *s)
{
	int ncpus = xl_bench_detail_ncpus(), err;
	size_t i;

	if (!m->src.read)
		return -EINVAL;
	/*
	 * Softirq wiring: the tracepoints that give the DUT's exact NET_RX
	 * time are loaded by the first sample that needs them, before any
	 * read of it: loading takes milliseconds, which inside the sample
	 * would stretch the packets' window and not the softirq time's.
	 */
	if (wants_sirq(m))
		hold_sirq(m);
	err = m->src.read(m->src.ctx, &s->total, s->per_cpu);
	s->t_ns = xl_now_ns();
	if (err) {
		xl_dbg("meter: reading %s failed: %s", m->src.name ? m->src.name : "counters",
		       strerror(-err));
		return err;
	}
	for (i = 0; i < sizeof(host_srcs) / sizeof(host_srcs[0]); i++)
		host_srcs[i].read(m, s, ncpus);
	return 0;
}

/* A /proc/stat field of @cpu between the samples, over their stamps. */
#define CPU_DELTA(a, b, k, field)                                                  \
	((a)->cpu_ok[k] && (b)->cpu_ok[k] && (b)->cpu[k].field >= (a)->cpu[k].field ?  \
		 (struct xl_delta){ .n = (b)->cpu[k].field - (a)->cpu[k].field,         \
				    .ns = (b)->cpu_t_ns - (a)->cpu_t_ns, .ok = true } : \
		 (struct xl_delta){ 0 })

/*
 * Both samples read the tracepoints, from one load of them: counters of
 * two loads (detached and loaded again in between) are not one count, so
 * such a window uses /proc/stat, as one with a failed read does.
 */
static bool sirq_pair(const struct xl_meter_sample *a, const struct xl_meter_sample *b)
{
	return a->sirq_ok && b->sirq_ok && a->sirq_gen == b->sirq_gen;
}

/* @cpu's tracepoint softirq time between the samples, over their stamps. */
static struct xl_delta sirq_delta(const struct xl_meter_sample *a,
				  const struct xl_meter_sample *b, int cpu)
{
	if (!sirq_pair(a, b) || b->sirq_t_ns < a->sirq_t_ns ||
	    b->sirq_ns[cpu] < a->sirq_ns[cpu])
		return (struct xl_delta){ 0 };
	return (struct xl_delta){ .n = b->sirq_ns[cpu] - a->sirq_ns[cpu],
				  .ns = b->sirq_t_ns - a->sirq_t_ns, .ok = true };
}

void xl_meter_steal(const struct xl_meter_sample *a, const struct xl_meter_sample *b, int cpu,
		    struct xl_delta *steal, struct xl_delta *span)
{
	*steal = *span = (struct xl_delta){ 0 };
	if (cpu < 0 || cpu >= XL_MAX_CPUS)
		return;
	*steal = CPU_DELTA(a, b, cpu, steal);
	*span = CPU_DELTA(a, b, cpu, total);
}

double xl_steal_share(const struct xl_delta *steal, const struct xl_delta *span, bool *high)
{
	double v = steal->ok && span->ok && span->n ? (double)steal->n / span->n : -1;

	if (high)
		*high = v > XL_STEAL_HIGH_SHARE;
	return v;
}

/* The figures of @w from its raw deltas: the one place they are computed. */
static void window_figures(struct xl_meter_window *w)
{
	w->ns = w->rx.ns;
	w->packets = w->rx.n;
	w->pps = xl_delta_rate(&w->rx);
	w->err_pps = xl_rate(w->errors, w->ns);
	w->ns_per_pkt = xl_ns_per_pkt(w->pps);
	w->cpu_busy = xl_delta_ratio(&w->cpu_busy_ns, &w->cpu_span_ns);
	if (w->cpu_busy > 1.0)
		w->cpu_busy = 1.0;
	w->cpu_ns_per_pkt = xl_delta_ratio(&w->cpu_ns, &w->cpu_rx);
	w->gen_sent_pps = xl_delta_rate(&w->gen_sent);
	w->gen_xmit_errors = w->gen_refused.n;
	w->gen_pps = w->gen_sent.n >= w->gen_refused.n && xl_delta_valid(&w->gen_sent) ?
			     (w->gen_sent.n - w->gen_refused.n) * 1e9 / w->gen_sent.ns : 0;
	w->chain_ns_per_pkt = xl_delta_ratio(&w->chain_ns, &w->chain_rx);
	w->eth_ok = w->eth.ok;
	w->eth_packets = w->eth.n;
	w->disagreement = w->eth_ok ? xl_disagreement(w->packets, w->eth_packets) : 0;
	w->counter_mismatch = w->eth_ok && w->disagreement > XL_COUNTER_TOLERANCE;
	w->generator_bound = w->cpu_busy < XL_SATURATED_SHARE;
	w->steal_share = xl_steal_share(&w->steal_ns, &w->steal_span_ns, &w->steal_high);
	w->load = w->load_n ? (double)w->load_sum / w->load_n : -1;
}

void xl_meter_window(const struct xl_meter *m, const struct xl_meter_sample *a,
		     const struct xl_meter_sample *b, struct xl_meter_window *w)
{
	int i, cpu = m->napi_cpu, ncpus = xl_bench_detail_ncpus();
	uint64_t best = 0, most = 0;

	memset(w, 0, sizeof(*w));
	w->rx = (struct xl_delta){ .n = b->total.rx_packets - a->total.rx_packets,
				   .ns = b->t_ns - a->t_ns, .ok = b->t_ns >= a->t_ns };
	w->bytes = b->total.rx_bytes - a->total.rx_bytes;
	w->errors = b->total.errors - a->total.errors;
	for (i = 0; i < XL_XDP_ACTIONS; i++)
		w->actions[i] = b->total.actions[i] - a->total.actions[i];
	if (cpu < 0) {
		for (i = 0; i < ncpus; i++) {
			uint64_t d = b->per_cpu[i].rx_packets - a->per_cpu[i].rx_packets;

			if (d > best) {
				best = d;
				cpu = i;
			}
		}
		/*
		 * No per-CPU split (a reader such as the nftables counter):
		 * the CPU that spent the most softirq time in the window.
		 */
		for (i = 0; !best && w->rx.n && i < ncpus; i++) {
			struct xl_delta d = sirq_pair(a, b) ? sirq_delta(a, b, i) :
							      CPU_DELTA(a, b, i, softirq);

			if (d.ok && d.n > most) {
				most = d.n;
				cpu = i;
			}
		}
	}
	w->napi_cpu = cpu;
	if (m->napi_pid) {
		/*
		 * Threaded NAPI: the kthread's own share of the window. Other
		 * tasks on that CPU (a shared VM) would make /proc/stat say
		 * "busy" while the DUT itself idles.
		 */
		w->cpu_ns = xl_delta_of(&a->napi_runtime, &b->napi_runtime);
		if (b->napi_runtime.v < a->napi_runtime.v)
			w->cpu_ns.ok = false;
		w->cpu_busy_ns = w->cpu_ns;
		w->cpu_span_ns = (struct xl_delta){ .n = w->cpu_ns.ns, .ns = w->cpu_ns.ns,
						    .ok = w->cpu_ns.ok };
		w->cpu_source = XL_CPU_SRC_KTHREAD;
	} else if (cpu >= 0 && cpu < ncpus) {
		/*
		 * Softirq wiring: the exact NET_RX time when the tracepoints
		 * were read at both edges, from one load of them; the busy
		 * share stays /proc/stat's (every task on the CPU counts for
		 * the verdict).
		 */
		if (sirq_pair(a, b)) {
			w->cpu_ns = sirq_delta(a, b, cpu);
			w->cpu_source = XL_CPU_SRC_TRACEPOINT;
			if (b->sirq_runs[cpu] >= a->sirq_runs[cpu])
				w->sirq_runs = b->sirq_runs[cpu] - a->sirq_runs[cpu];
		} else {
			w->cpu_ns = CPU_DELTA(a, b, cpu, softirq);
			w->cpu_source = a->irqtime && b->irqtime ? XL_CPU_SRC_PROCSTAT_IRQTIME :
								   XL_CPU_SRC_PROCSTAT;
		}
		w->cpu_busy_ns = CPU_DELTA(a, b, cpu, busy);
		w->cpu_span_ns = CPU_DELTA(a, b, cpu, total);
	}
	if (!w->cpu_ns.ok)
		w->cpu_source = NULL;
	w->gen_sent = xl_delta_of(&a->gen_sent, &b->gen_sent);
	w->gen_refused = xl_delta_of(&a->gen_refused, &b->gen_refused);
	/* Run times shrink when a thread ends: that window has no chain figure. */
	if (w->rx.n && b->chain_runtime.v > a->chain_runtime.v) {
		w->chain_ns = xl_delta_of(&a->chain_runtime, &b->chain_runtime);
		/* IRQ time accounting takes inline softirq work out of tasks. */
		for (i = 0; i < 2 && w->chain_ns.ok && xl_irq_time_accounting() == 1; i++) {
			int c = m->chain_cpus[i];

			if (m->chain_set && c >= 0 && c < ncpus) {
				struct xl_delta d = CPU_DELTA(a, b, c, softirq);

				w->chain_ns.n += d.n;
				w->chain_ns.ok = d.ok;
			}
		}
	}
	if (w->cpu_ns.ok && w->cpu_span_ns.ok)
		w->cpu_rx = w->rx;
	if (w->chain_ns.ok)
		w->chain_rx = w->rx;
	w->eth = xl_delta_of(&a->eth, &b->eth);
	xl_meter_steal(a, b, cpu < ncpus ? cpu : -1, &w->steal_ns, &w->steal_span_ns);
	if (a->procs_running >= 0 && b->procs_running >= 0) {
		w->load_sum = (uint64_t)a->procs_running + (uint64_t)b->procs_running;
		w->load_n = 2;
	}
	window_figures(w);
}

/*
 * How a window's figures add into a sum (xl_meter_window_add()), one entry
 * per field of struct xl_meter_window that adds:
 * SUM_ALL: always (a delta is ok only if every window's was);
 * SUM_OK: a delta only from the windows where it was read;
 * SUM_CPU / SUM_CHAIN: only from the windows whose CPU figure (cpu_ns and
 *   cpu_span_ns read) / chain figure was read, so that the per-packet cost
 *   divides by the packets of those windows only.
 */
enum sum_rule { SUM_ALL, SUM_OK, SUM_CPU, SUM_CHAIN };

/* A delta: @dst of the sum gets @src of the window. */
static const struct {
	size_t dst, src;
	enum sum_rule rule;
} delta_sums[] = {
#define D(dst, src, rule) \
	{ offsetof(struct xl_meter_window, dst), offsetof(struct xl_meter_window, src), rule }
	D(rx, rx, SUM_ALL),
	D(gen_sent, gen_sent, SUM_ALL),
	D(gen_refused, gen_refused, SUM_ALL),
	D(eth, eth, SUM_ALL),
	D(cpu_ns, cpu_ns, SUM_CPU),
	D(cpu_busy_ns, cpu_busy_ns, SUM_CPU),
	D(cpu_span_ns, cpu_span_ns, SUM_CPU),
	D(cpu_rx, rx, SUM_CPU),
	D(chain_ns, chain_ns, SUM_CHAIN),
	D(chain_rx, rx, SUM_CHAIN),
	D(steal_ns, steal_ns, SUM_OK),
	D(steal_span_ns, steal_span_ns, SUM_OK),
#undef D
};

/* A count (@n uint64_t from @off) that adds. */
static const struct {
	size_t off;
	int n;
	enum sum_rule rule;
} count_sums[] = {
#define C(f, n, rule) { offsetof(struct xl_meter_window, f), n, rule }
	C(bytes, 1, SUM_ALL),
	C(errors, 1, SUM_ALL),
	C(actions, XL_XDP_ACTIONS, SUM_ALL),
	C(load_sum, 1, SUM_ALL),
	C(load_n, 1, SUM_ALL),
	C(sirq_runs, 1, SUM_CPU),
#undef C
};

#define NSUMS(t) (sizeof(t) / sizeof((t)[0]))
#define FIELD(type, w, off) ((type *)((char *)(w) + (off)))
#define CFIELD(type, w, off) ((const type *)((const char *)(w) + (off)))

void xl_meter_window_zero(struct xl_meter_window *sum)
{
	size_t i;

	memset(sum, 0, sizeof(*sum));
	/* A sum of none is ok for the deltas every window must have read. */
	for (i = 0; i < NSUMS(delta_sums); i++)
		if (delta_sums[i].rule == SUM_ALL)
			FIELD(struct xl_delta, sum, delta_sums[i].dst)->ok = true;
	sum->napi_cpu = -1;
}

/* Add @d to @sum when it is ok; @sum becomes ok with the first one added. */
static void add_if_ok(struct xl_delta *sum, const struct xl_delta *d)
{
	if (!d->ok)
		return;
	sum->n += d->n;
	sum->ns += d->ns;
	sum->ok = true;
}

void xl_meter_window_add(struct xl_meter_window *sum, const struct xl_meter_window *w)
{
	bool cpu = w->cpu_ns.ok && w->cpu_span_ns.ok;
	bool takes[] = { [SUM_ALL] = true, [SUM_OK] = true, [SUM_CPU] = cpu,
			 [SUM_CHAIN] = w->chain_ns.ok };
	size_t i;
	int k;

	if (w->packets)
		sum->napi_cpu = w->napi_cpu; /* the CPU judged where frames were */
	if (cpu) {
		if (!sum->cpu_source || !w->cpu_source)
			sum->cpu_source = sum->cpu_source ? sum->cpu_source : w->cpu_source;
		else if (strcmp(sum->cpu_source, w->cpu_source))
			sum->cpu_source = XL_CPU_SRC_MIXED;
	}
	for (i = 0; i < NSUMS(delta_sums); i++) {
		struct xl_delta *d = FIELD(struct xl_delta, sum, delta_sums[i].dst);
		const struct xl_delta *e = CFIELD(struct xl_delta, w, delta_sums[i].src);

		if (!takes[delta_sums[i].rule])
			continue;
		if (delta_sums[i].rule == SUM_ALL)
			xl_delta_add(d, e);
		else
			add_if_ok(d, e);
	}
	for (i = 0; i < NSUMS(count_sums); i++)
		for (k = 0; takes[count_sums[i].rule] && k < count_sums[i].n; k++)
			FIELD(uint64_t, sum, count_sums[i].off)[k] +=
				CFIELD(uint64_t, w, count_sums[i].off)[k];
	window_figures(sum);
}

void xl_meter_window_rep(const struct xl_meter_window *w, struct xl_rep_result *rep)
{
	*rep = (struct xl_rep_result){
		.ns = w->ns, .packets = w->packets, .pps = w->pps, .gen_pps = w->gen_pps,
		.gen_sent = w->gen_sent.n, .gen_xmit_errors = w->gen_xmit_errors,
		.cpu_busy = w->cpu_busy, .cpu_ns_per_pkt = w->cpu_ns_per_pkt,
		.chain_ns_per_pkt = w->chain_ns_per_pkt,
		.eth_packets = w->eth_packets, .eth_ok = w->eth_ok,
		.run_packets = w->packets, .disagreement = w->disagreement,
		.xmit_events = -1, .cpu_source = w->cpu_source,
		.softirq_runs = w->sirq_runs,
		.steal_ok = w->steal_share >= 0, .steal_share = w->steal_share,
		.steal_high = w->steal_high, .load_ok = w->load >= 0, .load = w->load,
	};
}
