// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_config.c - rules between options that the library enforces itself
 * (issue 11 item 12: they were checked only in src/cmd/, so another caller
 * of the library got an l2fwd that loops forever, a queue with rate 0 =
 * unlimited, or a capture replayed once per thread):
 * - xl_xsk_config_check(): txpush --rate below --queues; --frags with a
 *   batch or TX ring below XL_XSK_MAX_FRAME_DESCS; and xl_xsk_app__create()
 *   refuses them before touching the system;
 * - xl_gen_opts_check(): --pcap with more than one thread, --pcap with a
 *   forced live engine, --batch with the packet engine; and
 *   xl_gen__create() refuses them the same way.
 * No root needed: the checks come before any system call.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/gen.h"
#include "xdplab/xsk.h"
#include "test_util.h"

static void test_xsk_rules(void **state)
{
	struct xl_xsk_config c;
	char msg[256];

	xl_xsk_config_defaults(&c);
	c.app = XL_XSK_TXPUSH;
	c.queues = 4;
	c.rate_pps = 3;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--rate: 3 is below --queues 4 (accepted: at least one frame per second per queue, or 0 for no limit)");
	c.rate_pps = 4;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);
	c.rate_pps = 0; /* no limit */
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);

	xl_xsk_config_defaults(&c);
	c.app = XL_XSK_L2FWD;
	c.frags = true;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);
	c.batch = XL_XSK_MAX_FRAME_DESCS - 1;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--frags needs --batch and --tx-size of at least 18 (the descriptors one frame may take)");
	c.batch = XL_XSK_MAX_FRAME_DESCS;
	c.tx_size = 16;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	c.tx_size = 32;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);
	c.frags = false;
	c.tx_size = 16;
	c.batch = 16;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);
}

static void test_xsk_create_refuses(void **state)
{
	struct xl_xsk_config c;
	struct capture ce;
	char *err;

	xl_xsk_config_defaults(&c);
	c.app = XL_XSK_L2FWD;
	c.ifname = "lo";
	c.frags = true;
	c.batch = 8;
	cap_start(&ce, STDERR_FILENO);
	errno = 0;
	assert_null(xl_xsk_app__create(&c));
	assert_int_equal(errno, EINVAL);
	err = cap_end(&ce);
	assert_string_equal(err, "xdplab: --frags needs --batch and --tx-size of at least 18 (the descriptors one frame may take)\n");
	free(err);
}

static void gen_defaults(struct xl_gen_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ifname = "lo";
	o->threads = 1;
	o->first_cpu = -1;
	o->netns_fd = -1;
	o->engine = XL_ENGINE_PACKET;
}

static void test_gen_rules(void **state)
{
	struct xl_gen_opts o;
	char msg[256];

	gen_defaults(&o);
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), 0);
	o.pcap_path = "x.pcap";
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), 0);
	o.threads = 2;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--threads: '2' is out of range with --pcap (accepted: 1; an in-order replay is one thread)");
	o.threads = 1;
	o.engine = XL_ENGINE_LIVE;
	o.engine_forced = true;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--pcap needs --engine packet (live frames repeat one frame per call, so an in-order replay is not possible)");
	gen_defaults(&o);
	o.batch = 8;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--batch is for the live engine (the packet engine sends sendmmsg batches of 64)");
	o.engine = XL_ENGINE_LIVE;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), 0);
	/* --imix: its 60-byte frames hold IPv4/UDP (with two tags, or TCP),
	 * not IPv6/UDP (62), IPv6/TCP (74) or IPv4/TCP with two tags (62). */
	gen_defaults(&o);
	o.imix = true;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), 0);
	o.spec.nvlans = 2;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), 0);
	o.spec.l4 = XL_L4_TCP_SYN;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--imix: its 60-byte frames cannot hold these headers (IPv4/TCP with VLAN tags needs at least 62 bytes)");
	o.spec.nvlans = 0;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), 0);
	o.spec.ipv6 = true;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--imix: its 60-byte frames cannot hold these headers (IPv6/TCP needs at least 74 bytes)");
	o.spec.l4 = XL_L4_UDP;
	assert_int_equal(xl_gen_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--imix: its 60-byte frames cannot hold these headers (IPv6/UDP needs at least 62 bytes)");
}

static void test_gen_create_refuses(void **state)
{
	struct xl_gen_opts o;
	struct capture ce;
	char *err;

	gen_defaults(&o);
	o.pcap_path = "/nonexistent.pcap";
	o.threads = 3;
	cap_start(&ce, STDERR_FILENO);
	errno = 0;
	assert_null(xl_gen__create(&o));
	assert_int_equal(errno, EINVAL);
	err = cap_end(&ce);
	assert_string_equal(err, "xdplab: --threads: '3' is out of range with --pcap (accepted: 1; an in-order replay is one thread)\n");
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xsk_rules),
		cmocka_unit_test(test_xsk_create_refuses),
		cmocka_unit_test(test_gen_rules),
		cmocka_unit_test(test_gen_create_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
