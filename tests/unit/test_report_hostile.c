// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_report_hostile.c - `xdplab report` on results files made to attack
 * whoever opens the page (issue 21, security item 1; docs/report.md
 * "Untrusted results files"). Markup in every string field of a run (and
 * of BASE, the same file) comes out as text in every place it reaches:
 * the tables, the charts' labels, long labels cut to their box, notes of
 * unmeasured rows and latency rows in SVG <title>s, group headings, the
 * environment.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/htmlreport.h"
#include "xdplab/log.h"

#include "test_util.h"

/* Every way out of a text node or an attribute, and a control character. */
#define P "<script>document.title='XL-PWNED'</script>\"><img src=x onerror=\"document.title='XL-PWNED'\">" \
	  "]]></title><script>xl_pwn()</script>&amp;\x01"
#define SHORT "<i>x</i>"

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	return buf;
}

/* The page of @run (with BASE @base, NULL: none) and what went to stderr in *@err_out. */
static char *report(const char *run, const char *base, char **err_out)
{
	char out[] = "/tmp/xl-test-hostile-out-XXXXXX", err[512] = "", *page, *e;
	struct capture c;
	int fd = mkstemp(out), rc;

	assert_true(fd >= 0);
	close(fd);
	cap_start(&c, 2);
	rc = xl_html_report(run, base, out, err, sizeof(err));
	e = cap_end(&c);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
	page = slurp_file(out);
	unlink(out);
	if (err_out)
		*err_out = e;
	else
		free(e);
	return page;
}

/* No markup of the payload outside text: the tags, the attribute break-out, the CDATA end. */
static void assert_inert(const char *s)
{
	assert_null(strstr(s, "<script"));
	assert_null(strstr(s, "<img"));
	assert_null(strstr(s, "<i>"));
	assert_null(strstr(s, "onerror=\""));
	assert_null(strstr(s, "]]>"));
	assert_null(strstr(s, "</title><script"));
	assert_null(strchr(s, '\x01'));
}

/* A results file with @p in every string field a page shows. */
static json_t *hostile_doc(const char *p)
{
	char xsk[512], cost[512];
	json_t *reps = json_pack("[{s:f,s:f},{s:f,s:f}]", "pps", 1e6, "cpu_ns_per_pkt", 100.0, "pps",
				 1.1e6, "cpu_ns_per_pkt", 110.0);
	json_t *lrep = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "sent", 100, "received",
				 100, "lost", 0, "gaps", 0, "reordered", 0, "duplicates", 0, "p50_ns", 10000,
				 "p90_ns", 20000, "p99_ns", 30000, "p999_ns", 40000, "max_ns", 50000);

	json_t *doc;

	snprintf(xsk, sizeof(xsk), "xsk-%s", p);
	snprintf(cost, sizeof(cost), "redirect+no-mon%s", p);
	doc = json_pack(
		"{s:s,s:s,s:s,s:s,"
		"s:{s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:{s:s,s:s}},"
		"s:{s:i,s:f,s:f,s:s},"
		"s:[{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:{s:f,s:f,s:f},s:O,s:f,s:f,s:f,s:f,s:f},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:{s:f,s:f,s:f},s:O,s:f,s:{s:f,s:f,s:f}},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:{s:f,s:f,s:f},s:O}],"
		"s:[{s:s,s:s,s:b,s:i,s:i,s:s,s:i,s:s,s:o,s:[O,O]},"
		"{s:s,s:s,s:b,s:i,s:i,s:s,s:i,s:s,s:o,s:[]}]}",
		"schema", "xdplab.lab-results/1", "date", p, "git", p, "lab", p,
		"machine", "kernel", p, "arch", p, "cpu_model", p, "host", p, "cmdline_mitigations", p,
		"cpus", 2, "bpf_jit_enable", 1, "bpf_jit_harden", 0, "vulnerabilities", p, p, "meltdown", p,
		"config", "reps", 2, "seconds", 1.0, "warmup", 0.25, "wiring", p,
		"rows",
		/* measured: its long label cut in the charts, the table's cells */
		"name", p, "kind", "xdp", "size", 64, "mode", p, "wiring", p, "verdict", p, "note", p,
		"mpps", "median", 1.0, "min", 1.0, "max", 1.1, "reps", reps, "ns_per_pkt", 1000.0,
		"cpu_busy", 1.0, "cpu_ns_per_pkt", 100.0, "gen_mpps", 2.0, "chain_ns_per_pkt", 200.0,
		/* not measured: the note in the chart's row and <title> */
		"name", p, "kind", "xdp", "size", 1500, "mode", "native", "wiring", "softirq", "verdict",
		"na", "note", p,
		/* AF_XDP: the group heading */
		"name", xsk, "kind", "xsk", "size", 64, "mode", "skb", "wiring", p, "verdict", p, "note", p,
		/* the watch-cost chart, with its estimate */
		"name", cost, "kind", "redirect", "size", 64, "mode", "native", "wiring", p, "verdict", "valid",
		"note", p, "mpps", "median", 1.0, "min", 1.0, "max", 1.1, "reps", reps,
		"cpu_ns_per_pkt", 100.0, "monitor_cost", "cpu_ns_per_pkt", 1.0, "ns_per_event", 2.0,
		"estimate_ns_per_pkt", 3.0,
		/* a short label, shown whole */
		"name", SHORT, "kind", "xdp", "size", 64, "mode", "native", "wiring", SHORT, "verdict", "valid",
		"note", SHORT, "mpps", "median", 1.0, "min", 1.0, "max", 1.1, "reps", reps,
		"latency",
		"name", p, "path", p, "round_trip", 0, "size", 64, "rate_pps", 0, "wiring", p, "nreps", 2,
		"note", p, "median", json_deep_copy(lrep), "reps", lrep, lrep,
		"name", p, "path", p, "round_trip", 1, "size", 1500, "rate_pps", 1000, "wiring", p, "nreps", 0,
		"note", p, "median", json_deep_copy(lrep), "reps");
	json_decref(reps);
	json_decref(lrep);
	return doc;
}

