// SPDX-License-Identifier: BSD-2-Clause
/*
 * The report loop of the single commands that watch an XDP program
 * (xdplab/reportloop.h): a meter sample per interval on the one sampler,
 * a line per interval, the repetitions into the summary row; and the
 * lines those commands print of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "xdplab/escape.h"
#include "xdplab/reportloop.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"

/* The report loop's state between the sampler's callbacks. */
struct loop_run {
	const struct xl_report_loop *l;
	struct xl_meter_sample *s; /* XL_SAMPLER_SLOTS samples */
	struct xl_meter_window rep, *total;
	int rep_no;
	bool cancelled; /* @alive said stop */
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

	if (!lr->l->alive || !lr->l->alive(lr->l->ctx))
		return XL_SAMPLER_GO;
	lr->cancelled = true;
	return -1;
}

static void loop_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct loop_run *lr = ctx;
	const struct xl_report_loop *l = lr->l;
	bool extended = l->extended;
	struct xl_meter_window w;

	/*
	 * The NAPI kthread was looked up once, before the run (the row's
	 * wiring says which): not again every interval, which walked all of
	 * /proc each second in softirq wiring, where there is none.
	 */
	xl_meter_window(l->m, &lr->s[from], &lr->s[to], &w);
	xl_meter_window_add(&lr->rep, &w);
	xl_meter_window_add(lr->total, &w);
	if (l->interval)
		l->interval(l->ctx, lr->total, &w);
	if (l->rec) {
		struct xl_rep_result r;

		xl_meter_window_rep(&w, &r);
		xl_interval_recs_add(l->rec, t_ns / 1e9, lr->rep_no, &r);
	}
	if (partial || l->quiet)
		return;
	l->print(l->ctx, &w, t_ns / 1e9);
	/* An odd count of toggles flips the per-CPU lines while running (xdp-bench's). */
	if (l->toggles && (*l->toggles & 1))
		extended = !extended;
	if (extended)
		xl_meter_print_cpus(l->out, &lr->s[from], &lr->s[to], w.ns);
}

