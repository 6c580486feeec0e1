// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP selftest's loop: one thread drives both ends (the sockets are
 * the kernel's; veth hands a frame from one to the other in softirq), so
 * every step is in a known order: reap completions and check each address
 * is the next valid descriptor's; put the next descriptors in the TX ring
 * and kick; peek RX, check each descriptor (a frame of ours, at 256 +
 * headroom bytes into a chunk we gave), put frames together across
 * XDP_PKT_CONTD, check each whole frame byte for byte and in order against
 * the next one expected, and give the chunk back to the fill ring. Then
 * nothing more may arrive, and the counters must be exactly as the case
 * says. As xskxceiver's receive and send threads check (sequence numbers,
 * lengths, payloads, statistics), in our own code.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "xdplab/time.h"
#include "xsk_selftest_priv.h"

#define XST_STALL_NS (5 * 1000000000ull) /* no progress this long: the case fails */
#define XST_QUIET_NS (30 * 1000000ull)    /* after the last frame: nothing more may come */
#define XST_SETTLE_NS (2000 * 1000000ull) /* counters may lag the frames this long */

static void nap(void)
{
	xl_sleep_ns(20000, NULL);
}

/* A stop was asked for (SIGINT): the case ends here, failed. */
static int stopped(struct xst_ctx *x)
{
	return x->cfg->stop && *x->cfg->stop ? xst_fail(x, "interrupted") : 0;
}

/* Room for one more of @n elements of @size bytes in *@v (capacity *@cap). */
static int grow(void **v, uint32_t *cap, uint32_t n, size_t size)
{
	uint32_t c = *cap ? *cap * 2 : 256;
	void *nv;

	if (n < *cap)
		return 0;
	nv = realloc(*v, (size_t)c * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}

int xst_add_desc(struct xst_flow *f, const struct xst_desc *d)
{
	if (grow((void **)&f->d, &f->cap_d, f->nd, sizeof(*f->d)))
		return -ENOMEM;
	f->d[f->nd++] = *d;
	return 0;
}

int xst_add_pkt(struct xst_flow *f, uint32_t seq, uint32_t len, uint32_t count)
{
	if (grow((void **)&f->p, &f->cap_p, f->np, sizeof(*f->p)))
		return -ENOMEM;
	f->p[f->np++] = (struct xst_pkt){ seq, len, count };
	return 0;
}

void xst_flow_free(struct xst_flow *f)
{
	free(f->d);
	free(f->p);
	memset(f, 0, sizeof(*f));
}

/* The frames of @e's flow into its UMEM (descriptors inside it only). */
static void write_frames(struct xst_ctx *x, struct xst_end *e, const struct xst_end *to)
{
	static uint8_t buf[XST_MAX_FRAME + 4096];
	const struct xst_flow *f = e->out;
	uint32_t i;

	for (i = 0; i < f->nd; i++) {
		const struct xst_desc *d = &f->d[i];

		e->tx_valid += d->valid;
		if (!d->write || d->addr + d->len > e->size || d->off + d->len > sizeof(buf))
			continue;
		xst_frame(e->mac, to->mac, d->seq, d->off + d->len, buf);
		if (x->cfg->fault == XL_XSKST_FAULT_FLIP_BYTE && d->seq == 7 && d->off == 0 &&
		    d->len > 30)
			buf[30] ^= 0xff;
		memcpy((uint8_t *)e->area + d->addr, buf + d->off, d->len);
	}
}

/* Give up to @max free chunks to the fill ring. */
static void refill(struct xst_end *e, uint32_t max)
{
	uint32_t n = e->nfree < max ? e->nfree : max, idx, i;

	n = xsk_prod_nb_free(&e->fill, n) < n ? xsk_prod_nb_free(&e->fill, n) : n;
	if (!n || xsk_ring_prod__reserve(&e->fill, n, &idx) != n)
		return;
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&e->fill, idx + i) = e->free[--e->nfree];
	xsk_ring_prod__submit(&e->fill, n);
}

