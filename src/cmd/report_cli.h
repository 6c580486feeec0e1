/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the report loop of the commands that watch an XDP
 * program (a line per interval on the one sampler, the repetitions into a
 * summary row), the lines it prints and its liveness checks (report_cli.c).
 */
#ifndef XDPLAB_REPORT_CLI_H
#define XDPLAB_REPORT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/meter.h"
#include "xdplab/report.h"

/**
 * xl_cmd_print_cpus() - the --extended lines: for each CPU that counted
 * packets or errors between samples @a and @b (@ns apart), its rx/s, err/s
 * and busy share.
 */
void xl_cmd_print_cpus(const struct xl_meter_sample *a, const struct xl_meter_sample *b,
		       uint64_t ns);

/**
 * struct xl_cmd_records - the interval records of a run, for --json:
 * @v/@n/@cap: a growing array (free @v).
 */
struct xl_cmd_records {
	struct xl_interval_rec *v;
	int n, cap;
};

/**
 * xl_cmd_records_add() - append the interval record @r, @t s into the run,
 * of repetition @rep. Out of memory: the record is left out.
 */
void xl_cmd_records_add(struct xl_cmd_records *rec, double t, int rep,
			const struct xl_rep_result *r);

/**
 * struct xl_cmd_loop - the report loop of the commands that watch an XDP
 * program (drop/pass/tx, redirect*), on the one sampler
 * (xdplab/sampler.h): a meter sample every @interval_ns, a line per
 * interval, until @duration_ns (0: none) or Ctrl-C, @reps times.
 * @m: the meter, its napi_pid set by the caller (once, after the attach
 *     that makes the NAPI; 0: softirq wiring). @ifname: the DUT.
 * @reps: windows of @duration_ns back to back (0 or 1: one).
 * @quiet/@extended: no interval lines / also the per-CPU lines.
 * @alive: called every 100 ms between samples: XL_EXIT_OK to go on, else
 *     the exit status to stop with (it printed why).
 * @sampled: called after every meter sample (reads the command's own
 *     counters): 0 or -errno; NULL: none.
 * @print: one interval's line from the window @w, @t s into the run.
 * @ctx: passed to the callbacks.
 * @row: out, NULL: none: one repetition per complete window of
 *     @duration_ns, then xl_cmd_row_finish(); the caller sets the identity
 *     (name, kind, action, op, mode, wiring, engine, judged) before.
 * @rec: out, NULL: none: every interval's record.
 * @extra_json: NULL, or the text of a JSON object whose members are added
 *     to the --json document's top level (struct xl_report_meta.extra_json:
 *     gen's and txpush's "pacing").
 */
struct xl_cmd_loop {
	struct xl_meter *m;
	const char *ifname;
	uint64_t interval_ns, duration_ns;
	int reps;
	bool quiet, extended;
	int (*alive)(void *ctx);
	int (*sampled)(void *ctx);
	void (*print)(void *ctx, const struct xl_meter_window *w, double t);
	void *ctx;
	struct xl_row_result *row;
	struct xl_cmd_records *rec;
	const char *extra_json;
	/*
	 * Optional: --prometheus FILE: @prom replaced after every interval
	 * with the counters since the start and the interval's rates
	 * (prom_cli.h), labelled with the command @cmd and @ifname.
	 */
	const char *prom, *cmd;
	/*
	 * Optional: the sampler's @poll_ns (0: its 100 ms) and a @wait for the
	 * time between samples instead of xl_sleep_ns()'s 50 ms naps, called
	 * with @ctx (struct xl_sampler.wait). A command whose liveness check
	 * is cheap and rare sets both, so it wakes once per interval.
	 */
	uint64_t poll_ns;
	int (*wait)(void *ctx, uint64_t ns);
	/*
	 * Optional: the "...; Ctrl-C to stop" line, printed on stderr (a
	 * newline added) once the first sample is taken, so that traffic
	 * started on seeing it is in the totals. Printed before that sample,
	 * frames sent between the two were counted by the kernel's check but
	 * not by the run (and a --profile start, which can take 100s of ms,
	 * came in between).
	 */
	const char *start_line;
};

