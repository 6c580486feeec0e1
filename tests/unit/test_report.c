// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_report.c - unit tests of the lab results (src/lib/measure/report.c): the
 * JSON document written by xl_report_json(), read back with jansson and
 * checked field by field and against the required keys and enums of
 * docs/results.schema.json; and the fixed-column table of
 * xl_report_table() written to a memory stream.
 *
 * Run from the repository root (for docs/results.schema.json). Temporary
 * files go to the tests' own directory under $TMPDIR (tmp_dir_make()) and
 * are removed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <jansson.h>

#include "xdplab/env.h"
#include "xdplab/report.h"

#define SCHEMA_FILE "docs/results.schema.json"

#include "test_util.h"

/* ---- the rows used by every test ---- */

static void rep_set(struct xl_row_result *r, int i, uint64_t packets, double pps,
		    double gen_pps, double busy, double cpu_ns, uint64_t xmit_errors,
		    bool eth_ok, uint64_t eth_packets, double disagreement)
{
	r->reps[i] = (struct xl_rep_result){
		.ns = 2000000000ULL + i, .packets = packets, .pps = pps, .gen_pps = gen_pps,
		.gen_sent = (uint64_t)(gen_pps * 2), /* offered in the ~2 s window */
		.run_packets = packets + 1000003 * (i + 1),
		.cpu_busy = busy, .cpu_ns_per_pkt = cpu_ns, .gen_xmit_errors = xmit_errors,
		.eth_ok = eth_ok, .eth_packets = eth_packets, .disagreement = disagreement,
	};
	r->nreps = i + 1;
}

static void row_base(struct xl_row_result *r, const char *name, const char *kind)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->kind = kind;
	r->mode = "native";
	r->size = 64;
	r->wiring = "threaded";
	r->engine = "live";
	r->judged = "dut-cpu";
	r->napi_cpu = 2;
	r->gen_cpu = 1;
}

enum { ROW_VALID, ROW_MISMATCH, ROW_CEILING, ROW_NA, N_ROWS };

/*
 * 0: drop/no-touch, valid: Mpps 2 (1-3), ns/p 500, cpu 97%, rep 1 without
 *    the kernel's counter.
 * 1: pass, 1514 B skb, generator-bound (cpu 50%), counts disagree (1%),
 *    no packet operation (null).
 * 2: gen-ceiling, judged by the generator CPU, no action.
 * 3: tx, no repetitions: attach failed.
 */
static void make_rows(struct xl_row_result *rows)
{
	struct xl_row_result *r;

	r = &rows[ROW_VALID];
	row_base(r, "drop/no-touch", "xdp");
	r->action = "XDP_DROP";
	r->op = "no-touch";
	rep_set(r, 0, 2000000, 1e6, 1.5e6, 0.99, 900.0, 10, true, 2001000, 0.0005);
	rep_set(r, 1, 6000000, 3e6, 3.5e6, 0.90, 300.0, 20, false, 0, 0.0);
	rep_set(r, 2, 4000000, 2e6, 2.5e6, 0.97, 500.0, 12, true, 123456789012ULL, 0.004);
	xl_row_finish(r);

	r = &rows[ROW_MISMATCH];
	row_base(r, "pass", "xdp");
	r->action = "XDP_PASS";
	r->op = NULL;
	r->mode = "skb";
	r->size = 1514;
	r->wiring = "softirq";
	r->napi_cpu = -1;
	rep_set(r, 0, 1000000, 0.5e6, 0.6e6, 0.50, 1000.0, 0, true, 1010101, 0.01);
	xl_row_finish(r);

	r = &rows[ROW_CEILING];
	row_base(r, "gen-ceiling", "gen");
	r->action = NULL;
	r->op = NULL;
	r->judged = "gen-cpu";
	rep_set(r, 0, 10000000, 5e6, 5e6, 1.0, 200.0, 7, false, 0, 0.0);
	rep_set(r, 1, 12000000, 6e6, 6e6, 1.0, 166.0, 3, false, 0, 0.0);
	xl_row_finish(r);

	r = &rows[ROW_NA];
	row_base(r, "tx", "xdp");
	r->action = "XDP_TX";
	r->op = "no-touch";
	r->wiring = NULL;
	r->engine = NULL;
	snprintf(r->note, sizeof(r->note), "attach failed: Operation not supported");
	xl_row_finish(r);
}

/* ---- JSON helpers ---- */

static char dir[256], tmp_path[320];

static int setup_dir(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "report");
}

static int teardown_dir(void **state)
{
	return tmp_dir_remove(dir);
}

static int setup_tmp(void **state)
{
	int fd;

	snprintf(tmp_path, sizeof(tmp_path), "%s/results.json", dir);
	fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	/* Something to overwrite. */
	if (write(fd, "not json at all {", 17) != 17) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int teardown_tmp(void **state)
{
	unlink(tmp_path);
	return 0;
}

static json_t *load(const char *path)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);

	if (!doc)
		print_error("%s:%d: %s\n", path, jerr.line, jerr.text);
	assert_non_null(doc);
	return doc;
}

static json_t *get(json_t *obj, const char *key)
{
	json_t *v;

	assert_true(json_is_object(obj));
	v = json_object_get(obj, key);
	if (!v)
		print_error("missing key '%s'\n", key);
	assert_non_null(v);
	return v;
}

static const char *get_str(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_string(v))
		print_error("'%s' is not a string\n", key);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static json_int_t get_int(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_integer(v))
		print_error("'%s' is not an integer\n", key);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static double get_num(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_number(v))
		print_error("'%s' is not a number\n", key);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static bool get_bool(json_t *obj, const char *key)
{
	json_t *v = get(obj, key);

	if (!json_is_boolean(v))
		print_error("'%s' is not a boolean\n", key);
	assert_true(json_is_boolean(v));
	return json_is_true(v);
}

