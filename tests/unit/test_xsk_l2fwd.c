// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_xsk_l2fwd.c - l2fwd's plain loop (forward_plain(): the descriptor
 * check folded into the forwarding loop, every frame swapped, a packet per
 * descriptor) against the checked path's rules, on the unit tests' fake
 * rings: random batches of good and bad descriptors on a socket's share of
 * a shared UMEM forward exactly what xl_frames_in_range() passes, each
 * frame of at least 12 bytes swapped exactly once and nothing else
 * touched; a continued frame (XDP_PKT_CONTD) sends the batch down the
 * checked path, whether or not the socket was bound with XDP_USE_SG;
 * completions recycled into a fill ring with room for part of them (and a
 * completion outside the UMEM in either part), and the free list's top-up
 * leaving the fill ring 1/64 of slack.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "xsk_priv.h"

#include "xsk_rig.h"

#define NFRAMES 64u  /* the UMEM's frames; the socket owns 16..47 */
#define OWN_FIRST 16u
#define OWN_N 32u
#define BEYOND 16u   /* frame numbers past the UMEM that descriptors may name */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

#define SENTINEL 0x5a /* every byte of a marked frame but its MACs */

/* The MACs' pattern at @addr, destination 0x10..0x15 and source
 * 0x20..0x25 (twelve distinct bytes: a swap that mixes their order shows),
 * the rest of the frame holding @addr SENTINEL. */
static void mark(uint8_t *area, uint64_t addr)
{
	uint8_t *p = area + addr;
	int j;

	memset(area + (addr & ~(uint64_t)(FS - 1)), SENTINEL, FS);
	for (j = 0; j < 6; j++) {
		p[j] = 0x10 + j;
		p[6 + j] = 0x20 + j;
	}
}

/* The frame holding @addr, every byte: as mark() left it, with the two
 * MACs swapped when @swapped, and nothing else touched. */
static void assert_marked(const uint8_t *area, uint64_t addr, bool swapped)
{
	const uint8_t *base = area + (addr & ~(uint64_t)(FS - 1));
	uint32_t off = addr & (FS - 1), i, j;
	uint8_t want = SENTINEL;

	for (i = 0; i < FS; i++) {
		want = SENTINEL;
		if (i >= off && i - off < 12) {
			j = i - off;
			want = ((j < 6) != swapped ? 0x10 : 0x20) + j % 6;
		}
		if (base[i] != want)
			break;
	}
	if (i < FS)
		print_message("frame at %#llx (MACs at +%u, swapped %d): byte %u is %#x, not %#x\n",
			      (unsigned long long)(addr - off), off, swapped, i, base[i], want);
	assert_int_equal(i, FS);
}

/*
 * 3000 random batches of 1-8 descriptors, each naming its own frame (so
 * that no frame is swapped twice), of the socket's share, the
 * other socket's, or past the UMEM, at any offset that leaves the MACs in
 * the frame (its first and last such place among them), with lengths at
 * every edge: to the frame's last byte, one past it, around 12. Stepped until
 * RX is empty: TX holds exactly the descriptors xl_frames_in_range()
 * passes, in order; bad_descs counts the others; a forwarded frame of at
 * least 12 bytes has its MACs swapped once, every other frame its pattern
 * unchanged; rx_packets and rx_bytes are the forwarded ones'.
 */
