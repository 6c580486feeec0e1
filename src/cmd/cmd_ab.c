// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab ab IFACE --a A --b B: two XDP programs on one interface in one run.
 * Both are loaded once; each repetition gives each a short slice in turn
 * (A B, then B A: links made and cut, as the watch-cost rows interleave
 * monitor levels), so the host's speed swings fall on both alike. Each
 * slice is a meter window counted by the device's own XDP counters (the
 * same method for both, no cost to either); the verdict comes from the
 * paired differences of the CPU ns per packet (xl_ab_compare()).
 * A and B are BPF objects (FILE.o, the loading rules of `run`) or built-in
 * benchmarks: drop|pass|tx:OP[:extra-ns=N].
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include <jansson.h>

#include "cmd.h"
#include "sig.h"
#include "report_cli.h"
#include "json_cli.h"
#include "run_opts.h"
#include "xdplab/abtest.h"
#include "xdplab/bench.h"
#include "xdplab/ethxdp.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/netlink.h"
#include "xdplab/plan.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/userprog.h"

/* After a link is made: the driver's XDP set-up (veth: NAPI, ring), ns. */
#define SETTLE_NS 20000000ull

/* The DUT's wiring as the slices found it: none measured yet, or how its NAPI ran. */
enum ab_wiring { AB_WIRING_UNKNOWN, AB_WIRING_THREADED, AB_WIRING_SOFTIRQ };

struct ab_args {
	const struct xl_cmd_spec *spec;
	const char *spec_of[2];
	struct xl_userprog_opts uo;
	const char *maps[XL_USERPROG_MAX_FILLS];
	enum xl_xdp_mode mode;
	uint64_t slice_ns, reps;
	bool quiet;
	const char *netns, *json;
	enum ab_wiring wiring; /* the first slice's: every later one must match */
};

#define A struct ab_args
static const struct xl_opt ab_opts[] = {
	{ "a", 0, "PROG", "program A: FILE.o, or a built-in drop|pass|tx:OP[:extra-ns=N] (e.g. drop:no-touch)",
	  XL_STR(A, spec_of[0]) },
	{ "b", 0, "PROG", "program B, as --a", XL_STR(A, spec_of[1]) },
	XL_RUN(SEC, A, uo.sec, .help = "in each FILE.o, the XDP program in this ELF section"),
	XL_RUN(FUNC, A, uo.func, .help = "in each FILE.o, the XDP program with this function name"),
	XL_RUN(MAP, A, maps, .help = "fill map NAME of each FILE.o from FILE (repeatable)"),
	{ "slice", 's', "SECONDS", "each program's measured slice per repetition, {range} (default {default})",
	  XL_SECONDS(A, slice_ns, 0.05, 10) },
	{ "reps", 'r', "N", "repetitions, each an A and a B slice, {range} (default {default})",
	  XL_UINT(A, reps, 6, XL_AB_MAX_ROUNDS) },
	XL_RUN(MODE, A, mode),
	XL_RUN(NETNS, A, netns),
	XL_RUN(QUIET, A, quiet),
	XL_RUN(JSON, A, json, .help = "also write the comparison as JSON to FILE, and each side as a run-results file (FILE.json: FILE.a.json, FILE.b.json) for xdplab compare"),
};
#undef A

/* --map: a list (xl_cmd_userprog_opt()). */
static int on_opt(const struct xl_cmd_spec *spec, int id, const char *arg, void *ctx)
{
	struct ab_args *a = ctx;

	return xl_cmd_userprog_opt(spec, id, arg, &a->uo, a->maps) ? -EINVAL : 0;
}

static const struct xl_cmd_spec ab_spec;
static const struct ab_args ab_defaults = { .spec = &ab_spec, .slice_ns = 200000000ull,
					    .reps = 10 };
static const struct xl_cmd_spec ab_spec = {
	"ab", "IFACE",
	"Compare two XDP programs on IFACE, interleaved in short slices: rate, CPU ns/packet, paired median difference, 95% CI, verdict.",
	ab_opts, sizeof(ab_opts) / sizeof(ab_opts[0]), &ab_defaults, sizeof(ab_defaults), on_opt,
};

