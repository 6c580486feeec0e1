// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP selftest's cases (xdplab xsk selftest): what each sends, what
 * must arrive and which counters must read what; the table of them. The list follows the
 * kernel's xskxceiver (tools/testing/selftests/bpf/xskxceiver.c, test_xsk.sh:
 * SEND_RECEIVE, the 2K and unaligned chunks, POLL_RX/TX and their
 * time-outs, TEARDOWN, BIDIRECTIONAL, UMEM_HEADROOM, the STAT_* cases,
 * ALIGNED/UNALIGNED_INV_DESC, XDP_DROP_HALF, XDP_METADATA_COPY,
 * ADJUST_TAIL, the 9K multi-buffer and TOO_MANY_FRAGS, the ring sizes);
 * the code, frames and checks are ours. The frames: Ethernet (the peer's
 * MAC to the interface's, type 0x88b5), "XLST", a sequence number, then
 * bytes that depend on the sequence number and the position only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/time.h"
#include "xsk_selftest_priv.h"

#define N_FRAMES 1024u /* frames most cases send */

/* ---- building a flow ---- */

/*
 * One frame of @len bytes from @addr, in descriptors of at most one chunk
 * (multi-buffer when longer: XDP_PKT_CONTD on all but the last), each at
 * the next chunk; @valid: the kernel must send it (and the program then
 * sees it: @seen counts those, for the metadata and drop-half cases).
 */
static int add_frame(struct xst_ctx *x, struct xst_flow *f, uint32_t seq, uint64_t addr,
		     uint32_t len, bool valid, bool expect)
{
	uint32_t fs = x->p.frame_size, off = 0, piece;

	do {
		struct xst_desc d = { .addr = addr, .seq = seq, .off = off, .valid = valid,
				      .write = true };

		piece = len - off;
		if (x->p.sg && piece > fs)
			piece = fs;
		d.len = piece;
		d.options = off + piece < len ? XDP_PKT_CONTD : 0;
		if (xst_add_desc(f, &d))
			return -ENOMEM;
		off += piece;
		addr += fs;
	} while (off < len);
	if (valid && expect && xst_add_pkt(f, seq, len, f->np ? f->p[f->np - 1].count + 1 : 0))
		return -ENOMEM;
	return 0;
}

/* A descriptor the kernel must refuse (counted in tx_invalid_descs), or take. */
static int add_raw(struct xst_flow *f, uint32_t seq, uint64_t addr, uint32_t len, bool valid)
{
	struct xst_desc d = { .addr = addr, .len = len, .seq = seq, .valid = valid,
			      .write = valid };

	if (xst_add_desc(f, &d))
		return -ENOMEM;
	return valid ? xst_add_pkt(f, seq, len, f->np ? f->p[f->np - 1].count + 1 : 0) : 0;
}

/* Frame @i's length: 64..@max bytes, varied. */
static uint32_t vary(uint32_t i, uint32_t max)
{
	return 64 + (i * 97u) % (max - 63);
}

static uint32_t rx_room(const struct xst_params *p)
{
	return p->frame_size - XST_KERNEL_HEADROOM - p->headroom;
}

/* @n frames of varied length (up to 1514 and the chunk's room), one chunk each. */
static int stream(struct xst_ctx *x, struct xst_flow *f, uint32_t n, uint32_t fixed_len)
{
	uint32_t max = rx_room(&x->p) < 1514 ? rx_room(&x->p) : 1514, i;

	if (max + 4 > rx_room(&x->p) && x->p.tail_delta > 0)
		max = rx_room(&x->p) - x->p.tail_delta;
	for (i = 0; i < n; i++)
		if (add_frame(x, f, i, (uint64_t)i * x->p.frame_size + x->p.fill_off,
			      fixed_len ? fixed_len : vary(i, max), true, true))
			return -ENOMEM;
	return 0;
}

/* The TX region: every chunk a written descriptor touches. */
static uint32_t tx_frames_of(const struct xst_params *p)
{
	const struct xst_flow *f[2] = { &p->ab, &p->ba };
	uint64_t end = 0;
	uint32_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < f[k]->nd; i++)
			if (f[k]->d[i].write && f[k]->d[i].addr + f[k]->d[i].len > end)
				end = f[k]->d[i].addr + f[k]->d[i].len;
	return (end + p->frame_size - 1) / p->frame_size;
}

