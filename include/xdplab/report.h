/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file report.h
 * Lab results: one row per benchmark x size, its repetitions, the derived
 * figures (median Mpps, ns/packet, validity), the netdev-style table and
 * the JSON document described in docs/results.md.
 */
#ifndef XDPLAB_REPORT_H
#define XDPLAB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/fields.h"
#include "xdplab/pmu.h"
#include "xdplab/profile.h"
#include "xdplab/redirect.h"
#include "xdplab/rowfields.h"
#include "xdplab/stats.h"

/** Most repetitions per row. */
#define XL_MAX_REPS 32
/** JSON schema name written in every results file of lab run. */
#define XL_RESULTS_SCHEMA "xdplab.lab-results/1"
/** The schema of a single command's --json file (the same family: docs/results.md). */
#define XL_RUN_RESULTS_SCHEMA "xdplab.run-results/1"
/** The schema of monitor's --json file: event counts, no benchmark row. */
#define XL_MONITOR_RESULTS_SCHEMA "xdplab.monitor-results/1"
/** The schema of ndr's --json file: the zero-loss searches, no benchmark row. */
#define XL_NDR_RESULTS_SCHEMA "xdplab.ndr-results/1"

/**
 * struct xl_rep_result - one repetition of one row.
 * @ns: window length in ns. @packets: frames counted by the benchmark.
 * @pps: @packets per second. @gen_sent: frames the generator handed to
 * its device in the window (offered); @gen_xmit_errors: frames of those the
 * device refused (veth: ring full); @gen_pps: frames/s the device accepted
 * (delivered: @gen_sent - @gen_xmit_errors per second, the rate compared).
 * @cpu_busy: busy share 0..1 of the judged CPU. @cpu_ns_per_pkt: CPU time
 * per packet in ns. @run_packets: our count over the whole repetition (from
 * before the first frame to after the last was processed, warm-up
 * included); @eth_packets: the kernel's own count (ethtool) over the same
 * span, valid if @eth_ok. @disagreement: |run_packets - eth_packets| / max.
 * @chain_ns_per_pkt: the chain's CPU time per packet, ns (struct
 * xl_meter_window; 0 where not measured). @xmit_events: xdp_devmap_xmit
 * events in the window (one per devmap bulk), counted by a `monitor --all`
 * watching it; -1 where not counted. @cpu_source: where @cpu_ns_per_pkt's
 * CPU time came from (XL_CPU_SRC_* of xdplab/meter.h; NULL: not said).
 * @softirq_runs: NET_RX softirq runs on the judged CPU in the window
 * (struct xl_meter_window.sirq_runs; 0: not counted).
 * What made noise and how fast the host was (issue 19; JSON null when not
 * known, so a zeroed record knows none of them):
 * @steal_ok/@steal_share/@steal_high: the judged CPU's steal share of the
 *   window (struct xl_meter_window), above XL_STEAL_HIGH_SHARE.
 * @load_ok/@load: mean procs_running at the window's samples.
 * @ctl_ns: the host-speed control (xdplab/hostctl.h) measured on the
 *   judged CPU just before the window, ns per run of its fixed program;
 *   0: not measured.
 * @pmu: instructions, cycles, IPC, cache and branch misses per packet on
 *   the judged CPU over the window (xdplab/pmu.h); none ok without a PMU.
 */
struct xl_rep_result {
	uint64_t ns, packets, gen_sent, gen_xmit_errors, run_packets, eth_packets;
	double pps, gen_pps, cpu_busy, cpu_ns_per_pkt, disagreement;
	double chain_ns_per_pkt;
	int64_t xmit_events;
	bool eth_ok;
	const char *cpu_source;
	uint64_t softirq_runs;
	bool steal_ok, steal_high, load_ok;
	double steal_share, load;
	double ctl_ns;
	struct xl_pmu_pkt pmu;
};

