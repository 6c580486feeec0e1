// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_xsk_frames.c - the AF_XDP frame allocator and hot path on fake rings
 * in plain memory: a tiny "kernel" (xsk_rig.h) moves frames from the fill
 * ring to the RX ring and from the TX ring to the completion ring, as the
 * real one does, so the ledger, wrap-around of the 32-bit ring indexes,
 * full rings, partial peeks and rollback can be checked exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xsk_priv.h"

#include "xsk_rig.h"

static void test_init_audit(void **state)
{
	struct rig *r = rig_new(16, 8, 8, 0, true);

	assert_int_equal(r->q.frames.n_free, 16);
	assert_audit(r);
	/* The lowest addresses go out first. */
	assert_int_equal(xl_xsk_refill(&r->q, 3), 3);
	assert_int_equal(r->fill_m.addr[0], 0);
	assert_int_equal(r->fill_m.addr[1], FS);
	assert_int_equal(r->fill_m.addr[2], 2 * FS);
	assert_int_equal(r->q.frames.in_fill, 3);
	assert_audit(r);
	rig_free(r);
}

static void test_refill_full_ring(void **state)
{
	struct rig *r = rig_new(32, 8, 8, 0, true);

	/* The ring has 8 slots: never more, however many frames are free. */
	assert_int_equal(xl_xsk_refill(&r->q, 32), 8);
	assert_int_equal(xl_xsk_refill(&r->q, 32), 0);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 8);
	assert_int_equal(r->q.frames.n_free, 24);
	assert_int_equal(r->fill.cached_prod, r->fill_m.prod); /* nothing reserved and left */
	assert_audit(r);
	/* The kernel takes 3: exactly 3 more go in. */
	assert_int_equal(kernel_rx(r, 3, 60), 3);
	assert_int_equal(xl_xsk_refill(&r->q, 32), 3);
	assert_audit(r);
	rig_free(r);
}

/* rxdrop across the 2^32 wrap of every ring index: exact counts, audit. */
static void test_rxdrop_wraparound(void **state)
{
	struct rig *r = rig_new(64, 32, 32, 0xfffffff0u, true);
	uint64_t total = 0;
	int i;

	xl_xsk_refill(&r->q, 32);
	for (i = 0; i < 1000; i++) {
		total += kernel_rx(r, 1 + i % 37, 60);
		xl_xsk_rxdrop_step(&r->q);
		assert_audit(r);
	}
	/* Drain what is left in the RX ring. */
	while (xl_xsk_rxdrop_step(&r->q))
		;
	assert_true(r->rx_m.prod < 0xfffffff0u); /* really wrapped */
	assert_int_equal(r->q.c.rx_packets, total);
	assert_int_equal(r->q.c.rx_bytes, total * 60);
	assert_int_equal(r->q.c.bad_descs, 0);
	assert_int_equal(r->q.frames.violations, 0);
	assert_audit(r);
	rig_free(r);
}

/* A peek returns what is there (5), not the batch (64). */
static void test_partial_peek(void **state)
{
	struct rig *r = rig_new(64, 64, 64, 7, true);

	xl_xsk_refill(&r->q, 64);
	assert_int_equal(kernel_rx(r, 5, 100), 5);
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 5);
	assert_int_equal(r->q.c.rx_packets, 5);
	assert_int_equal(r->rx_m.cons, r->rx_m.prod);
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 0);
	assert_audit(r);
	rig_free(r);
}

/* TX ring smaller than the batch: l2fwd sends what fits and cancels the
 * rest of the peek, which is sent later; nothing is stranded or lost. */
static void test_l2fwd_small_tx_ring(void **state)
{
	struct rig *r = rig_new(128, 64, 4, 0xffffffe0u, true);
	uint64_t in = 0;
	int i;

	r->q.batch = 16;
	xl_xsk_refill(&r->q, 64);
	for (i = 0; i < 500; i++) {
		in += kernel_rx(r, 16, 64);
		xl_xsk_l2fwd_step(&r->q, 0);
		kernel_tx(r, 2 + i % 3);
		assert_audit(r);
		/* The consumer never runs ahead of what was forwarded. */
		assert_int_equal(r->q.rx.cached_cons, r->rx_m.cons);
	}
	for (i = 0; i < 10000 && (r->rx_m.prod != r->rx_m.cons || r->q.frames.in_tx); i++) {
		xl_xsk_l2fwd_step(&r->q, 0);
		kernel_tx(r, 4);
		xl_xsk_reap(&r->q, 64);
	}
	assert_true(r->q.c.tx_short > 0);
	assert_int_equal(r->q.c.tx_submitted, in);
	assert_int_equal(r->q.c.tx_packets, in);
	assert_int_equal(r->q.c.rx_packets, in);
	assert_int_equal(r->q.frames.in_tx, 0);
	assert_int_equal(r->q.frames.violations, 0);
	assert_audit(r);
	rig_free(r);
}

