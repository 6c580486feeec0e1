/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file reportloop.h
 * The report loop of the single commands that watch an XDP program (drop,
 * pass, tx, run, redirect*; docs/bench.md): a meter sample every interval
 * on the one sampler (xdplab/sampler.h), a line per interval through the
 * caller's printer, the windows summed into the run's total, each
 * complete window of a repetition into the summary row; and the lines
 * those commands print of it (the verdict, the kernel's check, the
 * per-CPU lines, the interval line's CPU cell, an --extra-ns calibration).
 */
#ifndef XDPLAB_REPORTLOOP_H
#define XDPLAB_REPORTLOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/bench.h"
#include "xdplab/meter.h"
#include "xdplab/report.h"

/**
 * struct xl_interval_recs - the interval records of a run, for a results
 * file's "intervals" (struct xl_report_meta.intervals): @v a growing array
 * of @n records (room for @cap), owned: free(@v) when done.
 */
struct xl_interval_recs {
	struct xl_interval_rec *v;
	int n, cap;
};

/**
 * xl_interval_recs_add() - append the record @r, @t s into the run, of
 * repetition @rep (from 0). Out of memory: the record is left out (the
 * file then lacks the later records).
 */
void xl_interval_recs_add(struct xl_interval_recs *rec, double t, int rep,
			  const struct xl_rep_result *r);

/**
 * struct xl_report_loop - what xl_report_loop_run() runs.
 * @m: the meter, its napi_pid set by the caller (once, after the attach
 *	that makes the NAPI; 0: softirq wiring).
 * @interval_ns: a sample and a line every so many ns.
 * @duration_ns: each repetition's length, ns (0: until a stop).
 * @reps: windows of @duration_ns back to back (0 or 1: one).
 * @quiet: no interval lines. @extended: also the per-CPU lines after each.
 * @stop: set asynchronously (a signal) to stop; NULL: never.
 * @toggles: NULL, or a count (SIGQUITs) whose odd values flip @extended
 *	while running (xdp-bench's toggle).
 * @alive: called between samples (every @poll_ns): 0 to go on, anything
 *	else to stop (the callback said why); NULL: always alive.
 * @sampled: called after every meter sample (reads the caller's own
 *	counters): 0 or -errno; NULL: none.
 * @print: one interval's line from the window @w, @t s into the run.
 * @interval: NULL, or called after each interval's window @w was added to
 *	the run's @total so far (a Prometheus file's rewrite).
 * @ctx: passed to the callbacks.
 * @row: out, NULL: none: one repetition per complete window of
 *	@duration_ns, then xl_row_finish_single(); the caller sets the
 *	identity before (xl_row_init_single()).
 * @rec: out, NULL: none: every interval's record.
 * @poll_ns/@wait: the sampler's (struct xl_sampler): 0 and NULL for its
 *	100 ms and xl_sleep_ns()'s naps.
 * @start_line: NULL, or a line written (escaped for a terminal, a newline
 *	added) on @say once the first sample is taken, so that traffic
 *	started on seeing it is in the totals ("...; Ctrl-C to stop").
 * @out: where the per-CPU lines go. @say: where @start_line goes.
 */
struct xl_report_loop {
	struct xl_meter *m;
	uint64_t interval_ns, duration_ns;
	int reps;
	bool quiet, extended;
	volatile sig_atomic_t *stop, *toggles;
	int (*alive)(void *ctx);
	int (*sampled)(void *ctx);
	void (*print)(void *ctx, const struct xl_meter_window *w, double t);
	void (*interval)(void *ctx, const struct xl_meter_window *total,
			 const struct xl_meter_window *w);
	void *ctx;
	struct xl_row_result *row;
	struct xl_interval_recs *rec;
	uint64_t poll_ns;
	int (*wait)(void *ctx, uint64_t ns);
	const char *start_line;
	FILE *out, *say;
};

/**
 * xl_report_loop_run() - run @l and sum every window into @total (the
 * windows tile the run: first sample to last; @total->ns is 0 when
 * nothing was measured).
 * Return: 0 (ended by its duration or a stop), -ECANCELED (@alive said
 * stop), or a sample's -errno (@m's counters or @sampled's).
 */
int xl_report_loop_run(const struct xl_report_loop *l, struct xl_meter_window *total);

/**
 * xl_row_init_single() - a single command's summary row with the identity
 * of a lab row (docs/results.md): name @name, or "@name/@suffix" (the
 * lab's "drop/no-touch"), @kind, @action, @op, @mode, @wiring; the
 * generator is not ours ("external", gen_cpu -1) and the DUT's CPU is
 * judged. The strings are borrowed: they must outlive the row.
 */
void xl_row_init_single(struct xl_row_result *row, const char *name, const char *suffix,
			const char *kind, const char *action, const char *op, const char *mode,
			const char *wiring);

/**
 * xl_row_finish_single() - a single command's summary row: the frame size
 * (bytes / packets of @total, rounded, frames without FCS as the lab's
 * sizes; 0 without packets) and the judged CPU from @total, then
 * xl_row_finish() over the repetitions.
 */
void xl_row_finish_single(struct xl_row_result *row, const struct xl_meter_window *total);

/**
 * xl_row_print_verdict() - on @out, the line "verdict: valid (cpuN busy
 * X%, median of N); median M Mpps (min-max), CPU C ns/packet" of a single
 * command's @row ("verdict: n/a ..." without a complete window).
 */
void xl_row_print_verdict(FILE *out, const struct xl_row_result *row);

/**
 * xl_window_print_check() - on @out, the line "check: kernel
 * rx_queue_0[..N]_xdp_packets K (disagreement D%)" of window @w over
 * @queues RX queues; nothing when the kernel's count was not read.
 */
void xl_window_print_check(FILE *out, const struct xl_meter_window *w, int queues);

/**
 * xl_meter_print_cpus() - on @out, the --extended lines: for each CPU that
 * counted packets or errors between samples @a and @b (@ns apart), its
 * rx/s, err/s and busy share.
 */
void xl_meter_print_cpus(FILE *out, const struct xl_meter_sample *a,
			 const struct xl_meter_sample *b, uint64_t ns);

/**
 * xl_extra_cal_print() - on @out, one line "xdplab: --extra-ns ..." of an
 * --extra-ns calibration @cal: iterations, the BPF_PROG_RUN check (what
 * they add) over the program's own duration, checks made, and a long
 * loop's ns per iteration (median and range) with the cost it predicts.
 */
void xl_extra_cal_print(FILE *out, const struct xl_extra_cal *cal);

/**
 * xl_window_cpu_cell() - an interval line's CPU cell of @w into @buf
 * (@len bytes, 64 are enough): "cpuN busy X%  cpu-ns/packet Y", or dashes
 * when the window had no packets or no NAPI CPU.
 */
void xl_window_cpu_cell(char *buf, size_t len, const struct xl_meter_window *w);

/**
 * xl_window_print_action_line() - on @out, drop's, pass's and tx's
 * interval line of @w, @t s into the run: the action (@action, XDP_*),
 * rx/s, err/s, ns/packet and the CPU cell (xl_window_cpu_cell()).
 */
void xl_window_print_action_line(FILE *out, const struct xl_meter_window *w, double t,
				 int action);

/**
 * xl_window_print_actions_line() - on @out, run's interval line of @w,
 * @t s into the run: rx/s, each action's rate (drop, pass, tx, redirect,
 * abort), ns/packet and the CPU cell.
 */
void xl_window_print_actions_line(FILE *out, const struct xl_meter_window *w, double t);

/**
 * xl_bench_rec_print_counts() - on @out, the line "@what: N packets;
 * XDP_... n ..." of the counts from @a to @b; @aborted: XDP_ABORTED is
 * counted apart (else it is said to be inside XDP_DROP).
 */
void xl_bench_rec_print_counts(FILE *out, const char *what, const struct xl_bench_rec *a,
			       const struct xl_bench_rec *b, bool aborted);

#endif /* XDPLAB_REPORTLOOP_H */