/* One side: a user object or a built-in benchmark, and its slices' figures. */
struct ab_side {
	const char *spec;
	char name[96];
	struct xl_userprog *u;
	struct xl_bench *b;
	int prog_fd;
	double *pps, *cpu_ns;
	uint64_t packets, bytes;
	uint64_t ns;
	const char *cpu_source; /* the last slice's (XL_CPU_SRC_* of xdplab/meter.h) */
	struct xl_row_result *row;
};

/*
 * A built-in "ACTION:OP[:extra-ns=N]": 1 and @o filled, 0 when @s is not
 * one (a file), -EINVAL (usage error printed).
 */
static int parse_builtin(const struct xl_cmd_spec *spec, const char *s, struct xl_bench_opts *o,
			 uint64_t *extra_ns)
{
	static const char *const acts[] = { "drop", "pass", "tx" };
	static const int act_val[] = { XDP_DROP, XDP_PASS, XDP_TX };
	char copy[128], *op, *extra;
	size_t i;
	int c;

	if (strchr(s, '/') || strstr(s, ".o") || strlen(s) >= sizeof(copy))
		return 0;
	strcpy(copy, s);
	op = strchr(copy, ':');
	if (op)
		*op++ = '\0';
	for (i = 0; i < 3; i++)
		if (!strcmp(copy, acts[i]))
			break;
	if (i == 3)
		return 0;
	o->action = act_val[i];
	o->op = XL_OP_NO_TOUCH;
	extra = op ? strchr(op, ':') : NULL;
	if (extra)
		*extra++ = '\0';
	if (op) {
		c = xl_pkt_op_parse(op);
		if (c < 0)
			return xl_usage_error(spec, "'%s': packet operation '%s' is not accepted (accepted: no-touch, read-data, parse-ip, swap-macs)",
					      s, op);
		o->op = c;
	}
	if (extra) {
		if (strncmp(extra, "extra-ns=", 9))
			return xl_usage_error(spec, "'%s': '%s' is not accepted (accepted: extra-ns=N)", s, extra);
		if (xl_parse_u64(spec, "extra-ns", extra + 9, 0, XL_EXTRA_NS_MAX, extra_ns))
			return -EINVAL;
		o->extra = true;
	}
	return 1;
}

/* Load @s (detached). Return: XL_EXIT_OK or the exit status (message printed). */
static int side_load(struct ab_args *a, struct ab_side *s, const char *ifname)
{
	struct xl_bench_opts o = { .ifname = ifname, .mode = a->mode };
	uint64_t extra_ns = 0;
	int r = parse_builtin(a->spec, s->spec, &o, &extra_ns);

	if (r < 0)
		return XL_EXIT_USAGE;
	if (r) {
		struct xl_extra_cal cal = { 0 };

		/* Calibrated before the attach: struct xl_bench_opts.extra_cal. */
		o.extra_cal = o.extra ? &cal : NULL;
		o.extra_ns = extra_ns;
		s->b = xl_bench__create(&o);
		if (!s->b) /* a failed calibration said so itself */
			return errno == ENODEV && !cal.err ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		xl_bench__detach(s->b);
		if (o.extra)
			xl_cmd_print_extra(&cal);
		s->prog_fd = xl_bench__prog_fd(s->b);
		snprintf(s->name, sizeof(s->name), "%s", s->spec);
		return XL_EXIT_OK;
	}
	a->uo.path = s->spec;
	s->u = xl_userprog__load(&a->uo);
	if (!s->u)
		return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	s->prog_fd = xl_userprog__fd(s->u);
	snprintf(s->name, sizeof(s->name), "%s (%s)", xl_userprog__name(s->u), s->spec);
	return XL_EXIT_OK;
}

/*
 * ab's measured run (xl_plan_run()): two arms, the sides, one slice each
 * per repetition, A B then B A; a slice attaches its side, settles, reads
 * the window of @a->slice_ns and detaches. Messages are printed here; a
 * failure ends the plan with -EIO (XL_EXIT_RUNTIME).
 */
struct ab_run {
	struct ab_args *a;
	struct ab_side *sides;
	struct xl_meter *m;
	int ifindex, link;
	const char *ifname;
};

/* A slice's two samples (large: not on the stack). */
static struct xl_meter_sample ab_s0, ab_s1;

