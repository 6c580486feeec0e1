/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file xsk_priv.h
 * The AF_XDP library's insides, shared by the files of src/lib/xsk/ and the unit
 * tests of the hot path only (tests/unit/test_xsk_*.c, tests/unit/xsk_rig.h):
 * the frame allocator, one socket's hot-path state and steps, the UMEM,
 * the steering program and socket options. Not part of the public API
 * (include/xdplab/xsk.h), which commands use.
 */
#ifndef XDPLAB_XSK_PRIV_H
#define XDPLAB_XSK_PRIV_H

#include "xdplab/xsk.h"

/* ------------------------------------------------------------------ */
/* The frame allocator (src/lib/xsk/xsk_frames.c): pure, unit-tested.     */

/** Where a frame is, as tracked with --audit (one byte per frame). */
enum xl_frame_state {
	XL_FRAME_FREE = 0, /**< on the free list */
	XL_FRAME_FILL = 1, /**< in the fill ring, the kernel, or the RX ring */
	XL_FRAME_APP = 2,  /**< peeked from RX, being processed */
	XL_FRAME_TX = 3,   /**< in the TX ring, the kernel, or the completion ring */
};

/**
 * struct xl_frames - one socket's frames: a LIFO free list of frame
 * addresses and the ledger. Owned by one thread (no locking).
 * @free: stack of free frame base addresses (@nframes slots).
 * @n_free: frames on it. @nframes: frames owned.
 * @first: UMEM address of the first frame (bytes); @frame_size: bytes.
 * @umem_size: size of the whole UMEM (bytes), for descriptor checks.
 * @unaligned: RX addresses carry the data offset in bits 48..63.
 * @span: bytes from @first that this allocator's frames cover, clipped to
 *   the UMEM (nframes * frame_size or less): the inline range check's one
 *   bound, computed once by xl_frames_init().
 * @chunk_mask: ~(frame_size - 1) in aligned mode (0 when unaligned).
 * @in_fill/@in_app/@in_tx: the ledger (see enum xl_frame_state).
 * @state: per-frame state when tracking (NULL otherwise).
 * @violations: impossible transitions seen (tracking), addresses outside
 *   this allocator's frames.
 */
struct xl_frames {
	uint64_t *free;
	uint32_t n_free;
	uint32_t nframes;
	uint64_t first;
	uint32_t frame_size;
	uint64_t umem_size;
	bool unaligned;
	uint64_t span;
	uint64_t chunk_mask;
	uint32_t in_fill, in_app, in_tx;
	uint8_t *state;
	uint64_t violations;
};

/**
 * xl_frames_init() - own @nframes frames at @first, @first + @frame_size...
 * all on the free list. @track: keep a per-frame state (for --audit).
 * Return: 0 or -ENOMEM.
 */
int xl_frames_init(struct xl_frames *f, uint64_t first, uint32_t nframes,
		   uint32_t frame_size, uint64_t umem_size, bool unaligned,
		   bool track);

/** xl_frames_fini() - free the allocator's memory (not the frames). */
void xl_frames_fini(struct xl_frames *f);

/**
 * xl_frame_base() - the base address of the frame an RX/TX/completion
 * address points into: the address without the data offset (aligned: the
 * chunk mask; unaligned: bits 0..47, which the kernel returns as the exact
 * address we put in the fill or TX ring). No division: a base that is not
 * one of our frame starts is caught by xl_frames_desc_ok() under --audit.
 */
static inline uint64_t xl_frame_base(const struct xl_frames *f, uint64_t addr)
{
	if (f->unaligned)
		return addr & XSK_UNALIGNED_BUF_ADDR_MASK;
	return addr & f->chunk_mask;
}

/**
 * xl_frames_in_range() - the hot path's descriptor check, inline and
 * without a division: the frame base lies in this allocator's span
 * (@first .. @first + @span), and the data (offset + @len bytes) ends
 * inside one frame and inside the span. Aligned mode: offset = the bits
 * under the chunk mask; unaligned: bits 48..63 of @addr. Frames start at
 * multiples of the frame size from @first; in unaligned mode a base
 * inside the span but between two frame starts passes here (the kernel
 * only returns the bases we gave it) and is refused by the deep check
 * xl_frames_desc_ok(), which --audit uses. The idea of masking instead of
 * dividing is the kernel's own (xp_aligned_extract_addr() in
 * include/net/xsk_buff_pool.h).
 */