static void check_rep(json_t *rep, const struct xl_rep_result *p)
{
	json_t *eth;

	/* 13, and issue 19's host control, relative figures, steal, load and counts. */
	assert_int_equal(json_object_size(rep), 20);
	assert_int_equal(get_int(rep, "ns"), p->ns);
	assert_int_equal(get_int(rep, "packets"), p->packets);
	assert_int_equal(get_int(rep, "run_packets"), p->run_packets);
	assert_dbl_equal(get_num(rep, "pps"), p->pps);
	assert_dbl_equal(get_num(rep, "gen_pps"), p->gen_pps);
	assert_int_equal(get_int(rep, "gen_sent"), p->gen_sent);
	assert_dbl_equal(get_num(rep, "cpu_busy"), p->cpu_busy);
	assert_dbl_equal(get_num(rep, "cpu_ns_per_pkt"), p->cpu_ns_per_pkt);
	assert_dbl_equal(get_num(rep, "chain_ns_per_pkt"), p->chain_ns_per_pkt);
	if (p->xmit_events >= 0)
		assert_int_equal(get_int(rep, "xmit_events"), p->xmit_events);
	else
		assert_true(json_is_null(get(rep, "xmit_events")));
	assert_int_equal(get_int(rep, "gen_xmit_errors"), p->gen_xmit_errors);
	assert_dbl_equal(get_num(rep, "counter_disagreement"), p->disagreement);
	eth = get(rep, "eth_packets");
	if (p->eth_ok) {
		assert_true(json_is_integer(eth));
		assert_int_equal(json_integer_value(eth), p->eth_packets);
	} else {
		assert_true(json_is_null(eth));
	}
}

/* ---- xl_report_json ---- */

static const struct xl_report_meta meta = {
	.reps = 3, .seconds = 2.5, .warmup = 0.5, .git = "0123abc", .lab_tag = "xl0",
	.wiring = "threaded",
};