/**
 * struct xl_lat_rep - one repetition of a latency row: one generator run
 * of a fresh sequence (0, 1, ...) into a fresh receiver.
 * @sent: frames the generator sent; @xmit_errors: of those, refused by the
 *   generator's veth (its ring full).
 * @received: stamped frames the receiver saw; @lost: @sent minus the
 *   distinct sequence numbers received (every loss, at the tail too);
 *   @gaps: the receiver's own count, the numbers missing between the
 *   lowest and the highest it saw; @reordered, @duplicates: as struct
 *   xl_lat_totals.
 * @negative/@unset: of @received, stamps from another clock (later than
 *   the receiver's) and stamps of time 0: not timed, not in the figures.
 * @min_ns .. @max_ns: latency of the timed frames, ns (percentiles: a
 *   bucket's upper bound, xl_lat_percentile()); @mean_ns exact.
 */
struct xl_lat_rep {
	uint64_t sent, xmit_errors, received, lost, gaps, reordered, duplicates;
	uint64_t min_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	double mean_ns;
	uint64_t negative, unset;
};

/**
 * struct xl_lat_rowrec - one latency row as a results file holds it (an
 * element of the "latency" array of lab run --latency, docs/results.md):
 * written from it (xl_lat_row_json(), struct xl_lat_row.rec) and read back
 * into it (compare's xl_cmp_load(), which the report reads too) through one
 * field table, xl_lat_row_fields[].
 * Identity: @name ("lat/one-way/low": path and level), @size (frame
 * bytes), @wiring (the DUT NAPI placement of the row). @path: the path's
 * name ("one-way", "rt-tx", ...); @round_trip: the figure is the round trip
 * (gen -> DUT -> generator side). Set-up: @rate_pps (the generator's rate;
 * 0 unpaced, "load"), @seconds (each repetition's generator run, s),
 * @batch (the generator's live-frames batch), @delay_ns (the receiver's
 * busy wait per frame; 0). @reps/@nreps: each repetition; @med: per field,
 * the median over the repetitions (rounded down to whole ns and frames).
 * @note: empty, or why the row has fewer repetitions than asked, and what
 * else a reader should know (struct xl_lat_row).
 */
struct xl_lat_rowrec {
	char name[48], path[24];
	bool round_trip;
	uint32_t size;
	uint64_t rate_pps;
	double seconds;
	uint32_t batch;
	char wiring[16];
	uint64_t delay_ns;
	int nreps;
	char note[320];
	struct xl_lat_rep med, reps[XL_MAX_REPS];
};

