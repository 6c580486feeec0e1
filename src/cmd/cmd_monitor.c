// SPDX-License-Identifier: BSD-2-Clause
/* xdplab monitor: count the xdp tracepoints by event, action, ifindex, errno. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <net/if.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cmd.h"
#include "xdplab/log.h"
#include "xdplab/monitor.h"
#include "xdplab/netns.h"
#include "xdplab/report.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"

enum { O_ALL, O_JSON, O_ATTACH, O_DEV };

static const struct xl_opt mon_opts[] = {
	{ "all", 'a', NULL, "also count the success path (xdp_redirect) and every cpumap/devmap bulk", O_ALL, .alias = "stats" },
	XL_OPT_ENTRY_INTERVAL,
	XL_OPT_ENTRY_DURATION,
	{ "json", 'j', "FILE", "also write each interval and the totals as JSON (docs/results.md)", O_JSON },
	{ "attach", 0, "KIND", "auto (default: tp_btf with kernel BTF, else raw_tp), btf or raw", O_ATTACH },
	{ "dev", 0, "[NETNS:]IFACE", "count only this device's events (repeatable, up to 8; NETNS: a name under /run/netns, else ours); needs tp_btf", O_DEV, .repeatable = true },
	XL_OPT_ENTRY_QUIET,
};

static const struct xl_cmd_spec mon_spec = {
	"monitor", "",
	"Count the xdp tracepoints (all namespaces) by event, action, ifindex and errno; errors only unless --all.",
	mon_opts, sizeof(mon_opts) / sizeof(mon_opts[0]),
};

struct mon_args {
	struct xl_monitor_opts o;
	uint64_t interval_ns, duration_ns;
	bool quiet;
	const char *json;
	const char *dev[XL_MON_MAX_DEVS]; /* --dev as given */
	int ndev;
};

static int on_opt(int id, const char *arg, void *ctx)
{
	static const char *const kinds[] = { "auto", "btf", "raw", NULL };
	struct mon_args *a = ctx;
	int r;

	r = xl_cmd_run_opt(&mon_spec, id, arg, &(struct xl_run_opts){ &a->interval_ns,
				  &a->duration_ns, .quiet = &a->quiet });
	if (r <= 0)
		return r;
	switch (id) {
	case O_ALL:
		a->o.all = true;
		return 0;
	case O_JSON:
		a->json = arg;
		return 0;
	case O_ATTACH:
		r = xl_parse_choice(&mon_spec, "--attach", arg, kinds);
		a->o.attach = r;
		return r < 0 ? r : 0;
	case O_DEV:
		if (a->ndev == XL_MON_MAX_DEVS) {
			xl_usage_error(&mon_spec, "--dev: more than %d devices (accepted: 1..%d)",
				       XL_MON_MAX_DEVS, XL_MON_MAX_DEVS);
			return -EINVAL;
		}
		a->dev[a->ndev++] = arg;
		return 0;
	}
	return -EINVAL;
}

static json_t *row_json(const struct xl_mon_row *r, const struct xl_mon_val *d, uint64_t ns,
			bool rates)
{
	char abuf[24];
	json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:s, s:I, s:I, s:I}",
			      "event", xl_mon_event_name(r->key.event),
			      "action", xl_mon_action_name(r->key.action, abuf, sizeof(abuf)),
			      "ifindex", (int)r->key.ifindex, "errno", (int)r->key.err,
			      "errno_name", xl_errno_name(r->key.err),
			      "events", (json_int_t)d->events, "packets", (json_int_t)d->packets,
			      "drops", (json_int_t)d->drops);

	if (o && rates) {
		json_object_set_new(o, "events_per_s", json_real(xl_rate(d->events, ns)));
		json_object_set_new(o, "packets_per_s", json_real(xl_rate(d->packets, ns)));
		json_object_set_new(o, "drops_per_s", json_real(xl_rate(d->drops, ns)));
	}
	return o;
}

/* One record of the --json file: the keys that moved in the window (all of them for totals). */
static json_t *mon_json(const char *what, double t, const struct xl_mon_snapshot *prev,
			const struct xl_mon_snapshot *cur, uint64_t ns)
{
	json_t *doc = json_object(), *rows = json_array();
	struct xl_mon_val d;
	int i;

	for (i = 0; i < cur->n; i++) {
		xl_mon_delta(prev, &cur->rows[i], &d);
		if (!d.events && prev)
			continue;
		json_array_append_new(rows, row_json(&cur->rows[i], &d, ns, prev != NULL));
	}
	json_object_set_new(doc, "type", json_string(what));
	json_object_set_new(doc, "t", json_real(t));
	json_object_set_new(doc, "rows", rows);
	return doc;
}

