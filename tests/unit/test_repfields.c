// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_repfields.c - a results row with 3 repetitions through the one
 * writer (xl_report_json_write()) and back through the field tables'
 * reader (xl_fields_from_json() of xl_row_fields[], which holds the
 * repetitions' xl_rep_fields[]) and compare's reader (xl_cmp_from_doc()):
 * every member of the row and of each repetition comes back as written,
 * known or not (src/lib/measure/rowfields.c); and every member written is
 * one docs/results.schema.json names, of the JSON kind it says (an
 * "integer" an integer, a "number" a real). A table entry with a wrong
 * key, type, offset or rule breaks a member here. Run from the repository
 * root (for the schema).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "xdplab/compare.h"
#include "xdplab/report.h"

#include "test_util.h"

#define SCHEMA_FILE "docs/results.schema.json"

/* Counts above 2^32: a count held or written in 32 bits loses them. */
#define BIG 0x100000000ull

/* Repetition @i, every member set; @i 1 knows none of what may be unknown. */
static void rep_make(struct xl_rep_result *p, int i)
{
	int ev;

	p->ns = BIG + 300000000 + i;
	p->packets = BIG + 220000 + i;
	p->gen_sent = BIG + 230000 + i;
	p->gen_xmit_errors = BIG + 1000 + i;
	p->run_packets = BIG + 400000 + i;
	p->eth_packets = BIG + 400010 + i;
	p->pps = 733333.25 + i;
	p->gen_pps = 740000.5 + i;
	p->cpu_busy = 0.52 + i / 100.0;
	p->cpu_ns_per_pkt = 697.25 + i;
	p->disagreement = 0.0125 + i / 1000.0;
	p->chain_ns_per_pkt = 801.5 + i;
	p->xmit_events = i == 1 ? -1 : (int64_t)BIG + 4000 + i;
	p->eth_ok = i != 1;
	p->softirq_runs = i == 1 ? 0 : BIG + 9000 + i;
	p->steal_ok = i != 1;
	p->steal_high = i == 2; /* known and true, known and false, unknown */
	p->load_ok = i != 1;
	p->steal_share = i == 1 ? 0 : 0.125 + i;
	p->load = i == 1 ? 0 : 1.5 + i;
	p->ctl_ns = i == 1 ? 0 : 606.5 + i;
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		p->pmu.ok[ev] = i != 1 && ev != i;
		p->pmu.per_pkt[ev] = p->pmu.ok[ev] ? 100.5 * (ev + 1) + i : 0;
	}
	p->pmu.ipc_ok = i == 0;
	p->pmu.ipc = i == 0 ? 1.25 : 0;
}

/* Hardware counts @b, read back, are @a's, known or not. */
static void pmu_check(const struct xl_pmu_pkt *b, const struct xl_pmu_pkt *a)
{
	int ev;

	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		assert_int_equal(b->ok[ev], a->ok[ev]);
		assert_dbl_equal(b->per_pkt[ev], a->per_pkt[ev]);
	}
	assert_int_equal(b->ipc_ok, a->ipc_ok);
	assert_dbl_equal(b->ipc, a->ipc);
}

/* @b, read back, holds every member of @a. */
static void rep_check(const struct xl_rep_result *b, const struct xl_rep_result *a)
{
	assert_int_equal(b->ns, a->ns);
	assert_int_equal(b->packets, a->packets);
	assert_int_equal(b->gen_sent, a->gen_sent);
	assert_int_equal(b->gen_xmit_errors, a->gen_xmit_errors);
	assert_int_equal(b->run_packets, a->run_packets);
	assert_int_equal(b->eth_packets, a->eth_ok ? a->eth_packets : 0);
	assert_dbl_equal(b->pps, a->pps);
	assert_dbl_equal(b->gen_pps, a->gen_pps);
	assert_dbl_equal(b->cpu_busy, a->cpu_busy);
	assert_dbl_equal(b->cpu_ns_per_pkt, a->cpu_ns_per_pkt);
	assert_dbl_equal(b->disagreement, a->disagreement);
	assert_dbl_equal(b->chain_ns_per_pkt, a->chain_ns_per_pkt);
	assert_int_equal(b->xmit_events, a->xmit_events);
	assert_int_equal(b->eth_ok, a->eth_ok);
	assert_null(b->cpu_source); /* the row's, not written per repetition */
	assert_int_equal(b->softirq_runs, a->softirq_runs);
	assert_int_equal(b->steal_ok, a->steal_ok);
	assert_int_equal(b->steal_high, a->steal_high);
	assert_int_equal(b->load_ok, a->load_ok);
	assert_dbl_equal(b->steal_share, a->steal_share);
	assert_dbl_equal(b->load, a->load);
	assert_dbl_equal(b->ctl_ns, a->ctl_ns);
	pmu_check(&b->pmu, &a->pmu);
}

