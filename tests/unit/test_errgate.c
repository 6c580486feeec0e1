// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_errgate.c - the error-counter gate's decision (src/lib/xdp/errgate.c):
 * which counters moved between two reads, and the cases that are no move
 * (a device not read on one side, a counter that went down because the
 * device was made again). Reading real veths: e2e monitor_lazy_quiet and
 * monitor_lazy_down.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "xdplab/errgate.h"

static void test_moved(void **state)
{
	struct xl_errgate_snap a, b;
	struct xl_errgate_move mv[4];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.ok[0] = a.ok[1] = a.ok[2] = true;
	a.v[0][0] = 10;
	a.v[1][2] = 5;
	a.v[2][1] = 9;
	b = a;
	assert_int_equal(xl_errgate_moved(&a, &b, 3, mv, 4), 0);
	b.v[0][0] = 30;  /* device 0's rx drops: +20 */
	b.v[1][2] = 6;   /* device 1's xmit errors: +1 */
	b.v[2][1] = 3;   /* went down: made again, no move */
	assert_int_equal(xl_errgate_moved(&a, &b, 3, mv, 4), 2);
	assert_int_equal(mv[0].dev, 0);
	assert_int_equal(mv[0].ctr, 0);
	assert_int_equal(mv[0].delta, 20);
	assert_int_equal(mv[1].dev, 1);
	assert_int_equal(mv[1].ctr, 2);
	assert_int_equal(mv[1].delta, 1);
	/* only the first fits, the count is still both */
	assert_int_equal(xl_errgate_moved(&a, &b, 3, mv, 1), 2);
	assert_int_equal(xl_errgate_moved(&a, &b, 3, NULL, 0), 2);
	/* device 0 not read on one side: only device 1 */
	b.ok[0] = false;
	assert_int_equal(xl_errgate_moved(&a, &b, 3, mv, 4), 1);
	assert_int_equal(mv[0].dev, 1);
	/* devices past n are not looked at */
	assert_int_equal(xl_errgate_moved(&a, &b, 1, mv, 4), 0);
}

static void test_names_and_range(void **state)
{
	struct xl_errgate_dev d = { .sock = -1 };
	struct xl_errgate_snap s;

	(void)state;
	assert_string_equal(xl_errgate_ctr_name(0), "rx_queue_N_drops");
	assert_string_equal(xl_errgate_ctr_name(1), "rx_queue_N_xdp_tx_errors");
	assert_string_equal(xl_errgate_ctr_name(2), "tx_queue_N_xdp_xmit_errors");
	assert_string_equal(xl_errgate_ctr_name(3), "?");
	assert_string_equal(xl_errgate_ctr_name(-1), "?");
	assert_int_equal(xl_errgate_read(&d, XL_ERRGATE_MAX_DEVS + 1, &s), -EINVAL);
	assert_int_equal(xl_errgate_read(&d, -1, &s), -EINVAL);
	/* a socket that is none: the device is not read, not ok */
	assert_int_equal(xl_errgate_read(&d, 1, &s), 0);
	assert_false(s.ok[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_names_and_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