static inline bool xl_frames_in_range(const struct xl_frames *f, uint64_t addr,
				      uint32_t len)
{
	uint64_t rel, off;

	if (f->unaligned) {
		rel = (addr & XSK_UNALIGNED_BUF_ADDR_MASK) - f->first;
		off = addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT;
	} else {
		rel = (addr & f->chunk_mask) - f->first;
		off = addr & ~f->chunk_mask;
	}
	/* rel wraps to a huge value below @first; off + len fits 64 bits. */
	return rel < f->span && off + len <= f->frame_size &&
	       rel + off + len <= f->span;
}

/**
 * xl_frames_desc_ok() - the deep descriptor check (--audit, and the
 * reference the inline check is tested against): xl_frames_in_range(),
 * and in unaligned mode the base is exactly a frame start (a 64-bit
 * division, which is why the hot path does not do it per descriptor).
 */
bool xl_frames_desc_ok(const struct xl_frames *f, uint64_t addr, uint32_t len);

/**
 * xl_frames_track() - xl_frames_move()'s per-frame part, with tracking
 * only: each of the @n frames (@addrs) was in @from (else counts a
 * violation) and is now in @to. The ledger is not touched.
 */
void xl_frames_track(struct xl_frames *f, const uint64_t *addrs, uint32_t n,
		     enum xl_frame_state from, enum xl_frame_state to);

/* The ledger's count of frames in @s (n_free for XL_FRAME_FREE). */
static inline uint32_t *xl_frames_ledger(struct xl_frames *f, enum xl_frame_state s)
{
	switch (s) {
	case XL_FRAME_FILL:
		return &f->in_fill;
	case XL_FRAME_APP:
		return &f->in_app;
	case XL_FRAME_TX:
		return &f->in_tx;
	default:
		return &f->n_free;
	}
}

/**
 * xl_frames_move() - record that @n frames (@addrs, any address inside
 * each frame) moved from @from to @to; with tracking, checks each frame
 * was in @from (else counts a violation). Updates the ledger. Does not
 * touch the free list (use xl_frames_get()/xl_frames_put()). Inline: with
 * constant states and no tracking it is two additions (it was a call per
 * batch on the hot path).
 */
static inline void xl_frames_move(struct xl_frames *f, const uint64_t *addrs, uint32_t n,
				  enum xl_frame_state from, enum xl_frame_state to)
{
	if (from != XL_FRAME_FREE)
		*xl_frames_ledger(f, from) -= n;
	if (to != XL_FRAME_FREE)
		*xl_frames_ledger(f, to) += n;
	if (f->state)
		xl_frames_track(f, addrs, n, from, to);
}

/**
 * xl_frames_audit_text() - check the ledger: n_free + in_fill + in_app +
 * in_tx == nframes; the free list holds distinct frames of ours; with
 * tracking, the per-frame states agree with the ledger; the rings' own
 * counts (when given, else pass UINT32_MAX) fit: fill + rx <= in_fill,
 * tx + comp <= in_tx. Writes one line "4096 frames = free 0 + fill ring ..."
 * into @buf. Return: 0 when it holds, -EUCLEAN otherwise.
 */