/**
 * struct xl_watch_est - what the errors-only monitor costs, two ways
 * (xl_watch_estimate(), docs/monitor.md "What watching costs").
 * @cost_ns: measured: paired median of 1e9/pps_with - 1e9/pps_without, ns
 *   per packet (positive: slower with the monitor).
 * @cpu_cost_ns: measured: paired median of the chain's CPU ns per packet
 *   (struct xl_rep_result.chain_ns_per_pkt) with minus without.
 * @events_per_pkt: xdp_devmap_xmit events per packet on the chain with the
 *   generator's normal batch (counted by `monitor --all`: 1/16 per
 *   redirecting hop, one event per devmap bulk of 16 frames).
 * @b1_cpu_cost_ns/@b1_events_per_pkt: the same with a generator batch of
 *   1 frame, where every frame is its own bulk (1 event per frame per hop):
 *   the event's cost amplified 16 times above the noise.
 * @per_event_ns: @b1_cpu_cost_ns / @b1_events_per_pkt: CPU ns one event
 *   costs (tracepoint dispatch plus our program).
 * @estimate_ns: @per_event_ns x @events_per_pkt: the errors-only monitor's
 *   CPU cost per packet on the whole chain.
 * @valid: the calibration ran and the estimate is set.
 * @cpu_cost_lo/hi, @per_event_lo/hi, @estimate_lo/hi: distribution-free
 *   95% confidence intervals of the medians (xl_median_ci()), set when
 *   @cpu_cost_ci / @estimate_ci (at least 6 paired repetitions).
 * Per forwarding hop (xl_watch_per_hop(); 0 until it ran):
 * @hops: redirecting hops on the chain.
 * @bulk_frames: frames per devmap bulk measured at the normal batch,
 *   @hops / @events_per_pkt: 16 when the devmap's bulks fill up
 *   (XL_DEVMAP_BULK), fewer when frames arrive too slowly to fill them
 *   (a loaded machine), which raises @hop_ns although no event got dearer.
 * @hop_ns (@hop_lo..@hop_hi): @estimate_ns / @hops, at @bulk_frames.
 * @full_hop_ns (@full_hop_lo..@full_hop_hi): @per_event_ns / XL_DEVMAP_BULK:
 *   the cost per frame and hop with full bulks, the rate at which a hop is
 *   saturated; it does not depend on how fast the generator ran.
 * The floor (xl_watch_floor(); 0 until it ran, lab run --with-monitor-floor):
 * @floor_valid: measured; @floor_ci: the intervals below are set (at
 *   least 6 paired repetitions).
 * @floor_ns (@floor_lo..@floor_hi): CPU ns per event of an empty program
 *   on xdp_devmap_xmit: the kernel's dispatch, no work of ours.
 * @own_ns (@own_lo..@own_hi): the errors-only monitor's own part per
 *   event: paired errors-only minus floor.
 * @floor_hop_ns (@floor_hop_lo..@floor_hop_hi), @own_hop_ns (@own_hop_lo..
 *   @own_hop_hi): the same per frame and hop at full bulks (/ XL_DEVMAP_BULK).
 */
struct xl_watch_est {
	double cost_ns, cpu_cost_ns, events_per_pkt;
	double b1_cpu_cost_ns, b1_events_per_pkt, per_event_ns, estimate_ns;
	double cpu_cost_lo, cpu_cost_hi, per_event_lo, per_event_hi, estimate_lo, estimate_hi;
	int hops;
	double bulk_frames, hop_ns, hop_lo, hop_hi, full_hop_ns, full_hop_lo, full_hop_hi;
	bool valid, cpu_cost_ci, estimate_ci;
	double floor_ns, floor_lo, floor_hi, own_ns, own_lo, own_hi;
	double floor_hop_ns, floor_hop_lo, floor_hop_hi, own_hop_ns, own_hop_lo, own_hop_hi;
	bool floor_valid, floor_ci;
};

/**
 * struct xl_row_extra - the --extra-ns busy loop of a row (struct
 * xl_extra_cal in xdplab/bench.h, as measured on the row's first
 * repetition). @on: the row ran with it. @target_ns: asked for, CPU ns per
 * packet; @iters/@ns_per_iter: iterations set and a long loop's cost
 * per iteration; @set_ns: @iters x @ns_per_iter; @check_ns: what @iters
 * add, measured with BPF_PROG_RUN (the figure the calibration aims at);
 * @steps: checks made, 1..XL_EXTRA_CAL_STEPS (0: not recorded).
 */
struct xl_row_extra {
	bool on;
	double target_ns, ns_per_iter, set_ns, check_ns;
	uint32_t iters, steps;
};

