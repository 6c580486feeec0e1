// SPDX-License-Identifier: BSD-2-Clause
/* xdplab monitor: count the xdp tracepoints by event, action, ifindex, errno. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "xdplab/log.h"
#include "xdplab/monitor.h"
#include "xdplab/stats.h"

enum { O_ALL, O_JSON, O_ATTACH };

static const struct xl_opt mon_opts[] = {
	{ "all", 'a', NULL, "also count the success path (xdp_redirect) and every cpumap/devmap bulk", O_ALL },
	XL_OPT_ENTRY_INTERVAL,
	XL_OPT_ENTRY_DURATION,
	{ "json", 'j', NULL, "one JSON object per line: each interval, then the totals", O_JSON },
	{ "attach", 0, "KIND", "auto (default: tp_btf with kernel BTF, else raw_tp), btf or raw", O_ATTACH },
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
	bool json, quiet;
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
		a->json = true;
		return 0;
	case O_ATTACH:
		r = xl_parse_choice(&mon_spec, "--attach", arg, kinds);
		a->o.attach = r;
		return r < 0 ? r : 0;
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

static void print_json(const char *what, double t, const struct xl_mon_snapshot *prev,
		       const struct xl_mon_snapshot *cur, uint64_t ns)
{
	json_t *doc = json_object(), *rows = json_array();
	struct xl_mon_val d;
	char *s;
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
	s = json_dumps(doc, JSON_COMPACT);
	if (s)
		printf("%s\n", s);
	free(s);
	json_decref(doc);
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

int cmd_monitor(int argc, char **argv)
{
	static struct xl_mon_snapshot prev, cur;
	struct mon_args a = { .interval_ns = 1000000000ull };
	const char *names[XL_EV__COUNT];
	struct xl_monitor *m;
	uint64_t start, next, t_prev;
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
	fprintf(stderr, " (%s); Ctrl-C to stop\n", a.o.all ? "all events" : "errors only");
	if (!a.json && !a.quiet)
		printf("%8s    %-21s %-10s %7s  %-11s %12s %12s %12s %14s\n", "time", "event",
		       "action", "ifindex", "errno", "events/s", "packets/s", "drops/s",
		       "total-events");
	prev.n = 0;
	start = t_prev = xl_now_ns();
	next = start + a.interval_ns;
	while (!xl_stop_requested) {
		uint64_t now = xl_now_ns(), end = a.duration_ns ? start + a.duration_ns : 0;
		uint64_t wake = end && end < next ? end : next;

		if (now < wake) {
			xl_cmd_sleep_ns(wake - now);
			continue;
		}
		if (xl_monitor__read(m, &cur)) {
			ret = XL_EXIT_RUNTIME;
			break;
		}
		if (!a.quiet) {
			if (a.json)
				print_json("interval", (now - start) / 1e9, &prev, &cur, now - t_prev);
			else
				print_text((now - start) / 1e9, &prev, &cur, now - t_prev);
		}
		prev = cur;
		t_prev = now;
		next += a.interval_ns;
		if (end && now >= end)
			break;
	}
	if (xl_monitor__read(m, &cur) == 0) {
		if (a.json)
			print_json("totals", (xl_now_ns() - start) / 1e9, NULL, &cur, 0);
		else
			print_totals(&cur, (xl_now_ns() - start) / 1e9);
	} else {
		ret = XL_EXIT_RUNTIME;
	}
	xl_monitor__destroy(m);
	return ret;
}
