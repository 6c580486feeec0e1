// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_monitor.c - unit tests of the monitor's and the redirect module's
 * pure helpers: errno and action names, key ordering, aggregation of
 * per-CPU values into rows, interval deltas, and CPU list parsing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "xdplab/monitor.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/redirect.h"

static void test_errno_names(void **state)
{
	assert_string_equal(xl_errno_name(ENETDOWN), "ENETDOWN");
	assert_string_equal(xl_errno_name(-ENETDOWN), "ENETDOWN");
	assert_string_equal(xl_errno_name(EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(xl_errno_name(EINVAL), "EINVAL");
	assert_string_equal(xl_errno_name(ENXIO), "ENXIO");
	assert_string_equal(xl_errno_name(ENOMEM), "ENOMEM");
	assert_string_equal(xl_errno_name(524), "ENOTSUPP");
	assert_string_equal(xl_errno_name(0), "-");
	assert_string_equal(xl_errno_name(4000), "E4000");
}

static void test_action_names(void **state)
{
	char buf[24];

	assert_string_equal(xl_mon_action_name(0, buf, sizeof(buf)), "ABORTED");
	assert_string_equal(xl_mon_action_name(4, buf, sizeof(buf)), "REDIRECT");
	assert_string_equal(xl_mon_action_name(XL_MON_ACT_NONE, buf, sizeof(buf)), "-");
	assert_string_equal(xl_mon_action_name(7, buf, sizeof(buf)), "INVALID(7)");
	assert_string_equal(xl_mon_event_name(XL_EV_REDIRECT_ERR), "xdp_redirect_err");
	assert_string_equal(xl_mon_event_name(XL_EV_DEVMAP_XMIT), "xdp_devmap_xmit");
	assert_string_equal(xl_mon_event_name(99), "?");
}

static void test_key_order(void **state)
{
	struct xl_mon_key a = { XL_EV_EXCEPTION, 0, 5, 0 }, b = a;

	assert_int_equal(xl_mon_key_cmp(&a, &b), 0);
	b.err = 1;
	assert_true(xl_mon_key_cmp(&a, &b) < 0);
	b = a;
	b.ifindex = -1;
	assert_true(xl_mon_key_cmp(&a, &b) > 0);
	b = a;
	b.event = XL_EV_REDIRECT_ERR;
	b.ifindex = 1;
	assert_true(xl_mon_key_cmp(&a, &b) < 0);
}

static void test_aggregate(void **state)
{
	static struct xl_mon_snapshot s;
	struct xl_mon_key k1 = { XL_EV_REDIRECT_ERR, 4, 3, ENETDOWN };
	struct xl_mon_key k2 = { XL_EV_EXCEPTION, 7, 2, 0 };
	struct xl_mon_val cpu0 = { 10, 10, 10 }, cpu1 = { 5, 5, 5 }, bulk = { 2, 16, 3 };
	const struct xl_mon_row *r;

	s.n = 0;
	assert_int_equal(xl_mon_add(&s, &k1, &cpu0), 0);
	assert_int_equal(xl_mon_add(&s, &k2, &bulk), 0);
	assert_int_equal(xl_mon_add(&s, &k1, &cpu1), 0);
	assert_int_equal(s.n, 2);
	r = xl_mon_find(&s, &k1);
	assert_non_null(r);
	assert_int_equal(r->val.events, 15);
	assert_int_equal(r->val.packets, 15);
	assert_int_equal(r->val.drops, 15);
	xl_mon_sort(&s);
	assert_int_equal(s.rows[0].key.event, XL_EV_EXCEPTION);
	assert_int_equal(s.rows[1].key.event, XL_EV_REDIRECT_ERR);
	assert_int_equal(s.rows[0].val.packets, 16);
}

static void test_full(void **state)
{
	static struct xl_mon_snapshot s;
	struct xl_mon_val one = { 1, 1, 0 };
	struct xl_mon_key k = { XL_EV_DEVMAP_XMIT, 4, 0, 0 };
	int i;

	s.n = 0;
	for (i = 0; i < XL_MON_MAX_KEYS; i++) {
		k.ifindex = i;
		assert_int_equal(xl_mon_add(&s, &k, &one), 0);
	}
	k.ifindex = XL_MON_MAX_KEYS;
	assert_int_equal(xl_mon_add(&s, &k, &one), -ENOSPC);
	k.ifindex = 7; /* an existing key still adds */
	assert_int_equal(xl_mon_add(&s, &k, &one), 0);
	assert_int_equal(xl_mon_find(&s, &k)->val.events, 2);
}

static void test_delta(void **state)
{
	static struct xl_mon_snapshot prev, cur;
	struct xl_mon_key k1 = { XL_EV_REDIRECT_ERR, 4, 3, ENETDOWN };
	struct xl_mon_key k2 = { XL_EV_EXCEPTION, 7, 2, 0 };
	struct xl_mon_val v = { 100, 100, 100 }, w = { 130, 140, 150 }, d;

	prev.n = cur.n = 0;
	xl_mon_add(&prev, &k1, &v);
	xl_mon_add(&cur, &k1, &w);
	xl_mon_add(&cur, &k2, &v);
	xl_mon_delta(&prev, xl_mon_find(&cur, &k1), &d);
	assert_int_equal(d.events, 30);
	assert_int_equal(d.packets, 40);
	assert_int_equal(d.drops, 50);
	xl_mon_delta(&prev, xl_mon_find(&cur, &k2), &d); /* new key: all of it */
	assert_int_equal(d.events, 100);
	xl_mon_delta(NULL, xl_mon_find(&cur, &k1), &d);
	assert_int_equal(d.events, 130);
}

static void test_cpulist(void **state)
{
	assert_int_equal(xl_cpulist_has("0-3,8,10-11\n", 0), 1);
	assert_int_equal(xl_cpulist_has("0-3,8,10-11\n", 3), 1);
	assert_int_equal(xl_cpulist_has("0-3,8,10-11\n", 4), 0);
	assert_int_equal(xl_cpulist_has("0-3,8,10-11\n", 8), 1);
	assert_int_equal(xl_cpulist_has("0-3,8,10-11\n", 11), 1);
	assert_int_equal(xl_cpulist_has("0-3,8,10-11\n", 12), 0);
	assert_int_equal(xl_cpulist_has("0", 0), 1);
	assert_int_equal(xl_cpulist_has("1", 0), 0);
	assert_int_equal(xl_cpulist_has("", 0), 0);
	assert_int_equal(xl_cpulist_has("0-", 0), -EINVAL);
	assert_int_equal(xl_cpulist_has("3-1", 2), -EINVAL);
	assert_int_equal(xl_cpulist_has("a", 0), -EINVAL);
	assert_int_equal(xl_cpulist_has("0;1", 1), -EINVAL);
}

static void test_cpu_action_names(void **state)
{
	assert_string_equal(xl_cpu_action_name(XL_CPU_ACT_DROP), "drop");
	assert_string_equal(xl_cpu_action_name(XL_CPU_ACT_PASS), "pass");
	assert_string_equal(xl_cpu_action_name(XL_CPU_ACT_REDIRECT), "redirect");
	assert_string_equal(xl_cpu_action_name(XL_CPU_ACT__COUNT), "?");
}

/* Rows with paired repetitions: cost is the median of per-pair differences. */
static void test_watch_cost(void **state)
{
	static struct xl_row_result without, with;
	static const double a[5] = { 10e6, 5e6, 10e6, 8e6, 4e6 };  /* pps */
	static const double b[5] = { 8e6, 5e6, 5e6, 8e6, 2e6 };    /* pps */
	int i;

	memset(&without, 0, sizeof(without));
	memset(&with, 0, sizeof(with));
	for (i = 0; i < 5; i++) {
		without.reps[i].pps = a[i];
		with.reps[i].pps = b[i];
		without.reps[i].cpu_ns_per_pkt = 100;
		with.reps[i].cpu_ns_per_pkt = 100 + i;
	}
	without.nreps = with.nreps = 5;
	xl_row_finish(&without);
	xl_row_finish(&with);
	/* differences in ns: 25, 0, 100, 0, 250 -> median 25 */
	assert_true(xl_watch_cost_ns(&without, &with) > 24.999 &&
		    xl_watch_cost_ns(&without, &with) < 25.001);
	/* CPU ns differences 0..4 -> median 2 */
	assert_true(xl_watch_cpu_cost_ns(&without, &with) > 1.999 &&
		    xl_watch_cpu_cost_ns(&without, &with) < 2.001);
	xl_watch_note(&without, &with);
	assert_non_null(strstr(with.note, "monitor +25.0 ns/packet, +2.0 CPU ns/packet"));
	/* unpaired (different repetition counts): from the rows' medians */
	with.nreps = 4;
	xl_row_finish(&with);
	assert_true(xl_watch_cost_ns(&without, &with) > 0);
	/* no figure: 0 and no note */
	without.nreps = 0;
	assert_true(xl_watch_cost_ns(&without, &with) == 0);
}

/* Chain CPU time wins over the judged CPU's when every pair has it. */
static void test_watch_cpu_cost_chain(void **state)
{
	static struct xl_row_result without, with;
	int i;

	memset(&without, 0, sizeof(without));
	memset(&with, 0, sizeof(with));
	for (i = 0; i < 3; i++) {
		without.reps[i] = (struct xl_rep_result){ .pps = 1e6, .cpu_ns_per_pkt = 100,
							  .chain_ns_per_pkt = 150 };
		with.reps[i] = (struct xl_rep_result){ .pps = 1e6, .cpu_ns_per_pkt = 130,
						       .chain_ns_per_pkt = 150 + 2 * i };
	}
	without.nreps = with.nreps = 3;
	/* chain differences 0, 2, 4 -> 2 (the judged CPU's would say 30) */
	assert_true(xl_watch_cpu_cost_ns(&without, &with) > 1.999 &&
		    xl_watch_cpu_cost_ns(&without, &with) < 2.001);
	/* one pair without the chain figure: all from the judged CPU */
	with.reps[1].chain_ns_per_pkt = 0;
	assert_true(xl_watch_cpu_cost_ns(&without, &with) > 29.999 &&
		    xl_watch_cpu_cost_ns(&without, &with) < 30.001);
}

/*
 * The estimate: per-event cost from the batch-1 pair (rows 3-4) over the
 * events counted in row 5, times the events per packet counted in row 2.
 */
static void test_watch_estimate(void **state)
{
	static struct xl_row_result rows[6];
	static const double chain[6] = { 100, 103, 160, 400, 460, 700 }; /* ns */
	struct xl_watch_est est;
	int r, i;

	memset(rows, 0, sizeof(rows));
	for (r = 0; r < 6; r++) {
		for (i = 0; i < 3; i++)
			rows[r].reps[i] = (struct xl_rep_result){
				.pps = 1e9 / chain[r], .packets = 1600000,
				.chain_ns_per_pkt = chain[r], .xmit_events = -1 };
		rows[r].nreps = 3;
	}
	/* --all windows: 1/8 event per packet (2 hops, bulks of 16); 2 at batch 1 */
	for (i = 0; i < 3; i++) {
		rows[2].reps[i].xmit_events = 200000;
		rows[5].reps[i].xmit_events = 3200000;
	}
	for (r = 0; r < 6; r++)
		xl_row_finish(&rows[r]);
	assert_int_equal(xl_watch_estimate(rows, &est), 0);
	assert_true(est.valid);
	assert_true(est.cpu_cost_ns > 2.999 && est.cpu_cost_ns < 3.001);
	assert_true(est.cost_ns > 2.999 && est.cost_ns < 3.001);
	assert_true(est.events_per_pkt > 0.12499 && est.events_per_pkt < 0.12501);
	assert_true(est.b1_cpu_cost_ns > 59.999 && est.b1_cpu_cost_ns < 60.001);
	assert_true(est.b1_events_per_pkt > 1.9999 && est.b1_events_per_pkt < 2.0001);
	assert_true(est.per_event_ns > 29.999 && est.per_event_ns < 30.001);
	assert_true(est.estimate_ns > 3.7499 && est.estimate_ns < 3.7501);
	assert_false(est.estimate_ci); /* 3 pairs: no 95% interval */
	assert_false(est.cpu_cost_ci);
	assert_true(xl_watch_events_per_pkt(&rows[0]) < 0);
	/* nothing counted at batch 1: no estimate, the measured part stays */
	for (i = 0; i < 3; i++)
		rows[5].reps[i].xmit_events = -1;
	assert_int_equal(xl_watch_estimate(rows, &est), -ENODATA);
	assert_false(est.valid);
	assert_true(est.cpu_cost_ns > 2.999 && est.cpu_cost_ns < 3.001);
}

/* Nine pairs: the intervals are the 2nd and 8th of the sorted differences. */
static void test_watch_estimate_ci(void **state)
{
	static struct xl_row_result rows[6];
	struct xl_watch_est est;
	int r, i;

	memset(rows, 0, sizeof(rows));
	for (r = 0; r < 6; r++) {
		for (i = 0; i < 9; i++)
			rows[r].reps[i] = (struct xl_rep_result){
				.pps = 1e6, .packets = 1600000, .xmit_events = -1,
				.chain_ns_per_pkt = 100 + (r == 1 ? i + 1 : 0) +
						    (r == 4 ? 20 * (9 - i) : 0) };
		rows[r].nreps = 9;
	}
	for (i = 0; i < 9; i++) {
		rows[2].reps[i].xmit_events = 200000;  /* 0.125 per packet */
		rows[5].reps[i].xmit_events = 3200000; /* 2 per packet */
	}
	for (r = 0; r < 6; r++)
		xl_row_finish(&rows[r]);
	assert_int_equal(xl_watch_estimate(rows, &est), 0);
	/* direct: differences 1..9 -> median 5, CI 2..8 */
	assert_true(est.cpu_cost_ci);
	assert_true(est.cpu_cost_lo == 2 && est.cpu_cost_hi == 8);
	/* batch 1: differences 20..180 -> median 100, CI 40..160; / 2 events */
	assert_true(est.estimate_ci);
	assert_true(est.per_event_ns == 50 && est.per_event_lo == 20 && est.per_event_hi == 80);
	assert_true(est.estimate_lo == 2.5 && est.estimate_hi == 10);
}

/*
 * Per hop, two ways: at the bulks measured and at full bulks of 16. Full
 * bulks (0.125 events/packet on 2 hops) give the same figure both ways;
 * bulks of 4 frames (a loaded run: 0.5 events/packet) raise the first
 * fourfold and leave the second where it was.
 */
static void test_watch_per_hop(void **state)
{
	struct xl_watch_est est = {
		.valid = true, .estimate_ci = true, .events_per_pkt = 0.125,
		.per_event_ns = 48, .per_event_lo = 16, .per_event_hi = 80,
		.estimate_ns = 6, .estimate_lo = 2, .estimate_hi = 10 };

	assert_int_equal(xl_watch_per_hop(&est, 2), 0);
	assert_int_equal(est.hops, 2);
	assert_true(est.bulk_frames == 16);
	assert_true(est.hop_ns == 3 && est.hop_lo == 1 && est.hop_hi == 5);
	assert_true(est.full_hop_ns == 3 && est.full_hop_lo == 1 && est.full_hop_hi == 5);

	est.events_per_pkt = 0.5;
	est.estimate_ns = 24; /* 48 x 0.5 */
	est.estimate_lo = 8;
	est.estimate_hi = 40;
	assert_int_equal(xl_watch_per_hop(&est, 2), 0);
	assert_true(est.bulk_frames == 4);
	assert_true(est.hop_ns == 12 && est.hop_lo == 4 && est.hop_hi == 20);
	assert_true(est.full_hop_ns == 3 && est.full_hop_lo == 1 && est.full_hop_hi == 5);

	/* without an interval the bounds stay as they were */
	est.estimate_ci = false;
	est.hop_lo = est.full_hop_lo = -1;
	assert_int_equal(xl_watch_per_hop(&est, 1), 0);
	assert_true(est.bulk_frames == 2 && est.hop_ns == 24 && est.full_hop_ns == 3);
	assert_true(est.hop_lo == -1 && est.full_hop_lo == -1);

	assert_int_equal(xl_watch_per_hop(&est, 0), -EINVAL);
	est.events_per_pkt = 0;
	assert_int_equal(xl_watch_per_hop(&est, 2), -ENODATA);
	est.valid = false;
	assert_int_equal(xl_watch_per_hop(&est, 2), -EINVAL);
}

/*
 * The floor split, from three batch-1 rows of nine paired repetitions:
 * floor - none = 4, 8 .. 36 (median 20, CI 8..32: the 2nd and 8th),
 * errors - floor = 18, 16 .. 2 (median 10, CI 4..16), over 2 events per
 * packet: floor 10 (4..16) and own 5 (2..8) ns per event; / 16 per hop.
 */
static void test_watch_floor(void **state)
{
	static struct xl_row_result none, err, floor;
	struct xl_watch_est est = { .valid = true, .b1_events_per_pkt = 2 };
	int i;

	memset(&none, 0, sizeof(none));
	memset(&err, 0, sizeof(err));
	memset(&floor, 0, sizeof(floor));
	for (i = 0; i < 9; i++) {
		none.reps[i] = (struct xl_rep_result){ .pps = 1e6, .chain_ns_per_pkt = 100,
						       .cpu_ns_per_pkt = 50 };
		floor.reps[i] = none.reps[i];
		floor.reps[i].chain_ns_per_pkt = 100 + 4 * (i + 1);
		floor.reps[i].cpu_ns_per_pkt = 60;
		err.reps[i] = none.reps[i];
		err.reps[i].chain_ns_per_pkt = floor.reps[i].chain_ns_per_pkt + 2 * (9 - i);
		err.reps[i].cpu_ns_per_pkt = 90;
	}
	none.nreps = err.nreps = floor.nreps = 9;
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), 0);
	assert_true(est.floor_valid && est.floor_ci);
	assert_true(est.floor_ns == 10 && est.floor_lo == 4 && est.floor_hi == 16);
	assert_true(est.own_ns == 5 && est.own_lo == 2 && est.own_hi == 8);
	assert_true(est.floor_hop_ns == 0.625 && est.floor_hop_lo == 0.25 && est.floor_hop_hi == 1);
	assert_true(est.own_hop_ns == 0.3125 && est.own_hop_lo == 0.125 && est.own_hop_hi == 0.5);

	/* the floor row lacks the chain's figure once: all three rows use the judged CPU's */
	floor.reps[0].chain_ns_per_pkt = 0;
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), 0);
	assert_true(est.floor_ns == 5 && est.own_ns == 15);
	assert_true(est.floor_lo == 5 && est.floor_hi == 5 && est.own_lo == 15 && est.own_hi == 15);

	/* three pairs: the medians, no interval (bounds untouched) */
	memset(&est, 0, sizeof(est));
	est.valid = true;
	est.b1_events_per_pkt = 2;
	est.floor_lo = -1;
	none.nreps = err.nreps = floor.nreps = 3;
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), 0);
	assert_true(est.floor_valid && !est.floor_ci);
	assert_true(est.floor_ns == 5 && est.own_ns == 15 && est.floor_lo == -1);

	/* not paired, nothing counted, or no estimate: nothing */
	est.floor_valid = false;
	floor.nreps = 2;
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), -ENODATA);
	floor.nreps = 3;
	err.nreps = 2; /* errors - floor not paired */
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), -ENODATA);
	err.nreps = 3;
	est.b1_events_per_pkt = 0;
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), -ENODATA);
	est.b1_events_per_pkt = 2;
	est.valid = false;
	assert_int_equal(xl_watch_floor(&none, &err, &floor, &est), -EINVAL);
	assert_false(est.floor_valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_action_names),
		cmocka_unit_test(test_key_order),
		cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_cpu_action_names),
		cmocka_unit_test(test_watch_cost),
		cmocka_unit_test(test_watch_cpu_cost_chain),
		cmocka_unit_test(test_watch_estimate),
		cmocka_unit_test(test_watch_estimate_ci),
		cmocka_unit_test(test_watch_per_hop),
		cmocka_unit_test(test_watch_floor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
