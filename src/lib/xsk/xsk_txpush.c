// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP hot path's txpush iteration: free frames of the template into
 * TX at the paced rate, optionally stamped. The rules of xsk_ring.c's head
 * hold here too.
 */
#include <string.h>

#include "xdplab/abi/latency.h"
#include "xdplab/pkt.h"
#include "xsk_priv.h"
#include "xsk_ring_priv.h"

/*
 * txpush --tstamp: stamp the @k frames reserved at @tidx (xl_stamp_put(),
 * each checksum updated from the frame's own bytes: the template's or the
 * last stamp's), numbered in q->stamp_step steps, all with @now_ns: one
 * time per batch, as xdpsock's tx_only() stamps.
 */
static void stamp_batch(struct xl_xsk_q *q, uint32_t tidx, uint32_t k, uint64_t now_ns)
{
	uint32_t i;

	for (i = 0; i < k; i++) {
		uint8_t *p = (uint8_t *)q->area + xsk_ring_prod__tx_desc(&q->tx, tidx + i)->addr;
		uint16_t csum;

		memcpy(&csum, p + q->stamp_csum_off, 2);
		xl_stamp_put(p, q->stamp_off, q->stamp_csum_off, csum,
			     (uint16_t)~xl_csum_partial(p + q->stamp_off, XL_STAMP_LEN, 0),
			     q->stamp_seq, now_ns);
		q->stamp_seq += q->stamp_step;
	}
}

uint32_t xl_xsk_txpush_step(struct xl_xsk_q *q, uint64_t now_ns)
{
	struct xl_frames *f = &q->frames;
	uint32_t want = q->batch, k, i, tidx;

	xl_xsk_reap(q, q->batch * 2);
	if (q->budget < want)
		want = (uint32_t)q->budget;
	if (q->rate_pps && want) {
		/* The one pacer (xdplab/pace.h): a catch-up after a stall goes
		 * at most the depth at once, not the whole missed schedule.
		 * Asked only with budget left: waiting for the last
		 * completions is no stall. */
		uint64_t due = xl_pace_due(&q->pace, now_ns, q->c.tx_submitted, &q->pace_wait_ns);

		if (due)
			q->pace_wait_ns = 0;
		if (due < want)
			want = (uint32_t)due;
	}
	want = min_u32(want, f->n_free);
	k = want ? min_u32(want, xsk_prod_nb_free(&q->tx, want)) : 0;
	if (k < want)
		q->c.tx_short++;
	if (k && xsk_ring_prod__reserve(&q->tx, k, &tidx) == k) {
		/* Locals: a descriptor's 32-bit len could be f->n_free or
		 * q->pkt_len for all the compiler knows (reloaded per entry). */
		const uint64_t *top = &f->free[f->n_free];
		struct xdp_desc *ring = q->tx.ring;
		uint32_t mask = q->tx.mask, len = q->pkt_len, c, j;

		/* In at most two runs where the ring does not wrap. */
		for (i = 0; i < k; i += c) {
			struct xdp_desc *t = &ring[(tidx + i) & mask];

			c = min_u32(k - i, mask + 1 - ((tidx + i) & mask));
#pragma GCC unroll 4
			for (j = 0; j < c; j++) {
				t[j].addr = *--top;
				t[j].len = len;
				t[j].options = 0;
			}
		}
		f->n_free -= k;
		xl_frames_move(f, &f->free[f->n_free], k, XL_FRAME_FREE, XL_FRAME_TX);
		if (q->stamp)
			stamp_batch(q, tidx, k, now_ns);
		xsk_ring_prod__submit(&q->tx, k);
		q->budget -= k;
		q->c.tx_submitted += k;
		q->c.tx_bytes += (uint64_t)k * q->pkt_len;
		q->c.tx_batches++;
		q->c.tx_descs += k;
	} else {
		k = 0;
	}
	if (f->in_tx)
		xl_xsk_kick_tx(q);
	return k;
}
