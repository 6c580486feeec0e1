// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_ethtool_sum.c - unit tests of the one per-queue ethtool summer
 * (xl_ethtool_queue_sum in src/lib/sys/sysstat.c) where no veth is needed:
 * its errors leave the output alone; and, on a fake device behind the
 * xl_ethtool_ioctl seam, that the names are resolved once per device
 * (one GSTRINGS over N reads, one GSTATS per read), again when the table
 * changes or the socket is another one. The sums themselves are checked
 * end to end against `ethtool -S` (tests/e2e: every "check:" line).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>

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


/*
 * A fake veth: @queues RX queues, each with "rx_queue_N_xdp_packets" =
 * 100 x (N + 1) + @bump, after one "peer_ifindex"; counts each command.
 * @new_kernel: a GSTATS with another count than the table's gets n_stats 0
 * (the kernel's 2025 fix); otherwise the current count is written back.
 */
static struct {
	char dev[16];
	int queues, bump, gsset, gstrings, gstats;
	bool new_kernel;
} fake;

static int fake_ioctl(int fd, const char *ifname, void *cmd)
{
	uint32_t cnt = 1 + fake.queues, i;

	(void)fd;
	if (strcmp(ifname, fake.dev) && strcmp(ifname, "xl-fake1"))
		return -ENODEV;
	switch (*(uint32_t *)cmd) {
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *si = cmd;

		fake.gsset++;
		si->data[0] = cnt;
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = cmd;

		fake.gstrings++;
		assert_int_equal(gs->len, cnt);
		snprintf((char *)gs->data, ETH_GSTRING_LEN, "peer_ifindex");
		for (i = 1; i < cnt; i++)
			snprintf((char *)gs->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN,
				 "rx_queue_%u_xdp_packets", i - 1);
		return 0;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = cmd;

		fake.gstats++;
		if (st->n_stats != cnt && fake.new_kernel) {
			st->n_stats = 0;
			return 0;
		}
		if (st->n_stats < cnt) {
			st->n_stats = cnt; /* an old kernel would copy cnt values here */
			return -EFAULT;    /* ... into the guard page */
		}
		st->n_stats = cnt;
		st->data[0] = 7;
		for (i = 1; i < cnt; i++)
			st->data[i] = 100 * i + fake.bump;
		return 0;
	}
	}
	return -EOPNOTSUPP;
}

static xl_ethtool_ioctl_fn real_ioctl_fn;

static int fake_setup(void **state)
{
	(void)state;
	if (!real_ioctl_fn)
		real_ioctl_fn = xl_ethtool_ioctl;
	memset(&fake, 0, sizeof(fake));
	snprintf(fake.dev, sizeof(fake.dev), "xl-fake0");
	fake.queues = 2;
	xl_ethtool_ioctl = fake_ioctl;
	xl_ethtool_cache_set(false); /* forget other tests' entries */
	xl_ethtool_cache_set(true);
	return 0;
}

static int fake_teardown(void **state)
{
	(void)state;
	xl_ethtool_cache_set(false); /* no fake entry outlives its test */
	xl_ethtool_cache_set(true);
	xl_ethtool_ioctl = real_ioctl_fn;
	return 0;
}

static void test_names_resolved_once(void **state)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), i, found = 0;
	uint64_t sum = 0;

	(void)state;
	assert_true(s >= 0);
	for (i = 0; i < 5; i++) {
		fake.bump = i;
		assert_int_equal(xl_ethtool_queue_sum(s, "xl-fake0", "rx", "xdp_packets", 0, &sum,
						      &found), 0);
		assert_int_equal(sum, 100 + 200 + 2 * i);
		assert_int_equal(found, 2);
	}
	assert_int_equal(fake.gstrings, 1);
	assert_int_equal(fake.gsset, 1);
	assert_int_equal(fake.gstats, 5);
	/* Another device: its own table, once. */
	for (i = 0; i < 3; i++)
		assert_int_equal(xl_ethtool_queue_sum(s, "xl-fake1", "rx", "xdp_packets", 2, &sum,
						      NULL), 0);
	assert_int_equal(fake.gstrings, 2);
	assert_int_equal(fake.gstats, 8);
	close(s);
}

