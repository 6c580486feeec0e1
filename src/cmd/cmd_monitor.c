// SPDX-License-Identifier: BSD-2-Clause
/* xdplab monitor: count the xdp tracepoints by event, action, ifindex, errno. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cmd.h"
#include "sig.h"
#include "json_cli.h"
#include "monitor_cli.h"
#include "prom_cli.h"
#include "run_opts.h"
#include "xdplab/errgate.h"
#include "xdplab/log.h"
#include "xdplab/monitor.h"
#include "xdplab/netns.h"
#include "xdplab/report.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"

enum { O_DEV };

struct mon_args {
	struct xl_monitor_opts o;
	uint64_t interval_ns, duration_ns;
	bool quiet, extended;
	const char *json, *prom; /* --json, --prometheus */
	const char *dev[XL_MON_MAX_DEVS]; /* --dev as given */
	int ndev;
	bool lazy;
	struct xl_errgate_dev gdev[XL_MON_MAX_DEVS]; /* --lazy: each --dev's socket (owned) */
};

#define A struct mon_args
static const char *const attach_kinds[] = { "auto", "btf", "raw", NULL };

static const struct xl_opt mon_opts[] = {
	{ "all", 'a', NULL, "also count the success path (xdp_redirect) and every cpumap/devmap bulk",
	  .alias = "stats", XL_FLAG(A, o.all) },
	XL_RUN(INTERVAL, A, interval_ns),
	XL_RUN(DURATION, A, duration_ns),
	XL_RUN(JSON, A, json, .help = "also write each interval and the totals as JSON (docs/results.md)"),
	{ "attach", 0, "KIND", "auto (default: tp_btf with kernel BTF, else raw_tp), btf or raw",
	  XL_ENUM(A, o.attach, attach_kinds, NULL) },
	{ "dev", 0, "[NETNS:]IFACE", "count only this device's events (repeatable, up to 8; NETNS: a name under /run/netns, else ours); needs tp_btf", O_DEV, .repeatable = true },
	{ "lazy", 0, NULL, "attach no tracepoint until an error counter of a --dev device moves (ethtool -S: drops, xdp_tx_errors, xdp_xmit_errors); needs --dev, not with --all",
	  XL_FLAG(A, lazy) },
	XL_RUN(QUIET, A, quiet),
	XL_RUN(EXTENDED, A, extended,
	       .help = "also a row per CPU under each key, packets per event (the bulks' average size) and the cpumap kthread's sched count (xdp-monitor's -e)"),
	XL_RUN(PROMETHEUS, A, prom),
};
#undef A

static const struct mon_args mon_defaults = { .interval_ns = 1000000000ull };

static const struct xl_cmd_spec mon_spec = {
	"monitor", "",
	"Count the xdp tracepoints (all namespaces) by event, action, ifindex and errno; errors only unless --all.",
	mon_opts, sizeof(mon_opts) / sizeof(mon_opts[0]), &mon_defaults, sizeof(mon_defaults),
};

/* --dev: a list, its devices looked up once parsed. */
static int on_opt(int id, const char *arg, void *ctx)
{
	struct mon_args *a = ctx;

	if (a->ndev == XL_MON_MAX_DEVS) {
		xl_usage_error(&mon_spec, "--dev: more than %d devices (accepted: 1..%d)",
			       XL_MON_MAX_DEVS, XL_MON_MAX_DEVS);
		return -EINVAL;
	}
	a->dev[a->ndev++] = arg;
	return 0;
}

/*
 * What the sampler's callbacks need: three snapshots, each stamped; with
 * --lazy, the devices' error counters of each slot too (read while no
 * tracepoint is attached), what moved before the attach, and when.
 */
struct mon_run {
	struct xl_monitor *m;
	const struct mon_args *a;
	struct xl_mon_snapshot s[XL_SAMPLER_SLOTS];
	struct xl_mon_snapshot *cpus[XL_SAMPLER_SLOTS]; /* -e: ncpus each (owned), else NULL */
	int ncpus;                                       /* -e: xl_monitor__ncpus(), else 0 */
	struct xl_mon_val *d;                            /* -e: ncpus deltas (owned) */
	uint64_t t[XL_SAMPLER_SLOTS];
	json_t *intervals; /* --json: the interval records; NULL without */
	struct xl_errgate_snap g[XL_SAMPLER_SLOTS];
	bool attached;      /* --lazy: the tracepoints are attached (always without it) */
	double attached_t;  /* the interval's end, s, at which they were */
	int attach_err;     /* -errno of a failed attach, 0 */
	uint64_t moved[XL_MON_MAX_DEVS][XL_ERRGATE_CTRS]; /* counted by the counters, before the attach */
};

