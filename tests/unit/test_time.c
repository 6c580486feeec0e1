// SPDX-License-Identifier: BSD-2-Clause
/* test_time.c - unit tests of the clock and interruptible sleep (src/lib/core/time.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "xdplab/time.h"

static void test_sleep_stop_already_set(void **state)
{
	volatile sig_atomic_t stop = 1;

	(void)state;
	/* An hour asked for, but the flag is set: returns at once, reporting the stop. */
	assert_int_equal(xl_sleep_ns(3600ull * 1000000000ull, &stop), 1);
}

static void test_sleep_zero_and_short(void **state)
{
	volatile sig_atomic_t stop = 0;
	uint64_t t0 = xl_now_ns();

	(void)state;
	assert_int_equal(xl_sleep_ns(0, &stop), 0);
	assert_int_equal(xl_sleep_ns(0, NULL), 0);
	assert_int_equal(xl_sleep_ns(1000000, NULL), 0); /* 1 ms, not stopped */
	/* The deadline is honoured: at least the time asked for has passed. */
	assert_true(xl_now_ns() - t0 >= 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleep_stop_already_set),
		cmocka_unit_test(test_sleep_zero_and_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