/* A case's parameters over the defaults (struct xst_tweak: 0 keeps the default). */
static void apply_tweak(struct xst_ctx *x, const struct xst_tweak *t)
{
	struct xst_params *p = &x->p;

	x->frames = t->frames;
	if (t->frame_size)
		p->frame_size = t->frame_size;
	p->headroom = t->headroom;
	p->prog = t->prog;
	p->tail_delta = t->tail_delta;
	p->poll_rx = t->poll_rx;
	p->poll_tx = t->poll_tx;
	if (t->rings)
		p->rx_size = p->tx_size = p->fill_size = p->comp_size = t->rings;
	if (t->batch)
		p->batch = t->batch;
	p->hw_ring = t->hw_ring;
}

int xst_case_build(struct xst_ctx *x, const struct xst_case *k, struct xst_layout *lo)
{
	int err;

	*lo = (struct xst_layout){ 0, 4096 };
	xst_defaults(&x->p);
	apply_tweak(x, &k->t);
	err = (k->build ? k->build : xst_build_stream)(x, lo);
	if (!err && !lo->tx_frames)
		lo->tx_frames = tx_frames_of(&x->p) ? tx_frames_of(&x->p) : 1;
	return err;
}

int xst_build_stream(struct xst_ctx *x, struct xst_layout *lo)
{
	return stream(x, &x->p.ab, x->frames, 0);
}

void xst_defaults(struct xst_params *p)
{
	memset(p, 0, sizeof(*p));
	p->frame_size = 4096;
	p->rx_size = p->tx_size = p->fill_size = p->comp_size = 2048;
	p->fill_count = UINT32_MAX;
	p->batch = 64;
	p->rx_check = p->tx_check = XST_STAT_ALL;
}

/* ---- the cases ---- */

static int c_unaligned(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	p->unaligned = true;
	p->fill_off = 1000; /* every fill chunk starts 1000 bytes into a 4K frame */
	for (i = 0; i < N_FRAMES; i++)
		/* TX data anywhere: straddling 4K pages at every other frame
		 * (even addresses: see unaligned_odd_addr) */
		if (add_frame(x, &p->ab, i, (uint64_t)2 * i * 4096 + (i & 1 ? 4096 - 100 : 26 * i % 2000),
			      vary(i, 1514), true, true))
			return -ENOMEM;
	return 0;
}

static int c_bidi(struct xst_ctx *x, struct xst_layout *lo)
{
	x->p.bidi = true;
	return stream(x, &x->p.ab, N_FRAMES, 0) || stream(x, &x->p.ba, N_FRAMES, 0) ? -ENOMEM : 0;
}

/* Every other frame longer than the chunk's room: rx_dropped counts them. */
static int c_rx_dropped(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	p->headroom = p->frame_size - XST_KERNEL_HEADROOM - 512; /* 512 bytes of room */
	for (i = 0; i < N_FRAMES; i++)
		if (add_frame(x, &p->ab, i, (uint64_t)i * p->frame_size, i & 1 ? 1024 : 64, true,
			      !(i & 1)))
			return -ENOMEM;
	p->rx_exp.rx_dropped = N_FRAMES / 2;
	return 0;
}

/* Every other descriptor longer than a chunk: tx_invalid_descs counts them. */
static int c_tx_invalid(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	for (i = 0; i < N_FRAMES; i++)
		if (add_raw(&p->ab, i, (uint64_t)i * p->frame_size, i & 1 ? p->frame_size + 1 : 64,
			    !(i & 1)))
			return -ENOMEM;
	p->tx_exp.tx_invalid_descs = N_FRAMES / 2;
	return 0;
}

/* An RX ring of 512 and 1024 frames not read until all are sent. */
static int c_rx_full(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	p->rx_size = 512;
	p->rx_hold = true;
	for (i = 0; i < N_FRAMES; i++)
		if (add_frame(x, &p->ab, i, (uint64_t)i * p->frame_size, 64, true, i < 512))
			return -ENOMEM;
	p->rx_exp.rx_ring_full = N_FRAMES - 512;
	return 0;
}

