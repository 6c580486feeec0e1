// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_xsk_range.c - the AF_XDP hot path's inline descriptor check
 * (xl_frames_in_range(): no division) against the deep check
 * (xl_frames_desc_ok(), --audit), at the edges of a frame, of the span and
 * of the UMEM, aligned and unaligned; and rxdrop's recycling of RX frames
 * straight into the fill ring, with the loop chosen once at set-up; the
 * branch-free completion path of txpush's reap and of l2fwd's recycling
 * into the fill ring, and their fall-back on a bad address.
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

#define OFF(o) ((uint64_t)(o) << XSK_UNALIGNED_BUF_OFFSET_SHIFT)

/* Aligned, 4 frames of 2048 from 0: every edge of a frame and of the UMEM. */
static void test_range_aligned_edges(void **state)
{
	struct xl_frames f;

	assert_int_equal(xl_frames_init(&f, 0, 4, FS, 4 * FS, false, false), 0);
	assert_int_equal(f.span, 4 * FS);
	assert_true(xl_frames_in_range(&f, 0, FS));            /* a whole first frame */
	assert_true(xl_frames_in_range(&f, 3 * FS, FS));       /* a whole last frame */
	assert_true(xl_frames_in_range(&f, 4 * FS - 1, 1));    /* the last byte */
	assert_true(xl_frames_in_range(&f, 4 * FS - 1, 0));
	assert_false(xl_frames_in_range(&f, 4 * FS - 1, 2));   /* one byte past the UMEM */
	assert_false(xl_frames_in_range(&f, 4 * FS, 0));       /* the first address past it */
	assert_false(xl_frames_in_range(&f, FS - 1, 2));       /* crosses into the next frame */
	assert_true(xl_frames_in_range(&f, FS + 256, FS - 256));
	assert_false(xl_frames_in_range(&f, FS + 256, FS - 255));
	assert_false(xl_frames_in_range(&f, UINT64_MAX, 0));
	assert_false(xl_frames_in_range(&f, UINT64_MAX - 10, 60));
	assert_false(xl_frames_in_range(&f, 256, UINT32_MAX)); /* no wrap of off + len */
	xl_frames_fini(&f);
}

/* A socket's share of a shared UMEM (frames 4..7 of 8) and a UMEM smaller
 * than the frames: the span starts at @first and is clipped to the UMEM. */
static void test_range_shared_and_clipped(void **state)
{
	struct xl_frames f;

	assert_int_equal(xl_frames_init(&f, 4 * FS, 4, FS, 8 * FS, false, false), 0);
	assert_false(xl_frames_in_range(&f, 4 * FS - 1, 1)); /* the other socket's last byte */
	assert_false(xl_frames_in_range(&f, 0, 60));
	assert_true(xl_frames_in_range(&f, 4 * FS, 60));
	assert_true(xl_frames_in_range(&f, 7 * FS + 256, 60));
	assert_false(xl_frames_in_range(&f, 8 * FS, 0));
	xl_frames_fini(&f);
	/* 4 frames claimed, the UMEM has 2.5: only frames 0 and 1 and half of 2. */
	assert_int_equal(xl_frames_init(&f, 0, 4, FS, 2 * FS + FS / 2, false, false), 0);
	assert_int_equal(f.span, 2 * FS + FS / 2);
	assert_true(xl_frames_in_range(&f, FS, FS));
	assert_true(xl_frames_in_range(&f, 2 * FS, FS / 2));
	assert_false(xl_frames_in_range(&f, 2 * FS, FS / 2 + 1));
	assert_false(xl_frames_in_range(&f, 3 * FS, 60));
	xl_frames_fini(&f);
	/* @first past the end of the UMEM: nothing is ours. */
	assert_int_equal(xl_frames_init(&f, 8 * FS, 4, FS, 4 * FS, false, false), 0);
	assert_int_equal(f.span, 0);
	assert_false(xl_frames_in_range(&f, 8 * FS, 0));
	xl_frames_fini(&f);
}

/* Unaligned, frames of 3000 bytes (not a power of two) from 6000: the
 * offset rides in bits 48..63; a base between two frame starts passes the
 * inline check and only the deep check refuses it. */
