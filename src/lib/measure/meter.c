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
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/softirq_time.h"
#include "xdplab/stats.h"
#include "xdplab/time.h"

/* Sum rx_queue_N_xdp_packets over the DUT's queues (veth's own counter). */
static struct xl_read read_eth(const struct xl_meter *m)
{
	int n = m->queues < 1 ? 1 : m->queues > XL_ETHTOOL_MAX_QUEUES ? XL_ETHTOOL_MAX_QUEUES : m->queues;
	uint64_t sum = 0;
	bool ok;

	if (m->eth_sock < 0)
		return (struct xl_read){ 0 };
	ok = !xl_ethtool_queue_sum(m->eth_sock, m->ifname, "rx", "xdp_packets", n, &sum, NULL);
	return xl_read_now(sum, ok);
}

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

void xl_meter_prepare(struct xl_meter *m)
{
	if (!m->napi_pid && !m->no_sirq)
		hold_sirq(m);
}

void xl_meter_done(struct xl_meter *m)
{
	if (m->sirq_held)
		xl_sirq_put();
	m->sirq_held = false;
}

int xl_meter_sample(struct xl_meter *m, struct xl_meter_sample *s)
{
	int i, err, ncpus = xl_bench_detail_ncpus();
	/*
	 * Softirq wiring: the tracepoints that give the DUT's exact NET_RX
	 * time are loaded by the first sample that needs them, before any
	 * read of it: loading takes milliseconds, which inside the sample
	 * would stretch the packets' window and not the softirq time's.
	 */
	bool sirq = !m->napi_pid && !m->no_sirq && hold_sirq(m);

	err = m->read ? m->read(m->read_ctx, &s->total, s->per_cpu) :
			xl_bench__read(m->bench, &s->total, s->per_cpu);
	s->t_ns = xl_now_ns();
	if (err)
		return err;
	/*
	 * The kernel's count right after ours: with traffic flowing through
	 * the reads (a generator that is not ours), anything read in between
	 * (every CPU's /proc/stat line) would count as a disagreement.
	 */
	s->eth = read_eth(m);
	/* Every CPU's /proc/stat line in one read (a failed read: none ok). */
	xl_cpu_times_read_load(s->cpu, s->cpu_ok, ncpus, &s->procs_running);
	s->cpu_t_ns = xl_now_ns();
	/* Softirq wiring: the DUT's exact NET_RX time, one map read. */
	s->sirq_ok = sirq && !xl_sirq_read(s->sirq_ns, s->sirq_runs, ncpus, &s->sirq_t_ns,
					   &s->sirq_gen);
	if (!s->sirq_ok)
		s->sirq_gen = 0;
	if (m->napi_pid) {
		uint64_t ns = xl_task_runtime_ns(m->napi_pid);

		s->napi_runtime = xl_read_now(ns, ns != 0);
	} else {
		s->napi_runtime = (struct xl_read){ 0 };
	}
	s->gen_sent = s->gen_refused = s->chain_runtime = (struct xl_read){ 0 };
	if (m->gen) {
		struct xl_gen_stats gs;
		uint64_t chain;
		bool ok;

		xl_gen__read(m->gen, &gs);
		s->gen_sent = xl_read_now(gs.sent, true);
		s->gen_refused = s->gen_sent;
		s->gen_refused.v = gs.xmit_errors;
		ok = !xl_gen__runtime(m->gen, &chain);
		for (i = 0; i < XL_METER_CHAIN_PIDS; i++) {
			uint64_t ns = m->chain_pids[i] ? xl_task_runtime_ns(m->chain_pids[i]) : 0;

			ok = ok && (!m->chain_pids[i] || ns);
			chain += ns;
		}
		s->chain_runtime = xl_read_now(chain, ok);
	}
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
			w->cpu_source = XL_CPU_SRC_PROCSTAT;
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

void xl_meter_window_zero(struct xl_meter_window *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->rx.ok = sum->gen_sent.ok = sum->gen_refused.ok = sum->eth.ok = true;
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
	int i;

	xl_delta_add(&sum->rx, &w->rx);
	sum->bytes += w->bytes;
	sum->errors += w->errors;
	for (i = 0; i < XL_XDP_ACTIONS; i++)
		sum->actions[i] += w->actions[i];
	if (w->packets)
		sum->napi_cpu = w->napi_cpu; /* the CPU judged where frames were */
	/*
	 * The CPU and chain figures divide by the packets of the windows in
	 * which they were read; a window whose CPU read failed adds neither.
	 * Those packets are then not in @sum->rx for the per-packet figure:
	 * the cost is over the same frames as the time.
	 */
	if (w->cpu_ns.ok && w->cpu_span_ns.ok) {
		if (!sum->cpu_source || !w->cpu_source)
			sum->cpu_source = sum->cpu_source ? sum->cpu_source : w->cpu_source;
		else if (strcmp(sum->cpu_source, w->cpu_source))
			sum->cpu_source = XL_CPU_SRC_MIXED;
		sum->sirq_runs += w->sirq_runs;
		add_if_ok(&sum->cpu_ns, &w->cpu_ns);
		add_if_ok(&sum->cpu_busy_ns, &w->cpu_busy_ns);
		add_if_ok(&sum->cpu_span_ns, &w->cpu_span_ns);
		add_if_ok(&sum->cpu_rx, &w->rx);
	}
	if (w->chain_ns.ok) {
		add_if_ok(&sum->chain_ns, &w->chain_ns);
		add_if_ok(&sum->chain_rx, &w->rx);
	}
	xl_delta_add(&sum->gen_sent, &w->gen_sent);
	xl_delta_add(&sum->gen_refused, &w->gen_refused);
	xl_delta_add(&sum->eth, &w->eth);
	add_if_ok(&sum->steal_ns, &w->steal_ns);
	add_if_ok(&sum->steal_span_ns, &w->steal_span_ns);
	sum->load_sum += w->load_sum;
	sum->load_n += w->load_n;
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