static int fill_init(struct xst_ctx *x, struct xst_end *e, uint32_t nframes)
{
	const struct xst_params *p = &x->p;
	uint32_t i;

	e->nfill_frames = nframes;
	e->free = calloc(nframes ? nframes : 1, sizeof(*e->free));
	e->acc = malloc(XST_MAX_FRAME + 4096);
	if (!e->free || !e->acc)
		return xst_fail(x, "out of memory");
	for (i = 0; i < nframes; i++)
		e->free[nframes - 1 - i] = e->fill_first + (uint64_t)i * p->frame_size + p->fill_off;
	e->nfree = nframes;
	if (p->fill_invalid && e == &x->b) {
		uint32_t idx;

		if (xsk_ring_prod__reserve(&e->fill, p->fill_invalid, &idx) != p->fill_invalid)
			return xst_fail(x, "cannot reserve %u fill entries", p->fill_invalid);
		for (i = 0; i < p->fill_invalid; i++)
			*xsk_ring_prod__fill_addr(&e->fill, idx + i) = e->size + (uint64_t)i * p->frame_size;
		xsk_ring_prod__submit(&e->fill, p->fill_invalid);
	}
	refill(e, p->fill_count);
	return 0;
}

/* Reap completions (each the next valid descriptor's address), then send. */
static int tx_step(struct xst_ctx *x, struct xst_end *e)
{
	const struct xst_params *p = &x->p;
	const struct xst_flow *f = e->out;
	uint32_t idx, n, i, room, want, window;
	int progress = 0, err;

	n = xsk_ring_cons__peek(&e->comp, 256, &idx);
	for (i = 0; i < n; i++) {
		uint64_t addr = *xsk_ring_cons__comp_addr(&e->comp, idx + i);

		/*
		 * In descriptor order. An invalid descriptor may be completed
		 * (6.18 returns them, so that the buffer can be reused) or not;
		 * a valid one must be, and nothing else may be.
		 */
		while (e->comp_idx < e->tx_next && f->d[e->comp_idx].addr != addr &&
		       !f->d[e->comp_idx].valid)
			e->comp_idx++;
		if (e->comp_idx >= e->tx_next)
			return xst_fail(x, "%s: completion %u has address %#llx, not one of the descriptors sent since the last",
					e->ifname, e->comp_seen + 1, (unsigned long long)addr);
		if (p->unaligned && (f->d[e->comp_idx].addr & 1) &&
		    addr == (f->d[e->comp_idx].addr & ~1ull))
			return xst_xfail(x, "known kernel bug: completion %u has address %#llx, sent as %#llx: bit 0 of an unaligned TX address lost in copy mode (seen on 6.18)",
					 e->comp_seen + 1, (unsigned long long)addr,
					 (unsigned long long)f->d[e->comp_idx].addr);
		if (addr != f->d[e->comp_idx].addr)
			return xst_fail(x, "%s: completion %u has address %#llx, expected %#llx (descriptor %u)",
					e->ifname, e->comp_seen + 1, (unsigned long long)addr,
					(unsigned long long)f->d[e->comp_idx].addr, e->comp_idx);
		e->comp_valid += f->d[e->comp_idx].valid;
		e->comp_idx++;
		e->comp_seen++;
	}
	if (n) {
		xsk_ring_cons__release(&e->comp, n);
		progress = 1;
	}
	/* At most half the receiver's fill ring in flight: a receiver that
	 * keeps up never finds it empty (only the cases that mean to do). */
	window = p->fill_size / 2 ? p->fill_size / 2 : 1;
	if (e->tx_next - e->comp_idx >= window)
		want = 0;
	else
		want = window - (e->tx_next - e->comp_idx);
	if (want > p->batch)
		want = p->batch;
	if (want > f->nd - e->tx_next)
		want = f->nd - e->tx_next;
	room = xsk_prod_nb_free(&e->tx, want);
	want = room < want ? room : want;
	if (want && xsk_ring_prod__reserve(&e->tx, want, &idx) == want) {
		for (i = 0; i < want; i++) {
			const struct xst_desc *d = &f->d[e->tx_next + i];
			struct xdp_desc *t = xsk_ring_prod__tx_desc(&e->tx, idx + i);

			t->addr = d->addr;
			t->len = d->len;
			t->options = d->options;
		}
		xsk_ring_prod__submit(&e->tx, want);
		e->tx_next += want;
		progress = 1;
	}
	/* Kick while the kernel has descriptors to take. */
	if (*e->tx.consumer != e->tx.cached_prod) {
		if (p->poll_tx) {
			struct pollfd pfd = { .fd = e->fd, .events = POLLOUT };

			if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
				return xst_fail(x, "poll() on %s: %s", e->ifname, strerror(errno));
		} else if (x->mode >= XL_XSKST_SKB_BUSY || xsk_ring_prod__needs_wakeup(&e->tx)) {
			if ((err = xst_kick_tx(e)))
				return xst_fail(x, "sendto() on %s: %s", e->ifname, strerror(-err));
		}
	}
	return progress;
}