static void test_json_document(void **state)
{
	struct xl_row_result rows[N_ROWS];
	json_t *doc, *m, *c;
	struct utsname u;
	const char *date;
	int i;

	make_rows(rows);
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	/* 7, and issue 19's host_control and pmu. */
	assert_int_equal(json_object_size(doc), 9);
	assert_string_equal(get_str(doc, "schema"), "xdplab.lab-results/1");
	assert_string_equal(get_str(doc, "schema"), XL_RESULTS_SCHEMA);
	assert_string_equal(get_str(doc, "git"), "0123abc");
	assert_string_equal(get_str(doc, "lab"), "xl0");

	/* "2024-01-31T12:34:56Z" */
	date = get_str(doc, "date");
	assert_int_equal(strlen(date), 20);
	for (i = 0; i < 20; i++) {
		const char *shape = "dddd-dd-ddTdd:dd:ddZ";

		if (shape[i] == 'd')
			assert_true(isdigit((unsigned char)date[i]));
		else
			assert_int_equal(date[i], shape[i]);
	}

	m = get(doc, "machine");
	assert_int_equal(uname(&u), 0);
	assert_string_equal(get_str(m, "kernel"), u.release);
	assert_string_equal(get_str(m, "arch"), u.machine);
	assert_int_equal(get_int(m, "cpus"), sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(get_int(m, "cpus") >= 1);
	/* What compare sets side by side (xl_env_read()). */
	{
		struct xl_env e;
		json_t *v = get(m, "vulnerabilities");

		xl_env_read(&e);
		/* 9, and issue 19's governor, boost, smt, smt_active, lab_irqs(_note). */
		assert_int_equal(json_object_size(m), 15);
		if (e.governor[0])
			assert_string_equal(get_str(m, "governor"), e.governor);
		else
			assert_true(json_is_null(get(m, "governor")));
		if (e.smt[0])
			assert_string_equal(get_str(m, "smt"), e.smt);
		else
			assert_true(json_is_null(get(m, "smt")));
		if (e.smt_active >= 0)
			assert_int_equal(get_bool(m, "smt_active"), e.smt_active);
		else
			assert_true(json_is_null(get(m, "smt_active")));
		assert_true(json_is_null(get(m, "lab_irqs")));
		assert_string_equal(get_str(m, "lab_irqs_note"), "");
		assert_string_equal(get_str(m, "cpu_model"), e.cpu_model);
		assert_string_equal(get_str(m, "host"), u.nodename);
		assert_string_equal(get_str(m, "cmdline_mitigations"), e.cmdline_mitigations);
		if (e.jit_enable >= 0)
			assert_int_equal(get_int(m, "bpf_jit_enable"), e.jit_enable);
		else
			assert_true(json_is_null(get(m, "bpf_jit_enable")));
		if (e.jit_harden >= 0)
			assert_int_equal(get_int(m, "bpf_jit_harden"), e.jit_harden);
		else
			assert_true(json_is_null(get(m, "bpf_jit_harden")));
		assert_true(json_is_object(v));
		assert_int_equal(json_object_size(v), e.nvulns);
		for (i = 0; i < e.nvulns; i++)
			assert_string_equal(get_str(v, e.vuln_name[i]), e.vuln_state[i]);
	}

	c = get(doc, "config");
	assert_int_equal(json_object_size(c), 7);
	assert_dbl_equal(get_num(c, "steal_high_share"), 0.05);
	assert_string_equal(get_str(c, "wiring"), "threaded");
	assert_int_equal(get_int(c, "reps"), 3);
	assert_dbl_equal(get_num(c, "seconds"), 2.5);
	assert_dbl_equal(get_num(c, "warmup"), 0.5);
	assert_dbl_equal(get_num(c, "saturated_share"), XL_SATURATED_SHARE);
	assert_dbl_equal(get_num(c, "saturated_share"), 0.95);
	assert_dbl_equal(get_num(c, "counter_tolerance"), XL_COUNTER_TOLERANCE);
	assert_dbl_equal(get_num(c, "counter_tolerance"), 0.005);

	assert_true(json_is_array(get(doc, "rows")));
	assert_int_equal(json_array_size(get(doc, "rows")), N_ROWS);
	json_decref(doc);
}

static void test_json_measured_row(void **state)
{
	struct xl_row_result rows[N_ROWS];
	json_t *doc, *row, *mpps, *reps;
	int i;

	make_rows(rows);
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	row = json_array_get(get(doc, "rows"), ROW_VALID);
	assert_non_null(row);
	assert_int_equal(json_object_size(row), 31); /* 24 and issue 19's 7 */
	assert_string_equal(get_str(row, "name"), "drop/no-touch");
	assert_string_equal(get_str(row, "kind"), "xdp");
	assert_string_equal(get_str(row, "action"), "XDP_DROP");
	assert_string_equal(get_str(row, "packet_operation"), "no-touch");
	assert_string_equal(get_str(row, "mode"), "native");
	assert_int_equal(get_int(row, "size"), 64);
	assert_string_equal(get_str(row, "wiring"), "threaded");
	assert_int_equal(get_int(row, "napi_cpu"), 2);
	assert_int_equal(get_int(row, "gen_cpu"), 1);
	assert_string_equal(get_str(row, "gen_engine"), "live");
	assert_string_equal(get_str(row, "judged_cpu"), "dut-cpu");
	assert_string_equal(get_str(row, "verdict"), "valid");
	assert_string_equal(get_str(row, "note"), "");

	mpps = get(row, "mpps");
	assert_int_equal(json_object_size(mpps), 3);
	assert_dbl_equal(get_num(mpps, "median"), 2.0);
	assert_dbl_equal(get_num(mpps, "min"), 1.0);
	assert_dbl_equal(get_num(mpps, "max"), 3.0);
	assert_dbl_equal(get_num(row, "ns_per_pkt"), 500.0);
	assert_dbl_equal(get_num(row, "cpu_busy"), 0.97);
	assert_dbl_equal(get_num(row, "cpu_ns_per_pkt"), 500.0);
	assert_dbl_equal(get_num(row, "gen_mpps"), 2.5);
	assert_int_equal(get_int(row, "gen_xmit_errors"), 42);
	/* 42 refused of 1.5e6*2 + 3.5e6*2 + 2.5e6*2 offered (windows of ~2 s) */
	assert_true(fabs(get_num(row, "ring_drop_share") - 42 / 15e6) < 1e-12);
	assert_dbl_equal(get_num(row, "counter_disagreement"), 0.004);
	assert_false(get_bool(row, "counter_mismatch"));
	assert_true(get_bool(row, "valid"));

	reps = get(row, "reps");
	assert_true(json_is_array(reps));
	assert_int_equal(json_array_size(reps), 3);
	for (i = 0; i < 3; i++)
		check_rep(json_array_get(reps, i), &rows[ROW_VALID].reps[i]);
	/* Spelled out for one: rep 1 had no kernel counter, rep 2 a 64-bit one. */
	assert_true(json_is_null(get(json_array_get(reps, 1), "eth_packets")));
	assert_int_equal(get_int(json_array_get(reps, 2), "eth_packets"), 123456789012LL);
	assert_int_equal(get_int(json_array_get(reps, 0), "packets"), 2000000);
	assert_dbl_equal(get_num(json_array_get(reps, 0), "pps"), 1e6);
	json_decref(doc);
}

/* The cost row: monitor_cost with each figure under its own key; a rep's
 * uncounted xmit_events is null, a counted one an integer. */
static void test_json_monitor_cost(void **state)
{
	struct xl_row_result rows[N_ROWS];
	json_t *doc, *row, *mc, *reps;
	struct xl_watch_est *w;

	make_rows(rows);
	w = xl_row_part_get(&rows[ROW_VALID], &xl_row_part_watch);
	assert_non_null(w);
	*w = (struct xl_watch_est){
		.cost_ns = 1.5, .cpu_cost_ns = 2.5, .events_per_pkt = 0.125,
		.b1_cpu_cost_ns = 64, .b1_events_per_pkt = 2, .per_event_ns = 32,
		.estimate_ns = 4, .valid = true, .per_event_lo = 16, .per_event_hi = 48,
		.estimate_lo = 2, .estimate_hi = 6, .estimate_ci = true };
	rows[ROW_VALID].reps[0].xmit_events = -1;
	rows[ROW_VALID].reps[1].xmit_events = 250000;
	rows[ROW_VALID].reps[2].chain_ns_per_pkt = 123.25;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	row = json_array_get(get(doc, "rows"), ROW_VALID);
	assert_int_equal(json_object_size(row), 32);
	mc = get(row, "monitor_cost");
	assert_int_equal(json_object_size(mc), 10);
	assert_true(json_is_null(get(mc, "cpu_ns_per_pkt_ci")));
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "ns_per_event_ci"), 0)), 16);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "ns_per_event_ci"), 1)), 48);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "estimate_ns_per_pkt_ci"), 0)), 2);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "estimate_ns_per_pkt_ci"), 1)), 6);
	assert_dbl_equal(get_num(mc, "ns_per_pkt"), 1.5);
	assert_dbl_equal(get_num(mc, "cpu_ns_per_pkt"), 2.5);
	assert_dbl_equal(get_num(mc, "events_per_pkt"), 0.125);
	assert_dbl_equal(get_num(mc, "bulk1_cpu_ns_per_pkt"), 64);
	assert_dbl_equal(get_num(mc, "bulk1_events_per_pkt"), 2);
	assert_dbl_equal(get_num(mc, "ns_per_event"), 32);
	assert_dbl_equal(get_num(mc, "estimate_ns_per_pkt"), 4);
	reps = get(row, "reps");
	assert_true(json_is_null(get(json_array_get(reps, 0), "xmit_events")));
	assert_int_equal(get_int(json_array_get(reps, 1), "xmit_events"), 250000);
	assert_dbl_equal(get_num(json_array_get(reps, 2), "chain_ns_per_pkt"), 123.25);
	/* only the row with an estimate has the object */
	assert_null(json_object_get(json_array_get(get(doc, "rows"), ROW_MISMATCH),
				    "monitor_cost"));
	json_decref(doc);

	/* with the per-hop figures (xl_watch_per_hop()): six more keys */
	w->hops = 2;
	w->bulk_frames = 4;
	w->hop_ns = 8;
	w->hop_lo = 4;
	w->hop_hi = 12;
	w->full_hop_ns = 2;
	w->full_hop_lo = 1;
	w->full_hop_hi = 3;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	mc = get(json_array_get(get(doc, "rows"), ROW_VALID), "monitor_cost");
	assert_int_equal(json_object_size(mc), 16);
	assert_int_equal(get_int(mc, "hops"), 2);
	assert_dbl_equal(get_num(mc, "bulk_frames"), 4);
	assert_dbl_equal(get_num(mc, "estimate_ns_per_hop"), 8);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "estimate_ns_per_hop_ci"), 0)), 4);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "estimate_ns_per_hop_ci"), 1)), 12);
	assert_dbl_equal(get_num(mc, "full_bulk_ns_per_hop"), 2);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "full_bulk_ns_per_hop_ci"), 0)), 1);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "full_bulk_ns_per_hop_ci"), 1)), 3);
	json_decref(doc);

	/* with the floor (xl_watch_floor()): eight more keys; no interval: nulls */
	w->floor_valid = true;
	w->floor_ns = 20;
	w->own_ns = 12;
	w->floor_hop_ns = 1.25;
	w->own_hop_ns = 0.75;
	w->floor_lo = 10;
	w->floor_hi = 30;
	w->own_lo = -4;
	w->own_hi = 28;
	w->floor_hop_lo = 0.625;
	w->floor_hop_hi = 1.875;
	w->own_hop_lo = -0.25;
	w->own_hop_hi = 1.75;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	mc = get(json_array_get(get(doc, "rows"), ROW_VALID), "monitor_cost");
	assert_int_equal(json_object_size(mc), 24);
	assert_dbl_equal(get_num(mc, "floor_ns_per_event"), 20);
	assert_dbl_equal(get_num(mc, "own_ns_per_event"), 12);
	assert_dbl_equal(get_num(mc, "floor_full_bulk_ns_per_hop"), 1.25);
	assert_dbl_equal(get_num(mc, "own_full_bulk_ns_per_hop"), 0.75);
	assert_true(json_is_null(get(mc, "floor_ns_per_event_ci")));
	assert_true(json_is_null(get(mc, "own_full_bulk_ns_per_hop_ci")));
	json_decref(doc);
	w->floor_ci = true;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	mc = get(json_array_get(get(doc, "rows"), ROW_VALID), "monitor_cost");
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "floor_ns_per_event_ci"), 0)), 10);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "floor_ns_per_event_ci"), 1)), 30);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "own_ns_per_event_ci"), 0)), -4);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "own_ns_per_event_ci"), 1)), 28);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "floor_full_bulk_ns_per_hop_ci"), 0)), 0.625);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "floor_full_bulk_ns_per_hop_ci"), 1)), 1.875);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "own_full_bulk_ns_per_hop_ci"), 0)), -0.25);
	assert_dbl_equal(json_real_value(json_array_get(get(mc, "own_full_bulk_ns_per_hop_ci"), 1)), 1.75);
	json_decref(doc);
	xl_row_free_parts(&rows[ROW_VALID]);
}

