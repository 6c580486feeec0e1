/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the report loop of the commands that watch an XDP
 * program as the commands call it (xl_cmd_report_loop(): the library's
 * xl_report_loop_run(), xdplab/reportloop.h, with the stop and SIGQUIT
 * flags, --prometheus and an exit status), and the liveness checks of
 * their program (report_cli.c). The lines they print of it, the summary
 * row and the interval records are the library's (xdplab/reportloop.h).
 */
#ifndef XDPLAB_REPORT_CLI_H
#define XDPLAB_REPORT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/reportloop.h"

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
 *     @duration_ns, then xl_row_finish_single(); the caller sets the identity
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
	struct xl_interval_recs *rec;
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

#endif /* XDPLAB_REPORT_CLI_H */
