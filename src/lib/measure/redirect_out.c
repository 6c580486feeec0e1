// SPDX-License-Identifier: BSD-2-Clause
/*
 * The redirect commands' lines (xdplab/redirect_out.h): an interval's line
 * and the end-of-run totals of redirect, redirect-cpu, redirect-multi and
 * redirect-ifindex, written to a given stream.
 */
#include <stdint.h>
#include <stdio.h>

#include "xdplab/bench.h"
#include "xdplab/escape.h"
#include "xdplab/percpu.h"
#include "xdplab/redirect_out.h"
#include "xdplab/stats.h"

void xl_redirect_print_window(FILE *out, const struct xl_redirect_opts *o,
			      const struct xl_meter_window *w, const struct xl_redirect_stats *a,
			      const struct xl_redirect_stats *b, const struct xl_steer_target *ta,
			      const struct xl_steer_target *tb, int nt, double t)
{
	char b1[32], b2[32], b3[32], b4[32];
	int i;

	fprintf(out,
		"%8.3f s  REDIRECT rx/s %12s  err/s %s  ns/packet %.1f  cpu%d busy %.1f%%  "
		"cpu-ns/packet %.1f",
		t, xl_fmt_thousands((uint64_t)w->pps, b1, sizeof(b1)),
		xl_fmt_thousands((uint64_t)w->err_pps, b2, sizeof(b2)), w->ns_per_pkt, w->napi_cpu,
		w->cpu_busy * 100, w->cpu_ns_per_pkt);
	if (o->kind == XL_REDIR_CPUMAP && nt == 1)
		fprintf(out, "  cpu%d processed/s %s  enqueue-drops/s %s", ta[0].cpu,
			xl_fmt_thousands(
				(uint64_t)xl_rate(b->cpu.processed - a->cpu.processed, w->ns), b3,
				sizeof(b3)),
			xl_fmt_thousands(
				(uint64_t)xl_rate(b->cpu.enqueue_drops - a->cpu.enqueue_drops,
						  w->ns),
				b4, sizeof(b4)));
	else if (o->kind == XL_REDIR_CPUMAP) {
		uint64_t all = 0;

		for (i = 0; i < nt; i++)
			all += tb[i].steered - ta[i].steered;
		/* Per target: processed/s, enqueue drops/s, share of the steered frames. */
		for (i = 0; i < nt; i++)
			fprintf(out, "  cpu%d processed/s %s enqueue-drops/s %s share %.1f%%",
				tb[i].cpu,
				xl_fmt_thousands(
					(uint64_t)xl_rate(tb[i].processed - ta[i].processed, w->ns),
					b3, sizeof(b3)),
				xl_fmt_thousands(
					(uint64_t)xl_rate(tb[i].enqueue_drops - ta[i].enqueue_drops,
							  w->ns),
					b4, sizeof(b4)),
				all ? 100.0 * (tb[i].steered - ta[i].steered) / all : 0.0);
	}
	for (i = 0; i < o->nout && b->eth_ok; i++)
		fprintf(out, "  %s out/s %s", XL_ESC(o->out[i]),
			xl_fmt_thousands((uint64_t)xl_rate(b->out_xmit[i] - a->out_xmit[i], w->ns),
					 b3, sizeof(b3)));
	fprintf(out, "\n");
}

void xl_redirect_print_totals(FILE *out, const struct xl_redirect_opts *o,
			      const struct xl_meter_window *w, const struct xl_redirect_stats *st,
			      const struct xl_redir_cpu_rec *cpu_recs,
			      const struct xl_steer_target *t, int nt,
			      const struct xl_steer_miss *miss, uint64_t stress)
{
	uint64_t all = 0;
	int i;

	fprintf(out, "totals: %llu packets, %llu bytes, %llu errors in %.3f s;",
		(unsigned long long)w->packets, (unsigned long long)w->bytes,
		(unsigned long long)w->errors, w->ns / 1e9);
	for (i = 0; i < XL_XDP_ACTIONS; i++)
		fprintf(out, " %s %llu", xl_xdp_action_name(i), (unsigned long long)w->actions[i]);
	fprintf(out, "\n");
	fprintf(out, "redirect: program errors %llu, kernel drops %llu%s",
		(unsigned long long)st->in.errors, (unsigned long long)st->kernel_drops,
		st->eth_ok ? "" : " (veth counters unavailable)");
	for (i = 0; i < o->nout && st->eth_ok; i++)
		fprintf(out, "; out %s %s%llu xmit-errors %llu", XL_ESC(o->out[i]),
			st->out_ok[i] ? "sent " : "gone (deleted?), sent until its last read ",
			(unsigned long long)st->out_xmit[i],
			(unsigned long long)st->out_xmit_errors[i]);
	fprintf(out, "\n");
	if (o->load_egress)
		fprintf(out, "egress: %s, processed %llu forwarded %llu dropped %llu\n",
			o->egress_drop ? "drop" : "forward",
			(unsigned long long)st->egress.processed,
			(unsigned long long)st->egress.forwarded,
			(unsigned long long)st->egress.dropped);
	if (o->kind != XL_REDIR_CPUMAP)
		return;
	if (nt > 1) {
		fprintf(out, "cpumap: %d CPUs processed %llu", nt,
			(unsigned long long)st->cpu.processed);
	} else {
		fprintf(out, "cpumap: cpu %d processed %llu", t[0].cpu,
			(unsigned long long)st->cpu.processed);
		/* The entry program runs on the target CPU: its own record says so. */
		if (cpu_recs && t[0].cpu < xl_bench_detail_ncpus())
			fprintf(out, " (%llu by cpu %d itself)", (unsigned long long)t[0].processed,
				t[0].cpu);
	}
	fprintf(out,
		" dropped %llu passed %llu redirected %llu errors %llu enqueued %llu enqueue-drops "
		"%llu\n",
		(unsigned long long)st->cpu.dropped, (unsigned long long)st->cpu.passed,
		(unsigned long long)st->cpu.redirected, (unsigned long long)st->cpu.errors,
		(unsigned long long)st->cpu.enqueued, (unsigned long long)st->cpu.enqueue_drops);
	for (i = 0; i < nt; i++)
		all += t[i].steered;
	fprintf(out,
		"steer: %s over %d CPU%s; unparsed: not-ip %llu malformed %llu no-ports %llu; "
		"filtered %llu; redirect-errors %llu",
		xl_steer_name(o->steer), nt, nt == 1 ? "" : "s", (unsigned long long)miss->not_ip,
		(unsigned long long)miss->malformed, (unsigned long long)miss->no_ports,
		(unsigned long long)miss->filtered, (unsigned long long)miss->redirect_errors);
	if (o->stress)
		fprintf(out, "; stress-mode entry replacements %llu", (unsigned long long)stress);
	fprintf(out, "\n");
	for (i = 0; i < nt; i++)
		fprintf(out,
			"cpu %d: steered %llu processed %llu enqueue-drops %llu share %.2f%%\n",
			t[i].cpu, (unsigned long long)t[i].steered,
			(unsigned long long)t[i].processed, (unsigned long long)t[i].enqueue_drops,
			all ? 100.0 * t[i].steered / all : 0.0);
}