/* No TX room at all: the whole peek is rolled back, nothing consumed. */
static void test_l2fwd_rollback(void **state)
{
	struct rig *r = rig_new(64, 32, 4, 0, true);
	uint32_t cons;

	xl_xsk_refill(&r->q, 32);
	/* Fill the TX ring: 4 forwarded, the kernel sends none. */
	kernel_rx(r, 4, 64);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 4);
	kernel_rx(r, 8, 64);
	cons = r->rx_m.cons;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 0);
	assert_int_equal(r->rx_m.cons, cons);
	assert_int_equal(r->q.rx.cached_cons, cons);
	assert_int_equal(r->q.frames.in_app, 0);
	assert_audit(r);
	/* Room again: the same 8 descriptors go out, MACs swapped once. */
	kernel_tx(r, 4);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 4);
	kernel_tx(r, 4);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 4);
	assert_int_equal(r->q.c.rx_packets, 12);
	assert_audit(r);
	rig_free(r);
}

/* Multi-buffer: a cut never splits a frame's descriptors. */
static void test_l2fwd_frags_whole_frames(void **state)
{
	struct rig *r = rig_new(64, 32, 4, 0, true);
	uint32_t i;

	xl_xsk_refill(&r->q, 32);
	kernel_rx(r, 6, 100);
	/* Frames: [0 1 2] [3 4] [5]: descriptors 0, 1 and 3 continue. */
	r->rx_m.desc[0].options = XDP_PKT_CONTD;
	r->rx_m.desc[1].options = XDP_PKT_CONTD;
	r->rx_m.desc[3].options = XDP_PKT_CONTD;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 3); /* 4 fit; frame [3 4] would be cut */
	assert_int_equal(r->q.c.rx_packets, 1);
	for (i = 0; i < 3; i++)
		assert_int_equal(r->tx_m.desc[i].options, i < 2 ? XDP_PKT_CONTD : 0);
	kernel_tx(r, 4);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 3);
	assert_int_equal(r->q.c.rx_packets, 3);
	assert_audit(r);
	rig_free(r);
}

/* Short batches: reserve exactly what is submitted (179 = 64 + 64 + 51),
 * 200 times: exactly 35800 descriptors, the ring never leaks a slot. */
static void test_txpush_short_batches(void **state)
{
	struct rig *r = rig_new(256, 256, 256, 0xffffff00u, true);
	int round;

	r->q.pkt_len = 60;
	for (round = 0; round < 200; round++) {
		r->q.budget = 179;
		while (r->q.budget) {
			xl_xsk_txpush_step(&r->q, 0);
			assert_int_equal(r->q.tx.cached_prod, r->tx_m.prod);
			kernel_tx(r, 1000);
		}
		while (r->q.frames.in_tx) {
			kernel_tx(r, 1000);
			xl_xsk_reap(&r->q, 1000);
		}
		assert_audit(r);
	}
	assert_int_equal(r->q.c.tx_submitted, 35800);
	assert_int_equal(r->q.c.tx_packets, 35800);
	assert_int_equal(r->q.c.tx_batches, 600);
	assert_int_equal(r->tx_m.prod - 0xffffff00u, 35800);
	assert_int_equal(r->q.frames.n_free, 256);
	rig_free(r);
}

/* Rate pacing through the pacer (xdplab/pace.h): never more than due, the
 * wait until the next frame, the batch bound. */
static void test_txpush_rate(void **state)
{
	struct rig *r = rig_new(256, 256, 256, 0, false);

	r->q.pkt_len = 60;
	r->q.rate_pps = 1000;
	xl_pace_init(&r->q.pace, 1000, 0);
	assert_int_equal(xl_xsk_txpush_step(&r->q, 0), 0);
	assert_int_equal(r->q.pace_wait_ns, 1000000); /* frame 1 at 1 ms */
	assert_int_equal(xl_xsk_txpush_step(&r->q, 5000000), 5); /* 5 ms: 5 due */
	assert_int_equal(r->q.pace_wait_ns, 0);
	assert_int_equal(xl_xsk_txpush_step(&r->q, 5500000), 0);
	assert_int_equal(r->q.pace_wait_ns, 500000);
	assert_int_equal(r->q.pace.stalls, 0);
	rig_free(r);
	r = rig_new(256, 256, 256, 0, false);
	r->q.pkt_len = 60;
	r->q.rate_pps = 1000000; /* depth 1,000: the batch bounds */
	xl_pace_init(&r->q.pace, 1000000, 0);
	assert_int_equal(xl_xsk_txpush_step(&r->q, 1000000), 64);
	assert_int_equal(r->q.pace.stalls, 0);
	rig_free(r);
}

