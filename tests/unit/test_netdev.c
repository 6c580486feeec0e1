// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_netdev.c - the /proc/net/dev reader (src/lib/sys/netdev.c) on fixed
 * text in the kernel's layout: the exact TX packets of a device, a name
 * that is only a prefix of another's not matched, a missing device
 * (-ENODEV), a cut line (-EPROTO), and the live file of this namespace.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "xdplab/netdev.h"

/* Two header lines, then lo, a veth and one whose name extends it. */
static const char text[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:    1234      12    0    0    0     0          0         0     1234      12    0    0    0     0       0          0\n"
	"xlt1ga: 98765432 1543210    0    7    0     0          0         0 12800000  200000    0    0    0     0       0          0\n"
	"xlt1gab: 5 1 0 0 0 0 0 0 18446744073709551615 18446744073709551615 0 0 0 0 0 0\n"
	"  eth0: 1 2 3\n";

static int tx_of(const char *name, uint64_t *v)
{
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	int err;

	assert_non_null(f);
	*v = 42;
	err = xl_netdev_tx_packets_from(f, name, v);
	fclose(f);
	return err;
}

static void test_tx_packets_exact(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(tx_of("lo", &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(tx_of("xlt1ga", &v), 0);
	assert_int_equal(v, 200000);
	/* The largest counter the kernel prints. */
	assert_int_equal(tx_of("xlt1gab", &v), 0);
	assert_true(v == UINT64_MAX);
}

static void test_tx_packets_missing(void **state)
{
	uint64_t v;

	(void)state;
	/* A prefix of two names is neither. */
	assert_int_equal(tx_of("xlt1g", &v), -ENODEV);
	assert_int_equal(v, 42);
	assert_int_equal(tx_of("nosuch0", &v), -ENODEV);
	/* A line with fewer than 10 numbers. */
	assert_int_equal(tx_of("eth0", &v), -EPROTO);
	assert_int_equal(v, 42);
}

/* This namespace's own file: lo is in every network namespace. */
static void test_tx_packets_live(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(xl_netdev_tx_packets("lo", &v), 0);
	assert_int_equal(xl_netdev_tx_packets("xl-no-such-dev", &v), -ENODEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tx_packets_exact),
		cmocka_unit_test(test_tx_packets_missing),
		cmocka_unit_test(test_tx_packets_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