static void test_l2fwd_plain_agrees_with_check(void **state)
{
	struct rig *r = rig_new(NFRAMES, 64, 64, 0, false);
	uint32_t seed = 0x9e3779b9u, round, rmask = r->q.rx.size - 1, tmask = r->q.tx.size - 1;
	uint64_t want_pkts = 0, want_bytes = 0, want_bad = 0;

	/* The second socket of a shared UMEM: frames 16..47 of 64. */
	xl_frames_fini(&r->q.frames);
	assert_int_equal(xl_frames_init(&r->q.frames, (uint64_t)OWN_FIRST * FS, OWN_N, FS,
					(uint64_t)NFRAMES * FS, false, false), 0);
	for (round = 0; round < 3000; round++) {
		struct xdp_desc want[8];
		uint32_t n = 1 + rnd(&seed) % 8, i, nw = 0, t, frame[8];
		bool good[8], used[NFRAMES + BEYOND];

		memset(used, 0, sizeof(used));
		for (i = 0; i < n; i++) { /* n distinct frames */
			do /* mostly the socket's own, so that batches pass */
				switch (rnd(&seed) % 8) {
				case 0: /* the frames either side of the share */
					frame[i] = rnd(&seed) % 2 ? OWN_FIRST - 1 : OWN_FIRST + OWN_N;
					break;
				case 1:
					frame[i] = rnd(&seed) % (NFRAMES + BEYOND);
					break;
				default:
					frame[i] = OWN_FIRST + rnd(&seed) % OWN_N;
				}
			while (used[frame[i]]);
			used[frame[i]] = true;
		}
		for (i = 0; i < n; i++) {
			struct xdp_desc *d = &r->rx_m.desc[r->rx_m.prod & rmask];
			uint32_t off = rnd(&seed) % (FS - 12 + 1), room;

			if (rnd(&seed) % 8 == 0) /* a frame's first or last place for the MACs */
				off = rnd(&seed) % 2 ? 0 : FS - 12;
			room = FS - off;

			d->addr = (uint64_t)frame[i] * FS + off;
			switch (rnd(&seed) % 8) { /* lengths at every edge */
			case 0: d->len = room; break;         /* to the frame's last byte */
			case 1: d->len = room + 1; break;     /* one past it */
			case 2: d->len = rnd(&seed) % 13; break; /* around the MACs' 12 */
			case 3: d->len = rnd(&seed) % (room + 5); break;
			default: d->len = 12 + rnd(&seed) % (room - 11); break;
			}
			d->options = 0;
			if (frame[i] < NFRAMES)
				mark(r->area, d->addr);
			good[i] = xl_frames_in_range(&r->q.frames, d->addr, d->len);
			if (good[i]) {
				want[nw++] = *d;
				want_pkts++;
				want_bytes += d->len;
			} else {
				want_bad++;
			}
			r->rx_m.prod++;
		}
		for (t = 0; r->rx_m.cons != r->rx_m.prod && t < 16; t++)
			xl_xsk_l2fwd_step(&r->q, 0);
		assert_int_equal(r->rx_m.cons, r->rx_m.prod);
		assert_int_equal(r->tx_m.prod - r->tx_m.cons, nw);
		for (i = 0; i < nw; i++) {
			const struct xdp_desc *s = &r->tx_m.desc[(r->tx_m.cons + i) & tmask];

			assert_int_equal(s->addr, want[i].addr);
			assert_int_equal(s->len, want[i].len);
		}
		for (i = 0; i < n; i++) {
			const struct xdp_desc *d = &r->rx_m.desc[(r->rx_m.prod - n + i) & rmask];

			if (d->addr < (uint64_t)NFRAMES * FS)
				assert_marked(r->area, d->addr, good[i] && d->len >= 12);
		}
		r->tx_m.cons = r->tx_m.prod; /* the kernel took them */
	}
	assert_int_equal(r->q.c.rx_packets, want_pkts);
	assert_int_equal(r->q.c.rx_bytes, want_bytes);
	assert_int_equal(r->q.c.bad_descs, want_bad);
	assert_true(want_bad > 500 && want_pkts > 5000); /* both kinds were tried */
	rig_free(r);
}

/* Frames [0 1] [2] (descriptor 0 continues): forwarded whole, the first
 * buffers swapped, the continuation not, two packets, the options kept. */
static void contd_batch(bool frags)
{
	struct rig *r = rig_new(64, 32, 32, 0, false);
	uint32_t i;

	r->q.frags = frags;
	xl_xsk_refill(&r->q, 32);
	assert_int_equal(kernel_rx(r, 3, 60), 3);
	for (i = 0; i < 3; i++)
		mark(r->area, r->rx_m.desc[i].addr);
	r->rx_m.desc[0].options = XDP_PKT_CONTD;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 3);
	assert_int_equal(r->q.c.rx_packets, 2);
	assert_int_equal(r->q.c.rx_bytes, 180);
	assert_int_equal(r->q.c.bad_descs, 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(r->tx_m.desc[i].addr, r->rx_m.desc[i].addr);
		assert_int_equal(r->tx_m.desc[i].options, i == 0 ? XDP_PKT_CONTD : 0);
		assert_marked(r->area, r->rx_m.desc[i].addr, i != 1);
	}
	rig_free(r);
}

/* Bound without XDP_USE_SG, a continued descriptor all the same: the plain
 * loop finds it after the loop, undoes its swaps, the checked path sends. */
static void test_l2fwd_plain_contd_falls_back(void **state)
{
	contd_batch(false);
}

/* Bound with XDP_USE_SG: the checked path from the start, the same result
 * (skipping the plain loop saves its doomed pass; nothing here can tell
 * whether it ran). */
static void test_l2fwd_frags_checked_path(void **state)
{
	contd_batch(true);
}

/*
 * The fill ring has room for 3 of 8 completions (a saturated socket): the
 * first 3 go straight back into it in order, the other 5 to the free list;
 * the completion ring is emptied and the ledger stays whole. (Before, the
 * whole batch went through the free list and the fill ring got the last
 * three, c7 c6 c5.)
 */