static void print_text(double t, const struct xl_mon_snapshot *prev,
		       const struct xl_mon_snapshot *cur, uint64_t ns)
{
	char abuf[24], b1[32], b2[32], b3[32];
	struct xl_mon_val d;
	int i, shown = 0;

	for (i = 0; i < cur->n; i++) {
		const struct xl_mon_row *r = &cur->rows[i];

		xl_mon_delta(prev, r, &d);
		if (!d.events)
			continue;
		printf("%8.3f s  %-21s %-10s %7d  %-11s %12s %12s %12s %14llu\n", t,
		       xl_mon_event_name(r->key.event),
		       xl_mon_action_name(r->key.action, abuf, sizeof(abuf)), r->key.ifindex,
		       xl_errno_name(r->key.err),
		       xl_fmt_thousands((uint64_t)xl_rate(d.events, ns), b1, sizeof(b1)),
		       xl_fmt_thousands((uint64_t)xl_rate(d.packets, ns), b2, sizeof(b2)),
		       xl_fmt_thousands((uint64_t)xl_rate(d.drops, ns), b3, sizeof(b3)),
		       (unsigned long long)r->val.events);
		shown++;
	}
	if (!shown)
		printf("%8.3f s  (no events)\n", t);
}

static void print_totals(const struct xl_mon_snapshot *s, double secs)
{
	char abuf[24];
	int i;

	printf("totals in %.3f s: %d key(s)\n", secs, s->n);
	for (i = 0; i < s->n; i++) {
		const struct xl_mon_row *r = &s->rows[i];

		printf("  %-21s %-10s ifindex %-4d %-11s events %llu packets %llu drops %llu\n",
		       xl_mon_event_name(r->key.event),
		       xl_mon_action_name(r->key.action, abuf, sizeof(abuf)), r->key.ifindex,
		       xl_errno_name(r->key.err), (unsigned long long)r->val.events,
		       (unsigned long long)r->val.packets, (unsigned long long)r->val.drops);
	}
}

/* What the sampler's callbacks need: three snapshots, each stamped. */
struct mon_run {
	struct xl_monitor *m;
	const struct mon_args *a;
	struct xl_mon_snapshot s[XL_SAMPLER_SLOTS];
	uint64_t t[XL_SAMPLER_SLOTS];
	json_t *intervals; /* --json: the interval records; NULL without */
};

static int mon_sample(void *ctx, int slot)
{
	struct mon_run *r = ctx;
	int err = xl_monitor__read(r->m, &r->s[slot]);

	r->t[slot] = xl_now_ns();
	return err ? -EIO : 0;
}

static void mon_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct mon_run *r = ctx;
	uint64_t ns = r->t[to] - r->t[from];

	if (r->intervals)
		json_array_append_new(r->intervals, mon_json("interval", t_ns / 1e9, &r->s[from],
							     &r->s[to], ns));
	if (!partial && !r->a->quiet)
		print_text(t_ns / 1e9, &r->s[from], &r->s[to], ns);
}

/* The --json file: the lab's document with monitor's records (docs/results.md). */
static int write_json(const struct mon_args *a, struct mon_run *r, int last)
{
	json_t *x = json_object();
	char *text;
	int err;

	json_object_set_new(x, "intervals", json_incref(r->intervals));
	json_object_set_new(x, "totals", mon_json("totals", (r->t[last] - r->t[0]) / 1e9, NULL,
						  &r->s[last], 0));
	json_object_set_new(x, "monitor", json_pack("{s:b,s:s}", "all", a->o.all, "attach",
						    xl_monitor__attach_kind(r->m)));
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
 * lab's --with-monitor filter: struct xl_mon_dev). A usage error (one line
 * naming it) when the namespace or the interface does not exist.
 */
static int resolve_dev(const char *spec, struct xl_mon_dev *d)
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

int cmd_monitor(int argc, char **argv)
{
	static struct mon_run r;
	struct mon_args a = { .interval_ns = 1000000000ull };
	struct xl_sampler sm;
	const char *names[XL_EV__COUNT];
	struct xl_monitor *m;
	int idx, i, n, ret = XL_EXIT_OK;

	idx = xl_opts_parse(&mon_spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc) {
		xl_usage_error(&mon_spec, "unexpected argument '%s' (tracepoints are global: no interface or --netns)",
			       argv[idx]);
		return XL_EXIT_USAGE;
	}
	for (i = 0; i < a.ndev; i++)
		if (resolve_dev(a.dev[i], &a.o.devs[i]))
			return XL_EXIT_USAGE;
	a.o.ndevs = a.ndev;
	if (a.json && !xl_cmd_out_open(a.json)) /* a bad path fails before the run */
		return XL_EXIT_RUNTIME;
	m = xl_monitor__create(&a.o);
	if (!m)
		return XL_EXIT_RUNTIME;
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
	fprintf(stderr, "); Ctrl-C to stop\n");
	if (!a.quiet)
		printf("%8s    %-21s %-10s %7s  %-11s %12s %12s %12s %14s\n", "time", "event",
		       "action", "ifindex", "errno", "events/s", "packets/s", "drops/s",
		       "total-events");
	/* The first window starts from nothing: the counts since the programs loaded. */
	r.m = m;
	r.a = &a;
	r.s[0].n = 0;
	r.t[0] = xl_now_ns();
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
		print_totals(&r.s[sm.last_slot], (r.t[sm.last_slot] - r.t[0]) / 1e9);
		if (a.json && write_json(&a, &r, sm.last_slot))
			ret = XL_EXIT_RUNTIME;
	} else {
		ret = XL_EXIT_RUNTIME;
	}
	json_decref(r.intervals);
	xl_monitor__destroy(m);
	return ret;
}