/*
 * A row's parts (xl_row_part_get()): one record per kind, made on first
 * use and the same after; each written under its own key only when set
 * (steering off and no estimate: no member); freed with the row.
 */
static void test_row_parts(void **state)
{
	struct xl_row_result rows[N_ROWS];
	struct xl_row_steer *rs;
	struct xl_profile *pr;
	json_t *doc, *row;

	make_rows(rows);
	assert_null(xl_row_part(&rows[ROW_VALID], &xl_row_part_steer));
	rs = xl_row_part_get(&rows[ROW_VALID], &xl_row_part_steer);
	assert_non_null(rs);
	assert_ptr_equal(xl_row_part_get(&rows[ROW_VALID], &xl_row_part_steer), rs);
	assert_non_null(xl_row_part_get(&rows[ROW_VALID], &xl_row_part_watch));
	pr = xl_row_part_get(&rows[ROW_VALID], &xl_row_part_profile);
	assert_non_null(pr);
	assert_ptr_equal(xl_row_part(&rows[ROW_VALID], &xl_row_part_profile), pr);
	assert_null(xl_row_part(&rows[ROW_MISMATCH], &xl_row_part_profile));
	/* steering off, no estimate: only the profile is written */
	strcpy(pr->event, "cycles");
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	row = json_array_get(get(doc, "rows"), ROW_VALID);
	assert_null(json_object_get(row, "steering"));
	assert_null(json_object_get(row, "monitor_cost"));
	assert_string_equal(json_string_value(get(get(row, "profile"), "event")), "cycles");
	assert_null(json_object_get(json_array_get(get(doc, "rows"), ROW_MISMATCH), "profile"));
	json_decref(doc);
	rs->on = true;
	rs->policy = "l4-hash";
	rs->ntargets = 1;
	rs->targets[0].cpu = 1;
	rs->targets[0].steered = 7;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	row = json_array_get(get(doc, "rows"), ROW_VALID);
	assert_string_equal(json_string_value(get(get(row, "steering"), "policy")), "l4-hash");
	assert_int_equal(get_int(get(row, "steering"), "steered"), 7);
	json_decref(doc);
	xl_row_free_parts(&rows[ROW_VALID]);
	assert_null(xl_row_part(&rows[ROW_VALID], &xl_row_part_steer));
}

/*
 * The field table round trip: every member the table names is written
 * under its key (a measured one only with repetitions) and the readers'
 * xl_row_field_str()/_num() give back what the row held.
 */