/* A whole frame: the next expected, byte for byte. */
static int rx_frame(struct xst_ctx *x, struct xst_end *e, const struct xst_end *from)
{
	static uint8_t want[XST_MAX_FRAME + 4096];
	const struct xst_flow *f = e->in;
	const struct xst_pkt *ex;
	uint32_t len, cmp, k;

	/* Not one of ours: another sender on the link (IPv6 neighbour discovery...). */
	if (!xst_frame_ours(e->acc, e->acc_len))
		return xst_fail(x, "%s: a frame the selftest did not send (%u bytes, ethertype %#06x): other traffic on the link, so no count can be exact (turn IPv6 off on both ends: net.ipv6.conf.IFACE.disable_ipv6=1)",
				e->ifname, e->acc_len,
				e->acc_len >= 14 ? (unsigned int)(e->acc[12] << 8 | e->acc[13]) : 0);
	if (e->rx_next >= f->np)
		return xst_fail(x, "%s: a frame beyond the %u expected (%u bytes)", e->ifname, f->np,
				e->acc_len);
	ex = &f->p[e->rx_next];
	len = ex->len + x->p.tail_delta;
	if (e->acc_len != len)
		return xst_fail(x, "%s: frame %u (seq %u) is %u bytes, expected %u", e->ifname,
				e->rx_next, ex->seq, e->acc_len, len);
	cmp = len < ex->len ? len : ex->len;
	xst_frame(from->mac, e->mac, ex->seq, cmp, want);
	if (memcmp(e->acc, want, cmp)) {
		for (k = 0; k < cmp && e->acc[k] == want[k]; k++)
			;
		return xst_fail(x, "%s: frame %u (seq %u, %u bytes) differs at byte %u: %#04x, expected %#04x%s",
				e->ifname, e->rx_next, ex->seq, len, k, e->acc[k], want[k],
				k < XST_HDR ? " (header: another frame, or the wrong order)" : "");
	}
	for (k = cmp; k < len; k++)
		if (e->acc[k])
			return xst_fail(x, "%s: frame %u grown by the program: byte %u is %#04x, expected 0",
					e->ifname, e->rx_next, k, e->acc[k]);
	e->rx_next++;
	e->rx_bytes += len;
	return 0;
}

/* One RX descriptor: ours, where it should be; its bytes added to the frame. */
static int rx_desc(struct xst_ctx *x, struct xst_end *e, const struct xdp_desc *d)
{
	const struct xst_params *p = &x->p;
	uint64_t base, off, rel;
	const uint8_t *data;

	if (p->unaligned) {
		base = xsk_umem__extract_addr(d->addr);
		off = xsk_umem__extract_offset(d->addr);
	} else {
		base = d->addr & ~(uint64_t)(p->frame_size - 1);
		off = d->addr - base;
	}
	rel = base - e->fill_first - p->fill_off;
	if (base < e->fill_first + p->fill_off || rel % p->frame_size ||
	    rel / p->frame_size >= e->nfill_frames)
		return xst_fail(x, "%s: RX descriptor address %#llx is not a chunk given to the fill ring",
				e->ifname, (unsigned long long)d->addr);
	if (off != XST_KERNEL_HEADROOM + p->headroom)
		return xst_fail(x, "%s: RX data at offset %llu of its chunk, expected %u (256 + headroom %u)",
				e->ifname, (unsigned long long)off, XST_KERNEL_HEADROOM + p->headroom,
				p->headroom);
	if (off + d->len > p->frame_size || e->acc_len + d->len > XST_MAX_FRAME + 4096)
		return xst_fail(x, "%s: RX descriptor of %u bytes overruns its chunk or the frame",
				e->ifname, d->len);
	data = (const uint8_t *)e->area + base + off;
	if (!e->acc_on && p->prog == XL_XSKST_PROG_META) {
		const struct xl_xskst_meta *m = (const void *)(data - sizeof(*m));
		uint32_t want = e->rx_next < e->in->np ? e->in->p[e->rx_next].count : 0;

		if (m->magic != XL_XSKST_META_MAGIC || m->count != want)
			return xst_fail(x, "%s: frame %u's metadata: count %u magic %#x, expected count %u magic %#x",
					e->ifname, e->rx_next, m->count, m->magic, want,
					XL_XSKST_META_MAGIC);
	}
	memcpy(e->acc + e->acc_len, data, d->len);
	e->acc_len += d->len;
	e->acc_on = true;
	if (!p->no_refill && x->cfg->fault != XL_XSKST_FAULT_NO_REFILL)
		e->free[e->nfree++] = base;
	return 0;
}

