// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_report_host.c - the host's speed and noise in a results file (issue
 * 19): a row's host-control summary, its figures relative to the control
 * and corrected to a reference (xl_row_finish(), xl_rows_ctl_ref()), the
 * steal mark in the table, the JSON fields (null where not known, the
 * run's "host_control" and "pmu" objects, the machine's noise facts), and
 * compare's environment lines of them (xl_cmp_env()). Exact values.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "test_util.h"
#include "xdplab/compare.h"
#include "xdplab/report.h"

/* A drop row of 3 repetitions: 2, 4 and 5 Mpps; CPU ns 400, 200, 250; control 500, 0 (not measured), 400. */
static void make_row(struct xl_row_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "drop/no-touch");
	r->kind = "xdp";
	r->mode = "native";
	r->wiring = "threaded";
	r->size = 64;
	r->nreps = 3;
	r->reps[0] = (struct xl_rep_result){ .pps = 2e6, .cpu_ns_per_pkt = 400, .ctl_ns = 500,
					     .steal_ok = true, .steal_share = 0.06, .steal_high = true,
					     .load_ok = true, .load = 3.5, .xmit_events = -1 };
	r->reps[1] = (struct xl_rep_result){ .pps = 4e6, .cpu_ns_per_pkt = 200, .ctl_ns = 0,
					     .steal_ok = true, .steal_share = 0.01, .xmit_events = -1 };
	r->reps[2] = (struct xl_rep_result){ .pps = 5e6, .cpu_ns_per_pkt = 250, .ctl_ns = 400,
					     .xmit_events = -1 };
	/* Counted in the first and the last repetition only; cycles in the first only. */
	r->reps[0].pmu.ok[XL_PMU_INSTRUCTIONS] = r->reps[2].pmu.ok[XL_PMU_INSTRUCTIONS] = true;
	r->reps[0].pmu.per_pkt[XL_PMU_INSTRUCTIONS] = 300;
	r->reps[2].pmu.per_pkt[XL_PMU_INSTRUCTIONS] = 500;
	r->reps[0].pmu.ok[XL_PMU_CYCLES] = true;
	r->reps[0].pmu.per_pkt[XL_PMU_CYCLES] = 600;
	r->reps[0].pmu.ipc_ok = true;
	r->reps[0].pmu.ipc = 0.5;
}

static void test_row_host_figures(void **state)
{
	struct xl_row_result rows[2];

	(void)state;
	make_row(&rows[0]);
	xl_row_finish(&rows[0]);
	/* The control of the two repetitions that measured it. */
	assert_int_equal(rows[0].ctl.n, 2);
	assert_dbl_equal(rows[0].ctl.median, 450);
	assert_dbl_equal(rows[0].ctl.min, 400);
	assert_dbl_equal(rows[0].ctl.max, 500);
	/* ns/packet 500 / 500 and 200 / 400: the median of 1.0 and 0.5. */
	assert_dbl_equal(rows[0].rel_ns_per_pkt, 0.75);
	/* CPU ns 400 / 500 and 250 / 400: the median of 0.8 and 0.625. */
	assert_dbl_equal(rows[0].rel_cpu_ns_per_pkt, 0.7125);
	assert_int_equal(rows[0].nsteal_high, 1);
	assert_true(rows[0].pmu.ok[XL_PMU_INSTRUCTIONS]);
	assert_dbl_equal(rows[0].pmu.per_pkt[XL_PMU_INSTRUCTIONS], 400);
	assert_true(rows[0].pmu.ok[XL_PMU_CYCLES]);
	assert_dbl_equal(rows[0].pmu.per_pkt[XL_PMU_CYCLES], 600);
	assert_false(rows[0].pmu.ok[XL_PMU_CACHE_MISSES] || rows[0].pmu.ok[XL_PMU_BRANCH_MISSES]);
	assert_true(rows[0].pmu.ipc_ok);
	assert_dbl_equal(rows[0].pmu.ipc, 0.5);
	/* The run's reference: the median of 500, 400 and a second row's 700, 800. */
	make_row(&rows[1]);
	rows[1].reps[0].ctl_ns = 700;
	rows[1].reps[2].ctl_ns = 800;
	xl_row_finish(&rows[1]);
	assert_dbl_equal(xl_rows_ctl_ref(rows, 2), 600);
	assert_dbl_equal(xl_rows_ctl_ref(rows, 1), 450);
	/* No control at all: nothing relative, no reference. */
	rows[0].reps[0].ctl_ns = rows[0].reps[2].ctl_ns = 0;
	xl_row_finish(&rows[0]);
	assert_int_equal(rows[0].ctl.n, 0);
	assert_dbl_equal(rows[0].rel_ns_per_pkt, 0);
	assert_dbl_equal(rows[0].rel_cpu_ns_per_pkt, 0);
	assert_dbl_equal(xl_rows_ctl_ref(rows, 1), 0);
}

