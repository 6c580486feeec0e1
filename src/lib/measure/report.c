// SPDX-License-Identifier: BSD-2-Clause
/* Lab results: derived figures, the table, the JSON document (jansson). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "xdplab/atomicfile.h"
#include "xdplab/env.h"
#include "xdplab/hostctl.h"
#include "xdplab/report.h"
#include "xdplab/stats.h"

/* The median of the @n values of @v that are known (@ok), 0 and !*@any when none. */
static double median_known(const double *v, const bool *ok, int n, bool *any)
{
	double k[XL_MAX_REPS];
	int i, m = 0;

	for (i = 0; i < n; i++)
		if (ok[i])
			k[m++] = v[i];
	*any = m > 0;
	return m ? xl_summarize(k, m).median : 0;
}

/* The host control's, the relative figures', the steal marks' and the counts' summaries of @r. */
static void host_figures(struct xl_row_result *r)
{
	double v[XL_MAX_REPS], rel[XL_MAX_REPS], crel[XL_MAX_REPS];
	bool ok[XL_MAX_REPS], rok[XL_MAX_REPS], cok[XL_MAX_REPS], any;
	int i, ev, n = 0;

	r->nsteal_high = 0;
	for (i = 0; i < r->nreps; i++) {
		const struct xl_rep_result *p = &r->reps[i];
		double c = p->ctl_ns;

		r->nsteal_high += p->steal_ok && p->steal_high;
		if (c > 0)
			v[n++] = c;
		rok[i] = c > 0 && p->pps > 0;
		rel[i] = rok[i] ? xl_ns_per_pkt(p->pps) / c : 0;
		cok[i] = c > 0 && p->cpu_ns_per_pkt > 0;
		crel[i] = cok[i] ? p->cpu_ns_per_pkt / c : 0;
	}
	r->ctl = n ? xl_summarize(v, n) : (struct xl_summary){ 0 };
	r->rel_ns_per_pkt = median_known(rel, rok, r->nreps, &any);
	r->rel_cpu_ns_per_pkt = median_known(crel, cok, r->nreps, &any);
	memset(&r->pmu, 0, sizeof(r->pmu));
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		for (i = 0; i < r->nreps; i++) {
			ok[i] = r->reps[i].pmu.ok[ev];
			v[i] = r->reps[i].pmu.per_pkt[ev];
		}
		r->pmu.per_pkt[ev] = median_known(v, ok, r->nreps, &r->pmu.ok[ev]);
	}
	for (i = 0; i < r->nreps; i++) {
		ok[i] = r->reps[i].pmu.ipc_ok;
		v[i] = r->reps[i].pmu.ipc;
	}
	r->pmu.ipc = median_known(v, ok, r->nreps, &r->pmu.ipc_ok);
}

double xl_rows_ctl_ref(const struct xl_row_result *rows, int n)
{
	double *v;
	size_t k = 0;
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < rows[i].nreps; j++)
			k += rows[i].reps[j].ctl_ns > 0;
	if (!k || !(v = malloc(k * sizeof(*v))))
		return 0;
	k = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < rows[i].nreps; j++)
			if (rows[i].reps[j].ctl_ns > 0)
				v[k++] = rows[i].reps[j].ctl_ns;
	{
		double ref = xl_summarize(v, k).median;

		free(v);
		return ref;
	}
}

double xl_rows_print_ctl(FILE *out, const struct xl_row_result *rows, int n)
{
	double ref = xl_rows_ctl_ref(rows, n), lo = 0, hi = 0;
	int i, reps = 0;

	if (ref <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!rows[i].ctl.n)
			continue;
		lo = reps && lo < rows[i].ctl.min ? lo : rows[i].ctl.min;
		hi = hi > rows[i].ctl.max ? hi : rows[i].ctl.max;
		reps += rows[i].ctl.n;
	}
	fprintf(out, "host-speed control (a fixed program, %d multiply-adds, on the judged CPU before each repetition): %.1f ns/run, the median of %d repetitions (%.1f-%.1f); --json has each row's figures per control run and corrected to %.1f\n",
	       XL_HOSTCTL_ITERS, ref, reps, lo, hi, ref);
	return ref;
}

void xl_row_finish(struct xl_row_result *r)
{
	double v[XL_MAX_REPS];
	int i;

	r->xmit_errors = 0;
	r->disagreement = 0;
	r->mismatch = false;
	if (!r->nreps)
		return;
#define MEDIAN_OF(field) ({ for (i = 0; i < r->nreps; i++) v[i] = r->reps[i].field; \
			    xl_summarize(v, r->nreps).median; })
	for (i = 0; i < r->nreps; i++)
		v[i] = r->reps[i].pps / 1e6;
	r->mpps = xl_summarize(v, r->nreps);
	r->ns_per_pkt = xl_ns_per_pkt(r->mpps.median * 1e6);
	r->cpu_busy = MEDIAN_OF(cpu_busy);
	r->cpu_ns_per_pkt = MEDIAN_OF(cpu_ns_per_pkt);
	r->gen_mpps = MEDIAN_OF(gen_pps) / 1e6;