static int mon_sample(void *ctx, int slot)
{
	struct mon_run *r = ctx;
	int err = xl_monitor__read_cpus(r->m, &r->s[slot], r->cpus[slot], r->ncpus);

	if (!r->attached)
		xl_errgate_read(r->a->gdev, r->a->ndev, &r->g[slot]);
	r->t[slot] = xl_now_ns();
	return err ? -EIO : 0;
}

/* The kernel's ids of the monitor's programs, as " 12 13 14" into @buf. */
static void prog_ids_text(struct xl_monitor *m, char *buf, size_t len)
{
	uint32_t ids[XL_EV__COUNT];
	int i, n = xl_monitor__prog_ids(m, ids, XL_EV__COUNT), k = 0;

	buf[0] = 0;
	for (i = 0; i < n && i < XL_EV__COUNT && k >= 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - k, " %u", ids[i]);
}

/*
 * --lazy, before the attach: the counters that moved in the window, printed
 * (unless -q or a partial window) and added to the JSON record @rec; when
 * any did, the tracepoints are attached now, said on stderr with the
 * programs' ids. Return: how many counters moved.
 */
static int gate_interval(struct mon_run *r, int from, int to, double t, bool partial, json_t *rec)
{
	struct xl_errgate_move mv[XL_MON_MAX_DEVS * XL_ERRGATE_CTRS];
	json_t *arr = rec ? json_array() : NULL;
	char ids[128];
	int i, n = xl_errgate_moved(&r->g[from], &r->g[to], r->a->ndev, mv,
				    XL_MON_MAX_DEVS * XL_ERRGATE_CTRS);

	for (i = 0; i < n; i++) {
		const char *dev = r->a->dev[mv[i].dev], *ctr = xl_errgate_ctr_name(mv[i].ctr);

		r->moved[mv[i].dev][mv[i].ctr] += mv[i].delta;
		if (!partial && !r->a->quiet)
			printf("%8.3f s  %-21s %s %s %llu\n", t, "counter", XL_ESC(dev), ctr,
			       (unsigned long long)mv[i].delta);
		if (arr)
			json_array_append_new(arr, json_pack("{s:s,s:s,s:I}", "dev", dev,
							     "counter", ctr,
							     "delta", (json_int_t)mv[i].delta));
	}
	if (rec)
		json_object_set_new(rec, "counters", arr);
	if (!n)
		return 0;
	r->attach_err = xl_monitor__attach(r->m);
	if (r->attach_err) {
		xl_err("monitor --lazy: cannot attach the tracepoints: %s", strerror(-r->attach_err));
		return n;
	}
	r->attached = true;
	r->attached_t = t;
	prog_ids_text(r->m, ids, sizeof(ids));
	fprintf(stderr, "xdplab monitor: %s %s moved by %llu at %.3f s: attached (program ids%s)\n",
		XL_ESC(r->a->dev[mv[0].dev]), xl_errgate_ctr_name(mv[0].ctr),
		(unsigned long long)mv[0].delta, t, ids);
	fflush(stdout);
	return n;
}

static void mon_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct mon_run *r = ctx;
	uint64_t ns = r->t[to] - r->t[from];
	struct xl_mon_cpus pc = { r->cpus[from], r->cpus[to], r->ncpus, r->d };
	json_t *rec = r->intervals ? xl_mon_cli_json("interval", t_ns / 1e9, &r->s[from], &r->s[to], ns,
					      &pc) : NULL;
	bool gated = !r->attached && !r->attach_err;

	if (!partial && !r->a->quiet && (!gated || !xl_errgate_moved(&r->g[from], &r->g[to],
								      r->a->ndev, NULL, 0)))
		xl_mon_cli_print(t_ns / 1e9, &r->s[from], &r->s[to], ns, &pc);
	if (gated)
		gate_interval(r, from, to, t_ns / 1e9, partial, rec);
	if (rec)
		json_array_append_new(r->intervals, rec);
	if (r->a->prom) /* the counts since the start, every key */
		xl_cmd_prom_write(r->a->prom, xl_cmd_prom_mon_fill,
				  &(struct xl_cmd_prom_mon){ &r->s[to], (r->t[to] - r->t[0]) / 1e9 });
}