/* The row: 3 repetitions, its figures as xl_row_finish() made them, set by hand. */
static void row_make(struct xl_row_result *r)
{
	int i, ev;

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "drop/no-touch");
	r->kind = "xdp";
	r->action = "XDP_DROP";
	r->op = "no-touch";
	r->mode = "native";
	r->wiring = "threaded";
	r->engine = "packet";
	r->judged = "dut-cpu";
	r->counter = "program:bench_stats";
	r->size = 64;
	r->napi_cpu = 1;
	r->gen_cpu = 0;
	snprintf(r->note, sizeof(r->note), "a note");
	r->nreps = 3;
	for (i = 0; i < r->nreps; i++)
		rep_make(&r->reps[i], i);
	r->mpps = (struct xl_summary){ .median = 0.734, .min = 0.733, .max = 0.735, .n = 3 };
	r->ns_per_pkt = 1362.5;
	r->cpu_busy = 0.53;
	r->cpu_ns_per_pkt = 698.25;
	r->gen_mpps = 0.741;
	r->disagreement = 0.0145;
	r->xmit_errors = 3 * BIG + 3003;
	r->ring_drop_share = 0.0043;
	r->extra = (struct xl_row_extra){ .on = true, .target_ns = 10, .ns_per_iter = 0.75,
					  .set_ns = 9.75, .check_ns = 9.5, .iters = 13 };
	r->cpu_source = "proc-stat";
	r->valid = true;
	r->mismatch = true;
	r->ctl = (struct xl_summary){ .median = 607.5, .min = 606.5, .max = 608.5, .n = 2 };
	r->rel_ns_per_pkt = 2.25;
	r->rel_cpu_ns_per_pkt = 1.125;
	r->nsteal_high = 1;
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		r->pmu.ok[ev] = ev != 2;
		r->pmu.per_pkt[ev] = r->pmu.ok[ev] ? 50.5 + ev : 0;
	}
	r->prog_ns = 26.5;
}

/* The row written as a results file and parsed: the document (the caller's). */
static json_t *row_doc(const struct xl_row_result *r)
{
	struct xl_report_meta meta = { .reps = 3, .seconds = 0.3, .warmup = 0.25,
				       .git = "abc", .lab_tag = "t", .ctl_ref_ns = 600 };
	char *buf = NULL;
	size_t len = 0;
	json_t *doc;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(xl_report_json_write(f, &meta, r, 1), 0);
	assert_int_equal(fclose(f), 0);
	doc = json_loads(buf, 0, NULL);
	free(buf);
	assert_non_null(doc);
	return doc;
}