/*
 * The catch-up after a stall is capped (before, the whole missed schedule
 * went at once): txpush --rate 20000 --count 20000 on a fake clock in
 * 10 us steps, the kernel completing every step's frames, the thread away
 * for 200 ms at 300 ms. All 20,000 are sent; no 10 ms of the clock holds
 * more than its 200 frames plus the depth (20); 4,000 frames were owed
 * after the stall, 20 went, 3,980 frames' worth skipped, so the run ends
 * 199 ms after the schedule's 1 s. Without the cap: 4,000 in 0.7 ms.
 */
static void test_txpush_stall_capped(void **state)
{
	struct rig *r = rig_new(256, 256, 256, 0, false);
	struct xl_pace_stats st = { 0 };
	uint64_t now = 0, bucket = 0, in_bucket = 0, most = 0, before;

	r->q.pkt_len = 60;
	r->q.rate_pps = 20000;
	r->q.budget = 20000;
	xl_pace_init(&r->q.pace, 20000, 0);
	while (r->q.budget && now < 5000000000ull) {
		now += now == 300000000ull ? 200000000ull : 10000;
		if (now / 10000000 != bucket) {
			bucket = now / 10000000;
			in_bucket = 0;
		}
		before = r->q.c.tx_submitted;
		xl_xsk_txpush_step(&r->q, now);
		in_bucket += r->q.c.tx_submitted - before;
		if (in_bucket > most)
			most = in_bucket;
		kernel_tx(r, 1000);
	}
	assert_int_equal(r->q.c.tx_submitted, 20000);
	assert_in_range(most, 200, 220);
	assert_int_equal(r->q.pace.stalls, 1);
	assert_int_equal(r->q.pace.skipped, 3980);
	assert_int_equal(r->q.pace.max_due, 20);
	assert_int_equal(now, 1199000000ull);
	xl_pace_add(&r->q.pace, &st);
	assert_int_equal(st.skipped, 3980);
	/* Waiting for the last completions with no budget left is no stall. */
	xl_xsk_txpush_step(&r->q, now + 100000000ull);
	assert_int_equal(r->q.pace.stalls, 1);
	rig_free(r);
}

static void test_desc_ok(void **state)
{
	struct xl_frames f;

	assert_int_equal(xl_frames_init(&f, 0, 4, FS, 4 * FS, false, false), 0);
	assert_true(xl_frames_desc_ok(&f, 256, 60));
	assert_true(xl_frames_desc_ok(&f, 3 * FS, FS));
	assert_false(xl_frames_desc_ok(&f, 3 * FS + 1, FS));  /* crosses the chunk */
	assert_false(xl_frames_desc_ok(&f, 4 * FS, 60));      /* past the UMEM */
	assert_false(xl_frames_desc_ok(&f, UINT64_MAX - 10, 60));
	xl_frames_fini(&f);
	/* Unaligned: offset in the top 16 bits, bases at multiples of 3000. */
	assert_int_equal(xl_frames_init(&f, 0, 4, 3000, 12000, true, false), 0);
	assert_true(xl_frames_desc_ok(&f, 3000 | (256ull << 48), 1500));
	assert_false(xl_frames_desc_ok(&f, 3000 | (2000ull << 48), 1500)); /* past the chunk */
	assert_false(xl_frames_desc_ok(&f, 3001 | (256ull << 48), 60));     /* not a base */
	assert_int_equal(xl_frame_base(&f, 6000 | (300ull << 48)), 6000);
	xl_frames_fini(&f);
}

