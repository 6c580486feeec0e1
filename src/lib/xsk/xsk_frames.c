// SPDX-License-Identifier: BSD-2-Clause
/*
 * AF_XDP configuration rules and the frame allocator. Pure code (no
 * syscalls but sysconf), unit-tested in tests/unit/test_xsk_frames.c.
 *
 * The chunk rules are those of xdp_umem_reg() in net/xdp/xdp_umem.c,
 * checked here first so that a bad size is a message naming the rule,
 * not a bare EINVAL from setsockopt(XDP_UMEM_REG).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/pkt.h"
#include "xsk_priv.h"

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

const char *xl_xsk_app_name(enum xl_xsk_app_kind app)
{
	static const char *const n[] = { "rxdrop", "txpush", "l2fwd" };

	return app <= XL_XSK_L2FWD ? n[app] : "?";
}

void xl_xsk_config_defaults(struct xl_xsk_config *c)
{
	memset(c, 0, sizeof(*c));
	c->frame_size = 4096;
	c->frames = 4096;
	c->tx_size = c->comp_size = 2048;
	c->batch = 64;
	c->mode = XL_MODE_NATIVE;
	c->copy = XL_XSK_AUTO;
	c->need_wakeup = true;
	c->busy_budget = 64;
	c->queues = 1;
	c->first_cpu = -1;
	xl_xsk_config_rings_default(c); /* not pinned: 8192 */
	c->flows = 1;
	c->bursts = 1;
	c->spec.size = 64;
	c->bind_timeout_ns = 3000000000ull;
}

void xl_xsk_config_rings_default(struct xl_xsk_config *c)
{
	/*
	 * Pinned: 2048 (why: xsk.h). Not pinned, the default: fill and RX
	 * rings of 8192 (4096 before): the kernel keeps receiving while the
	 * application waits for a CPU, and a rate-limited generator that was
	 * itself descheduled catches up in one burst at full speed.
	 * Measured on the shared 2-CPU machine (rxdrop XDP_DRV, default
	 * placement, gen --rate 100000 --count 100000; docs/afxdp.md "Exact
	 * counts"): the RX backlog the application found on waking peaked at
	 * 3,200-5,200 frames at load average 2 and at 8,192 at load average 10
	 * (away 30-150 ms; one burst of 7,300 frames in 4 ms); rings of 2048
	 * lost 2-14% of the frames to an empty fill ring in 9 of 9 runs,
	 * 8192 lost none in 14 of 17. xl_xsk_frames_needed() sizes --frames
	 * to match (16384 for rxdrop: 64 MiB of 4096-byte chunks).
	 */
	c->rx_size = c->fill_size = c->first_cpu >= 0 ? 2048 : 8192;
}

void xl_xsk_config_wait_default(struct xl_xsk_config *c)
{
	c->busy_poll = c->app == XL_XSK_L2FWD ||
		       (c->app == XL_XSK_RXDROP && c->mode == XL_MODE_SKB);
	/* rxdrop XDP_DRV on a CPU of its own (--cpu): spin, as xdpsock does;
	 * poll()'s wake-ups cost the kernel's side more than spinning costs
	 * a CPU nobody else needs (docs/afxdp.md, docs/performance.md). */
	c->poll = !c->busy_poll &&
		  !(c->app == XL_XSK_RXDROP && c->mode != XL_MODE_SKB && c->first_cpu >= 0);
}

int xl_xsk_check_ring_size(const char *opt, uint64_t size, char *msg,
			   size_t len)
{
	if (size >= 1 && size <= XL_XSK_MAX_RING && is_pow2(size))
		return 0;
	snprintf(msg, len, "%s: %llu is not a power of two in 1..%u (ring indexes are masked with size - 1)",
		 opt, (unsigned long long)size, XL_XSK_MAX_RING);
	return -EINVAL;
}

