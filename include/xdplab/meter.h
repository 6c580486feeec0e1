/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file meter.h
 * One measurement window of an XDP benchmark: our per-CPU counters, the
 * DUT CPU's busy share and CPU time (from /proc), the generator's sent
 * count, and the veth's own XDP counters (ethtool) as an independent check.
 * Method: see docs/lab.md ("validity").
 */
#ifndef XDPLAB_METER_H
#define XDPLAB_METER_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/sysstat.h"
#include "xdplab/window.h"

/**
 * struct xl_counter_src - a source of the DUT's packet counters, the one
 * interface through which a meter reads them: our benchmark's per-CPU map
 * (xl_counter_src_bench()), redirect's, the nftables rule's counter, a
 * driver's per-action XDP counters, a user program's count.
 * @name: what is read, for messages ("bench", "redirect-cpu"...).
 * @read: the totals into *@total and, when @per_cpu is not NULL, each
 *        CPU's record (at most XL_MAX_CPUS; a source without a per-CPU
 *        split leaves them zero). The record is struct xl_bench_rec, the
 *        BPF <-> user-space layout of xdplab/abi/bench.h, whatever the
 *        source. Return: 0 or -errno.
 * @ctx: the source's own object, passed to @read; not owned.
 */
struct xl_counter_src {
	const char *name;
	xl_counter_read_fn *read;
	void *ctx;
};

/** xl_counter_src_bench() - @b's per-CPU counters (xl_bench__read()) as a source; @b not owned. */
struct xl_counter_src xl_counter_src_bench(struct xl_bench *b);

/* Most tasks besides the generator's threads in a chain's CPU time. */
#define XL_METER_CHAIN_PIDS 4

/**
 * struct xl_meter - what to sample. Not owned: the caller keeps these alive.
 * @src: the DUT's packet counters (required). Beside them the meter reads
 *        the host's own counters, each a source of its own in meter.c's
 *        table (ethtool, /proc/stat, the softirq tracepoints, the NAPI
 *        kthread, the generator, the chain's tasks), as the fields below ask.
 * @gen: the generator, or NULL (its sent count is then not reported).
 * @napi_cpu: the CPU whose busy share decides validity; -1: the CPU that
 *            processed most packets in the window (from the per-CPU counters),
 *            or, when the reader keeps no per-CPU split (all zero: the
 *            nftables counter), the CPU with the most softirq time in it.
 * @napi_pid: threaded-NAPI kthread (its run time is the CPU cost), 0: none
 *            (the NAPI CPU's softirq time is used).
 * @chain_pids: other tasks that run the chain's work, whose run time counts
 *            with the generator's in the window's chain_ns_per_pkt: the
 *            ksoftirqd of the generator's and of the NAPI's CPU
 *            (xl_ksoftirqd_pid()), a threaded NAPI's kthread; 0: unused.
 * @chain_cpus: the generator's and the NAPI's CPU (-1: none): with
 *            CONFIG_IRQ_TIME_ACCOUNTING, softirq work run inline is in no
 *            task's run time, so their /proc/stat softirq time is added
 *            (10 ms resolution) to the chain's.
 * @chain_set: @chain_pids/@chain_cpus were filled (xl_meter_set_chain()).
 * @eth_sock/@ifname: a socket in the DUT's netns and the DUT interface for
 *            the ethtool cross-check; @eth_sock < 0 disables it.
 * @queues: DUT queues whose rx_queue_N_xdp_packets are summed
 *            (1..XL_ETHTOOL_MAX_QUEUES).
 * @no_sirq: do not load the softirq tracepoints (xdplab/softirq_time.h)
 *            for this meter (without it, softirq wiring loads them only
 *            where xl_sirq_source() chose them): its CPU figure is not the NAPI CPU's softirq
 *            time (the generator ceiling judges the generator's CPU), and
 *            they cost every softirq of the machine. false: softirq wiring
 *            (no @napi_pid) reads them.
 * @sirq_held: the meter's own: true while it holds a reference on the
 *            softirq tracepoints (taken by its first sample that reads
 *            them or by xl_meter_prepare(), dropped by xl_meter_done());
 *            callers leave it false and do not copy a meter that holds
 *            one (the copy would drop the same reference again).
 *
 * Every meter that was sampled is done with xl_meter_done() on every path
 * (declare it XL_METER_SCOPED and that happens when it goes out of scope),
 * or the tracepoints stay loaded, at a cost on every softirq of the
 * machine, for as long as the process runs.
 */