static void test_row_fields(void **state)
{
	struct xl_row_result rows[N_ROWS];
	const struct xl_row_result *r = &rows[ROW_VALID];
	json_t *doc, *row, *na;
	int i;

	make_rows(rows);
	rows[ROW_VALID].counter = "program";
	rows[ROW_VALID].cpu_source = "proc-stat";
	rows[ROW_VALID].prog_ns = 26.5;
	rows[ROW_VALID].extra.on = true;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	row = json_array_get(get(doc, "rows"), ROW_VALID);
	na = json_array_get(get(doc, "rows"), ROW_NA);
	for (i = 0; i < XL_ROW_F__COUNT; i++) {
		assert_non_null(xl_row_fields[i].key);
		assert_non_null(json_object_get(row, xl_row_fields[i].key));
		assert_true(xl_row_fields[i].known != XL_FK_COUNT ||
			    xl_row_fields[i].unknown != XL_FU_OMIT ||
			    !json_object_get(na, xl_row_fields[i].key));
	}
	assert_string_equal(xl_row_field_str(row, XL_ROW_F_NAME), r->name);
	assert_string_equal(xl_row_field_str(row, XL_ROW_F_OP), r->op);
	assert_string_equal(xl_row_field_str(row, XL_ROW_F_COUNTER), "program");
	assert_string_equal(xl_row_field_str(row, XL_ROW_F_VERDICT), xl_row_verdict(r));
	assert_string_equal(xl_row_field_str(row, XL_ROW_F_CPU_SOURCE), "proc-stat");
	assert_string_equal(xl_row_field_str(na, XL_ROW_F_CPU_SOURCE), ""); /* not written */
	assert_dbl_equal(xl_row_field_num(row, XL_ROW_F_SIZE), r->size);
	assert_dbl_equal(xl_row_field_num(row, XL_ROW_F_NS_PER_PKT), r->ns_per_pkt);
	assert_dbl_equal(xl_row_field_num(row, XL_ROW_F_CPU_NS_PER_PKT), r->cpu_ns_per_pkt);
	assert_dbl_equal(xl_row_field_num(row, XL_ROW_F_XMIT_ERRORS), (double)r->xmit_errors);
	assert_true(json_is_null(get(na, xl_row_fields[XL_ROW_F_OP].key)) ==
		    (rows[ROW_NA].op == NULL));
	assert_string_equal(xl_row_field_str(na, XL_ROW_F_WIRING), ""); /* NULL written as "" */
	assert_dbl_equal(xl_row_field_num(na, XL_ROW_F_NS_PER_PKT), 0); /* absent */
	assert_dbl_equal(xl_row_field_num(row, XL_ROW_F_PROG_NS), 26.5);
	json_decref(doc);
	/* The program's time is written only when measured (> 0). */
	rows[ROW_VALID].prog_ns = 0;
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	assert_null(json_object_get(json_array_get(get(doc, "rows"), ROW_VALID),
				    xl_row_fields[XL_ROW_F_PROG_NS].key));
	json_decref(doc);
}

/*
 * The profiled repetition's line: with --prog-time sharing it (the row has
 * a program time) it says the BPF stats' clock reads were on too, not
 * perf's cost alone.
 */
static void test_print_profile_prog_time(void **state)
{
	struct xl_row_result rows[N_ROWS];
	struct xl_profile *pr;
	char want[256], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int k;

	(void)state;
	make_rows(rows);
	pr = xl_row_part_get(&rows[ROW_VALID], &xl_row_part_profile);
	assert_non_null(pr);
	strcpy(pr->event, "cpu-clock");
	pr->have_window = true;
	pr->pps = rows[ROW_VALID].mpps.median * 1e6 / 2;
	pr->cpu_ns_per_pkt = 650;
	for (k = 0; k < 2; k++) {
		rows[ROW_VALID].prog_ns = k ? 25 : 0;
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		xl_rows_print_profiles(f, &rows[ROW_VALID], 1);
		fclose(f);
		snprintf(want, sizeof(want), "\n  with perf recording%s: %.2f Mpps (-50.0%% of the median), CPU ns/packet 650.0 (median %.1f)\n",
			 k ? " and BPF run-time stats on (--prog-time)" : "", pr->pps / 1e6,
			 rows[ROW_VALID].cpu_ns_per_pkt);
		assert_non_null(strstr(buf, want));
		free(buf);
		buf = NULL;
	}
	xl_row_free_parts(&rows[ROW_VALID]);
}

