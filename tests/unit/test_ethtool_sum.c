// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_ethtool_sum.c - unit tests of the one per-queue ethtool summer
 * (xl_ethtool_queue_sum in src/lib/sys/sysstat.c) where no veth is needed:
 * its errors leave the output alone. The sums themselves are checked
 * end to end against `ethtool -S` (tests/e2e: every "check:" line).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/socket.h>
#include <unistd.h>

#include "xdplab/sysstat.h"

static void test_errors_leave_output(void **state)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), found = 9;
	uint64_t sum = 7;

	(void)state;
	assert_true(s >= 0);
	/* No such device. */
	assert_int_equal(xl_ethtool_queue_sum(s, "xl-nosuch0", "rx", "xdp_packets", 0, &sum,
					      &found), -ENODEV);
	/* Loopback has no statistics strings at all. */
	assert_int_equal(xl_ethtool_queue_sum(s, "lo", "rx", "xdp_packets", 1, &sum, &found),
			 -EOPNOTSUPP);
	assert_int_equal(sum, 7);
	assert_int_equal(found, 9);
	close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors_leave_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