struct xl_meter {
	struct xl_counter_src src;
	struct xl_gen *gen;
	int napi_cpu;
	int napi_pid;
	int chain_pids[XL_METER_CHAIN_PIDS];
	int chain_cpus[2];
	bool chain_set;
	int eth_sock;
	const char *ifname;
	int queues;
	bool no_sirq;
	bool sirq_held;
};

/**
 * struct xl_meter_sample - raw counters, each read stamped next to it
 * (struct xl_read): a slow read (/proc, an ethtool round trip) does not
 * stretch or shift another counter's window.
 * @t_ns: stamp of the benchmark counters' read (@total, @per_cpu).
 * @cpu/@cpu_ok: each CPU's /proc/stat times and whether that read worked;
 *   @cpu_t_ns: their stamp.
 * @napi_runtime: the NAPI kthread's run time, ns (not ok without one).
 * @gen_sent/@gen_refused: the generator's frames handed to the device and
 *   refused by it (struct xl_gen_stats .sent, .xmit_errors); not ok
 *   without a generator.
 * @chain_runtime: generator threads + struct xl_meter.chain_pids, ns.
 * @eth: the kernel's rx_queue_N_xdp_packets summed over the DUT's queues.
 * @sirq_ok/@sirq_ns/@sirq_runs/@sirq_t_ns: each CPU's exact NET_RX softirq
 *   time (ns) and runs from the tracepoint source (xdplab/softirq_time.h),
 *   read once per sample when the meter has no NAPI kthread, stamped by
 *   @sirq_t_ns; !@sirq_ok: not read (threaded NAPI, or the source could not
 *   load: /proc/stat's softirq field is used instead).
 * @sirq_gen: the tracepoints' load generation of @sirq_ns (xl_sirq_read()),
 *   0 when !@sirq_ok: a window whose two samples differ in it (the
 *   programs were detached and loaded again in between) does not use them.
 * @procs_running: runnable tasks on the machine at @cpu_t_ns, from the
 *   same /proc/stat read (xl_cpu_times_read_load()), -1 unknown.
 * @irqtime: @cpu's softirq times are accounted at each softirq's entry
 *   and exit (the kernel's CONFIG_IRQ_TIME_ACCOUNTING,
 *   xl_irq_time_accounting() == 1), not sampled by the tick.
 */
struct xl_meter_sample {
	uint64_t t_ns;
	struct xl_bench_rec total;
	struct xl_bench_rec per_cpu[XL_MAX_CPUS];
	struct xl_cpu_times cpu[XL_MAX_CPUS];
	bool cpu_ok[XL_MAX_CPUS];
	uint64_t cpu_t_ns;
	struct xl_read napi_runtime, gen_sent, gen_refused, chain_runtime, eth;
	bool sirq_ok;
	uint64_t sirq_t_ns;
	uint64_t sirq_ns[XL_MAX_CPUS];
	uint64_t sirq_runs[XL_MAX_CPUS];
	uint64_t sirq_gen;
	int procs_running;
	bool irqtime;
};

/** Where a window's DUT CPU time (@cpu_ns) came from (struct xl_meter_window.cpu_source). */
#define XL_CPU_SRC_KTHREAD "napi-kthread-schedstat"
#define XL_CPU_SRC_TRACEPOINT "softirq-tracepoint"
#define XL_CPU_SRC_PROCSTAT "proc-stat"
/** /proc/stat's softirq field on a kernel with IRQ time accounting (no program: xl_sirq_source()). */
#define XL_CPU_SRC_PROCSTAT_IRQTIME "proc-stat-irqtime"
/** A sum of windows whose sources differ. */
#define XL_CPU_SRC_MIXED "mixed"