static void test_audit_catches_corruption(void **state)
{
	struct rig *r = rig_new(8, 8, 8, 0, true);
	char buf[512];
	uint64_t bogus = 5 * FS;

	/* A frame on the free list twice. */
	r->q.frames.free[0] = r->q.frames.free[1];
	assert_int_equal(xl_frames_audit_text(&r->q.frames, 0, 0, 0, 0, buf, sizeof(buf)),
			 -EUCLEAN);
	rig_free(r);
	/* A completion for a frame that was never sent. */
	r = rig_new(8, 8, 8, 0, true);
	xl_frames_move(&r->q.frames, &bogus, 1, XL_FRAME_TX, XL_FRAME_FREE);
	assert_int_equal(r->q.frames.violations, 1);
	assert_int_equal(xl_frames_audit_text(&r->q.frames, UINT32_MAX, 0, 0, 0, buf, sizeof(buf)),
			 -EUCLEAN);
	rig_free(r);
	/* Ledger off by one. */
	r = rig_new(8, 8, 8, 0, false);
	r->q.frames.in_app = 1;
	assert_int_equal(xl_frames_audit_text(&r->q.frames, UINT32_MAX, 0, 0, 0, buf, sizeof(buf)),
			 -EUCLEAN);
	rig_free(r);
}

/* Starved fill ring: no refill, the kernel finds it empty. */
static void test_starve_fill(void **state)
{
	struct rig *r = rig_new(8, 8, 8, 0, true);

	r->q.starve_fill = true;
	assert_int_equal(xl_xsk_refill(&r->q, 8), 0);
	assert_int_equal(kernel_rx(r, 4, 60), 0);
	assert_audit(r);
	rig_free(r);
}

/* l2fwd never sends a descriptor outside the UMEM: dropped and counted. */
static void test_l2fwd_bad_desc_not_sent(void **state)
{
	struct rig *r = rig_new(64, 32, 32, 0, false);
	struct xdp_desc *d;

	xl_xsk_refill(&r->q, 32);
	assert_int_equal(kernel_rx(r, 3, 60), 3);
	d = &r->rx_m.desc[r->rx_m.cons & (r->q.rx.size - 1)];
	d->addr = (uint64_t)r->nframes * 4096 * 4; /* far past the UMEM */
	/* The bad one goes alone, then the two good ones are forwarded. */
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 1);
	assert_int_equal(r->q.c.bad_descs, 1);
	assert_int_equal(r->tx_m.prod - r->tx_m.cons, 0);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 2);
	assert_int_equal(r->tx_m.prod - r->tx_m.cons, 2);
	assert_int_equal(r->q.c.bad_descs, 1);
	rig_free(r);
}

/* A bad descriptor in mid-batch: the plain loop (check folded in) gives
 * up and undoes its MAC swaps, the checked path sends the two before it;
 * every frame sent has its MACs swapped exactly once. */
static void test_l2fwd_bad_desc_mid_batch(void **state)
{
	struct rig *r = rig_new(64, 32, 32, 0, false);
	uint32_t i, sent = 0;

	xl_xsk_refill(&r->q, 32);
	assert_int_equal(kernel_rx(r, 4, 60), 4);
	for (i = 0; i < 4; i++) {
		uint8_t *p = r->area + r->rx_m.desc[i].addr;

		memset(p, 0x01, 6);
		memset(p + 6, 0x02, 6);
	}
	r->rx_m.desc[2].addr = (uint64_t)r->nframes * FS * 4; /* far past the UMEM */
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 2);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 1); /* the bad one, alone */
	assert_int_equal(r->q.c.bad_descs, 1);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 1);
	assert_int_equal(r->tx_m.prod - r->tx_m.cons, 3);
	for (i = 0; i < 4; i++) {
		uint8_t *p = r->area + r->rx_m.desc[i].addr;

		if (i == 2)
			continue;
		assert_int_equal(p[0], 0x02);
		assert_int_equal(p[5], 0x02);
		assert_int_equal(p[6], 0x01);
		assert_int_equal(p[11], 0x01);
		sent++;
	}
	assert_int_equal(sent, 3);
	assert_int_equal(r->q.c.rx_packets, 3);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_audit),
		cmocka_unit_test(test_refill_full_ring),
		cmocka_unit_test(test_rxdrop_wraparound),
		cmocka_unit_test(test_l2fwd_bad_desc_not_sent),
		cmocka_unit_test(test_l2fwd_bad_desc_mid_batch),
		cmocka_unit_test(test_partial_peek),
		cmocka_unit_test(test_l2fwd_small_tx_ring),
		cmocka_unit_test(test_l2fwd_rollback),
		cmocka_unit_test(test_l2fwd_frags_whole_frames),
		cmocka_unit_test(test_txpush_short_batches),
		cmocka_unit_test(test_txpush_rate),
		cmocka_unit_test(test_txpush_stall_capped),
		cmocka_unit_test(test_desc_ok),
		cmocka_unit_test(test_audit_catches_corruption),
		cmocka_unit_test(test_starve_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
