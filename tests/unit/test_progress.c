// SPDX-License-Identifier: BSD-2-Clause
/* lab run's progress lines: the time-left estimate (src/cmd/progress_cli.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "progress_cli.h"

#define S 1000000000ull

static void test_left(void **state)
{
	char b[32];

	(void)state;
	/* Nothing done yet, or nothing left: no estimate. */
	assert_string_equal(xl_cmd_progress_left(0, 4, 10 * S, b, sizeof(b)), "");
	assert_string_equal(xl_cmd_progress_left(4, 4, 10 * S, b, sizeof(b)), "");
	assert_string_equal(xl_cmd_progress_left(5, 4, 10 * S, b, sizeof(b)), "");
	/* 1 of 4 in 10 s: 3 steps of 10 s left. */
	assert_string_equal(xl_cmd_progress_left(1, 4, 10 * S, b, sizeof(b)), "30 s");
	/* Rounded to the nearest second: 1 step left of 0.7499, 0.5 and 0.4 s. */
	assert_string_equal(xl_cmd_progress_left(2, 3, 1499800000ull, b, sizeof(b)), "1 s");
	assert_string_equal(xl_cmd_progress_left(2, 3, 1000000000ull, b, sizeof(b)), "1 s");
	assert_string_equal(xl_cmd_progress_left(2, 3, 800000000ull, b, sizeof(b)), "0 s");
	/* Minutes and hours. */
	assert_string_equal(xl_cmd_progress_left(1, 3, 90 * S, b, sizeof(b)), "3 min 0 s");
	assert_string_equal(xl_cmd_progress_left(3, 10, 65 * S, b, sizeof(b)), "2 min 32 s");
	assert_string_equal(xl_cmd_progress_left(1, 3, 1860 * S, b, sizeof(b)), "1 h 2 min");
	/* A small buffer is cut, still terminated. */
	assert_string_equal(xl_cmd_progress_left(3, 10, 65 * S, b, 6), "2 min");
}

static void test_steps(void **state)
{
	struct xl_cmd_progress p;

	(void)state;
	xl_cmd_progress_init(&p, 3);
	assert_int_equal(p.total, 3);
	assert_int_equal(p.done, 0);
	xl_cmd_progress_skip(&p);
	xl_cmd_progress_skip(NULL);
	assert_int_equal(p.done, 1);
	p.eta = false;
	xl_cmd_progress_step(&p, "measuring x at 64 bytes");
	assert_int_equal(p.done, 2);
}

/*
 * lab run --dut skips the rows it cannot run at once: they are counted as
 * done ("row I of N" stays right) but not as time spent per step. Two
 * skipped and one measured in 10 s, 3 to go: 30 s left, not 10 s.
 */
static void test_eta_skipped(void **state)
{
	struct xl_cmd_progress p = { .total = 6, .start_ns = 5 * S };
	char b[32];

	(void)state;
	xl_cmd_progress_skip(&p);
	xl_cmd_progress_skip(&p);
	assert_string_equal(xl_cmd_progress_eta(&p, 5 * S, b, sizeof(b)), "");
	p.eta = false;
	xl_cmd_progress_step(&p, "measuring x at 64 bytes");
	assert_int_equal(p.done, 3);
	assert_int_equal(p.skipped, 2);
	assert_string_equal(xl_cmd_progress_eta(&p, 15 * S, b, sizeof(b)), "30 s");
	/* Without skips: 3 of 6 in 30 s, 3 to go. */
	p = (struct xl_cmd_progress){ .total = 6, .done = 3, .start_ns = 0 };
	assert_string_equal(xl_cmd_progress_eta(&p, 30 * S, b, sizeof(b)), "30 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_eta_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