/**
 * struct xl_meter_window - what happened between two samples.
 * Raw deltas (struct xl_delta, each over the time between its own two
 * reads; the figures below are computed from these and nothing else):
 * @rx: frames our program counted, over the benchmark reads' window.
 * @cpu_ns: CPU time the DUT spent (the NAPI kthread's run time with
 *   threaded NAPI, else the judged CPU's NET_RX softirq time from the
 *   tracepoints, or its /proc/stat softirq time where xl_sirq_source()
 *   chose it or the tracepoints could not load), ns.
 * @cpu_source: which of those: XL_CPU_SRC_* (NULL: no CPU read).
 * @sirq_runs: NET_RX softirq runs on the judged CPU (tracepoint source; 0
 *   otherwise): @packets / @sirq_runs frames share the two tracepoint hits.
 * @cpu_busy_ns/@cpu_span_ns: the judged CPU's busy time and the time it
 *   was watched (kthread: run time over the reads' window; softirq: the
 *   CPU's busy and total /proc/stat time), ns; not ok when a read failed.
 * @gen_sent/@gen_refused: frames the generator handed to its device and
 *   frames the device refused (veth: ring full, no NAPI at the peer).
 * @chain_ns: CPU time of every task running the chain's work, ns.
 * @cpu_rx/@chain_rx: @rx of the windows in which @cpu_ns / @chain_ns were
 *   read (equal to @rx in one window; in a sum, the windows with a failed
 *   CPU read are left out of both sides of the per-packet figure).
 * @eth: the kernel's count (ethtool), over its own reads' window.
 * Figures:
 * @ns: @rx's window in ns. @packets/@bytes/@errors: our counts.
 * @actions: frames per XDP action. @pps/@err_pps: rates per second.
 * @ns_per_pkt: 1e9 / pps.
 * @napi_cpu: the CPU judged; @cpu_busy: @cpu_busy_ns / @cpu_span_ns,
 *   clamped to 1 for the verdict (the raw deltas keep what was read).
 * @cpu_ns_per_pkt: @cpu_ns / @packets, 0 if no packets or no CPU read.
 * @chain_ns_per_pkt: @chain_ns / @packets: every task that runs the
 *   chain's work (the generator's redirect, the DUT's NAPI, the sink's
 *   NAPI, inline in the generator's thread with softirq wiring, in kthreads
 *   otherwise), in ns from schedstat, so other load on the machine does
 *   not count (as with @cpu_ns_per_pkt from the softirq tracepoints; not
 *   with its /proc/stat fallback, 10 ms ticks); 0 without a generator.
 * @gen_pps: frames the generator's device accepted per second (sent minus
 *   refused: delivered, the rate to compare); @gen_sent_pps: offered;
 *   @gen_xmit_errors: @gen_refused's count.
 * @eth_packets: the kernel's count; @disagreement: |ours - kernel's| /
 *   max; @eth_ok: the check ran.
 * @generator_bound: @cpu_busy < XL_SATURATED_SHARE.
 * @counter_mismatch: @disagreement > XL_COUNTER_TOLERANCE.
 * What made noise (issue 19), from the /proc/stat reads already taken:
 * @steal_ns/@steal_span_ns: the judged CPU's steal time and all its time
 *   (busy + idle + iowait) between the samples, ns (not ok: unread);
 *   @steal_share: their ratio, -1 unknown; @steal_high: above
 *   XL_STEAL_HIGH_SHARE.
 * @load_sum/@load_n: procs_running summed over the samples that had it
 *   (a window's two edges; a sum of windows adds them); @load: their mean,
 *   -1 unknown. It counts the lab's own running threads (the reader, the
 *   generator, the NAPI kthread) too.
 */
struct xl_meter_window {
	struct xl_delta rx, cpu_ns, cpu_busy_ns, cpu_span_ns, gen_sent, gen_refused;
	struct xl_delta chain_ns, eth, cpu_rx, chain_rx;
	uint64_t ns;
	uint64_t packets, bytes, errors;
	uint64_t actions[XL_XDP_ACTIONS];
	double pps, err_pps, ns_per_pkt;
	int napi_cpu;
	double cpu_busy, cpu_ns_per_pkt;
	double gen_pps, gen_sent_pps, chain_ns_per_pkt;
	uint64_t gen_xmit_errors;
	uint64_t eth_packets;
	double disagreement;
	bool eth_ok;
	bool generator_bound, counter_mismatch;
	const char *cpu_source;
	uint64_t sirq_runs;
	struct xl_delta steal_ns, steal_span_ns;
	double steal_share;
	bool steal_high;
	uint64_t load_sum, load_n;
	double load;
};