static void test_row_round_trip(void **state)
{
	struct xl_row_result *r = calloc(1, sizeof(*r)), *b = calloc(1, sizeof(*b));
	json_t *doc, *o, *rep1;
	int i;

	(void)state;
	assert_non_null(r);
	assert_non_null(b);
	row_make(r);
	doc = row_doc(r);
	o = json_array_get(json_object_get(doc, "rows"), 0);
	assert_true(json_is_object(o));
	xl_fields_from_json(o, xl_row_fields, XL_ROW_F__COUNT, b);
	assert_string_equal(b->name, r->name);
	assert_string_equal(b->note, r->note);
	assert_int_equal(b->size, r->size);
	assert_int_equal(b->napi_cpu, r->napi_cpu);
	assert_int_equal(b->gen_cpu, r->gen_cpu);
	assert_int_equal(b->nreps, 3);
	for (i = 0; i < 3; i++)
		rep_check(&b->reps[i], &r->reps[i]);
	assert_dbl_equal(b->mpps.median, r->mpps.median);
	assert_dbl_equal(b->mpps.min, r->mpps.min);
	assert_dbl_equal(b->mpps.max, r->mpps.max);
	assert_dbl_equal(b->ns_per_pkt, r->ns_per_pkt);
	assert_dbl_equal(b->cpu_busy, r->cpu_busy);
	assert_dbl_equal(b->cpu_ns_per_pkt, r->cpu_ns_per_pkt);
	assert_dbl_equal(b->gen_mpps, r->gen_mpps);
	assert_dbl_equal(b->disagreement, r->disagreement);
	assert_int_equal(b->xmit_errors, r->xmit_errors);
	assert_dbl_equal(b->ring_drop_share, r->ring_drop_share);
	assert_true(b->extra.on);
	assert_dbl_equal(b->extra.target_ns, r->extra.target_ns);
	assert_dbl_equal(b->extra.ns_per_iter, r->extra.ns_per_iter);
	assert_dbl_equal(b->extra.set_ns, r->extra.set_ns);
	assert_dbl_equal(b->extra.check_ns, r->extra.check_ns);
	assert_int_equal(b->extra.iters, r->extra.iters);
	assert_int_equal(b->valid, r->valid);
	assert_int_equal(b->mismatch, r->mismatch);
	assert_dbl_equal(b->ctl.median, r->ctl.median);
	assert_dbl_equal(b->ctl.min, r->ctl.min);
	assert_dbl_equal(b->ctl.max, r->ctl.max);
	assert_dbl_equal(b->rel_ns_per_pkt, r->rel_ns_per_pkt);
	assert_dbl_equal(b->rel_cpu_ns_per_pkt, r->rel_cpu_ns_per_pkt);
	assert_int_equal(b->nsteal_high, r->nsteal_high);
	pmu_check(&b->pmu, &r->pmu);
	assert_dbl_equal(b->prog_ns, r->prog_ns);
	/* Written only: the names, the verdict, the computed figures per control. */
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_KIND), "xdp");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_ACTION), "XDP_DROP");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_OP), "no-touch");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_MODE), "native");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_WIRING), "threaded");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_ENGINE), "packet");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_JUDGED), "dut-cpu");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_COUNTER), "program:bench_stats");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_CPU_SOURCE), "proc-stat");
	assert_string_equal(xl_row_field_str(o, XL_ROW_F_VERDICT), "valid");
	assert_dbl_equal(xl_json_num(json_array_get(json_object_get(o, "reps"), 0),
				     "ns_per_pkt_per_ctl", 0),
			 1e9 / r->reps[0].pps / r->reps[0].ctl_ns);
	assert_dbl_equal(xl_json_num(json_array_get(json_object_get(o, "reps"), 2),
				     "cpu_ns_per_pkt_per_ctl", 0),
			 r->reps[2].cpu_ns_per_pkt / r->reps[2].ctl_ns);
	assert_dbl_equal(xl_json_num(o, "ns_per_pkt_corrected", 0), 2.25 * 600);
	/* The unknown ones of repetition 1: null, false or left out, as the file says. */
	rep1 = json_array_get(json_object_get(o, "reps"), 1);
	assert_true(json_is_null(json_object_get(rep1, "eth_packets")));
	assert_true(json_is_null(json_object_get(rep1, "xmit_events")));
	assert_true(json_is_null(json_object_get(rep1, "host_ctl_ns")));
	assert_true(json_is_null(json_object_get(rep1, "ns_per_pkt_per_ctl")));
	assert_true(json_is_null(json_object_get(rep1, "steal_share")));
	assert_true(json_is_false(json_object_get(rep1, "steal_high")));
	assert_true(json_is_null(json_object_get(rep1, "load")));
	assert_true(json_is_null(json_object_get(json_object_get(rep1, "pmu"), "ipc")));
	assert_null(json_object_get(rep1, "softirq_runs"));
	assert_int_equal(json_object_size(json_array_get(json_object_get(o, "reps"), 0)),
			 XL_REP_F__COUNT);
	json_decref(doc);
	free(b);
	free(r);
}