/*
 * Addresses beyond the UMEM first in the fill ring: the kernel skips them
 * (__xp_alloc() counts them on the fill ring, which XDP_STATISTICS does not
 * report: rx_invalid_descs is the RX ring's, 0) and every frame arrives.
 */
static int c_fill_invalid(struct xst_ctx *x, struct xst_layout *lo)
{
	x->p.fill_invalid = 64;
	return stream(x, &x->p.ab, N_FRAMES, 0);
}

/* Nothing in the fill ring: every frame counted as a fill-ring miss and a drop. */
static int c_fill_empty(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	p->fill_count = 0;
	p->no_refill = true;
	for (i = 0; i < 256; i++)
		if (add_frame(x, &p->ab, i, (uint64_t)i * p->frame_size, 64, true, false))
			return -ENOMEM;
	p->rx_exp.rx_fill_ring_empty_descs = 256;
	p->rx_exp.rx_dropped = 256;
	return 0;
}

/*
 * The aligned invalid descriptors (xskxceiver's list, our frames): the
 * kernel takes the valid ones in order and counts the rest.
 */
static int c_inv_aligned(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	struct xst_flow *f = &p->ab;
	uint32_t s = 0, ninv = 0, fs = p->frame_size;
	uint64_t umem;
	int e = 0;

	lo->tx_frames = 16;
	umem = (uint64_t)lo->tx_frames * fs; /* the sender's UMEM: no fill region */
	e |= add_raw(f, s++, 0, 64, true);		 /* address 0 */
	e |= add_raw(f, s++, fs, 64, true);		 /* a plain one */
	e |= add_raw(f, s++, (uint64_t)-2, 64, false);   /* straddles the UMEM's start */
	e |= add_raw(f, s++, 2 * fs, fs + 1, false);     /* longer than a chunk */
	e |= add_raw(f, s++, 3 * fs, 0, false);		 /* length 0 */
	e |= add_raw(f, s++, umem - 64, 64, true);       /* up to the UMEM's end */
	e |= add_raw(f, s++, umem, 64, false);		 /* after its end */
	e |= add_raw(f, s++, umem - 32, 64, false);      /* straddles its end */
	e |= add_raw(f, s++, 5 * fs - 32, 64, false);    /* crosses a chunk */
	e |= add_raw(f, s++, 6 * fs + 100, fs - 99, false); /* crosses a chunk by one byte */
	e |= add_raw(f, s++, 7 * fs, 64, true);		 /* something after them all */
	for (uint32_t i = 0; i < f->nd; i++)
		ninv += !f->d[i].valid;
	p->tx_exp.tx_invalid_descs = ninv;
	return e ? -ENOMEM : 0;
}

/* Unaligned: crossing a page or a chunk is fine, the UMEM's ends are not. */
static int c_inv_unaligned(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	struct xst_flow *f = &p->ab;
	uint32_t fs = p->frame_size, s = 0;
	uint64_t umem;
	int e = 0;

	p->unaligned = true;
	lo->tx_frames = 16;
	umem = (uint64_t)(lo->tx_frames + 1) * fs; /* the sender's: one frame of slack when unaligned */
	e |= add_raw(f, s++, 0, 64, true);
	e |= add_raw(f, s++, fs + 6, 64, true);	   /* any address */
	e |= add_raw(f, s++, 3 * fs - 32, 64, true);       /* crosses a chunk and a page */
	e |= add_raw(f, s++, 4 * fs, fs + 1, false);       /* longer than a chunk */
	e |= add_raw(f, s++, 6 * fs, 0, false);	   /* length 0 */
	e |= add_raw(f, s++, umem - 64, 64, true);	 /* up to the UMEM's end */
	e |= add_raw(f, s++, umem, 64, false);		   /* after its end */
	e |= add_raw(f, s++, umem - 32, 64, false);	/* straddles its end */
	e |= add_raw(f, s++, 8 * fs, 64, true);
	p->tx_exp.tx_invalid_descs = 4;
	return e ? -ENOMEM : 0;
}

static int c_drop_half(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	p->prog = XL_XSKST_PROG_DROP_HALF;
	for (i = 0; i < N_FRAMES; i++)
		if (add_frame(x, &p->ab, i, (uint64_t)i * p->frame_size, vary(i, 1514), true, !(i & 1)))
			return -ENOMEM;
	return 0;
}