/* The --json file: the lab's document with monitor's records (docs/results.md). */
static int write_json(const struct mon_args *a, struct mon_run *r, int last)
{
	json_t *x = json_object();
	char *text;
	int err;

	json_object_set_new(x, "intervals", json_incref(r->intervals));
	json_object_set_new(x, "totals", xl_mon_cli_json("totals", (r->t[last] - r->t[0]) / 1e9, NULL,
						  &r->s[last], 0,
						  &(struct xl_mon_cpus){ NULL, r->cpus[last], r->ncpus, r->d }));
	json_object_set_new(x, "monitor", json_pack("{s:b,s:s,s:b,s:b}", "all", a->o.all, "attach",
						    xl_monitor__attach_kind(r->m), "lazy", a->lazy,
						    "extended", a->extended));
	if (a->lazy) {
		json_t *mon = json_object_get(x, "monitor"), *ids = json_array();
		uint32_t id[XL_EV__COUNT];
		int i, n = xl_monitor__prog_ids(r->m, id, XL_EV__COUNT);

		for (i = 0; i < n && i < XL_EV__COUNT; i++)
			json_array_append_new(ids, json_integer(id[i]));
		json_object_set_new(mon, "prog_ids", ids);
		json_object_set_new(mon, "attached_t",
				    r->attached ? json_real(r->attached_t) : json_null());
	}
	if (a->ndev) {
		json_t *devs = json_array();
		int i;

		for (i = 0; i < a->ndev; i++)
			json_array_append_new(devs, json_pack("{s:s,s:i}", "dev", a->dev[i],
							      "ifindex", (int)a->o.devs[i].ifindex));
		json_object_set_new(json_object_get(x, "monitor"), "devs", devs);
	}
	text = json_dumps(x, JSON_COMPACT);
	json_decref(x);
	if (!text)
		xl_err("cannot write %s: %s", a->json, strerror(ENOMEM));
	err = text ? xl_cmd_report_json(a->json, &(struct xl_report_meta){
			.reps = 1, .seconds = a->duration_ns / 1e9, .git = xl_cmd_git_commit(),
			.command = "monitor", .interval = a->interval_ns / 1e9,
			.schema = XL_MONITOR_RESULTS_SCHEMA, .extra_json = text }, NULL, 0) : -ENOMEM;
	free(text);
	if (err)
		return XL_EXIT_RUNTIME;
	fprintf(stderr, "xdplab: results written to %s\n", XL_ESC(a->json));
	return XL_EXIT_OK;
}

/*
 * --dev [NETNS:]IFACE: the device's namespace inode and ifindex (as the
 * lab's --with-monitor filter: struct xl_mon_dev) and, when @gd is not
 * NULL (--lazy), a socket in its namespace and its name, for its error
 * counters (@gd->sock -1 unless made: the caller checks and closes it). A usage error
 * (one line naming it) when the namespace or the interface does not exist.
 */
static int resolve_dev(const char *spec, struct xl_mon_dev *d, struct xl_errgate_dev *gd)
{
	char ns[NAME_MAX + 1] = "", path[PATH_MAX];
	const char *ifname = spec, *colon = strchr(spec, ':');
	struct xl_netns_saved saved;
	struct stat st;
	unsigned int ifindex;

	if (colon) {
		if (colon == spec || (size_t)(colon - spec) > NAME_MAX || !colon[1]) {
			xl_usage_error(&mon_spec, "--dev: '%s' is not [NETNS:]IFACE", spec);
			return -EINVAL;
		}
		snprintf(ns, sizeof(ns), "%.*s", (int)(colon - spec), spec);
		ifname = colon + 1;
	}
	snprintf(path, sizeof(path), ns[0] ? "/run/netns/%s" : "/proc/self/ns/net", ns);
	if (stat(path, &st)) {
		xl_usage_error(&mon_spec, "--dev %s: no namespace '%s' (see 'ip netns')", spec, ns);
		return -ENOENT;
	}
	if (ns[0] && xl_netns_enter_path(path, &saved)) {
		xl_usage_error(&mon_spec, "--dev %s: cannot enter namespace '%s'", spec, ns);
		return -EPERM;
	}
	ifindex = if_nametoindex(ifname);
	if (gd && ifindex) {
		gd->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0); /* bound to this netns */
		snprintf(gd->ifname, sizeof(gd->ifname), "%s", ifname);
	}
	if (ns[0])
		xl_netns_restore(&saved);

	if (!ifindex) {
		xl_usage_error(&mon_spec, "--dev %s: no interface '%s' in %s", spec, ifname,
			       ns[0] ? ns : "this namespace");
		return -ENODEV;
	}
	d->netns = (__u32)st.st_ino;
	d->ifindex = ifindex;
	return 0;
}

