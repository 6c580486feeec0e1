// SPDX-License-Identifier: BSD-2-Clause
/*
 * --prometheus FILE (prom_cli.h): monitor's and the benchmarks' counters
 * in the Prometheus text exposition format, the file replaced atomically
 * each interval for node_exporter's textfile collector (docs/monitor.md).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "prom_cli.h"
#include "xdplab/atomicfile.h"
#include "xdplab/bench.h"
#include "xdplab/log.h"
#include "xdplab/prom.h"
#include "xdplab/sysstat.h"

int xl_cmd_prom_check(const char *path)
{
	struct xl_afile a;
	int err = xl_afile_open_user(&a, path, 0644);

	if (err) {
		xl_err("cannot write %s: %s", path, strerror(-err));
		return err;
	}
	xl_afile_abort(&a);
	return 0;
}

int xl_cmd_prom_write(const char *path, void (*fill)(FILE *f, const void *ctx), const void *ctx)
{
	static bool warned; /* once a run: a full disk would say it every interval */
	struct xl_afile a;
	int err = xl_afile_open_user(&a, path, 0644);

	if (!err) {
		fill(a.f, ctx);
		err = xl_afile_commit(&a);
	}
	if (err && !warned) {
		xl_warn("--prometheus: cannot write %s: %s (the run goes on; said once)", path,
			strerror(-err));
		warned = true;
	}
	return err;
}

void xl_cmd_prom_bench_fill(FILE *f, const void *ctx)
{
	const struct xl_cmd_prom_bench *b = ctx;
	const struct xl_meter_window *t = b->total, *w = b->last;
	/* The families but the actions', in order: name, type, help, value. */
	const struct {
		const char *name, *type, *help;
		double v;
	} fam[] = {
		{ "xdplab_packets_total", "counter", "Frames the XDP program counted since the start.", t->packets },
		{ "xdplab_bytes_total", "counter", "Bytes of the frames the XDP program counted since the start (no FCS).", t->bytes },
		{ "xdplab_errors_total", "counter", "Frames the XDP program counted as errors since the start.", t->errors },
		{ NULL }, /* xdplab_xdp_actions_total */
		{ "xdplab_measured_seconds_total", "counter", "Seconds of the windows the counters cover.", t->ns / 1e9 },
		{ "xdplab_packets_per_second", "gauge", "Frames per second the XDP program counted in the last interval.", w->pps },
		{ "xdplab_dut_cpu_busy_ratio", "gauge", "Busy share of the judged DUT CPU in the last interval (0..1).", w->cpu_busy },
		{ "xdplab_dut_cpu_seconds_per_packet", "gauge", "DUT CPU time per frame in the last interval, seconds (0: not measured).", w->cpu_ns_per_pkt / 1e9 },
	};
	struct xl_prom_label l[3] = { { "command", b->cmd }, { "iface", b->iface }, { "action", "" } };
	size_t k;
	int i;

	for (k = 0; k < sizeof(fam) / sizeof(fam[0]); k++) {
		if (fam[k].name) {
			xl_prom_family(f, fam[k].name, fam[k].type, fam[k].help);
			xl_prom_sample(f, fam[k].name, l, 2, fam[k].v); /* counts below 2^53: exact */
			continue;
		}
		xl_prom_family(f, "xdplab_xdp_actions_total", "counter",
			       "Frames by the XDP action the program returned, since the start.");
		for (i = 0; i < XL_XDP_ACTIONS; i++) {
			l[2].value = xl_xdp_action_name(i);
			xl_prom_sample_u64(f, "xdplab_xdp_actions_total", l, 3, t->actions[i]);
		}
	}
}

void xl_cmd_prom_mon_fill(FILE *f, const void *ctx)
{
	static const char *const fam[] = { "xdplab_monitor_events_total",
					   "xdplab_monitor_packets_total",
					   "xdplab_monitor_drops_total" };
	static const char *const help[] = {
		"xdp tracepoint events since the start, by event, action, ifindex and errno.",
		"Frames the events carried since the start (a bulk event carries several).",
		"Frames the events reported dropped since the start.",
	};
	const struct xl_cmd_prom_mon *m = ctx;
	char abuf[24], ifx[16];
	int k, i;

	for (k = 0; k < 3; k++) {
		xl_prom_family(f, fam[k], "counter", help[k]);
		for (i = 0; i < m->s->n; i++) {
			const struct xl_mon_row *r = &m->s->rows[i];
			const struct xl_prom_label l[] = {
				{ "event", xl_mon_event_name(r->key.event) },
				{ "action", xl_mon_action_name(r->key.action, abuf, sizeof(abuf)) },
				{ "ifindex", ifx },
				{ "errno", xl_errno_name(r->key.err) },
			};
			const uint64_t v[] = { r->val.events, r->val.packets, r->val.drops };

			snprintf(ifx, sizeof(ifx), "%d", (int)r->key.ifindex);
			xl_prom_sample_u64(f, fam[k], l, 4, v[k]);
		}
	}
	xl_prom_family(f, "xdplab_monitor_seconds_total", "counter",
		       "Seconds since monitor's first sample.");
	xl_prom_sample(f, "xdplab_monitor_seconds_total", NULL, 0, m->seconds);
}
