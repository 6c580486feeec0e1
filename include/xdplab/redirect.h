/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file redirect.h
 * The XDP_REDIRECT benchmarks (redirect, redirect-cpu, redirect-multi): the
 * redirect.bpf.c programs loaded with their maps filled, attached to IN
 * through a bpf_link, and their per-CPU counters read and summed in user
 * space. Frames the kernel fails to forward after the program returned
 * XDP_REDIRECT (OUT down, OUT's peer without NAPI, ring full) never reach
 * the program again, so they are read from the veth's own counters
 * (ethtool: IN's rx_queue_N_drops, OUT's tx_queue_N_xdp_xmit_errors) when
 * the devices are veths.
 */
#ifndef XDPLAB_REDIRECT_H
#define XDPLAB_REDIRECT_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/abi/redirect.h"

/** The four ways to redirect. */
enum xl_redir_kind {
	XL_REDIR_DEVMAP = 0, /**< bpf_redirect_map() into a devmap: IN -> OUT */
	XL_REDIR_CPUMAP = 1, /**< into a cpumap entry, program on the entry */
	XL_REDIR_MULTI = 2,  /**< broadcast over a devmap_hash, ingress excluded */
	XL_REDIR_IFINDEX = 3, /**< bpf_redirect() to OUT's ifindex, no map */
};

/** Default and largest cpumap queue size in frames (kernel: 1..16384). */
#define XL_CPUMAP_QSIZE_DEFAULT 2048
#define XL_CPUMAP_QSIZE_MAX 16384

/**
 * struct xl_redirect_opts - one redirect benchmark.
 * @kind: the map type used.
 * @op: packet operation on IN before redirecting.
 * @mode: attach mode on IN (native or skb).
 * @in: the ingress interface (current netns).
 * @out/@nout: OUT interfaces in the same netns: 1 for devmap, ifindex and for cpumap
 *   with XL_CPU_ACT_REDIRECT, 0 for cpumap otherwise, 1..XL_REDIR_MAX_OUT
 *   for multi. None may equal @in, none may repeat (-EINVAL).
 * @cpu: target CPU of the cpumap when @ncpu is 0 (must be online; cpumap only).
 * @cpus/@ncpu: the steering list, 1..XL_STEER_MAX_CPUS online CPUs, none
 *   twice (cpumap only); @ncpu 0: the one CPU @cpu.
 * @steer: the steering policy (XL_STEER_DEFAULT: l4-hash with several
 *   CPUs, no-touch with one).
 * @cpu_action: what the cpumap-entry program does (cpumap only);
 *   XL_CPU_ACT_DISABLED: an entry without a program.
 * @qsize: cpumap queue size in frames, 1..XL_CPUMAP_QSIZE_MAX (0: default).
 * @load_egress: a program on the devmap entry (devmap only), which sets
 *   the source MAC to OUT's and sends the frame on, or with @egress_drop
 *   drops it; counted in struct xl_redirect_stats.egress.
 * @stress: replace every cpumap entry continuously while running (a thread,
 *   every XL_STEER_STRESS_US), as xdp-bench --stress-mode does, to exercise
 *   the kernel's entry tear-down under traffic.
 */
struct xl_redirect_opts {
	enum xl_redir_kind kind;
	enum xl_pkt_op op;
	enum xl_xdp_mode mode;
	const char *in;
	const char *out[XL_REDIR_MAX_OUT];
	int nout;
	int cpu;
	int cpus[XL_STEER_MAX_CPUS];
	int ncpu;
	enum xl_steer steer;
	enum xl_cpu_action cpu_action;
	uint32_t qsize;
	bool frags;
	bool stress;
	bool load_egress;
	bool egress_drop;
};

/** Period of the --stress-mode entry replacement, microseconds. */
#define XL_STEER_STRESS_US 10000

/**
 * struct xl_steer_target - one target CPU of redirect-cpu, totals since
 * create. @cpu: its id. @steered: frames the ingress program sent to it.
 * @enqueued/@enqueue_drops: queued to / dropped at its cpumap queue.
 * @processed: frames run on it (the entry program's own count on that CPU;
 * with XL_CPU_ACT_DISABLED, what its kthread took off the queue).
 */
struct xl_steer_target {
	int cpu;
	uint64_t steered;
	uint64_t enqueued;
	uint64_t enqueue_drops;
	uint64_t processed;
};

/**
 * struct xl_redirect_stats - totals since xl_redirect__create().
 * @in: the ingress program's counters summed over CPUs (rx_packets,
 *      rx_bytes, actions, errors = failed bpf_redirect_map()).
 * @cpu: the cpumap-entry program's counters summed over CPUs, and the
 *      enqueue counts from the xdp_cpumap_enqueue tracepoint (cpumap only).
 * @egress: the devmap egress program's counters summed (--load-egress).
 * @kernel_drops: IN's rx_queue_N_drops delta: frames the program redirected
 *      but xdp_do_redirect() refused (e.g. OUT down: -ENETDOWN).
 * @out_xmit/@out_xmit_errors: per OUT, tx_queue_N_xdp_xmit(_errors) deltas:
 *      frames OUT's ndo_xdp_xmit sent / dropped (peer without NAPI, full ring).
 * @out_ok: per OUT, its counters could be read now; when not (deleted
 *      mid-run) @out_xmit/@out_xmit_errors hold the last values read.
 * @eth_ok: IN's veth counters could be read.
 */
struct xl_redirect_stats {
	struct xl_bench_rec in;
	struct xl_redir_cpu_rec cpu;
	struct xl_egress_rec egress;
	uint64_t kernel_drops;
	uint64_t out_xmit[XL_REDIR_MAX_OUT];
	uint64_t out_xmit_errors[XL_REDIR_MAX_OUT];
	bool out_ok[XL_REDIR_MAX_OUT];
	bool eth_ok;
};

struct xl_redirect;

/**
 * xl_redirect_check() - validate @opts in the current netns without loading
 * anything: interfaces exist, OUT count fits the kind, no OUT equals IN or
 * repeats, the cpumap CPU is in range and online, qsize in range.
 * Return: 0, or -ENODEV/-EINVAL/-ERANGE with the cause logged in one line.
 */
int xl_redirect_check(const struct xl_redirect_opts *opts);

/**
 * xl_redirect__create() - validate, load, fill the maps, attach to IN.
 * Return: the benchmark (free with xl_redirect__destroy(), which detaches)
 * or NULL with errno: ENODEV (no such interface), EINVAL (IN equals an OUT,
 * an OUT repeated, wrong number of OUTs, bad qsize), ERANGE (CPU out of
 * range or offline), EBUSY (another program holds IN), EPERM, or another
 * load/attach errno. The cause is logged in one line.
 */
struct xl_redirect *xl_redirect__create(const struct xl_redirect_opts *opts);

/**
 * xl_redirect__read() - totals of every possible CPU into @st; when not
 * NULL, the first xl_bench_detail_ncpus() CPUs' ingress records into
 * @per_cpu_in and cpumap records into @per_cpu_cpu (arrays of that many).
 * Return: 0 or -errno.
 */
int xl_redirect__read(struct xl_redirect *r, struct xl_redirect_stats *st,
		      struct xl_bench_rec *per_cpu_in,
		      struct xl_redir_cpu_rec *per_cpu_cpu);

/**
 * xl_redirect__last() - what the last xl_redirect__read() returned (the
 * meter's reader, xl_redirect__read_bench() or xl_redirect__read_cpu(),
 * read it a moment ago) into @st, so a command's interval line needs no
 * second read of the same counters per sample; with @t not NULL (cpumap
 * only), the per-target counts as xl_redirect__read_steer() gives them,
 * their processed counts from that same read's cpumap records (only the
 * targets' steer_stats are read now). Return: 0, -ENODATA before the
 * first read, or -errno.
 */
int xl_redirect__last(struct xl_redirect *r, struct xl_redirect_stats *st,
		      struct xl_steer_target *t);

/**
 * xl_redirect__read_bench() - a counter source's read (struct xl_counter_src): the ingress
 * counters as an xl_bench_rec, with the frames the kernel failed to forward
 * (@kernel_drops, OUT xmit errors, cpumap enqueue drops) added to
 * total->errors. @ctx: the struct xl_redirect. Return: 0 or -errno.
 */
xl_counter_read_fn xl_redirect__read_bench;

/**
 * xl_redirect__read_cpu() - a counter source's read (struct xl_counter_src): the cpumap-entry
 * program's processed frames as rx_packets (per CPU: the target CPU), for
 * rows measured where the frames arrive. @ctx: the struct xl_redirect.
 */
xl_counter_read_fn xl_redirect__read_cpu;

/**
 * xl_redirect__cpumap_kthread_pid() - pid of the cpumap kthread of the
 * target CPU ("cpumap/<cpu>/map:<id>"), whose run time is the cpumap side's
 * CPU cost. Return: pid, or 0 (not a cpumap benchmark, or not found).
 */
int xl_redirect__cpumap_kthread_pid(const struct xl_redirect *r);

/**
 * xl_redirect__stress_affinity() - move @r's --stress-mode thread, if it
 * runs, to the CPUs in @set (the process's own move off the NAPI CPUs,
 * xl_keep_off_napi(), moves only the calling thread). Return: 0 (also with
 * no stress thread) or -errno from pthread_setaffinity_np().
 */
int xl_redirect__stress_affinity(struct xl_redirect *r, const cpu_set_t *set);

/**
 * xl_redirect__steer_count() - CPUs in @r's steering list (0: not cpumap).
 */
int xl_redirect__steer_count(const struct xl_redirect *r);

/**
 * xl_redirect__read_steer() - per target CPU, in list order, into @t (an
 * array of xl_redirect__steer_count() entries), and the frames the policy
 * could not read into @miss (may be NULL); @stress_replaced (may be NULL):
 * entry replacements by --stress-mode so far. Return: 0 or -errno.
 */
int xl_redirect__read_steer(struct xl_redirect *r, struct xl_steer_target *t,
			    struct xl_steer_miss *miss, uint64_t *stress_replaced);

/**
 * xl_redirect__quiesce() - end of a run: stop --stress-mode's thread,
 * detach the program from IN (no frame is steered after this), then for a
 * cpumap wait until each target's frames steered = processed + enqueue
 * drops (the frames in its queue drained), reading the counters every
 * 2 ms for at most @timeout_ms ms. Under traffic the totals read before
 * this leave the frames in flight in neither count. Safe to call twice;
 * xl_redirect__destroy() still frees @r. Return: 0, -ETIMEDOUT (still in
 * flight after @timeout_ms; the counts then read are what they are), or
 * -errno of a map read.
 */
int xl_redirect__quiesce(struct xl_redirect *r, int timeout_ms);

/** Most target CPUs of one row's steering record (= XL_STEER_MAX_CPUS). */
#define XL_ROW_STEER_MAX 64

/**
 * struct xl_row_steer - redirect-cpu's steering over a row's measured
 * frames (JSON "steering"). @on: the row is a redirect-cpu one and was
 * read. @policy: "round-robin", "l4-hash"... (static string).
 * @targets/@ntargets: per target CPU in list order, @cpu, frames @steered
 * to it by the ingress program, @processed on it, @enqueue_drops at its
 * cpumap queue (struct xl_steer_target). @not_ip/@malformed/@no_ports:
 * frames the policy could not read, by reason; @filtered: dropped by
 * l4-filter; @redirect_errors: refused by bpf_redirect_map() (struct
 * xl_steer_miss). Counts in frames. The JSON adds each target's share of
 * the steered total.
 */
struct xl_row_steer {
	bool on;
	const char *policy;
	int ntargets;
	struct {
		int cpu;
		uint64_t steered, processed, enqueue_drops;
	} targets[XL_ROW_STEER_MAX];
	uint64_t not_ip, malformed, no_ports, filtered, redirect_errors;
};

/**
 * xl_steer_row_add() - add the steering counts between two reads (@t0 and
 * @miss0 at the start, NULL: since create; @t and @miss at the end, @nt
 * targets each, as xl_redirect__read_steer() gives them) to @rs, a row's
 * record (its xl_row_part_steer part, xdplab/report.h), and mark it on
 * with @policy. Counts that went backwards (a read that failed half way)
 * add 0.
 */
void xl_steer_row_add(struct xl_row_steer *rs, enum xl_steer policy,
		      const struct xl_steer_target *t0, const struct xl_steer_miss *miss0,
		      const struct xl_steer_target *t, const struct xl_steer_miss *miss, int nt);

/** xl_steer_name() - "round-robin", "l4-hash"... ("?" out of range). */
const char *xl_steer_name(enum xl_steer s);

/**
 * xl_steer_parse() - the policy named @name (xdp-bench's --program-mode
 * words). Return: the policy, or -EINVAL.
 */
int xl_steer_parse(const char *name);

/**
 * xl_cpu_list_parse() - a CPU list "0,2-3" into @cpus (at most @max),
 * appended after *@n. Return: 0, -EINVAL (malformed) or -E2BIG (more than @max).
 */
int xl_cpu_list_parse(const char *list, int *cpus, int max, int *n);

/** xl_redirect__ifindex() - IN's ifindex. */
int xl_redirect__ifindex(const struct xl_redirect *r);

/**
 * xl_redirect__link_alive() - whether IN's XDP link still holds the
 * redirect program on IN (xl_xdp_link_alive(): one bpf syscall). Return: 0,
 * -ENOLINK (detached, e.g. by xdplab cleanup IN, or IN went away),
 * -EOPNOTSUPP (no link), or -errno.
 */
int xl_redirect__link_alive(const struct xl_redirect *r);

/**
 * xl_redirect__out_ifindex() - the ifindex OUT number @i (0-based, in the
 * order of xl_redirect_opts.out) had when the redirect was created.
 * Return: the ifindex, or 0 when @i is not an OUT of @r.
 */
int xl_redirect__out_ifindex(const struct xl_redirect *r, int i);

/** xl_redirect__destroy() - detach (close the links) and free. NULL is fine. */
void xl_redirect__destroy(struct xl_redirect *r);

/** xl_cpu_action_name() - "drop", "pass", "redirect", "disabled" ("?" out of range). */
const char *xl_cpu_action_name(enum xl_cpu_action a);

/**
 * xl_cpulist_has() - whether @cpu is in a kernel CPU list such as
 * "0-3,8,10-11" (the format of /sys/devices/system/cpu/online).
 * Return: 1 yes, 0 no, -EINVAL malformed list.
 */
int xl_cpulist_has(const char *list, int cpu);

/**
 * xl_cpu_online() - whether CPU @cpu is online (reads
 * /sys/devices/system/cpu/online). Return: 1, 0, or -errno.
 */
int xl_cpu_online(int cpu);

#endif /* XDPLAB_REDIRECT_H */