/* --lazy: what the counters counted before the attach, or that none moved. */
static void print_gate_totals(const struct mon_run *r)
{
	int d, k, n = 0;

	for (d = 0; d < r->a->ndev; d++)
		for (k = 0; k < XL_ERRGATE_CTRS; k++) {
			if (!r->moved[d][k])
				continue;
			printf("  counter %s %s %llu (before the attach)\n", XL_ESC(r->a->dev[d]),
			       xl_errgate_ctr_name(k), (unsigned long long)r->moved[d][k]);
			n++;
		}
	if (!n)
		printf("  no error counter moved: no tracepoint was attached\n");
	else if (r->attached)
		printf("  tracepoints attached at %.3f s\n", r->attached_t);
}

/* --lazy's sockets, each closed once (-1: none). */
static void close_gate(struct mon_args *a)
{
	int i;

	for (i = 0; i < a->ndev; i++) {
		if (a->gdev[i].sock >= 0)
			close(a->gdev[i].sock);
		a->gdev[i].sock = -1;
	}
}

/*
 * --lazy before the run: the tracepoints off again, and every device's
 * error counters read once into @r's first slot. Return: 0, or -errno
 * (said on stderr).
 */
static int gate_start(struct mon_args *a, struct mon_run *r)
{
	struct xl_errgate_snap *g = &r->g[0];
	int i, err = xl_monitor__detach(r->m);

	if (err) {
		xl_err("monitor --lazy: cannot detach the tracepoints: %s", strerror(-err));
		return err;
	}
	for (i = 0; i < a->ndev; i++)
		if (a->gdev[i].sock < 0) {
			xl_err("monitor --lazy: cannot open a socket for %s", XL_ESC(a->dev[i]));
			return -EIO;
		}
	xl_errgate_read(a->gdev, a->ndev, g);
	for (i = 0; i < a->ndev; i++)
		if (!g->ok[i]) {
			xl_err("monitor --lazy: %s has no error counters %s, %s, %s (veth's names): watch it without --lazy",
			       XL_ESC(a->dev[i]), xl_errgate_ctr_name(0), xl_errgate_ctr_name(1),
			       xl_errgate_ctr_name(2));
			return -EOPNOTSUPP;
		}
	return 0;
}

/* -e: the per-CPU snapshots of every slot and the deltas' room; 0 or -ENOMEM. */
static int alloc_cpus(struct mon_run *r, int ncpus)
{
	int i;

	r->ncpus = ncpus;
	r->d = calloc(ncpus, sizeof(*r->d));
	for (i = 0; i < XL_SAMPLER_SLOTS; i++)
		r->cpus[i] = calloc(ncpus, sizeof(*r->cpus[i]));
	for (i = 0; i < XL_SAMPLER_SLOTS; i++)
		if (!r->cpus[i] || !r->d)
			return -ENOMEM;
	return 0;
}

static void free_cpus(struct mon_run *r)
{
	int i;

	for (i = 0; i < XL_SAMPLER_SLOTS; i++) {
		free(r->cpus[i]);
		r->cpus[i] = NULL;
	}
	free(r->d);
	r->d = NULL;
	r->ncpus = 0;
}