/**
 * struct xl_meter_cost - what the meter's CPU-time hook costs, from the
 * rows of xl_labrun_meter_cost() (xdplab/labrun_meter.h): paired
 * differences, repetition by repetition, of the arm with the hook loaded
 * minus the arm without, their medians and distribution-free 95%
 * confidence intervals (xl_median_ci(), the watch-cost rows' code).
 * @valid: set (both rows have paired repetitions).
 * @hook: the hook measured: XL_CPU_SRC_TRACEPOINT (xdplab/meter.h).
 * @meter_source: the DUT CPU-time source the lab's other rows read in
 *   this wiring (xl_meter_cpu_source()); @meter_uses_hook: it is @hook, so
 *   those rows pay @chain_ns; else they pay nothing of it per packet.
 * @pairs: paired repetitions; @slices: slices per arm and repetition.
 * @chain_ns (@chain_lo..@chain_hi, @chain_ci): the chain's CPU ns/packet
 *   (struct xl_rep_result.chain_ns_per_pkt: schedstat, exact), hook minus
 *   none: where the DUT's NET_RX runs and the hook with it.
 * @dut_ns (@dut_lo..@dut_hi, @dut_ci): the DUT CPU ns/packet
 *   (cpu_ns_per_pkt from the row's meter, which never reads the hook).
 * @dut_source: where @dut_ns came from (XL_CPU_SRC_*, the rows' cpu_source).
 * @net_rx_runs: NET_RX runs on the judged CPU in the hook arm's slices
 *   (counted by the hook); @frames_per_run: that arm's packets over them,
 *   -1 without a run (threaded wiring: the DUT runs in no softirq). The
 *   hook costs two tracepoint hits per run, shared by its frames.
 */
struct xl_meter_cost {
	bool valid, meter_uses_hook, chain_ci, dut_ci;
	const char *hook, *meter_source, *dut_source;
	int pairs, slices;
	double chain_ns, chain_lo, chain_hi;
	double dut_ns, dut_lo, dut_hi;
	uint64_t net_rx_runs;
	double frames_per_run;
};

struct json_t;

/**
 * struct xl_row_part_ops - a kind of record that one row family adds to a
 * row beyond the common figures (src/lib/measure/rowparts.c): the profile
 * of `--profile` (xl_row_part_profile, struct xl_profile), redirect-cpu's
 * steering (xl_row_part_steer, struct xl_row_steer of xdplab/redirect.h),
 * the monitor's cost on the "redirect+mon-err" row (xl_row_part_watch,
 * struct xl_watch_est), the meter hook's cost on "meter-cost/hook"
 * (xl_row_part_meter, struct xl_meter_cost).
 * @key: the row's JSON member it is written as (docs/results.md).
 * @size: its record's size, bytes (made zeroed on first use).
 * @json: its JSON value (a new jansson reference), or NULL: nothing to
 *        write (the record says it is not set: steering off, no estimate).
 */
struct xl_row_part_ops {
	const char *key;
	size_t size;
	struct json_t *(*json)(const void *data);
};

extern const struct xl_row_part_ops xl_row_part_profile, xl_row_part_steer, xl_row_part_watch,
	xl_row_part_meter;

/** Most parts one row carries. */
#define XL_ROW_PARTS 4

/** struct xl_row_part - one part of a row: its kind and its record (malloc'ed, the row's). */
struct xl_row_part {
	const struct xl_row_part_ops *ops;
	void *data;
};

