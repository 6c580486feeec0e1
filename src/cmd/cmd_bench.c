// SPDX-License-Identifier: BSD-2-Clause
/* xdplab drop|pass|tx: XDP benchmarks in the manner of xdp-bench. */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include <bpf/libbpf.h>

#include "cmd.h"
#include "report_cli.h"
#include "prom_cli.h"
#include "run_opts.h"
#include "dut_cli.h"
#include "profile_cli.h"
#include "xdplab/bench.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/netlink.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"

struct bench_args {
	struct xl_bench_opts o;
	struct xl_cmd_dut d;
	uint64_t extra_ns;
};

#define A struct bench_args
static const char *const load_modes[] = { "dpa", "load-bytes", NULL };
static const char *const bench_counters[] = { "program", "ethtool", NULL };

static const struct xl_opt bench_opts[] = {
	XL_RUN(PACKET_OP, A, o.op),
	{ "extra-ns", 0, "NS", "add a busy loop of NS ns of CPU per packet, {range}, calibrated at start with BPF_PROG_RUN (docs/compare.md)",
	  XL_UINT(A, extra_ns, 0, XL_EXTRA_NS_MAX), XL_SEEN(A, o.extra) },
	{ "load-mode", 'l', "MODE", "how read-data and swap-macs reach the frame: dpa (direct packet access, default) or load-bytes (bpf_xdp_load_bytes/bpf_xdp_store_bytes)",
	  XL_ENUM(A, o.load_bytes, load_modes, NULL) },
	{ "count", 0, "METHOD", "how the frames are counted: program (default: our per-CPU map) or ethtool (the driver's per-queue XDP counters, veth's, as run's --count: the program then counts nothing, no-touch only returns its action; native mode, no other option)",
	  XL_ENUM(A, o.driver_counts, bench_counters, NULL) },
	{ "rxq-stats", 0, NULL, "also count frames per RX queue: rx/s per queue each interval, packets and share at the end",
	  XL_FLAG(A, o.rxq_stats) },
	XL_RUN(MODE, A, o.mode),
	XL_RUN(FRAGS, A, o.frags),
	XL_RUN(INTERVAL, A, d.interval_ns),
	XL_RUN(DURATION, A, d.duration_ns),
	XL_RUN(EXTENDED, A, d.extended),
	XL_RUN(NETNS, A, d.netns),
	XL_RUN(QUIET, A, d.quiet),
	XL_RUN(PROFILE, A, d.prof.on),
	XL_RUN(PROFILE_DIR, A, d.prof.dir),
	XL_RUN(REPS, A, d.reps),
	XL_RUN(JSON, A, d.json),
	XL_RUN(PROMETHEUS, A, d.prom),
};
#undef A

/* drop and pass: the packet is not touched unless asked. */
static const struct bench_args bench_defaults = { .d = { .interval_ns = 1000000000ull, .reps = 1 } };
/*
 * tx swaps the MACs unless told otherwise, as xdp-bench tx does: on a NIC
 * the frames then go back to the sender.
 */
static const struct bench_args tx_defaults = { .o.op = XL_OP_SWAP_MACS,
					       .d = { .interval_ns = 1000000000ull, .reps = 1 } };

/* The combinations the table cannot say: one line and -EINVAL, else 0. */
static int bench_check(const struct xl_cmd_spec *spec, const struct bench_args *a)
{
	if (xl_cmd_check_reps(spec, a->d.reps, a->d.duration_ns))
		return -EINVAL;
	if (a->o.load_bytes && a->o.op == XL_OP_PARSE_IP)
		return xl_usage_error(spec, "--load-mode load-bytes: accepted with --packet-operation no-touch, read-data or swap-macs (parse-ip reads by direct packet access only)");
	return 0;
}

/* What the report loop's callbacks need. */
struct bench_run {
	struct xl_bench *b;
	const char *ifname;
	enum xl_xdp_mode mode;
	int action;
	unsigned int prog_id;
	bool rxq;
	uint64_t rxq_prev[XL_RXQ_MAX];
};

/*
 * The interface is still there and our program still attached: the link's
 * own state (one bpf syscall); only when it says otherwise (or for tc)
 * the netlink check, which names what went.
 */
static int bench_alive(void *ctx)
{
	struct bench_run *br = ctx;

	return xl_cmd_link_alive(xl_bench__link_alive(br->b), xl_bench__ifindex(br->b),
				 br->ifname, br->mode, br->prog_id);
}

static void bench_print(void *ctx, const struct xl_meter_window *w, double t)
{
	struct bench_run *br = ctx;
	uint64_t now[XL_RXQ_MAX];
	char b1[32];
	int q;

	xl_window_print_action_line(stdout, w, t, br->action);
	/* --rxq-stats: the queues that took frames in this window. */
	if (!br->rxq || xl_bench__read_rxq(br->b, now, XL_RXQ_MAX))
		return;
	for (q = 0; q < XL_RXQ_MAX; q++) {
		if (now[q] != br->rxq_prev[q])
			printf("            rxq%-3d rx/s %12s\n", q,
			       xl_fmt_thousands((uint64_t)xl_rate(now[q] - br->rxq_prev[q], w->ns),
						b1, sizeof(b1)));
		br->rxq_prev[q] = now[q];
	}
}

