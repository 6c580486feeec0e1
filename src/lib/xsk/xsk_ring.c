// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP hot path: one socket's ring primitives (kicks, idle, refill,
 * reap) and its rxdrop iterations over libxdp's ring helpers, keeping the
 * frame ledger exact; l2fwd's in xsk_l2fwd.c, txpush's in xsk_txpush.c
 * (the shared inline parts in xsk_ring_priv.h).
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

#include "xsk_priv.h"
#include "xsk_ring_priv.h"


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
void xl_xsk_idle(struct xl_xsk_q *q, short events)
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
uint32_t xl_xsk_refill_nokick(struct xl_xsk_q *q, uint32_t max)
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
bool xl_xsk_fill_kick(struct xl_xsk_q *q)
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
uint32_t xl_xsk_refill_kicked(struct xl_xsk_q *q, uint32_t max, bool *kicked)
{
	uint32_t n = xl_xsk_refill_nokick(q, max);

	*kicked = n && xl_xsk_fill_kick(q);
	return n;
}

uint32_t xl_xsk_refill(struct xl_xsk_q *q, uint32_t max)
{
	bool kicked;

	return xl_xsk_refill_kicked(q, max, &kicked);
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
 * or --starve-fill): every good frame goes onto the free list,
 * xl_xsk_refill_kicked() puts what fits back. @checked: the deep check and the inspection.
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
	xl_xsk_refill_kicked(q, f->n_free, &kicked);
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
		 * what xl_xsk_idle() would (which then kicks and returns). */
		xl_xsk_refill_kicked(q, f->n_free, &kicked);
		if (!kicked)
			xl_xsk_idle(q, POLLIN);
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
	if (k + xl_xsk_refill_nokick(q, f->n_free))
		xl_xsk_fill_kick(q);
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
