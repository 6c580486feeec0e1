// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_compare.c - unit tests of `xdplab compare`'s library
 * (src/lib/measure/utest.c, src/lib/measure/compare.c, compare_read.c, compare_env.c): the netdev
 * ns/packet arithmetic, the exact Mann-Whitney U test, reading results
 * files (and rejecting bad ones with one line), pairing rows, verdicts and
 * the environments side by side.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "xdplab/bench.h"
#include "xdplab/compare.h"
#include "xdplab/report.h"

#include "cmd.h"

#include "test_util.h"

/* ---- the netdev arithmetic ---- */

static void test_seed_arithmetic(void **state)
{
	/*
	 * The ice review on netdev: 54,052,300 rx/s without the patch and
	 * 33,420,619 with it is 18.50 vs 29.92 ns/packet, +11.42 ns; with
	 * read-data, 27,200,683 vs 24,348,751 is 36.76 vs 41.07, +4.31 ns.
	 */
	assert_near(xl_delta_ns_per_pkt(54052300, 33420619), 11.42, 0.005);
	assert_near(xl_delta_ns_per_pkt(27200683, 24348751), 4.31, 0.005);
	/* Faster is negative, the same rate is zero, no rate is no figure. */
	assert_near(xl_delta_ns_per_pkt(33420619, 54052300), -11.42, 0.005);
	assert_dbl_equal(xl_delta_ns_per_pkt(1e6, 1e6), 0.0);
	assert_dbl_equal(xl_delta_ns_per_pkt(1e6, 2e6), -500.0);
	assert_dbl_equal(xl_delta_ns_per_pkt(0, 1e6), 0.0);
	assert_dbl_equal(xl_delta_ns_per_pkt(1e6, 0), 0.0);
}

/* ---- Mann-Whitney U ---- */

/*
 * Expected p-values: two-sided, 2 x the smaller tail, counted by full
 * enumeration of all C(n1+n2, n1) splits of the pooled values (a short
 * Python script with itertools.combinations and fractions.Fraction, kept
 * in docs/compare.md), as exact fractions. The untied ones agree with the
 * published critical-value tables of U (e.g. n1 = 4, n2 = 5, two-sided
 * 0.05: critical U = 1, so U = 2 is not significant: p = 8/126).
 */
static void check_mw(const double *x, size_t n1, const double *y, size_t n2, double u,
		     double p, bool ties)
{
	struct xl_utest t;

	assert_int_equal(xl_mann_whitney(x, n1, y, n2, &t), 0);
	assert_int_equal(t.n1, n1);
	assert_int_equal(t.n2, n2);
	assert_dbl_equal(t.u, u);
	assert_near(t.p, p, 1e-12);
	assert_int_equal(t.ties, ties);
}

static void test_mw_separated(void **state)
{
	const double a3[] = { 4, 5, 6 }, b3[] = { 1, 2, 3 };
	const double a4[] = { 5, 8, 6, 7 }, b4[] = { 1, 2, 3, 4 };
	const double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };

	/* 3 vs 3 can never go below 2/20 = 0.1: p < 0.05 is out of reach. */
	check_mw(a3, 3, b3, 3, 9, 0.1, false);
	check_mw(b3, 3, a3, 3, 0, 0.1, false);
	check_mw(a4, 4, b4, 4, 16, 2.0 / 70, false);
	check_mw(a5, 5, b5, 5, 0, 2.0 / 252, false);
}

static void test_mw_table(void **state)
{
	const double x[] = { 1, 2, 4, 5 }, y[] = { 3, 6, 7, 8, 9 };
	const double x1[] = { 1, 2, 3, 5 }, y1[] = { 4, 6, 7, 8, 9 };

	check_mw(x, 4, y, 5, 2, 8.0 / 126, false);
	/* U = 1: P(U <= 1) = 2/126, two-sided 4/126 = 0.0317 < 0.05. */
	check_mw(x1, 4, y1, 5, 1, 4.0 / 126, false);
	/* Order of values inside a sample does not matter. */
	{
		const double xs[] = { 5, 4, 2, 1 }, ys[] = { 9, 3, 8, 6, 7 };

		check_mw(xs, 4, ys, 5, 2, 8.0 / 126, false);
	}
}

static void test_mw_ties(void **state)
{
	const double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 3, 4 };
	const double c[] = { 10, 10, 11 }, d[] = { 10, 11, 11, 12 };
	const double e[] = { 3, 3, 3, 3 }, f[] = { 1, 2, 3, 3, 3 };

	check_mw(a, 4, b, 4, 3, 2.0 / 7, true);
	check_mw(c, 3, d, 4, 3, 4.0 / 7, true);
	check_mw(e, 4, f, 5, 14, 5.0 / 9, true);
}

static void test_mw_equal_and_bad(void **state)
{
	const double a[] = { 1, 1, 1 }, b[] = { 1, 2, 3 };
	double big[XL_MAX_REPS + 1] = { 0 };
	struct xl_utest t;

	check_mw(a, 3, a, 3, 4.5, 1.0, true);
	check_mw(b, 3, b, 3, 4.5, 1.0, true);
	assert_int_equal(xl_mann_whitney(a, 0, b, 3, &t), -EINVAL);
	assert_int_equal(xl_mann_whitney(a, 3, b, 0, &t), -EINVAL);
	assert_int_equal(xl_mann_whitney(big, XL_MAX_REPS + 1, b, 3, &t), -EINVAL);
	/* The largest size, fully separated: 2 / C(64, 32) = 1.09e-18. */
	{
		double x[XL_MAX_REPS], y[XL_MAX_REPS];
		int i;

		for (i = 0; i < XL_MAX_REPS; i++) {
			x[i] = 100 + i;
			y[i] = i;
		}
		assert_int_equal(xl_mann_whitney(x, XL_MAX_REPS, y, XL_MAX_REPS, &t), 0);
		assert_near(t.p / (2 / 1.832624140942590534e18), 1.0, 1e-9);
	}
}

static void test_mw_min_p(void **state)
{
	assert_near(xl_mann_whitney_min_p(3, 3), 0.1, 1e-15);
	assert_near(xl_mann_whitney_min_p(4, 4), 2.0 / 70, 1e-15);
	assert_near(xl_mann_whitney_min_p(3, 4), 2.0 / 35, 1e-15);
	assert_near(xl_mann_whitney_min_p(5, 5), 2.0 / 252, 1e-15);
	assert_dbl_equal(xl_mann_whitney_min_p(1, 1), 1.0);
	assert_int_equal(xl_mann_whitney_n_needed(0.05), 4);
	assert_int_equal(xl_mann_whitney_n_needed(0.01), 5);
	assert_int_equal(xl_mann_whitney_n_needed(0.1), 4); /* 3 vs 3 gives 0.1, not < 0.1 */
	assert_int_equal(xl_mann_whitney_n_needed(1e-30), 0);
}

/* ---- results files ---- */

static char dir[256];

static int setup_dir(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "compare");
}

