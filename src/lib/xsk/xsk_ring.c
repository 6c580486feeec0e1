// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP hot path: one socket's rxdrop, l2fwd and txpush iterations
 * over libxdp's ring helpers, keeping the frame ledger exact.
 *
 * Rules (each one a bug other AF_XDP tools have had):
 * - reserve exactly what will be submitted: the producer helpers advance a
 *   cached index at reserve time, so a short submit leaks ring slots;
 * - every descriptor peeked from RX is either released after use or handed
 *   back with cancel, so nothing is stranded when TX has less room;
 * - kick the kernel (sendto/recvfrom/poll) only when its need_wakeup flag
 *   asks, unless need_wakeup is off or busy polling drives NAPI;
 * - counters are plain stores in the socket's own cache line.
 * Nothing here allocates or locks; this code runs on fake rings in unit
 * tests as well (fd -1).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "xdplab/abi/latency.h"
#include "xdplab/pkt.h"
#include "xsk_priv.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void note_kick_error(struct xl_xsk_q *q, int err)
{
	/* The device went away (ENXIO, ENODEV: the socket is unbound) or down
	 * (ENETDOWN): kept as is, so the message can say which. */
	if ((err == ENXIO || err == ENETDOWN || err == ENODEV) && !q->err)
		q->err = -err;
}

void xl_xsk_kick_tx(struct xl_xsk_q *q)
{
	if (q->need_wakeup && !q->busy_poll && !xsk_ring_prod__needs_wakeup(&q->tx))
		return;
	q->c.wakeups++;
	if (q->fd >= 0 && sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0)
		note_kick_error(q, errno);
}

static void kick_rx(struct xl_xsk_q *q)
{
	q->c.wakeups++;
	if (q->fd >= 0 && recvfrom(q->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL) < 0)
		note_kick_error(q, errno);
}

/* Nothing to do: wake the kernel if it asked, then poll or return to spin. */
static void idle(struct xl_xsk_q *q, short events)
{
	struct pollfd pfd = { .fd = q->fd, .events = events };

	if (q->busy_poll || (q->need_wakeup && q->fill &&
			     xsk_ring_prod__needs_wakeup(q->fill) && events == POLLIN)) {
		kick_rx(q);
		return;
	}
	if (!q->poll || q->fd < 0)
		return;
	q->c.wakeups++;
	if (poll(&pfd, 1, 100) > 0 && (pfd.revents & (POLLERR | POLLNVAL)))
		q->err = q->err ? q->err : -ENXIO;
}

/* Up to @max free frames into the fill ring, one reserve/submit, no kick.
 * Return: frames given. */
static uint32_t refill_nokick(struct xl_xsk_q *q, uint32_t max)
{
	struct xl_frames *f = &q->frames;
	uint32_t n, i, idx;

	if (q->starve_fill || !q->fill)
		return 0;
	n = min_u32(max, f->n_free);
	if (!n)
		return 0;
	n = min_u32(n, xsk_prod_nb_free(q->fill, n));
	if (!n || xsk_ring_prod__reserve(q->fill, n, &idx) != n)
		return 0;
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(q->fill, idx + i) = f->free[f->n_free - 1 - i];
	f->n_free -= n;
	xl_frames_move(f, &f->free[f->n_free], n, XL_FRAME_FREE, XL_FRAME_FILL);
	xsk_ring_prod__submit(q->fill, n);
	return n;
}

/* After frames went into the fill ring: a recvfrom when the kernel asks.
 * Return: whether it kicked (the idle path then has nothing left to wake). */
static bool fill_kick(struct xl_xsk_q *q)
{
	if (q->need_wakeup && xsk_ring_prod__needs_wakeup(q->fill)) {
		kick_rx(q);
		return true;
	}
	return false;
}

/*
 * Up to @max free frames into the fill ring, one reserve/submit; a
 * recvfrom when the kernel asks. *@kicked: whether it did.
 * Return: frames given.
 */
static uint32_t refill(struct xl_xsk_q *q, uint32_t max, bool *kicked)
{
	uint32_t n = refill_nokick(q, max);

	*kicked = n && fill_kick(q);
	return n;
}