static void test_table_steal_mark(void **state)
{
	struct xl_row_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	make_row(&r);
	xl_row_finish(&r);
	xl_report_table(f, &r, 1, NULL);
	r.reps[0].steal_high = false;
	xl_row_finish(&r);
	xl_report_table(f, &r, 1, NULL);
	fclose(f);
	/* The first table marks it, the second does not. */
	assert_non_null(strstr(buf, "generator-bound; steal > 5% in 1 of 3 reps\n"));
	assert_null(strstr(strstr(buf, "steal > 5%") + 1, "steal > 5%"));
	free(buf);
}

static char dir[256], path[300];

static int make_tmp(void **state)
{
	(void)state;
	if (tmp_dir_make(dir, sizeof(dir), "report-host"))
		return -1;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	return 0;
}

static int remove_tmp(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

static json_t *at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("no key '%s'", key);
	return v;
}

static void test_json_host_fields(void **state)
{
	struct xl_row_result r;
	struct xl_report_meta meta = { .reps = 3, .seconds = 1, .warmup = 0.25, .git = "x",
				       .lab_tag = "t", .ctl_ref_ns = 600, .ctl_on = true,
				       .pmu_reason = "perf_event_open of the instructions counter: No such file or directory",
				       .lab_irqs = NULL, .lab_irqs_note = "veth has no IRQ" };
	json_error_t jerr;
	json_t *doc, *row, *reps, *hc, *m;

	(void)state;
	make_row(&r);
	xl_row_finish(&r);
	assert_int_equal(xl_report_json(path, &meta, &r, 1), 0);
	doc = json_load_file(path, 0, &jerr);
	assert_non_null(doc);
	hc = at(doc, "host_control");
	assert_string_equal(json_string_value(at(hc, "program")), "bpf/hostctl.bpf.c");
	assert_int_equal(json_integer_value(at(hc, "iters")), 512);
	assert_int_equal(json_integer_value(at(hc, "bursts")), 15);
	assert_int_equal(json_integer_value(at(hc, "calls_per_burst")), 20);
	assert_dbl_equal(json_number_value(at(hc, "ref_ns")), 600);
	assert_true(json_is_false(at(at(doc, "pmu"), "available")));
	assert_string_equal(json_string_value(at(at(doc, "pmu"), "reason")), meta.pmu_reason);
	assert_dbl_equal(json_number_value(at(at(doc, "config"), "steal_high_share")), 0.05);
	m = at(doc, "machine");
	assert_true(json_is_null(at(m, "lab_irqs")));
	assert_string_equal(json_string_value(at(m, "lab_irqs_note")), "veth has no IRQ");
	/* This machine's noise facts: each a value or null, never absent. */
	assert_true(json_is_string(at(m, "governor")) || json_is_null(at(m, "governor")));
	assert_true(json_is_boolean(at(m, "boost")) || json_is_null(at(m, "boost")));
	assert_true(json_is_string(at(m, "smt")) || json_is_null(at(m, "smt")));
	assert_true(json_is_boolean(at(m, "smt_active")) || json_is_null(at(m, "smt_active")));
	row = json_array_get(at(doc, "rows"), 0);
	assert_dbl_equal(json_number_value(at(at(row, "host_ctl"), "median")), 450);
	assert_dbl_equal(json_number_value(at(row, "ns_per_pkt_per_ctl")), 0.75);
	assert_dbl_equal(json_number_value(at(row, "cpu_ns_per_pkt_per_ctl")), 0.7125);
	assert_dbl_equal(json_number_value(at(row, "ns_per_pkt_corrected")), 450);
	assert_near(json_number_value(at(row, "cpu_ns_per_pkt_corrected")), 427.5, 1e-9);
	assert_int_equal(json_integer_value(at(row, "steal_high_reps")), 1);
	assert_dbl_equal(json_number_value(at(at(row, "pmu"), "instructions_per_pkt")), 400);
	assert_true(json_is_null(at(at(row, "pmu"), "cache_misses_per_pkt")));
	reps = at(row, "reps");
	/* Repetition 0: everything known. */
	assert_dbl_equal(json_number_value(at(json_array_get(reps, 0), "host_ctl_ns")), 500);
	assert_dbl_equal(json_number_value(at(json_array_get(reps, 0), "ns_per_pkt_per_ctl")), 1.0);
	assert_dbl_equal(json_number_value(at(json_array_get(reps, 0), "cpu_ns_per_pkt_per_ctl")), 0.8);
	assert_dbl_equal(json_number_value(at(json_array_get(reps, 0), "steal_share")), 0.06);
	assert_true(json_is_true(at(json_array_get(reps, 0), "steal_high")));
	assert_dbl_equal(json_number_value(at(json_array_get(reps, 0), "load")), 3.5);
	assert_dbl_equal(json_number_value(at(at(json_array_get(reps, 0), "pmu"), "ipc")), 0.5);
	/* Repetition 1: no control, no load: null, not 0. */
	assert_true(json_is_null(at(json_array_get(reps, 1), "host_ctl_ns")));
	assert_true(json_is_null(at(json_array_get(reps, 1), "ns_per_pkt_per_ctl")));
	assert_true(json_is_null(at(json_array_get(reps, 1), "load")));
	assert_true(json_is_false(at(json_array_get(reps, 1), "steal_high")));
	/* Repetition 2: no steal read. */
	assert_true(json_is_null(at(json_array_get(reps, 2), "steal_share")));
	json_decref(doc);
	/* No control in the run: null objects. */
	meta.ctl_on = false;
	meta.ctl_ref_ns = 0;
	meta.pmu_reason = NULL;
	assert_int_equal(xl_report_json(path, &meta, &r, 1), 0);
	doc = json_load_file(path, 0, &jerr);
	assert_non_null(doc);
	assert_true(json_is_null(at(doc, "host_control")));
	assert_true(json_is_true(at(at(doc, "pmu"), "available")));
	assert_true(json_is_null(at(at(doc, "pmu"), "reason")));
	row = json_array_get(at(doc, "rows"), 0);
	assert_true(json_is_null(at(row, "ns_per_pkt_corrected")));
	assert_dbl_equal(json_number_value(at(row, "ns_per_pkt_per_ctl")), 0.75);
	json_decref(doc);
}

