// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab redirect|redirect-cpu|redirect-multi: XDP_REDIRECT benchmarks with
 * the same windows, counters and validity as drop (meter.h), plus what only
 * a redirect has: frames sent by OUT, cpumap work on the target CPU, and the
 * frames the kernel failed to forward after the program said XDP_REDIRECT.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "cmd.h"
#include "report_cli.h"
#include "prom_cli.h"
#include "dut_cli.h"
#include "run_opts.h"
#include "profile_cli.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/redirect.h"
#include "xdplab/redirect_out.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"

enum { O_CPU, O_STEER };

struct redir_args {
	struct xl_redirect_opts o;
	struct xl_cmd_dut d;
	bool cpu_given;
};

#define A struct redir_args
#define COMMON_OPTS_BUT_QUIET                                                           \
	XL_RUN(PACKET_OP, A, o.op),                                                     \
	XL_RUN(MODE, A, o.mode, .suffix = " on IN"),                                    \
	XL_RUN(FRAGS, A, o.frags),                                                      \
	XL_RUN(INTERVAL, A, d.interval_ns),                                               \
	XL_RUN(DURATION, A, d.duration_ns),                                               \
	XL_RUN(EXTENDED, A, d.extended),                                                  \
	XL_RUN(NETNS, A, d.netns),                                                        \
	XL_RUN(REPS, A, d.reps),                                                          \
	XL_RUN(JSON, A, d.json),                                                        \
	XL_RUN(PROMETHEUS, A, d.prom)
#define PROFILE_OPTS XL_RUN(PROFILE, A, d.prof.on), XL_RUN(PROFILE_DIR, A, d.prof.dir)

static const char *const egress_acts[] = { "forward", "drop", NULL };
static const char *const cpu_acts[] = { "drop", "pass", "redirect", "disabled", NULL };

static const struct xl_opt redir_opts[] = { COMMON_OPTS_BUT_QUIET, XL_RUN(QUIET, A, d.quiet),
					     PROFILE_OPTS };
/* redirect (devmap): the egress program too. */
static const struct xl_opt devmap_opts[] = {
	COMMON_OPTS_BUT_QUIET, XL_RUN(QUIET, A, d.quiet), PROFILE_OPTS,
	{ "load-egress", 'X', NULL, "a program on the devmap entry that runs as OUT sends each frame (xdp-bench's option)",
	  XL_FLAG(A, o.load_egress) },
	{ "egress-action", 0, "ACTION", "what it does: forward (default: source MAC set to OUT's, sent on) or drop; implies --load-egress",
	  XL_ENUM(A, o.egress_drop, egress_acts, NULL), XL_SEEN(A, o.load_egress) },
};
/* -q is --qsize as in xdp-bench redirect-cpu; --quiet is -Q here. */
static const struct xl_opt cpu_opts[] = {
	COMMON_OPTS_BUT_QUIET,
	XL_RUN(QUIET, A, d.quiet, .short_name = 'Q'),
	PROFILE_OPTS,
	{ "cpu", 'c', "CPUS", "target CPUs of the cpumap: online CPUs, repeatable or a list such as 0,2-3, none twice (required)", O_CPU, true },
	{ "program-mode", 0, "POLICY", "how the target CPU is picked: no-touch or touch (all to the first CPU), round-robin, l4-proto, l4-filter, l4-sport, l4-dport, l4-hash (default with several CPUs; no-touch with one)", O_STEER, false, "steer" },
	{ "cpu-action", 'a', "ACTION", "program on the cpumap entry: drop (default), pass, redirect (needs OUT) or disabled (no program: skbs into the stack)",
	  .alias = "remote-action", XL_ENUM(A, o.cpu_action, cpu_acts, NULL) },
	{ "qsize", 'q', "FRAMES", "cpumap queue size, {range} (default 2048)",
	  XL_UINT(A, o.qsize, 1, XL_CPUMAP_QSIZE_MAX),
	  .hint = "accepted: {range}; -q is --qsize, as in xdp-bench redirect-cpu; quiet is -Q" },
	{ "stress-mode", 'x', NULL, "replace every cpumap entry every 10 ms while running (the kernel's entry tear-down under traffic)",
	  XL_FLAG(A, o.stress) },
};
#undef A

