// SPDX-License-Identifier: BSD-2-Clause
/*
 * A stored row's trend (xdplab/trend.h): run figures, change points and
 * their sizes, for history's table and its HTML page alike; the table
 * written out (xl_trend_write()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare_runs.h"
#include "xdplab/escape.h"
#include "xdplab/stats.h"
#include "xdplab/trend.h"

/* Generator-bound in a run and CPU figures in every repetition: judged on CPU ns/packet, as compare does. */
static bool series_on_cpu(const struct xl_store_series *x)
{
	bool bound = false;
	int i, k;

	for (i = 0; i < x->npts; i++) {
		bound |= !strcmp(x->pts[i].verdict, "generator-bound");
		for (k = 0; k < x->pts[i].nreps; k++)
			if (!(x->pts[i].cpu_ns[k] > 0))
				return false;
	}
	return bound;
}

/*
 * A run's median figure, smallest and largest: compare's run summary
 * (xl_cmp_run_summary()); NAN when it has no repetition or its median is
 * not finite (most repetitions at 0 pps: no figure to place in a trend).
 */
static double run_value(const struct xl_store_point *p, bool on_cpu, double *lo, double *hi)
{
	struct xl_summary s = xl_cmp_run_summary(p->pps, p->cpu_ns, p->nreps, on_cpu);

	*lo = *hi = NAN;
	if (!p->nreps || !isfinite(s.median))
		return NAN;
	*lo = s.min;
	*hi = s.max;
	return s.median;
}

int xl_trend_of(const struct xl_store_series *x, const struct xl_cp_opts *o, struct xl_trend *t)
{
	struct xl_cp_result r;
	double *val;
	int *at, i, k, n = 0, err;

	memset(t, 0, sizeof(*t));
	t->last_point = -1;
	t->last_p = 1;
	t->on_cpu = series_on_cpu(x);
	t->value = calloc(x->npts + 1, sizeof(double));
	t->lo = calloc(x->npts + 1, sizeof(double));
	t->hi = calloc(x->npts + 1, sizeof(double));
	val = calloc(x->npts + 1, sizeof(double));
	at = calloc(x->npts + 1, sizeof(int));
	err = t->value && t->lo && t->hi && val && at ? 0 : -ENOMEM;
	for (i = 0; !err && i < x->npts; i++) {
		t->value[i] = run_value(&x->pts[i], t->on_cpu, &t->lo[i], &t->hi[i]);
		if (t->value[i] == t->value[i]) {
			at[n] = i;
			val[n++] = t->value[i];
		}
	}
	t->nvalues = n;
	if (!err)
		err = xl_edivisive(val, n, o, &r);
	for (k = 0; !err && k < r.n; k++) {
		int from = k ? r.cp[k - 1].index : 0, to = k + 1 < r.n ? r.cp[k + 1].index : n;

		t->cp[k] = (struct xl_trend_cp){
			.point = at[r.cp[k].index],
			.before = xl_summarize(val + from, r.cp[k].index - from).median,
			.after = xl_summarize(val + r.cp[k].index, to - r.cp[k].index).median,
			.p = r.cp[k].p,
		};
	}
	if (!err) {
		t->ncp = r.n;
		t->last_point = r.last_index >= 0 ? at[r.last_index] : -1;
		t->last_p = r.last_p;
	}
	free(val);
	free(at);
	if (err)
		xl_trend_free(t);
	return err;
}

void xl_trend_free(struct xl_trend *t)
{
	free(t->value);
	free(t->lo);
	free(t->hi);
	t->value = t->lo = t->hi = NULL;
}

int xl_trend_write(FILE *out, const struct xl_store_series *x, const struct xl_cp_opts *o)
{
	struct xl_trend t;
	int i, k, err = xl_trend_of(x, o, &t);

	if (err)
		return err;
	fprintf(out, "\n%s %u B (%s, %s, %s, %s): %s, each run's median over its repetitions\n",
	       XL_ESC(x->name), x->size, XL_ESC(x->op[0] ? x->op : "-"), XL_ESC(x->mode),
	       XL_ESC(x->wiring[0] ? x->wiring : "-"), XL_ESC(x->engine[0] ? x->engine : "-"),
	       t.on_cpu ? "DUT CPU ns/packet" : "ns/packet (1e9/pps)");
	fprintf(out, "%6s  %-20s  %-24s  %-12s  %-16s  %4s  %10s  %9s  %s\n", "run", "date", "label",
	       "commit", "host", "reps", "median", "range", "verdict");
	for (i = 0; i < x->npts; i++) {
		const struct xl_store_point *p = &x->pts[i];
		double v = t.value[i];
		char med[24] = "-", rng[24] = "-";

		if (v == v) {
			snprintf(med, sizeof(med), "%.2f", v);
			snprintf(rng, sizeof(rng), isfinite(t.hi[i]) ? "%.1f%%" : "0 pps",
				 v > 0 ? (t.hi[i] - t.lo[i]) / v * 100 : 0);
		}
		fprintf(out, "%6lld  %-20s  %-24s  %-12s  %-16s  %4d  %10s  %9s  %s\n", p->run.id,
		       XL_ESC(p->run.date), XL_ESC(p->run.label[0] ? p->run.label : "-"),
		       XL_ESC(p->run.git), XL_ESC(p->run.host[0] ? p->run.host : "?"), p->nreps, med,
		       rng, XL_ESC(p->verdict));
	}
	for (k = 0; k < t.ncp; k++) {
		const struct xl_trend_cp *c = &t.cp[k];
		const struct xl_store_point *p = &x->pts[c->point];

		fprintf(out, "change point at run %lld (%s, label %s, commit %s): median %.2f -> %.2f %s (%+.2f, %+.1f%%), p = %.4f\n",
		       p->run.id, XL_ESC(p->run.date), XL_ESC(p->run.label[0] ? p->run.label : "-"),
		       XL_ESC(p->run.git), c->before, c->after, t.on_cpu ? "CPU ns/packet" : "ns/packet",
		       c->after - c->before,
		       c->before > 0 ? (c->after - c->before) / c->before * 100 : 0, c->p);
	}
	if (!t.ncp && t.last_point < 0)
		fprintf(out, "no change point: %d run(s) with figures, too few to test (at least %d a side)\n",
		       t.nvalues, o->min_size);
	else if (t.last_point >= 0)
		fprintf(out, "no %schange point: the best %scandidate, at run %lld, has p = %.4f > alpha %g\n",
		       t.ncp ? "further " : "", t.ncp ? "further " : "",
		       x->pts[t.last_point].run.id, t.last_p, o->alpha);
	k = t.ncp;
	xl_trend_free(&t);
	return ferror(out) ? -EIO : k;
}