static int slice_open(void *ctx, const struct xl_plan_step *st)
{
	struct ab_run *x = ctx;
	struct ab_args *a = x->a;
	struct ab_side *s = &x->sides[st->arm];
	struct xl_meter *m = x->m;
	enum ab_wiring now;
	int err;

	x->link = xl_xdp_attach(s->prog_fd, x->ifindex, x->ifname, a->mode);
	if (x->link < 0)
		return -EIO;
	xl_cmd_sleep_ns(SETTLE_NS);
	/*
	 * The NAPI kthread of this attach: looked up in every slice, since
	 * veth with threaded NAPI and GRO off makes its NAPI (and a new
	 * kthread, a new pid) at each attach and deletes it at each detach;
	 * the first slice's pid would leave the later ones without a CPU
	 * figure. A wiring that changes between slices would mix two CPU
	 * sources in one comparison: refused.
	 */
	m->napi_pid = xl_napi_kthread_pid(x->ifname);
	now = m->napi_pid ? AB_WIRING_THREADED : AB_WIRING_SOFTIRQ;
	if (a->wiring != AB_WIRING_UNKNOWN && a->wiring != now) {
		xl_xdp_link_close(x->link);
		xl_err("%s: %s's slice in repetition %d has %s NAPI kthread and the slices before %s: the wiring changed during ab (its CPU figures would mix sources)",
		       x->ifname, s->name, st->rep + 1, m->napi_pid ? "a" : "no",
		       m->napi_pid ? "had none" : "had one");
		return -EIO;
	}
	a->wiring = now;
	err = xl_meter_sample(m, &ab_s0);
	if (err) {
		xl_xdp_link_close(x->link);
		if (xl_stop_requested)
			return -EINTR;
		xl_err("%s: cannot read the counters: %s", x->ifname, strerror(-err));
		return -EIO;
	}
	return 0;
}

static int slice_close(void *ctx, const struct xl_plan_step *st)
{
	struct ab_run *x = ctx;
	struct ab_side *s = &x->sides[st->arm];
	struct xl_meter_window w;
	int rep = st->rep, err = 0;

	if (!xl_stop_requested)
		err = xl_meter_sample(x->m, &ab_s1);
	xl_xdp_link_close(x->link);
	if (xl_stop_requested)
		return 0; /* the plan ends with -EINTR */
	if (err) {
		xl_err("%s: cannot read the counters: %s", x->ifname, strerror(-err));
		return -EIO;
	}
	xl_meter_window(x->m, &ab_s0, &ab_s1, &w);
	if (!w.packets) {
		xl_err("%s: no frames in %s's slice: send traffic to it while ab runs (e.g. xdplab gen from the peer)",
		       x->ifname, s->name);
		return -EIO;
	}
	s->pps[rep] = w.pps;
	s->cpu_ns[rep] = w.cpu_ns_per_pkt;
	s->packets += w.packets;
	s->bytes += w.bytes;
	s->ns += w.ns;
	s->cpu_source = w.cpu_source;
	if (rep < XL_MAX_REPS) {
		xl_meter_window_rep(&w, &s->row->reps[rep]);
		s->row->nreps = rep + 1;
		s->row->napi_cpu = w.napi_cpu;
	}
	return 0;
}

/* A repetition's line: both sides' rate and CPU ns/packet. */
static int rep_line(void *ctx, const struct xl_plan_step *st)
{
	struct ab_run *x = ctx;
	const struct ab_side *sd = x->sides;
	int i = st->rep;

	if (!x->a->quiet)
		printf("%4d %12.3f %12.1f %12.3f %12.1f\n", i + 1, sd[0].pps[i] / 1e6, sd[0].cpu_ns[i],
		       sd[1].pps[i] / 1e6, sd[1].cpu_ns[i]);
	return 0;
}

static const struct xl_plan_ops ab_ops = { .open = slice_open, .close = slice_close,
					   .rep_done = rep_line };

