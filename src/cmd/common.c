// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the commands share: the common options (--interval, --duration,
 * --extended, --netns, --quiet, --packet-operation, --mode), entering a
 * namespace,
 * and the per-CPU lines of --extended.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "cmd.h"
#include "profile_cli.h"
#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/netns.h"
#include "xdplab/pkt.h"
#include "xdplab/report.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"
#include "xdplab/userprog.h"

int xl_cmd_enter_netns(const struct xl_cmd_spec *spec, const char *name)
{
	char path[300];
	int err;

	if (strchr(name, '/') || !*name) {
		xl_usage_error(spec, "--netns: '%s' is not a namespace name (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	err = xl_netns_enter_path(path, NULL); /* for good: the whole run is there */
	if (err == -ENOENT || err == -EACCES) {
		xl_usage_error(spec, "--netns: no namespace '%s' (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	if (err) {
		xl_err("cannot enter namespace %s: %s", name, strerror(-err));
		return XL_EXIT_RUNTIME;
	}
	return XL_EXIT_OK;
}

int xl_cmd_mac_opt(int id, const char *arg, const char **src_mac, const char **dst_mac)
{
	switch (id) {
	case XL_OPT_SRC_MAC:
		*src_mac = arg;
		return 0;
	case XL_OPT_DST_MAC:
		*dst_mac = arg;
		return 0;
	}
	return 1;
}

int xl_cmd_userprog_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
			struct xl_userprog_opts *uo, const char **maps)
{
	switch (id) {
	case XL_OPT_SEC:
		uo->sec = arg;
		return 0;
	case XL_OPT_FUNC:
		uo->func = arg;
		return 0;
	case XL_OPT_MAP:
		if (uo->nfills == XL_USERPROG_MAX_FILLS)
			return xl_usage_error(spec, "--map: at most %d maps", XL_USERPROG_MAX_FILLS);
		maps[uo->nfills++] = arg;
		return 0;
	}
	return 1;
}

int xl_cmd_run_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
		   const struct xl_run_opts *r)
{
	switch (id) {
	case XL_OPT_INTERVAL:
		if (r->interval_ns)
			return xl_parse_seconds(spec, "--interval", arg, 0.1, 60, r->interval_ns);
		break;
	case XL_OPT_DURATION:
		if (r->duration_ns)
			return xl_parse_seconds(spec, "--duration", arg, 0, 86400 * 365,
						r->duration_ns);
		break;
	case XL_OPT_EXTENDED:
		if (r->extended) {
			*r->extended = true;
			return 0;
		}
		break;
	case XL_OPT_NETNS:
		if (r->netns) {
			*r->netns = arg;
			return 0;
		}
		break;
	case XL_OPT_QUIET:
		if (r->quiet) {
			*r->quiet = true;
			return 0;
		}
		break;
	case XL_OPT_FRAGS:
		if (r->frags) {
			*r->frags = true;
			return 0;
		}
		break;
	case XL_OPT_REPS:
		if (r->reps) {
			uint64_t v;
			int e = xl_parse_u64(spec, "--reps", arg, 1, XL_MAX_REPS, &v);

			if (!e)
				*r->reps = (int)v;
			return e;
		}
		break;
	case XL_OPT_JSON:
		if (r->json) {
			*r->json = arg;
			return 0;
		}
		break;
	case XL_OPT_PACKET_OP:
		if (r->op) {
			static const char *const ops[] = { "no-touch", "read-data", "parse-ip",
							   "swap-macs", NULL };
			int c = xl_parse_choice(spec, "--packet-operation", arg, ops);

			if (c < 0)
				return c;
			*r->op = c;
			return 0;
		}
		break;
	case XL_OPT_MODE:
		if (r->mode) {
			static const char *const modes[] = { "native", "skb", "drv", NULL };
			int c = xl_parse_choice(spec, "--mode", arg, modes);

			if (c < 0)
				return c;
			*r->mode = c == 2 ? XL_MODE_NATIVE : c; /* drv: native */
			return 0;
		}
		break;
	}
	return 1;
}

int xl_cmd_parse_iface(const struct xl_cmd_spec *spec, int argc, char **argv,
		       xl_opt_handler handler, void *ctx, const char **ifname)
{
	int idx = xl_opts_parse(spec, argc, argv, handler, ctx);

	if (idx == XL_OPTS_HELP || idx < 0)
		return idx == XL_OPTS_HELP ? XL_OPTS_HELP : -EINVAL;
	if (idx != argc - 1)
		return xl_usage_error(spec, idx >= argc ? "missing IFACE (see --help)" :
							  "one IFACE expected, got '%s' too", argv[argc - 1]);
	*ifname = argv[idx];
	return 0;
}

int xl_cmd_check_reps(const struct xl_cmd_spec *spec, int reps, uint64_t duration_ns)
{
	if (reps > 1 && !duration_ns) {
		xl_usage_error(spec, "--reps %d needs --duration SECONDS (each repetition is one window of --duration)",
			       reps);
		return -EINVAL;
	}
	return 0;
}

/* The report loop's state between the sampler's callbacks. */
struct loop_run {
	const struct xl_cmd_loop *l;
	struct xl_meter_sample *s; /* XL_SAMPLER_SLOTS samples */
	struct xl_meter_window rep, *total;
	int rep_no, status;
};

static int loop_sample(void *ctx, int slot)
{
	struct loop_run *lr = ctx;
	int err = xl_meter_sample(lr->l->m, &lr->s[slot]);

	return err ? err : lr->l->sampled ? lr->l->sampled(lr->l->ctx) : 0;
}

static int loop_alive(void *ctx)
{
	struct loop_run *lr = ctx;

	lr->status = lr->l->alive(lr->l->ctx);
	return lr->status == XL_EXIT_OK ? XL_SAMPLER_GO : -1;
}

static void loop_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct loop_run *lr = ctx;
	const struct xl_cmd_loop *l = lr->l;
	struct xl_meter_window w;

	/*
	 * The NAPI kthread was looked up once, before the run (the row's
	 * wiring says which): not again every interval, which walked all of
	 * /proc each second in softirq wiring, where there is none.
	 */
	xl_meter_window(l->m, &lr->s[from], &lr->s[to], &w);
	xl_meter_window_add(&lr->rep, &w);
	xl_meter_window_add(lr->total, &w);
	if (l->rec) {
		struct xl_rep_result r;

		xl_meter_window_rep(&w, &r);
		xl_cmd_records_add(l->rec, t_ns / 1e9, lr->rep_no, &r);
	}
	if (partial || l->quiet)
		return;
	l->print(l->ctx, &w, t_ns / 1e9);
	/* SIGQUIT flips the per-CPU lines while running (xdp-bench's toggle). */
	if (l->extended != (xl_extended_toggles & 1))
		xl_cmd_print_cpus(&lr->s[from], &lr->s[to], w.ns);
}

