// SPDX-License-Identifier: BSD-2-Clause
/* test_time.c - unit tests of the clock and interruptible sleep (src/lib/core/time.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

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

/* /proc/PID/timens_offsets (man 7 time_namespaces): the monotonic line's offset, in ns. */
static void test_timens_offsets_parse(void **state)
{
	int64_t off = 1;

	(void)state;
	assert_int_equal(xl_timens_mono_off_parse("monotonic           0         0\n"
						  "boottime            0         0\n", &off), 0);
	assert_int_equal(off, 0);
	assert_int_equal(xl_timens_mono_off_parse("monotonic      100000         0\n"
						  "boottime       100000         0\n", &off), 0);
	assert_int_equal(off, 100000000000000ll);
	assert_int_equal(xl_timens_mono_off_parse("boottime 7 0\nmonotonic -5 250\n", &off), 0);
	assert_int_equal(off, -4999999750ll);
	off = 1;
	assert_int_equal(xl_timens_mono_off_parse("boottime 7 0\n", &off), -EINVAL);
	assert_int_equal(xl_timens_mono_off_parse("", &off), -EINVAL);
	assert_int_equal(xl_timens_mono_off_parse("monotonic x 0\n", &off), -EINVAL);
	assert_int_equal(xl_timens_mono_off_parse("monotonic 1 1000000000\n", &off), -EINVAL);
	assert_int_equal(xl_timens_mono_off_parse("monotonic 99999999999999999999 0\n", &off), -EINVAL);
	assert_int_equal(off, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleep_stop_already_set),
		cmocka_unit_test(test_sleep_zero_and_short),
		cmocka_unit_test(test_timens_offsets_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