int xl_xsk_check_frame_size(uint64_t size, bool unaligned, bool hugepages,
			    char *msg, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);

	if (size < XL_XSK_MIN_FRAME) {
		snprintf(msg, len, "--frame-size: %llu is below the kernel's minimum chunk of %d bytes",
			 (unsigned long long)size, XL_XSK_MIN_FRAME);
		return -EINVAL;
	}
	if (!unaligned && !is_pow2(size)) {
		snprintf(msg, len, "--frame-size: %llu is not a power of two (aligned chunks: 2048 or 4096; any size needs --unaligned)",
			 (unsigned long long)size);
		return -EINVAL;
	}
	/*
	 * Unaligned frames start at multiples of the frame size, so an odd
	 * size puts every other frame at an odd address, and copy-mode TX
	 * completions come back with bit 0 cleared (the kernel keeps the
	 * address in skb destructor_arg, whose low bit it uses as a flag):
	 * those frames would be lost. Measured on 6.18 with 2049 and 4001.
	 */
	if (unaligned && (size & 1)) {
		snprintf(msg, len, "--frame-size: %llu is odd (unaligned chunks need an even size: copy-mode TX completions lose bit 0 of the address)",
			 (unsigned long long)size);
		return -EINVAL;
	}
	/* Measured on 6.18: XDP_UMEM_REG refuses larger chunks, hugepages or not. */
	if (size > (uint64_t)page) {
		snprintf(msg, len, "--frame-size: %llu is above the page size (%ld bytes), the largest chunk the kernel registers%s; longer frames need --frags",
			 (unsigned long long)size, page, hugepages ? " even with --hugepages" : "");
		return -EINVAL;
	}
	return 0;
}

uint32_t xl_xsk_frame_room(const struct xl_xsk_config *c)
{
	uint32_t used = XL_XSK_KERNEL_HEADROOM + c->headroom;

	return c->frame_size > used ? c->frame_size - used : 0;
}

uint32_t xl_xsk_frames_needed(const struct xl_xsk_config *c)
{
	uint32_t n;

	if (c->app == XL_XSK_TXPUSH || c->starve_fill)
		return 0;
	n = c->fill_size + c->rx_size; /* at most 2^17: rings are 1..2^16 */
	if (c->app == XL_XSK_L2FWD)
		n += c->tx_size + c->comp_size;
	return n;
}

bool xl_xsk_fill_warning(const struct xl_xsk_config *c, char *msg, size_t len)
{
	uint32_t need = xl_xsk_frames_needed(c);

	if (c->frames >= need)
		return false;
	if (c->app == XL_XSK_L2FWD)
		snprintf(msg, len, "only %u frames per socket: the fill (%u), RX (%u), TX (%u) and completion (%u) rings can hold %u, so the kernel may find the fill ring empty (rx_fill_ring_empty_descs); give --frames %u or more",
			 c->frames, c->fill_size, c->rx_size, c->tx_size, c->comp_size, need, need);
	else
		snprintf(msg, len, "only %u frames per socket: the fill (%u) and RX (%u) rings can hold %u, so the kernel may find the fill ring empty (rx_fill_ring_empty_descs); give --frames %u or more",
			 c->frames, c->fill_size, c->rx_size, need, need);
	return true;
}