static void test_range_unaligned(void **state)
{
	struct xl_frames f;

	assert_int_equal(xl_frames_init(&f, 6000, 4, 3000, 18000, true, false), 0);
	assert_int_equal(f.span, 12000);
	assert_int_equal(f.chunk_mask, 0);
	assert_true(xl_frames_in_range(&f, 6000 | OFF(256), 1500));
	assert_true(xl_frames_in_range(&f, 15000 | OFF(0), 3000));     /* the whole last frame */
	assert_false(xl_frames_in_range(&f, 15000 | OFF(1), 3000));    /* past the frame */
	assert_false(xl_frames_in_range(&f, 6000 | OFF(2000), 1001));  /* past the chunk */
	assert_true(xl_frames_in_range(&f, 6000 | OFF(2000), 1000));
	assert_false(xl_frames_in_range(&f, 5999 | OFF(256), 60));     /* below @first */
	assert_false(xl_frames_in_range(&f, 18000 | OFF(0), 0));       /* past the span */
	assert_false(xl_frames_in_range(&f, 17999 | OFF(0), 2));
	assert_false(xl_frames_in_range(&f, 6000 | OFF(0xffff), 60));  /* the largest offset */
	/* Not a frame start: in range, but the deep check refuses it. */
	assert_true(xl_frames_in_range(&f, 6001 | OFF(256), 60));
	assert_false(xl_frames_desc_ok(&f, 6001 | OFF(256), 60));
	assert_true(xl_frames_desc_ok(&f, 9000 | OFF(256), 60));
	assert_int_equal(xl_frame_base(&f, 9000 | OFF(300)), 9000);
	xl_frames_fini(&f);
}

/* Over a grid of addresses and lengths: the deep check implies the inline
 * one, and in aligned mode the two agree exactly. */
static void test_range_agrees_with_deep_check(void **state)
{
	static const uint32_t lens[] = { 0, 1, 59, 60, 1500, FS - 256, FS - 1, FS, FS + 1 };
	struct xl_frames a, u;
	uint64_t addr;
	unsigned int i;

	assert_int_equal(xl_frames_init(&a, 2 * FS, 6, FS, 7 * FS + 100, false, false), 0);
	assert_int_equal(xl_frames_init(&u, 2 * FS, 6, FS, 7 * FS + 100, true, false), 0);
	for (addr = 0; addr < 9 * FS; addr += 97)
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			uint64_t ua = (addr & ~(uint64_t)(FS - 1)) | OFF(addr & (FS - 1));

			assert_int_equal(xl_frames_in_range(&a, addr, lens[i]),
					 xl_frames_desc_ok(&a, addr, lens[i]));
			if (xl_frames_desc_ok(&u, ua, lens[i]))
				assert_true(xl_frames_in_range(&u, ua, lens[i]));
		}
	xl_frames_fini(&a);
	xl_frames_fini(&u);
}

/* The plain loop puts every RX frame straight back into the fill ring, in
 * order, and leaves the free list alone; the ledger holds. */
static void test_rxdrop_recycles_into_fill(void **state)
{
	struct rig *r = rig_new(64, 32, 32, 0xfffffff8u, false);
	uint32_t i, start;
	uint64_t want[20];

	assert_int_equal(xl_xsk_refill(&r->q, 64), 32);
	assert_int_equal(r->q.frames.n_free, 32);
	start = r->rx_m.prod;
	assert_int_equal(kernel_rx(r, 20, 60), 20);
	for (i = 0; i < 20; i++)
		want[i] = r->rx_m.desc[(start + i) & 31].addr - XL_XSK_KERNEL_HEADROOM;
	start = r->fill_m.prod;
	assert_int_equal(xl_xsk_rxdrop_fast(&r->q), 20);
	assert_int_equal(r->q.frames.n_free, 32); /* not through the free list */
	assert_int_equal(r->fill_m.prod - start, 20);
	for (i = 0; i < 20; i++)
		assert_int_equal(r->fill_m.addr[(start + i) & 31], want[i]);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 32);
	assert_int_equal(r->fill.cached_prod, r->fill_m.prod);
	assert_int_equal(r->q.c.rx_packets, 20);
	assert_int_equal(r->q.c.rx_bytes, 20 * 60);
	assert_audit(r);
	rig_free(r);
}

/* A bad descriptor in the middle of a batch: counted, its frame not put
 * into the fill ring, the reserved slot handed back (nothing leaked). */