static const struct redir_args redir_defaults = { .d = { .interval_ns = 1000000000ull, .reps = 1 } };

/* --cpu and --program-mode: a list, and the library's policy names. */
static int on_opt(const struct xl_cmd_spec *spec, int id, const char *arg, void *ctx)
{
	struct redir_args *a = ctx;
	int r;

	switch (id) {
	case O_CPU:
		r = xl_cpu_list_parse(arg, a->o.cpus, XL_STEER_MAX_CPUS, &a->o.ncpu);
		if (r == -E2BIG) {
			xl_usage_error(spec, "--cpu: more than %d target CPUs", XL_STEER_MAX_CPUS);
			return r;
		}
		if (r) {
			xl_usage_error(spec, "--cpu '%s': expected CPU numbers such as 1 or 0,2-3", arg);
			return r;
		}
		for (r = 0; r < a->o.ncpu; r++)
			if (a->o.cpus[r] >= xl_bench_ncpus()) {
				xl_usage_error(spec, "--cpu %d is out of range (accepted: 0..%d)",
					       a->o.cpus[r], xl_bench_ncpus() - 1);
				return -ERANGE;
			}
		a->o.cpu = a->o.cpus[0];
		a->cpu_given = true;
		return 0;
	case O_STEER: {
		char list[256];
		size_t n = 0;
		int i;

		r = xl_steer_parse(arg);
		if (r >= 0) {
			a->o.steer = r;
			return 0;
		}
		for (i = XL_STEER_NO_TOUCH; i < XL_STEER__COUNT && n < sizeof(list); i++)
			n += snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "",
				      xl_steer_name(i));
		xl_usage_error(spec, "--program-mode '%s': accepted %s", arg, list);
		return r;
	}
	}
	return -EINVAL;
}

/*
 * Parse options and positionals of the command @kind into @a; return 0,
 * -1 after --help, or an exit status.
 */
static int parse(const struct xl_cmd_spec *spec, enum xl_redir_kind kind, struct redir_args *a,
		 int argc, char **argv)
{
	int idx, n, i;

	idx = xl_opts_parse(spec, argc, argv, NULL, a);
	if (idx == XL_OPTS_HELP)
		return -1;
	if (idx < 0)
		return XL_EXIT_USAGE;
	a->o.kind = kind;
	n = argc - idx;
	if (n < 1) {
		xl_usage_error(spec, "missing IN (see --help)");
		return XL_EXIT_USAGE;
	}
	a->o.in = argv[idx];
	a->o.nout = n - 1;
	if ((a->o.kind == XL_REDIR_DEVMAP || a->o.kind == XL_REDIR_IFINDEX) && n != 2) {
		xl_usage_error(spec, n < 2 ? "missing OUT (see --help)" :
						 "IN and one OUT expected, got '%s' too", argv[argc - 1]);
		return XL_EXIT_USAGE;
	}
	if (a->o.kind == XL_REDIR_MULTI && (n < 2 || n > XL_REDIR_MAX_OUT + 1)) {
		xl_usage_error(spec, "IN and 1..%d OUT interfaces expected, got %d OUT",
			       XL_REDIR_MAX_OUT, n - 1);
		return XL_EXIT_USAGE;
	}
	if (a->o.kind == XL_REDIR_CPUMAP) {
		if (!a->cpu_given) {
			xl_usage_error(spec, "--cpu is required (the cpumap's target CPU)");
			return XL_EXIT_USAGE;
		}
		if (a->o.cpu_action == XL_CPU_ACT_REDIRECT && n != 2) {
			xl_usage_error(spec, "--cpu-action redirect needs exactly one OUT after IN");
			return XL_EXIT_USAGE;
		}
		if (a->o.cpu_action != XL_CPU_ACT_REDIRECT && n != 1) {
			xl_usage_error(spec, "OUT '%s' is only used with --cpu-action redirect",
				       argv[idx + 1]);
			return XL_EXIT_USAGE;
		}
	}
	for (i = 0; i < a->o.nout; i++)
		a->o.out[i] = argv[idx + 1 + i];
	return xl_cmd_check_reps(spec, a->d.reps, a->d.duration_ns) ? XL_EXIT_USAGE : 0;
}

