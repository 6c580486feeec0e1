// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab latency IFACE: the receiver of 'gen --stamp' frames; latency
 * percentiles from the stamp to the receiver (one-way on the DUT, a round
 * trip on the generator's side when the DUT sends the frames back), loss,
 * reordering and duplicates (docs/latency.md). The watch and its lines
 * are the library's (xdplab/latwatch.h); this file parses, loads the
 * receiver and picks the exit status.
 */
#include <net/if.h>
#include <stdio.h>
#include <linux/bpf.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "xdplab/bench.h"
#include "xdplab/escape.h"
#include "xdplab/latency.h"
#include "xdplab/latwatch.h"

struct lat_args {
	struct xl_latency_opts o;
	uint64_t interval_ns, duration_ns;
	bool quiet, json;
	const char *netns;
};

#define A struct lat_args
static const char *const actions[] = { "drop", "pass", NULL };
static const int action_vals[] = { XDP_DROP, XDP_PASS };

static const struct xl_opt lat_opts[] = {
	{ "action", 'a', "ACTION", "what the receiver returns: drop or pass (default drop)",
	  XL_ENUM(A, o.action, actions, action_vals) },
	{ "busy-wait", 0, "NS", "spin this long per frame before reading the clock, {range} (a known added delay; default 0)",
	  XL_UINT(A, o.busy_wait_ns, 0, 100000000) },
	{ "json", 'j', NULL, "the totals as one JSON object (with the histogram's buckets) instead of text",
	  XL_FLAG(A, json) },
	XL_RUN(MODE, A, o.mode),
	XL_RUN(INTERVAL, A, interval_ns),
	XL_RUN(DURATION, A, duration_ns),
	XL_RUN(NETNS, A, netns),
	XL_RUN(QUIET, A, quiet),
};
#undef A

static const struct lat_args lat_defaults = { .interval_ns = 1000000000ull,
					      .o = { .action = XDP_DROP } };

static const struct xl_cmd_spec lat_spec = {
	"latency", "IFACE",
	"Receive 'gen --stamp' frames on IFACE with an XDP program: latency percentiles (one-way on the DUT; a round trip on the generator's side when the DUT sends them back), loss, reordering, duplicates.",
	lat_opts, sizeof(lat_opts) / sizeof(lat_opts[0]), &lat_defaults, sizeof(lat_defaults),
};

int cmd_latency(int argc, char **argv)
{
	struct lat_args a;
	struct xl_lat_watch w;
	struct xl_latency *l;
	int idx, ret = XL_EXIT_OK;

	idx = xl_cmd_parse_iface(&lat_spec, argc, argv, NULL, &a, &a.o.ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (a.netns && (ret = xl_cmd_enter_netns(&lat_spec, a.netns)))
		return ret;
	if (!if_nametoindex(a.o.ifname)) {
		xl_usage_error(&lat_spec, "interface '%s': no such interface", a.o.ifname);
		return XL_EXIT_USAGE;
	}
	l = xl_latency__create(&a.o);
	if (!l)
		return XL_EXIT_RUNTIME;
	fprintf(stderr, "xdplab: latency receiver on %s (%s mode, %s%s); Ctrl-C to stop\n",
		XL_ESC(a.o.ifname),
		xl_xdp_mode_name(a.o.mode), xl_xdp_action_name(a.o.action),
		a.o.busy_wait_ns ? ", busy wait per frame" : "");
	w = (struct xl_lat_watch){ .l = l, .ifname = a.o.ifname, .interval_ns = a.interval_ns,
				   .duration_ns = a.duration_ns, .stop = &xl_stop_requested,
				   .lines = a.quiet || a.json ? NULL : stdout };
	if (xl_lat_watch_run(&w))
		ret = XL_EXIT_RUNTIME;
	if (!w.have)
		ret = XL_EXIT_RUNTIME;
	else if (a.json && xl_lat_totals_json(stdout, &w.total, w.secs))
		ret = XL_EXIT_RUNTIME;
	else if (!a.json)
		xl_lat_totals_print(stdout, &w.total, w.secs);
	xl_latency__destroy(l);
	return ret;
}