/* The file at @path with its machine's noise facts set as given (NULL: null). */
static void set_machine(const char *gov, int boost, const char *smt, const char *irqs)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr), *m;

	assert_non_null(doc);
	m = json_object_get(doc, "machine");
	json_object_set_new(m, "governor", gov ? json_string(gov) : json_null());
	json_object_set_new(m, "boost", boost < 0 ? json_null() : json_boolean(boost));
	json_object_set_new(m, "smt", smt ? json_string(smt) : json_null());
	json_object_set_new(m, "smt_active", json_false());
	json_object_set_new(m, "lab_irqs", irqs ? json_string(irqs) : json_null());
	assert_int_equal(json_dump_file(doc, path, 0), 0);
	json_decref(doc);
}

static const struct xl_cmp_env_row *line(const struct xl_cmp_env_row *e, int n, const char *f)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].field, f))
			return &e[i];
	fail_msg("no environment line '%s'", f);
	return NULL;
}

static void test_compare_env_noise(void **state)
{
	struct xl_row_result r;
	struct xl_report_meta meta = { .reps = 3, .seconds = 1, .git = "x", .lab_tag = "t" };
	struct xl_cmp_file a, b;
	struct xl_cmp_env_row e[64];
	char err[256];
	int n;

	(void)state;
	make_row(&r);
	xl_row_finish(&r);
	assert_int_equal(xl_report_json(path, &meta, &r, 1), 0);
	set_machine("performance", 1, "on", NULL);
	assert_int_equal(xl_cmp_load(path, &a, err, sizeof(err)), 0);
	set_machine("powersave", 0, "on", "33:0-3");
	assert_int_equal(xl_cmp_load(path, &b, err, sizeof(err)), 0);
	n = xl_cmp_env(&a, &b, e, 64);
	assert_true(line(e, n, "cpufreq governor")->differs);
	assert_string_equal(line(e, n, "cpufreq governor")->base, "performance");
	assert_string_equal(line(e, n, "cpufreq governor")->new, "powersave");
	assert_true(line(e, n, "boost")->differs);
	assert_string_equal(line(e, n, "boost")->base, "on");
	assert_string_equal(line(e, n, "boost")->new, "off");
	assert_false(line(e, n, "SMT")->differs);
	assert_string_equal(line(e, n, "SMT active")->base, "no");
	assert_true(line(e, n, "lab IRQs (IRQ:CPUs)")->differs);
	assert_string_equal(line(e, n, "lab IRQs (IRQ:CPUs)")->base, "none");
	assert_string_equal(line(e, n, "lab IRQs (IRQ:CPUs)")->new, "33:0-3");
	/* Not said (null, or an older file): "?" and not marked. */
	set_machine(NULL, -1, NULL, NULL);
	xl_cmp_file_free(&b);
	assert_int_equal(xl_cmp_load(path, &b, err, sizeof(err)), 0);
	n = xl_cmp_env(&a, &b, e, 64);
	assert_false(line(e, n, "cpufreq governor")->differs);
	assert_string_equal(line(e, n, "cpufreq governor")->new, "?");
	assert_false(line(e, n, "boost")->differs);
	assert_string_equal(line(e, n, "boost")->new, "?");
	assert_false(line(e, n, "lab IRQs (IRQ:CPUs)")->differs);
	xl_cmp_file_free(&a);
	xl_cmp_file_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_host_figures),
		cmocka_unit_test(test_table_steal_mark),
		cmocka_unit_test_setup_teardown(test_json_host_fields, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(test_compare_env_noise, make_tmp, remove_tmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