uint32_t xl_xsk_refill(struct xl_xsk_q *q, uint32_t max)
{
	bool kicked;

	return refill(q, max, &kicked);
}

/*
 * comp_bases() - the frame bases of the completions @idx..@idx + @n - 1
 * into @dst[(@didx + i) & @dmask] (a ring, or the free list with @dmask
 * UINT32_MAX), for the plain case (no --audit tracking); @unaligned a
 * constant in each instance. One load, mask and store per entry: the
 * range check (xl_frames_in_range() with a length of 0; aligned, the
 * largest offset from the first frame against the span) is accumulated
 * without a branch, and the allocator's fields are read once into locals
 * (through @f every store into the free list could change f->first,
 * f->span or f->chunk_mask for all the compiler knows, and it reloaded
 * them and tested f->unaligned for every entry: 42 instructions per
 * completion in txpush at 7ef71c4, callgrind).
 * Return: false when an address failed the check; nothing is released, so
 * the caller can take the entry-by-entry path over the same entries.
 */
static inline __attribute__((always_inline)) bool
comp_bases(const struct xl_frames *f, const struct xsk_ring_cons *comp, uint32_t idx, uint32_t n,
	   uint64_t *dst, uint32_t didx, uint32_t dmask, bool unaligned)
{
	const uint64_t first = f->first, span = f->span, fs = f->frame_size;
	const uint64_t cmask = unaligned ? XSK_UNALIGNED_BUF_ADDR_MASK : f->chunk_mask;
	const uint64_t *ring = comp->ring;
	uint32_t j, c, s, d, mask = comp->mask;
	uint64_t hi = 0;
	bool bad = false;

	/* In runs where neither ring wraps (at most three): plain pointers. */
	while (n) {
		const uint64_t *src;
		uint64_t *dp;

		s = idx & mask;
		d = didx & dmask;
		c = min_u32(n, mask + 1 - s);
		if (dmask != UINT32_MAX)
			c = min_u32(c, dmask + 1 - d);
		src = ring + s;
		dp = dst + d;
#pragma GCC unroll 4
		for (j = 0; j < c; j++) {
			uint64_t addr = src[j];
			uint64_t base = addr & cmask;
			uint64_t rel = base - first; /* wraps to huge below @first */

			if (unaligned) {
				uint64_t off = addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT;

				bad |= (rel >= span) | (off > fs) | (rel + off > span);
			} else {
				/* off < fs, and span is whole frames (the
				 * caller's test): rel < span is the check. */
				hi = rel > hi ? rel : hi;
			}
			dp[j] = base;
		}
		idx += c;
		didx += c;
		n -= c;
	}
	return !bad && hi < span;
}

/*
 * comp_bases() with the instance chosen by @f->unaligned; false at once
 * (the entry-by-entry path) when an aligned span is not whole frames (a
 * UMEM clipped inside a frame).
 */
static inline bool comp_bases_any(const struct xl_frames *f, const struct xsk_ring_cons *comp,
				  uint32_t idx, uint32_t n, uint64_t *dst, uint32_t didx,
				  uint32_t dmask)
{
	if (f->unaligned)
		return comp_bases(f, comp, idx, n, dst, didx, dmask, true);
	if (f->span & (f->frame_size - 1))
		return false;
	return comp_bases(f, comp, idx, n, dst, didx, dmask, false);
}