static json_t *side_json(const struct ab_side *s, int n)
{
	json_t *o = json_object(), *pps = json_array(), *cpu = json_array();
	int i;

	for (i = 0; i < n; i++) {
		json_array_append_new(pps, json_real(s->pps[i]));
		json_array_append_new(cpu, json_real(s->cpu_ns[i]));
	}
	json_object_set_new(o, "program", json_string(s->spec));
	json_object_set_new(o, "name", json_string(s->name));
	json_object_set_new(o, "pps", pps);
	json_object_set_new(o, "cpu_ns_per_pkt", cpu);
	json_object_set_new(o, "packets", json_integer(s->packets));
	return o;
}

static json_t *cmp_json(const struct xl_ab_result *r, const char *unit)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:o, s:f, s:s}", "unit", unit, "a_median", r->a_median,
			 "b_median", r->b_median, "diff_median", r->diff_median, "diff_ci95",
			 r->ci ? json_pack("[f, f]", r->diff_lo, r->diff_hi) : json_null(), "p", r->p,
			 "verdict", xl_ab_verdict_name(r->verdict));
}

static void print_cmp(const char *what, const struct xl_ab_result *r, int prec)
{
	char ci[48] = "-";

	if (r->ci)
		snprintf(ci, sizeof(ci), "%.*f..%.*f", prec, r->diff_lo, prec, r->diff_hi);
	printf("%-14s %10.*f %10.*f %+11.*f  %-20s %8.4f  %s\n", what, prec, r->a_median, prec,
	       r->b_median, prec, r->diff_median, ci, r->p, xl_ab_verdict_name(r->verdict));
}

/* A side's run-results file: FILE.json -> FILE.a.json; another name gets .a.json appended. */
static void side_path(char *path, size_t len, const char *json, const char *suffix)
{
	size_t n_base = strlen(json);

	if (n_base > 5 && !strcmp(json + n_base - 5, ".json"))
		n_base -= 5;
	snprintf(path, len, "%.*s.%s.json", (int)n_base, json, suffix);
}

/* --json's three files opened before the measurement (a bad path fails first). */
static int open_outputs(const char *json)
{
	char path[PATH_MAX];

	if (!xl_cmd_out_open(json))
		return -1;
	side_path(path, sizeof(path), json, "a");
	if (!xl_cmd_out_open(path))
		return -1;
	side_path(path, sizeof(path), json, "b");
	return xl_cmd_out_open(path) ? 0 : -1;
}

/* Each side's figures as a run-results file (one row, the same identity). */
static int write_side(const char *json, const char *suffix, struct ab_side *s, int n,
		      double slice_s)
{
	char path[PATH_MAX];
	/* No interval records; the interval is the slice (the schema wants one > 0). */
	struct xl_report_meta meta = { .reps = n < XL_MAX_REPS ? n : XL_MAX_REPS, .git = xl_cmd_git_commit(), .command = "ab",
				       .seconds = slice_s, .interval = slice_s };

	side_path(path, sizeof(path), json, suffix);
	xl_row_finish(s->row);
	return xl_cmd_report_json(path, &meta, s->row, 1) ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}