/* How long the end of a run waits for a cpumap's queues to drain (ms). */
#define XL_REDIR_DRAIN_MS 1000

/* What the report loop's callbacks need: the redirect and its counters. */
struct redir_run {
	struct xl_redirect *r;
	const struct xl_redirect_opts *o;
	struct xl_redirect_stats prev, cur;
	struct xl_steer_target tprev[XL_STEER_MAX_CPUS], tcur[XL_STEER_MAX_CPUS];
	int nt;
	int sock; /* the meter's socket (ioctls), or -1 */
	unsigned int prog_id; /* what was attached on IN at the start, for the message */
	bool have_prev;
};

/*
 * Whether @ifindex still exists: SIOCGIFNAME on the meter's socket @sock
 * (one ioctl; if_indextoname() opens a socket per call), else
 * if_indextoname().
 */
static bool dev_exists(int sock, int ifindex)
{
	struct ifreq ifr = { .ifr_ifindex = ifindex };

	if (sock < 0)
		return if_indextoname(ifindex, (char[IF_NAMESIZE]){ 0 });
	return !ioctl(sock, SIOCGIFNAME, &ifr) || errno != ENODEV;
}

/*
 * IN and every OUT still exist (an ioctl each) and IN's link still holds
 * our program (one bpf syscall; a program detached by someone else, e.g.
 * xdplab cleanup IN, stops the run as drop's and run's do), once a second
 * (XL_CMD_POLL_NS).
 */
static int redir_alive(void *ctx)
{
	struct redir_run *rr = ctx;
	int i;

	if (!dev_exists(rr->sock, xl_redirect__ifindex(rr->r))) {
		xl_err("interface %s (IN) vanished during the run", rr->o->in);
		return XL_EXIT_RUNTIME;
	}
	/*
	 * An OUT that goes away leaves IN redirecting into nothing (the
	 * kernel drops the devmap entry: every frame is XDP_ABORTED): the
	 * figures would be a benchmark of failure, so stop the same way.
	 */
	for (i = 0; i < rr->o->nout; i++)
		if (!dev_exists(rr->sock, xl_redirect__out_ifindex(rr->r, i))) {
			xl_err("interface %s (OUT) vanished during the run", rr->o->out[i]);
			return XL_EXIT_RUNTIME;
		}
	return xl_cmd_link_alive(xl_redirect__link_alive(rr->r), xl_redirect__ifindex(rr->r),
				 rr->o->in, rr->o->mode, rr->prog_id);
}

/*
 * The first sample is the interval lines' start, every later one their end:
 * what the meter's reader just read (one read of the counters per sample).
 */
static int redir_sampled(void *ctx)
{
	struct redir_run *rr = ctx;
	int err = xl_redirect__last(rr->r, rr->have_prev ? &rr->cur : &rr->prev,
				    rr->nt ? (rr->have_prev ? rr->tcur : rr->tprev) : NULL);

	rr->have_prev = true;
	return err;
}

static void redir_print(void *ctx, const struct xl_meter_window *w, double t)
{
	struct redir_run *rr = ctx;

	xl_redirect_print_window(stdout, rr->o, w, &rr->prev, &rr->cur, rr->tprev, rr->tcur, rr->nt, t);
	rr->prev = rr->cur;
	memcpy(rr->tprev, rr->tcur, sizeof(rr->tprev));
}