static void test_json_other_rows(void **state)
{
	struct xl_row_result rows[N_ROWS];
	json_t *doc, *row, *reps;

	make_rows(rows);
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);

	row = json_array_get(get(doc, "rows"), ROW_MISMATCH);
	assert_string_equal(get_str(row, "name"), "pass");
	assert_string_equal(get_str(row, "action"), "XDP_PASS");
	assert_true(json_is_null(get(row, "packet_operation")));
	assert_string_equal(get_str(row, "mode"), "skb");
	assert_int_equal(get_int(row, "size"), 1514);
	assert_string_equal(get_str(row, "wiring"), "softirq");
	assert_int_equal(get_int(row, "napi_cpu"), -1);
	assert_string_equal(get_str(row, "verdict"), "generator-bound");
	assert_false(get_bool(row, "valid"));
	assert_true(get_bool(row, "counter_mismatch"));
	assert_dbl_equal(get_num(row, "counter_disagreement"), 0.01);
	assert_dbl_equal(get_num(get(row, "mpps"), "median"), 0.5);
	assert_dbl_equal(get_num(row, "ns_per_pkt"), 2000.0);
	reps = get(row, "reps");
	assert_int_equal(json_array_size(reps), 1);
	check_rep(json_array_get(reps, 0), &rows[ROW_MISMATCH].reps[0]);
	assert_int_equal(get_int(json_array_get(reps, 0), "eth_packets"), 1010101);

	row = json_array_get(get(doc, "rows"), ROW_CEILING);
	assert_string_equal(get_str(row, "kind"), "gen");
	assert_true(json_is_null(get(row, "action")));
	assert_true(json_is_null(get(row, "packet_operation")));
	assert_string_equal(get_str(row, "judged_cpu"), "gen-cpu");
	assert_string_equal(get_str(row, "verdict"), "ceiling");
	assert_true(get_bool(row, "valid"));
	assert_dbl_equal(get_num(get(row, "mpps"), "median"), 5.5);
	assert_dbl_equal(get_num(get(row, "mpps"), "min"), 5.0);
	assert_dbl_equal(get_num(get(row, "mpps"), "max"), 6.0);
	assert_near(get_num(row, "ns_per_pkt"), 1e3 / 5.5, 1e-12);
	assert_int_equal(get_int(row, "gen_xmit_errors"), 10);
	reps = get(row, "reps");
	assert_int_equal(json_array_size(reps), 2);
	check_rep(json_array_get(reps, 0), &rows[ROW_CEILING].reps[0]);
	check_rep(json_array_get(reps, 1), &rows[ROW_CEILING].reps[1]);
	assert_true(json_is_null(get(json_array_get(reps, 1), "eth_packets")));

	/* No repetitions: mpps null, not valid, empty reps, no derived figures. */
	row = json_array_get(get(doc, "rows"), ROW_NA);
	assert_int_equal(json_object_size(row), 23); /* 16 and issue 19's 7 */
	assert_string_equal(get_str(row, "name"), "tx");
	assert_string_equal(get_str(row, "verdict"), "n/a");
	assert_string_equal(get_str(row, "note"), "attach failed: Operation not supported");
	assert_string_equal(get_str(row, "wiring"), "");
	assert_string_equal(get_str(row, "gen_engine"), "");
	assert_true(json_is_null(get(row, "mpps")));
	assert_false(get_bool(row, "valid"));
	assert_int_equal(json_array_size(get(row, "reps")), 0);
	assert_null(json_object_get(row, "ns_per_pkt"));
	assert_null(json_object_get(row, "counter_mismatch"));
	json_decref(doc);
}

/* Every "required" key of an object schema is present in @obj. */
static void check_required(json_t *schema, json_t *obj, const char *what)
{
	json_t *req = json_object_get(schema, "required"), *k;
	size_t i;

	assert_true(json_is_array(req));
	json_array_foreach(req, i, k) {
		if (!json_object_get(obj, json_string_value(k)))
			print_error("%s: required key '%s' missing\n", what,
				    json_string_value(k));
		assert_non_null(json_object_get(obj, json_string_value(k)));
	}
}

static bool in_enum(json_t *schema, const char *val)
{
	json_t *e = json_object_get(schema, "enum"), *k;
	size_t i;

	assert_true(json_is_array(e));
	json_array_foreach(e, i, k)
		if (!strcmp(json_string_value(k), val))
			return true;
	return false;
}

static void test_json_matches_schema_file(void **state)
{
	struct xl_row_result rows[N_ROWS];
	json_t *schema, *doc, *defs, *props, *row, *rep;
	size_t i, j;

	make_rows(rows);
	assert_int_equal(xl_report_json(tmp_path, &meta, rows, N_ROWS), 0);
	doc = load(tmp_path);
	schema = load(SCHEMA_FILE);
	defs = get(schema, "definitions");
	props = get(schema, "properties");

	assert_true(in_enum(get(props, "schema"), get_str(doc, "schema")));
	check_required(schema, doc, "document");
	check_required(get(props, "machine"), get(doc, "machine"), "machine");
	check_required(get(props, "config"), get(doc, "config"), "config");
	json_array_foreach(get(doc, "rows"), i, row) {
		json_t *rowdef = get(defs, "row"), *rprops = get(rowdef, "properties");

		check_required(rowdef, row, "row");
		assert_true(in_enum(get(rprops, "kind"), get_str(row, "kind")));
		assert_true(in_enum(get(rprops, "verdict"), get_str(row, "verdict")));
		if (json_is_object(get(row, "mpps"))) {
			check_required(get(rowdef, "then"), row, "measured row");
			check_required(get(defs, "summary"), get(row, "mpps"), "mpps");
			assert_true(json_array_size(get(row, "reps")) >= 1);
		} else {
			assert_true(json_is_null(get(row, "mpps")));
			assert_int_equal(json_array_size(get(row, "reps")), 0);
			assert_string_equal(get_str(row, "verdict"), "n/a");
		}
		json_array_foreach(get(row, "reps"), j, rep)
			check_required(get(defs, "rep"), rep, "rep");
	}
	json_decref(schema);
	json_decref(doc);
}

/* A single command's file: schema name, command, interval records. */
static void test_json_run_results(void **state)
{
	struct xl_row_result rows[N_ROWS];
	struct xl_interval_rec iv[2] = {
		{ .t = 0.5, .rep = 0, .r = { .ns = 500000000, .packets = 1000, .pps = 2000,
					     .xmit_events = -1 } },
		{ .t = 1.25, .rep = 1, .r = { .ns = 750000000, .packets = 3, .pps = 4,
					      .gen_sent = 7, .xmit_events = -1 } },
	};
	struct xl_report_meta m = { .reps = 2, .seconds = 0.75, .command = "drop",
				    .interval = 0.5, .intervals = iv, .nintervals = 2 };
	json_t *doc, *schema, *arr, *rec;
	size_t i;

	make_rows(rows);
	assert_int_equal(xl_report_json(tmp_path, &m, rows, 1), 0);
	doc = load(tmp_path);
	schema = load(SCHEMA_FILE);
	assert_string_equal(get_str(doc, "schema"), XL_RUN_RESULTS_SCHEMA);
	assert_true(in_enum(get(get(schema, "properties"), "schema"), get_str(doc, "schema")));
	assert_string_equal(get_str(doc, "command"), "drop");
	assert_dbl_equal(get_num(get(doc, "config"), "interval"), 0.5);
	assert_int_equal(get_int(get(doc, "config"), "reps"), 2);
	arr = get(doc, "intervals");
	assert_int_equal(json_array_size(arr), 2);
	json_array_foreach(arr, i, rec) {
		check_required(get(get(schema, "definitions"), "rep"), rec, "interval");
		assert_dbl_equal(get_num(rec, "t"), iv[i].t);
		assert_int_equal(get_int(rec, "rep"), iv[i].rep);
		assert_int_equal(get_int(rec, "ns"), iv[i].r.ns);
		assert_int_equal(get_int(rec, "packets"), iv[i].r.packets);
		assert_int_equal(get_int(rec, "gen_sent"), iv[i].r.gen_sent);
	}
	assert_int_equal(json_array_size(get(doc, "rows")), 1);
	json_decref(schema);
	json_decref(doc);
}

