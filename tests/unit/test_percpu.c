// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_percpu.c - per-CPU buffers are sized for every possible CPU (issue 11
 * item 10): with more than XL_MAX_CPUS (256) possible CPUs, xl_bench_ncpus()
 * is the real count (it was clamped to 256, so a per-CPU map lookup wrote
 * past 256-entry buffers and CPUs >= 256 were left out of the totals), the
 * detail arrays stay bounded, and a sum adds every CPU.
 *
 * libbpf_num_possible_cpus() is defined here: the test binary's definition
 * is the one the library's objects link against, so the CPU count is ours.
 * No root needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "xdplab/bench.h"
#include "xdplab/ethxdp.h"

static int possible_cpus = 2;

int libbpf_num_possible_cpus(void)
{
	return possible_cpus;
}

static void test_ncpus(void **state)
{
	possible_cpus = 300;
	assert_int_equal(xl_bench_ncpus(), 300);
	assert_int_equal(xl_bench_detail_ncpus(), XL_MAX_CPUS);
	possible_cpus = 2;
	assert_int_equal(xl_bench_ncpus(), 2);
	assert_int_equal(xl_bench_detail_ncpus(), 2);
	possible_cpus = -1; /* libbpf could not read /sys/devices/system/cpu/possible */
	assert_int_equal(xl_bench_ncpus(), 1);
	assert_int_equal(xl_bench_detail_ncpus(), 1);
}

static void test_sum_every_cpu(void **state)
{
	struct xl_bench_rec *recs = calloc(300, sizeof(*recs));
	struct xl_bench_rec t;
	int i;

	assert_non_null(recs);
	for (i = 0; i < 300; i++) {
		recs[i].rx_packets = 1;
		recs[i].rx_bytes = 64;
		recs[i].errors = i >= 256; /* only the CPUs past 256 */
		recs[i].actions[1] = 1;
		recs[i].actions[4] = i == 299 ? 7 : 0;
	}
	memset(&t, 0xff, sizeof(t));
	xl_bench_rec_sum(recs, 300, &t);
	assert_int_equal(t.rx_packets, 300);
	assert_int_equal(t.rx_bytes, 300 * 64);
	assert_int_equal(t.errors, 44);
	assert_int_equal(t.actions[0], 0);
	assert_int_equal(t.actions[1], 300);
	assert_int_equal(t.actions[4], 7);
	free(recs);
}

/*
 * A meter's reader zeroes the per-CPU detail it has none of: the meter's
 * sample holds XL_MAX_CPUS records (struct xl_meter_sample.per_cpu), so
 * with 300 possible CPUs only the first 256 are its to write (it zeroed
 * xl_bench_ncpus() = 300, past the sample's array).
 */
static void test_eth_xdp_zeroes_detail_only(void **state)
{
	struct xl_bench_rec *recs = calloc(300, sizeof(*recs)), total;
	struct xl_eth_xdp e = { .sock = -1, .ifname = "xlnone0", .queues = 1 };
	int i;

	assert_non_null(recs);
	memset(recs, 0x5a, 300 * sizeof(*recs));
	possible_cpus = 300;
	assert_true(xl_eth_xdp_meter_read(&e, &total, recs) < 0); /* no socket: the read fails */
	possible_cpus = 2;
	for (i = 0; i < XL_MAX_CPUS; i++)
		assert_int_equal(recs[i].rx_packets, 0);
	for (; i < 300; i++)
		assert_int_equal(recs[i].rx_packets, 0x5a5a5a5a5a5a5a5aull);
	free(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ncpus),
		cmocka_unit_test(test_sum_every_cpu),
		cmocka_unit_test(test_eth_xdp_zeroes_detail_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
