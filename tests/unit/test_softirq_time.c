// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_softirq_time.c - the arithmetic of the exact softirq source
 * (src/lib/sys/softirq_time.c) and the meter's use of it
 * (src/lib/measure/meter.c): a run in progress counted up to the read's
 * "now", the tracepoint time preferred to /proc/stat's in softirq wiring,
 * /proc/stat kept when either edge could not read it, the kthread's
 * schedstat with threaded NAPI, and the sources of a sum of windows.
 * Known inputs only; nothing is loaded (no root needed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/softirq_time.h"

#include "test_util.h"

static void test_cpu_ns_finished_runs(void **state)
{
	struct xl_sirq_rec r = { .ns = 123456789, .runs = 10, .entry_ns = 0 };

	(void)state;
	assert_int_equal(xl_sirq_cpu_ns(&r, 5000000000ull), 123456789);
}

static void test_cpu_ns_run_in_progress(void **state)
{
	struct xl_sirq_rec r = { .ns = 1000, .runs = 1, .entry_ns = 4000000000ull };

	(void)state;
	/* 2.5 us into the current run: it counts up to now. */
	assert_int_equal(xl_sirq_cpu_ns(&r, 4000002500ull), 3500);
	/* A stamp after "now" (read on another CPU's clock edge): not counted. */
	assert_int_equal(xl_sirq_cpu_ns(&r, 3999999999ull), 1000);
}

/*
 * A sample at @t_ns with @rx frames on CPU 0: /proc/stat's softirq time
 * @proc_sirq, the tracepoints' @tp_sirq (read when @tp_ok) and @runs.
 */
static void sample(struct xl_meter_sample *s, uint64_t t_ns, uint64_t rx, uint64_t proc_sirq,
		   uint64_t tp_sirq, uint64_t runs, bool tp_ok)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
	s->total.rx_packets = rx;
	s->per_cpu[0].rx_packets = rx;
	s->cpu[0] = (struct xl_cpu_times){ .busy = t_ns, .softirq = proc_sirq, .total = t_ns };
	s->cpu_ok[0] = true;
	s->cpu_t_ns = t_ns + 1000;
	s->sirq_ok = tp_ok;
	s->sirq_t_ns = t_ns + 2000;
	s->sirq_ns[0] = tp_sirq;
	s->sirq_runs[0] = runs;
}

static void test_meter_prefers_tracepoint(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	/* 1 s, 10 M frames; ticks say 600 ms of softirq, the tracepoints 713.5 ms. */
	sample(&a, 1000000000ull, 0, 0, 50000000, 100, true);
	sample(&b, 2000000000ull, 10000000, 600000000, 763500000, 100100, true);
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(w.cpu_ns.n, 713500000);
	assert_int_equal(w.cpu_ns.ns, 1000000000ull);
	assert_dbl_equal(w.cpu_ns_per_pkt, 71.35);
	assert_int_equal(w.sirq_runs, 100000);
	/* The busy share is still /proc/stat's: every task on the CPU counts. */
	assert_dbl_equal(w.cpu_busy, 1.0);

	/* The tracepoints unread at one edge: /proc/stat's figure, said so. */
	b.sirq_ok = false;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_PROCSTAT);
	assert_dbl_equal(w.cpu_ns_per_pkt, 60.0);
	assert_int_equal(w.sirq_runs, 0);

	/* A counter that went backwards (the source reloaded): no CPU figure. */
	b.sirq_ok = true;
	b.sirq_ns[0] = 1;
	xl_meter_window(&m, &a, &b, &w);
	assert_false(w.cpu_ns.ok);
	assert_null(w.cpu_source);
	assert_dbl_equal(w.cpu_ns_per_pkt, 0.0);
}

static void test_meter_kthread_source(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .napi_pid = 4242, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	sample(&a, 1000000000ull, 0, 0, 0, 0, false);
	sample(&b, 2000000000ull, 4000000, 0, 0, 0, false);
	a.napi_runtime = (struct xl_read){ .v = 1000, .t_ns = 1000000000ull, .ok = true };
	b.napi_runtime = (struct xl_read){ .v = 200001000, .t_ns = 2000000000ull, .ok = true };
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_KTHREAD);
	assert_dbl_equal(w.cpu_ns_per_pkt, 50.0);
}

static void test_sum_sources_and_row(void **state)
{
	static struct xl_meter_sample s0, s1, s2;
	static struct xl_row_result row;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w1, w2, sum;

	(void)state;
	sample(&s0, 0, 0, 0, 0, 0, true);
	sample(&s1, 1000000000ull, 1000000, 0, 70000000, 1000, true);
	sample(&s2, 2000000000ull, 2000000, 0, 150000000, 2500, true);
	xl_meter_window(&m, &s0, &s1, &w1);
	xl_meter_window(&m, &s1, &s2, &w2);
	xl_meter_window_zero(&sum);
	xl_meter_window_add(&sum, &w1);
	xl_meter_window_add(&sum, &w2);
	assert_string_equal(sum.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(sum.sirq_runs, 2500);
	assert_dbl_equal(sum.cpu_ns_per_pkt, 75.0);

	/* A row whose repetitions agree says the source; otherwise "mixed". */
	memset(&row, 0, sizeof(row));
	row.kind = "xdp";
	row.nreps = 2;
	xl_meter_window_rep(&w1, &row.reps[0]);
	xl_meter_window_rep(&w2, &row.reps[1]);
	xl_row_finish(&row);
	assert_string_equal(row.cpu_source, XL_CPU_SRC_TRACEPOINT);
	row.reps[1].cpu_source = XL_CPU_SRC_PROCSTAT;
	xl_row_finish(&row);
	assert_string_equal(row.cpu_source, XL_CPU_SRC_MIXED);
	w2.cpu_source = XL_CPU_SRC_PROCSTAT;
	xl_meter_window_add(&sum, &w2);
	assert_string_equal(sum.cpu_source, XL_CPU_SRC_MIXED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_ns_finished_runs),
		cmocka_unit_test(test_cpu_ns_run_in_progress),
		cmocka_unit_test(test_meter_prefers_tracepoint),
		cmocka_unit_test(test_meter_kthread_source),
		cmocka_unit_test(test_sum_sources_and_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