/* A repetition cut short (Ctrl-C, a vanished device) is no repetition; its counts stay in the totals. */
static void loop_rep_end(void *ctx, int rep, bool complete)
{
	struct loop_run *lr = ctx;
	struct xl_row_result *row = lr->l->row;

	if (row && complete && lr->rep.ns && row->nreps < XL_MAX_REPS)
		xl_meter_window_rep(&lr->rep, &row->reps[row->nreps++]);
	xl_meter_window_zero(&lr->rep);
	lr->rep_no = rep + 1;
}

int xl_cmd_report_loop(const struct xl_cmd_loop *l, struct xl_meter_window *total)
{
	static struct xl_meter_sample s[XL_SAMPLER_SLOTS];
	struct loop_run lr = { .l = l, .s = s, .total = total };
	struct xl_sampler sm = { .interval_ns = l->interval_ns, .duration_ns = l->duration_ns,
				 .reps = l->reps, .stop = &xl_stop_requested,
				 .sample = loop_sample, .alive = loop_alive,
				 .interval = loop_interval, .rep_end = loop_rep_end, .ctx = &lr };
	int err;

	xl_meter_window_zero(total);
	xl_meter_window_zero(&lr.rep);
	if (l->row)
		l->row->nreps = 0;
	err = xl_sampler_run(&sm);
	if (l->row)
		xl_cmd_row_finish(l->row, total);
	if (err == -1)
		return lr.status;
	return err ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}

void xl_cmd_records_add(struct xl_cmd_records *rec, double t, int rep,
			const struct xl_rep_result *r)
{
	if (rec->n == rec->cap) {
		int cap = rec->cap ? rec->cap * 2 : 64;
		struct xl_interval_rec *v = realloc(rec->v, cap * sizeof(*v));

		if (!v)
			return; /* the file then lacks the later records; said at write */
		rec->v = v;
		rec->cap = cap;
	}
	rec->v[rec->n].t = t;
	rec->v[rec->n].rep = rep;
	rec->v[rec->n].r = *r;
	rec->n++;
}

