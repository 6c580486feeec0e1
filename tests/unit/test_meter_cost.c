// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_meter_cost.c - the meter-cost row's arithmetic and record on fixed
 * inputs: the paired medians of the DUT's and the chain's CPU ns/packet,
 * hook minus none, with their 95% intervals (xl_watch_dut_cost_ns(),
 * xl_watch_cpu_cost_ns(), src/lib/measure/watch_cost.c), and the
 * "meter_cost" JSON member's exact keys and values (xl_row_part_meter,
 * src/lib/measure/rowparts.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <jansson.h>

#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/watch_cost.h"

#include "test_util.h"

/* Hook minus none per repetition: sorted -3 -1 0 1 2 3 4 5 8, median 2, x(2)..x(8) -1..5. */
static const double diffs[9] = { 5, -3, 1, 0, 2, 8, -1, 4, 3 };

/* @n repetitions: DUT 100 + i (none) and + diffs[i] (hook); the chain 300 and + 2 x diffs[i]. */
static void pair_rows(struct xl_row_result *none, struct xl_row_result *hook, int n)
{
	int i;

	memset(none, 0, sizeof(*none));
	memset(hook, 0, sizeof(*hook));
	for (i = 0; i < n; i++) {
		none->reps[i].cpu_ns_per_pkt = 100 + i;
		hook->reps[i].cpu_ns_per_pkt = 100 + i + diffs[i];
		none->reps[i].chain_ns_per_pkt = 300;
		hook->reps[i].chain_ns_per_pkt = 300 + 2 * diffs[i];
	}
	none->nreps = hook->nreps = n;
}

static void test_paired_costs(void **state)
{
	static struct xl_row_result none, hook;
	double lo = 0, hi = 0;
	bool ci = false;

	(void)state;
	pair_rows(&none, &hook, 9);
	assert_dbl_equal(xl_watch_dut_cost_ns(&none, &hook, &ci, &lo, &hi), 2);
	assert_true(ci);
	assert_dbl_equal(lo, -1);
	assert_dbl_equal(hi, 5);
	assert_dbl_equal(xl_watch_cpu_cost_ns(&none, &hook), 4);
	assert_int_equal(xl_watch_cpu_cost_ci(&none, &hook, &lo, &hi), 0);
	assert_dbl_equal(lo, -2);
	assert_dbl_equal(hi, 10);
	/* Five pairs: a median (5 -3 1 0 2: 1), no interval. */
	pair_rows(&none, &hook, 5);
	assert_dbl_equal(xl_watch_dut_cost_ns(&none, &hook, &ci, &lo, &hi), 1);
	assert_false(ci);
	/* Not paired (a repetition more on one side): 0, no interval. */
	hook.nreps = 6;
	assert_dbl_equal(xl_watch_dut_cost_ns(&none, &hook, &ci, NULL, NULL), 0);
	assert_false(ci);
}

/* Its JSON: exactly these members; a missing interval and frames per run are null. */
static void test_meter_json(void **state)
{
	struct xl_meter_cost c = {
		.valid = true, .meter_uses_hook = true, .chain_ci = true, .dut_ci = false,
		.hook = XL_CPU_SRC_TRACEPOINT, .meter_source = XL_CPU_SRC_TRACEPOINT,
		.dut_source = XL_CPU_SRC_PROCSTAT, .pairs = 9, .slices = 6,
		.chain_ns = 4, .chain_lo = -2, .chain_hi = 10, .dut_ns = 2,
		.net_rx_runs = 12345, .frames_per_run = 2.5,
	};
	const char *keys[] = { "chain_ns_per_pkt", "chain_ns_per_pkt_ci", "cpu_ns_per_pkt",
			       "cpu_ns_per_pkt_ci", "cpu_source", "frames_per_run", "hook",
			       "meter_source", "meter_uses_hook", "net_rx_runs", "pairs",
			       "slices" };
	json_t *o;
	size_t i;

	(void)state;
	assert_string_equal(xl_row_part_meter.key, "meter_cost");
	o = xl_row_part_meter.json(&c);
	assert_non_null(o);
	assert_int_equal(json_object_size(o), sizeof(keys) / sizeof(keys[0]));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_non_null(json_object_get(o, keys[i]));
	assert_string_equal(json_string_value(json_object_get(o, "hook")), "softirq-tracepoint");
	assert_string_equal(json_string_value(json_object_get(o, "meter_source")),
			    "softirq-tracepoint");
	assert_string_equal(json_string_value(json_object_get(o, "cpu_source")), "proc-stat");
	assert_true(json_is_true(json_object_get(o, "meter_uses_hook")));
	assert_int_equal(json_integer_value(json_object_get(o, "pairs")), 9);
	assert_int_equal(json_integer_value(json_object_get(o, "slices")), 6);
	assert_int_equal(json_integer_value(json_object_get(o, "net_rx_runs")), 12345);
	assert_dbl_equal(json_real_value(json_object_get(o, "frames_per_run")), 2.5);
	assert_dbl_equal(json_real_value(json_object_get(o, "chain_ns_per_pkt")), 4);
	assert_dbl_equal(json_real_value(json_array_get(json_object_get(o, "chain_ns_per_pkt_ci"), 0)), -2);
	assert_dbl_equal(json_real_value(json_array_get(json_object_get(o, "chain_ns_per_pkt_ci"), 1)), 10);
	assert_dbl_equal(json_real_value(json_object_get(o, "cpu_ns_per_pkt")), 2);
	assert_true(json_is_null(json_object_get(o, "cpu_ns_per_pkt_ci")));
	json_decref(o);
	/* Threaded wiring: no frames per run; a record never set writes nothing. */
	c.frames_per_run = -1;
	o = xl_row_part_meter.json(&c);
	assert_true(json_is_null(json_object_get(o, "frames_per_run")));
	json_decref(o);
	c.valid = false;
	assert_null(xl_row_part_meter.json(&c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired_costs),
		cmocka_unit_test(test_meter_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