#undef MEDIAN_OF
	r->ring_drop_share = 0;
	{
		uint64_t offered = 0;

		/* Counts, not rates turned back into counts. */
		for (i = 0; i < r->nreps; i++)
			offered += r->reps[i].gen_sent;
		for (i = 0; i < r->nreps; i++)
			r->ring_drop_share += r->reps[i].gen_xmit_errors;
		r->ring_drop_share = offered ? r->ring_drop_share / offered : 0;
		if (r->ring_drop_share > 1)
			r->ring_drop_share = 1;
	}
	for (i = 0; i < r->nreps; i++) {
		r->xmit_errors += r->reps[i].gen_xmit_errors;
		if (r->reps[i].eth_ok && r->reps[i].disagreement > r->disagreement)
			r->disagreement = r->reps[i].disagreement;
	}
	r->mismatch = r->disagreement > XL_COUNTER_TOLERANCE;
	r->valid = r->cpu_busy >= XL_SATURATED_SHARE;
	r->cpu_source = NULL;
	for (i = 0; i < r->nreps; i++) {
		const char *s = r->reps[i].cpu_source;

		if (s && r->cpu_source && strcmp(s, r->cpu_source))
			r->cpu_source = "mixed"; /* XL_CPU_SRC_MIXED */
		else if (s && !r->cpu_source)
			r->cpu_source = s;
	}
	host_figures(r);
}

const char *xl_row_verdict(const struct xl_row_result *r)
{
	if (!r->nreps)
		return "n/a";
	if (!strcmp(r->kind, "gen"))
		return "ceiling";
	return r->valid ? "valid" : "generator-bound";
}

void xl_report_table(FILE *out, const struct xl_row_result *rows, int n,
		     const char *header)
{
	int i, j, w = XL_TABLE_NAME_MIN;

	/* The name column fits the longest name printed (redirect/b1+mon-floor: 21). */
	for (i = 0; i < n; i++)
		if ((int)strlen(rows[i].name) > w)
			w = strlen(rows[i].name);
	if (header)
		fprintf(out, "%s\n", header);
	fprintf(out, "%-*s %5s %-7s %-9s %21s %9s %8s %9s %8s %7s  %s\n", w, "benchmark",
		"size", "mode", "wiring", "Mpps median (min-max)", "ns/packet",
		"DUT CPU", "CPU ns/p", "gen Mpps", "check", "verdict");
	for (i = 0; i < n; i++) {
		const struct xl_row_result *r = &rows[i];
		char mpps[40], check[16], ring[48], steal[48];

		if (!r->nreps) {
			fprintf(out, "%-*s %5u %-7s %-9s %21s  %s\n", w, r->name, r->size, r->mode,
				r->wiring ? r->wiring : "-", "-", r->note[0] ? r->note : "n/a");
			continue;
		}
		snprintf(mpps, sizeof(mpps), "%.2f (%.2f-%.2f)", r->mpps.median, r->mpps.min,
			 r->mpps.max);
		for (j = 0; j < r->nreps && !r->reps[j].eth_ok; j++)
			;
		/* "-": no kernel count to check against (a driver without veth's counters). */
		if (!strcmp(r->kind, "gen") || j == r->nreps)
			snprintf(check, sizeof(check), "-");
		else if (r->counter && !strncmp(r->counter, "driver:", 7))
			snprintf(check, sizeof(check), "drv"); /* the count is the kernel's own */
		else
			snprintf(check, sizeof(check), "%s%.1f%%", r->mismatch ? "!" : "",
				 r->disagreement * 100);
		if (strcmp(r->kind, "gen") && r->ring_drop_share > 0.01)
			snprintf(ring, sizeof(ring), "; veth ring refused %.0f%% of offered",
				 r->ring_drop_share * 100);
		else
			ring[0] = '\0';
		if (r->nsteal_high)
			snprintf(steal, sizeof(steal), "; steal > %.0f%% in %d of %d reps",
				 XL_STEAL_HIGH_SHARE * 100, r->nsteal_high, r->nreps);
		else
			steal[0] = '\0';
		fprintf(out, "%-*s %5u %-7s %-9s %21s %9.1f %7.0f%% %9.1f %8.2f %7s  %s%s%s%s%s%s\n",
			w, r->name, r->size, r->mode, r->wiring, mpps, r->ns_per_pkt,
			r->cpu_busy * 100, r->cpu_ns_per_pkt, r->gen_mpps, check,
			xl_row_verdict(r), r->mismatch ? ", counts disagree" : "", ring, steal,
			r->note[0] ? "; " : "", r->note);
	}
}

