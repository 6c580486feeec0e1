// SPDX-License-Identifier: BSD-2-Clause
/*
 * The lines the single commands and lab run print, now the library's and
 * written to a FILE * (xdplab/reportloop.h, latwatch.h, labplan.h,
 * labrun_ndr.h, calib.h): exact text of fixed records, and the interval
 * records' growing array.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "xdplab/labplan.h"
#include "xdplab/labrun_ndr.h"
#include "xdplab/latwatch.h"
#include "xdplab/reportloop.h"

/* What @print writes for one case, compared whole. */
#define assert_out(want, call)                                                                  \
	do {                                                                                    \
		struct memout m_;                                                               \
		FILE *out = mem_start(&m_);                                                     \
		char *got_;                                                                     \
		call;                                                                           \
		got_ = mem_end(&m_);                                                            \
		assert_string_equal(got_, want);                                                \
		free(got_);                                                                     \
	} while (0)

static void test_cpu_cell(void **state)
{
	struct xl_meter_window w = { .napi_cpu = -1, .packets = 10 };
	char buf[64];

	xl_window_cpu_cell(buf, sizeof(buf), &w);
	assert_string_equal(buf, "cpu - busy -  cpu-ns/packet -");
	w.napi_cpu = 1;
	w.packets = 0;
	xl_window_cpu_cell(buf, sizeof(buf), &w);
	assert_string_equal(buf, "cpu - busy -  cpu-ns/packet -");
	w.packets = 10;
	w.cpu_busy = 0.5;
	w.cpu_ns_per_pkt = 12.34;
	xl_window_cpu_cell(buf, sizeof(buf), &w);
	assert_string_equal(buf, "cpu1 busy 50.0%  cpu-ns/packet 12.3");
}

static void test_check_line(void **state)
{
	struct xl_meter_window w = { .eth_packets = 1000, .disagreement = 0.001 };

	assert_out("", xl_window_print_check(out, &w, 4));
	w.eth_ok = true;
	assert_out("check: kernel rx_queue_0..3_xdp_packets 1000 (disagreement 0.100%)\n",
		   xl_window_print_check(out, &w, 4));
	assert_out("check: kernel rx_queue_0_xdp_packets 1000 (disagreement 0.100%)\n",
		   xl_window_print_check(out, &w, 1));
}

static void test_row_single(void **state)
{
	static struct xl_row_result row;

	xl_row_init_single(&row, "drop", "no-touch", "xdp", "XDP_DROP", "no-touch", "native",
			   "softirq");
	assert_string_equal(row.name, "drop/no-touch");
	assert_string_equal(row.engine, "external");
	assert_string_equal(row.judged, "dut-cpu");
	assert_int_equal(row.gen_cpu, -1);
	assert_int_equal(row.napi_cpu, -1);
	assert_out("verdict: n/a (no complete window)\n", xl_row_print_verdict(out, &row));
	xl_row_init_single(&row, "run", NULL, "xdp", "user program", NULL, "native", NULL);
	assert_string_equal(row.name, "run");
}

static void test_interval_recs(void **state)
{
	struct xl_interval_recs rec = { 0 };
	struct xl_rep_result r = { 0 };
	int i;

	for (i = 0; i < 100; i++)
		xl_interval_recs_add(&rec, i * 0.5, i / 10, &r);
	assert_int_equal(rec.n, 100);
	assert_true(rec.cap >= 100);
	assert_dbl_equal(rec.v[99].t, 49.5);
	assert_int_equal(rec.v[99].rep, 9);
	assert_int_equal(rec.v[0].rep, 0);
	free(rec.v);
}

static void test_counts_line(void **state)
{
	static struct xl_bench_rec a, b;

	b.rx_packets = 10;
	b.actions[0] = 1; /* XDP_ABORTED */
	b.actions[1] = 2; /* XDP_DROP */
	b.actions[2] = 3; /* XDP_PASS */
	b.actions[4] = 4; /* XDP_REDIRECT */
	assert_out("count fexit: 10 packets; XDP_ABORTED 1 XDP_DROP 2 XDP_PASS 3 XDP_TX 0 XDP_REDIRECT 4\n",
		   xl_bench_rec_print_counts(out, "count fexit", &a, &b, true));
	assert_out("count ethtool: 10 packets; XDP_DROP 2 XDP_PASS 3 XDP_TX 0 XDP_REDIRECT 4 (XDP_ABORTED counted in XDP_DROP)\n",
		   xl_bench_rec_print_counts(out, "count ethtool", &a, &b, false));
}

