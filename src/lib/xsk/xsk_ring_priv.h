/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the hot path's files (xsk_ring.c: the primitives and rxdrop,
 * xsk_l2fwd.c, xsk_txpush.c): the inline parts each step's loop keeps
 * (branch hints, the completions' bases) and the ring primitives the
 * steps call once per batch. The rules of xsk_ring.c's head hold for all.
 */
#ifndef XDPLAB_XSK_RING_PRIV_H
#define XDPLAB_XSK_RING_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "xsk_priv.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
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
/**
 * xl_xsk_idle() - nothing to do: a recvfrom when busy polling or when the
 * kernel asks for the fill ring (@events POLLIN), else poll() for @events
 * up to 100 ms with --poll, else return at once to spin. A POLLERR or
 * POLLNVAL sets q->err (-ENXIO) if unset.
 */
void xl_xsk_idle(struct xl_xsk_q *q, short events);

/**
 * xl_xsk_refill_nokick() - up to @max free frames into the fill ring, one
 * reserve/submit, no kick. Return: frames given.
 */
uint32_t xl_xsk_refill_nokick(struct xl_xsk_q *q, uint32_t max);

/**
 * xl_xsk_fill_kick() - after frames went into the fill ring: a recvfrom
 * when the kernel asks. Return: whether it kicked.
 */
bool xl_xsk_fill_kick(struct xl_xsk_q *q);

/**
 * xl_xsk_refill_kicked() - xl_xsk_refill() that says in *@kicked whether a
 * recvfrom woke the kernel for the frames given. Return: frames given.
 */
uint32_t xl_xsk_refill_kicked(struct xl_xsk_q *q, uint32_t max, bool *kicked);

#endif /* XDPLAB_XSK_RING_PRIV_H */