static void test_rxdrop_fast_bad_desc(void **state)
{
	struct rig *r = rig_new(64, 32, 32, 0, false);
	uint32_t start;

	xl_xsk_refill(&r->q, 32);
	assert_int_equal(kernel_rx(r, 3, 60), 3);
	r->rx_m.desc[1].addr = (uint64_t)r->nframes * FS + 256; /* past the UMEM */
	start = r->fill_m.prod;
	assert_int_equal(xl_xsk_rxdrop_fast(&r->q), 3);
	assert_int_equal(r->q.c.bad_descs, 1);
	assert_int_equal(r->q.c.rx_packets, 2);
	/* Frames 0 and 2 recycled, then the free list tops the ring up
	 * with its lowest frame (32) for the slot the lost one left. */
	assert_int_equal(r->fill_m.prod - start, 3);
	assert_int_equal(r->fill_m.addr[start & 31], 0);
	assert_int_equal(r->fill_m.addr[(start + 1) & 31], 2 * FS);
	assert_int_equal(r->fill_m.addr[(start + 2) & 31], 32 * FS);
	assert_int_equal(r->fill.cached_prod, r->fill_m.prod);
	assert_int_equal(r->q.frames.in_fill, 32); /* 32 - the lost one + 1 */
	assert_int_equal(r->q.frames.n_free, 31);
	rig_free(r);
}

/* txpush's reap through the branch-free path, ring indexes wrapping at
 * 2^32: a completion outside the UMEM in mid-batch sends the batch entry
 * by entry, which places the 7 good frames and counts the bad one. */
static void test_reap_bad_completion(void **state)
{
	struct rig *r = rig_new(16, 8, 8, UINT32_MAX - 3, false);
	uint32_t i;

	r->q.pkt_len = 60;
	r->q.budget = 16;
	assert_int_equal(xl_xsk_txpush_step(&r->q, 0), 8);
	assert_int_equal(kernel_tx(r, 8), 8);
	assert_int_equal(xl_xsk_reap(&r->q, 64), 8); /* all good: the fast path */
	assert_int_equal(r->q.frames.n_free, 16);
	assert_int_equal(r->q.frames.violations, 0);
	assert_int_equal(xl_xsk_txpush_step(&r->q, 0), 8);
	assert_int_equal(kernel_tx(r, 8), 8);
	r->comp_m.addr[(r->comp_m.cons + 5) & 7] = 100 * FS + 256;
	assert_int_equal(xl_xsk_reap(&r->q, 64), 8);
	assert_int_equal(r->q.frames.violations, 1);
	assert_int_equal(r->q.frames.in_tx, 0);
	assert_int_equal(r->q.frames.n_free, 15);
	for (i = 0; i < 15; i++)
		assert_true(r->q.frames.free[i] < 16 * FS && !(r->q.frames.free[i] % FS));
	assert_int_equal(r->comp.cached_cons, r->comp_m.cons);
	rig_free(r);
}

/* l2fwd puts its completions straight back into the fill ring (the free
 * list untouched), the bases without the RX offset; a bad completion
 * sends the batch through the free list, the fill reservation undone. */
static void test_l2fwd_recycles_into_fill(void **state)
{
	struct rig *r = rig_new(16, 8, 8, UINT32_MAX - 5, false);
	uint64_t sent[8];
	uint32_t i;

	r->q.busy_poll = false;
	assert_int_equal(xl_xsk_refill(&r->q, 8), 8);
	assert_int_equal(kernel_rx(r, 8, 60), 8);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 8); /* refills 8 from the free list */
	assert_int_equal(r->q.frames.n_free, 0);
	for (i = 0; i < 8; i++)
		sent[i] = r->tx_m.desc[(r->tx_m.cons + i) & 7].addr;
	assert_int_equal(kernel_tx(r, 8), 8);
	assert_int_equal(kernel_rx(r, 8, 60), 8); /* the fill ring is empty again */
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 8);
	assert_int_equal(r->q.c.tx_packets, 8);
	assert_int_equal(r->q.frames.n_free, 0);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(r->fill_m.addr[(r->fill_m.cons + i) & 7],
				 sent[i] - XL_XSK_KERNEL_HEADROOM);
	assert_int_equal(r->q.frames.in_fill, 8);
	assert_int_equal(r->q.frames.in_tx, 8);
	assert_int_equal(r->q.frames.violations, 0);
	assert_audit(r);
	/* A completion outside the UMEM: entry by entry through the free list. */
	assert_int_equal(kernel_tx(r, 8), 8);
	assert_int_equal(kernel_rx(r, 8, 60), 8);
	r->comp_m.addr[(r->comp_m.cons + 2) & 7] = 100 * FS;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 8);
	assert_int_equal(r->q.frames.violations, 1);
	assert_int_equal(r->q.c.tx_packets, 16);
	assert_int_equal(r->fill.cached_prod, r->fill_m.prod);
	assert_int_equal(r->q.frames.n_free + r->q.frames.in_fill + r->q.frames.in_tx, 15);
	rig_free(r);
}

