// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_ethxdp.c - unit tests of the whole-frame bytes of veth's XDP
 * counters (src/lib/sys/ethxdp.c): xl_eth_xdp_l2_add()'s arithmetic, and
 * xl_eth_xdp_meter_read() over a fake veth pair behind the xl_ethtool_ioctl
 * seam: a window's bytes over its packets is the frames' whole size whether
 * they came as skbs (14 bytes short in xdp_bytes) or as xdp_frames (counted
 * whole, and in the peer's tx_queue_0_xdp_xmit). The real veth is checked
 * end to end (tests/e2e/prog.sh ab_wiring_size, ab_size_redirected).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <linux/ethtool.h>

#include "xdplab/ethxdp.h"
#include "xdplab/sysstat.h"

static void test_l2_add(void **state)
{
	(void)state;
	assert_int_equal(xl_eth_xdp_l2_add(100, 0), 1400); /* all skbs */
	assert_int_equal(xl_eth_xdp_l2_add(100, 100), 0);  /* all xdp_frames */
	assert_int_equal(xl_eth_xdp_l2_add(100, 40), 840); /* 60 skbs */
	assert_int_equal(xl_eth_xdp_l2_add(5, 9), 0);      /* the peer ahead: none */
	assert_int_equal(xl_eth_xdp_l2_add(0, 0), 0);
}

/*
 * A fake veth pair: "xl-dut0" with one RX queue's six XDP counters (only
 * packets and bytes move), "xl-peer0" with tx_queue_0_xdp_xmit and
 * _xdp_xmit_errors.
 */
static struct {
	uint64_t packets, bytes, xmit;
} fake;

static const char *const dut_names[] = { "rx_queue_0_xdp_packets", "rx_queue_0_xdp_bytes",
					 "rx_queue_0_xdp_drops",   "rx_queue_0_xdp_tx",
					 "rx_queue_0_xdp_redirect", "rx_queue_0_xdp_tx_errors" };
static const char *const peer_names[] = { "tx_queue_0_xdp_xmit", "tx_queue_0_xdp_xmit_errors" };

static int fake_ioctl(int fd, const char *ifname, void *cmd)
{
	bool dut = !strcmp(ifname, "xl-dut0");
	const char *const *names = dut ? dut_names : peer_names;
	uint32_t cnt = dut ? 6 : 2, i;

	(void)fd;
	if (!dut && strcmp(ifname, "xl-peer0"))
		return -ENODEV;
	switch (*(uint32_t *)cmd) {
	case ETHTOOL_GSSET_INFO:
		((struct ethtool_sset_info *)cmd)->data[0] = cnt;
		return 0;
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = cmd;

		for (i = 0; i < cnt; i++)
			snprintf((char *)gs->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN, "%s",
				 names[i]);
		return 0;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = cmd;

		if (st->n_stats < cnt)
			return -EINVAL;
		st->n_stats = cnt;
		memset(st->data, 0, cnt * sizeof(st->data[0]));
		if (dut) {
			st->data[0] = fake.packets;
			st->data[1] = fake.bytes;
		} else {
			st->data[0] = fake.xmit;
		}
		return 0;
	}
	}
	return -EOPNOTSUPP;
}

static xl_ethtool_ioctl_fn real_ioctl_fn;

static int fake_setup(void **state)
{
	(void)state;
	real_ioctl_fn = xl_ethtool_ioctl;
	memset(&fake, 0, sizeof(fake));
	xl_ethtool_ioctl = fake_ioctl;
	xl_ethtool_cache_set(false);
	return 0;
}

static int fake_teardown(void **state)
{
	(void)state;
	xl_ethtool_cache_set(true);
	xl_ethtool_ioctl = real_ioctl_fn;
	return 0;
}

/* Frames into the fake DUT: @skbs of @size bytes (counted 14 short), @frames whole. */
static void arrive(uint64_t skbs, uint64_t frames, uint64_t size)
{
	fake.packets += skbs + frames;
	fake.bytes += skbs * (size - 14) + frames * size;
	fake.xmit += frames;
}

/* One read's rx_bytes and rx_packets. */
static void read_once(struct xl_eth_xdp *e, uint64_t *bytes, uint64_t *packets)
{
	struct xl_bench_rec t;

	assert_int_equal(xl_eth_xdp_meter_read(e, &t, NULL), 0);
	*bytes = t.rx_bytes;
	*packets = t.rx_packets;
}

static void test_meter_read_whole_frames(void **state)
{
	struct xl_eth_xdp e = { .sock = 3, .ifname = "xl-dut0", .queues = 1, .l2 = true,
				.peer_sock = 3, .peer_name = "xl-peer0" };
	uint64_t b0, p0, b1, p1;

	(void)state;
	arrive(100, 0, 200); /* before the first read: since the device was made */
	read_once(&e, &b0, &p0);
	assert_int_equal(p0, 100);
	assert_int_equal(b0, 100 * 200);
	/* A window of skbs only: 200 bytes each. */
	arrive(1000, 0, 200);
	read_once(&e, &b1, &p1);
	assert_int_equal(b1 - b0, 1000 * 200);
	/* xdp_frames only (a redirect into the DUT): nothing added. */
	arrive(0, 500, 200);
	read_once(&e, &b0, &p0);
	assert_int_equal(b0 - b1, 500 * 200);
	/* Mixed: 300 skbs and 700 xdp_frames of 128 bytes. */
	arrive(300, 700, 128);
	read_once(&e, &b1, &p1);
	assert_int_equal(p1 - p0, 1000);
	assert_int_equal(b1 - b0, 1000 * 128);
	/* The peer ahead (2 frames in the ring, not yet counted): the window adds none. */
	arrive(0, 10, 64);
	fake.xmit += 2;
	read_once(&e, &b0, &p0);
	assert_int_equal(b0 - b1, 10 * 64);
	/* Without the peer (e.l2 false): the driver's count as it is. */
	e.l2 = false;
	arrive(10, 0, 64);
	read_once(&e, &b1, &p1);
	assert_int_equal(b1, fake.bytes);
}

/* A peer that cannot be read fails the read (no size made up). */
static void test_meter_read_peer_gone(void **state)
{
	struct xl_eth_xdp e = { .sock = 3, .ifname = "xl-dut0", .queues = 1, .l2 = true,
				.peer_sock = 3, .peer_name = "xl-gone0" };
	struct xl_bench_rec t;

	(void)state;
	arrive(10, 0, 64);
	assert_int_equal(xl_eth_xdp_meter_read(&e, &t, NULL), -ENODEV);
	assert_int_equal(e.l2_bytes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2_add),
		cmocka_unit_test_setup_teardown(test_meter_read_whole_frames, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(test_meter_read_peer_gone, fake_setup,
						fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