void xl_cmd_row_init(struct xl_row_result *row, const char *name, const char *suffix,
		     const char *kind, const char *action, const char *op, const char *mode,
		     const char *wiring)
{
	memset(row, 0, sizeof(*row));
	if (suffix)
		snprintf(row->name, sizeof(row->name), "%s/%s", name, suffix);
	else
		snprintf(row->name, sizeof(row->name), "%s", name);
	row->kind = kind;
	row->action = action;
	row->op = op;
	row->mode = mode;
	row->wiring = wiring;
	row->napi_cpu = -1;
	row->gen_cpu = -1;
	row->engine = "external";
	row->judged = "dut-cpu";
}

void xl_cmd_row_finish(struct xl_row_result *row, const struct xl_meter_window *total)
{
	/* Our bytes count frames without FCS, as the lab's size does. */
	row->size = total->packets ? (uint32_t)((total->bytes + total->packets / 2) /
						 total->packets) : 0;
	row->napi_cpu = total->napi_cpu;
	xl_row_finish(row);
}

void xl_cmd_print_verdict(const struct xl_row_result *row)
{
	char busy[64] = "";

	if (!row->nreps) {
		printf("verdict: n/a (no complete window)\n");
		return;
	}
	if (row->judged && !strcmp(row->judged, "app-cpu"))
		snprintf(busy, sizeof(busy), " (app threads busy %.1f%%, median of %d)",
			 row->cpu_busy * 100, row->nreps);
	else if (row->napi_cpu >= 0)
		snprintf(busy, sizeof(busy), " (cpu%d busy %.1f%%, median of %d)", row->napi_cpu,
			 row->cpu_busy * 100, row->nreps);
	printf("verdict: %s%s; median %.3f Mpps (%.3f-%.3f), CPU %.1f ns/packet\n",
	       xl_row_verdict(row), busy, row->mpps.median, row->mpps.min, row->mpps.max,
	       row->cpu_ns_per_pkt);
}

int xl_cmd_pkt_macs(const struct xl_cmd_spec *spec, const char *ifname, const char *src_mac,
		    const char *dst_mac, struct xl_pkt_spec *s, struct xl_link_info *li)
{
	struct xl_link_info me, peer;
	int ifindex = if_nametoindex(ifname);

	if (!ifindex || xl_link_get(ifindex, -1, &me))
		return -ENODEV;
	memcpy(s->src_mac, me.mac, 6);
	memset(s->dst_mac, 0xff, 6);
	if (!strcmp(me.kind, "veth") && me.peer_ifindex &&
	    !xl_link_get(me.peer_ifindex, me.peer_netnsid, &peer))
		memcpy(s->dst_mac, peer.mac, 6);
	if (src_mac && xl_mac_parse(src_mac, s->src_mac))
		return xl_usage_error(spec, "--src-mac: '%s' is not a MAC address (accepted: aa:bb:cc:dd:ee:ff)",
				      src_mac);
	if (dst_mac && xl_mac_parse(dst_mac, s->dst_mac))
		return xl_usage_error(spec, "--dst-mac: '%s' is not a MAC address (accepted: aa:bb:cc:dd:ee:ff)",
				      dst_mac);
	if (li)
		*li = me;
	return 0;
}

void xl_cmd_print_check(const struct xl_meter_window *w, int queues)
{
	char range[16] = "";

	if (!w->eth_ok)
		return;
	if (queues > 1)
		snprintf(range, sizeof(range), "..%d", queues - 1);
	printf("check: kernel rx_queue_0%s_xdp_packets %llu (disagreement %.3f%%)\n", range,
	       (unsigned long long)w->eth_packets, w->disagreement * 100);
}

int xl_cmd_json_finish(const char *path, const char *command, const struct xl_cmd_loop *l,
		       const struct xl_row_result *row, int ret)
{
	if (path && xl_cmd_write_json(path, command, l, row) && ret == XL_EXIT_OK)
		ret = XL_EXIT_RUNTIME;
	if (l->rec) {
		free(l->rec->v);
		l->rec->v = NULL;
		l->rec->n = l->rec->cap = 0;
	}
	return ret;
}

int xl_cmd_profiled_finish(const char *path, const char *command, const struct xl_cmd_loop *l,
			   struct xl_row_result *row, struct xl_profile *pr, int ret)
{
	if (pr->samples) {
		xl_cmd_prof_print(stdout, pr, "", XL_PROF_TOP);
		row->profile = pr;
	}
	return xl_cmd_json_finish(path, command, l, row, ret);
}

const char *xl_cmd_git_commit(void)
{
	static char buf[64];
	FILE *p = popen("git rev-parse --short=12 HEAD 2>/dev/null", "r");

	buf[0] = '\0';
	if (p) {
		if (fgets(buf, sizeof(buf), p))
			buf[strcspn(buf, "\n")] = '\0';
		pclose(p);
	}
	return buf;
}