int xl_frames_audit_text(const struct xl_frames *f, uint32_t fill_ring,
			 uint32_t rx_ring, uint32_t tx_ring, uint32_t comp_ring,
			 char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* One socket's hot path (src/lib/xsk/xsk_ring.c, xsk_l2fwd.c, xsk_txpush.c):
 * rings + frames + counters.
 * Works on real rings or on fake rings in plain memory (unit tests). */

struct xl_xsk_dump;

/**
 * struct xl_xsk_q - one socket as its thread sees it.
 * @rx/@tx: its rings (either may be unused: size 0).
 * @fill/@comp: the UMEM rings this socket uses.
 * @frames: its frames. @area: UMEM start (frame data = area + address).
 * @fd: the socket (-1 on fake rings: kicks then fail harmlessly).
 * @batch: descriptors per peek/reserve. @need_wakeup: kick only when the
 * ring's flag asks. @poll: poll() when idle. @busy_poll: kick every loop.
 * @starve_fill: never refill. @verify/@dump: rxdrop extras. @frags: bound
 * with XDP_USE_SG (frames may take several descriptors; l2fwd then always
 * takes its checked path).
 * @pkt_len: txpush frame length (bytes). @budget: txpush frames left to
 * send (UINT64_MAX: unlimited). @rate_pps: this socket's rate, 0: no limit.
 * @pace: with a rate, its schedule (xdplab/pace.h: the catch-up after a
 * stall capped), initialised by the caller with xl_pace_init() before the
 * first step. @pace_wait_ns: after a step that found no frame due, how
 * long until the next one is (0: frames were due). @err: first fatal error (-errno; -ENXIO
 * when the device went away). @c: counters.
 * @tx_cons_seen/@comp_prod_seen: l2fwd's last look at the TX ring's
 * consumer and the completion ring's producer (is TX moving?).
 */
struct xl_xsk_q {
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	struct xsk_ring_prod *fill;
	struct xsk_ring_cons *comp;
	struct xl_frames frames;
	void *area;
	int fd;
	uint32_t batch;
	bool need_wakeup, poll, busy_poll, starve_fill, verify, frags;
	struct xl_xsk_dump *dump;
	uint32_t pkt_len;
	/* txpush --tstamp: stamp_off/stamp_csum_off in each frame (the UDP
	 * payload and checksum), the next sequence number and its step. */
	bool stamp;
	uint32_t stamp_off, stamp_csum_off, stamp_seq, stamp_step;
	uint64_t budget;
	uint64_t rate_pps;
	struct xl_pace pace;
	uint64_t pace_wait_ns;
	int err;
	uint32_t tx_cons_seen, comp_prod_seen;
	struct xl_xsk_counters c;
};

/**
 * xl_xsk_refill() - move up to @max free frames into the fill ring with
 * one reserve/submit (never more than the ring has room for).
 * Return: frames given.
 */
uint32_t xl_xsk_refill(struct xl_xsk_q *q, uint32_t max);

/**
 * xl_xsk_reap() - take up to @max completions back onto the free list.
 * Return: frames reaped.
 */
uint32_t xl_xsk_reap(struct xl_xsk_q *q, uint32_t max);

/** xl_xsk_step_fn - one iteration of a receiving loop; returns descriptors processed. */
typedef uint32_t (*xl_xsk_step_fn)(struct xl_xsk_q *q);

/**
 * xl_xsk_rxdrop_fast() - one rxdrop iteration for a plain benchmark: peek
 * a batch, check each descriptor with xl_frames_in_range(), count, and put
 * each frame straight back into the fill ring (one reserve/submit for the
 * batch, the free list untouched), as xdpsock does; the free list only
 * tops up the fill ring. Frames stay "in fill" in the ledger. Falls back
 * to the free list when the fill ring has less room than the batch or
 * with --starve-fill. Return: descriptors processed (0: ring was empty).
 */
uint32_t xl_xsk_rxdrop_fast(struct xl_xsk_q *q);

/**
 * xl_xsk_rxdrop_checked() - xl_xsk_rxdrop_fast() plus what --verify,
 * --dump and --audit ask: the deep check xl_frames_desc_ok(), each frame
 * inspected (xl_xsk_inspect()), and with tracking every recycled frame
 * checked to have been in the fill ring. Return: as xl_xsk_rxdrop_fast().
 */
uint32_t xl_xsk_rxdrop_checked(struct xl_xsk_q *q);

/**
 * xl_xsk_rxdrop_loop() - the rxdrop iteration for this socket, chosen once
 * at set-up: xl_xsk_rxdrop_checked() when --verify, --dump or --audit is
 * on (q->verify, q->dump, q->frames.state), else xl_xsk_rxdrop_fast().
 */
xl_xsk_step_fn xl_xsk_rxdrop_loop(const struct xl_xsk_q *q);

/**
 * xl_xsk_rxdrop_step() - one rxdrop iteration through the loop
 * xl_xsk_rxdrop_loop() chooses (for tests and the stop-time drain; the
 * socket thread chooses once). Return: descriptors processed.
 */
static inline uint32_t xl_xsk_rxdrop_step(struct xl_xsk_q *q)
{
	return xl_xsk_rxdrop_loop(q)(q);
}

/**
 * xl_xsk_l2fwd_step() - one l2fwd iteration: reap, refill, peek a batch,
 * reserve as many TX slots as there is room for (whole frames only),
 * swap MACs and submit those, cancel the rest of the peek so it is seen
 * again next time (nothing is ever stranded). Return: descriptors sent.
 */
uint32_t xl_xsk_l2fwd_step(struct xl_xsk_q *q, uint64_t now_ns);

/**
 * xl_xsk_txpush_step() - one txpush iteration: reap completions, then
 * reserve exactly the number of descriptors it will submit (bounded by
 * the batch, free frames, ring room, the budget and, with @q->rate_pps,
 * what @q->pace has due at @now_ns: after a stall at most its depth, the
 * rest of the debt skipped and counted there; @q->pace_wait_ns set).
 * Return: descriptors submitted.
 */
uint32_t xl_xsk_txpush_step(struct xl_xsk_q *q, uint64_t now_ns);

/**
 * xl_xsk_kick_tx() - sendto() when need_wakeup is off or the TX ring asks.
 * Sets q->err to -ENXIO/-ENETDOWN when the device is gone.
 */
void xl_xsk_kick_tx(struct xl_xsk_q *q);

/**
 * xl_xsk_inspect() - rxdrop's slow path for --verify and --dump (called
 * only when one is on): count @data (@len bytes) in csum_bad unless it is
 * IPv4/IPv6 UDP with correct checksums (@first: the frame's first
 * descriptor, the only one parsed), and append it to the dump.
 * Defined in xsk_app.c.
 */
void xl_xsk_inspect(struct xl_xsk_q *q, const uint8_t *data, uint32_t len,
		    bool first);

/**
 * xl_xsk_ring_counts() - entries currently in the socket's rings as seen
 * from the shared producer/consumer words: fill, rx, tx, comp.
 */
void xl_xsk_ring_counts(const struct xl_xsk_q *q, uint32_t *fill, uint32_t *rx,
			uint32_t *tx, uint32_t *comp);


/* ------------------------------------------------------------------ */
/* Building blocks (src/lib/xsk/xsk_umem.c, xsk_socket.c).        */

/**
 * struct xl_umem - one registered UMEM.
 * @area: the memory (mmap, owned); @size: its length in bytes.
 * @huge: backed by hugepages. @umem: libxdp's handle.
 * @fill/@comp: the UMEM's own fill and completion rings (used by the
 *   first socket bound to it).
 * @nframes: frames in it; @frame_size: chunk size in bytes.
 */
struct xl_umem {
	void *area;
	uint64_t size;
	bool huge;
	bool unaligned; /* registered with XDP_UMEM_UNALIGNED_CHUNK_FLAG */
	struct xsk_umem *umem;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	uint32_t nframes, frame_size;
};

/** xl_has_cap_ipc_lock() - whether the process holds CAP_IPC_LOCK. */
bool xl_has_cap_ipc_lock(void);

/**
 * xl_umem__create() - map @nframes frames of @c->frame_size bytes
 * (hugepages if asked, else or on failure normal pages with a notice) and
 * register them with the fill and completion ring sizes of @c.
 * Return: 0 or -errno; a registration failure is logged with the UMEM's
 * size, RLIMIT_MEMLOCK and CAP_IPC_LOCK.
 */
int xl_umem__create(struct xl_umem *u, const struct xl_xsk_config *c,
		    uint32_t nframes);

/** xl_umem__destroy() - unregister and unmap; safe on a zeroed struct. */
void xl_umem__destroy(struct xl_umem *u);


struct xsk; /* the skeleton of bpf/xsk.bpf.c */

/**
 * struct xl_xsk_prog - our steering program (bpf/xsk.bpf.c).
 * @skel: the skeleton; @prog_fd: the loaded entry point; @map_fd: XSKMAP;
 * @link_fd: the bpf_link once attached (-1 before): closing it detaches,
 * also when the process is killed.
 */
struct xl_xsk_prog {
	struct xsk *skel;
	int prog_fd, map_fd, link_fd;
};

/**
 * xl_xsk_prog__load() - load xdp_xsk_redirect, or xdp_xsk_redirect_mb
 * (xdp.frags) when @frags. Return: 0 or -errno (logged).
 */
int xl_xsk_prog__load(struct xl_xsk_prog *p, bool frags);

/** xl_xsk_prog__set() - XSKMAP[@queue] = @xsk_fd. Return: 0 or -errno. */
int xl_xsk_prog__set(struct xl_xsk_prog *p, uint32_t queue, int xsk_fd);

/** xl_xsk_prog__attach() - attach by bpf_link (xl_xdp_attach()). Return: 0 or -errno. */
int xl_xsk_prog__attach(struct xl_xsk_prog *p, int ifindex, const char *ifname,
			enum xl_xdp_mode mode);

/** xl_xsk_prog__destroy() - detach (close the link) and unload. */
void xl_xsk_prog__destroy(struct xl_xsk_prog *p);

/**
 * xl_xsk_socket_opts() - set busy polling on @fd: SO_PREFER_BUSY_POLL,
 * SO_BUSY_POLL 20 us, SO_BUSY_POLL_BUDGET @budget packets (kernel 5.11).
 * Return: 0 or -errno.
 */
int xl_xsk_busy_poll(int fd, uint32_t budget);

/** xl_xsk_statistics() - getsockopt(XDP_STATISTICS). Return: 0 or -errno. */
int xl_xsk_statistics(int fd, struct xdp_statistics *s);

/**
 * xl_xsk_is_zerocopy() - getsockopt(XDP_OPTIONS): 1 when bound in
 * zero-copy, 0 in copy mode, -errno when unreadable.
 */
int xl_xsk_is_zerocopy(int fd);
#endif /* XDPLAB_XSK_PRIV_H */