static void test_json_no_rows_and_defaults(void **state)
{
	const struct xl_report_meta bare = { .reps = 1, .seconds = 1, .warmup = 0 };
	json_t *doc;

	assert_int_equal(xl_report_json(tmp_path, &bare, NULL, 0), 0);
	doc = load(tmp_path);
	assert_true(json_is_array(get(doc, "rows")));
	assert_int_equal(json_array_size(get(doc, "rows")), 0);
	assert_string_equal(get_str(doc, "git"), ""); /* NULL: unknown */
	assert_string_equal(get_str(doc, "lab"), "");
	assert_int_equal(get_int(get(doc, "config"), "reps"), 1);
	assert_dbl_equal(get_num(get(doc, "config"), "warmup"), 0.0);
	json_decref(doc);
}

static void test_json_write_error(void **state)
{
	struct xl_row_result rows[N_ROWS];
	char gone[300], path[320];
	int r;

	make_rows(rows);
	snprintf(gone, sizeof(gone), "%s/gone", dir); /* never made */
	snprintf(path, sizeof(path), "%s/results.json", gone);
	r = xl_report_json(path, &meta, rows, N_ROWS);
	assert_true(r < 0);
	assert_int_equal(r, -ENOENT); /* the cause, not a bare -EIO (report.h) */
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(gone, F_OK), -1);
	/* A device that fails writes: the write's own errno. */
	assert_int_equal(xl_report_json("/dev/full", &meta, rows, N_ROWS), -ENOSPC);
}

/* ---- xl_report_table ---- */

static char *table(const struct xl_row_result *rows, int n, const char *header)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	xl_report_table(f, rows, n, header);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

/* Line @i (0-based) of @text, without its '\n', into @line. */
static void nth_line(const char *text, int i, char *line, size_t size)
{
	const char *end;

	while (i-- > 0) {
		text = strchr(text, '\n');
		assert_non_null(text);
		text++;
	}
	end = strchr(text, '\n');
	assert_non_null(end); /* every line ends with '\n' */
	assert_true((size_t)(end - text) < size);
	memcpy(line, text, end - text);
	line[end - text] = '\0';
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static const char columns[] =
	"benchmark            size mode    wiring    Mpps median (min-max) ns/packet  DUT CPU"
	"  CPU ns/p gen Mpps   check  verdict";

static void test_table_lines(void **state)
{
	struct xl_row_result rows[N_ROWS];
	char line[256];
	char *out;

	make_rows(rows);
	out = table(rows, N_ROWS, "wiring: threaded NAPI on CPU 2; generator on CPU 1");
	assert_int_equal(count_lines(out), 2 + N_ROWS);
	nth_line(out, 0, line, sizeof(line));
	assert_string_equal(line, "wiring: threaded NAPI on CPU 2; generator on CPU 1");
	nth_line(out, 1, line, sizeof(line));
	assert_string_equal(line, columns);

	nth_line(out, 2, line, sizeof(line));
	assert_string_equal(line, "drop/no-touch          64 native  threaded       2.00 (1.00-3.00)"
				  "     500.0      97%     500.0     2.50    0.4%  valid");
	nth_line(out, 3, line, sizeof(line));
	assert_string_equal(line, "pass                 1514 skb     softirq        0.50 (0.50-0.50)"
				  "    2000.0      50%    1000.0     0.60   !1.0%  generator-bound, "
				  "counts disagree");
	nth_line(out, 4, line, sizeof(line));
	assert_string_equal(line, "gen-ceiling            64 native  threaded       5.50 (5.00-6.00)"
				  "     181.8     100%     183.0     5.50       -  ceiling");
	nth_line(out, 5, line, sizeof(line));
	assert_string_equal(line, "tx                     64 native  -                             -"
				  "  attach failed: Operation not supported");
	free(out);
}

static void test_table_verdict_words(void **state)
{
	struct xl_row_result rows[N_ROWS];
	char line[256];
	char *out;

	make_rows(rows);
	out = table(rows, N_ROWS, NULL);
	/* No header: the column line comes first. */
	assert_int_equal(count_lines(out), 1 + N_ROWS);
	nth_line(out, 0, line, sizeof(line));
	assert_string_equal(line, columns);

	nth_line(out, 1 + ROW_VALID, line, sizeof(line));
	assert_true(strncmp(line, "drop/no-touch ", 14) == 0);
	assert_non_null(strstr(line, "  valid"));
	assert_null(strstr(line, "counts disagree"));
	assert_null(strstr(line, "!"));

	nth_line(out, 1 + ROW_MISMATCH, line, sizeof(line));
	assert_non_null(strstr(line, "  generator-bound, counts disagree"));
	assert_non_null(strstr(line, " !1.0% "));

	nth_line(out, 1 + ROW_CEILING, line, sizeof(line));
	assert_non_null(strstr(line, "  ceiling"));
	assert_null(strstr(line, "%  ceiling")); /* check column is "-" */

	nth_line(out, 1 + ROW_NA, line, sizeof(line));
	assert_non_null(strstr(line, "attach failed"));
	assert_null(strstr(line, "valid"));
	free(out);

	/* A row without reps and without a note says "n/a". */
	rows[ROW_NA].note[0] = '\0';
	out = table(&rows[ROW_NA], 1, NULL);
	nth_line(out, 1, line, sizeof(line));
	assert_int_equal(strlen(line), strlen("tx                     64 native  -          "
					      "                   -  n/a"));
	assert_string_equal(line + strlen(line) - 5, "  n/a");
	free(out);

	/* No rows: just the column line. */
	out = table(rows, 0, NULL);
	assert_int_equal(count_lines(out), 1);
	free(out);
}

/*
 * @r: one valid 64-byte XDP row @name of one repetition, 4 Mpps, 250 CPU
 * ns/packet, veth's count @eth_packets (disagreement @dis), finished.
 */
static void one_row(struct xl_row_result *r, const char *name, uint64_t eth_packets, double dis)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->kind = "xdp";
	r->mode = "native";
	r->wiring = "threaded";
	r->size = 64;
	r->nreps = 1;
	r->reps[0] = (struct xl_rep_result){ .ns = 1000000000ULL, .packets = 4000000,
					     .pps = 4e6, .gen_pps = 4e6, .cpu_busy = 1.0,
					     .cpu_ns_per_pkt = 250, .eth_ok = true,
					     .eth_packets = eth_packets, .disagreement = dis };
	xl_row_finish(r);
}

