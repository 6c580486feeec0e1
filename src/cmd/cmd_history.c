// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab history: a row's stored runs over time, each run summarised by
 * the median of its repetitions (as compare's several-runs method takes a
 * run), and the change points of that series (E-divisive means with a
 * permutation test, xdplab/changepoint.h). docs/store.md.
 */
#include <errno.h>
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
		r = xl_trend_write(stdout, &ser[i], &a.cp);
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