static int teardown_dir(void **state)
{
	return tmp_dir_remove(dir);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[4][320];
	static int k;
	char *p = path[k++ % 4];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/*
 * A results document: @reps per row, each row "name|op|size|wiring|verdict|
 * pps,pps,...|cpu,cpu,..." separated by ';'.
 */
static const char *make_doc(const char *name, const char *machine, int reps, const char *rows)
{
	static char text[16384];
	char buf[4096], *row, *save;
	size_t n;

	n = snprintf(text, sizeof(text),
		     "{\"schema\": \"xdplab.lab-results/1\", \"date\": \"2026-12-01T00:00:00Z\", \"git\": \"abc\","
		     " \"machine\": %s, \"config\": {\"reps\": %d, \"seconds\": 1, \"warmup\": 0.25, \"wiring\": \"threaded\"},"
		     " \"lab\": \"xl0\", \"rows\": [",
		     machine, reps);
	snprintf(buf, sizeof(buf), "%s", rows);
	for (row = strtok_r(buf, ";", &save); row; row = strtok_r(NULL, ";", &save)) {
		char nm[32], op[16], wiring[16], verdict[24], pps[512], cpu[512], *a, *b, *s1, *s2;
		unsigned size;
		int first = 1;

		assert_int_equal(sscanf(row, "%31[^|]|%15[^|]|%u|%15[^|]|%23[^|]|%511[^|]|%511s", nm,
					op, &size, wiring, verdict, pps, cpu), 7);
		n += snprintf(text + n, sizeof(text) - n,
			      "%s{\"name\": \"%s\", \"kind\": \"xdp\", \"packet_operation\": \"%s\", \"size\": %u,"
			      " \"mode\": \"native\", \"wiring\": \"%s\", \"gen_engine\": \"live\", \"verdict\": \"%s\","
			      " \"note\": \"\", \"reps\": [",
			      text[n - 1] == '[' ? "" : ", ", nm, op, size, wiring, verdict);
		for (a = strtok_r(pps, ",", &s1), b = strtok_r(cpu, ",", &s2); a && b && *a != '-';
		     a = strtok_r(NULL, ",", &s1), b = strtok_r(NULL, ",", &s2)) {
			n += snprintf(text + n, sizeof(text) - n,
				      "%s{\"pps\": %s, \"cpu_ns_per_pkt\": %s}", first ? "" : ", ", a, b);
			first = 0;
		}
		n += snprintf(text + n, sizeof(text) - n, "]}");
	}
	snprintf(text + n, sizeof(text) - n, "]}\n");
	return write_file(name, text);
}

#define MACHINE_A "{\"kernel\": \"6.18\", \"arch\": \"x86_64\", \"cpus\": 2, \"cpu_model\": \"AMD EPYC\"," \
	" \"host\": \"a\", \"bpf_jit_enable\": 1, \"bpf_jit_harden\": 0, \"cmdline_mitigations\": \"auto\"," \
	" \"vulnerabilities\": {\"spectre_v2\": \"Mitigation: Retpolines\", \"mds\": \"Not affected\"}}"
#define MACHINE_B "{\"kernel\": \"6.19\", \"arch\": \"x86_64\", \"cpus\": 2, \"cpu_model\": \"AMD EPYC\"," \
	" \"host\": \"b\", \"bpf_jit_enable\": 1, \"bpf_jit_harden\": 2, \"cmdline_mitigations\": \"auto\"," \
	" \"vulnerabilities\": {\"spectre_v2\": \"Vulnerable\", \"mds\": \"Not affected\"}}"
#define MACHINE_OLD "{\"kernel\": \"6.18\", \"arch\": \"x86_64\", \"cpus\": 2}"

static const struct xl_cmp_opts dflt = { .alpha = 0.05, .threshold_ns = 0 };

static void load_ok(const char *path, struct xl_cmp_file *f)
{
	char err[512] = "";

	assert_int_equal(xl_cmp_load(path, f, err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

static void test_load_errors(void **state)
{
	struct xl_cmp_file f;
	char err[512], want[512];
	const char *p;

	assert_int_equal(xl_cmp_load("/nonexistent/x.json", &f, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/x.json: cannot open: No such file or directory");
	assert_int_equal(xl_cmp_load(dir, &f, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: cannot open: Is a directory", dir);
	assert_string_equal(err, want);

	p = write_file("text.json", "hello\n");
	assert_int_equal(xl_cmp_load(p, &f, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not JSON (line 1: ", p);
	assert_memory_equal(err, want, strlen(want));
	assert_null(strchr(err, '\n'));

	p = write_file("other.json", "{\"rows\": []}\n");
	assert_int_equal(xl_cmp_load(p, &f, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not an xdplab results file (no \"schema\": \"xdplab.NAME/1\" with a \"rows\" array)", p);
	assert_string_equal(err, want);

	p = write_file("norows.json", "{\"schema\": \"xdplab.lab-results/1\"}\n");
	assert_int_equal(xl_cmp_load(p, &f, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not an xdplab results file", p);
	assert_memory_equal(err, want, strlen(want));

	p = write_file("v2.json", "{\"schema\": \"xdplab.lab-results/2\", \"rows\": []}\n");
	assert_int_equal(xl_cmp_load(p, &f, err, sizeof(err)), -EPROTO);
	snprintf(want, sizeof(want), "%s: schema xdplab.lab-results/2 is not supported (accepted: version 1, e.g. xdplab.lab-results/1)", p);
	assert_string_equal(err, want);
}

/* A row twice in a file paired by its place in the file: refused, naming both. */
static void test_load_duplicates(void **state)
{
	struct xl_cmp_file f;
	char err[512], want[512];
	const char *p;

	p = make_doc("dup.json", MACHINE_A, 3,
		     "drop|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1;"
		     "drop|no-touch|64|softirq|valid|1e6,1e6,1e6|1,1,1;"
		     "tx|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1;"
		     "drop|no-touch|64|threaded|valid|2e6,2e6,2e6|1,1,1");
	assert_int_equal(xl_cmp_load(p, &f, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: rows 1 and 4 are the same row (name drop, packet operation no-touch, size 64, mode native, wiring threaded, engine live); each row must appear once", p);
	assert_string_equal(err, want);
	assert_null(f.rows);

	p = write_file("duplat.json",
		       "{\"schema\": \"xdplab.lab-results/1\", \"rows\": [], \"latency\": ["
		       "{\"name\": \"lat/rt-tx/low\", \"size\": 64, \"wiring\": \"softirq\"},"
		       "{\"name\": \"lat/rt-tx/low\", \"size\": 1500, \"wiring\": \"softirq\"},"
		       "{\"name\": \"lat/rt-tx/low\", \"size\": 1500, \"wiring\": \"softirq\"}]}\n");
	assert_int_equal(xl_cmp_load(p, &f, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: latency rows 2 and 3 are the same row (name lat/rt-tx/low, size 1500, wiring softirq); each row must appear once", p);
	assert_string_equal(err, want);
}

static void test_load_tolerant(void **state)
{
	struct xl_cmp_file f;
	const char *p;

	/* Another document of the family: "benchmark" names the row, no reps. */
	p = write_file("single.json",
		       "{\"schema\": \"xdplab.bench-results/1\", \"extra\": 1, \"rows\": ["
		       "{\"benchmark\": \"drop\", \"size\": 64, \"mode\": \"native\", \"mpps\": {\"median\": 2.5},"
		       " \"reps\": [{\"pps\": 2.5e6}, {\"pps\": 2.4e6, \"cpu_ns_per_pkt\": 120}, {\"no\": 1}]}, 7]}");
	load_ok(p, &f);
	assert_string_equal(f.schema, "xdplab.bench-results/1");
	assert_int_equal(f.nrows, 1);
	assert_string_equal(f.rows[0].name, "drop");
	assert_string_equal(f.rows[0].op, "");
	assert_int_equal(f.rows[0].size, 64);
	assert_int_equal(f.rows[0].nreps, 2);
	assert_dbl_equal(f.rows[0].pps[1], 2.4e6);
	assert_dbl_equal(f.rows[0].cpu_ns[0], 0.0);
	assert_dbl_equal(f.rows[0].cpu_ns[1], 120.0);
	assert_near(f.rows[0].mpps.median, 2.45, 1e-12);
	assert_int_equal(f.env.cpus, 0);
	assert_int_equal(f.env.jit_enable, -1);
	assert_false(f.have_vulns);
	xl_cmp_file_free(&f);

	/* A single command's file (drop --reps N --json): intervals beside the rows. */
	p = write_file("run.json",
		       "{\"schema\": \"xdplab.run-results/1\", \"command\": \"drop\","
		       " \"config\": {\"reps\": 2, \"seconds\": 0.3, \"interval\": 1.0},"
		       " \"intervals\": [{\"pps\": 1, \"rep\": 0}, {\"pps\": 2, \"rep\": 1}],"
		       " \"rows\": [{\"name\": \"drop/no-touch\", \"packet_operation\": \"no-touch\","
		       " \"size\": 64, \"mode\": \"native\", \"wiring\": \"softirq\", \"verdict\": \"valid\","
		       " \"reps\": [{\"pps\": 3e6, \"cpu_ns_per_pkt\": 90}, {\"pps\": 3.2e6, \"cpu_ns_per_pkt\": 91}]}]}");
	load_ok(p, &f);
	assert_int_equal(f.nrows, 1);
	assert_int_equal(f.reps, 2);
	assert_dbl_equal(f.seconds, 0.3);
	assert_string_equal(f.rows[0].name, "drop/no-touch");
	assert_string_equal(f.rows[0].wiring, "softirq");
	assert_int_equal(f.rows[0].nreps, 2);
	assert_near(f.rows[0].mpps.median, 3.1, 1e-12);
	assert_dbl_equal(f.rows[0].cpu_ns[1], 91.0);
	xl_cmp_file_free(&f);
}

static void test_compare_regression(void **state)
{
	struct xl_cmp_file b, n;
	struct xl_cmp_result r;
	const struct xl_cmp_row *row;

	/* valid rows: 5 vs 5, new clearly slower (10 Mpps -> 9 Mpps: +11.1 ns). */
	load_ok(make_doc("b.json", MACHINE_A, 5,
			 "drop/no-touch|no-touch|64|threaded|valid|10e6,10.1e6,9.9e6,10.05e6,9.95e6|50,50,50,50,50;"
			 "pass|no-touch|64|threaded|valid|1e6,1e6,1e6,1e6,1e6|900,900,900,900,900;"
			 "tx|no-touch|64|threaded|valid|3e6,3e6,3e6,3e6,3e6|300,300,300,300,300"), &b);
	load_ok(make_doc("n.json", MACHINE_A, 5,
			 "drop/no-touch|no-touch|64|threaded|valid|9e6,9.1e6,8.9e6,9.05e6,8.95e6|55,55,55,55,55;"
			 "pass|no-touch|64|threaded|valid|1.1e6,1.2e6,1.15e6,1.12e6,1.13e6|800,800,800,800,800;"
			 "tx|no-touch|64|threaded|valid|3e6,3.01e6,2.99e6,3e6,3e6|300,300,300,300,300"), &n);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_int_equal(r.nrows, 3);
	assert_int_equal(r.paired, 3);
	assert_int_equal(r.compared, 3);
	assert_int_equal(r.regressions, 1);
	assert_int_equal(r.improvements, 1);
	assert_false(r.cross_machine);
	row = &r.rows[0];
	assert_int_equal(row->status, XL_CMP_PAIRED);
	assert_false(row->on_cpu);
	assert_near(row->delta_ns, 1e9 / 9e6 - 1e9 / 10e6, 1e-9);
	assert_near(row->delta_mpps, -1.0, 1e-9);
	assert_near(row->delta_pct, -10.0, 1e-9);
	assert_near(row->delta_cpu_ns, 5.0, 1e-12);
	assert_dbl_equal(row->test.u, 25.0);
	assert_near(row->test.p, 2.0 / 252, 1e-12);
	assert_int_equal(row->verdict, XL_CMP_REGRESSION);
	assert_string_equal(xl_cmp_verdict_name(row->verdict), "regression");
	assert_int_equal(r.rows[1].verdict, XL_CMP_IMPROVEMENT);
	assert_int_equal(r.rows[2].verdict, XL_CMP_SAME);
	assert_string_equal(xl_cmp_verdict_name(r.rows[2].verdict), "~");
	assert_false(r.ceiling_moved);
	xl_cmp_result_free(&r);

	/* The same regression under a threshold above it is "~". */
	{
		const struct xl_cmp_opts o = { .alpha = 0.05, .threshold_ns = 12 };

		assert_int_equal(xl_cmp_run(&b, &n, &o, &r), 0);
		assert_int_equal(r.rows[0].verdict, XL_CMP_SAME);
		assert_int_equal(r.regressions, 0);
		xl_cmp_result_free(&r);
	}
	xl_cmp_file_free(&b);
	xl_cmp_file_free(&n);
}

static void test_compare_ceiling_moved(void **state)
{
	struct xl_cmp_file b, n;
	struct xl_cmp_result r;

	/* The generator alone got 20% slower: the host changed. */
	load_ok(make_doc("b.json", MACHINE_A, 4,
			 "gen-ceiling|-|64|threaded|ceiling|6e6,6.1e6,5.9e6,6e6|100,100,100,100;"
			 "gen-ceiling|-|1500|threaded|ceiling|5e6,5e6,5e6,5e6|100,100,100,100"), &b);
	load_ok(make_doc("n.json", MACHINE_A, 4,
			 "gen-ceiling|-|64|threaded|ceiling|4.8e6,4.9e6,4.7e6,4.8e6|120,120,120,120;"
			 "gen-ceiling|-|1500|threaded|ceiling|5.5e6,5.5e6,5.5e6,5.5e6|90,90,90,90"), &n);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_int_equal(r.rows[0].verdict, XL_CMP_REGRESSION);
	assert_int_equal(r.rows[1].verdict, XL_CMP_IMPROVEMENT);
	assert_true(r.ceiling_moved);
	assert_near(r.ceiling_pct, -20.0, 1e-9); /* the larger of -20% and +10% */
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&n);
	/* Unchanged: not moved. */
	assert_int_equal(xl_cmp_run(&b, &b, &dflt, &r), 0);
	assert_false(r.ceiling_moved);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&b);
}

static void test_compare_generator_bound(void **state)
{
	struct xl_cmp_file b, n;
	struct xl_cmp_result r;

	/*
	 * The generator sets the rate (same pps both sides); the DUT's CPU
	 * time per packet went up by 10 ns: a regression, on CPU ns/packet.
	 */
	load_ok(make_doc("b.json", MACHINE_A, 4,
			 "drop/no-touch|no-touch|64|threaded|generator-bound|5e6,5.1e6,4.9e6,5e6|100,101,99,100"), &b);
	load_ok(make_doc("n.json", MACHINE_A, 4,
			 "drop/no-touch|no-touch|64|threaded|generator-bound|5.05e6,5e6,4.95e6,5e6|110,111,109,110"), &n);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_true(r.rows[0].on_cpu);
	assert_near(r.rows[0].delta, 10.0, 1e-12);
	assert_near(r.rows[0].delta_cpu_ns, 10.0, 1e-12);
	assert_near(r.rows[0].test.p, 2.0 / 70, 1e-12);
	assert_int_equal(r.rows[0].verdict, XL_CMP_REGRESSION);
	assert_false(r.rows[0].too_few);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&b);
	xl_cmp_file_free(&n);
}

static void test_compare_too_few(void **state)
{
	struct xl_cmp_file b, n;
	struct xl_cmp_result r;

	/* 3 vs 3, fully separated and 10% slower: cannot tell, a verdict of its own. */
	load_ok(make_doc("b.json", MACHINE_A, 3, "tx|no-touch|64|threaded|valid|3e6,3.1e6,2.9e6|1,1,1"), &b);
	load_ok(make_doc("n.json", MACHINE_A, 3, "tx|no-touch|64|threaded|valid|2.7e6,2.8e6,2.6e6|1,1,1"), &n);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_near(r.rows[0].test.p, 0.1, 1e-12);
	assert_true(r.rows[0].too_few);
	assert_int_equal(r.too_few, 1);
	assert_int_equal(r.rows[0].verdict, XL_CMP_TOO_FEW);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&b);
	xl_cmp_file_free(&n);

	/* A generator ceiling that cannot tell did not move (it warned). */
	load_ok(make_doc("b.json", MACHINE_A, 3, "gen-ceiling|no-touch|64|threaded|valid|3e6,3.1e6,2.9e6|1,1,1"), &b);
	assert_int_equal(xl_cmp_run(&b, &b, &dflt, &r), 0);
	assert_int_equal(r.rows[0].verdict, XL_CMP_TOO_FEW);
	assert_false(r.ceiling_moved);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&b);
}

static void test_compare_pairing(void **state)
{
	struct xl_cmp_file b, n;
	struct xl_cmp_result r;

	/*
	 * Base: A (threaded), B, C, D (unmeasured). New: A in softirq wiring,
	 * C, D, E, in another order. A pairs loosely: not comparable; B only
	 * in base; E only in new; D not measured.
	 */
	load_ok(make_doc("b.json", MACHINE_A, 3,
			 "A|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1;"
			 "B|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1;"
			 "C|read-data|1500|threaded|valid|1e6,1e6,1e6|1,1,1;"
			 "D|no-touch|64|threaded|n/a|-|-"), &b);
	load_ok(make_doc("n.json", MACHINE_A, 3,
			 "E|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1;"
			 "D|no-touch|64|threaded|n/a|-|-;"
			 "C|read-data|1500|threaded|valid|1e6,1e6,1e6|1,1,1;"
			 "A|no-touch|64|softirq|valid|1e6,1e6,1e6|1,1,1"), &n);
	assert_int_equal(b.rows[3].nreps, 0);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_int_equal(r.nrows, 5);
	assert_int_equal(r.paired, 3);
	assert_int_equal(r.compared, 1);
	assert_int_equal(r.rows[0].status, XL_CMP_NOT_COMPARABLE);
	assert_string_equal(r.rows[0].reason, "wiring differs: threaded vs softirq");
	assert_int_equal(r.rows[1].status, XL_CMP_BASE_ONLY);
	assert_null(r.rows[1].new);
	assert_int_equal(r.rows[2].status, XL_CMP_PAIRED);
	assert_string_equal(r.rows[2].new->name, "C");
	assert_dbl_equal(r.rows[2].test.p, 1.0);
	assert_int_equal(r.rows[3].status, XL_CMP_NOT_MEASURED);
	assert_string_equal(r.rows[3].reason, "not measured in either file");
	assert_int_equal(r.rows[4].status, XL_CMP_NEW_ONLY);
	assert_string_equal(r.rows[4].new->name, "E");
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&n);

	/* Other repetitions per row: not comparable, whichever row. */
	load_ok(make_doc("n5.json", MACHINE_A, 5, "C|read-data|1500|threaded|valid|1e6,1e6,1e6,1e6,1e6|1,1,1,1,1"), &n);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_int_equal(r.rows[2].status, XL_CMP_NOT_COMPARABLE);
	assert_string_equal(r.rows[2].reason, "repetitions differ: 3 vs 5 per row");
	assert_int_equal(r.compared, 0);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&n);
	xl_cmp_file_free(&b);
}

/* @path's rows given "cpu_source": @src (after their "wiring"). */
static const char *with_cpu_source(const char *path, const char *name, const char *src)
{
	static char text[16384], out[20000];
	char *p, *o = out, *w;
	size_t n;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	for (p = text; (w = strstr(p, "\"gen_engine\"")); p = w) {
		memcpy(o, p, w - p);
		o += w - p;
		o += sprintf(o, "\"cpu_source\": \"%s\", ", src);
		memcpy(o, w, 1);
		o++;
		w++;
	}
	strcpy(o, p);
	return write_file(name, out);
}

/*
 * Rows whose DUT CPU time came from different sources (/proc/stat ticks
 * against the softirq tracepoints) are not comparable; a file without the
 * field (older) pairs as before.
 */
static void test_compare_cpu_source(void **state)
{
	struct xl_cmp_file b, n, old;
	struct xl_cmp_result r;
	const char *rows = "A|no-touch|64|softirq|generator-bound|1e6,1e6,1e6,1e6|80,81,82,83";

	load_ok(with_cpu_source(make_doc("cs0.json", MACHINE_A, 4, rows), "csb.json", "proc-stat"), &b);
	assert_string_equal(b.rows[0].cpu_source, "proc-stat");
	load_ok(with_cpu_source(make_doc("cs1.json", MACHINE_A, 4, rows), "csn.json",
				"softirq-tracepoint"), &n);
	assert_int_equal(xl_cmp_run(&b, &n, &dflt, &r), 0);
	assert_int_equal(r.rows[0].status, XL_CMP_NOT_COMPARABLE);
	assert_string_equal(r.rows[0].reason,
			    "DUT CPU time source differs: proc-stat vs softirq-tracepoint");
	assert_int_equal(r.compared, 0);
	xl_cmp_result_free(&r);
	load_ok(make_doc("cs2.json", MACHINE_A, 4, rows), &old);
	assert_string_equal(old.rows[0].cpu_source, "");
	assert_int_equal(xl_cmp_run(&old, &n, &dflt, &r), 0);
	assert_int_equal(r.rows[0].status, XL_CMP_PAIRED);
	assert_int_equal(r.compared, 1);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&old);
	xl_cmp_file_free(&n);
	xl_cmp_file_free(&b);
}

static const struct xl_cmp_env_row *env_field(const struct xl_cmp_env_row *e, int n,
					      const char *field)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].field, field))
			return &e[i];
	fail_msg("no environment line '%s'", field);
	return NULL;
}

static void test_env_side_by_side(void **state)
{
	struct xl_cmp_file a, b, old;
	struct xl_cmp_env_row e[64];
	struct xl_cmp_result r;
	int n;

	load_ok(make_doc("a.json", MACHINE_A, 3, "A|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1"), &a);
	load_ok(make_doc("b.json", MACHINE_B, 3, "A|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1"), &b);
	load_ok(make_doc("old.json", MACHINE_OLD, 3, "A|no-touch|64|threaded|valid|1e6,1e6,1e6|1,1,1"), &old);
	n = xl_cmp_env(&a, &b, e, 64);
	assert_true(env_field(e, n, "kernel")->differs);
	assert_string_equal(env_field(e, n, "kernel")->base, "6.18");
	assert_string_equal(env_field(e, n, "kernel")->new, "6.19");
	assert_false(env_field(e, n, "CPU model")->differs);
	assert_false(env_field(e, n, "bpf_jit_enable")->differs);
	assert_true(env_field(e, n, "bpf_jit_harden")->differs);
	assert_string_equal(env_field(e, n, "bpf_jit_harden")->new, "2");
	assert_true(env_field(e, n, "host")->differs);
	assert_true(env_field(e, n, "vulnerabilities")->differs);
	assert_string_equal(env_field(e, n, "vulnerabilities")->base,
			    "1 mitigated, 0 vulnerable, 1 not affected");
	assert_string_equal(env_field(e, n, "spectre_v2")->base, "Mitigation: Retpolines");
	assert_string_equal(env_field(e, n, "spectre_v2")->new, "Vulnerable");
	assert_false(env_field(e, n, "mitigations=")->differs);
	assert_false(env_field(e, n, "lab wiring")->differs);
	assert_string_equal(env_field(e, n, "lab wiring")->base, "threaded");
	assert_int_equal(xl_cmp_run(&a, &b, &dflt, &r), 0);
	assert_true(r.cross_machine);
	xl_cmp_result_free(&r);

	/* An older file says less: "?" and not marked. */
	n = xl_cmp_env(&a, &old, e, 64);
	assert_string_equal(env_field(e, n, "CPU model")->new, "?");
	assert_false(env_field(e, n, "CPU model")->differs);
	assert_false(env_field(e, n, "vulnerabilities")->differs);
	assert_false(env_field(e, n, "kernel")->differs);
	assert_int_equal(xl_cmp_run(&a, &old, &dflt, &r), 0);
	assert_false(r.cross_machine);
	xl_cmp_result_free(&r);
	xl_cmp_file_free(&a);
	xl_cmp_file_free(&b);
	xl_cmp_file_free(&old);
}

/* ---- --extra-ns and --sensitivity ---- */

/* The calibration's closed loop, step by step (bench.c). */
static void test_extra_next_iters(void **state)
{
	/* Near enough: 0.5 ns, or 3% of the target. */
	assert_int_equal(xl_extra_next_iters(15, 9.6, 10, 0.7), 15);
	assert_int_equal(xl_extra_next_iters(15, 10.5, 10, 0.7), 15);
	assert_int_equal(xl_extra_next_iters(140, 102.9, 100, 0.6), 140);
	/* At the check's own cost per iteration, not the long loop's:
	 * 15 iterations checked 7 ns (0.467 each), 3 ns short: +6.4 -> 21
	 * (the slope 0.7 would give +4). */
	assert_int_equal(xl_extra_next_iters(15, 7, 10, 0.7), 21);
	/* A short loop's mispredicted exit: 34 checked 24 ns -> 34 - 14/0.706 = 14. */
	assert_int_equal(xl_extra_next_iters(34, 24, 10, 0.29), 14);
	/* A correction under one iteration still moves one, towards the target. */
	assert_int_equal(xl_extra_next_iters(10, 9.2, 10, 2), 11);
	assert_int_equal(xl_extra_next_iters(10, 10.8, 10, 2), 9);
	/* No iterations yet, or a check of nothing: the slope. */
	assert_int_equal(xl_extra_next_iters(0, 0, 10, 0.5), 20);
	assert_int_equal(xl_extra_next_iters(4, -1, 10, 0.5), 26);
	/* The bounds. */
	assert_int_equal(xl_extra_next_iters(1, 30, 1, 0.3), 0);
	assert_int_equal(xl_extra_next_iters(0, 5, 1, 0.3), 0);
	assert_int_equal(xl_extra_next_iters(XL_EXTRA_MAX_ITERS, 500, 1000, 0.1), XL_EXTRA_MAX_ITERS);
	assert_int_equal(xl_extra_next_iters(4000, 500, 1000, 0.1), XL_EXTRA_MAX_ITERS);
	assert_int_equal(xl_extra_next_iters(0, 0, 10, 0), 0); /* no cost known: stay */
	/* --extra-ns 0: 0 iterations, whatever the check's noise says (both
	 * sides of its differences run the same 0 iterations). */
	assert_int_equal(xl_extra_next_iters(0, -0.7, 0, 0.7), 0);
	assert_int_equal(xl_extra_next_iters(0, -1.3, 0, 0.7), 0);
	assert_int_equal(xl_extra_next_iters(0, 1.0, 0, 0.7), 0);
	/* A check of next to nothing: the correction is capped, never past
	 * a long's range (lround() of 1e303 is undefined: LONG_MIN here). */
	assert_int_equal(xl_extra_next_iters(1, 1e-300, 1000, 0.7), XL_EXTRA_MAX_ITERS);
	assert_int_equal(xl_extra_next_iters(XL_EXTRA_MAX_ITERS, 1e300, 10, 0.7), 0);
	assert_int_equal(xl_extra_next_iters(10, NAN, 10, 0.7), 10); /* nothing to go by */
	assert_int_equal(xl_extra_next_iters(0, 0, 10, NAN), 0);
}

static void test_extra_iters(void **state)
{
	assert_int_equal(xl_extra_iters(10, 0.272), 37);   /* 36.76 rounds up */
	assert_int_equal(xl_extra_iters(10, 0.555), 18);   /* 18.02 */
	assert_int_equal(xl_extra_iters(1, 3), 0);         /* a third rounds to none */
	assert_int_equal(xl_extra_iters(2, 3), 1);
	assert_int_equal(xl_extra_iters(0, 0.3), 0);
	assert_int_equal(xl_extra_iters(10, 0), 0);
	assert_int_equal(xl_extra_iters(-5, 0.3), 0);
	assert_int_equal(xl_extra_iters(1e9, 0.3), XL_EXTRA_MAX_ITERS);
}

static void test_sens_line_and_json(void **state)
{
	struct xl_sens_result s[2] = {
		{ .name = "drop/no-touch", .size = 64, .reps = 5, .detected_ns = 3, .ns_per_iter = 0.27,
		  .ntries = 3, .tries = { { .extra_ns = 1, .set_ns = 1.08, .ns_per_iter = 0.27, .p = 0.42,
					    .delta_ns = -0.5, .on_cpu = true },
					  { .extra_ns = 2, .set_ns = 1.89, .ns_per_iter = 0.27, .p = 0.15,
					    .delta_ns = 1.5, .on_cpu = true },
					  { .extra_ns = 3, .set_ns = 2.97, .ns_per_iter = 0.33, .p = 0.0079,
					    .delta_ns = 3.2, .on_cpu = true, .regression = true,
					    .confirmation = true } } },
		{ .name = "drop/parse-ip", .size = 1500, .reps = 3, .detected_ns = -1,
		  .note = "3 vs 3 repetitions can never reach p < 0.05" },
	};
	struct xl_row_result row;
	struct xl_report_meta meta = { .reps = 5, .seconds = 1, .warmup = 0.25, .extra = true,
				       .extra_ns = 10, .sens = s, .nsens = 2 };
	char line[256], path[320];
	json_t *doc, *a, *t, *x;
	json_error_t je;

	assert_string_equal(xl_sens_line(&s[0], line, sizeof(line)),
			    "this lab detects >= 3 ns/packet on drop/no-touch at 64 B with 5 reps");
	assert_string_equal(xl_sens_line(&s[1], line, sizeof(line)),
			    "drop/parse-ip at 1500 B with 3 reps: 3 vs 3 repetitions can never reach p < 0.05");

	memset(&row, 0, sizeof(row));
	snprintf(row.name, sizeof(row.name), "drop/no-touch");
	row.kind = "xdp";
	row.mode = "native";
	row.size = 64;
	row.extra = (struct xl_row_extra){ .on = true, .target_ns = 10, .ns_per_iter = 0.25,
					   .set_ns = 10, .check_ns = 11, .iters = 40 };
	snprintf(path, sizeof(path), "%s/sens.json", dir);
	assert_int_equal(xl_report_json(path, &meta, &row, 1), 0);
	doc = json_load_file(path, 0, &je);
	assert_non_null(doc);
	assert_near(json_number_value(json_object_get(json_object_get(doc, "config"), "extra_ns")),
		    10, 0);
	x = json_object_get(json_array_get(json_object_get(doc, "rows"), 0), "extra_ns");
	assert_int_equal(json_integer_value(json_object_get(x, "iters")), 40);
	assert_near(json_number_value(json_object_get(x, "ns_per_iter")), 0.25, 0);
	assert_near(json_number_value(json_object_get(x, "check")), 11, 0);
	a = json_object_get(doc, "sensitivity");
	assert_int_equal(json_array_size(a), 2);
	assert_near(json_number_value(json_object_get(json_array_get(a, 0), "detected_ns")), 3, 0);
	assert_true(json_is_null(json_object_get(json_array_get(a, 1), "detected_ns")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 0), "line")),
			    "this lab detects >= 3 ns/packet on drop/no-touch at 64 B with 5 reps");
	t = json_object_get(json_array_get(a, 0), "tries");
	assert_int_equal(json_array_size(t), 3);
	assert_true(json_is_true(json_object_get(json_array_get(t, 2), "regression")));
	assert_near(json_number_value(json_object_get(json_array_get(t, 2), "ns_per_iter")), 0.33, 0);
	assert_true(json_is_true(json_object_get(json_array_get(t, 2), "confirmation")));
	assert_true(json_is_false(json_object_get(json_array_get(t, 0), "confirmation")));
	assert_near(json_number_value(json_object_get(json_array_get(t, 2), "p")), 0.0079, 0);
	assert_true(json_is_false(json_object_get(json_array_get(t, 1), "regression")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(t, 0), "metric")),
			    "cpu_ns_per_pkt");
	assert_int_equal(json_array_size(json_object_get(json_array_get(a, 1), "tries")), 0);
	json_decref(doc);

	/* Without --extra-ns and --sensitivity none of it is written. */
	meta = (struct xl_report_meta){ .reps = 5, .seconds = 1, .warmup = 0.25 };
	row.extra.on = false;
	assert_int_equal(xl_report_json(path, &meta, &row, 1), 0);
	doc = json_load_file(path, 0, &je);
	assert_null(json_object_get(doc, "sensitivity"));
	assert_null(json_object_get(json_object_get(doc, "config"), "extra_ns"));
	assert_null(json_object_get(json_array_get(json_object_get(doc, "rows"), 0), "extra_ns"));
	json_decref(doc);
}

/* ---- latency rows (lab run --latency) ---- */

/*
 * Two hand-made runs (tests/unit/data/lat-base.json, lat-new.json; 4
 * repetitions a row): one-way/low 64 B p50 up with the repetitions
 * separated (a regression on p50), one-way/load with another generator
 * batch (not comparable), rt-tx/low p99 down and loss in one new
 * repetition (an improvement; lost and gaps rose from 0), rt-tx/load the
 * same figures (~), rt-redirect/low under another wiring (not comparable,
 * its loss still reported), rt-l2fwd low in base only and load in new
 * only, one-way/low 1500 B interrupted before its first new repetition.
 */
static void lat_fixture(char *path, size_t len, const char *name)
{
	char *slash;

	snprintf(path, len, "%s", __FILE__);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, len - (slash ? slash + 1 - path : 0), "data/%s", name);
}

static void lat_load_both(struct xl_cmp_file *b, struct xl_cmp_file *n)
{
	char pb[512], pn[512];

	lat_fixture(pb, sizeof(pb), "lat-base.json");
	lat_fixture(pn, sizeof(pn), "lat-new.json");
	load_ok(pb, b);
	load_ok(pn, n);
}

static void test_lat_load(void **state)
{
	struct xl_cmp_file b, n;
	const struct xl_lat_rowrec *r;

	lat_load_both(&b, &n);
	assert_int_equal(b.nrows, 1);
	assert_int_equal(b.nlat, 7);
	assert_int_equal(n.nlat, 7);
	r = &b.lat[2];
	assert_string_equal(r->name, "lat/rt-tx/low");
	assert_string_equal(r->path, "rt-tx");
	assert_string_equal(r->wiring, "softirq");
	assert_int_equal(r->size, 64);
	assert_int_equal(r->batch, 64);
	assert_dbl_equal(r->rate_pps, 10000);
	assert_dbl_equal(r->seconds, 0.5);
	assert_int_equal(r->nreps, 4);
	assert_int_equal(r->reps[1].p99_ns, 30719);
	assert_int_equal(r->med.p99_ns, 29695);
	assert_int_equal(n.lat[2].reps[1].lost, 3);
	assert_int_equal(n.lat[6].nreps, 0);
	assert_string_equal(n.lat[6].note, "interrupted after 0 of 4 repetitions");
	xl_cmp_file_free(&b);
	assert_null(b.lat);
	assert_int_equal(b.nlat, 0);
	xl_cmp_file_free(&n);
}

/*
 * `make fuzz` (fuzz_compare) found it: a latency figure that does not fit
 * a uint64_t (negative, 1e30) was converted from double unchecked (UB). It
 * is clamped: 0 below, UINT64_MAX above; in range, it is exact. The row's
 * field table reads the set-up the same way, and a bool only from a bool.
 */
static void test_lat_load_clamped(void **state)
{
	struct xl_cmp_file f;

	load_ok(write_file("lat-odd.json",
		"{\"schema\": \"xdplab.lab-results/1\", \"rows\": [], \"latency\": [{\"name\": \"lat/one-way/low\","
		" \"size\": -64, \"batch\": 1e12, \"rate_pps\": -5, \"delay_ns\": 1e30, \"nreps\": 99,"
		" \"round_trip\": \"yes\", \"reps\": [7, {\"sent\": -1, \"p50_ns\": 1e30, \"p99_ns\": 12.9,"
		" \"lost\": \"x\", \"p90_ns\": 1e19, \"min_ns\": 18446744073709549568.0,"
		" \"p999_ns\": 18446744073709551616.0}], \"median\": {\"max_ns\": -0.5,"
		" \"p50_ns\": 9223372036854775808.0}}]}\n"), &f);
	assert_int_equal(f.nlat, 1);
	assert_int_equal(f.lat[0].size, 0);
	assert_int_equal(f.lat[0].batch, UINT32_MAX);
	/* The repetitions held (objects only), whatever "nreps" says. */
	assert_int_equal(f.lat[0].nreps, 1);
	assert_int_equal(f.lat[0].rate_pps, 0);
	assert_true(f.lat[0].delay_ns == UINT64_MAX);
	assert_false(f.lat[0].round_trip);
	assert_int_equal(f.lat[0].reps[0].sent, 0);
	assert_true(f.lat[0].reps[0].p50_ns == UINT64_MAX);
	assert_int_equal(f.lat[0].reps[0].p99_ns, 12);
	assert_int_equal(f.lat[0].reps[0].lost, 0);
	assert_int_equal(f.lat[0].med.max_ns, 0);
	/* Above 2^63 every double is kept exactly, up to the last below 2^64; 2^64 clamps. */
	assert_true(f.lat[0].reps[0].p90_ns == 10000000000000000000ULL);
	assert_true(f.lat[0].reps[0].min_ns == 18446744073709549568ULL);
	assert_true(f.lat[0].reps[0].p999_ns == UINT64_MAX);
	assert_true(f.lat[0].med.p50_ns == 9223372036854775808ULL);
	xl_cmp_file_free(&f);
}

/* Integer fields out of range: clamped, not converted out of range (UB). */
static void test_load_int_clamped(void **state)
{
	struct xl_cmp_file f;

	load_ok(write_file("int-odd.json",
		"{\"schema\": \"xdplab.lab-results/1\", \"config\": {\"reps\": -5},"
		" \"machine\": {\"cpus\": 1e20, \"bpf_jit_enable\": -1e30, \"bpf_jit_harden\": 2.7},"
		" \"rows\": [{\"name\": \"drop\", \"size\": 1e300}, {\"name\": \"pass\", \"size\": -64}]}\n"), &f);
	assert_int_equal(f.reps, 0);
	assert_int_equal(f.env.cpus, INT_MAX);
	assert_int_equal(f.env.jit_enable, INT_MIN);
	assert_int_equal(f.env.jit_harden, 2);
	assert_int_equal(f.nrows, 2);
	assert_int_equal(f.rows[0].size, UINT_MAX);
	assert_int_equal(f.rows[1].size, 0);
	xl_cmp_file_free(&f);
}

static void test_lat_pairing(void **state)
{
	struct xl_cmp_file b, n;
	struct xl_cmp_latresult r;
	const struct xl_cmp_latpair *p;

	lat_load_both(&b, &n);
	assert_int_equal(xl_cmp_lat_run(&b, &n, &dflt, &r), 0);
	assert_int_equal(r.npairs, 8);
	assert_int_equal(r.paired, 6);
	assert_int_equal(r.compared, 3);
	assert_int_equal(r.regressions, 1);
	assert_int_equal(r.improvements, 1);
	assert_int_equal(r.too_few, 0);
	assert_int_equal(r.rose, 2);

	p = &r.pairs[0]; /* one-way/low: p50 10.8 vs 7.7 us, separated: 2/70 */
	assert_int_equal(p->status, XL_CMP_PAIRED);
	assert_near(p->test[XL_CMP_LAT_P50].p, 2.0 / 70, 1e-12);
	assert_dbl_equal(p->test[XL_CMP_LAT_P50].u, 16);
	assert_int_equal(p->mverdict[XL_CMP_LAT_P50], XL_CMP_REGRESSION);
	assert_int_equal(p->mverdict[XL_CMP_LAT_P99], XL_CMP_SAME);
	assert_dbl_equal(p->test[XL_CMP_LAT_P99].p, 1.0);
	assert_int_equal(p->verdict, XL_CMP_REGRESSION);
	assert_near(p->pct_p50, 100.0 * (10751 - 7679) / 7679, 1e-9);
	assert_int_equal(p->rose, 0);

	p = &r.pairs[1];
	assert_int_equal(p->status, XL_CMP_NOT_COMPARABLE);
	assert_string_equal(p->reason, "generator batch differs: 64 vs 1");

	p = &r.pairs[2]; /* rt-tx/low: p99 down, separated; loss in one new rep */
	assert_int_equal(p->status, XL_CMP_PAIRED);
	assert_int_equal(p->verdict, XL_CMP_IMPROVEMENT);
	assert_int_equal(p->mverdict[XL_CMP_LAT_P99], XL_CMP_IMPROVEMENT);
	assert_near(p->test[XL_CMP_LAT_P99].p, 2.0 / 70, 1e-12);
	assert_int_equal(p->rose, XL_CMP_LAT_LOST | XL_CMP_LAT_GAPS);
	assert_int_equal(p->new_sum[0], 3);
	assert_int_equal(p->new_reps_with[0], 1);
	assert_int_equal(p->base_sum[0], 0);

	p = &r.pairs[3]; /* reordered 2 -> 5: a rise, but not from 0 */
	assert_int_equal(p->status, XL_CMP_PAIRED);
	assert_int_equal(p->verdict, XL_CMP_SAME);
	assert_int_equal(p->base_sum[2], 2);
	assert_int_equal(p->new_sum[2], 5);
	assert_int_equal(p->rose, 0);

	p = &r.pairs[4]; /* not comparable, and its loss is still reported */
	assert_int_equal(p->status, XL_CMP_NOT_COMPARABLE);
	assert_string_equal(p->reason, "wiring differs: softirq vs threaded");
	assert_int_equal(p->rose, XL_CMP_LAT_LOST | XL_CMP_LAT_GAPS);
	assert_int_equal(p->new_sum[0], 4 * 2015);

	assert_int_equal(r.pairs[5].status, XL_CMP_BASE_ONLY);
	assert_string_equal(r.pairs[5].base->name, "lat/rt-l2fwd/low");
	assert_int_equal(r.pairs[6].status, XL_CMP_NOT_MEASURED);
	assert_string_equal(r.pairs[6].reason,
			    "not measured in new: interrupted after 0 of 4 repetitions");
	assert_int_equal(r.pairs[7].status, XL_CMP_NEW_ONLY);
	assert_string_equal(r.pairs[7].new->name, "lat/rt-l2fwd/load");
	xl_cmp_latresult_free(&r);

	/* A threshold above the p50 rise (3072 ns) leaves the row '~'. */
	assert_int_equal(xl_cmp_lat_run(&b, &n, &(struct xl_cmp_opts){ .alpha = 0.05,
					.threshold_ns = 3072 }, &r), 0);
	assert_int_equal(r.pairs[0].verdict, XL_CMP_SAME);
	assert_int_equal(r.pairs[2].verdict, XL_CMP_IMPROVEMENT); /* -13824 ns */
	assert_int_equal(r.regressions, 0);
	xl_cmp_latresult_free(&r);

	/* Files without latency rows: nothing paired, nothing allocated to read. */
	assert_int_equal(xl_cmp_lat_run(&(struct xl_cmp_file){ 0 }, &(struct xl_cmp_file){ 0 },
					&dflt, &r), 0);
	assert_int_equal(r.npairs, 0);
	assert_int_equal(r.paired, 0);
	xl_cmp_latresult_free(&r);
	xl_cmp_file_free(&b);
	xl_cmp_file_free(&n);
}

/* `xdplab compare`'s latency section, exactly; exit 1 on the p50 regression. */
static const char lat_text[] =
	"latency rows (lab run --latency): medians over the repetitions in us, d% = new vs base; Mann-Whitney U, two-sided, exact, over the repetitions' p50 and p99; alpha 0.05, threshold 0 ns; lost = sent - distinct received (median)\n"
	"\n"
	"latency row           size wiring      b p50    n p50      d%    b p99    n p99      d%  b p99.9  n p99.9      d%    b max    n max      d%    b lost    n lost     n  p p50  p p99  verdict\n"
	"lat/one-way/low         64 softirq       7.7     10.8  +40.0%     20.5     20.5   +0.0%     41.0     41.0   +0.0%     41.1     41.1   +0.0%         0         0   4/4  0.029  1.000  regression (p50)\n"
	"lat/one-way/load        64 softirq       7.7      7.7       -     12.3     12.3       -     24.6     24.6       -     24.7     24.7       -         0         0     -      -      -  not comparable: generator batch differs: 64 vs 1\n"
	"lat/rt-tx/low           64 softirq      12.3     12.3   +0.0%     29.7     15.9  -46.6%     59.4     31.7  -46.6%     59.5     31.8  -46.5%         0         0   4/4  1.000  0.029  improvement (p99); lost rose from 0; gaps rose from 0\n"
	"lat/rt-tx/load          64 softirq      11.3     11.3   +0.0%     22.5     22.5   +0.0%     45.1     45.1   +0.0%     45.2     45.2   +0.0%         0         0   4/4  1.000  1.000  ~\n"
	"lat/rt-redirect/low     64 softirq      14.3     81.9       -     26.6   7935.0       -     53.2  15870.0       -     53.3  15870.1       -         0      2015     -      -      -  not comparable: wiring differs: softirq vs threaded; lost rose from 0; gaps rose from 0\n"
	"lat/rt-l2fwd/low        64 softirq     500.0        -       -   2000.0        -       -   4000.0        -       -   4000.1        -       -         0         -     -      -      -  only in base\n"
	"lat/one-way/low       1500 softirq       8.2        -       -     26.6        -       -     53.2        -       -     53.3        -       -         0         -     -      -      -  not measured in new: interrupted after 0 of 4 repetitions\n"
	"lat/rt-l2fwd/load       64 softirq         -  20971.5       -        -  62914.6       -        - 125829.1       -        - 125829.2       -         -    500000     -      -      -  only in new\n"
	"\n"
	"1 rows in base, 1 in new: 1 paired, 1 compared; 0 regression(s), 0 improvement(s), 1 ~, 0 not comparable or not measured, 0 in one file only\n"
	"\n"
	"note: lat/rt-tx/low 64 B: lost rose from 0 (3 in 1 of 4 new repetitions, 0 in 4 base ones); gaps rose from 0 (3 in 1 of 4 new repetitions, 0 in 4 base ones)\n"
	"note: lat/rt-redirect/low 64 B: lost rose from 0 (8060 in 4 of 4 new repetitions, 0 in 4 base ones); gaps rose from 0 (8060 in 4 of 4 new repetitions, 0 in 4 base ones)\n"
	"latency: 7 rows in base, 7 in new: 6 paired, 3 compared; 1 regression(s), 1 improvement(s), 1 ~, 3 not comparable or not measured, 2 in one file only; 2 with a count risen from 0\n";

static char *run_compare(int argc, const char **args, int *ret)
{
	char *argv[8] = { "compare" };
	struct capture co, ce;
	char *out, *err;
	int i;

	for (i = 0; i < argc; i++)
		argv[i + 1] = (char *)args[i];
	cap_start(&co, STDOUT_FILENO);
	cap_start(&ce, STDERR_FILENO);
	*ret = cmd_compare(argc + 1, argv);
	err = cap_end(&ce);
	out = cap_end(&co);
	assert_string_equal(err, "");
	free(err);
	return out;
}

static void test_lat_compare_text(void **state)
{
	char pb[512], pn[512], *out, *sec;
	const char *args[2] = { pb, pn };
	int ret;

	lat_fixture(pb, sizeof(pb), "lat-base.json");
	lat_fixture(pn, sizeof(pn), "lat-new.json");
	out = run_compare(2, args, &ret);
	assert_int_equal(ret, XL_EXIT_RUNTIME); /* the latency regression alone */
	sec = strstr(out, "latency rows (lab run --latency)");
	assert_non_null(sec);
	assert_string_equal(sec, lat_text);
	free(out);
	/* Against itself: every latency row '~', exit 0. */
	args[1] = pb;
	out = run_compare(2, args, &ret);
	assert_int_equal(ret, XL_EXIT_OK);
	assert_non_null(strstr(out, "\nlatency: 7 rows in base, 7 in new: 7 paired, 7 compared; 0 regression(s), 0 improvement(s), 7 ~, 0 not comparable or not measured, 0 in one file only; 0 with a count risen from 0\n"));
	free(out);
}

static void test_lat_compare_json(void **state)
{
	char pb[512], pn[512], *out;
	const char *args[3] = { "--json", pb, pn };
	json_t *doc, *l;
	json_error_t je;
	int ret;

	lat_fixture(pb, sizeof(pb), "lat-base.json");
	lat_fixture(pn, sizeof(pn), "lat-new.json");
	out = run_compare(3, args, &ret);
	assert_int_equal(ret, XL_EXIT_RUNTIME);
	doc = json_loads(out, 0, &je);
	assert_non_null(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "latency")), 8);
	l = json_array_get(json_object_get(doc, "latency"), 2);
	assert_string_equal(json_string_value(json_object_get(l, "name")), "lat/rt-tx/low");
	assert_string_equal(json_string_value(json_object_get(l, "status")), "compared");
	assert_string_equal(json_string_value(json_object_get(l, "verdict")), "improvement");
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(l, "tests"),
				"p99"), "verdict")), "improvement");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(l, "new"),
				"median"), "p99_ns")), 15871);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(l, "new"),
				"sum"), "lost")), 3);
	assert_string_equal(json_string_value(json_array_get(json_object_get(l, "rose_from_zero"), 1)),
			    "gaps");
	l = json_array_get(json_object_get(doc, "latency"), 5);
	assert_string_equal(json_string_value(json_object_get(l, "status")), "base-only");
	assert_true(json_is_null(json_object_get(l, "new")));
	assert_null(json_object_get(l, "verdict"));
	free(out);
	out = json_dumps(json_object_get(doc, "latency_summary"), JSON_COMPACT);
	assert_string_equal(out, "{\"base_rows\":7,\"new_rows\":7,\"paired\":6,\"compared\":3,\"regressions\":1,\"improvements\":1,\"rose_from_zero\":2}");
	free(out);
	json_decref(doc);
}