int xl_xsk_config_check(const struct xl_xsk_config *c, char *msg, size_t len)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t mem = pages > 0 ? (uint64_t)pages * page : 0, umem;
	int err;

	if ((err = xl_xsk_check_ring_size("--rx-size", c->rx_size, msg, len)) ||
	    (err = xl_xsk_check_ring_size("--tx-size", c->tx_size, msg, len)) ||
	    (err = xl_xsk_check_ring_size("--fill-size", c->fill_size, msg, len)) ||
	    (err = xl_xsk_check_ring_size("--comp-size", c->comp_size, msg, len)))
		return err;
	err = xl_xsk_check_frame_size(c->frame_size, c->unaligned, c->hugepages, msg, len);
	if (err)
		return err;
	if (xl_xsk_frame_room(c) < XL_PKT_MIN_SIZE) {
		snprintf(msg, len, "--headroom: %u leaves %u bytes of a %u-byte chunk for the frame (after the kernel's 256): need at least %d",
			 c->headroom, xl_xsk_frame_room(c), c->frame_size, XL_PKT_MIN_SIZE);
		return -EINVAL;
	}
	if (c->batch < 1 || c->batch > XL_XSK_MAX_BATCH) {
		snprintf(msg, len, "--batch: %u is out of range (accepted: 1..%d)", c->batch,
			 XL_XSK_MAX_BATCH);
		return -EINVAL;
	}
	if (c->queues < 1 || c->queues > XL_XSK_MAX_QUEUES) {
		snprintf(msg, len, "--queues: %u is out of range (accepted: 1..%d)", c->queues,
			 XL_XSK_MAX_QUEUES);
		return -EINVAL;
	}
	if (c->frames < 1 || c->frames > XL_XSK_MAX_FRAMES) {
		snprintf(msg, len, "--frames: %u is out of range (accepted: 1..%u)", c->frames,
			 XL_XSK_MAX_FRAMES);
		return -EINVAL;
	}
	umem = (uint64_t)c->frames * c->frame_size * c->queues;
	if (mem && umem > mem / 2) {
		snprintf(msg, len, "--frames: %u frames x %u bytes x %u socket(s) = %llu MiB of UMEM, more than half of this machine's %llu MiB of memory",
			 c->frames, c->frame_size, c->queues, (unsigned long long)(umem >> 20),
			 (unsigned long long)(mem >> 20));
		return -EINVAL;
	}
	if (c->bursts < 1 || c->bursts > XL_XSK_MAX_BURSTS) {
		snprintf(msg, len, "--bursts: %u is out of range (accepted: 1..%u)", c->bursts,
			 XL_XSK_MAX_BURSTS);
		return -EINVAL;
	}
	if (c->bursts > 1 && !c->count) {
		snprintf(msg, len, "--bursts: %u bursts need --count N (a burst is --count frames; accepted: --count 1 or more)",
			 c->bursts);
		return -EINVAL;
	}
	if (c->bursts > 1 && c->count > UINT64_MAX / 2 / c->bursts) {
		snprintf(msg, len, "--bursts: %u bursts of --count %llu frames are more than %llu frames (accepted: a smaller --count or fewer --bursts)",
			 c->bursts, (unsigned long long)c->count, (unsigned long long)(UINT64_MAX / 2));
		return -EINVAL;
	}
	if (c->copy == XL_XSK_ZEROCOPY && c->mode == XL_MODE_SKB) {
		snprintf(msg, len, "--zero-copy needs --mode drv: XDP_SKB (generic XDP) always copies");
		return -EINVAL;
	}
	if (c->app == XL_XSK_TXPUSH && c->rate_pps && c->rate_pps < c->queues) {
		/* Each queue gets rate / queues: 0 would be "no limit". */
		snprintf(msg, len, "--rate: %llu is below --queues %u (accepted: at least one frame per second per queue, or 0 for no limit)",
			 (unsigned long long)c->rate_pps, c->queues);
		return -EINVAL;
	}
	/* A frame may take up to 18 descriptors (MAX_SKB_FRAGS + 1): a batch or
	 * TX ring smaller than that can never hold one whole and l2fwd stalls. */
	if (c->frags && (c->batch < XL_XSK_MAX_FRAME_DESCS || c->tx_size < XL_XSK_MAX_FRAME_DESCS)) {
		snprintf(msg, len, "--frags needs --batch and --tx-size of at least %d (the descriptors one frame may take)",
			 XL_XSK_MAX_FRAME_DESCS);
		return -EINVAL;
	}
	if (c->app == XL_XSK_TXPUSH && c->spec.size + c->headroom > c->frame_size) {
		snprintf(msg, len, "--size: %u bytes do not fit a %u-byte chunk", c->spec.size,
			 c->frame_size);
		return -EINVAL;
	}
	if (c->tstamp && c->spec.size < xl_stamp_min_size(&c->spec)) {
		snprintf(msg, len, "--tstamp needs --size >= %u%s (the stamp is 20 bytes of UDP payload)",
			 xl_stamp_min_size(&c->spec), c->spec.nvlans ? " with a VLAN tag" : "");
		return -EINVAL;
	}
	return 0;
}

int xl_frames_init(struct xl_frames *f, uint64_t first, uint32_t nframes,
		   uint32_t frame_size, uint64_t umem_size, bool unaligned,
		   bool track)
{
	uint32_t i;

	memset(f, 0, sizeof(*f));
	f->free = calloc(nframes ? nframes : 1, sizeof(*f->free));
	if (!f->free)
		return -ENOMEM;
	if (track) {
		f->state = calloc(nframes ? nframes : 1, 1);
		if (!f->state) {
			free(f->free);
			f->free = NULL;
			return -ENOMEM;
		}
	}
	f->first = first;
	f->nframes = nframes;
	f->frame_size = frame_size;
	f->umem_size = umem_size;
	f->unaligned = unaligned;
	f->span = (uint64_t)nframes * frame_size;
	if (umem_size < first)
		f->span = 0;
	else if (f->span > umem_size - first)
		f->span = umem_size - first;
	f->chunk_mask = unaligned ? 0 : ~(uint64_t)(frame_size - 1);
	/* LIFO: hand out the lowest addresses first. */
	for (i = 0; i < nframes; i++)
		f->free[i] = first + (uint64_t)(nframes - 1 - i) * frame_size;
	f->n_free = nframes;
	return 0;
}