uint32_t xl_xsk_reap(struct xl_xsk_q *q, uint32_t max)
{
	struct xl_frames *f = &q->frames;
	uint32_t n, i, idx, k = 0;

	if (!q->comp || !f->in_tx)
		return 0;
	n = xsk_ring_cons__peek(q->comp, min_u32(max, f->in_tx), &idx);
	if (!n)
		return 0;
	/* The ledger leaves room for all n (n <= in_tx, n_free + in_tx <=
	 * nframes); tested anyway, as the slow path tests each entry. */
	if (likely(!f->state && n <= f->nframes - f->n_free) &&
	    comp_bases_any(f, q->comp, idx, n, &f->free[f->n_free], 0, UINT32_MAX)) {
		k = n;
	} else {
		for (i = 0; i < n; i++) {
			uint64_t addr = *xsk_ring_cons__comp_addr(q->comp, idx + i);

			if (unlikely(f->n_free + k >= f->nframes ||
				     !(f->state ? xl_frames_desc_ok(f, addr, 0) :
						 xl_frames_in_range(f, addr, 0)))) {
				f->violations++;
				continue;
			}
			f->free[f->n_free + k++] = xl_frame_base(f, addr);
		}
	}
	xsk_ring_cons__release(q->comp, n);
	xl_frames_move(f, &f->free[f->n_free], k, XL_FRAME_TX, XL_FRAME_FREE);
	/* Frames we could not place are still counted out of TX. */
	f->in_tx -= n - k;
	f->n_free += k;
	q->c.tx_packets += n;
	return n;
}

/*
 * The two rxdrop loops' shared steps, inlined into each (the hot path: no
 * call, and @checked is a constant in every instance). rx_desc_ok(): RX
 * descriptor @d passes this instance's check (@checked: the deep one, else
 * the precomputed range). rx_account(): a good descriptor, number @i of the
 * batch peeked at @idx, is inspected for --verify/--dump (@checked only;
 * the first fragment of a packet is the one after no XDP_PKT_CONTD) and
 * added to the batch's @pkts (a packet per last fragment) and @bytes.
 */
static inline __attribute__((always_inline)) bool
rx_desc_ok(const struct xl_frames *f, const struct xdp_desc *d, bool checked)
{
	return checked ? xl_frames_desc_ok(f, d->addr, d->len) :
			 xl_frames_in_range(f, d->addr, d->len);
}

static inline __attribute__((always_inline)) void
rx_account(struct xl_xsk_q *q, const struct xdp_desc *d, uint32_t idx, uint32_t i, bool checked,
	   uint64_t *pkts, uint64_t *bytes)
{
	if (checked && (q->verify || q->dump))
		xl_xsk_inspect(q, (uint8_t *)q->area + xsk_umem__add_offset_to_addr(d->addr),
			       d->len, !(i && (xsk_ring_cons__rx_desc(&q->rx, idx + i - 1)->options &
					     XDP_PKT_CONTD)));
	*pkts += !(d->options & XDP_PKT_CONTD);
	*bytes += d->len;
}

/*
 * rxdrop through the free list (the fill ring had less room than the batch,
 * or --starve-fill): every good frame goes onto the free list, refill()
 * puts what fits back. @checked: the deep check and the inspection.
 */
static inline __attribute__((always_inline)) uint32_t
rxdrop_via_free(struct xl_xsk_q *q, uint32_t n, uint32_t idx, bool checked)
{
	struct xl_frames *f = &q->frames;
	uint64_t bytes = 0, pkts = 0;
	uint32_t i, k = 0;
	bool kicked;

	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&q->rx, idx + i);

		if (unlikely(!rx_desc_ok(f, d, checked) ||
			     f->n_free + k >= f->nframes)) {
			q->c.bad_descs++;
			continue;
		}
		rx_account(q, d, idx, i, checked, &pkts, &bytes);
		f->free[f->n_free + k++] = xl_frame_base(f, d->addr);
	}
	xsk_ring_cons__release(&q->rx, n);
	xl_frames_move(f, &f->free[f->n_free], k, XL_FRAME_FILL, XL_FRAME_FREE);
	f->in_fill -= n - k;
	f->n_free += k;
	q->c.rx_packets += pkts;
	q->c.rx_bytes += bytes;
	refill(q, f->n_free, &kicked);
	return n;
}

/*
 * One rxdrop iteration. The frames of the batch go straight back into the
 * fill ring in one reserve/submit (their ledger place, "fill", does not
 * change); the slots of bad descriptors are handed back before the submit
 * (cached_prod is ours: reserve only advanced it). Then free frames, if
 * any, top the ring up, and one recvfrom at most wakes the kernel.
 * @checked (a constant in each instance): the deep check, the inspection
 * for --verify/--dump, and the tracked state of every recycled frame.
 */