int xl_cmd_write_json(const char *path, const char *command, const struct xl_cmd_loop *l,
		      const struct xl_row_result *row)
{
	struct xl_report_meta meta = {
		.reps = l->reps > 0 ? l->reps : 1, .seconds = l->duration_ns / 1e9,
		.git = xl_cmd_git_commit(), .command = command,
		.interval = l->interval_ns / 1e9,
		.intervals = l->rec ? l->rec->v : NULL, .nintervals = l->rec ? l->rec->n : 0,
	};

	if (xl_report_json(path, &meta, row, 1)) {
		xl_err("cannot write --json %s", path);
		return XL_EXIT_RUNTIME;
	}
	fprintf(stderr, "xdplab: results written to %s\n", path);
	return XL_EXIT_OK;
}

void xl_cmd_print_cpus(const struct xl_meter_sample *a, const struct xl_meter_sample *b,
		       uint64_t ns)
{
	int i, n = xl_bench_detail_ncpus();

	for (i = 0; i < n; i++) {
		uint64_t d = b->per_cpu[i].rx_packets - a->per_cpu[i].rx_packets;
		uint64_t e = b->per_cpu[i].errors - a->per_cpu[i].errors;
		char b1[32], b2[32];

		if (!d && !e)
			continue;
		if (!a->cpu_ok[i] || !b->cpu_ok[i]) {
			printf("            cpu%-3d rx/s %12s  err/s %s  busy - (unreadable)\n", i,
			       xl_fmt_thousands((uint64_t)xl_rate(d, ns), b1, sizeof(b1)),
			       xl_fmt_thousands((uint64_t)xl_rate(e, ns), b2, sizeof(b2)));
			continue;
		}
		printf("            cpu%-3d rx/s %12s  err/s %s  busy %.1f%%\n", i,
		       xl_fmt_thousands((uint64_t)xl_rate(d, ns), b1, sizeof(b1)),
		       xl_fmt_thousands((uint64_t)xl_rate(e, ns), b2, sizeof(b2)),
		       xl_cpu_busy_share(&a->cpu[i], &b->cpu[i]) * 100);
	}
}

void xl_cmd_print_extra(const struct xl_extra_cal *cal)
{
	fprintf(stderr, "xdplab: --extra-ns %.0f: %u busy-loop iterations x %.3f ns (calibration rounds %.3f..%.3f) = %.1f ns per packet; BPF_PROG_RUN check: %+.0f ns over the program's %.0f ns\n",
		cal->target_ns, cal->iters, cal->ns_per_iter, cal->ns_per_iter_min,
		cal->ns_per_iter_max, cal->set_ns, cal->check_ns, cal->base_ns);
}

unsigned int xl_cmd_attached_prog_id(int ifindex, enum xl_xdp_mode mode)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (bpf_xdp_query(ifindex, 0, &q))
		return 0;
	return mode == XL_MODE_SKB ? q.skb_prog_id : q.drv_prog_id;
}

int xl_cmd_xdp_alive(int ifindex, const char *ifname, enum xl_xdp_mode mode,
		     unsigned int prog_id)
{
	if (!if_indextoname(ifindex, (char[IF_NAMESIZE]){ 0 })) {
		xl_err("interface %s vanished during the run", ifname);
		return XL_EXIT_RUNTIME;
	}
	if (prog_id && xl_cmd_attached_prog_id(ifindex, mode) != prog_id) {
		xl_err("%s: the XDP program (id %u) was detached by someone else (xdplab cleanup?); stopping",
		       ifname, prog_id);
		return XL_EXIT_RUNTIME;
	}
	return XL_EXIT_OK;
}

void xl_cmd_cpu_cell(char *buf, size_t len, const struct xl_meter_window *w)
{
	/* No packets in the window: no CPU to judge and no cost per packet. */
	if (w->napi_cpu < 0 || !w->packets)
		snprintf(buf, len, "cpu - busy -  cpu-ns/packet -");
	else
		snprintf(buf, len, "cpu%d busy %.1f%%  cpu-ns/packet %.1f", w->napi_cpu,
			 w->cpu_busy * 100, w->cpu_ns_per_pkt);
}

int xl_cmd_dut_queues(int ifindex)
{
	struct xl_link_info li;

	if (xl_link_get(ifindex, -1, &li) || li.rx_queues < 1)
		return 1;
	return li.rx_queues > XL_ETHTOOL_MAX_QUEUES ? XL_ETHTOOL_MAX_QUEUES : li.rx_queues;
}
