// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_htmlreport.c - the HTML report's latency section (src/lib/html/
 * html_lat.c): for the hand-made runs tests/unit/data/lat-{base,new}.json
 * (docs/compare.md "Latency rows"), the page has the latency table (a row
 * per latency row), the chart (p50, p99 and max per measured row, on a
 * log axis) and, with BASE, the latency rows compared; a run without
 * latency rows has no such section. Run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/htmlreport.h"

#include "test_util.h"

/* The tests' own directory under $TMPDIR (tmp_dir_make()). */
static char dir[256];

static int setup_dir(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "html");
}

static int teardown_dir(void **state)
{
	return tmp_dir_remove(dir);
}

static int count_of(const char *hay, const char *end, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)) && (!end || hay < end); hay++)
		n++;
	return n;
}

static void fixture(char *path, size_t len, const char *name)
{
	char *slash;

	snprintf(path, len, "%s", __FILE__);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, len - (slash ? slash + 1 - path : 0), "data/%s", name);
}

/* The report of @run (and @base) as a string (caller frees). */
static char *report(const char *run, const char *base)
{
	char out[320], err[512] = "", *buf;
	FILE *f;
	long len;

	snprintf(out, sizeof(out), "%s/report.html", dir);
	assert_int_equal(xl_html_report(run, base, out, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	f = fopen(out, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	unlink(out);
	return buf;
}

static void test_latency_section(void **state)
{
	char pb[512], pn[512], *s;
	const char *chart, *chart_end, *tab, *tab_end;

	fixture(pb, sizeof(pb), "lat-base.json");
	fixture(pn, sizeof(pn), "lat-new.json");
	s = report(pn, NULL);
	assert_non_null(strstr(s, "<h2>Latency rows</h2>"));
	assert_non_null(strstr(s, "data-latency-rows=\"7\""));
	/* The table: a header and 7 rows, figures in us. */
	tab = strstr(s, "<table data-table=\"latency\">");
	assert_non_null(tab);
	tab_end = strstr(tab, "</table>");
	assert_int_equal(count_of(tab, tab_end, "<tr>"), 8);
	assert_non_null(strstr(tab, "<tr><td>lat/one-way/low</td><td class=\"n\">64</td><td>softirq</td>"
				    "<td>10 kpps</td><td class=\"n\">4</td><td class=\"n\">10000</td>"
				    "<td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">0</td>"
				    "<td class=\"n\">0</td><td class=\"n\">10.8</td>"));
	assert_non_null(strstr(tab, "<td>lat/rt-l2fwd/load</td><td class=\"n\">64</td><td>softirq</td>"
				    "<td>unpaced</td><td class=\"n\">4</td><td class=\"n\">700000</td>"
				    "<td class=\"n\">500000</td>"));
	assert_non_null(strstr(tab, "<td>interrupted after 0 of 4 repetitions</td>"));
	/* The chart: 6 measured rows x p50, p99, max; the seventh says why not. */
	chart = strstr(s, "data-chart=\"latency\"");
	assert_non_null(chart);
	chart_end = strstr(chart, "</svg>");
	assert_int_equal(count_of(chart, chart_end, "<rect class=\"bar lat-p50\""), 6);
	assert_int_equal(count_of(chart, chart_end, "<rect class=\"bar lat-p99\""), 6);
	assert_int_equal(count_of(chart, chart_end, "<rect class=\"bar lat-max\""), 6);
	assert_int_equal(count_of(chart, chart_end, "<line class=\"whisker\""), 18 * 3);
	assert_int_equal(count_of(chart, chart_end, "class=\"group\""), 7);
	assert_non_null(strstr(chart, ">lat/one-way/low 64 B softirq</text>"));
	assert_non_null(strstr(chart, "<title>not measured: interrupted after 0 of 4 repetitions</title>"));
	/* Log axis: decades from 1 us (the smallest whisker end, 7.7 us) to 1e5 us. */
	assert_non_null(strstr(chart, "text-anchor=\"middle\">1</text>"));
	assert_non_null(strstr(chart, "text-anchor=\"middle\">100000</text>"));
	assert_null(strstr(s, "data-table=\"latency-compare\""));
	free(s);

	/* With BASE: the pairs, one-way/low's p50 regression and rt-tx/low's loss. */
	s = report(pn, pb);
	tab = strstr(s, "<table data-table=\"latency-compare\">");
	assert_non_null(tab);
	tab_end = strstr(tab, "</table>");
	assert_int_equal(count_of(tab, tab_end, "<tr"), 9);
	assert_non_null(strstr(tab, "<tr class=\"regression\"><td>lat/one-way/low</td><td class=\"n\">64</td>"
				    "<td>softirq</td><td class=\"n\">7.7</td><td class=\"n\">10.8</td>"
				    "<td class=\"n\">+40.0%</td><td class=\"n\">0.029</td>"));
	assert_non_null(strstr(tab, "<td>improvement; lost rose from 0; gaps rose from 0</td>"));
	assert_non_null(strstr(tab, "<td>not comparable: wiring differs: softirq vs threaded; lost rose from 0; gaps rose from 0</td>"));
	assert_non_null(strstr(tab, "<td>only in BASE</td>"));
	assert_non_null(strstr(s, "3 latency rows compared: 1 regressions, 1 improvements"));
	free(s);
}

static void test_no_latency_rows(void **state)
{
	char path[320], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"schema\": \"xdplab.lab-results/1\", \"config\": {\"reps\": 1}, \"rows\": [{\"name\": "
	      "\"drop\", \"size\": 64, \"mode\": \"native\", \"verdict\": \"valid\", \"mpps\": "
	      "{\"median\": 1, \"min\": 1, \"max\": 1}, \"reps\": [{\"pps\": 1000000}]}]}\n", f);
	fclose(f);
	s = report(path, NULL);
	unlink(path);
	assert_null(strstr(s, "Latency rows"));
	assert_null(strstr(s, "data-chart=\"latency\""));
	assert_non_null(strstr(s, "data-table=\"rows\""));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_section),
		cmocka_unit_test(test_no_latency_rows),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