static int rx_step(struct xst_ctx *x, struct xst_end *e, const struct xst_end *from)
{
	const struct xst_params *p = &x->p;
	uint32_t idx, n, i;
	int err = 0;

	if (p->poll_rx) {
		struct pollfd pfd = { .fd = e->fd, .events = POLLIN };

		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			return xst_fail(x, "poll() on %s: %s", e->ifname, strerror(errno));
	} else if (x->mode >= XL_XSKST_SKB_BUSY || xsk_ring_prod__needs_wakeup(&e->fill)) {
		recvfrom(e->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
	}
	n = xsk_ring_cons__peek(&e->rx, p->batch, &idx);
	for (i = 0; i < n && !err; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&e->rx, idx + i);

		err = rx_desc(x, e, d);
		if (!err && !(d->options & XDP_PKT_CONTD)) {
			err = rx_frame(x, e, from);
			e->acc_len = 0;
			e->acc_on = false;
		}
	}
	if (n)
		xsk_ring_cons__release(&e->rx, n);
	if (!p->no_refill && x->cfg->fault != XL_XSKST_FAULT_NO_REFILL)
		refill(e, UINT32_MAX);
	return err ? err : n > 0;
}

static bool sent_all(const struct xst_end *e)
{
	return !e->out || (e->tx_next == e->out->nd && e->comp_valid == e->tx_valid);
}

static bool got_all(const struct xst_end *e)
{
	return !e->in || e->rx_next == e->in->np;
}