/* @v as a JSON number when @known, else null. */
static json_t *num_or_null(bool known, double v)
{
	return known ? json_real(v) : json_null();
}

/* One repetition (or one interval of a single command): its figures, by its field table. */
static json_t *rep_json(const struct xl_rep_result *p)
{
	json_t *o = json_object();

	if (o && xl_fields_to_json(o, xl_rep_fields, XL_REP_F__COUNT, p)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *row_json(const struct xl_row_result *r, double ref)
{
	json_t *o = json_object();
	int i;

	/* The members of the field table, its repetitions with it. */
	xl_fields_to_json(o, xl_row_fields, XL_ROW_F__COUNT, r);
	/* Not the row's: scaled by the run's reference control. */
	json_object_set_new(o, "ns_per_pkt_corrected",
			    num_or_null(r->rel_ns_per_pkt > 0 && ref > 0, r->rel_ns_per_pkt * ref));
	json_object_set_new(o, "cpu_ns_per_pkt_corrected",
			    num_or_null(r->rel_cpu_ns_per_pkt > 0 && ref > 0,
					r->rel_cpu_ns_per_pkt * ref));
	/* Each family's part, by its own writer (struct xl_row_part_ops). */
	for (i = 0; i < XL_ROW_PARTS && r->parts[i].ops; i++) {
		json_t *v = r->parts[i].ops->json(r->parts[i].data);

		if (v)
			json_object_set_new(o, r->parts[i].ops->key, v);
	}
	return o;
}

char *xl_sens_line(const struct xl_sens_result *s, char *buf, size_t len)
{
	if (s->detected_ns >= 0)
		snprintf(buf, len, "this lab detects >= %g ns/packet on %s at %u B with %d reps",
			 s->detected_ns, s->name, s->size, s->reps);
	else
		snprintf(buf, len, "%s at %u B with %d reps: %s", s->name, s->size, s->reps,
			 s->note[0] ? s->note : "no cost tried was detected");
	return buf;
}

/* The "sensitivity" array: one object per drop row searched. */
static json_t *sens_json(const struct xl_sens_result *s, int n)
{
	json_t *arr = json_array(), *tries;
	char line[256];
	int i, j;

	for (i = 0; i < n; i++) {
		tries = json_array();
		for (j = 0; j < s[i].ntries; j++) {
			const struct xl_sens_try *t = &s[i].tries[j];

			json_array_append_new(tries, json_pack("{s:f,s:f,s:f,s:f,s:f,s:s,s:b,s:b}",
				"extra_ns", t->extra_ns, "set_ns", t->set_ns,
				"ns_per_iter", t->ns_per_iter, "p", t->p,
				"delta_ns", t->delta_ns, "metric",
				t->on_cpu ? "cpu_ns_per_pkt" : "ns_per_pkt", "regression",
				t->regression, "confirmation", t->confirmation));
		}
		json_array_append_new(arr, json_pack("{s:s,s:i,s:i,s:o,s:f,s:s,s:s,s:o}",
			"name", s[i].name, "size", (int)s[i].size, "reps", s[i].reps,
			"detected_ns", s[i].detected_ns >= 0 ? json_real(s[i].detected_ns) : json_null(),
			"ns_per_iter", s[i].ns_per_iter, "note", s[i].note,
			"line", xl_sens_line(&s[i], line, sizeof(line)), "tries", tries));
	}
	return arr;
}

/* The "machine" object: what compare sets side by side (xdplab/env.h). */
static json_t *machine_json(void)
{
	struct xl_env e;
	json_t *m, *v = json_object();
	int i;

	xl_env_read(&e);
	for (i = 0; i < e.nvulns; i++)
		json_object_set_new(v, e.vuln_name[i], json_string(e.vuln_state[i]));
	m = json_pack("{s:s,s:s,s:i,s:s,s:s}", "kernel", e.kernel, "arch", e.arch, "cpus",
		      e.cpus, "cpu_model", e.cpu_model, "host", e.host);
	json_object_set_new(m, "bpf_jit_enable",
			    e.jit_enable >= 0 ? json_integer(e.jit_enable) : json_null());
	json_object_set_new(m, "bpf_jit_harden",
			    e.jit_harden >= 0 ? json_integer(e.jit_harden) : json_null());
	json_object_set_new(m, "cmdline_mitigations", json_string(e.cmdline_mitigations));
	json_object_set_new(m, "vulnerabilities", v);
	/* What makes noise: null where this machine does not say. */
	json_object_set_new(m, "governor", e.governor[0] ? json_string(e.governor) : json_null());
	json_object_set_new(m, "boost", e.boost >= 0 ? json_boolean(e.boost) : json_null());
	json_object_set_new(m, "smt", e.smt[0] ? json_string(e.smt) : json_null());
	json_object_set_new(m, "smt_active",
			    e.smt_active >= 0 ? json_boolean(e.smt_active) : json_null());
	return m;
}

int xl_report_json_write(FILE *f, const struct xl_report_meta *meta,
			 const struct xl_row_result *rows, int n)
{
	json_t *doc = json_object(), *arr = json_array(), *cfg;
	char date[32];
	time_t now = time(NULL);
	int i, err;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_set_new(doc, "schema", json_string(meta->schema ? meta->schema :
						       meta->command ? XL_RUN_RESULTS_SCHEMA :
								       XL_RESULTS_SCHEMA));
	json_object_set_new(doc, "date", json_string(date));
	json_object_set_new(doc, "git", json_string(meta->git ? meta->git : ""));
	json_object_set_new(doc, "machine", machine_json());
	if (!meta->command && !meta->schema) {
		json_t *m = json_object_get(doc, "machine");

		json_object_set_new(m, "lab_irqs", meta->lab_irqs ? json_string(meta->lab_irqs) :
								    json_null());
		json_object_set_new(m, "lab_irqs_note",
				    json_string(meta->lab_irqs_note ? meta->lab_irqs_note : ""));
		json_object_set_new(doc, "host_control", meta->ctl_on ? json_pack(
			"{s:s,s:i,s:i,s:i,s:s,s:o,s:s}", "program", "bpf/hostctl.bpf.c",
			"iters", XL_HOSTCTL_ITERS, "bursts", XL_HOSTCTL_BURSTS,
			"calls_per_burst", XL_HOSTCTL_CALLS,
			"statistic", "the fastest burst's mean ns per run",
			"ref_ns", num_or_null(meta->ctl_ref_ns > 0, meta->ctl_ref_ns),
			"ref", "the median of every repetition's control in this run") :
			json_null());
		json_object_set_new(doc, "pmu", json_pack("{s:b,s:o}", "available", !meta->pmu_reason,
			"reason", meta->pmu_reason ? json_string(meta->pmu_reason) : json_null()));
	}
	cfg = json_pack("{s:i,s:f,s:f,s:f,s:f,s:f}", "reps", meta->reps, "seconds", meta->seconds,
			"warmup", meta->warmup, "saturated_share", XL_SATURATED_SHARE,
			"counter_tolerance", XL_COUNTER_TOLERANCE,
			"steal_high_share", XL_STEAL_HIGH_SHARE);
	if (meta->wiring)
		json_object_set_new(cfg, "wiring", json_string(meta->wiring));
	if (meta->extra)
		json_object_set_new(cfg, "extra_ns", json_real(meta->extra_ns));
	if (meta->sens)
		json_object_set_new(doc, "sensitivity", sens_json(meta->sens, meta->nsens));
	json_object_set_new(doc, "config", cfg);
	json_object_set_new(doc, "lab", json_string(meta->lab_tag ? meta->lab_tag : ""));
	if (meta->command) {
		json_t *iv = json_array();

		json_object_set_new(doc, "command", json_string(meta->command));
		json_object_set_new(json_object_get(doc, "config"), "interval",
				    json_real(meta->interval));
		for (i = 0; i < meta->nintervals; i++) {
			json_t *rec = rep_json(&meta->intervals[i].r);

			json_object_set_new(rec, "t", json_real(meta->intervals[i].t));
			json_object_set_new(rec, "rep", json_integer(meta->intervals[i].rep));
			json_array_append_new(iv, rec);
		}
		json_object_set_new(doc, "intervals", iv);
	}
	for (i = 0; i < n; i++)
		json_array_append_new(arr, row_json(&rows[i], meta->ctl_ref_ns));
	json_object_set_new(doc, "rows", arr);
	if (meta->extra_json) {
		json_t *x = json_loads(meta->extra_json, 0, NULL);

		if (!json_is_object(x)) {
			json_decref(x);
			json_decref(doc);
			return -EINVAL;
		}
		json_object_update(doc, x);
		json_decref(x);
	}
	err = json_dumpf(doc, f, JSON_INDENT(2) | JSON_SORT_KEYS) ? -EIO : 0;
	json_decref(doc);
	return err;
}

int xl_report_json(const char *path, const struct xl_report_meta *meta,
		   const struct xl_row_result *rows, int n)
{
	struct xl_afile a;
	int err = xl_afile_open_user(&a, path, 0644);

	if (err)
		return err;
	err = xl_report_json_write(a.f, meta, rows, n);
	if (err && !a.err) { /* not a write's: nothing to keep */
		xl_afile_abort(&a);
		return err;
	}
	return xl_afile_commit(&a);
}