int cmd_monitor(int argc, char **argv)
{
	static struct mon_run r;
	struct mon_args a;
	struct xl_sampler sm;
	const char *names[XL_EV__COUNT];
	struct xl_monitor *m;
	char ids[128];
	int idx, i, n, ret = XL_EXIT_OK;

	idx = xl_opts_parse(&mon_spec, argc, argv, on_opt, &a);
	/* After the parse: it copies the default struct (zeros) over all of @a. */
	for (i = 0; i < XL_MON_MAX_DEVS; i++)
		a.gdev[i].sock = -1;
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc) {
		xl_usage_error(&mon_spec, "unexpected argument '%s' (tracepoints are global: no interface or --netns)",
			       argv[idx]);
		return XL_EXIT_USAGE;
	}
	if (a.lazy && (!a.ndev || a.o.all)) {
		xl_usage_error(&mon_spec, a.o.all ?
			       "--lazy with --all: the success path --all counts moves no error counter" :
			       "--lazy needs --dev [NETNS:]IFACE: the devices whose error counters are read");
		return XL_EXIT_USAGE;
	}
	for (i = 0; i < a.ndev; i++)
		if (resolve_dev(a.dev[i], &a.o.devs[i], a.lazy ? &a.gdev[i] : NULL)) {
			close_gate(&a);
			return XL_EXIT_USAGE;
		}
	a.o.ndevs = a.ndev;
	if ((a.json && !xl_cmd_out_open(a.json)) || (a.prom && xl_cmd_prom_check(a.prom))) {
		close_gate(&a); /* a bad path fails before the run */
		return XL_EXIT_RUNTIME;
	}
	m = xl_monitor__create(&a.o);
	if (!m) {
		close_gate(&a);
		return XL_EXIT_RUNTIME;
	}
	r.m = m;
	r.a = &a;
	r.attached = !a.lazy;
	if (a.extended && alloc_cpus(&r, xl_monitor__ncpus(m))) {
		xl_err("monitor -e: cannot allocate the per-CPU counts: %s", strerror(ENOMEM));
		ret = XL_EXIT_RUNTIME;
		goto out_destroy;
	}
	if (a.lazy && gate_start(&a, &r)) {
		ret = XL_EXIT_RUNTIME;
		goto out_destroy;
	}
	n = xl_monitor__skipped(m, names, XL_EV__COUNT);
	for (i = 0; i < n; i++)
		fprintf(stderr, "xdplab monitor: tracepoint %s is not in this kernel: skipped\n",
			names[i]);
	n = xl_monitor__attached(m, names, XL_EV__COUNT);
	fprintf(stderr, "xdplab monitor: %s on", xl_monitor__attach_kind(m));
	for (i = 0; i < n; i++)
		fprintf(stderr, " %s", names[i]);
	fprintf(stderr, " (%s", a.o.all ? "all events" : "errors only");
	for (i = 0; i < a.ndev; i++)
		fprintf(stderr, "%s%s (ifindex %u)", i ? ", " : "; of ", XL_ESC(a.dev[i]),
			a.o.devs[i].ifindex);
	prog_ids_text(m, ids, sizeof(ids));
	fprintf(stderr, "); program ids%s;%s Ctrl-C to stop\n", ids,
		a.lazy ? " lazy: none attached until an error counter of these devices moves;" : "");
	if (!a.quiet)
		printf("%8s    %-21s %-10s %7s  %-11s %12s %12s %12s %14s%s\n", "time", "event",
		       "action", "ifindex", "errno", "events/s", "packets/s", "drops/s",
		       "total-events", a.extended ? " pkts/event    sched/s" : "");
	/* The first window starts from nothing: the counts since the programs loaded. */
	r.s[0].n = 0;
	r.t[0] = xl_now_ns();
	if (a.prom) /* the families from the start, no key yet */
		xl_cmd_prom_write(a.prom, xl_cmd_prom_mon_fill, &(struct xl_cmd_prom_mon){ &r.s[0], 0 });
	r.intervals = a.json ? json_array() : NULL;
	sm = (struct xl_sampler){ .interval_ns = a.interval_ns, .duration_ns = a.duration_ns,
				  .stop = &xl_stop_requested, .have_first = true,
				  .sample = mon_sample, .interval = mon_interval, .ctx = &r };
	if (xl_sampler_run(&sm)) {
		xl_err("monitor: cannot read the counters");
		ret = XL_EXIT_RUNTIME;
	}
	/* The totals as of the last good read (slot 0 alone: nothing was read). */
	if (sm.last_slot > 0) {
		xl_mon_cli_totals(&r.s[sm.last_slot], (r.t[sm.last_slot] - r.t[0]) / 1e9,
			     &(struct xl_mon_cpus){ NULL, r.cpus[sm.last_slot], r.ncpus, r.d });
		if (a.lazy)
			print_gate_totals(&r);
		if (a.json && write_json(&a, &r, sm.last_slot))
			ret = XL_EXIT_RUNTIME;
	} else {
		ret = XL_EXIT_RUNTIME;
	}
	if (r.attach_err)
		ret = XL_EXIT_RUNTIME;
	json_decref(r.intervals);
out_destroy:
	free_cpus(&r);
	xl_monitor__destroy(m);
	close_gate(&a);
	return ret;
}
