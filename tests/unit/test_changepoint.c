// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_changepoint.c - E-divisive means with the permutation test
 * (src/lib/measure/changepoint.c): a planted step found at its index, two
 * steps, none in noise around one level, constant and short series, the
 * same answer twice (fixed seed), bad options.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "xdplab/changepoint.h"

#include "test_util.h"

static const struct xl_cp_opts OPTS = { .alpha = XL_CP_ALPHA_DEFAULT,
					.permutations = XL_CP_PERMUTATIONS_DEFAULT,
					.min_size = XL_CP_MIN_SIZE_DEFAULT };

/* Noise of +-0.5 around @level, the same every time (no generator: sin of the index). */
static void fill(double *z, int from, int to, double level)
{
	int i;

	for (i = from; i < to; i++)
		z[i] = level + 0.5 * sin(i * 1.7);
}

static void test_step_found(void **state)
{
	struct xl_cp_result r;
	double z[16];

	fill(z, 0, 8, 100);
	fill(z, 8, 16, 110); /* --extra-ns 10: +10 ns/packet from the ninth run */
	assert_int_equal(xl_edivisive(z, 16, &OPTS, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.cp[0].index, 8);
	assert_true(r.cp[0].p <= OPTS.alpha);
	assert_true(r.cp[0].q > 0);
	/* Nothing else: the halves are noise. */
	assert_true(r.last_index == -1 || r.last_p > OPTS.alpha);
}

static void test_two_steps(void **state)
{
	struct xl_cp_result r;
	double z[24];

	fill(z, 0, 8, 100);
	fill(z, 8, 16, 120);
	fill(z, 16, 24, 105);
	assert_int_equal(xl_edivisive(z, 24, &OPTS, &r), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.cp[0].index, 8);
	assert_int_equal(r.cp[1].index, 16);
}

static void test_noise_none(void **state)
{
	struct xl_cp_result r;
	double z[16];

	fill(z, 0, 16, 100);
	assert_int_equal(xl_edivisive(z, 16, &OPTS, &r), 0);
	assert_int_equal(r.n, 0);
	assert_true(r.last_index > 0);
	assert_true(r.last_p > OPTS.alpha);
}

static void test_constant_and_short(void **state)
{
	struct xl_cp_result r;
	double z[8] = { 5, 5, 5, 5, 5, 5, 5, 5 };

	assert_int_equal(xl_edivisive(z, 8, &OPTS, &r), 0);
	assert_int_equal(r.n, 0);
	assert_dbl_equal(r.last_p, 1.0); /* every permutation ties */
	/* Three points cannot have two a side. */
	assert_int_equal(xl_edivisive(z, 3, &OPTS, &r), 0);
	assert_int_equal(r.n, 0);
	assert_int_equal(r.last_index, -1);
	assert_dbl_equal(r.last_p, 1.0);
	assert_int_equal(xl_edivisive(z, 0, &OPTS, &r), 0);
	assert_int_equal(r.n, 0);
}

static void test_deterministic(void **state)
{
	struct xl_cp_result a, b;
	double z[20];

	fill(z, 0, 10, 50);
	fill(z, 10, 20, 50.6); /* a small step: p near the edge, so the seed matters */
	assert_int_equal(xl_edivisive(z, 20, &OPTS, &a), 0);
	assert_int_equal(xl_edivisive(z, 20, &OPTS, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void test_bad_opts(void **state)
{
	struct xl_cp_opts o = OPTS;
	struct xl_cp_result r;
	double z[4] = { 1, 2, 3, 4 };

	o.alpha = 0;
	assert_int_equal(xl_edivisive(z, 4, &o, &r), -EINVAL);
	o = OPTS;
	o.permutations = 0;
	assert_int_equal(xl_edivisive(z, 4, &o, &r), -EINVAL);
	o = OPTS;
	o.min_size = 0;
	assert_int_equal(xl_edivisive(z, 4, &o, &r), -EINVAL);
	assert_int_equal(xl_edivisive(z, XL_CP_MAX_POINTS + 1, &OPTS, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_found),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_noise_none),
		cmocka_unit_test(test_constant_and_short),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bad_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
