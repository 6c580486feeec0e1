// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_xsk_opts.c - AF_XDP option rules: ring sizes, UMEM chunk sizes and
 * the cross-option checks, in the library and through `xdplab xsk`'s own
 * parser (usage errors exit 2 before anything touches the system).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "xdplab/xsk.h"

static void test_ring_sizes(void **state)
{
	static const uint64_t bad[] = { 511, 1000, 0, 1ull << 30, 3, (1u << 16) + 1 };
	static const uint64_t good[] = { 1, 2, 64, 2048, 1u << 16 };
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		assert_int_equal(xl_xsk_check_ring_size("--rx-size", bad[i], msg, sizeof(msg)),
				 -EINVAL);
		assert_non_null(strstr(msg, "--rx-size"));
		assert_non_null(strstr(msg, "power of two"));
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(xl_xsk_check_ring_size("--rx-size", good[i], msg, sizeof(msg)), 0);
}

struct fs_case {
	uint64_t size;
	bool unaligned, hugepages;
	int ret;
	const char *rule; /* words the message must hold */
};

static void test_frame_sizes(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	const struct fs_case cases[] = {
		{ 1800, true, false, -EINVAL, "minimum" },
		{ 3000, false, false, -EINVAL, "power of two" },
		{ 3000, true, false, 0, NULL },
		{ 4001, true, false, -EINVAL, "odd" },
		{ 2049, true, false, -EINVAL, "odd" },
		{ 4000, true, false, page >= 4096 ? 0 : -EINVAL, NULL },
		{ 9728, false, false, -EINVAL, "power of two" },
		{ 9728, true, false, -EINVAL, "page size" },
		{ 9728, true, true, -EINVAL, "even with --hugepages" },
		{ 0, false, false, -EINVAL, "minimum" },
		{ 0, true, false, -EINVAL, "minimum" },
		{ 4096, false, false, 0, NULL },
		{ 2048, false, false, 0, NULL },
		{ 8192, false, false, page > 4096 ? 0 : -EINVAL, NULL },
		{ 131072, true, true, -EINVAL, "page size" },
		{ 8192, false, true, -EINVAL, "--frags" },
	};
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fs_case *c = &cases[i];

		msg[0] = '\0';
		assert_int_equal(xl_xsk_check_frame_size(c->size, c->unaligned, c->hugepages, msg,
							 sizeof(msg)), c->ret);
		if (c->rule) {
			if (!strstr(msg, c->rule))
				print_message("case %zu: '%s' lacks '%s'\n", i, msg, c->rule);
			assert_non_null(strstr(msg, c->rule));
		}
	}
}

static void test_config_check(void **state)
{
	struct xl_xsk_config c;
	char msg[256];

	xl_xsk_config_defaults(&c);
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);
	c.frames = 0;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--frames"));
	xl_xsk_config_defaults(&c);
	c.frames = XL_XSK_MAX_FRAMES;
	c.queues = 64;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "memory"));
	xl_xsk_config_defaults(&c);
	c.copy = XL_XSK_ZEROCOPY;
	c.mode = XL_MODE_SKB;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--zero-copy"));
	xl_xsk_config_defaults(&c);
	c.headroom = 4096 - 256 - 10;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--headroom"));
	xl_xsk_config_defaults(&c);
	c.fill_size = 1000;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--fill-size"));
	xl_xsk_config_defaults(&c);
	assert_int_equal(xl_xsk_frame_room(&c), 4096 - 256);
	/* --bursts: 1..max, above 1 only with a count, no overflow of the total. */
	xl_xsk_config_defaults(&c);
	assert_int_equal(c.bursts, 1);
	c.app = XL_XSK_TXPUSH;
	c.bursts = 0;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--bursts: 0 is out of range (accepted: 1..1000000)");
	c.bursts = 200;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--bursts: 200 bursts need --count N (a burst is --count frames; accepted: --count 1 or more)");
	c.count = 179;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), 0);
	c.count = UINT64_MAX / 2 / 200 + 1;
	assert_int_equal(xl_xsk_config_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--bursts: 200 bursts of --count"));
}