/* The schema's definition @s, its "$ref" followed. */
static json_t *resolve(json_t *schema, json_t *s)
{
	const char *ref = json_string_value(json_object_get(s, "$ref"));

	if (ref && !strncmp(ref, "#/definitions/", 14))
		return json_object_get(json_object_get(schema, "definitions"), ref + 14);
	return s;
}

/* Whether @v is of the schema's type name @t: a "number" is written as a real. */
static bool kind_ok(const char *t, const json_t *v)
{
	return (!strcmp(t, "integer") && json_is_integer(v)) ||
	       (!strcmp(t, "number") && json_is_real(v)) ||
	       (!strcmp(t, "boolean") && json_is_boolean(v)) ||
	       (!strcmp(t, "string") && json_is_string(v)) ||
	       (!strcmp(t, "null") && json_is_null(v)) ||
	       (!strcmp(t, "object") && json_is_object(v)) || (!strcmp(t, "array") && json_is_array(v));
}

/* Whether @v fits the schema @s by name and kind, its members and elements too. */
static bool fits(json_t *schema, json_t *s, json_t *v, const char *where)
{
	json_t *alt, *t, *e, *props;
	const char *key;
	bool ok = false;
	size_t i;

	s = resolve(schema, s);
	json_array_foreach(json_object_get(s, "oneOf"), i, alt)
		if (!ok && kind_ok(json_string_value(json_object_get(resolve(schema, alt), "type")),
				   v))
			return fits(schema, alt, v, where);
	json_array_foreach(json_object_get(s, "enum"), i, e)
		ok = ok || json_equal(e, v);
	t = json_object_get(s, "type");
	if (json_is_string(t))
		ok = kind_ok(json_string_value(t), v);
	json_array_foreach(t, i, e)
		ok = ok || kind_ok(json_string_value(e), v);
	if (!ok) {
		print_error("%s: not of the schema's kind\n", where);
		return false;
	}
	props = json_object_get(s, "properties");
	json_object_foreach(json_is_object(v) ? v : NULL, key, e) {
		if (!json_object_get(props, key)) {
			print_error("%s.%s: not in the schema\n", where, key);
			return false;
		}
		if (!fits(schema, json_object_get(props, key), e, key))
			return false;
	}
	json_array_foreach(json_is_array(v) ? v : NULL, i, e)
		if (!fits(schema, json_object_get(s, "items"), e, where))
			return false;
	return true;
}

/* Every member the schema's definition @def has is in @v. */
static void has_all(json_t *schema, const char *def, json_t *v)
{
	json_t *d = json_object_get(json_object_get(schema, "definitions"), def);
	const char *key;
	json_t *p;

	assert_non_null(d);
	json_object_foreach(json_object_get(d, "properties"), key, p)
		if (!json_object_get(v, key)) {
			print_error("%s: %s not written\n", def, key);
			fail();
		}
}

/*
 * The row's members by name and kind as docs/results.schema.json says,
 * and every member of a repetition, a summary and the hardware counts.
 */
static void test_row_fits_schema(void **state)
{
	struct xl_row_result *r = calloc(1, sizeof(*r));
	json_t *schema, *doc, *o, *rows;

	(void)state;
	assert_non_null(r);
	schema = json_load_file(SCHEMA_FILE, 0, NULL);
	assert_non_null(schema);
	row_make(r);
	doc = row_doc(r);
	rows = json_object_get(doc, "rows");
	o = json_array_get(rows, 0);
	assert_true(fits(schema, json_object_get(json_object_get(schema, "properties"), "rows"),
			 rows, "rows"));
	has_all(schema, "rep", json_array_get(json_object_get(o, "reps"), 0));
	has_all(schema, "summary", json_object_get(o, "mpps"));
	has_all(schema, "summary", json_object_get(o, "host_ctl"));
	has_all(schema, "pmu", json_object_get(o, "pmu"));
	json_decref(doc);
	json_decref(schema);
	free(r);
}

