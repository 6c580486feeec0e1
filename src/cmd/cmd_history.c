// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab history: a row's stored runs over time, each run summarised by
 * the median of its repetitions (as compare's several-runs method takes a
 * run), and the change points of that series (E-divisive means with a
 * permutation test, xdplab/changepoint.h). docs/store.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "xdplab/changepoint.h"
#include "xdplab/log.h"
#include "xdplab/stats.h"
#include "xdplab/store.h"

struct history_args {
	const char *db, *row, *label, *since;
	struct xl_cp_opts cp;
};

enum { O_SINCE };

static const struct xl_opt history_opts[] = {
	{ "db", 0, "DB", "the store: an SQLite file, or postgresql://... (default $XDG_DATA_HOME/xdplab/results.db)", XL_STR(struct history_args, db) },
	{ "row", 'r', "ROW", "only this row (drop/no-touch, redirect...; default every row)", XL_STR(struct history_args, row) },
	{ "label", 'l', "LABEL", "only the runs of this label", XL_STR(struct history_args, label) },
	{ "since", 's', "DATE", "only runs dated DATE or later: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)", O_SINCE },
	{ "alpha", 'a', "P", "significance of a change point (the permutation test's p), {range} (default {default})", XL_REAL(struct history_args, cp.alpha, 0.0001, 0.5) },
	{ "permutations", 0, "N", "permutations of the test, {range} (default {default})", XL_UINT(struct history_args, cp.permutations, 19, 99999) },
};

static const struct history_args history_defaults = {
	.cp = { .alpha = XL_CP_ALPHA_DEFAULT, .permutations = XL_CP_PERMUTATIONS_DEFAULT,
		.min_size = XL_CP_MIN_SIZE_DEFAULT },
};

static const struct xl_cmd_spec history_spec = {
	"history", "",
	"Each row's stored runs over time (date, label, xdplab commit, host, the median of the run's repetitions and their range) and its change points: E-divisive means (Matteson and James 2014, as Apache Otava uses it) over the runs' medians, each named with the run where the row changed, the size of the change and its permutation p-value. Exit 0 (also with change points), 1: the store failed, 2: usage.",
	history_opts, sizeof(history_opts) / sizeof(history_opts[0]),
	&history_defaults, sizeof(history_defaults),
};

