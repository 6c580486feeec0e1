// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the commands share: the common options (--interval, --duration,
 * --extended, --netns, --quiet, --packet-operation, --mode), entering a
 * namespace,
 * and the per-CPU lines of --extended.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "xdplab/log.h"
#include "xdplab/stats.h"

int xl_cmd_enter_netns(const struct xl_cmd_spec *spec, const char *name)
{
	char path[300];
	int fd, err;

	if (strchr(name, '/') || !*name) {
		xl_usage_error(spec, "--netns: '%s' is not a namespace name (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		xl_usage_error(spec, "--netns: no namespace '%s' (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	err = setns(fd, CLONE_NEWNET) ? errno : 0;
	close(fd);
	if (err) {
		xl_err("cannot enter namespace %s: %s", name, strerror(err));
		return XL_EXIT_RUNTIME;
	}
	return XL_EXIT_OK;
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
			static const char *const modes[] = { "native", "skb", NULL };
			int c = xl_parse_choice(spec, "--mode", arg, modes);

			if (c < 0)
				return c;
			*r->mode = c;
			return 0;
		}
		break;
	}
	return 1;
}

/* A meter sample and the command's own counters; 0 or -errno. */
static int loop_sample(const struct xl_cmd_loop *l, struct xl_meter_sample *s)
{
	int err = xl_meter_sample(l->m, s);

	return err ? err : l->sampled ? l->sampled(l->ctx) : 0;
}

int xl_cmd_report_loop(const struct xl_cmd_loop *l, struct xl_meter_sample *first,
		       struct xl_meter_sample *last, bool *have_last)
{
	static struct xl_meter_sample prev;
	struct xl_meter_window w;
	uint64_t start, next;
	int ret = XL_EXIT_OK;

	*have_last = false;
	if (loop_sample(l, first))
		return XL_EXIT_RUNTIME;
	prev = *first;
	start = xl_now_ns();
	next = start + l->interval_ns;
	while (!xl_stop_requested) {
		uint64_t now = xl_now_ns(), end = l->duration_ns ? start + l->duration_ns : 0;
		uint64_t wake = end && end < next ? end : next;

		if (now < wake) {
			/* Wake every 100 ms to notice a vanished interface quickly. */
			xl_cmd_sleep_ns(wake - now < 100000000ull ? wake - now : 100000000ull);
			ret = l->alive(l->ctx);
			if (ret != XL_EXIT_OK)
				break;
			continue;
		}
		if (loop_sample(l, last)) {
			ret = XL_EXIT_RUNTIME;
			break;
		}
		if (!l->m->napi_pid)
			l->m->napi_pid = xl_napi_kthread_pid(l->ifname);
		xl_meter_window(l->m, &prev, last, &w);
		if (!l->quiet)
			l->print(l->ctx, &w, (now - start) / 1e9);
		if (l->extended && !l->quiet)
			xl_cmd_print_cpus(&prev, last, w.ns);
		prev = *last;
		next += l->interval_ns;
		if (end && now >= end)
			break;
	}
	*have_last = loop_sample(l, last) == 0;
	return ret;
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