/**
 * struct xl_row_result - one row of the lab table.
 * @name: "drop/no-touch", "pass", "tx", "gen-ceiling"...
 * @kind: "xdp" or "gen". @action: "XDP_DROP"...; @op: packet operation name.
 * @mode: "native"/"skb". @size: frame size in bytes (no FCS).
 * @wiring: "threaded"/"softirq"; @napi_cpu/@gen_cpu: CPUs used (-1 none).
 * @engine: generator engine. @judged: what the validity rule looked at
 * ("dut-cpu" or "gen-cpu").
 * @counter: what counted the DUT's frames, XL_COUNTER_DRIVER or
 * XL_COUNTER_PROGRAM (xdplab/bench.h); NULL: not said (rows whose DUT is no
 * benchmark of ours). A driver-counted row's check column reads "drv".
 * @note: why the row has no figure ("" when it has one), or what the
 * verdict adds (the monitor's cost).
 * @extra: the --extra-ns busy loop, when the row ran with one.
 * @parts: what the row's family adds (struct xl_row_part_ops: a profile,
 * steering, the monitor's cost), each written as its own JSON member;
 * owned by the row, freed by xl_row_free_parts(). A profile is that of
 * one extra repetition after the measured ones (not among @reps) in a lab
 * run, of the run itself in a single command.
 * @reps/@nreps: repetitions.
 * Derived by xl_row_finish(): @mpps (median/min/max in Mpps), @ns_per_pkt
 * (1e3 / median Mpps), @cpu_busy, @cpu_ns_per_pkt, @gen_mpps (medians),
 * @disagreement (largest), @cpu_source (the repetitions' struct
 * xl_rep_result.cpu_source when they agree, "mixed" when not, NULL when
 * none says), @valid (@cpu_busy >= XL_SATURATED_SHARE),
 * @mismatch (@disagreement > XL_COUNTER_TOLERANCE), @xmit_errors (sum),
 * @ring_drop_share (share 0..1 of the frames the generator offered in the
 * windows that the veth refused: its 256-slot ring was full; when this is
 * high while the DUT is not saturated, the limit is veth's hand-off, not
 * the generator's speed).
 * The host's speed and noise (issue 19), also by xl_row_finish():
 * @ctl: the repetitions' host-speed control, ns per run (struct
 * xl_rep_result.ctl_ns; @ctl.n 0: not measured). @rel_ns_per_pkt /
 * @rel_cpu_ns_per_pkt: the medians over repetitions of ns/packet (1e9 /
 * pps) and of CPU ns/packet, each divided by its own repetition's control
 * (control runs per packet, dimensionless; 0: unknown); a figure of another
 * run on a slower or faster host is set against them scaled by one
 * reference control (struct xl_report_meta.ctl_ref_ns). @nsteal_high:
 * repetitions whose window had steal above XL_STEAL_HIGH_SHARE. @pmu: each
 * counter's median per packet over the repetitions that had it.
 * @prog_ns: the XDP program's own time per run, ns (the kernel's
 * run_time_ns / run_cnt of it, BPF_ENABLE_STATS on), measured in one extra
 * repetition after the counted ones (`lab run --prog-time`); 0: not
 * measured. It leaves out the driver, the stack and the generator, so it
 * shows a change in the program's cost that the host's drift hides in
 * ns/packet (compare --figure prog, docs/compare.md).
 */
struct xl_row_result {
	char name[32];
	const char *kind, *action, *op, *mode, *wiring, *engine, *judged, *counter;
	uint32_t size;
	int napi_cpu, gen_cpu;
	char note[320]; /* the errors-only monitor's estimate needs ~300 */
	int nreps;
	struct xl_rep_result reps[XL_MAX_REPS];
	struct xl_summary mpps;
	double ns_per_pkt, cpu_busy, cpu_ns_per_pkt, gen_mpps, disagreement;
	uint64_t xmit_errors;
	double ring_drop_share;
	struct xl_row_part parts[XL_ROW_PARTS];
	struct xl_row_extra extra;
	const char *cpu_source;
	bool valid, mismatch;
	struct xl_summary ctl;
	double rel_ns_per_pkt, rel_cpu_ns_per_pkt;
	int nsteal_high;
	struct xl_pmu_pkt pmu;
	double prog_ns;
};

/**
 * xl_rows_ctl_ref() - the run's reference control: the median of every
 * repetition's host-speed control (struct xl_rep_result.ctl_ns > 0) of the
 * @n @rows, ns per run; 0 when none was measured.
 */
double xl_rows_ctl_ref(const struct xl_row_result *rows, int n);

/**
 * xl_rows_print_ctl() - the host-speed control's line after lab run's
 * table on @out: the run's reference (xl_rows_ctl_ref()), the
 * repetitions it is the median of and their range. Return: the
 * reference, 0 when no repetition measured it (no line).
 */
double xl_rows_print_ctl(FILE *out, const struct xl_row_result *rows, int n);

/**
 * xl_row_part() - @r's record of kind @ops, or NULL when it has none.
 */