/* 9000-byte MTU, frames of 9014 bytes in three chunks each way. */
static int c_mb_9k(struct xst_ctx *x, struct xst_layout *lo)
{
	struct xst_params *p = &x->p;
	uint32_t i;

	p->sg = true;
	p->mtu = 9000;
	lo->tx_frames = 3 * 256;
	for (i = 0; i < 256; i++)
		if (add_frame(x, &p->ab, i, (uint64_t)i * 3 * p->frame_size,
			      i & 1 ? XST_MAX_FRAME : 5000 + i, true, true))
			return -ENOMEM;
	return 0;
}

/* A frame in @n descriptors of 64 bytes, each in its own chunk from @frame. */
static int frags_frame(struct xst_ctx *x, uint32_t seq, uint32_t frame, uint32_t n, bool valid)
{
	struct xst_flow *f = &x->p.ab;
	uint32_t j;

	for (j = 0; j < n; j++) {
		struct xst_desc d = { .addr = (uint64_t)(frame + j) * x->p.frame_size, .len = 64,
				      .options = j + 1 < n ? XDP_PKT_CONTD : 0, .seq = seq,
				      .off = j * 64, .valid = valid, .write = true };

		if (xst_add_desc(f, &d))
			return -ENOMEM;
	}
	return valid ? xst_add_pkt(f, seq, n * 64, f->np ? f->p[f->np - 1].count + 1 : 0) : 0;
}

/*
 * The most fragments a frame may have in copy mode, then one more: the
 * kernel drops that frame whole and counts its descriptors as invalid
 * (xsk_build_skb() stops at MAX_SKB_FRAGS; xskxceiver's TOO_MANY_FRAGS).
 */
static int c_too_many_frags(struct xst_ctx *x, struct xst_layout *lo)
{
	unsigned int frags = 17; /* MAX_SKB_FRAGS, unless the sysctl says */
	FILE *fp = fopen("/proc/sys/net/core/max_skb_frags", "r");
	uint32_t m;

	if (fp) {
		if (fscanf(fp, "%u", &frags) != 1)
			frags = 17;
		fclose(fp);
	}
	m = frags + 1; /* the linear part and the fragments */

	x->p.sg = true;
	if (frags_frame(x, 0, 0, 1, true) || frags_frame(x, 1, 1, m, true) ||
	    frags_frame(x, 2, 1 + m, m + 1, false) || frags_frame(x, 3, 2 + 2 * m, 2, true))
		return -ENOMEM;
	x->p.tx_exp.tx_invalid_descs = m + 1;
	return 0;
}

/* 32 frames fill the completion ring; 64 more the TX ring (run_poll_tx_timeout()). */
static int c_poll_tx_timeout(struct xst_ctx *x, struct xst_layout *lo)
{
	x->p.tx_size = 64;
	x->p.comp_size = 32;
	return stream(x, &x->p.ab, 32 + 64, 64);
}

/* One frame at an odd address in unaligned mode: completed with that very address. */
static int c_unaligned_odd(struct xst_ctx *x, struct xst_layout *lo)
{
	uint32_t i;

	x->p.unaligned = true;
	for (i = 0; i < 64; i++)
		if (add_frame(x, &x->p.ab, i, (uint64_t)i * 4096 + 1 + 2 * i, 64 + i, true, true))
			return -ENOMEM;
	return 0;
}