/* The fill ring has no room for the batch (the free list filled it while
 * the kernel held frames): the frames go through the free list instead. */
static void test_rxdrop_fast_falls_back(void **state)
{
	struct rig *r = rig_new(32, 8, 8, 0, true);

	assert_int_equal(xl_xsk_refill(&r->q, 8), 8);
	assert_int_equal(kernel_rx(r, 8, 60), 8);
	assert_int_equal(xl_xsk_refill(&r->q, 8), 8); /* the ring is full again */
	assert_int_equal(r->q.frames.n_free, 16);
	assert_int_equal(xl_xsk_rxdrop_checked(&r->q), 8);
	assert_int_equal(r->q.frames.n_free, 24);
	assert_int_equal(r->q.c.rx_packets, 8);
	assert_int_equal(r->q.frames.violations, 0);
	assert_audit(r);
	rig_free(r);
}

/* Unaligned frames of 3000 bytes: the fill ring gets back the bases
 * exactly (offset bits stripped), the tracked states stay "fill". */
static void test_rxdrop_recycles_unaligned(void **state)
{
	struct rig *r = rig_new(8, 8, 8, 0, false);
	uint32_t i;

	xl_frames_fini(&r->q.frames);
	assert_int_equal(xl_frames_init(&r->q.frames, 0, 4, 3000, 12000, true, true), 0);
	assert_int_equal(xl_xsk_refill(&r->q, 4), 4);
	for (i = 0; i < 4; i++) {
		r->rx_m.desc[i].addr = r->fill_m.addr[i] | OFF(256);
		r->rx_m.desc[i].len = 60;
		r->rx_m.desc[i].options = 0;
	}
	r->fill_m.cons = 4;
	r->rx_m.prod = 4;
	assert_true(xl_xsk_rxdrop_loop(&r->q) == xl_xsk_rxdrop_checked); /* tracking */
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(r->fill_m.addr[(4 + i) & 7], i * 3000);
	assert_int_equal(r->q.c.bad_descs, 0);
	assert_int_equal(r->q.frames.violations, 0);
	assert_audit(r);
	/* A base between two frame starts: the deep check (tracking) refuses it. */
	r->rx_m.desc[4].addr = 3001 | OFF(256);
	r->rx_m.desc[4].len = 60;
	r->fill_m.cons = 5;
	r->rx_m.prod = 5;
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 1);
	assert_int_equal(r->q.c.bad_descs, 1);
	rig_free(r);
}

/* The loop is chosen once, by what was asked for. */
static void test_rxdrop_loop_choice(void **state)
{
	struct rig *r = rig_new(8, 8, 8, 0, false);

	assert_true(xl_xsk_rxdrop_loop(&r->q) == xl_xsk_rxdrop_fast);
	r->q.verify = true;
	assert_true(xl_xsk_rxdrop_loop(&r->q) == xl_xsk_rxdrop_checked);
	r->q.verify = false;
	r->q.dump = (struct xl_xsk_dump *)r; /* only compared, never used */
	assert_true(xl_xsk_rxdrop_loop(&r->q) == xl_xsk_rxdrop_checked);
	r->q.dump = NULL;
	rig_free(r);
	r = rig_new(8, 8, 8, 0, true); /* --audit */
	assert_true(xl_xsk_rxdrop_loop(&r->q) == xl_xsk_rxdrop_checked);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_aligned_edges),
		cmocka_unit_test(test_range_shared_and_clipped),
		cmocka_unit_test(test_range_unaligned),
		cmocka_unit_test(test_range_agrees_with_deep_check),
		cmocka_unit_test(test_rxdrop_recycles_into_fill),
		cmocka_unit_test(test_rxdrop_fast_bad_desc),
		cmocka_unit_test(test_rxdrop_fast_falls_back),
		cmocka_unit_test(test_rxdrop_recycles_unaligned),
		cmocka_unit_test(test_rxdrop_loop_choice),
		cmocka_unit_test(test_reap_bad_completion),
		cmocka_unit_test(test_l2fwd_recycles_into_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