static void test_table_change(void **state)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), k;
	uint64_t sum = 0;

	(void)state;
	assert_true(s >= 0);
	for (k = 0; k < 2; k++) {
		fake.new_kernel = k;
		fake.queues = 2;
		xl_ethtool_cache_set(false);
		xl_ethtool_cache_set(true);
		fake.gstrings = 0;
		assert_int_equal(xl_ethtool_queue_sum(s, "xl-fake0", "rx", "xdp_packets", 0, &sum,
						      NULL), 0);
		assert_int_equal(sum, 300);
		/* A third queue appears (ethtool -L): read right, resolved again. */
		fake.queues = 3;
		assert_int_equal(xl_ethtool_queue_sum(s, "xl-fake0", "rx", "xdp_packets", 0, &sum,
						      NULL), 0);
		assert_int_equal(sum, 600);
		assert_int_equal(fake.gstrings, 2);
	}
	close(s);
}

static void test_other_socket_same_number(void **state)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), t;
	uint64_t sum;

	(void)state;
	assert_int_equal(xl_ethtool_queue_sum(s, "xl-fake0", "rx", "xdp_packets", 0, &sum, NULL), 0);
	close(s);
	t = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_int_equal(t, s); /* the lowest free number again */
	/* Another socket (maybe another netns): not the entry of the old one. */
	assert_int_equal(xl_ethtool_queue_sum(t, "xl-fake0", "rx", "xdp_packets", 0, &sum, NULL), 0);
	assert_int_equal(fake.gstrings, 2);
	close(t);
}

static void test_cache_off(void **state)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), i;
	uint64_t sum;

	(void)state;
	assert_true(xl_ethtool_cache_set(false));
	for (i = 0; i < 4; i++)
		assert_int_equal(xl_ethtool_queue_sum(s, "xl-fake0", "rx", "xdp_packets", 0, &sum,
						      NULL), 0);
	/* As before the cache: all three commands on every read. */
	assert_int_equal(fake.gsset, 4);
	assert_int_equal(fake.gstrings, 4);
	assert_int_equal(fake.gstats, 4);
	assert_false(xl_ethtool_cache_set(true));
	close(s);
}

static void test_sums_one_read(void **state)
{
	const char *names[2] = { "xdp_packets", "nosuch" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	uint64_t sums[2] = { 1, 1 };

	(void)state;
	assert_int_equal(xl_ethtool_queue_sums(s, "xl-fake0", "rx", names, 1, 0, sums, NULL), 0);
	assert_int_equal(sums[0], 300);
	/* A counter no queue has: -ENOENT, the sums untouched. */
	sums[0] = 1;
	assert_int_equal(xl_ethtool_queue_sums(s, "xl-fake0", "rx", names, 2, 0, sums, NULL),
			 -ENOENT);
	assert_int_equal(sums[0], 1);
	assert_int_equal(fake.gstats, 2);
	/* More names than a read holds: refused, nothing asked. */
	{
		const char *many[XL_ETHTOOL_MAX_NAMES + 1];
		uint64_t v[XL_ETHTOOL_MAX_NAMES + 1];
		int i;

		for (i = 0; i <= XL_ETHTOOL_MAX_NAMES; i++)
			many[i] = "peer_ifindex";
		assert_int_equal(xl_ethtool_stats(s, "xl-fake0", many, v, XL_ETHTOOL_MAX_NAMES + 1),
				 -EINVAL);
		assert_int_equal(xl_ethtool_stats(s, "xl-fake0", many, v, XL_ETHTOOL_MAX_NAMES),
				 XL_ETHTOOL_MAX_NAMES);
		assert_int_equal(v[XL_ETHTOOL_MAX_NAMES - 1], 7);
	}
	assert_int_equal(fake.gstats, 3);
	close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors_leave_output),
		cmocka_unit_test_setup_teardown(test_names_resolved_once, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_table_change, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_other_socket_same_number, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_cache_off, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_sums_one_read, fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