int cmd_bench(int argc, char **argv)
{
	char start[1024]; /* the start line (struct xl_cmd_loop.start_line) */
	static struct xl_row_result row;
	struct xl_extra_cal cal = { 0 };
	struct bench_args a;
	struct xl_cmd_spec spec;
	static struct bench_run br;
	uint64_t rxq[XL_RXQ_MAX];
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1, .queues = 1 };
	struct xl_meter_window w;
	struct xl_cmd_loop loop;
	struct xl_bench *b;
	const char *ifname;
	char summary[128];
	unsigned int prog_id;
	static struct xl_profile pr;
	bool driver;
	int idx, i, action, ret = XL_EXIT_OK;

	action = !strcmp(argv[0], "pass") ? XDP_PASS : !strcmp(argv[0], "tx") ? XDP_TX : XDP_DROP;
	snprintf(summary, sizeof(summary), "Attach an %s benchmark program to IFACE and print rx/s, err/s, ns/packet.",
		 xl_xdp_action_name(action));
	spec = (struct xl_cmd_spec){ argv[0], "IFACE", summary, bench_opts,
				     sizeof(bench_opts) / sizeof(bench_opts[0]),
				     action == XDP_TX ? &tx_defaults : &bench_defaults, sizeof(a) };
	idx = xl_cmd_parse_iface(&spec, argc, argv, NULL, &a, &ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (bench_check(&spec, &a))
		return XL_EXIT_USAGE;
	a.o.action = action;
	ret = xl_cmd_dut_enter(&spec, &a.d, ifname, NULL, NULL);
	if (ret)
		return ret;
	a.o.ifname = ifname;
	if (a.o.extra) { /* calibrated before the attach (one line on failure) */
		a.o.extra_cal = &cal;
		a.o.extra_ns = a.extra_ns;
	}
	b = xl_bench__create(&a.o);
	if (!b) {
		ret = errno == ENODEV && !(a.o.extra && cal.err) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		goto out_prof;
	}
	if (a.o.extra)
		xl_extra_cal_print(stderr, &cal);
	m.src = xl_counter_src_bench(b);
	xl_cmd_dut_meter(&a.d, &m, ifname, xl_link_rx_queues(xl_bench__ifindex(b)), -1, NULL);
	prog_id = xl_xdp_attached_id(xl_bench__ifindex(b), a.o.mode);
	driver = !strcmp(xl_bench__counter(b), XL_COUNTER_DRIVER);
	if (a.o.driver_counts && !driver)
		xl_warn("--count ethtool: %s keeps no per-queue XDP counters in this mode, or another option needs the counting program: the program counts",
			XL_ESC(ifname));
	snprintf(start, sizeof(start), "xdplab: %s on %s (%s mode%s), packet operation %s%s%s; Ctrl-C to stop",
		 xl_xdp_action_name(a.o.action), ifname, xl_xdp_mode_name(a.o.mode),
		a.o.frags ? ", multi-buffer" : "", xl_pkt_op_name(a.o.op),
		a.o.load_bytes ? " by bpf_xdp_load_bytes" : "",
		driver ? ", counted by the driver (rx_queue_N_xdp_*)" : "");
	xl_row_init_single(&row, argv[0], a.o.action == XDP_DROP ? xl_pkt_op_name(a.o.op) : NULL, "xdp",
			xl_xdp_action_name(a.o.action), xl_pkt_op_name(a.o.op),
			xl_xdp_mode_name(a.o.mode), m.napi_pid ? "threaded" : "softirq");
	row.counter = xl_bench__counter(b);
	if (a.o.extra) /* the --json row says what the loop was set to */
		row.extra = (struct xl_row_extra){ .on = true, .target_ns = cal.target_ns,
						   .ns_per_iter = cal.ns_per_iter, .set_ns = cal.set_ns,
						   .check_ns = cal.check_ns, .iters = cal.iters,
						   .steps = (uint32_t)cal.steps };
	br = (struct bench_run){ b, ifname, a.o.mode, a.o.action, prog_id, a.o.rxq_stats };
	loop = (struct xl_cmd_loop){ .m = &m, .ifname = ifname, .alive = bench_alive,
				     .print = bench_print, .ctx = &br, .start_line = start,
				     .row = &row };
	ret = xl_cmd_dut_loop(&a.d, &loop, argv[0], &w, &pr);
	if (w.ns) {
		printf("totals: %llu packets, %llu bytes, %llu errors in %.3f s;",
		       (unsigned long long)w.packets, (unsigned long long)w.bytes,
		       (unsigned long long)w.errors, w.ns / 1e9);
		for (i = 0; i < XL_XDP_ACTIONS; i++)
			printf(" %s %llu", xl_xdp_action_name(i), (unsigned long long)w.actions[i]);
		printf("\n");
		xl_window_print_check(stdout, &w, m.queues);
		if (a.o.rxq_stats && !xl_bench__read_rxq(b, rxq, XL_RXQ_MAX)) {
			uint64_t all = 0;

			for (i = 0; i < XL_RXQ_MAX; i++)
				all += rxq[i];
			for (i = 0; i < XL_RXQ_MAX; i++)
				if (rxq[i])
					printf("rxq %d: packets %llu share %.2f%%\n", i,
					       (unsigned long long)rxq[i], 100.0 * rxq[i] / all);
		}
		xl_row_print_verdict(stdout, &row);
	}
	ret = xl_cmd_dut_finish(&a.d, argv[0], &loop, &row, &pr, &m, ret);
	xl_bench__destroy(b);
out_prof:
	xl_cmd_prof_close(&a.d.prof);
	return ret;
}
