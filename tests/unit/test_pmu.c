// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pmu.c - the hardware counters' arithmetic (src/lib/sys/pmu.c) on
 * recorded counts, so it is tested on a machine without a PMU (this one):
 * per packet, IPC, the multiplexing scale (time enabled / time running),
 * a counter missing or never scheduled, counts that ran backwards; and
 * that a failed open leaves nothing to close twice.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "test_util.h"
#include "xdplab/pmu.h"

static struct xl_pmu_count cnt(uint64_t value, uint64_t enabled, uint64_t running)
{
	return (struct xl_pmu_count){ .value = value, .enabled = enabled, .running = running,
				      .ok = true };
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(xl_pmu_event_name(XL_PMU_INSTRUCTIONS), "instructions");
	assert_string_equal(xl_pmu_event_name(XL_PMU_CYCLES), "cycles");
	assert_string_equal(xl_pmu_event_name(XL_PMU_CACHE_MISSES), "cache_misses");
	assert_string_equal(xl_pmu_event_name(XL_PMU_BRANCH_MISSES), "branch_misses");
	assert_null(xl_pmu_event_name(XL_PMU_NEVENTS));
	assert_null(xl_pmu_event_name(-1));
}

static void test_per_packet_not_multiplexed(void **state)
{
	struct xl_pmu_read a, b;
	struct xl_pmu_pkt p;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* 1 s on the PMU the whole time: 2e9 instructions, 1e9 cycles, 1e6 packets. */
	a.c[XL_PMU_INSTRUCTIONS] = cnt(500, 100, 100);
	b.c[XL_PMU_INSTRUCTIONS] = cnt(2000000500ull, 1000000100ull, 1000000100ull);
	a.c[XL_PMU_CYCLES] = cnt(0, 100, 100);
	b.c[XL_PMU_CYCLES] = cnt(1000000000ull, 1000000100ull, 1000000100ull);
	a.c[XL_PMU_CACHE_MISSES] = cnt(7, 0, 0);
	b.c[XL_PMU_CACHE_MISSES] = cnt(3000007, 1000000000ull, 1000000000ull);
	a.c[XL_PMU_BRANCH_MISSES] = cnt(0, 0, 0);
	b.c[XL_PMU_BRANCH_MISSES] = cnt(250000, 1000000000ull, 1000000000ull);
	xl_pmu_per_pkt(&a, &b, 1000000, &p);
	assert_true(p.ok[XL_PMU_INSTRUCTIONS] && p.ok[XL_PMU_CYCLES]);
	assert_dbl_equal(p.per_pkt[XL_PMU_INSTRUCTIONS], 2000.0);
	assert_dbl_equal(p.per_pkt[XL_PMU_CYCLES], 1000.0);
	assert_dbl_equal(p.per_pkt[XL_PMU_CACHE_MISSES], 3.0);
	assert_dbl_equal(p.per_pkt[XL_PMU_BRANCH_MISSES], 0.25);
	assert_true(p.ipc_ok);
	assert_dbl_equal(p.ipc, 2.0);
	/* No packets: no figure at all. */
	xl_pmu_per_pkt(&a, &b, 0, &p);
	assert_false(p.ok[XL_PMU_INSTRUCTIONS] || p.ok[XL_PMU_CYCLES] || p.ipc_ok);
}

static void test_multiplexing_scale(void **state)
{
	struct xl_pmu_count a = cnt(1000, 2000, 1000), b = cnt(101000, 1002000, 251000);
	bool ok;

	(void)state;
	/* On the PMU a quarter of the window: 100000 counted, 400000 estimated. */
	assert_dbl_equal(xl_pmu_delta(&a, &b, &ok), 400000.0);
	assert_true(ok);
	/* Never scheduled in the window: no estimate (not 0, not infinite). */
	b = cnt(1000, 1002000, 1000);
	assert_dbl_equal(xl_pmu_delta(&a, &b, &ok), 0.0);
	assert_false(ok);
	/* Ran backwards (another counter's read): not trusted. */
	b = cnt(999, 1002000, 2000);
	xl_pmu_delta(&a, &b, &ok);
	assert_false(ok);
	b = cnt(2000, 1000, 2000);
	xl_pmu_delta(&a, &b, &ok);
	assert_false(ok);
}

static void test_missing_counter(void **state)
{
	struct xl_pmu_read a, b;
	struct xl_pmu_pkt p;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* Instructions counted, cycles did not open (a PMU without it): no IPC. */
	a.c[XL_PMU_INSTRUCTIONS] = cnt(0, 0, 0);
	b.c[XL_PMU_INSTRUCTIONS] = cnt(300, 10, 10);
	xl_pmu_per_pkt(&a, &b, 100, &p);
	assert_true(p.ok[XL_PMU_INSTRUCTIONS]);
	assert_dbl_equal(p.per_pkt[XL_PMU_INSTRUCTIONS], 3.0);
	assert_false(p.ok[XL_PMU_CYCLES] || p.ok[XL_PMU_CACHE_MISSES] ||
		     p.ok[XL_PMU_BRANCH_MISSES]);
	assert_false(p.ipc_ok);
	/* Cycles read but 0 in the window: IPC unknown, not infinite. */
	a.c[XL_PMU_CYCLES] = cnt(5, 0, 0);
	b.c[XL_PMU_CYCLES] = cnt(5, 10, 10);
	xl_pmu_per_pkt(&a, &b, 100, &p);
	assert_true(p.ok[XL_PMU_CYCLES]);
	assert_false(p.ipc_ok);
	/* One side's read failed. */
	a.c[XL_PMU_INSTRUCTIONS].ok = false;
	xl_pmu_per_pkt(&a, &b, 100, &p);
	assert_false(p.ok[XL_PMU_INSTRUCTIONS]);
}

/* A pmu none of whose counters opened reads nothing and closes twice. */
static void test_closed_reads_nothing(void **state)
{
	struct xl_pmu p;
	struct xl_pmu_read r;
	int ev;

	(void)state;
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++)
		p.fd[ev] = -1;
	p.nopen = 0;
	memset(&r, 0xff, sizeof(r));
	xl_pmu__read(&p, &r);
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++)
		assert_false(r.c[ev].ok);
	xl_pmu__close(&p);
	xl_pmu__close(&p);
	/* A CPU that does not exist: every open fails, nothing left open. */
	assert_true(xl_pmu__open(&p, 1 << 20) < 0);
	assert_int_equal(p.nopen, 0);
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++)
		assert_int_equal(p.fd[ev], -1);
	xl_pmu__close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_per_packet_not_multiplexed),
		cmocka_unit_test(test_multiplexing_scale),
		cmocka_unit_test(test_missing_counter),
		cmocka_unit_test(test_closed_reads_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
