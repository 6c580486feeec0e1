// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_latency.c - unit tests of the latency histogram (abi/latency.h's
 * xl_lat_bucket(), shared with BPF, and src/lib/xdp/latency.c): buckets are
 * contiguous, each value falls inside its bucket's bounds, widths stay
 * within 1/8 of the lower bound, and percentiles pick the right bucket.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "xdplab/latency.h"

static void test_bucket_bounds_contiguous(void **state)
{
	uint64_t lo, hi, prev_hi = 0;
	uint32_t i;

	(void)state;
	for (i = 0; i < XL_LAT_BUCKETS; i++) {
		xl_lat_bucket_bounds(i, &lo, &hi);
		if (i)
			assert_int_equal(lo, prev_hi + 1);
		else
			assert_int_equal(lo, 0);
		assert_true(hi >= lo);
		/* 3 significant bits: width <= lower bound / 8 (from 8 ns up). */
		if (lo >= 8)
			assert_true((hi - lo + 1) * 8 <= lo);
		/* Both ends map back to the bucket (the last takes all above). */
		assert_int_equal(xl_lat_bucket(lo), i);
		if (i < XL_LAT_BUCKETS - 1)
			assert_int_equal(xl_lat_bucket(hi), i);
		prev_hi = hi;
	}
	assert_int_equal(xl_lat_bucket(UINT64_MAX), XL_LAT_BUCKETS - 1);
}

static void test_bucket_values(void **state)
{
	(void)state;
	assert_int_equal(xl_lat_bucket(0), 0);
	assert_int_equal(xl_lat_bucket(7), 7);
	assert_int_equal(xl_lat_bucket(8), 8);
	assert_int_equal(xl_lat_bucket(15), 15);
	assert_int_equal(xl_lat_bucket(16), 16); /* [16,17] */
	assert_int_equal(xl_lat_bucket(17), 16);
	assert_int_equal(xl_lat_bucket(18), 17);
	/* 1000 ns: 2^9 = 512, sub = (1000 >> 6) & 7 = 15 & 7 = 7: (9-2)*8+7 */
	assert_int_equal(xl_lat_bucket(1000), 63);
}

static void test_percentiles(void **state)
{
	static uint64_t h[XL_LAT_BUCKETS];
	uint64_t lo, hi, lo2, hi2;

	(void)state;
	memset(h, 0, sizeof(h));
	assert_int_equal(xl_lat_percentile(h, 0, 0.5, 0), 0);
	/* 90 values at 1000 ns, 9 at 50000, 1 at 2000000 (the max). */
	h[xl_lat_bucket(1000)] = 90;
	h[xl_lat_bucket(50000)] = 9;
	h[xl_lat_bucket(2000000)] = 1;
	xl_lat_bucket_bounds(xl_lat_bucket(1000), &lo, &hi);
	xl_lat_bucket_bounds(xl_lat_bucket(50000), &lo2, &hi2);
	assert_int_equal(xl_lat_percentile(h, 100, 0.5, 2000000), hi);
	assert_int_equal(xl_lat_percentile(h, 100, 0.9, 2000000), hi);   /* rank 90 */
	assert_int_equal(xl_lat_percentile(h, 100, 0.91, 2000000), hi2); /* rank 91 */
	assert_int_equal(xl_lat_percentile(h, 100, 0.99, 2000000), hi2);
	/* The top bucket's upper bound is capped at the exact maximum. */
	assert_int_equal(xl_lat_percentile(h, 100, 0.999, 2000000), 2000000);
	assert_int_equal(xl_lat_percentile(h, 100, 1.0, 2000000), 2000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds_contiguous),
		cmocka_unit_test(test_bucket_values),
		cmocka_unit_test(test_percentiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
