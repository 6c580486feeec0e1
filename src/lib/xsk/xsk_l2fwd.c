// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP hot path's l2fwd iteration: completions recycled straight into
 * the fill ring, RX descriptors forwarded to TX with the MACs swapped, the
 * frame ledger exact. The rules of xsk_ring.c's head hold here too.
 */
#include <poll.h>
#include <string.h>

#include "xsk_priv.h"
#include "xsk_ring_priv.h"

static inline void swap_macs(uint8_t *p)
{
	uint8_t tmp[6];

	memcpy(tmp, p, 6);
	memcpy(p, p + 6, 6);
	memcpy(p + 6, tmp, 6);
}

/* Entries a producer ring holds that its consumer has not taken yet. */
static uint32_t ring_pending(const uint32_t *producer, const uint32_t *consumer)
{
	return producer ? __atomic_load_n(producer, __ATOMIC_ACQUIRE) -
				  __atomic_load_n(consumer, __ATOMIC_ACQUIRE) : 0;
}

/*
 * l2fwd must not sleep in poll() while it owes the kernel a kick: in copy
 * mode TX moves only inside sendto()/poll(), at most 32 descriptors per
 * call (the kernel's TX_BATCH_SIZE, net/xdp/xsk.c), and no arriving frame
 * wakes a poll(POLLIN) for the TX that is left; a backlog of frames (a
 * burst, a generator catching up) then went out 64 per 100 ms timeout
 * (round trips of 100 ms to 1 s and more, and frames lost once TX was full).
 * Also not while frames are in flight and the fill ring is empty: RX
 * cannot come, and their completions wake nothing.
 * Both only while TX is moving: when neither the TX ring's consumer nor
 * the completion ring's producer moved since the last look (a device that
 * refuses every frame, a zero-copy driver that has not taken them yet and
 * wants no kick), nothing is owed that spinning would pay, and --poll
 * sleeps as asked instead of looping on sendto() at 100% of a CPU.
 */
static bool tx_owed(struct xl_xsk_q *q)
{
	uint32_t cons = q->tx.consumer ? __atomic_load_n(q->tx.consumer, __ATOMIC_ACQUIRE) : 0;
	uint32_t done = q->comp && q->comp->producer ?
				__atomic_load_n(q->comp->producer, __ATOMIC_ACQUIRE) : 0;
	bool moved = cons != q->tx_cons_seen || done != q->comp_prod_seen;

	q->tx_cons_seen = cons;
	q->comp_prod_seen = done;
	if (!moved)
		return false;
	if (ring_pending(q->tx.producer, q->tx.consumer))
		return true;
	return q->frames.in_tx && q->fill && !ring_pending(q->fill->producer, q->fill->consumer);
}

/*
 * l2fwd's completions straight back into the fill ring, one reserve/submit
 * for the batch and the free list untouched, as rxdrop recycles RX frames
 * and xdpsock recycles completions; then free frames, if any, top the ring
 * up. Falls back to xl_xsk_reap() (and the free list) with --audit
 * tracking, when the fill ring has less room than the completions, or when
 * an address fails the check. *@kicked: whether a recvfrom woke the kernel
 * for the frames given.
 */
static void recycle(struct xl_xsk_q *q, uint32_t max, bool *kicked)
{
	struct xl_frames *f = &q->frames;
	uint32_t n = 0, idx, fidx;

	if (q->comp && q->fill && f->in_tx && !f->state && !q->starve_fill) {
		n = xsk_ring_cons__peek(q->comp, min_u32(max, f->in_tx), &idx);
		if (n && xsk_ring_prod__reserve(q->fill, n, &fidx) == n) {
			if (likely(comp_bases_any(f, q->comp, idx, n, q->fill->ring, fidx,
						  q->fill->mask))) {
				xsk_ring_prod__submit(q->fill, n);
				xsk_ring_cons__release(q->comp, n);
				f->in_tx -= n;
				f->in_fill += n;
				q->c.tx_packets += n;
				*kicked = (n + xl_xsk_refill_nokick(q, f->n_free)) &&
					  xl_xsk_fill_kick(q);
				return;
			}
			q->fill->cached_prod -= n; /* reserved, not submitted */
		}
		if (n)
			xsk_ring_cons__cancel(q->comp, n);
	}
	xl_xsk_reap(q, max);
	xl_xsk_refill_kicked(q, f->n_free, kicked);
}

/* How many of RX's @idx.. @k descriptors, from the first, pass the check
 * (the tracked deep one with --audit): the batch stops before a bad one. */
static uint32_t rx_good_prefix(const struct xl_xsk_q *q, uint32_t idx, uint32_t k)
{
	const struct xl_frames *f = &q->frames;
	uint32_t i;

	for (i = 0; i < k; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&q->rx, idx + i);

		if (unlikely(!(f->state ? xl_frames_desc_ok(f, d->addr, d->len) :
					  xl_frames_in_range(f, d->addr, d->len))))
			break;
	}
	return i;
}

/*
 * forward() - l2fwd's loop over @k descriptors peeked at @idx into the TX
 * slots reserved at @tidx: copy each descriptor, swap the MACs of a
 * frame's first buffer, count packets (a packet per last buffer) and
 * bytes into *@pkts and *@bytes; with tracking, the addresses into @addrs.
 * Locals for everything the loop reads: the MAC swap's byte stores could
 * change any field of @q or @f for all the compiler knows, and it reloaded
 * the rings, the area and the tracking pointer after every frame.
 * @check (a constant in each instance; aligned mode, no tracking, a span
 * of whole frames): the range check of xl_frames_in_range() folded into
 * the loop (the descriptor is read once), a frame swapped only when it
 * passes. Return: false when one failed; the swaps done are undone (a
 * swap is its own inverse) and the caller takes the checked path.
 */
