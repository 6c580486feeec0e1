// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab run IFACE --prog FILE.o: the user's own XDP program attached
 * through a bpf_link and measured as drop/pass/tx are (the same report loop
 * and meter): rx/s, a rate per XDP action, ns/packet, the judged CPU's busy
 * share and CPU ns/packet, the verdict, totals, --json. Its actions are
 * counted from outside: the device's own XDP counters (ethtool -S) or an
 * fexit program of ours on it (bpf/prog_count.bpf.c), or both.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include <bpf/libbpf.h>

#include "cmd.h"
#include "report_cli.h"
#include "dut_cli.h"
#include "run_opts.h"
#include "xdplab/bench.h"
#include "xdplab/ethxdp.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/userprog.h"

/** How actions are counted (--count). */
enum count_method { COUNT_AUTO, COUNT_ETHTOOL, COUNT_FEXIT, COUNT_BOTH };

struct run_args {
	const struct xl_cmd_spec *spec;
	struct xl_userprog_opts uo;
	const char *maps[XL_USERPROG_MAX_FILLS];
	enum xl_xdp_mode mode;
	enum count_method count;
	struct xl_cmd_dut d; /* no --profile: d.prof stays off */
};

#define A struct run_args
static const char *const methods[] = { "auto", "ethtool", "fexit", "both", NULL };

static const struct xl_opt run_opts[] = {
	{ "prog", 0, "FILE.o", "the BPF object with your XDP program (required)", XL_STR(A, uo.path) },
	XL_RUN(SEC, A, uo.sec),
	XL_RUN(FUNC, A, uo.func),
	XL_RUN(MAP, A, maps),
	{ "pin-maps", 0, "DIR", "pin the object's maps under DIR (bpffs) while it runs, for your own tools to fill",
	  XL_STR(A, uo.pin_dir) },
	{ "count", 'c', "METHOD", "how actions are counted: auto (ethtool where the driver has XDP counters, else fexit), ethtool, fexit or both (default auto)",
	  XL_ENUM(A, count, methods, NULL) },
	XL_RUN(MODE, A, mode),
	XL_RUN(INTERVAL, A, d.interval_ns),
	XL_RUN(DURATION, A, d.duration_ns),
	XL_RUN(EXTENDED, A, d.extended, .help = "also print a row per CPU (with --count fexit or both)"),
	XL_RUN(NETNS, A, d.netns),
	XL_RUN(QUIET, A, d.quiet),
	XL_RUN(REPS, A, d.reps),
	XL_RUN(JSON, A, d.json),
};
#undef A

/* --map: a list (xl_cmd_userprog_opt()). */
static int on_opt(const struct xl_cmd_spec *spec, int id, const char *arg, void *ctx)
{
	struct run_args *a = ctx;

	return xl_cmd_userprog_opt(spec, id, arg, &a->uo, a->maps) ? -EINVAL : 0;
}

static const struct xl_cmd_spec run_spec;
static const struct run_args run_defaults = { .spec = &run_spec,
					      .d = { .interval_ns = 1000000000ull, .reps = 1 },
					      .uo = { .can_pin = true } /* --pin-maps */ };
static const struct xl_cmd_spec run_spec = {
	"run", "IFACE",
	"Attach your XDP program (--prog FILE.o) to IFACE and print rx/s, a rate per action, ns/packet, CPU ns/packet.",
	run_opts, sizeof(run_opts) / sizeof(run_opts[0]), &run_defaults, sizeof(run_defaults),
	on_opt,
};

/* What the report loop's callbacks need. */
struct run_ctx {
	int ifindex;
	const char *ifname;
	enum xl_xdp_mode mode;
	unsigned int prog_id;
	int link_fd;
};

/*
 * The interface is still there and the program still attached: the link's
 * own state (one bpf syscall, xl_xdp_link_alive(); checked once a second);
 * only when it says otherwise the netlink check, which names what went.
 */
static int run_alive(void *ctx)
{
	struct run_ctx *rc = ctx;

	return xl_cmd_link_alive(xl_xdp_link_alive(rc->link_fd), rc->ifindex, rc->ifname,
				 rc->mode, rc->prog_id);
}

static void run_print(void *ctx, const struct xl_meter_window *w, double t)
{
	xl_window_print_actions_line(stdout, w, t);
}

