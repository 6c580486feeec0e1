// SPDX-License-Identifier: BSD-2-Clause
/* test_netns.c - unit tests of the network-namespace helper (src/lib/core/netns.c). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xdplab/netns.h"

static void test_nothing_to_do(void **state)
{
	struct xl_netns_saved saved = { .fd = 42 };

	(void)state;
	/* No namespace given: nothing moves, nothing to restore. */
	assert_int_equal(xl_netns_enter_fd(-1, &saved), 0);
	assert_int_equal(saved.fd, -1);
	assert_int_equal(xl_netns_restore(&saved), 0);
	assert_int_equal(xl_netns_restore(NULL), 0);
}

static void test_missing_path(void **state)
{
	struct xl_netns_saved saved = { .fd = 42 };

	(void)state;
	assert_int_equal(xl_netns_enter_path("/run/netns/xl-no-such-namespace", &saved), -ENOENT);
	assert_int_equal(saved.fd, -1);
	assert_int_equal(xl_netns_restore(&saved), 0);
}

static void test_own_namespace_round_trip(void **state)
{
	struct xl_netns_saved saved;
	int self = xl_netns_self(), err;

	(void)state;
	assert_true(self >= 0);
	err = xl_netns_enter_fd(self, &saved);
	if (err) {
		/* Without CAP_SYS_ADMIN setns() refuses: nothing moved, nothing saved. */
		assert_int_equal(err, -EPERM);
		assert_int_equal(saved.fd, -1);
	} else {
		assert_true(saved.fd >= 0);
		assert_int_equal(xl_netns_restore(&saved), 0);
		assert_int_equal(saved.fd, -1); /* closed and forgotten */
	}
	close(self);
}

/*
 * The sysfs write as a netns sees it runs in a child (a sysfs mounted
 * there): its open's errno comes back (as root; without CAP_SYS_ADMIN the
 * setns or unshare says EPERM), and the caller's mounts are untouched.
 */
static void test_sysfs_write_errors(void **state)
{
	char rel[300];
	int self = xl_netns_self(), err;
	struct stat before, after;

	(void)state;
	assert_true(self >= 0);
	assert_int_equal(stat("/sys/class/net", &before), 0);
	err = xl_netns_sysfs_write(self, "class/net/xl-no-such-dev0/threaded", "1");
	if (err != -EPERM)
		assert_int_equal(err, -ENOENT);
	assert_int_equal(stat("/sys/class/net", &after), 0);
	assert_int_equal(after.st_dev, before.st_dev); /* no sysfs mounted over ours */
	memset(rel, 'a', sizeof(rel) - 1);
	rel[sizeof(rel) - 1] = '\0';
	assert_int_equal(xl_netns_sysfs_write(self, rel, "1"), -ENAMETOOLONG);
	close(self);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_to_do),
		cmocka_unit_test(test_missing_path),
		cmocka_unit_test(test_own_namespace_round_trip),
		cmocka_unit_test(test_sysfs_write_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
