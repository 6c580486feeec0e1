/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the set-up and the run of the commands that measure
 * one program on one DUT interface with the report loop (drop/pass/tx,
 * redirect*, run), written once: before the program exists (profile
 * session, --netns, the interface, the --json file), the meter on the DUT
 * (its ethtool socket, the NAPI kthread, the main thread kept off it), the
 * measured loop with its profile, and the end (--json, the socket).
 * Each command keeps what is its own: the program, its counters, its lines.
 */
#ifndef XDPLAB_DUT_CLI_H
#define XDPLAB_DUT_CLI_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
#include "report_cli.h"
#include "profile_cli.h"

/**
 * struct xl_cmd_dut - a single-DUT command's shared options and run state.
 * The options are fields of the command's args struct, filled by its
 * entries (run_opts.h: XL_RUN(INTERVAL, A, d.interval_ns) ...):
 * @interval_ns/@duration_ns: ns (0: no limit). @extended/@quiet: flags.
 * @netns/@json/@prom: names from argv (not copied; @prom: --prometheus,
 * NULL for a command without it). @reps: 1..XL_MAX_REPS.
 * @prof: --profile, --profile-dir and the session.
 * Set by the calls below: @rec: the interval records for --json (freed by
 * xl_cmd_dut_finish()). @own_sock: @m->eth_sock is ours to close.
 */
struct xl_cmd_dut {
	uint64_t interval_ns, duration_ns;
	bool extended, quiet;
	const char *netns, *json, *prom;
	int reps;
	struct xl_cmd_prof prof;
	struct xl_interval_recs rec;
	bool own_sock;
};

/**
 * xl_cmd_dut_enter() - before the program is made: the profile session
 * (when asked; before --netns: bpf_jit_kallsyms is the initial namespace's),
 * --netns, the interface @ifname (NULL: not checked here) or the command's
 * own @check of its interfaces (NULL: none; called with @ctx, not 0 after
 * its one line), then the --json and --prometheus files, so a bad path
 * fails before the run.
 * On failure the profile session is closed.
 * Return: XL_EXIT_OK, XL_EXIT_USAGE (no such namespace or interface, a
 * check that failed) or XL_EXIT_RUNTIME (setns, the --json file).
 */
int xl_cmd_dut_enter(const struct xl_cmd_spec *spec, struct xl_cmd_dut *d, const char *ifname,
		     int (*check)(void *ctx), void *ctx);

/**
 * xl_cmd_dut_meter() - the meter on the DUT @ifname once the program is
 * attached (it makes the NAPI): @m->ifname, @m->queues (@queues > 0; else
 * left), @m->eth_sock (@sock >= 0: the caller's, else a socket of ours,
 * closed by xl_cmd_dut_finish()), @m->napi_pid; then the calling thread is
 * kept off the NAPI kthread's CPUs (xl_keep_off_napi_of(); other threads
 * to *@away, may be NULL). Return: true when the thread moved.
 */
bool xl_cmd_dut_meter(struct xl_cmd_dut *d, struct xl_meter *m, const char *ifname, int queues,
		      int sock, cpu_set_t *away);

/**
 * xl_cmd_dut_loop() - the measured run: @l's timing, output, records and
 * --prometheus file (labelled @name) from @d's options (the caller sets the
 * meter, callbacks, row and start line), the report loop, and with --profile a profile of the whole run
 * named @name into @pr (NULL: no profile; the DUT's CPU its NAPI CPU).
 * Return: as xl_cmd_report_loop(); *@w its total.
 */
int xl_cmd_dut_loop(struct xl_cmd_dut *d, struct xl_cmd_loop *l, const char *name,
		    struct xl_meter_window *w, struct xl_profile *pr);

/**
 * xl_cmd_dut_finish() - the end of the run: --json written with @row and
 * @l's records (with @pr's profile when @pr is not NULL:
 * xl_cmd_profiled_finish(), else xl_cmd_json_finish()), then our ethtool
 * socket closed (@m->eth_sock set to -1). The caller then destroys its
 * program and closes @d->prof. Return: as xl_cmd_json_finish().
 */
int xl_cmd_dut_finish(struct xl_cmd_dut *d, const char *command, const struct xl_cmd_loop *l,
		      struct xl_row_result *row, struct xl_profile *pr, struct xl_meter *m, int ret);

#endif /* XDPLAB_DUT_CLI_H */