void *xl_row_part(const struct xl_row_result *r, const struct xl_row_part_ops *ops);

/**
 * xl_rows_print_profiles() - on @out, for each of @rows (@n) with a
 * profile (xl_row_part_profile): the extra repetition perf recorded, its
 * rate and CPU ns/packet beside the row's medians, and the profile's
 * summary (xl_profile_print(), five symbols a CPU). Nothing without.
 */
void xl_rows_print_profiles(FILE *out, const struct xl_row_result *rows, int n);

/**
 * xl_rows_print_prog_time() - on @out, a heading and a line per row of
 * @rows (@n) with a program time (struct xl_row_result.prog_ns > 0): its
 * name, size and ns per run. Nothing when no row has one.
 */
void xl_rows_print_prog_time(FILE *out, const struct xl_row_result *rows, int n);

/**
 * xl_row_part_get() - @r's record of kind @ops, made (zeroed, @ops->size
 * bytes, owned by @r) when it has none yet. Return: the record, or NULL
 * with errno (ENOMEM; ENOSPC: XL_ROW_PARTS kinds already).
 */
void *xl_row_part_get(struct xl_row_result *r, const struct xl_row_part_ops *ops);

/** xl_row_free_parts() - free every part of @r (a row without any: nothing). */
void xl_row_free_parts(struct xl_row_result *r);

/** xl_row_finish() - compute the derived fields of @r from its reps. */
void xl_row_finish(struct xl_row_result *r);

/** xl_row_verdict() - "valid", "generator-bound", "ceiling" or "n/a". */
const char *xl_row_verdict(const struct xl_row_result *r);

/**
 * XL_TABLE_NAME_MIN - the least width of a table's row-name column in
 * characters: every name the lab makes up to 19 fits; a longer one
 * (redirect/b1+mon-floor, 21) widens the column of its whole table. The
 * lab's table (xl_report_table()) and compare's text table use it.
 */
#define XL_TABLE_NAME_MIN 19

/**
 * xl_report_table() - print the rows as a fixed-column table to @out
 * (caller's stream), with the wiring and method in a header. The name
 * column is XL_TABLE_NAME_MIN characters wide or the longest of the @n
 * rows' names, so every column lines up in one table.
 */
void xl_report_table(FILE *out, const struct xl_row_result *rows, int n,
		     const char *header);

/** Most tries of one sensitivity search (XL_SENS_LADDER, with confirmations). */
#define XL_SENS_MAX_TRIES 32

/**
 * struct xl_sens_try - one cost tried by `lab run --sensitivity`: @reps
 * windows with @extra_ns CPU ns per packet interleaved with @reps without,
 * the loop calibrated for it just before (@set_ns: what the count set adds
 * by the calibration's BPF_PROG_RUN check, struct xl_extra_cal.check_ns;
 * @ns_per_iter: a long loop's cost per iteration). @p: the Mann-Whitney p-value of the
 * compare; @delta_ns: its deciding difference (median with - without, CPU
 * ns/packet when @on_cpu, else ns/packet); @regression: compare flagged it.
 * @confirmation: the second try of a cost flagged by the try before.
 */
struct xl_sens_try {
	double extra_ns, set_ns, ns_per_iter, p, delta_ns;
	bool on_cpu, regression, confirmation;
};

/**
 * struct xl_sens_result - the smallest extra cost per packet a compare of
 * this lab's repetitions flags, for one drop row.
 * @name/@size: the row ("drop/no-touch", 64). @reps: windows per side.
 * @detected_ns: the smallest cost flagged twice in a row (-1: none was, or
 *   the search was not run; @note says why). @ns_per_iter: the busy
 *   loop's first calibration (each try has its own). @tries/@ntries: every cost tried, in order.
 */
struct xl_sens_result {
	char name[32];
	uint32_t size;
	int reps;
	double detected_ns, ns_per_iter;
	char note[160];
	int ntries;
	struct xl_sens_try tries[XL_SENS_MAX_TRIES];
};

