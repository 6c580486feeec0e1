// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a row family adds to a row beyond the common figures (xdplab/report.h
 * "row parts"): a profile, redirect-cpu's steering, the monitor's cost.
 * Each kind is one struct xl_row_part_ops (its JSON member's name, its
 * record's size, its JSON writer); the row owns one record per kind, made
 * on first use, so that struct xl_row_result names none of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "xdplab/escape.h"
#include "xdplab/profile.h"
#include "xdplab/redirect.h"
#include "xdplab/report.h"

void *xl_row_part(const struct xl_row_result *r, const struct xl_row_part_ops *ops)
{
	int i;

	for (i = 0; i < XL_ROW_PARTS && r->parts[i].ops; i++)
		if (r->parts[i].ops == ops)
			return r->parts[i].data;
	return NULL;
}

void *xl_row_part_get(struct xl_row_result *r, const struct xl_row_part_ops *ops)
{
	void *d = xl_row_part(r, ops);
	int i;

	if (d)
		return d;
	for (i = 0; i < XL_ROW_PARTS && r->parts[i].ops; i++)
		;
	if (i == XL_ROW_PARTS) {
		errno = ENOSPC;
		return NULL;
	}
	d = calloc(1, ops->size);
	if (!d)
		return NULL;
	r->parts[i] = (struct xl_row_part){ .ops = ops, .data = d };
	return d;
}

void xl_row_free_parts(struct xl_row_result *r)
{
	int i;

	for (i = 0; i < XL_ROW_PARTS; i++) {
		free(r->parts[i].data);
		r->parts[i] = (struct xl_row_part){ 0 };
	}
}

/* A 95% confidence interval as [lo, hi], or null when there is none. */
static json_t *ci(bool have, double lo, double hi)
{
	return have ? json_pack("[f,f]", lo, hi) : json_null();
}

/* The "profile" of a row (docs/results.md): files, CPUs, top symbols. */
static json_t *profile_json(const void *data)
{
	const struct xl_profile *p = data;
	json_t *cpus = json_array(), *top = json_array();
	char label[32];
	int i;

	for (i = 0; i < p->ncpus; i++)
		json_array_append_new(cpus, json_pack("{s:i,s:s,s:s}", "cpu", p->cpus[i].cpu, "role",
						      p->cpus[i].role, "label",
						      xl_prof_cpu_label(&p->cpus[i], label, sizeof(label))));
	for (i = 0; i < p->ntop; i++)
		json_array_append_new(top, json_pack("{s:s,s:f,s:I,s:s,s:s,s:s}", "cpu", p->top[i].label,
						     "share", p->top[i].share, "samples",
						     (json_int_t)p->top[i].samples, "comm", p->top[i].comm,
						     "dso", p->top[i].dso, "symbol", p->top[i].sym));
	return json_pack("{s:b,s:b,s:o,s:I,s:s,s:s,s:s,s:I,s:o,s:o,s:o}", "extra_repetition", p->extra,
			 "complete", !p->incomplete[0], "incomplete_reason",
			 p->incomplete[0] ? json_string(p->incomplete) : json_null(),
			 "lines_not_parsed", (json_int_t)p->unparsed, "event", p->event,
			 "folded", p->folded,
			 "svg", p->svg, "samples", (json_int_t)p->samples, "cpus", cpus, "top", top,
			 "window", p->have_window ? json_pack("{s:f,s:f}", "pps", p->pps, "cpu_ns_per_pkt",
							      p->cpu_ns_per_pkt) : json_null());
}

/* The "steering" object: per target CPU its counts and share of the steered total. */
static json_t *steer_json(const void *data)
{
	const struct xl_row_steer *s = data;
	json_t *targets;
	uint64_t all = 0;
	int i;

	if (!s->on)
		return NULL;
	targets = json_array();
	for (i = 0; i < s->ntargets; i++)
		all += s->targets[i].steered;
	for (i = 0; i < s->ntargets; i++)
		json_array_append_new(targets, json_pack("{s:i,s:I,s:I,s:I,s:f}",
			"cpu", s->targets[i].cpu, "steered", (json_int_t)s->targets[i].steered,
			"processed", (json_int_t)s->targets[i].processed,
			"enqueue_drops", (json_int_t)s->targets[i].enqueue_drops,
			"share", all ? (double)s->targets[i].steered / all : 0.0));
	return json_pack("{s:s,s:I,s:o,s:{s:I,s:I,s:I},s:I,s:I}", "policy",
			 s->policy ? s->policy : "", "steered", (json_int_t)all, "targets", targets,
			 "unparsed", "not_ip", (json_int_t)s->not_ip, "malformed",
			 (json_int_t)s->malformed, "no_ports", (json_int_t)s->no_ports, "filtered",
			 (json_int_t)s->filtered, "redirect_errors", (json_int_t)s->redirect_errors);
}

/* The "monitor_cost" object of the "redirect+mon-err" row (docs/results.md). */
static json_t *watch_json(const void *data)
{
	const struct xl_watch_est *w = data;
	json_t *o;

	if (!w->valid)
		return NULL;
	o = json_pack("{s:f,s:f,s:o,s:f,s:f,s:f,s:f,s:o,s:f,s:o}",
			"ns_per_pkt", w->cost_ns, "cpu_ns_per_pkt", w->cpu_cost_ns,
			"cpu_ns_per_pkt_ci", ci(w->cpu_cost_ci, w->cpu_cost_lo,
						w->cpu_cost_hi),
			"events_per_pkt", w->events_per_pkt,
			"bulk1_cpu_ns_per_pkt", w->b1_cpu_cost_ns,
			"bulk1_events_per_pkt", w->b1_events_per_pkt,
			"ns_per_event", w->per_event_ns,
			"ns_per_event_ci", ci(w->estimate_ci, w->per_event_lo,
					      w->per_event_hi),
			"estimate_ns_per_pkt", w->estimate_ns,
			"estimate_ns_per_pkt_ci", ci(w->estimate_ci, w->estimate_lo,
						     w->estimate_hi));
	if (!o)
		return NULL;
	if (w->hops > 0) {
		json_object_set_new(o, "hops", json_integer(w->hops));
		json_object_set_new(o, "bulk_frames", json_real(w->bulk_frames));
		json_object_set_new(o, "estimate_ns_per_hop", json_real(w->hop_ns));
		json_object_set_new(o, "estimate_ns_per_hop_ci",
				    ci(w->estimate_ci, w->hop_lo, w->hop_hi));
		json_object_set_new(o, "full_bulk_ns_per_hop", json_real(w->full_hop_ns));
		json_object_set_new(o, "full_bulk_ns_per_hop_ci",
				    ci(w->estimate_ci, w->full_hop_lo, w->full_hop_hi));
	}
	if (w->floor_valid) {
		/* lab run --with-monitor-floor: the floor and the monitor's own part */
		json_object_update_new(o, json_pack(
			"{s:f,s:o,s:f,s:o,s:f,s:o,s:f,s:o}",
			"floor_ns_per_event", w->floor_ns,
			"floor_ns_per_event_ci", ci(w->floor_ci, w->floor_lo, w->floor_hi),
			"own_ns_per_event", w->own_ns,
			"own_ns_per_event_ci", ci(w->floor_ci, w->own_lo, w->own_hi),
			"floor_full_bulk_ns_per_hop", w->floor_hop_ns,
			"floor_full_bulk_ns_per_hop_ci", ci(w->floor_ci, w->floor_hop_lo, w->floor_hop_hi),
			"own_full_bulk_ns_per_hop", w->own_hop_ns,
			"own_full_bulk_ns_per_hop_ci", ci(w->floor_ci, w->own_hop_lo, w->own_hop_hi)));
	}
	return o;
}

/* The "meter_cost" object of the "meter-cost/hook" row (docs/results.md). */
static json_t *meter_json(const void *data)
{
	const struct xl_meter_cost *m = data;

	if (!m->valid)
		return NULL;
	return json_pack("{s:s,s:s,s:b,s:i,s:i,s:f,s:o,s:f,s:o,s:o,s:I,s:o}", "hook", m->hook,
			 "meter_source", m->meter_source, "meter_uses_hook", m->meter_uses_hook,
			 "pairs", m->pairs, "slices", m->slices, "chain_ns_per_pkt", m->chain_ns,
			 "chain_ns_per_pkt_ci", ci(m->chain_ci, m->chain_lo, m->chain_hi),
			 "cpu_ns_per_pkt", m->dut_ns,
			 "cpu_ns_per_pkt_ci", ci(m->dut_ci, m->dut_lo, m->dut_hi),
			 "cpu_source", m->dut_source ? json_string(m->dut_source) : json_null(),
			 "net_rx_runs", (json_int_t)m->net_rx_runs, "frames_per_run",
			 m->frames_per_run >= 0 ? json_real(m->frames_per_run) : json_null());
}

const struct xl_row_part_ops xl_row_part_profile = { .key = "profile",
						     .size = sizeof(struct xl_profile),
						     .json = profile_json };
const struct xl_row_part_ops xl_row_part_steer = { .key = "steering",
						   .size = sizeof(struct xl_row_steer),
						   .json = steer_json };
const struct xl_row_part_ops xl_row_part_watch = { .key = "monitor_cost",
						   .size = sizeof(struct xl_watch_est),
						   .json = watch_json };
const struct xl_row_part_ops xl_row_part_meter = { .key = "meter_cost",
						   .size = sizeof(struct xl_meter_cost),
						   .json = meter_json };

void xl_rows_print_profiles(FILE *out, const struct xl_row_result *rows, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct xl_profile *pr = xl_row_part(&rows[i], &xl_row_part_profile);

		if (!pr)
			continue;
		fprintf(out, "%s %uB, an extra repetition recorded by perf (not among the figures above):\n",
		       XL_ESC(rows[i].name), rows[i].size);
		if (pr->have_window && rows[i].nreps && rows[i].mpps.median > 0)
			/* --prog-time shares the repetition: its clock reads count too. */
			fprintf(out, "  with perf recording%s: %.2f Mpps (%+.1f%% of the median), CPU ns/packet %.1f (median %.1f)\n",
			       rows[i].prog_ns > 0 ? " and BPF run-time stats on (--prog-time)" : "",
			       pr->pps / 1e6, (pr->pps / 1e6 / rows[i].mpps.median - 1) * 100,
			       pr->cpu_ns_per_pkt, rows[i].cpu_ns_per_pkt);
		xl_profile_print(out, pr, "  ", 5);
	}
}

void xl_rows_print_prog_time(FILE *out, const struct xl_row_result *rows, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (!(rows[i].prog_ns > 0))
			continue;
		if (!k++)
			fprintf(out, "program time per run (the kernel's run_time_ns / run_cnt in an extra repetition with BPF stats on; not among the figures above):\n");
		fprintf(out, "  %-24s %5uB %9.1f ns\n", XL_ESC(rows[i].name), rows[i].size,
			rows[i].prog_ns);
	}
}