static int loop_wait(void *ctx, uint64_t ns)
{
	struct loop_run *lr = ctx;

	return lr->l->wait(lr->l->ctx, ns);
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

int xl_report_loop_run(const struct xl_report_loop *l, struct xl_meter_window *total)
{
	static struct xl_meter_sample s[XL_SAMPLER_SLOTS];
	struct loop_run lr = { .l = l, .s = s, .total = total };
	struct xl_sampler sm = { .interval_ns = l->interval_ns, .duration_ns = l->duration_ns,
				 .reps = l->reps, .stop = l->stop,
				 .sample = loop_sample, .alive = loop_alive,
				 .interval = loop_interval, .rep_end = loop_rep_end, .ctx = &lr,
				 .poll_ns = l->poll_ns, .wait = l->wait ? loop_wait : NULL };
	int err;

	xl_meter_window_zero(total);
	xl_meter_window_zero(&lr.rep);
	if (l->row)
		l->row->nreps = 0;
	err = 0;
	if (l->start_line) {
		err = loop_sample(&lr, 0);
		if (!err)
			fprintf(l->say, "%s\n", XL_ESC(l->start_line)); /* names data */
		sm.have_first = true;
	}
	if (!err)
		err = xl_sampler_run(&sm);
	if (l->row)
		xl_row_finish_single(l->row, total);
	return lr.cancelled ? -ECANCELED : err;
}

void xl_interval_recs_add(struct xl_interval_recs *rec, double t, int rep,
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

void xl_row_init_single(struct xl_row_result *row, const char *name, const char *suffix,
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

void xl_row_finish_single(struct xl_row_result *row, const struct xl_meter_window *total)
{
	/* Our bytes count frames without FCS, as the lab's size does. */
	row->size = total->packets ? (uint32_t)((total->bytes + total->packets / 2) /
						 total->packets) : 0;
	row->napi_cpu = total->napi_cpu;
	xl_row_finish(row);
}

void xl_row_print_verdict(FILE *out, const struct xl_row_result *row)
{
	char busy[64] = "";

	if (!row->nreps) {
		fprintf(out, "verdict: n/a (no complete window)\n");
		return;
	}
	if (row->judged && !strcmp(row->judged, "app-cpu"))
		snprintf(busy, sizeof(busy), " (app threads busy %.1f%%, median of %d)",
			 row->cpu_busy * 100, row->nreps);
	else if (row->napi_cpu >= 0)
		snprintf(busy, sizeof(busy), " (cpu%d busy %.1f%%, median of %d)", row->napi_cpu,
			 row->cpu_busy * 100, row->nreps);
	fprintf(out, "verdict: %s%s; median %.3f Mpps (%.3f-%.3f), CPU %.1f ns/packet\n",
		xl_row_verdict(row), busy, row->mpps.median, row->mpps.min, row->mpps.max,
		row->cpu_ns_per_pkt);
}

void xl_window_print_check(FILE *out, const struct xl_meter_window *w, int queues)
{
	char range[16] = "";

	if (!w->eth_ok)
		return;
	if (queues > 1)
		snprintf(range, sizeof(range), "..%d", queues - 1);
	fprintf(out, "check: kernel rx_queue_0%s_xdp_packets %llu (disagreement %.3f%%)\n", range,
		(unsigned long long)w->eth_packets, w->disagreement * 100);
}

void xl_meter_print_cpus(FILE *out, const struct xl_meter_sample *a,
			 const struct xl_meter_sample *b, uint64_t ns)
{
	int i, n = xl_bench_detail_ncpus();

	for (i = 0; i < n; i++) {
		uint64_t d = b->per_cpu[i].rx_packets - a->per_cpu[i].rx_packets;
		uint64_t e = b->per_cpu[i].errors - a->per_cpu[i].errors;
		char b1[32], b2[32];

		if (!d && !e)
			continue;
		if (!a->cpu_ok[i] || !b->cpu_ok[i]) {
			fprintf(out, "            cpu%-3d rx/s %12s  err/s %s  busy - (unreadable)\n",
				i, xl_fmt_thousands((uint64_t)xl_rate(d, ns), b1, sizeof(b1)),
				xl_fmt_thousands((uint64_t)xl_rate(e, ns), b2, sizeof(b2)));
			continue;
		}
		fprintf(out, "            cpu%-3d rx/s %12s  err/s %s  busy %.1f%%\n", i,
			xl_fmt_thousands((uint64_t)xl_rate(d, ns), b1, sizeof(b1)),
			xl_fmt_thousands((uint64_t)xl_rate(e, ns), b2, sizeof(b2)),
			xl_cpu_busy_share(&a->cpu[i], &b->cpu[i]) * 100);
	}
}

void xl_extra_cal_print(FILE *out, const struct xl_extra_cal *cal)
{
	fprintf(out, "xdplab: --extra-ns %.0f: %u busy-loop iterations, BPF_PROG_RUN check %+.1f ns per packet over the program's %.0f ns (%d check%s; a long loop's slope %.3f ns each, rounds %.3f..%.3f: %.1f ns)\n",
		cal->target_ns, cal->iters, cal->check_ns, cal->base_ns, cal->steps,
		cal->steps == 1 ? "" : "s", cal->ns_per_iter, cal->ns_per_iter_min,
		cal->ns_per_iter_max, cal->set_ns);
}

void xl_window_cpu_cell(char *buf, size_t len, const struct xl_meter_window *w)
{
	/* No packets in the window: no CPU to judge and no cost per packet. */
	if (w->napi_cpu < 0 || !w->packets)
		snprintf(buf, len, "cpu - busy -  cpu-ns/packet -");
	else
		snprintf(buf, len, "cpu%d busy %.1f%%  cpu-ns/packet %.1f", w->napi_cpu,
			 w->cpu_busy * 100, w->cpu_ns_per_pkt);
}

void xl_window_print_action_line(FILE *out, const struct xl_meter_window *w, double t, int action)
{
	char b1[32], b2[32], cpu[64];

	xl_window_cpu_cell(cpu, sizeof(cpu), w);
	fprintf(out, "%8.3f s  %-8s rx/s %12s  err/s %s  ns/packet %.1f  %s\n", t,
	       xl_xdp_action_name(action) + 4, xl_fmt_thousands((uint64_t)w->pps, b1, sizeof(b1)),
	       xl_fmt_thousands((uint64_t)w->err_pps, b2, sizeof(b2)), w->ns_per_pkt, cpu);
}

void xl_window_print_actions_line(FILE *out, const struct xl_meter_window *w, double t)
{
	static const int order[] = { XDP_DROP, XDP_PASS, XDP_TX, XDP_REDIRECT, XDP_ABORTED };
	static const char *const label[] = { "drop/s", "pass/s", "tx/s", "redir/s", "abort/s" };
	char b[32], cpu[64];
	size_t i;

	xl_window_cpu_cell(cpu, sizeof(cpu), w);
	fprintf(out, "%8.3f s  rx/s %12s", t, xl_fmt_thousands((uint64_t)w->pps, b, sizeof(b)));
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		fprintf(out, "  %s %s", label[i],
		       xl_fmt_thousands((uint64_t)xl_rate(w->actions[order[i]], w->ns), b, sizeof(b)));
	fprintf(out, "  ns/packet %.1f  %s\n", w->ns_per_pkt, cpu);
}

void xl_bench_rec_print_counts(FILE *out, const char *what, const struct xl_bench_rec *a,
			       const struct xl_bench_rec *b, bool aborted)
{
	int i;

	fprintf(out, "%s: %llu packets;", what, (unsigned long long)(b->rx_packets - a->rx_packets));
	for (i = aborted ? 0 : 1; i < XL_XDP_ACTIONS; i++)
		fprintf(out, " %s %llu", xl_xdp_action_name(i),
		       (unsigned long long)(b->actions[i] - a->actions[i]));
	if (!aborted)
		fprintf(out, " (XDP_ABORTED counted in XDP_DROP)");
	fprintf(out, "\n");
}