/**
 * xl_meter_steal() - the steal time of CPU @cpu between samples @a and @b
 * into *@steal and all its time into *@span (ns; not ok when a read
 * failed or @cpu is out of range). The window's own judged CPU gets it in
 * xl_meter_window(); a row that judges another CPU (the generator
 * ceiling) asks for that one.
 */
void xl_meter_steal(const struct xl_meter_sample *a, const struct xl_meter_sample *b, int cpu,
		    struct xl_delta *steal, struct xl_delta *span);

/**
 * xl_steal_share() - @steal over @span, -1 when either is not ok or
 * @span is 0; *@high (may be NULL): above XL_STEAL_HIGH_SHARE.
 */
double xl_steal_share(const struct xl_delta *steal, const struct xl_delta *span, bool *high);

/**
 * xl_meter_set_chain() - fill @m->chain_pids with every task that runs the
 * chain's work besides the generator's threads: @m->napi_pid (set it
 * first; 0 is skipped), the ksoftirqd of @gen_cpu and, when it differs, of
 * @napi_cpu (-1: none); and @m->chain_cpus.
 */
void xl_meter_set_chain(struct xl_meter *m, int gen_cpu, int napi_cpu);

/**
 * xl_meter_cpu_source() - the source @m's windows take the DUT's CPU time
 * from when every read works (XL_CPU_SRC_*): the NAPI kthread's with
 * @m->napi_pid; in softirq wiring xl_sirq_source()'s choice, /proc/stat
 * (IRQ time accounting or not) with @m->no_sirq.
 */
const char *xl_meter_cpu_source(const struct xl_meter *m);

/**
 * xl_meter_sample() - take a sample now. In softirq wiring (no
 * @m->napi_pid, no @m->no_sirq) the first sample takes @m's reference on
 * the softirq tracepoints, before any read (loading takes milliseconds);
 * keep it until xl_meter_done(). Return: 0 or -errno (@m->src unreadable; -EINVAL: no @m->src.read).
 */
int xl_meter_sample(struct xl_meter *m, struct xl_meter_sample *s);

/**
 * xl_meter_prepare() - take now what @m's first sample would load (the
 * softirq tracepoints in softirq wiring: no @m->napi_pid, no @m->no_sirq),
 * so that a warm-up can follow the load instead of the first window;
 * nothing otherwise. Kept until xl_meter_done(); a failed load is only
 * the /proc/stat figure later, as in xl_meter_sample().
 */
void xl_meter_prepare(struct xl_meter *m);

/**
 * xl_meter_done() - drop @m's reference on the softirq tracepoints, if it
 * holds one (the last holder detaches them); safe on a meter never sampled
 * and twice. @m may sample again after: it takes a new reference, and a
 * window across the two (another load generation) uses /proc/stat.
 */
void xl_meter_done(struct xl_meter *m);

/**
 * XL_METER_SCOPED - on a local struct xl_meter's declaration: xl_meter_done()
 * runs when the variable goes out of scope, on every return path
 * (struct xl_meter m XL_METER_SCOPED = { ... };). The GNU C cleanup
 * attribute, the idea of the kernel's __free() (include/linux/cleanup.h).
 */
#define XL_METER_SCOPED __attribute__((cleanup(xl_meter_done)))

/** xl_meter_window() - compute the window from @a (earlier) to @b. */
void xl_meter_window(const struct xl_meter *m, const struct xl_meter_sample *a,
		     const struct xl_meter_sample *b, struct xl_meter_window *w);

/**
 * xl_meter_window_add() - add window @w to @sum (the raw deltas add), then
 * recompute @sum's figures from the sums: the totals of a run made of
 * intervals, or of a repetition made of slices. Start @sum with
 * xl_meter_window_zero(). @napi_cpu of the last window with packets is kept.
 */
void xl_meter_window_add(struct xl_meter_window *sum, const struct xl_meter_window *w);

/** xl_meter_window_zero() - an empty sum for xl_meter_window_add() (every delta ok). */
void xl_meter_window_zero(struct xl_meter_window *sum);

/**
 * xl_meter_window_rep() - @w as a repetition record (struct xl_rep_result
 * of xdplab/report.h, as lab rows and --json files hold them): the check
 * (@run_packets, @eth_packets) over @w itself; @xmit_events -1.
 */
struct xl_rep_result;
void xl_meter_window_rep(const struct xl_meter_window *w, struct xl_rep_result *rep);

#endif /* XDPLAB_METER_H */