static void test_l2fwd_recycle_partial(void **state)
{
	struct rig *r = rig_new(16, 8, 8, 0, false);
	uint64_t done[8];
	uint32_t i;

	r->q.busy_poll = false;
	assert_int_equal(xl_xsk_refill(&r->q, 8), 8);
	assert_int_equal(kernel_rx(r, 8, 60), 8);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 8); /* fill topped up from the free list */
	assert_int_equal(r->q.frames.n_free, 0);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 8);
	assert_int_equal(kernel_tx(r, 8), 8);
	for (i = 0; i < 8; i++)
		done[i] = r->comp_m.addr[(r->comp_m.cons + i) & 7] & ~(uint64_t)(FS - 1); /* bases */
	assert_int_equal(kernel_rx(r, 3, 60), 3); /* room for 3 in the fill ring */
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 3);
	assert_int_equal(r->comp_m.cons, r->comp_m.prod);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 8);
	for (i = 0; i < 3; i++)
		assert_int_equal(r->fill_m.addr[(r->fill_m.prod - 3 + i) & 7], done[i]);
	assert_int_equal(r->q.frames.n_free, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(r->q.frames.free[i], done[3 + i]);
	assert_int_equal(r->q.c.tx_packets, 8);
	assert_int_equal(r->q.frames.in_fill, 8);
	assert_int_equal(r->q.frames.in_tx, 3);
	assert_int_equal(r->q.frames.violations, 0);
	rig_free(r);
}

/*
 * recycle_partial_bad(@bad): as test_l2fwd_recycle_partial, with the
 * completion @bad outside the UMEM. In the 3 the fill ring has room for
 * (@bad 1): the reservation is undone and all 8 go through the free list,
 * the fill ring given the last 3 of the 7 good ones (c7 c6 c5). In the
 * other 5 (@bad 5): c0 c1 c2 straight back, c3 c4 c6 c7 to the free list.
 * Either way one violation, the completion ring emptied, and 15 frames in
 * the ledger: free 4, fill ring and RX 8, TX 3.
 */
static void recycle_partial_bad(uint32_t bad)
{
	struct rig *r = rig_new(16, 8, 8, 0, false);
	const uint32_t to_fill[2][3] = { { 7, 6, 5 }, { 0, 1, 2 } };
	const uint32_t to_free[2][4] = { { 0, 2, 3, 4 }, { 3, 4, 6, 7 } };
	uint64_t done[8];
	uint32_t i, c = bad == 5;

	r->q.busy_poll = false;
	assert_int_equal(xl_xsk_refill(&r->q, 8), 8);
	assert_int_equal(kernel_rx(r, 8, 60), 8);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 8);
	assert_int_equal(kernel_tx(r, 8), 8);
	for (i = 0; i < 8; i++)
		done[i] = r->comp_m.addr[(r->comp_m.cons + i) & 7] & ~(uint64_t)(FS - 1);
	r->comp_m.addr[(r->comp_m.cons + bad) & 7] = 100 * FS;
	assert_int_equal(kernel_rx(r, 3, 60), 3);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 3);
	assert_int_equal(r->comp_m.cons, r->comp_m.prod);
	assert_int_equal(r->fill.cached_prod, r->fill_m.prod);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 8);
	for (i = 0; i < 3; i++)
		assert_int_equal(r->fill_m.addr[(r->fill_m.prod - 3 + i) & 7], done[to_fill[c][i]]);
	assert_int_equal(r->q.frames.n_free, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(r->q.frames.free[i], done[to_free[c][i]]);
	assert_int_equal(r->q.frames.violations, 1);
	assert_int_equal(r->q.c.tx_packets, 8);
	assert_int_equal(r->q.frames.in_fill, 8);
	assert_int_equal(r->q.frames.in_tx, 3);
	rig_free(r);
}

static void test_l2fwd_recycle_partial_bad_in_fill_part(void **state)
{
	recycle_partial_bad(1);
}

static void test_l2fwd_recycle_partial_bad_in_rest(void **state)
{
	recycle_partial_bad(5);
}

/*
 * With completions gone straight back, the free list tops the fill ring up
 * to its size less 1/64 (here 128 - 2): 64 completions into a ring with
 * room for 74, then 8 free frames, not 10. (Before, the top-up filled the
 * ring, and the next batch of completions found less room than it needed.)
 */
static void test_l2fwd_fill_slack(void **state)
{
	struct rig *r = rig_new(512, 128, 128, 0, false);
	uint32_t free0;

	r->q.busy_poll = false;
	assert_int_equal(xl_xsk_refill(&r->q, 128), 128);
	assert_int_equal(kernel_rx(r, 64, 60), 64);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 64); /* nothing in TX yet: a full refill */
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 128);
	assert_int_equal(kernel_tx(r, 64), 64);
	assert_int_equal(kernel_rx(r, 74, 60), 74);
	free0 = r->q.frames.n_free;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 64);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 126);
	assert_int_equal(r->q.frames.n_free, free0 - 8);
	assert_int_equal(r->q.frames.in_fill, 136); /* the fill ring and RX: 126 + 10 */
	assert_int_equal(r->comp_m.cons, r->comp_m.prod);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2fwd_plain_agrees_with_check),
		cmocka_unit_test(test_l2fwd_plain_contd_falls_back),
		cmocka_unit_test(test_l2fwd_frags_checked_path),
		cmocka_unit_test(test_l2fwd_recycle_partial),
		cmocka_unit_test(test_l2fwd_recycle_partial_bad_in_fill_part),
		cmocka_unit_test(test_l2fwd_recycle_partial_bad_in_rest),
		cmocka_unit_test(test_l2fwd_fill_slack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