/* Frames sent into @e that the kernel has placed or counted: RX ring entries and drops. */
static int wait_landed(struct xst_ctx *x, struct xst_end *e, uint32_t sent)
{
	uint64_t t0 = xl_now_ns();
	struct xdp_statistics s;

	for (;;) {
		uint32_t avail = xsk_cons_nb_avail(&e->rx, UINT32_MAX);

		if (xst_stats(e, &s))
			return xst_fail(x, "%s: cannot read XDP_STATISTICS", e->ifname);
		if (avail + s.rx_ring_full + s.rx_dropped >= sent)
			return 0;
		if (stopped(x))
			return -EINTR;
		if (xl_now_ns() - t0 > XST_STALL_NS)
			return xst_fail(x, "%s: %u of %u frames sent landed (RX ring %u, rx_ring_full %llu, rx_dropped %llu)",
					e->ifname, avail + (uint32_t)(s.rx_ring_full + s.rx_dropped), sent,
					avail, (unsigned long long)s.rx_ring_full,
					(unsigned long long)s.rx_dropped);
		if (x->mode >= XL_XSKST_SKB_BUSY)
			recvfrom(e->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		nap();
	}
}

static const char *const stat_names[] = { "rx_dropped", "rx_invalid_descs", "tx_invalid_descs",
					  "rx_ring_full", "rx_fill_ring_empty_descs",
					  "tx_ring_empty_descs" };

static uint64_t stat_of(const struct xdp_statistics *s, int i)
{
	const uint64_t v[] = { s->rx_dropped, s->rx_invalid_descs, s->tx_invalid_descs,
			       s->rx_ring_full, s->rx_fill_ring_empty_descs, s->tx_ring_empty_descs };
	return v[i];
}

/* Counters of @e as @exp says (the bits of @check); the differences into @buf. */
static bool stats_match(struct xst_end *e, const struct xdp_statistics *exp, uint32_t check,
			char *buf, size_t len)
{
	struct xdp_statistics s;
	size_t o = 0;
	int i;

	buf[0] = 0;
	if (xst_stats(e, &s)) {
		snprintf(buf, len, "%s: cannot read XDP_STATISTICS", e->ifname);
		return false;
	}
	for (i = 0; i < 6; i++)
		if ((check & (1u << i)) && stat_of(&s, i) != stat_of(exp, i) && o < len)
			o += snprintf(buf + o, len - o, "%s%s %s %llu (expected %llu)", o ? ", " : "",
				      e->ifname, stat_names[i], (unsigned long long)stat_of(&s, i),
				      (unsigned long long)stat_of(exp, i));
	return o == 0;
}

static int check_stats(struct xst_ctx *x)
{
	const struct xst_params *p = &x->p;
	uint64_t t0 = xl_now_ns();
	char m1[200], m2[200];
	bool ok;

	for (;;) {
		ok = stats_match(&x->b, &p->rx_exp, p->rx_check, m1, sizeof(m1));
		ok &= stats_match(&x->a, &p->tx_exp, p->tx_check, m2, sizeof(m2));
		if (ok)
			return 0;
		if (stopped(x))
			return -EINTR;
		if (xl_now_ns() - t0 > XST_SETTLE_NS)
			return xst_fail(x, "%s%s%s", m1, m1[0] && m2[0] ? "; " : "", m2);
		nap();
	}
}

int xst_run_flows(struct xst_ctx *x)
{
	struct xst_params *p = &x->p;
	struct xst_end *a = &x->a, *b = &x->b;
	uint64_t last, t;
	int err = 0, pa, pb, pc, pd;

	a->out = &p->ab;
	b->in = &p->ab;
	if (p->bidi) {
		b->out = &p->ba;
		a->in = &p->ba;
	}
	write_frames(x, a, b);
	if (b->out)
		write_frames(x, b, a);
	if ((err = fill_init(x, b, b->nfill_frames)) || (a->in && (err = fill_init(x, a, a->nfill_frames))))
		return err;
	last = xl_now_ns();
	while (!(sent_all(a) && sent_all(b) && got_all(a) && got_all(b))) {
		if (stopped(x))
			return -EINTR;
		pc = 0;
		if (p->rx_hold && !sent_all(a))
			;
		else if (p->rx_hold && b->rx_next == 0 && !b->acc_on &&
			 (err = wait_landed(x, b, a->tx_valid)))
			return err;
		else
			pc = rx_step(x, b, a);
		pd = a->in ? rx_step(x, a, b) : 0;
		if (pc < 0 || pd < 0)
			return -EIO;
		pa = tx_step(x, a);
		pb = b->out ? tx_step(x, b) : 0;
		if (pa < 0 || pb < 0)
			return -EIO;
		t = xl_now_ns();
		if (pa || pb || pc || pd) {
			last = t;
		} else if (t - last > XST_STALL_NS) {
			return xst_fail(x, "stalled: %s received %u of %u frames, %s completed %u of %u valid descriptors (%u put in TX)",
					b->ifname, b->rx_next, p->ab.np, a->ifname, a->comp_valid,
					a->tx_valid, a->tx_next);
		} else {
			nap();
		}
	}
	/* Nothing more may come. */
	t = xl_now_ns();
	while (xl_now_ns() - t < XST_QUIET_NS) {
		if (rx_step(x, b, a) < 0 || (a->in && rx_step(x, a, b) < 0))
			return -EIO;
		nap();
	}
	x->r->sent = 0;
	for (uint32_t i = 0; i < p->ab.nd; i++)
		x->r->sent += p->ab.d[i].valid && !(p->ab.d[i].options & XDP_PKT_CONTD);
	x->r->received = b->rx_next;
	x->r->bytes = b->rx_bytes;
	return check_stats(x);
}