static inline __attribute__((always_inline)) bool
forward(struct xl_xsk_q *q, uint32_t idx, uint32_t tidx, uint32_t k, uint64_t *addrs,
	uint64_t *pkts, uint64_t *bytes, bool check)
{
	const struct xl_frames *f = &q->frames;
	const struct xdp_desc *rx = q->rx.ring;
	struct xdp_desc *tx = q->tx.ring;
	uint32_t rmask = q->rx.mask, tmask = q->tx.mask, i, c, j, rs, ts;
	const uint64_t first = f->first, span = f->span, fs = f->frame_size;
	const uint64_t cmask = f->chunk_mask;
	uint64_t np = 0, nb = 0;
	uint8_t *area = q->area;
	bool track = !check && f->state, cont = false, bad = false, ok = true;

	/* In at most three runs where neither ring wraps. */
	for (i = 0; i < k; i += c) {
		rs = (idx + i) & rmask;
		ts = (tidx + i) & tmask;
		c = min_u32(min_u32(k - i, rmask + 1 - rs), tmask + 1 - ts);
		for (j = 0; j < c; j++) {
			const struct xdp_desc *d = &rx[rs + j];
			struct xdp_desc *t = &tx[ts + j];
			uint64_t addr = d->addr;
			uint32_t len = d->len, opts = d->options;

			t->addr = addr;
			t->len = len;
			t->options = opts;
			if (track)
				addrs[i + j] = addr;
			if (check) {
				ok = (addr & cmask) - first < span && (addr & ~cmask) + len <= fs;
				bad |= !ok;
			}
			if (!cont && len >= 12 && ok)
				swap_macs(area + xsk_umem__add_offset_to_addr(addr));
			cont = opts & XDP_PKT_CONTD;
			np += !cont;
			nb += len;
		}
	}
	if (check && unlikely(bad)) {
		cont = false;
		for (i = 0; i < k; i++) {
			const struct xdp_desc *d = &rx[(idx + i) & rmask];

			if (!cont && d->len >= 12 && xl_frames_in_range(f, d->addr, d->len))
				swap_macs(area + xsk_umem__add_offset_to_addr(d->addr));
			cont = d->options & XDP_PKT_CONTD;
		}
		return false;
	}
	*pkts = np;
	*bytes = nb;
	return true;
}

uint32_t xl_xsk_l2fwd_step(struct xl_xsk_q *q, uint64_t now_ns)
{
	struct xl_frames *f = &q->frames;
	uint64_t addrs[XL_XSK_MAX_BATCH];
	uint32_t n, k, i, idx, tidx;
	uint64_t bytes = 0, pkts = 0;
	bool kicked;

	recycle(q, q->batch * 2, &kicked);
	n = xsk_ring_cons__peek(&q->rx, q->batch, &idx);
	if (!n) {
		if (f->in_tx)
			xl_xsk_kick_tx(q);
		if (!kicked && !tx_owed(q))
			xl_xsk_idle(q, POLLIN);
		return 0;
	}
	/* Send what TX has room for, whole frames only; cancel the rest. */
	k = min_u32(n, xsk_prod_nb_free(&q->tx, n));
	/* The plain case: the check folded into the loop (forward()). */
	if (!f->state && !f->unaligned && !(f->span & (f->frame_size - 1))) {
		uint32_t kk = k;

		while (kk && (xsk_ring_cons__rx_desc(&q->rx, idx + kk - 1)->options & XDP_PKT_CONTD))
			kk--;
		if (kk && xsk_ring_prod__reserve(&q->tx, kk, &tidx) == kk) {
			if (likely(forward(q, idx, tidx, kk, addrs, &pkts, &bytes, true))) {
				k = kk;
				if (k < n)
					q->c.tx_short++;
				goto submit;
			}
			q->tx.cached_prod -= kk; /* reserved, not submitted */
		}
	}
	/*
	 * Never hand the kernel a descriptor outside the UMEM: the batch stops
	 * before the first one; one at the head is dropped alone and counted,
	 * as rxdrop does (the kernel would refuse it as tx_invalid_descs and
	 * it would never complete).
	 */
	i = rx_good_prefix(q, idx, k);
	if (unlikely(i < k)) {
		if (!i) {
			q->c.bad_descs++;
			f->in_fill--;
			xsk_ring_cons__cancel(&q->rx, n - 1);
			xsk_ring_cons__release(&q->rx, 1);
			return 1;
		}
		k = i;
	}
	while (k && (xsk_ring_cons__rx_desc(&q->rx, idx + k - 1)->options & XDP_PKT_CONTD))
		k--;
	if (k < n)
		q->c.tx_short++;
	if (!k || xsk_ring_prod__reserve(&q->tx, k, &tidx) != k) {
		xsk_ring_cons__cancel(&q->rx, n);
		xl_xsk_kick_tx(q);
		return 0;
	}
	forward(q, idx, tidx, k, addrs, &pkts, &bytes, false);
submit:
	xsk_ring_prod__submit(&q->tx, k);
	xl_frames_move(f, addrs, k, XL_FRAME_FILL, XL_FRAME_TX);
	if (k < n)
		xsk_ring_cons__cancel(&q->rx, n - k);
	xsk_ring_cons__release(&q->rx, k);
	q->c.rx_packets += pkts;
	q->c.rx_bytes += bytes;
	q->c.tx_bytes += bytes;
	q->c.rx_batches++;
	q->c.rx_descs += k;
	q->c.tx_batches++;
	q->c.tx_descs += k;
	q->c.tx_submitted += k;
	xl_xsk_kick_tx(q);
	(void)now_ns;
	return k;
}