static void test_action_line(void **state)
{
	struct xl_meter_window w = { .napi_cpu = -1, .pps = 1234567, .err_pps = 0,
				     .ns_per_pkt = 810.0 };

	assert_out("   1.000 s  DROP     rx/s    1,234,567  err/s 0  ns/packet 810.0  cpu - busy -  cpu-ns/packet -\n",
		   xl_window_print_action_line(out, &w, 1.0, 1 /* XDP_DROP */));
}

static void test_extra_line(void **state)
{
	struct xl_extra_cal cal = { .target_ns = 10, .iters = 40, .ns_per_iter = 0.25,
				    .ns_per_iter_min = 0.24, .ns_per_iter_max = 0.26, .set_ns = 10,
				    .check_ns = 9.333, .base_ns = 30, .steps = 2 };

	assert_out("xdplab: --extra-ns 10: 40 busy-loop iterations, BPF_PROG_RUN check +9.3 ns per packet over the program's 30 ns (2 checks; a long loop's slope 0.250 ns each, rounds 0.240..0.260: 10.0 ns)\n",
		   xl_extra_cal_print(out, &cal));
	cal.steps = 1;
	assert_out("xdplab: --extra-ns 10: 40 busy-loop iterations, BPF_PROG_RUN check +9.3 ns per packet over the program's 30 ns (1 check; a long loop's slope 0.250 ns each, rounds 0.240..0.260: 10.0 ns)\n",
		   xl_extra_cal_print(out, &cal));
}

/* lab run's header names what the drop rows' note gives (set_extra(), labrun_xdp.c). */
static void test_header_extra(void **state)
{
	struct xl_labrun_opts o = { .extra = true, .extra_ns = 10 };
	struct xl_labplan p = { .o = &o };
	char h[512] = "rows";

	xl_labplan_header_extra(&p, h, sizeof(h));
	assert_string_equal(h, "rows;\ndrop rows with --extra-ns 10: a busy loop of that many CPU ns per packet, calibrated with BPF_PROG_RUN (the note gives the iterations and what they add by the BPF_PROG_RUN check)");
}

static void test_lat_totals(void **state)
{
	static struct xl_lat_totals t;

	t.frames = 5;
	assert_out("totals: 5 frames, 0 stamped, 5 without a stamp in 2.000 s\n"
		   "latency: no stamped frame (send with 'xdplab gen --stamp')\n",
		   xl_lat_totals_print(out, &t, 2));
	t.stamped = 5;
	t.unset = 5;
	t.seq_first = 1;
	t.seq_last = 5;
	t.expected = 5;
	assert_out("totals: 5 frames, 5 stamped, 0 without a stamp in 1.000 s\n"
		   "latency: no stamp of this clock to time\n"
		   "note: 5 stamps of time 0 (unset), not in the percentiles\n"
		   "sequence: first 1 last 5, expected 5, lost 0, reordered 0, duplicates 0\n",
		   xl_lat_totals_print(out, &t, 1));
}

static void test_lat_rows_empty(void **state)
{
	assert_out("", xl_lat_rows_print(out, NULL, 0, 5));
}

static void test_ndr_rows_table(void **state)
{
	static struct xl_ndr_row r;
	struct xl_ndr_row_opts no = { .search = { .ndr_loss = 0, .pdr_loss = 0.001 },
				      .trial_ns = 1000000000ull };

	snprintf(r.name, sizeof(r.name), "drop/no-touch");
	r.size = 64;
	r.engine = "packet";
	r.res.lo_pps = 1000;
	r.res.resolution_pps = 10;
	r.res.ndr_pps = 1000;
	r.res.pdr_pps = 1000;
	assert_out("zero-loss throughput: trials of 1 s; NDR: loss <= 0%, PDR: loss <= 0.1%; a trial reached its rate when the generator sent >= 98% of it\n"
		   "row               size  engine     lo pps     hi pps   res pps    NDR pps  NDR fails    PDR pps  PDR fails trials  note\n"
		   "drop/no-touch       64  packet       1000          -        10       1000          -       1000          - 0       no loss up to the upper bound --max\n",
		   xl_ndr_rows_print(out, &r, 1, &no));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_cell),
		cmocka_unit_test(test_check_line),
		cmocka_unit_test(test_row_single),
		cmocka_unit_test(test_interval_recs),
		cmocka_unit_test(test_counts_line),
		cmocka_unit_test(test_action_line),
		cmocka_unit_test(test_extra_line),
		cmocka_unit_test(test_header_extra),
		cmocka_unit_test(test_lat_totals),
		cmocka_unit_test(test_lat_rows_empty),
		cmocka_unit_test(test_ndr_rows_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