/* YYYY-MM-DD, or with THH:MM:SSZ: digits where digits go. */
static bool date_ok(const char *s)
{
	static const char *const forms[] = { "dddd-dd-dd", "dddd-dd-ddTdd:dd:ddZ" };
	size_t i, k, n = strlen(s);

	for (k = 0; k < 2; k++) {
		if (n != strlen(forms[k]))
			continue;
		for (i = 0; i < n; i++)
			if (forms[k][i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != forms[k][i])
				break;
		if (i == n)
			return true;
	}
	return false;
}

static int on_opt(int id, const char *arg, void *ctx)
{
	struct history_args *a = ctx;

	if (id != O_SINCE)
		return -EINVAL;
	if (!date_ok(arg))
		return xl_usage_error(&history_spec, "--since: '%s' is not a date (accepted: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)",
				      arg);
	a->since = arg;
	return 0;
}

/*
 * A run's figure: the median over its repetitions of ns/packet (1e9/pps;
 * a repetition at 0 pps left out) or, @on_cpu, of DUT CPU ns/packet. Its
 * range (max - min) in *@range. NAN when no repetition has one.
 */
static double run_value(const struct xl_store_point *p, bool on_cpu, double *range)
{
	double v[XL_MAX_REPS];
	struct xl_summary s;
	int i, n = 0;

	for (i = 0; i < p->nreps; i++)
		if (on_cpu ? p->cpu_ns[i] > 0 : p->pps[i] > 0)
			v[n++] = on_cpu ? p->cpu_ns[i] : 1e9 / p->pps[i];
	if (!n)
		return NAN;
	s = xl_summarize(v, n);
	*range = s.max - s.min;
	return s.median;
}

/* Generator-bound in a run, and CPU figures in every run: the series is judged on CPU ns/packet, as compare does. */
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

static double median_of(const double *v, int from, int to)
{
	return xl_summarize(v + from, to - from).median;
}

/* One series: its table and change points. Return: change points found, or -errno. */
static int print_series(const struct xl_store_series *x, const struct xl_cp_opts *o)
{
	struct xl_cp_result cp;
	bool on_cpu = series_on_cpu(x);
	const char *unit = on_cpu ? "DUT CPU ns/packet" : "ns/packet (1e9/pps)";
	double *val, range = 0;
	int *at, i, n = 0, err, k;

	val = calloc(x->npts + 1, sizeof(*val));
	at = calloc(x->npts + 1, sizeof(*at));
	if (!val || !at) {
		free(val);
		free(at);
		return -ENOMEM;
	}
	printf("\n%s %u B (%s, %s, %s, %s): %s, each run's median over its repetitions\n",
	       XL_ESC(x->name), x->size, XL_ESC(x->op[0] ? x->op : "-"), XL_ESC(x->mode),
	       XL_ESC(x->wiring[0] ? x->wiring : "-"), XL_ESC(x->engine[0] ? x->engine : "-"), unit);
	printf("%6s  %-20s  %-24s  %-12s  %-16s  %4s  %10s  %9s  %s\n", "run", "date", "label",
	       "commit", "host", "reps", "median", "range", "verdict");
	for (i = 0; i < x->npts; i++) {
		const struct xl_store_point *p = &x->pts[i];
		double v = run_value(p, on_cpu, &range);
		char med[24] = "-", rng[24] = "-";

		if (v == v) {
			snprintf(med, sizeof(med), "%.2f", v);
			snprintf(rng, sizeof(rng), "%.1f%%", v > 0 ? range / v * 100 : 0);
			at[n] = i;
			val[n++] = v;
		}
		printf("%6lld  %-20s  %-24s  %-12s  %-16s  %4d  %10s  %9s  %s\n", p->run.id,
		       XL_ESC(p->run.date), XL_ESC(p->run.label[0] ? p->run.label : "-"),
		       XL_ESC(p->run.git), XL_ESC(p->run.host[0] ? p->run.host : "?"), p->nreps, med,
		       rng, XL_ESC(p->verdict));
	}
	err = xl_edivisive(val, n, o, &cp);
	if (err) {
		free(val);
		free(at);
		return err;
	}
	for (k = 0; k < cp.n; k++) {
		int from = k ? cp.cp[k - 1].index : 0, to = k + 1 < cp.n ? cp.cp[k + 1].index : n;
		const struct xl_store_point *p = &x->pts[at[cp.cp[k].index]];
		double before = median_of(val, from, cp.cp[k].index);
		double after = median_of(val, cp.cp[k].index, to);

		printf("change point at run %lld (%s, label %s, commit %s): median %.2f -> %.2f %s (%+.2f, %+.1f%%), p = %.4f\n",
		       p->run.id, XL_ESC(p->run.date), XL_ESC(p->run.label[0] ? p->run.label : "-"),
		       XL_ESC(p->run.git), before, after, on_cpu ? "CPU ns/packet" : "ns/packet",
		       after - before, before > 0 ? (after - before) / before * 100 : 0,
		       cp.cp[k].p);
	}
	if (!cp.n && cp.last_index < 0)
		printf("no change point: %d run(s) with figures, too few to test (at least %d a side)\n",
		       n, o->min_size);
	else if (cp.last_index >= 0)
		printf("no %schange point: the best %scandidate, at run %lld, has p = %.4f > alpha %g\n",
		       cp.n ? "further " : "", cp.n ? "further " : "",
		       x->pts[at[cp.last_index]].run.id, cp.last_p, o->alpha);
	free(val);
	free(at);
	return cp.n;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a;
	struct xl_store_series *ser;
	struct xl_store *s;
	char err[1024];
	int idx, ret, i, n, found = 0, r;

	idx = xl_opts_parse(&history_spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc) {
		xl_usage_error(&history_spec, "no argument expected (got '%s'); --row ROW names a row",
			       argv[idx]);
		return XL_EXIT_USAGE;
	}
	s = xl_cmd_store_open(&history_spec, a.db, false, &ret);
	if (!s)
		return ret;
	if (xl_store_history(s, a.row, a.label, a.since, &ser, &n, err, sizeof(err))) {
		xl_usage_error(&history_spec, "%s", err);
		xl_store_close(s);
		return XL_EXIT_RUNTIME;
	}
	printf("xdplab history: %s%s%s%s%s%s%s\n", XL_ESC(xl_store_name(s)),
	       a.row ? ", row " : "", a.row ? XL_ESC(a.row) : "", a.label ? ", label " : "",
	       a.label ? XL_ESC(a.label) : "", a.since ? ", since " : "", a.since ? a.since : "");
	ret = XL_EXIT_OK;
	for (i = 0; i < n; i++) {
		r = print_series(&ser[i], &a.cp);
		if (r < 0) {
			xl_usage_error(&history_spec, "%s", strerror(-r));
			ret = XL_EXIT_RUNTIME;
			break;
		}
		found += r;
	}
	if (!n)
		printf("no stored run has %s%s\n", a.row ? "the row " : "rows",
		       a.row ? XL_ESC(a.row) : "");
	printf("\n%d row(s), %d change point(s): E-divisive means (Matteson and James 2014) over each run's median, permutation test with alpha %g and %d permutations, at least %d runs on each side of a change point\n",
	       n, found, a.cp.alpha, a.cp.permutations, a.cp.min_size);
	xl_store_series_free(ser, n);
	xl_store_close(s);
	return ret;
}
