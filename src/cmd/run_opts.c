// SPDX-License-Identifier: BSD-2-Clause
/* The shared options of the commands that run and report (run_opts.h). */
#include "cmd.h"
#include "run_opts.h"
#include "xdplab/attach.h"
#include "xdplab/pkt.h"
#include "xdplab/report.h"

static const char *const pkt_ops[] = { "no-touch", "read-data", "parse-ip", "swap-macs", NULL };
static const char *const xdp_modes[] = { "native", "skb", "drv", NULL };
static const int xdp_mode_vals[] = { XL_MODE_NATIVE, XL_MODE_SKB, XL_MODE_NATIVE };

/* The field of each entry is the command's (XL_LIKE()): .off and .size stay 0 here. */
const struct xl_opt xl_run_opt_table[XL_RUN_N] = {
	[XL_RUN_INTERVAL] = { "interval", 'i', "SECONDS", "report period, {range} (default 1)",
			      .type = XL_OT_SECONDS, .rmin = 0.1, .rmax = 60 },
	[XL_RUN_DURATION] = { "duration", 'd', "SECONDS", "stop after this long, 0 = no time limit (default 0)",
			      .type = XL_OT_SECONDS, .rmin = 0, .rmax = 86400 * 365 },
	[XL_RUN_EXTENDED] = { "extended", 'e', NULL, "also print a row per CPU", .type = XL_OT_FLAG },
	[XL_RUN_NETNS] = { "netns", 0, "NAME", "run in network namespace /run/netns/NAME",
			   .type = XL_OT_STR },
	/* -q, except where a peer gives -q to something else (xdp-bench's
	 * redirect-cpu -q qsize, xdpsock's -q queue): there .short_name = 'Q'. */
	[XL_RUN_QUIET] = { "quiet", 'q', NULL, "no per-interval lines, only the totals",
			   .type = XL_OT_FLAG },
	[XL_RUN_PACKET_OP] = { "packet-operation", 'p', "OP", "{choices} (default {default})",
			       .type = XL_OT_ENUM, .choices = pkt_ops },
	[XL_RUN_MODE] = { "mode", 'm', "MODE", "native or drv (XDP_DRV, default), or skb (XDP_SKB)",
			  .alias = "xdp-mode", .type = XL_OT_ENUM, .choices = xdp_modes,
			  .values = xdp_mode_vals },
	[XL_RUN_FRAGS] = { "frags", 0, NULL, "load the program multi-buffer (xdp.frags): needed in native mode for an MTU above one buffer (veth: ~3.5 KB)",
			   .type = XL_OT_FLAG },
	[XL_RUN_REPS] = { "reps", 0, "N", "N windows of --duration back to back, {range} (default 1): the summary's repetitions",
			  .type = XL_OT_UINT, .min = 1, .max = XL_MAX_REPS },
	[XL_RUN_JSON] = { "json", 'j', "FILE", "also write each interval and the summary as JSON (docs/results.md)",
			  .type = XL_OT_STR },
	[XL_RUN_PROMETHEUS] = { "prometheus", 0, "FILE", "write the counters to FILE each interval in Prometheus' text format, the file replaced whole (node_exporter's textfile collector: a *.prom file in its directory; docs/monitor.md)",
				.type = XL_OT_STR },
	[XL_RUN_PROFILE] = { "profile", 0, NULL, "also record the judged CPUs with perf: folded stacks, a flame graph, top symbols",
			     .type = XL_OT_FLAG },
	[XL_RUN_PROFILE_DIR] = { "profile-dir", 0, "DIR", "where --profile writes (default ./xdplab-profile; implies --profile)",
				 .type = XL_OT_STR },
	[XL_RUN_SEC] = { "sec", 0, "NAME", "the XDP program in this ELF section", .type = XL_OT_STR },
	[XL_RUN_FUNC] = { "func", 0, "NAME", "the XDP program with this function name",
			  .type = XL_OT_STR },
	/* A list: the command's handler gives it to xl_cmd_userprog_opt(). */
	[XL_RUN_MAP] = { "map", 0, "NAME=FILE", "fill map NAME from FILE (docs/own-program.md; repeatable)",
			 XL_OPT_MAP, true },
};