int cmd_ab(int argc, char **argv)
{
	static struct xl_row_result rows[2];
	struct ab_args a;
	struct xl_meter m XL_METER_SCOPED = { .napi_cpu = -1, .eth_sock = -1, .queues = 1 };
	struct xl_eth_xdp eth = { .sock = -1, .queues = 1 };
	struct ab_side sides[2] = { { 0 } };
	struct xl_ab_result cpu_r, pps_r;
	const char *ifname, *cpu_source;
	int idx, ifindex, ret = XL_EXIT_RUNTIME, r, k, done = 0, l2_err;
	double *mem = NULL;

	idx = xl_cmd_parse_iface(&ab_spec, argc, argv, NULL, &a, &ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	a.uo.fills = a.maps;
	if (!a.spec_of[0] || !a.spec_of[1]) {
		xl_usage_error(a.spec, "--a PROG and --b PROG are both required");
		return XL_EXIT_USAGE;
	}
	if (a.netns && (ret = xl_cmd_enter_netns(a.spec, a.netns)))
		return ret;
	ret = XL_EXIT_RUNTIME;
	ifindex = if_nametoindex(ifname);
	if (!ifindex) {
		xl_usage_error(a.spec, "interface '%s': no such interface", ifname);
		return XL_EXIT_USAGE;
	}
	if (a.json && open_outputs(a.json))
		return XL_EXIT_RUNTIME;
	eth.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(eth.ifname, sizeof(eth.ifname), "%s", ifname);
	eth.queues = xl_link_rx_queues(ifindex);
	if (eth.sock < 0 || xl_eth_xdp_probe(&eth)) {
		xl_err("%s has no per-action XDP counters in ethtool -S (known: veth's rx_queue_N_xdp_*): ab counts both sides with them",
		       ifname);
		ret = XL_EXIT_USAGE;
		goto out;
	}
	/* Whole frames' bytes when the sender's side says which came as skbs. */
	l2_err = xl_eth_xdp_peer_probe(&eth, ifindex);
	mem = calloc(4 * a.reps, sizeof(double));
	if (!mem)
		goto out;
	for (k = 0; k < 2; k++) {
		sides[k].spec = a.spec_of[k];
		sides[k].pps = mem + (2 * k) * a.reps;
		sides[k].cpu_ns = mem + (2 * k + 1) * a.reps;
		sides[k].row = &rows[k];
		r = side_load(&a, &sides[k], ifname);
		if (r) {
			ret = r;
			goto out;
		}
		/* The same identity on both rows, so xdplab compare pairs them (wiring, size below). */
		xl_cmd_row_init(&rows[k], "ab", NULL, "xdp", "ab", NULL, xl_xdp_mode_name(a.mode),
				NULL);
	}
	m.src = (struct xl_counter_src){ "ethtool-xdp", xl_eth_xdp_meter_read, &eth };
	m.eth_sock = eth.sock;
	m.ifname = ifname;
	m.queues = eth.queues;
	fprintf(stderr, "xdplab: ab on %s (%s mode): A = %s, B = %s; %llu repetitions of an A and a B slice of %.2f s (A first in even repetitions, B in odd), counted by the device's ethtool counters\n",
		XL_ESC(ifname), xl_xdp_mode_name(a.mode), XL_ESC(sides[0].name), XL_ESC(sides[1].name),
		(unsigned long long)a.reps, a.slice_ns / 1e9);
	if (!a.quiet)
		printf("%4s %12s %12s %12s %12s\n", "rep", "A Mpps", "A cpu-ns/pkt", "B Mpps", "B cpu-ns/pkt");
	{
		struct ab_run x = { .a = &a, .sides = sides, .m = &m, .ifindex = ifindex,
				    .ifname = ifname };
		struct xl_plan p = { .reps = (int)a.reps, .arms = 2, .scope = XL_PLAN_ONCE,
				     .window_ns = a.slice_ns, .stop = &xl_stop_requested, .cpu = -1,
				     .ops = &ab_ops, .ctx = &x };

		r = xl_plan_run(&p);
		done = p.done;
		if (r) {
			if (xl_stop_requested)
				xl_err("ab: stopped after %d complete repetitions", done);
			goto out;
		}
	}
	xl_ab_compare(sides[0].cpu_ns, sides[1].cpu_ns, done, false, 0, &cpu_r);
	xl_ab_compare(sides[0].pps, sides[1].pps, done, true, 0, &pps_r);
	pps_r.a_median /= 1e6;
	pps_r.b_median /= 1e6;
	pps_r.diff_median /= 1e6;
	pps_r.diff_lo /= 1e6;
	pps_r.diff_hi /= 1e6;
	printf("%-14s %10s %10s %11s  %-20s %8s  %s\n", "", "A median", "B median", "B-A median",
	       "95% CI", "p", "verdict");
	print_cmp("Mpps", &pps_r, 3);
	print_cmp("CPU ns/packet", &cpu_r, 1);
	printf("verdict: %s (CPU ns/packet, the paired difference over %d repetitions: median %+.1f ns, sign-test p %.4f; ~ unless p < 0.05)\n",
	       xl_ab_verdict_name(cpu_r.verdict), done, cpu_r.diff_median, cpu_r.p);
	printf("totals: A %llu packets in %.3f s, B %llu packets in %.3f s\n",
	       (unsigned long long)sides[0].packets, sides[0].ns / 1e9,
	       (unsigned long long)sides[1].packets, sides[1].ns / 1e9);
	cpu_source = sides[0].cpu_source ? sides[0].cpu_source : "none";
	printf("cpu figure: %s\n", m.napi_pid ?
	       "the DUT's threaded NAPI kthread's run time (schedstat, ns)" :
	       !strcmp(cpu_source, XL_CPU_SRC_TRACEPOINT) ?
	       "the judged CPU's NET_RX softirq time (irq:softirq_entry/exit tracepoints, ns)" :
	       !strcmp(cpu_source, XL_CPU_SRC_PROCSTAT_IRQTIME) ?
	       "the judged CPU's softirq time (/proc/stat with IRQ time accounting: no program, counted at each softirq's entry and exit, printed in 10 ms units)" :
	       "the judged CPU's softirq time (/proc/stat, 10 ms ticks: coarse in short slices; threaded NAPI gives ns, docs/own-program.md)");
	if (eth.l2)
		printf("frame size: the DUT's xdp_bytes over xdp_packets, %d bytes added per frame that came as an skb (veth counts it without its Ethernet header; the peer %s's tx_queue_N_xdp_xmit counts the others)\n",
		       XL_ETH_XDP_L2_HLEN, XL_ESC(eth.peer_name));
	else
		printf("frame size: the driver's byte count over packets (xdp_bytes / xdp_packets), possibly without the %d-byte L2 header: the sender's side cannot be read (%s)\n",
		       XL_ETH_XDP_L2_HLEN, l2_err == -ENODEV ? "the peer is not a veth" :
		       l2_err == -ENOENT ? "the peer's namespace has no name, or it has no xdp_xmit counters" :
		       strerror(-l2_err));
	/*
	 * The rows' identity as measured: where the NAPI ran (a kthread
	 * found in the slices: threaded) and the frames' mean size, from
	 * the device's own byte count (no FCS, as the lab's sizes; whole
	 * frames when eth.l2, said in the "frame size:" line).
	 */
	for (k = 0; k < 2; k++) {
		uint64_t n = sides[0].packets + sides[1].packets;

		rows[k].wiring = m.napi_pid ? "threaded" : "softirq";
		rows[k].size = n ? (uint32_t)((sides[0].bytes + sides[1].bytes + n / 2) / n) : 0;
	}
	ret = XL_EXIT_OK;
	if (a.json) {
		json_t *o = json_object();

		json_object_set_new(o, "command", json_string("ab"));
		json_object_set_new(o, "interface", json_string(ifname));
		json_object_set_new(o, "mode", json_string(xl_xdp_mode_name(a.mode)));
		json_object_set_new(o, "reps", json_integer(done));
		json_object_set_new(o, "slice_s", json_real(a.slice_ns / 1e9));
		json_object_set_new(o, "counted_by", json_string("ethtool"));
		json_object_set_new(o, "cpu_from", json_string(cpu_source));
		json_object_set_new(o, "size_from", json_string(eth.l2 ? "xdp_bytes+l2" : "xdp_bytes"));
		json_object_set_new(o, "a", side_json(&sides[0], done));
		json_object_set_new(o, "b", side_json(&sides[1], done));
		json_object_set_new(o, "cpu_ns_per_pkt", cmp_json(&cpu_r, "ns"));
		json_object_set_new(o, "mpps", cmp_json(&pps_r, "Mpps"));
		json_object_set_new(o, "verdict", json_string(xl_ab_verdict_name(cpu_r.verdict)));
		struct xl_afile *out = xl_cmd_out_open(a.json);

		if (!out || (json_dumpf(o, out->f, JSON_INDENT(1)), xl_cmd_out_commit(out)))
			ret = XL_EXIT_RUNTIME;
		json_decref(o);
		if (write_side(a.json, "a", &sides[0], done, a.slice_ns / 1e9) ||
		    write_side(a.json, "b", &sides[1], done, a.slice_ns / 1e9))
			ret = XL_EXIT_RUNTIME;
		else
			fprintf(stderr, "xdplab: results written to %s and, per side, to its .a.json and .b.json (xdplab compare reads them)\n",
				XL_ESC(a.json));
	}
out:
	for (k = 0; k < 2; k++) {
		xl_bench__destroy(sides[k].b);
		xl_userprog__destroy(sides[k].u);
	}
	xl_eth_xdp_close(&eth);
	if (eth.sock >= 0)
		close(eth.sock);
	free(mem);
	return ret;
}