/*
 * The geomean row: rows paired and compared with rates on both sides only
 * (a row in one file, one not measured and one at 0 pps left out); CPU
 * means only when every row in has CPU on both sides.
 */
static void test_geomean(void **state)
{
	struct xl_cmp_rowdata d[10] = { 0 };
	struct xl_cmp_row rows[5] = { 0 };
	struct xl_cmp_result res = { .rows = rows, .nrows = 5 };
	struct xl_cmp_geomean g;
	const double bm[5] = { 2, 8, 5, 7, 3 }, nm[5] = { 4, 4, 5, 0, 3 };
	int i;

	for (i = 0; i < 5; i++) {
		d[2 * i].mpps.median = bm[i];
		d[2 * i + 1].mpps.median = nm[i];
		rows[i] = (struct xl_cmp_row){ .base = &d[2 * i], .new = &d[2 * i + 1],
					       .status = XL_CMP_PAIRED, .base_cpu = 10 * (i + 1),
					       .new_cpu = 40 * (i + 1) };
	}
	rows[2].status = XL_CMP_NOT_MEASURED;
	rows[4].new = NULL;
	rows[4].status = XL_CMP_BASE_ONLY;
	assert_int_equal(xl_cmp_geomean(&res, &g), 0);
	/* Rows 0 and 1: sqrt(2 * 8) = 4 against sqrt(4 * 4) = 4; CPU sqrt(10 * 20), sqrt(40 * 80). */
	assert_int_equal(g.n, 2);
	assert_float_equal(g.base_mpps, 4, 1e-12);
	assert_float_equal(g.new_mpps, 4, 1e-12);
	assert_float_equal(g.delta_pct, 0, 1e-12);
	assert_float_equal(g.base_cpu, sqrt(200), 1e-9);
	assert_float_equal(g.new_cpu, sqrt(3200), 1e-9);
	/* A row tested on the program's own time: its base_cpu/new_cpu are
	 * program times, not DUT CPU ns/packet, so no CPU means (they mixed). */
	rows[1].prog = true;
	assert_int_equal(xl_cmp_geomean(&res, &g), 0);
	assert_int_equal(g.n, 2);
	assert_float_equal(g.base_cpu, 0, 0);
	assert_float_equal(g.new_cpu, 0, 0);
	rows[1].prog = false;
	/* A row in without CPU: no CPU means. */
	rows[1].new_cpu = 0;
	assert_int_equal(xl_cmp_geomean(&res, &g), 0);
	assert_float_equal(g.base_cpu, 0, 0);
	assert_float_equal(g.new_cpu, 0, 0);
	/* 1 against 2 and 8 against 32: new/base = 4 in each, +300%. */
	d[1].mpps.median = 4;
	d[0].mpps.median = 1;
	d[2].mpps.median = 8;
	d[3].mpps.median = 32;
	assert_int_equal(xl_cmp_geomean(&res, &g), 0);
	assert_float_equal(g.delta_pct, 300, 1e-9);
	/* Nothing in it. */
	rows[0].status = rows[1].status = XL_CMP_NOT_COMPARABLE;
	assert_int_equal(xl_cmp_geomean(&res, &g), -ENODATA);
	assert_int_equal(g.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_arithmetic),
		cmocka_unit_test(test_mw_separated),
		cmocka_unit_test(test_mw_table),
		cmocka_unit_test(test_mw_ties),
		cmocka_unit_test(test_mw_equal_and_bad),
		cmocka_unit_test(test_mw_min_p),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_load_tolerant),
		cmocka_unit_test(test_compare_regression),
		cmocka_unit_test(test_compare_ceiling_moved),
		cmocka_unit_test(test_compare_generator_bound),
		cmocka_unit_test(test_compare_too_few),
		cmocka_unit_test(test_load_duplicates),
		cmocka_unit_test(test_compare_pairing),
		cmocka_unit_test(test_compare_cpu_source),
		cmocka_unit_test(test_env_side_by_side),
		cmocka_unit_test(test_extra_iters),
		cmocka_unit_test(test_extra_next_iters),
		cmocka_unit_test(test_sens_line_and_json),
		cmocka_unit_test(test_lat_load),
		cmocka_unit_test(test_lat_load_clamped),
		cmocka_unit_test(test_load_int_clamped),
		cmocka_unit_test(test_lat_pairing),
		cmocka_unit_test(test_lat_compare_text),
		cmocka_unit_test(test_lat_compare_json),
		cmocka_unit_test(test_geomean),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