static void test_table_mismatch_flag(void **state)
{
	struct xl_row_result r;
	char line[256];
	char *out;

	/* The same row with and without a disagreement above the tolerance. */
	one_row(&r, "drop/read", 4020000, 0.005);
	out = table(&r, 1, NULL);
	nth_line(out, 1, line, sizeof(line));
	assert_non_null(strstr(line, "    0.5%  valid"));
	assert_null(strstr(line, "counts disagree"));
	free(out);

	r.reps[0].disagreement = 0.006;
	xl_row_finish(&r);
	out = table(&r, 1, NULL);
	nth_line(out, 1, line, sizeof(line));
	assert_non_null(strstr(line, "   !0.6%  valid, counts disagree"));
	free(out);
}

/*
 * The row's counter: a driver-counted row's check column reads "drv" (its
 * count is the kernel's own), the JSON says which counter; a row counted
 * by the program keeps its percentage and says so in the JSON.
 */
/* The "counter" of the one row of @r's JSON document, or NULL without the key. */
static char *json_counter(const struct xl_row_result *r)
{
	json_t *doc, *v;
	char *c;

	assert_int_equal(xl_report_json(tmp_path, &meta, r, 1), 0);
	doc = load(tmp_path);
	v = json_object_get(json_array_get(get(doc, "rows"), 0), "counter");
	c = v ? strdup(json_string_value(v)) : NULL;
	json_decref(doc);
	return c;
}

static void test_counter(void **state)
{
	struct xl_row_result r;
	char line[256];
	char *out;

	static const struct {
		const char *counter, *check, *json;
	} cases[] = {
		{ XL_COUNTER_DRIVER, "     drv  valid", "driver:rx_queue_N_xdp_packets" },
		{ XL_COUNTER_PROGRAM, "    0.0%  valid", "program:bench_stats" },
	};
	size_t i;

	(void)state;
	one_row(&r, "drop/no-touch", 4000000, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r.counter = cases[i].counter;
		out = table(&r, 1, NULL);
		nth_line(out, 1, line, sizeof(line));
		assert_non_null(strstr(line, cases[i].check));
		free(out);
		out = json_counter(&r);
		assert_string_equal(out, cases[i].json);
		free(out);
	}
	r.counter = NULL; /* not said: no key */
	assert_null(json_counter(&r));
}

/*
 * A name longer than 19 characters (the lab's redirect/b1+mon-floor, 21)
 * widens the name column of every line, so the other columns stay in line
 * (with %-19s that row's columns shifted 2 characters right).
 */
static void test_table_long_name(void **state)
{
	struct xl_row_result rows[N_ROWS];
	char line[256];
	char *out;

	make_rows(rows);
	snprintf(rows[ROW_MISMATCH].name, sizeof(rows[ROW_MISMATCH].name), "redirect/b1+mon-floor");
	out = table(rows, N_ROWS, NULL);
	nth_line(out, 0, line, sizeof(line));
	assert_string_equal(line, "benchmark              size mode    wiring    Mpps median (min-max)"
				  " ns/packet  DUT CPU  CPU ns/p gen Mpps   check  verdict");
	nth_line(out, 1, line, sizeof(line));
	assert_string_equal(line, "drop/no-touch            64 native  threaded       2.00 (1.00-3.00)"
				  "     500.0      97%     500.0     2.50    0.4%  valid");
	nth_line(out, 2, line, sizeof(line));
	assert_string_equal(line, "redirect/b1+mon-floor  1514 skb     softirq        0.50 (0.50-0.50)"
				  "    2000.0      50%    1000.0     0.60   !1.0%  generator-bound, "
				  "counts disagree");
	nth_line(out, 4, line, sizeof(line));
	assert_string_equal(line, "tx                       64 native  -                             -"
				  "  attach failed: Operation not supported");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_document, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_json_measured_row, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_json_other_rows, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_json_matches_schema_file, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_json_run_results, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_json_no_rows_and_defaults, setup_tmp,
						teardown_tmp),
		cmocka_unit_test_setup_teardown(test_json_monitor_cost, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_row_parts, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_row_fields, setup_tmp, teardown_tmp),
		cmocka_unit_test(test_print_profile_prog_time),
		cmocka_unit_test(test_json_write_error),
		cmocka_unit_test(test_table_lines),
		cmocka_unit_test(test_table_verdict_words),
		cmocka_unit_test(test_table_mismatch_flag),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_table_long_name),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