/**
 * xl_cmd_report_loop() - run @l and sum every window into @total (the
 * windows tile the run: first sample to last). Return: XL_EXIT_OK, or the
 * exit status that stopped it (XL_EXIT_RUNTIME when a sample failed);
 * @total->ns is 0 when nothing was measured.
 */
int xl_cmd_report_loop(const struct xl_cmd_loop *l, struct xl_meter_window *total);

/**
 * xl_cmd_row_init() - a single command's summary row with the identity of
 * a lab row (docs/results.md): name @name, or "@name/@suffix" (the lab's
 * "drop/no-touch"), @kind, @action, @op, @mode, @wiring; the generator is
 * not ours ("external", gen_cpu -1) and the DUT's CPU is judged. The
 * strings must outlive the row.
 */
void xl_cmd_row_init(struct xl_row_result *row, const char *name, const char *suffix,
		     const char *kind, const char *action, const char *op, const char *mode,
		     const char *wiring);

/**
 * xl_cmd_row_finish() - a single command's summary row: the frame size (our
 * bytes / packets, rounded; 0 without packets) and the judged CPU from
 * @total, then xl_row_finish() over the repetitions.
 */
void xl_cmd_row_finish(struct xl_row_result *row, const struct xl_meter_window *total);

/**
 * xl_cmd_print_verdict() - the line "verdict: valid (cpuN busy X%, median of
 * N); median M Mpps (min-max), CPU C ns/packet" for a single command's row.
 */
void xl_cmd_print_verdict(const struct xl_row_result *row);

/**
 * xl_cmd_print_check() - the line "check: kernel rx_queue_0[..N]_xdp_packets
 * K (disagreement D%)" of window @w over @queues RX queues; nothing when
 * the kernel's count was not read.
 */
void xl_cmd_print_check(const struct xl_meter_window *w, int queues);

/**
 * xl_cmd_print_extra() - one stderr line on an --extra-ns calibration:
 * iterations, ns per iteration (median and range), the cost set and the
 * BPF_PROG_RUN check.
 */
void xl_cmd_print_extra(const struct xl_extra_cal *cal);

/**
 * xl_cmd_xdp_alive() - a report loop's liveness check for a program on
 * @ifindex (@ifname in messages): the interface still exists and, with
 * @prog_id not 0, @prog_id is still what is attached in @mode. Logs one
 * line when not. Return: XL_EXIT_OK, or XL_EXIT_RUNTIME.
 */
int xl_cmd_xdp_alive(int ifindex, const char *ifname, enum xl_xdp_mode mode,
		     unsigned int prog_id);

/**
 * xl_cmd_link_alive() - xl_cmd_xdp_alive() behind the cheap check of the
 * command's own link: @link_err is that check's result (0: attached, as
 * xl_xdp_link_alive() says; -ENOLINK: detached; other: no link of its own,
 * e.g. tc). Only when it is not 0 the netlink check runs, to name what
 * went; a detached link on a device that still has the program's id
 * attached otherwise is said as detached by someone else.
 * Return: XL_EXIT_OK, or XL_EXIT_RUNTIME.
 */
int xl_cmd_link_alive(int link_err, int ifindex, const char *ifname, enum xl_xdp_mode mode,
		      unsigned int prog_id);

/**
 * xl_cmd_cpu_cell() - the interval line's CPU cell into @buf (@len bytes,
 * 64 are enough): "cpuN busy X%  cpu-ns/packet Y", or dashes when the
 * window had no packets or no NAPI CPU.
 */
void xl_cmd_cpu_cell(char *buf, size_t len, const struct xl_meter_window *w);

#endif /* XDPLAB_REPORT_CLI_H */