/* NULL builder: the plain stream of .t.frames frames (xst_build_stream()). */
const struct xst_case xst_cases[] = {
	{ "send_receive", "1024 frames of 64..1514 bytes, 4K chunks: all arrive in order, byte-exact, every counter 0",
	  .t = { .frames = N_FRAMES } },
	{ "send_receive_2k_frame", "the same with 2K chunks", .t = { .frames = N_FRAMES, .frame_size = 2048 } },
	{ "send_receive_single_pkt", "one frame", .t = { .frames = 1 } },
	{ "send_receive_unaligned", "unaligned chunks: fill chunks 1000 bytes into a frame, TX data across 4K pages", c_unaligned },
	{ "unaligned_odd_addr", "unaligned chunks, 64 frames at odd addresses: each completed with its own address", c_unaligned_odd },
	{ "send_receive_9k_multi_buffer", "MTU 9000, XDP_USE_SG: 256 frames of 5000..9014 bytes in 2-3 descriptors each way", c_mb_9k },
	{ "poll_rx", "the receiver waits in poll(POLLIN)", .t = { .frames = N_FRAMES, .poll_rx = true } },
	{ "poll_tx", "the sender sends through poll(POLLOUT), never sendto()", .t = { .frames = N_FRAMES, .poll_tx = true } },
	{ "poll_rx_timeout", "nothing sent: poll(POLLIN, 100 ms) times out, nothing received", .run = XST_RUN_POLL_RX_TIMEOUT },
	{ "poll_tx_timeout", "a full completion ring (32, never read), then a full TX ring: poll(POLLOUT, 100 ms) times out", c_poll_tx_timeout, XST_RUN_POLL_TX_TIMEOUT },
	{ "teardown", "10 times: make both ends, 64 frames, tear all down", .repeat = 10, .t = { .frames = 64 } },
	{ "bidirectional", "both ends send 1024 frames and receive the other's", c_bidi },
	{ "umem_headroom", "1024 bytes of UMEM headroom: data at 256 + 1024 into each chunk", .t = { .frames = N_FRAMES, .headroom = 1024 } },
	{ "stat_rx_dropped", "every other frame longer than a chunk's room: rx_dropped 512", c_rx_dropped },
	{ "stat_tx_invalid", "every other descriptor longer than a chunk: tx_invalid_descs 512", c_tx_invalid },
	{ "stat_rx_full", "RX ring of 512 not read until 1024 frames are sent: rx_ring_full 512", c_rx_full },
	{ "stat_fill_empty", "nothing in the fill ring: rx_fill_ring_empty_descs 256, rx_dropped 256", c_fill_empty },
	{ "stat_fill_invalid", "64 addresses beyond the UMEM first in the fill ring: skipped, every frame arrives, rx_invalid_descs 0", c_fill_invalid },
	{ "stat_tx_empty", "8 kicks of an empty TX ring: tx_ring_empty_descs 8", .run = XST_RUN_TX_EMPTY },
	{ "aligned_inv_desc", "aligned 4K chunks: out of the UMEM, length 0, longer than a chunk, across a chunk: refused and counted", c_inv_aligned },
	{ "aligned_inv_desc_2k_frame", "the same with 2K chunks", c_inv_aligned, .t = { .frame_size = 2048 } },
	{ "unaligned_inv_desc", "unaligned chunks: across a page is fine, out of the UMEM, length 0, longer than a chunk are not", c_inv_unaligned },
	{ "too_many_frags", "a frame of the most fragments copy mode takes, then one of one more: dropped whole, its descriptors counted invalid", c_too_many_frags },
	{ "xdp_drop_half", "a program dropping every other frame: the even ones arrive", c_drop_half },
	{ "xdp_metadata", "a program writing a count as metadata: each frame carries its own", .t = { .frames = N_FRAMES, .prog = XL_XSKST_PROG_META } },
	{ "xdp_adjust_tail_shrink", "a program cutting 4 bytes off every frame", .t = { .frames = N_FRAMES, .prog = XL_XSKST_PROG_TAIL, .tail_delta = -4 } },
	{ "xdp_adjust_tail_grow", "a program adding 4 zero bytes to every frame", .t = { .frames = N_FRAMES, .prog = XL_XSKST_PROG_TAIL, .tail_delta = 4 } },
	{ "ring_min", "every ring of 1 entry, 256 frames one at a time", .t = { .frames = 256, .rings = 1, .batch = 1 } },
	{ "ring_max", "every ring of 65536 entries", .t = { .frames = N_FRAMES, .rings = XL_XSKST_RING_MAX } },
	{ "hw_ring_min", "the interface's hardware rings at 64 descriptors (ethtool -G), rings of 64, 1024 frames", .t = { .frames = N_FRAMES, .rings = 64, .hw_ring = XST_HW_RING_MIN } },
	{ "hw_ring_max", "the interface's hardware rings at their maximum (ethtool -G), rings of 8192, 4096 frames", .t = { .frames = 4096, .rings = 8192, .batch = 256, .hw_ring = XST_HW_RING_MAX } },
};
const int xst_ncases = sizeof(xst_cases) / sizeof(xst_cases[0]);
