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

/* The destination and source MACs of the frame at @p swapped: all twelve
 * bytes loaded before any is stored (8 moves; through a 6-byte temporary
 * the compiler went by the stack, 13). */
static inline void swap_macs(uint8_t *p)
{
	uint32_t d4, s4;
	uint16_t d2, s2;

	memcpy(&d4, p, 4);
	memcpy(&d2, p + 4, 2);
	memcpy(&s4, p + 6, 4);
	memcpy(&s2, p + 10, 2);
	memcpy(p, &s4, 4);
	memcpy(p + 4, &s2, 2);
	memcpy(p + 6, &d4, 4);
	memcpy(p + 10, &d2, 2);
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
 * top_up() - after completions went straight back: free frames into the
 * fill ring up to its size less 1/64 (128 of 8192 entries, none below 64).
 * A fill ring topped up to the last entry had room at the next look for
 * only what the kernel had taken, and a batch of completions larger than
 * that (the kernel's TX and RX do not move in step) sent the rest through
 * the free list and back: 5.1 instructions per frame in the saturated lab
 * (scripts/xsk-instr.sh, callgrind). Return: frames given.
 */
static uint32_t top_up(struct xl_xsk_q *q)
{
	uint32_t slack = q->fill->size / 64, room;

	if (!q->frames.n_free)
		return 0;
	room = xsk_prod_nb_free(q->fill, q->fill->size);
	return room > slack ? xl_xsk_refill_nokick(q, min_u32(q->frames.n_free, room - slack)) : 0;
}

/*
 * l2fwd's completions straight back into the fill ring, one reserve/submit
 * for the batch and the free list untouched, as rxdrop recycles RX frames
 * and xdpsock recycles completions; then free frames, if any, top the ring
 * up, short of full (top_up()). When the fill ring has room for only part
 * of them (a saturated socket: the kernel takes from the fill ring only as
 * RX has room), that part goes straight back and the rest to the free
 * list (xl_xsk_reap()):
 * the completion ring is always emptied, or a full fill ring, a full RX
 * ring, a full TX ring and a full completion ring would wait on each
 * other. Before, any shortfall sent the whole batch through the free list
 * (13 instructions per frame more in the saturated lab, callgrind). Falls
 * back to xl_xsk_reap() (and the free list) with --audit tracking, or when
 * an address fails the check. *@kicked: whether a recvfrom woke the kernel
 * for the frames given.
 */
static void recycle(struct xl_xsk_q *q, uint32_t max, bool *kicked)
{
	struct xl_frames *f = &q->frames;
	uint32_t n = 0, d, idx, fidx;

	if (q->comp && q->fill && f->in_tx && !f->state && !q->starve_fill) {
		n = xsk_ring_cons__peek(q->comp, min_u32(max, f->in_tx), &idx);
		d = n ? min_u32(n, xsk_prod_nb_free(q->fill, n)) : 0;
		if (d && xsk_ring_prod__reserve(q->fill, d, &fidx) == d) {
			if (likely(comp_bases_any(f, q->comp, idx, d, q->fill->ring, fidx,
						  q->fill->mask))) {
				xsk_ring_prod__submit(q->fill, d);
				if (d < n)
					xsk_ring_cons__cancel(q->comp, n - d);
				xsk_ring_cons__release(q->comp, d);
				f->in_tx -= d;
				f->in_fill += d;
				q->c.tx_packets += d;
				if (d < n)
					xl_xsk_reap(q, n - d);
				*kicked = (d + top_up(q)) && xl_xsk_fill_kick(q);
				return;
			}
			q->fill->cached_prod -= d; /* reserved, not submitted */
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
 * slots reserved at @tidx, for every case (the checked path): copy each
 * descriptor, swap the MACs of a frame's first buffer (one of at least 12
 * bytes), count packets (a packet per last buffer) and bytes into *@pkts
 * and *@bytes; with tracking (--audit), the addresses into @addrs. The
 * caller has checked the descriptors (rx_good_prefix()). Locals for
 * everything the loop reads: the MAC swap's byte stores could change any
 * field of @q for all the compiler knows, and it reloaded the rings and
 * the area after every frame.
 */
static void forward(struct xl_xsk_q *q, uint32_t idx, uint32_t tidx, uint32_t k,
		    uint64_t *addrs, uint64_t *pkts, uint64_t *bytes)
{
	const struct xdp_desc *rx = q->rx.ring;
	struct xdp_desc *tx = q->tx.ring;
	uint32_t rmask = q->rx.mask, tmask = q->tx.mask, i;
	uint64_t np = 0, nb = 0;
	uint8_t *area = q->area;
	bool track = q->frames.state, cont = false;

	for (i = 0; i < k; i++) {
		const struct xdp_desc *d = &rx[(idx + i) & rmask];
		uint64_t addr = d->addr;
		uint32_t len = d->len;

		tx[(tidx + i) & tmask] = *d;
		if (track)
			addrs[i] = addr;
		if (!cont && len >= 12)
			swap_macs(area + xsk_umem__add_offset_to_addr(addr));
		cont = d->options & XDP_PKT_CONTD;
		np += !cont;
		nb += len;
	}
	*pkts = np;
	*bytes = nb;
}

/*
 * plain_ok() - the plain case's check of one RX descriptor: with @rel its
 * address less the allocator's first frame (a frame-aligned @first, a
 * span of whole frames, @omask the frame size less one), what
 * xl_frames_in_range() checks (the frame in the span, the data inside the
 * frame), and at least the 12 bytes of the two MACs. Short-circuit: a
 * passing descriptor takes three predicted branches (10 instructions on
 * x86-64), where the bitwise form took 18 with its flag (callgrind).
 */
static inline __attribute__((always_inline)) bool
plain_ok(uint64_t rel, uint32_t len, uint64_t span, uint64_t fs, uint64_t omask)
{
	return rel < span && (rel & omask) + len <= fs && len >= 12;
}

/*
 * forward_plain() - forward() for the plain case (aligned mode, no
 * tracking, a frame-aligned first frame and a span of whole frames,
 * single-buffer frames): the check
 * folded into the loop (each descriptor read once), every frame swapped,
 * a packet per descriptor. The loop walks plain pointers in at most three
 * runs where neither ring wraps, and a frame's data is @area + addr (the
 * check refuses any address with bits above the span, so there is no
 * unaligned offset to add). Per descriptor: the 16-byte copy, the check,
 * the swap and two sums; what the frame needs beyond that (a short frame,
 * a continued one, an address outside the UMEM) is found after the loop.
 * *@bytes: the bytes forwarded. Return: false when a descriptor failed
 * the check or carried XDP_PKT_CONTD (a multi-buffer frame); the swaps done
 * are undone (a swap is its own inverse) and the caller takes the checked
 * path with forward().
 */
static bool forward_plain(struct xl_xsk_q *q, uint32_t idx, uint32_t tidx, uint32_t k,
			  uint64_t *bytes)
{
	const struct xl_frames *f = &q->frames;
	const struct xdp_desc *rx = q->rx.ring, *d, *end;
	struct xdp_desc *tx = q->tx.ring, *t;
	const uint32_t rmask = q->rx.mask, tmask = q->tx.mask;
	const uint64_t first = f->first, span = f->span, fs = f->frame_size, omask = fs - 1;
	uint8_t *area = q->area;
	uint64_t nb = 0;
	uint32_t i, c, opts = 0;
	bool bad = false;

	for (i = 0; i < k; i += c) {
		uint32_t rs = (idx + i) & rmask, ts = (tidx + i) & tmask;

		c = min_u32(min_u32(k - i, rmask + 1 - rs), tmask + 1 - ts);
		for (d = rx + rs, end = d + c, t = tx + ts; d < end; d++, t++) {
			uint64_t addr = d->addr;
			uint32_t len = d->len;

			*t = *d;
			opts |= d->options;
			nb += len;
			if (likely(plain_ok(addr - first, len, span, fs, omask)))
				swap_macs(area + addr);
			else
				bad = true;
		}
	}
	if (likely(!bad && !(opts & XDP_PKT_CONTD))) {
		*bytes = nb;
		return true;
	}
	for (i = 0; i < k; i++) {
		d = &rx[(idx + i) & rmask];
		if (plain_ok(d->addr - first, d->len, span, fs, omask))
			swap_macs(area + d->addr);
	}
	return false;
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
	/* The plain case: the check folded into the loop (forward_plain()). */
	if (!f->state && !f->unaligned && !q->frags &&
	    !((f->first | f->span) & (f->frame_size - 1))) {
		uint32_t kk = k;

		while (kk && (xsk_ring_cons__rx_desc(&q->rx, idx + kk - 1)->options & XDP_PKT_CONTD))
			kk--;
		if (kk && xsk_ring_prod__reserve(&q->tx, kk, &tidx) == kk) {
			if (likely(forward_plain(q, idx, tidx, kk, &bytes))) {
				k = kk;
				pkts = k;
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
	forward(q, idx, tidx, k, addrs, &pkts, &bytes);
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