/**
 * xl_sens_line() - the sentence for @s into @buf (@len bytes): "this lab
 * detects >= 3 ns/packet on drop/no-touch at 64 B with 5 reps (...)".
 * Return: @buf.
 */
char *xl_sens_line(const struct xl_sens_result *s, char *buf, size_t len);

/**
 * struct xl_interval_rec - one interval of a single command's run, for its
 * --json file: @t seconds after the start (at the interval's end), in
 * repetition @rep (0-based), the interval's figures in @r (the same record
 * as a repetition).
 */
struct xl_interval_rec {
	double t;
	int rep;
	struct xl_rep_result r;
};

/**
 * struct xl_report_meta - what the JSON says about the run.
 * @reps: repetitions per row; @seconds/@warmup: window and warm-up (s);
 * @git: commit ("" unknown); @lab_tag: the lab's tag.
 * @wiring: the lab's wiring for the XDP rows ("threaded"/"softirq"; NULL:
 *   not written).
 * A single command's file (schema XL_RUN_RESULTS_SCHEMA) also has:
 * @command: its name ("drop", "xsk rxdrop"...), NULL for lab run;
 * @interval: seconds between interval records; @intervals/@nintervals: the
 * records (not owned).
 * @extra/@extra_ns: `lab run --extra-ns` was given, and its value (ns).
 * @sens/@nsens: `lab run --sensitivity` results ("sensitivity"; written
 *   when @sens is not NULL).
 * @ctl_ref_ns: the reference control of the corrected figures
 *   (xl_rows_ctl_ref(); 0: none, they are null); @ctl_on: the control was
 *   measured in this run (the "host_control" object).
 * @pmu_reason: why no row has hardware counts (the line said once per run,
 *   "no hardware PMU events: ..."); NULL: the PMU counted.
 * @lab_irqs: the lab devices' IRQs and their CPUs (xl_irq_affinity()),
 *   NULL: none (veth has no IRQ); @lab_irqs_note: what a null means.
 * @schema: the schema name to write instead (XL_MONITOR_RESULTS_SCHEMA),
 *   NULL: as above. @extra_json: NULL, or the text of a JSON object whose
 *   members replace the document's own (monitor's "intervals" and
 *   "totals", records that are not packet windows); -EINVAL if it does
 *   not parse.
 */
struct xl_report_meta {
	int reps;
	double seconds, warmup;
	const char *git;
	const char *lab_tag;
	const char *wiring;
	const char *command;
	double interval;
	const struct xl_interval_rec *intervals;
	int nintervals;
	bool extra;
	double extra_ns;
	const struct xl_sens_result *sens;
	int nsens;
	const char *schema;
	const char *extra_json;
	double ctl_ref_ns;
	bool ctl_on;
	const char *pmu_reason;
	const char *lab_irqs, *lab_irqs_note;
};

/**
 * xl_report_json_write() - write the rows as JSON (schema
 * XL_RESULTS_SCHEMA, or XL_RUN_RESULTS_SCHEMA with @meta->command:
 * docs/results.md) to @f (an xl_afile's stream: the caller commits it and
 * learns there whether the writes reached the file).
 * Return: 0, -EINVAL (@meta->extra_json is not a JSON object), or -EIO
 * (a write failed; the xl_afile keeps its errno).
 */
int xl_report_json_write(FILE *f, const struct xl_report_meta *meta,
			 const struct xl_row_result *rows, int n);

/**
 * xl_report_json() - xl_report_json_write() to @path, written whole or not
 * at all (xl_afile_write(): an earlier file stays on failure).
 * Return: 0 or -errno (the failed write's: -ENOSPC on a full disk).
 */
int xl_report_json(const char *path, const struct xl_report_meta *meta,
		   const struct xl_row_result *rows, int n);

#endif /* XDPLAB_REPORT_H */