int cmd_run(int argc, char **argv)
{
	char start[1024]; /* the start line (struct xl_cmd_loop.start_line) */
	static struct xl_row_result row;
	struct run_args a;
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1, .queues = 1 };
	struct xl_bench_rec eth0, eth1, fx0, fx1;
	struct xl_eth_xdp eth = { .sock = -1, .queues = 1 };
	struct xl_userprog *u = NULL;
	struct xl_count *cnt = NULL;
	struct xl_meter_window w;
	struct xl_cmd_loop loop;
	const char *ifname;
	bool eth_ok;
	int idx, ifindex, link_fd = -1, ret;

	idx = xl_cmd_parse_iface(&run_spec, argc, argv, NULL, &a, &ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	a.uo.fills = a.maps;
	if (!a.uo.path) {
		xl_usage_error(a.spec, "--prog FILE.o is required (the BPF object with your XDP program)");
		return XL_EXIT_USAGE;
	}
	if (xl_cmd_check_reps(a.spec, a.d.reps, a.d.duration_ns))
		return XL_EXIT_USAGE;
	ret = xl_cmd_dut_enter(a.spec, &a.d, ifname, NULL, NULL);
	if (ret)
		return ret;
	ifindex = if_nametoindex(ifname);
	u = xl_userprog__load(&a.uo);
	if (!u)
		return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	ret = XL_EXIT_RUNTIME;
	eth_ok = !xl_eth_xdp_open(&eth, ifname, ifindex);
	if (a.count == COUNT_AUTO)
		a.count = eth_ok ? COUNT_ETHTOOL : COUNT_FEXIT;
	if (a.count == COUNT_ETHTOOL || a.count == COUNT_BOTH) {
		if (!eth_ok) {
			xl_err("--count %s: %s has no per-action XDP counters in ethtool -S (known: veth's rx_queue_N_xdp_*); use --count fexit",
			       a.count == COUNT_BOTH ? "both" : "ethtool", ifname);
			ret = XL_EXIT_USAGE;
			goto out;
		}
	}
	if (a.count == COUNT_FEXIT || a.count == COUNT_BOTH) {
		cnt = xl_count__create(u);
		if (!cnt) {
			xl_err("--count fexit: cannot count %s's return codes with fexit (see above)%s",
			       xl_userprog__name(u), eth_ok ? "; --count ethtool works on this device" : "");
			goto out;
		}
	}
	link_fd = xl_xdp_attach(xl_userprog__fd(u), ifindex, ifname, a.mode);
	if (link_fd < 0)
		goto out;
	if (a.count == COUNT_ETHTOOL) {
		m.src = (struct xl_counter_src){ "ethtool-xdp", xl_eth_xdp_meter_read, &eth };
	} else {
		m.src = (struct xl_counter_src){ "prog-count", xl_count_meter_read, cnt };
	}
	xl_cmd_dut_meter(&a.d, &m, ifname, eth.queues, eth.sock, NULL);
	snprintf(start, sizeof(start), "xdplab: %s (sec %s) of %s on %s (%s mode); counting %s; Ctrl-C to stop",
		xl_userprog__name(u), xl_userprog__sec(u), a.uo.path, ifname,
		xl_xdp_mode_name(a.mode),
		a.count == COUNT_ETHTOOL ? "with the device's ethtool counters rx_queue_N_xdp_{packets,drops,tx,redirect} (no cost to the program; XDP_ABORTED inside XDP_DROP)" :
		a.count == COUNT_FEXIT ? "with an fexit program on it (it costs CPU per packet: docs/own-program.md)" :
		"with an fexit program on it (the figures) and the device's ethtool counters (a check)");
	xl_row_init_single(&row, "run", xl_userprog__name(u), "xdp", "user program", NULL,
			xl_xdp_mode_name(a.mode), m.napi_pid ? "threaded" : "softirq");
	if (cnt)
		xl_count__read(cnt, &fx0, NULL);
	if (eth_ok)
		xl_eth_xdp_read(&eth, &eth0);
	a.d.extended = a.d.extended && cnt; /* the per-CPU lines are fexit's */
	loop = (struct xl_cmd_loop){ .m = &m, .ifname = ifname, .alive = run_alive, .print = run_print,
			.ctx = &(struct run_ctx){ ifindex, ifname, a.mode,
						  xl_xdp_attached_id(ifindex, a.mode), link_fd },
			.start_line = start, .row = &row };
	ret = xl_cmd_dut_loop(&a.d, &loop, "run", &w, NULL);
	/* The totals of each method over the same span, from the link's making to now. */
	if (w.ns) {
		char b[32];
		int i;

		printf("totals: %llu packets, %llu errors in %.3f s, %s pps;", (unsigned long long)w.packets,
		       (unsigned long long)w.errors, w.ns / 1e9,
		       xl_fmt_thousands((uint64_t)xl_rate(w.packets, w.ns), b, sizeof(b)));
		for (i = 0; i < XL_XDP_ACTIONS; i++)
			printf(" %s %llu", xl_xdp_action_name(i), (unsigned long long)w.actions[i]);
		printf("\n");
		xl_row_print_verdict(stdout, &row);
	}
	if (cnt && !xl_count__read(cnt, &fx1, NULL))
		xl_bench_rec_print_counts(stdout, "count fexit", &fx0, &fx1, true);
	if (eth_ok && !xl_eth_xdp_read(&eth, &eth1))
		xl_bench_rec_print_counts(stdout, "count ethtool", &eth0, &eth1, false);
	ret = xl_cmd_dut_finish(&a.d, "run", &loop, &row, NULL, &m, ret);
out:
	xl_xdp_link_close(link_fd); /* -1: nothing */
	xl_count__destroy(cnt);
	if (eth.sock >= 0)
		close(eth.sock);
	xl_userprog__destroy(u);
	return ret;
}
