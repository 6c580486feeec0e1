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
#include "xdplab/stats.h"
#include "xdplab/time.h"

/* Sum rx_queue_N_xdp_packets over the DUT's queues (veth's own counter). */
static bool read_eth(const struct xl_meter *m, uint64_t *out)
{
	char names_buf[16][40];
	const char *names[16];
	uint64_t vals[16];
	int q, n = m->queues < 1 ? 1 : m->queues > 16 ? 16 : m->queues;

	if (m->eth_sock < 0)
		return false;
	for (q = 0; q < n; q++) {
		snprintf(names_buf[q], sizeof(names_buf[q]), "rx_queue_%d_xdp_packets", q);
		names[q] = names_buf[q];
	}
	if (xl_ethtool_stats(m->eth_sock, m->ifname, names, vals, n) != n)
		return false;
	*out = 0;
	for (q = 0; q < n; q++)
		*out += vals[q];
	return true;
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

int xl_meter_sample(const struct xl_meter *m, struct xl_meter_sample *s)
{
	int i, err, ncpus = xl_bench_ncpus();

	s->t_ns = xl_now_ns();
	err = m->read ? m->read(m->read_ctx, &s->total, s->per_cpu) :
			xl_bench__read(m->bench, &s->total, s->per_cpu);
	if (err)
		return err;
	for (i = 0; i < ncpus; i++)
		if (xl_cpu_times_read(i, &s->cpu[i]))
			memset(&s->cpu[i], 0, sizeof(s->cpu[i]));
	s->napi_runtime_ns = m->napi_pid ? xl_task_runtime_ns(m->napi_pid) : 0;
	s->gen_sent = 0;
	s->gen_xmit_errors = 0;
	s->chain_runtime_ns = 0;
	if (m->gen) {
		struct xl_gen_stats gs;

		xl_gen__read(m->gen, &gs);
		s->gen_sent = gs.sent;
		s->gen_xmit_errors = gs.xmit_errors;
		s->chain_runtime_ns = xl_gen__runtime_ns(m->gen);
		for (i = 0; i < XL_METER_CHAIN_PIDS; i++)
			if (m->chain_pids[i])
				s->chain_runtime_ns += xl_task_runtime_ns(m->chain_pids[i]);
	}
	s->eth_ok = read_eth(m, &s->eth_xdp_packets);
	return 0;
}

void xl_meter_window(const struct xl_meter *m, const struct xl_meter_sample *a,
		     const struct xl_meter_sample *b, struct xl_meter_window *w)
{
	int i, cpu = m->napi_cpu, ncpus = xl_bench_ncpus();
	uint64_t best = 0, cpu_ns;

	memset(w, 0, sizeof(*w));
	w->ns = b->t_ns - a->t_ns;
	w->packets = b->total.rx_packets - a->total.rx_packets;
	w->bytes = b->total.rx_bytes - a->total.rx_bytes;
	w->errors = b->total.errors - a->total.errors;
	for (i = 0; i < XL_XDP_ACTIONS; i++)
		w->actions[i] = b->total.actions[i] - a->total.actions[i];
	w->pps = xl_rate(w->packets, w->ns);
	w->err_pps = xl_rate(w->errors, w->ns);
	w->ns_per_pkt = xl_ns_per_pkt(w->pps);
	if (cpu < 0) {
		for (i = 0; i < ncpus; i++) {
			uint64_t d = b->per_cpu[i].rx_packets - a->per_cpu[i].rx_packets;

			if (d > best) {
				best = d;
				cpu = i;
			}
		}
	}
	w->napi_cpu = cpu;
	if (cpu >= 0 && cpu < ncpus) {
		cpu_ns = m->napi_pid ? b->napi_runtime_ns - a->napi_runtime_ns :
				       b->cpu[cpu].softirq - a->cpu[cpu].softirq;
		/*
		 * Threaded NAPI: the kthread's own share of the window. Other
		 * tasks on that CPU (a shared VM) would make /proc/stat say
		 * "busy" while the DUT itself idles.
		 */
		w->cpu_busy = m->napi_pid ? (w->ns ? (double)cpu_ns / w->ns : 0) :
					    xl_cpu_busy_share(&a->cpu[cpu], &b->cpu[cpu]);
		if (w->cpu_busy > 1.0)
			w->cpu_busy = 1.0;
		w->cpu_ns_per_pkt = w->packets ? (double)cpu_ns / w->packets : 0;
	}
	w->gen_pps = xl_rate(b->gen_sent - a->gen_sent, w->ns);
	w->gen_xmit_errors = b->gen_xmit_errors - a->gen_xmit_errors;
	if (w->packets && b->chain_runtime_ns > a->chain_runtime_ns) {
		uint64_t chain = b->chain_runtime_ns - a->chain_runtime_ns;

		/* IRQ time accounting takes inline softirq work out of tasks. */
		for (i = 0; i < 2 && xl_irq_time_accounting() == 1; i++) {
			int c = m->chain_cpus[i];

			if (m->chain_set && c >= 0 && c < ncpus)
				chain += b->cpu[c].softirq - a->cpu[c].softirq;
		}
		w->chain_ns_per_pkt = (double)chain / w->packets;
	}
	w->eth_ok = a->eth_ok && b->eth_ok;
	if (w->eth_ok) {
		w->eth_packets = b->eth_xdp_packets - a->eth_xdp_packets;
		w->disagreement = xl_disagreement(w->packets, w->eth_packets);
		w->counter_mismatch = w->disagreement > XL_COUNTER_TOLERANCE;
	}
	w->generator_bound = w->cpu_busy < XL_SATURATED_SHARE;
}
