// SPDX-License-Identifier: BSD-2-Clause
/*
 * The report loop as the commands call it (report_cli.h): the library's
 * (xdplab/reportloop.h) with the stop and SIGQUIT flags, --prometheus and
 * an exit status; and the liveness checks of the program.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>

#include "report_cli.h"
#include "opts.h"
#include "prom_cli.h"
#include "sig.h"
#include "xdplab/log.h"

/* The command's loop around the library's: its callbacks and its exit status. */
struct cmd_loop_run {
	const struct xl_cmd_loop *l;
	int status; /* what @l->alive said when it stopped the loop */
};

static int cmd_alive(void *ctx)
{
	struct cmd_loop_run *cr = ctx;

	cr->status = cr->l->alive(cr->l->ctx);
	return cr->status != XL_EXIT_OK;
}

static int cmd_sampled(void *ctx)
{
	struct cmd_loop_run *cr = ctx;

	return cr->l->sampled(cr->l->ctx);
}

static void cmd_print(void *ctx, const struct xl_meter_window *w, double t)
{
	struct cmd_loop_run *cr = ctx;

	cr->l->print(cr->l->ctx, w, t);
}

/* --prometheus FILE: replaced after every interval. */
static void cmd_interval(void *ctx, const struct xl_meter_window *total,
			 const struct xl_meter_window *w)
{
	const struct xl_cmd_loop *l = ((struct cmd_loop_run *)ctx)->l;

	xl_cmd_prom_write(l->prom, xl_cmd_prom_bench_fill,
			  &(struct xl_cmd_prom_bench){ l->cmd, l->ifname, total, w });
}

static int cmd_wait(void *ctx, uint64_t ns)
{
	struct cmd_loop_run *cr = ctx;

	return cr->l->wait(cr->l->ctx, ns);
}

int xl_cmd_report_loop(const struct xl_cmd_loop *l, struct xl_meter_window *total)
{
	struct cmd_loop_run cr = { .l = l, .status = XL_EXIT_OK };
	struct xl_report_loop rl = {
		.m = l->m, .interval_ns = l->interval_ns, .duration_ns = l->duration_ns,
		.reps = l->reps, .quiet = l->quiet, .extended = l->extended,
		.stop = &xl_stop_requested, .toggles = &xl_extended_toggles,
		.alive = cmd_alive, .sampled = l->sampled ? cmd_sampled : NULL,
		.print = cmd_print, .interval = l->prom ? cmd_interval : NULL, .ctx = &cr,
		.row = l->row, .rec = l->rec, .poll_ns = l->poll_ns,
		.wait = l->wait ? cmd_wait : NULL, .start_line = l->start_line,
		.out = stdout, .say = stderr,
	};
	int err = xl_report_loop_run(&rl, total);

	if (err == -ECANCELED)
		return cr.status;
	return err ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}

int xl_cmd_xdp_alive(int ifindex, const char *ifname, enum xl_xdp_mode mode,
		     unsigned int prog_id)
{
	if (!if_indextoname(ifindex, (char[IF_NAMESIZE]){ 0 })) {
		xl_err("interface %s vanished during the run", ifname);
		return XL_EXIT_RUNTIME;
	}
	if (prog_id && xl_xdp_attached_id(ifindex, mode) != prog_id) {
		xl_err("%s: the XDP program (id %u) was detached by someone else (xdplab cleanup?); stopping",
		       ifname, prog_id);
		return XL_EXIT_RUNTIME;
	}
	return XL_EXIT_OK;
}

int xl_cmd_link_alive(int link_err, int ifindex, const char *ifname, enum xl_xdp_mode mode,
		      unsigned int prog_id)
{
	int r;

	if (!link_err)
		return XL_EXIT_OK;
	r = xl_cmd_xdp_alive(ifindex, ifname, mode, prog_id);
	if (r == XL_EXIT_OK && link_err == -ENOLINK) {
		xl_err("%s: the XDP link of program id %u was detached by someone else; stopping",
		       ifname, prog_id);
		return XL_EXIT_RUNTIME;
	}
	return r;
}