static inline __attribute__((always_inline)) uint32_t rxdrop(struct xl_xsk_q *q,
							     bool checked)
{
	struct xl_frames *f = &q->frames;
	uint64_t addrs[XL_XSK_MAX_BATCH];
	uint32_t n, i, idx, fidx, k = 0;
	uint64_t bytes = 0, pkts = 0;
	bool kicked;

	n = xsk_ring_cons__peek(&q->rx, q->batch, &idx);
	if (!n) {
		/* One recvfrom at most: a refill that woke the kernel did
		 * what idle() would (which then kicks and returns). */
		refill(q, f->n_free, &kicked);
		if (!kicked)
			idle(q, POLLIN);
		return 0;
	}
	q->c.rx_batches++;
	q->c.rx_descs += n;
	/* reserve is all or nothing: 0 when the ring has less room than n. */
	if (unlikely(q->starve_fill || !q->fill ||
		     xsk_ring_prod__reserve(q->fill, n, &fidx) != n))
		return rxdrop_via_free(q, n, idx, checked);
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&q->rx, idx + i);

		if (unlikely(!rx_desc_ok(f, d, checked))) {
			q->c.bad_descs++;
			continue;
		}
		rx_account(q, d, idx, i, checked, &pkts, &bytes);
		if (checked)
			addrs[k] = d->addr;
		*xsk_ring_prod__fill_addr(q->fill, fidx + k++) = xl_frame_base(f, d->addr);
	}
	xsk_ring_cons__release(&q->rx, n);
	if (unlikely(k < n)) {
		q->fill->cached_prod -= n - k; /* bad ones: not ours to give */
		f->in_fill -= n - k;
	}
	if (checked)
		xl_frames_move(f, addrs, k, XL_FRAME_FILL, XL_FRAME_FILL);
	xsk_ring_prod__submit(q->fill, k);
	q->c.rx_packets += pkts;
	q->c.rx_bytes += bytes;
	if (k + refill_nokick(q, f->n_free))
		fill_kick(q);
	return n;
}

uint32_t xl_xsk_rxdrop_fast(struct xl_xsk_q *q)
{
	return rxdrop(q, false);
}

uint32_t xl_xsk_rxdrop_checked(struct xl_xsk_q *q)
{
	return rxdrop(q, true);
}

xl_xsk_step_fn xl_xsk_rxdrop_loop(const struct xl_xsk_q *q)
{
	return q->verify || q->dump || q->frames.state ? xl_xsk_rxdrop_checked :
							 xl_xsk_rxdrop_fast;
}

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
				*kicked = (n + refill_nokick(q, f->n_free)) && fill_kick(q);
				return;
			}
			q->fill->cached_prod -= n; /* reserved, not submitted */
		}
		if (n)
			xsk_ring_cons__cancel(q->comp, n);
	}
	xl_xsk_reap(q, max);
	refill(q, f->n_free, kicked);
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
			idle(q, POLLIN);
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

void xl_xsk_ring_counts(const struct xl_xsk_q *q, uint32_t *fill, uint32_t *rx,
			uint32_t *tx, uint32_t *comp)
{
	*fill = q->fill && q->fill->producer ?
			__atomic_load_n(q->fill->producer, __ATOMIC_ACQUIRE) -
				__atomic_load_n(q->fill->consumer, __ATOMIC_ACQUIRE) : 0;
	*rx = q->rx.producer ? __atomic_load_n(q->rx.producer, __ATOMIC_ACQUIRE) -
				       __atomic_load_n(q->rx.consumer, __ATOMIC_ACQUIRE) : 0;
	*tx = q->tx.producer ? __atomic_load_n(q->tx.producer, __ATOMIC_ACQUIRE) -
				       __atomic_load_n(q->tx.consumer, __ATOMIC_ACQUIRE) : 0;
	*comp = q->comp && q->comp->producer ?
			__atomic_load_n(q->comp->producer, __ATOMIC_ACQUIRE) -
				__atomic_load_n(q->comp->consumer, __ATOMIC_ACQUIRE) : 0;
}