void xl_frames_fini(struct xl_frames *f)
{
	free(f->free);
	free(f->state);
	f->free = NULL;
	f->state = NULL;
}

/* Index of the frame holding @addr, or UINT32_MAX when it is not ours. */
static uint32_t frame_index(const struct xl_frames *f, uint64_t addr)
{
	uint64_t a = f->unaligned ? addr & XSK_UNALIGNED_BUF_ADDR_MASK : addr;
	uint64_t off;

	if (a < f->first)
		return UINT32_MAX;
	off = (a - f->first) / f->frame_size;
	return off < f->nframes ? (uint32_t)off : UINT32_MAX;
}

bool xl_frames_desc_ok(const struct xl_frames *f, uint64_t addr, uint32_t len)
{
	if (!xl_frames_in_range(f, addr, len))
		return false;
	/* Unaligned: the kernel's orig_addr is the base we put in the fill
	 * ring, so it must be one of our frame starts. Aligned: the chunk
	 * mask already made it one (@first is a multiple of the frame size). */
	return !f->unaligned ||
	       !(((addr & XSK_UNALIGNED_BUF_ADDR_MASK) - f->first) % f->frame_size);
}

void xl_frames_track(struct xl_frames *f, const uint64_t *addrs, uint32_t n,
		     enum xl_frame_state from, enum xl_frame_state to)
{
	uint32_t i, idx;

	for (i = 0; i < n; i++) {
		idx = frame_index(f, addrs[i]);
		if (idx == UINT32_MAX || f->state[idx] != from) {
			f->violations++;
			continue;
		}
		f->state[idx] = to;
	}
}

int xl_frames_audit_text(const struct xl_frames *f, uint32_t fill_ring,
			 uint32_t rx_ring, uint32_t tx_ring, uint32_t comp_ring,
			 char *buf, size_t len)
{
	uint32_t cnt[4] = { 0 }, i, idx, dup = 0, foreign = 0, k_fill, k_tx;
	uint8_t *seen;
	bool ok = true, rings = fill_ring != UINT32_MAX;
	int n;

	seen = calloc(f->nframes ? f->nframes : 1, 1);
	if (!seen) {
		snprintf(buf, len, "audit: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < f->n_free; i++) {
		idx = frame_index(f, f->free[i]);
		if (idx == UINT32_MAX || (f->free[i] - f->first) % f->frame_size) {
			foreign++;
			continue;
		}
		if (seen[idx]++)
			dup++;
		if (f->state && f->state[idx] != XL_FRAME_FREE)
			dup++;
	}
	free(seen);
	if (f->state)
		for (i = 0; i < f->nframes; i++)
			cnt[f->state[i] & 3]++;
	if ((uint64_t)f->n_free + f->in_fill + f->in_app + f->in_tx != f->nframes ||
	    dup || foreign || f->violations)
		ok = false;
	if (f->state && (cnt[XL_FRAME_FREE] != f->n_free || cnt[XL_FRAME_FILL] != f->in_fill ||
			 cnt[XL_FRAME_APP] != f->in_app || cnt[XL_FRAME_TX] != f->in_tx))
		ok = false;
	k_fill = k_tx = 0;
	if (rings) {
		if ((uint64_t)fill_ring + rx_ring > f->in_fill ||
		    (uint64_t)tx_ring + comp_ring > f->in_tx)
			ok = false;
		else {
			k_fill = f->in_fill - fill_ring - rx_ring;
			k_tx = f->in_tx - tx_ring - comp_ring;
		}
	}
	if (rings)
		n = snprintf(buf, len, "%u frames = free %u + fill ring %u + in kernel (rx) %u + rx ring %u + application %u + tx ring %u + in kernel (tx) %u + completion ring %u",
			     f->nframes, f->n_free, fill_ring, k_fill, rx_ring, f->in_app,
			     tx_ring, k_tx, comp_ring);
	else
		n = snprintf(buf, len, "%u frames = free %u + fill/rx %u + application %u + tx/completion %u",
			     f->nframes, f->n_free, f->in_fill, f->in_app, f->in_tx);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "%s%s: %s%s", f->state ? " (every frame tracked)" : "",
			 dup || foreign ? " [free list has duplicate or foreign frames]" :
			 f->violations ? " [impossible frame moves seen]" : "",
			 ok ? "OK" : "BROKEN", "");
	return ok ? 0 : -EUCLEAN;
}
