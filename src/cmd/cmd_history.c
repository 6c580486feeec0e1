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
#include "xdplab/htmlreport.h"
#include "xdplab/log.h"
#include "xdplab/store.h"
#include "xdplab/trend.h"

struct history_args {
	const char *db, *row, *label, *since, *html;
	struct xl_cp_opts cp;
};

enum { O_SINCE };

static const struct xl_opt history_opts[] = {
	{ "db", 0, "DB", "the store: an SQLite file, or postgresql://... (default $XDG_DATA_HOME/xdplab/results.db)", XL_STR(struct history_args, db) },
	{ "row", 'r', "ROW", "only this row (drop/no-touch, redirect...; default every row)", XL_STR(struct history_args, row) },
	{ "label", 'l', "LABEL", "only the runs of this label", XL_STR(struct history_args, label) },
	{ "since", 's', "DATE", "only runs dated DATE or later: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)", O_SINCE },
	{ "alpha", 'a', "P", "significance of a change point (the permutation test's p), {range} (default {default})", XL_REAL(struct history_args, cp.alpha, 0.0001, 0.5) },
	{ "html", 'o', "FILE", "also write the trends as one HTML page: a chart per row, a bar per run, grouped between change points", XL_STR(struct history_args, html) },
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

/* One series: its table and change points. Return: change points found, or -errno. */
static int print_series(const struct xl_store_series *x, const struct xl_cp_opts *o)
{
	struct xl_trend t;
	int i, k, err = xl_trend_of(x, o, &t);

	if (err)
		return err;
	printf("\n%s %u B (%s, %s, %s, %s): %s, each run's median over its repetitions\n",
	       XL_ESC(x->name), x->size, XL_ESC(x->op[0] ? x->op : "-"), XL_ESC(x->mode),
	       XL_ESC(x->wiring[0] ? x->wiring : "-"), XL_ESC(x->engine[0] ? x->engine : "-"),
	       t.on_cpu ? "DUT CPU ns/packet" : "ns/packet (1e9/pps)");
	printf("%6s  %-20s  %-24s  %-12s  %-16s  %4s  %10s  %9s  %s\n", "run", "date", "label",
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
		printf("%6lld  %-20s  %-24s  %-12s  %-16s  %4d  %10s  %9s  %s\n", p->run.id,
		       XL_ESC(p->run.date), XL_ESC(p->run.label[0] ? p->run.label : "-"),
		       XL_ESC(p->run.git), XL_ESC(p->run.host[0] ? p->run.host : "?"), p->nreps, med,
		       rng, XL_ESC(p->verdict));
	}
	for (k = 0; k < t.ncp; k++) {
		const struct xl_trend_cp *c = &t.cp[k];
		const struct xl_store_point *p = &x->pts[c->point];

		printf("change point at run %lld (%s, label %s, commit %s): median %.2f -> %.2f %s (%+.2f, %+.1f%%), p = %.4f\n",
		       p->run.id, XL_ESC(p->run.date), XL_ESC(p->run.label[0] ? p->run.label : "-"),
		       XL_ESC(p->run.git), c->before, c->after, t.on_cpu ? "CPU ns/packet" : "ns/packet",
		       c->after - c->before,
		       c->before > 0 ? (c->after - c->before) / c->before * 100 : 0, c->p);
	}
	if (!t.ncp && t.last_point < 0)
		printf("no change point: %d run(s) with figures, too few to test (at least %d a side)\n",
		       t.nvalues, o->min_size);
	else if (t.last_point >= 0)
		printf("no %schange point: the best %scandidate, at run %lld, has p = %.4f > alpha %g\n",
		       t.ncp ? "further " : "", t.ncp ? "further " : "",
		       x->pts[t.last_point].run.id, t.last_p, o->alpha);
	k = t.ncp;
	xl_trend_free(&t);
	return k;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a;
	struct xl_store_series *ser;
	struct xl_store *s;
	char err[1024], title[1024];
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
	snprintf(title, sizeof(title), "%s%s%s%s%s%s%s", xl_store_name(s), a.row ? ", row " : "",
		 a.row ? a.row : "", a.label ? ", label " : "", a.label ? a.label : "",
		 a.since ? ", since " : "", a.since ? a.since : "");
	printf("xdplab history: %s\n", XL_ESC(title));
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
	if (ret == XL_EXIT_OK && a.html &&
	    xl_html_history(a.html, title, ser, n, &a.cp, err, sizeof(err))) {
		xl_usage_error(&history_spec, "%s", err);
		ret = XL_EXIT_RUNTIME;
	}
	printf("\n%d row(s), %d change point(s): E-divisive means (Matteson and James 2014) over each run's median, permutation test with alpha %g and %d permutations, at least %d runs on each side of a change point\n",
	       n, found, a.cp.alpha, a.cp.permutations, a.cp.min_size);
	xl_store_series_free(ser, n);
	xl_store_close(s);
	return ret;
}