/* The fill-ring warning: its condition and its advice are one figure. */
static void test_fill_warning(void **state)
{
	struct xl_xsk_config c;
	char msg[512];

	xl_xsk_config_defaults(&c);
	/* The default rings (fill and RX 8192, TX and completion 2048): the
	 * frames the command gives unless told, rxdrop and l2fwd. */
	c.app = XL_XSK_RXDROP;
	assert_int_equal(xl_xsk_frames_needed(&c), 16384);
	c.app = XL_XSK_L2FWD;
	assert_int_equal(xl_xsk_frames_needed(&c), 20480);
	/* rxdrop: fill + RX. */
	c.app = XL_XSK_RXDROP;
	c.fill_size = c.rx_size = 2048;
	assert_int_equal(xl_xsk_frames_needed(&c), 4096);
	c.frames = 64;
	assert_true(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	assert_string_equal(msg, "only 64 frames per socket: the fill (2048) and RX (2048) rings can hold 4096, so the kernel may find the fill ring empty (rx_fill_ring_empty_descs); give --frames 4096 or more");
	c.frames = 4095;
	assert_true(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	c.frames = 4096; /* the advised figure: no warning */
	assert_false(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	c.frames = 64;
	c.starve_fill = true; /* starving it is the point */
	assert_false(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	/* l2fwd: fill + RX + TX + completion. */
	xl_xsk_config_defaults(&c);
	c.app = XL_XSK_L2FWD;
	c.fill_size = 4096;
	c.rx_size = 2048;
	c.tx_size = 512;
	assert_int_equal(xl_xsk_frames_needed(&c), 4096 + 2048 + 512 + 2048);
	c.frames = 4096;
	assert_true(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	assert_string_equal(msg, "only 4096 frames per socket: the fill (4096), RX (2048), TX (512) and completion (2048) rings can hold 8704, so the kernel may find the fill ring empty (rx_fill_ring_empty_descs); give --frames 8704 or more");
	c.frames = 8703;
	assert_true(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	c.frames = 8704;
	assert_false(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	/* --frames is per socket, also with a shared UMEM (each socket its share
	 * and its own fill and completion rings): the same figure. */
	c.queues = 4;
	c.shared_umem = true;
	assert_int_equal(xl_xsk_frames_needed(&c), 8704);
	assert_false(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
	/* txpush has no fill ring to keep full. */
	c.app = XL_XSK_TXPUSH;
	c.frames = 1;
	assert_int_equal(xl_xsk_frames_needed(&c), 0);
	assert_false(xl_xsk_fill_warning(&c, msg, sizeof(msg)));
}

static int run_xsk(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[8] = { "xsk", "rxdrop" };
	int argc = 2;

	if (a1)
		argv[argc++] = (char *)a1;
	if (a2)
		argv[argc++] = (char *)a2;
	if (a3)
		argv[argc++] = (char *)a3;
	if (a4)
		argv[argc++] = (char *)a4;
	argv[argc] = NULL;
	return cmd_xsk(argc, argv);
}

/* How each application waits unless told: rxdrop XDP_DRV spins only when
 * pinned to a CPU of its own; l2fwd and rxdrop XDP_SKB busy-poll. */
/* The RX and fill rings by placement: 2048 pinned (faster), 8192 not (waits for a CPU). */
static void test_rings_default(void **state)
{
	struct xl_xsk_config c;

	(void)state;
	xl_xsk_config_defaults(&c); /* not pinned: the same rings */
	assert_int_equal(c.rx_size, 8192);
	assert_int_equal(c.fill_size, 8192);
	assert_int_equal(c.tx_size, 2048);
	assert_int_equal(c.comp_size, 2048);
	c.app = XL_XSK_RXDROP;
	xl_xsk_config_rings_default(&c);
	assert_int_equal(c.rx_size, 8192);
	assert_int_equal(c.fill_size, 8192);
	assert_int_equal(xl_xsk_frames_needed(&c), 16384);
	c.first_cpu = 1;
	xl_xsk_config_rings_default(&c);
	assert_int_equal(c.rx_size, 2048);
	assert_int_equal(c.fill_size, 2048);
	assert_int_equal(xl_xsk_frames_needed(&c), 4096);
	c.app = XL_XSK_L2FWD;
	assert_int_equal(xl_xsk_frames_needed(&c), 8192);
	assert_int_equal(c.tx_size, 2048); /* TX and completion rings do not follow placement */
	assert_int_equal(c.comp_size, 2048);
}

static void test_wait_default(void **state)
{
	static const struct {
		enum xl_xsk_app_kind app;
		enum xl_xdp_mode mode;
		int cpu;
		bool poll, busy_poll;
	} cases[] = {
		{ XL_XSK_RXDROP, XL_MODE_NATIVE, -1, true, false },
		{ XL_XSK_RXDROP, XL_MODE_NATIVE, 1, false, false }, /* spin */
		{ XL_XSK_RXDROP, XL_MODE_NATIVE, 0, false, false },
		{ XL_XSK_RXDROP, XL_MODE_SKB, -1, false, true },
		{ XL_XSK_RXDROP, XL_MODE_SKB, 1, false, true },
		{ XL_XSK_L2FWD, XL_MODE_NATIVE, 1, false, true },
		{ XL_XSK_TXPUSH, XL_MODE_NATIVE, 1, true, false },
	};
	struct xl_xsk_config c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		xl_xsk_config_defaults(&c);
		c.app = cases[i].app;
		c.mode = cases[i].mode;
		c.first_cpu = cases[i].cpu;
		xl_xsk_config_wait_default(&c);
		assert_int_equal(c.poll, cases[i].poll);
		assert_int_equal(c.busy_poll, cases[i].busy_poll);
	}
}

/* Bad inputs never reach the kernel: exit status 2 at parse time. */
static void test_cmd_usage(void **state)
{
	assert_int_equal(run_xsk("--rx-size", "511", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--tx-size", "1000", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--fill-size", "0", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--comp-size", "1073741824", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--frame-size", "3000", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--frames", "0", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--copy", "--zero-copy", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--zero-copy", "--mode", "skb", "lo"), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--count", "5", "lo", NULL), XL_EXIT_USAGE); /* txpush only */
	assert_int_equal(run_xsk("--bursts", "2", "lo", NULL), XL_EXIT_USAGE); /* txpush only */
	assert_int_equal(run_xsk("--bursts", "0", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--batch", "0", "lo", NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("--rx-siz", "2048", "lo", NULL), XL_EXIT_USAGE); /* no abbreviations */
	assert_int_equal(run_xsk("lo", "extra", NULL, NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk(NULL, NULL, NULL, NULL), XL_EXIT_USAGE);
	assert_int_equal(run_xsk("no-such-iface-x", NULL, NULL, NULL), XL_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_sizes),
		cmocka_unit_test(test_frame_sizes),
		cmocka_unit_test(test_config_check),
		cmocka_unit_test(test_fill_warning),
		cmocka_unit_test(test_rings_default),
		cmocka_unit_test(test_wait_default),
		cmocka_unit_test(test_cmd_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