/* Compare's reader takes the repetitions' rates, CPU times and controls through the table. */
static void test_compare_reads_reps(void **state)
{
	struct xl_row_result *r = calloc(1, sizeof(*r));
	struct xl_cmp_file f;
	char err[256];
	json_t *doc;
	int i;

	(void)state;
	assert_non_null(r);
	row_make(r);
	doc = row_doc(r);
	assert_int_equal(xl_cmp_from_doc("row", doc, &f, err, sizeof(err)), 0);
	assert_int_equal(f.nrows, 1);
	assert_int_equal(f.rows[0].nreps, 3);
	for (i = 0; i < 3; i++) {
		assert_dbl_equal(f.rows[0].pps[i], r->reps[i].pps);
		assert_dbl_equal(f.rows[0].cpu_ns[i], r->reps[i].cpu_ns_per_pkt);
		assert_dbl_equal(f.rows[0].ctl_ns[i], r->reps[i].ctl_ns);
	}
	assert_dbl_equal(f.rows[0].prog_ns, 26.5);
	xl_cmp_file_free(&f);
	json_decref(doc);
	free(r);
}

/* A row without repetitions: its figures left out, its summaries null, not valid. */
static void test_row_without_reps(void **state)
{
	struct xl_row_result *r = calloc(1, sizeof(*r)), *b = calloc(1, sizeof(*b));
	json_t *doc, *o;

	(void)state;
	assert_non_null(r);
	assert_non_null(b);
	row_make(r);
	r->nreps = 0;
	r->ctl.n = 0;
	r->extra.on = false;
	doc = row_doc(r);
	o = json_array_get(json_object_get(doc, "rows"), 0);
	assert_null(json_object_get(o, "ns_per_pkt"));
	assert_null(json_object_get(o, "extra_ns"));
	assert_true(json_is_null(json_object_get(o, "mpps")));
	assert_true(json_is_null(json_object_get(o, "host_ctl")));
	assert_true(json_is_false(json_object_get(o, "valid")));
	assert_int_equal(json_array_size(json_object_get(o, "reps")), 0);
	b->extra.on = true;
	b->nreps = 7;
	xl_fields_from_json(o, xl_row_fields, XL_ROW_F__COUNT, b);
	assert_int_equal(b->nreps, 0);
	assert_false(b->extra.on);
	assert_false(b->valid);
	assert_dbl_equal(b->mpps.median, 0);
	json_decref(doc);
	free(b);
	free(r);
}

/* A row with repetitions but no host-speed control: its control figures null. */
static void test_row_without_control(void **state)
{
	struct xl_row_result *r = calloc(1, sizeof(*r));
	json_t *doc, *o;

	(void)state;
	assert_non_null(r);
	row_make(r);
	r->ctl = (struct xl_summary){ 0 };
	r->rel_ns_per_pkt = r->rel_cpu_ns_per_pkt = 0;
	doc = row_doc(r);
	o = json_array_get(json_object_get(doc, "rows"), 0);
	assert_true(json_is_object(json_object_get(o, "mpps")));
	assert_true(json_is_null(json_object_get(o, "host_ctl")));
	assert_true(json_is_null(json_object_get(o, "ns_per_pkt_per_ctl")));
	assert_true(json_is_null(json_object_get(o, "cpu_ns_per_pkt_per_ctl")));
	assert_true(json_is_null(json_object_get(o, "ns_per_pkt_corrected")));
	json_decref(doc);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_round_trip),
		cmocka_unit_test(test_compare_reads_reps),
		cmocka_unit_test(test_row_fits_schema),
		cmocka_unit_test(test_row_without_reps),
		cmocka_unit_test(test_row_without_control),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
