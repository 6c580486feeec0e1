/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xsk_rig.h - fake AF_XDP rings in plain memory for the unit tests of the
 * hot path (test_xsk_frames.c, test_xsk_wakeup.c): four rings laid out as
 * the kernel's (producer, consumer, flags words and the entries), one
 * socket's struct xl_xsk_q over them with fd -1 (kicks are counted in
 * q.c.wakeups but no syscall is made), and a tiny "kernel" that moves
 * frames from the fill ring to the RX ring and from the TX ring to the
 * completion ring as the real one does. Include after <cmocka.h>.
 */
#ifndef XDPLAB_TEST_XSK_RIG_H
#define XDPLAB_TEST_XSK_RIG_H

#include <stdlib.h>
#include <string.h>

#include "xsk_priv.h"

#define FS 2048u /* frame size, bytes */

struct fake_ring {
	uint32_t prod, cons, flags;
	union {
		uint64_t addr[4096];
		struct xdp_desc desc[4096];
	};
};

struct rig {
	struct fake_ring fill_m, comp_m, rx_m, tx_m;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xl_xsk_q q;
	uint8_t *area;
	uint32_t nframes;
};

/*
 * Point libxdp's ring @r (xsk_ring_prod and xsk_ring_cons have the same
 * fields) at the fake ring @m of @size entries, both indexes at @start.
 * A producer caches cons + size, as libxdp does; a consumer cons.
 */
#define RING_INIT(r, m, size, start, cons_cache)                              \
	do {                                                                  \
		memset((m), 0, sizeof(*(m)));                                 \
		(m)->prod = (m)->cons = (start);                              \
		(r)->mask = (size) - 1;                                       \
		(r)->size = (size);                                           \
		(r)->producer = &(m)->prod;                                   \
		(r)->consumer = &(m)->cons;                                   \
		(r)->ring = (m)->addr;                                        \
		(r)->flags = &(m)->flags;                                     \
		(r)->cached_prod = (start);                                   \
		(r)->cached_cons = (cons_cache);                              \
	} while (0)

static inline void prod_init(struct xsk_ring_prod *r, struct fake_ring *m, uint32_t size, uint32_t start)
{
	RING_INIT(r, m, size, start, start + size);
}

static inline void cons_init(struct xsk_ring_cons *r, struct fake_ring *m, uint32_t size, uint32_t start)
{
	RING_INIT(r, m, size, start, start);
}

/* A rig with @nframes frames and rings of @rsz (fill, comp, rx) and @txsz
 * entries, every ring index starting at @start. */
static inline struct rig *rig_new(uint32_t nframes, uint32_t rsz, uint32_t txsz, uint32_t start,
			   bool track)
{
	struct rig *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->nframes = nframes;
	r->area = calloc(nframes, FS);
	assert_non_null(r->area);
	prod_init(&r->fill, &r->fill_m, rsz, start);
	cons_init(&r->comp, &r->comp_m, rsz, start);
	cons_init(&r->q.rx, &r->rx_m, rsz, start);
	prod_init(&r->q.tx, &r->tx_m, txsz, start);
	r->q.fill = &r->fill;
	r->q.comp = &r->comp;
	r->q.area = r->area;
	r->q.fd = -1;
	r->q.batch = 64;
	r->q.need_wakeup = true;
	r->q.budget = UINT64_MAX;
	assert_int_equal(xl_frames_init(&r->q.frames, 0, nframes, FS, (uint64_t)nframes * FS,
					false, track), 0);
	return r;
}

static inline void rig_free(struct rig *r)
{
	xl_frames_fini(&r->q.frames);
	free(r->area);
	free(r);
}

/* Kernel side: up to @n frames from the fill ring into the RX ring, each
 * @len bytes at offset 256; stops when either ring runs out. */
static inline uint32_t kernel_rx(struct rig *r, uint32_t n, uint32_t len)
{
	uint32_t i, size = r->fill.size;

	for (i = 0; i < n; i++) {
		uint64_t addr;
		struct xdp_desc *d;

		if (r->fill_m.prod == r->fill_m.cons)
			break; /* fill ring empty */
		if (r->rx_m.prod - r->rx_m.cons == r->q.rx.size)
			break; /* RX ring full */
		addr = r->fill_m.addr[r->fill_m.cons & (size - 1)];
		r->fill_m.cons++;
		d = &r->rx_m.desc[r->rx_m.prod & (r->q.rx.size - 1)];
		d->addr = addr + XL_XSK_KERNEL_HEADROOM;
		d->len = len;
		d->options = 0;
		memset(r->area + d->addr, 0xab, len);
		r->rx_m.prod++;
	}
	return i;
}

/* Kernel side: up to @n TX descriptors sent, their addresses completed. */
static inline uint32_t kernel_tx(struct rig *r, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (r->tx_m.prod == r->tx_m.cons)
			break;
		if (r->comp_m.prod - r->comp_m.cons == r->comp.size)
			break;
		r->comp_m.addr[r->comp_m.prod & (r->comp.size - 1)] =
			r->tx_m.desc[r->tx_m.cons & (r->q.tx.size - 1)].addr;
		r->tx_m.cons++;
		r->comp_m.prod++;
	}
	return i;
}

static inline void assert_audit(struct rig *r)
{
	uint32_t fill, rx, tx, comp;
	char buf[512];
	int err;

	xl_xsk_ring_counts(&r->q, &fill, &rx, &tx, &comp);
	err = xl_frames_audit_text(&r->q.frames, fill, rx, tx, comp, buf, sizeof(buf));
	if (err)
		print_message("%s\n", buf);
	assert_int_equal(err, 0);
}

#endif /* XDPLAB_TEST_XSK_RIG_H */