static void write_doc(json_t *doc, const char *path)
{
	assert_non_null(doc);
	assert_int_equal(json_dump_file(doc, path, 0), 0);
	json_decref(doc);
}

/* Markup in every field: text everywhere, with and without BASE. */
static void test_markup_is_text(void **state)
{
	char path[] = "/tmp/xl-test-hostile-run-XXXXXX", *s, *err;
	json_t *doc = hostile_doc(P);
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	write_doc(doc, path);
	s = report(path, NULL, &err);
	assert_inert(s);
	assert_string_equal(err, "");
	/* The fields are on the page, as text. */
	assert_true(count_of(s, "&lt;script&gt;document.title=") > 20);
	assert_non_null(strstr(s, "<td>&lt;i&gt;x&lt;/i&gt;</td>"));
	/* A long label cut in its chart row: cut before escaping, so no entity is broken. */
	assert_non_null(strstr(s, "text-anchor=\"end\">&lt;script&gt;document.title='XL-PWNE..</text>"));
	/* An unmeasured row's note in the chart row's <title>. */
	assert_non_null(strstr(s, " 1500 B: &lt;script&gt;document.title='XL-PWNED'&lt;/script&gt;&quot;&gt;"
				  "&lt;img src=x onerror=&quot;document.title='XL-PWNED'&quot;&gt;"));
	/* A latency row's note too (cut to 63 bytes). */
	assert_non_null(strstr(s, "<title>not measured: &lt;script&gt;document.title='XL-PWNED'&lt;/script&gt;"
				  "&quot;&gt;&lt;img src=x onerror=</title>"));
	assert_non_null(strstr(s, "]]&gt;&lt;/title&gt;&lt;script&gt;xl_pwn()&lt;/script&gt;&amp;amp;</title>"));
	free(s);
	free(err);
	s = report(path, path, NULL);
	assert_inert(s);
	assert_non_null(strstr(s, "data-chart=\"compare\""));
	assert_non_null(strstr(s, "data-table=\"latency-compare\""));
	free(s);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markup_is_text),
	};

	xl_log_set_level(XL_LOG_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