/* xl_cmd_dut_enter()'s check: IN and the OUTs (xl_redirect_check(), its line). */
static int redir_check(void *ctx)
{
	return xl_redirect_check(ctx);
}

int cmd_redirect(int argc, char **argv)
{
	char start[1024]; /* the start line (struct xl_cmd_loop.start_line) */
	static struct xl_row_result row;
	static struct xl_redirect_stats st;
	struct xl_cmd_loop loop;
	static struct xl_redir_cpu_rec cpu_recs[XL_MAX_CPUS];
	static struct xl_steer_target targets[XL_STEER_MAX_CPUS];
	static struct redir_run rr;
	struct xl_steer_miss miss = { 0 };
	uint64_t stress = 0;
	int nt;
	struct redir_args a;
	struct xl_cmd_spec spec;
	enum xl_redir_kind kind;
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1, .queues = 1 };
	struct xl_meter_window w;
	cpu_set_t away;
	struct xl_redirect *r;
	static struct xl_profile pr;
	bool moved;
	int ret = XL_EXIT_OK, err;

	if (!strcmp(argv[0], "redirect-cpu")) {
		kind = XL_REDIR_CPUMAP;
		spec = (struct xl_cmd_spec){ argv[0], "IN [OUT]",
			"XDP_REDIRECT from IN into a cpumap; a program on the entry drops, passes or redirects to OUT.",
			cpu_opts, sizeof(cpu_opts) / sizeof(cpu_opts[0]) };
	} else if (!strcmp(argv[0], "redirect-multi")) {
		kind = XL_REDIR_MULTI;
		spec = (struct xl_cmd_spec){ argv[0], "IN OUT...",
			"Broadcast every frame from IN to each OUT (BPF_F_BROADCAST|BPF_F_EXCLUDE_INGRESS over a devmap_hash).",
			redir_opts, sizeof(redir_opts) / sizeof(redir_opts[0]) };
	} else if (!strcmp(argv[0], "redirect-ifindex")) {
		kind = XL_REDIR_IFINDEX;
		spec = (struct xl_cmd_spec){ argv[0], "IN OUT",
			"XDP_REDIRECT every frame from IN to OUT with bpf_redirect() by ifindex (no map; xdp-bench's redirect); print rx/s, err/s, ns/packet.",
			redir_opts, sizeof(redir_opts) / sizeof(redir_opts[0]) };
	} else {
		kind = XL_REDIR_DEVMAP;
		spec = (struct xl_cmd_spec){ argv[0], "IN OUT",
			"XDP_REDIRECT every frame from IN to OUT through a devmap; print rx/s, err/s, ns/packet.",
			devmap_opts, sizeof(devmap_opts) / sizeof(devmap_opts[0]) };
	}
	spec.defaults = &redir_defaults;
	spec.size = sizeof(a);
	spec.code = on_opt;
	err = parse(&spec, kind, &a, argc, argv);
	if (err)
		return err < 0 ? XL_EXIT_OK : err;
	ret = xl_cmd_dut_enter(&spec, &a.d, NULL, redir_check, &a.o);
	if (ret)
		return ret;
	r = xl_redirect__create(&a.o);
	if (!r) {
		ret = errno == ENODEV ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		goto out_prof;
	}
	ret = XL_EXIT_OK;
	rr.r = r;
	rr.o = &a.o;
	rr.nt = nt = xl_redirect__steer_count(r);
	rr.prog_id = xl_xdp_attached_id(xl_redirect__ifindex(r), a.o.mode);
	m.src = (struct xl_counter_src){ "redirect", xl_redirect__read_bench, r };
	moved = xl_cmd_dut_meter(&a.d, &m, a.o.in, 0, -1, &away); /* one queue's counts */
	rr.sock = m.eth_sock;
	if (moved && (err = xl_redirect__stress_affinity(r, &away)))
		xl_warn("--stress-mode thread: cannot move it off the NAPI CPUs: %s", strerror(-err));
	if (a.o.kind == XL_REDIR_CPUMAP) {
		char cl[XL_STEER_MAX_CPUS * 6] = "";
		int i, n = 0;

		for (i = 0; i < (a.o.ncpu ? a.o.ncpu : 1); i++)
			n += snprintf(cl + n, sizeof(cl) - n, "%s%d", i ? "," : "",
				      a.o.ncpu ? a.o.cpus[i] : a.o.cpu);
		if (a.o.steer == XL_STEER_DEFAULT)
			a.o.steer = nt > 1 ? XL_STEER_L4_HASH : XL_STEER_NO_TOUCH;
		snprintf(start, sizeof(start), "xdplab: REDIRECT %s -> cpumap cpu %s (%s, qsize %u, entry program %s%s%s%s), %s mode%s, packet operation %s; Ctrl-C to stop",
			a.o.in, cl, xl_steer_name(a.o.steer),
			a.o.qsize ? a.o.qsize : XL_CPUMAP_QSIZE_DEFAULT,
			xl_cpu_action_name(a.o.cpu_action), a.o.nout ? " to " : "",
			a.o.nout ? a.o.out[0] : "", a.o.stress ? ", stress-mode" : "",
			xl_xdp_mode_name(a.o.mode), a.o.frags ? " multi-buffer" : "",
			xl_pkt_op_name(a.o.op));
	}
	else
		snprintf(start, sizeof(start), "xdplab: REDIRECT %s -> %s%s (%s, %s mode%s), packet operation %s; Ctrl-C to stop",
			a.o.in, a.o.out[0], a.o.nout > 1 ? " and more" : "",
			a.o.kind == XL_REDIR_MULTI ? "devmap_hash broadcast, ingress excluded" :
			a.o.kind == XL_REDIR_IFINDEX ? "bpf_redirect by ifindex, no map" : "devmap",
			xl_xdp_mode_name(a.o.mode), a.o.frags ? " multi-buffer" : "",
			xl_pkt_op_name(a.o.op));
	xl_row_init_single(&row, argv[0], NULL, "xdp", "XDP_REDIRECT", xl_pkt_op_name(a.o.op),
			xl_xdp_mode_name(a.o.mode), m.napi_pid ? "threaded" : "softirq");
	loop = (struct xl_cmd_loop){ .m = &m, .ifname = a.o.in, .alive = redir_alive,
				     .sampled = redir_sampled, .print = redir_print, .ctx = &rr,
				     .start_line = start, .row = &row };
	ret = xl_cmd_dut_loop(&a.d, &loop, argv[0], &w, &pr);
	/* The totals balance only once nothing is in flight: detach, drain. */
	if (w.ns && a.o.kind == XL_REDIR_CPUMAP &&
	    (err = xl_redirect__quiesce(r, XL_REDIR_DRAIN_MS)) < 0)
		xl_warn("cpumap: %s %d ms after detaching from %s; the totals below may miss frames still in its queues",
			err == -ETIMEDOUT ? "frames still in flight" : strerror(-err),
			XL_REDIR_DRAIN_MS, a.o.in);
	if (w.ns && xl_redirect__read(r, &st, NULL, cpu_recs) == 0 &&
	    (!nt || xl_redirect__read_steer(r, targets, &miss, &stress) == 0)) {
		xl_redirect_print_totals(stdout, &a.o, &w, &st, cpu_recs, targets, nt, &miss, stress);
		struct xl_row_steer *rs = nt ? xl_row_part_get(&row, &xl_row_part_steer) : NULL;

		if (rs)
			xl_steer_row_add(rs, a.o.steer, NULL, NULL, targets, &miss, nt);
		xl_window_print_check(stdout, &w, 1);
		xl_row_print_verdict(stdout, &row);
	}
	ret = xl_cmd_dut_finish(&a.d, argv[0], &loop, &row, &pr, &m, ret);
	xl_redirect__destroy(r);
out_prof:
	xl_cmd_prof_close(&a.d.prof);
	return ret;
}
