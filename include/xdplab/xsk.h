/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file xsk.h
 * AF_XDP: UMEM, sockets, the frame allocator and the rxdrop / txpush / l2fwd
 * applications, over libxdp's xsk API (rings and the UMEM/socket set-up)
 * with our own XDP program (bpf/xsk.bpf.c, an XSKMAP redirect by RX queue)
 * attached through a bpf_link; libxdp's default program is never loaded.
 *
 * Model: Documentation/networking/af_xdp.rst in the kernel, and the AF_XDP
 * netdev 2.2 paper (Karlsson, Topel, "The Path to DPDK Speeds for AF XDP").
 *
 * Ownership of UMEM frames (the frame allocator's ledger): at every moment
 * each frame is in exactly one of
 *   free list  -> fill ring -> (kernel) -> RX ring -> application ->
 *   TX ring    -> (kernel) -> completion ring -> free list,
 * and the application moves frames only in batches through the ring
 * helpers of this header, which keep the ledger exact.
 */
#ifndef XDPLAB_XSK_H
#define XDPLAB_XSK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xdp/xsk.h>

#include "xdplab/attach.h"
#include "xdplab/pkt.h"

/* Kernel 6.6 UAPI, absent from older installed headers. */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

/** Smallest UMEM chunk the kernel accepts (bytes, XDP_UMEM_MIN_CHUNK_SIZE). */
#define XL_XSK_MIN_FRAME 2048
/** Headroom the kernel keeps in front of every RX frame (XDP_PACKET_HEADROOM). */
#define XL_XSK_KERNEL_HEADROOM 256
/** Largest ring we accept (entries); the kernel's own bound is higher. */
#define XL_XSK_MAX_RING (1u << 16)
/** Largest batch (descriptors per reserve/peek). */
#define XL_XSK_MAX_BATCH 2048
/** Most descriptors one multi-buffer frame may take (MAX_SKB_FRAGS + 1). */
#define XL_XSK_MAX_FRAME_DESCS 18
/** Most sockets (queues) per application. */
#define XL_XSK_MAX_QUEUES 64
/** Most frames per socket. */
#define XL_XSK_MAX_FRAMES (1u << 22)
/** Most txpush bursts (--bursts). */
#define XL_XSK_MAX_BURSTS 1000000u

/** The three applications of the AF_XDP paper. */
enum xl_xsk_app_kind {
	XL_XSK_RXDROP = 0, /**< receive, count, recycle to the fill ring */
	XL_XSK_TXPUSH = 1, /**< push prebuilt frames out, reap completions */
	XL_XSK_L2FWD = 2,  /**< swap MACs, send back out of the same socket */
};

/** xl_xsk_app_name() - "rxdrop", "txpush" or "l2fwd". */
const char *xl_xsk_app_name(enum xl_xsk_app_kind app);

/** Copy or zero-copy bind (XDP_COPY / XDP_ZEROCOPY). */
enum xl_xsk_copy {
	XL_XSK_AUTO = 0,     /**< try zero-copy, fall back to copy with a notice */
	XL_XSK_COPY = 1,     /**< XDP_COPY */
	XL_XSK_ZEROCOPY = 2, /**< XDP_ZEROCOPY; failure is fatal */
};

/**
 * struct xl_xsk_config - everything an application is built from.
 * @ifname: interface (current netns).
 * @app: which application.
 * @frame_size: UMEM chunk in bytes: 2048 or 4096 when aligned; any size
 *   from 2048 to the page size with @unaligned.
 * @frames: frames per socket (each socket's UMEM, or its share of the
 *   shared UMEM), 1..XL_XSK_MAX_FRAMES.
 * @headroom: extra bytes reserved in front of each RX frame (on top of
 *   the kernel's 256).
 * @unaligned: XDP_UMEM_UNALIGNED_CHUNK_FLAG. @hugepages: MAP_HUGETLB with
 *   a fallback to normal pages (notice) when none are reserved.
 * @rx_size/@tx_size/@fill_size/@comp_size: ring entries, powers of two,
 *   1..XL_XSK_MAX_RING.
 * @batch: descriptors per reserve/peek, 1..XL_XSK_MAX_BATCH.
 * @mode: attach mode of our XDP program (skb = XDP_SKB, native = XDP_DRV).
 * @copy: bind mode. @need_wakeup: XDP_USE_NEED_WAKEUP (kick only when the
 *   kernel asks). @poll: sleep in poll() (at most 100 ms) when the RX ring
 *   is empty instead of spinning (rxdrop, l2fwd). @busy_poll: SO_PREFER_BUSY_POLL + SO_BUSY_POLL (20 us) +
 *   SO_BUSY_POLL_BUDGET = @busy_budget (packets).
 * @queue: first queue; @queues: sockets, one per queue and thread.
 * @shared_umem: one UMEM for all sockets (XDP_SHARED_UMEM).
 * @frags: XDP_USE_SG, frames longer than one chunk as several descriptors.
 * @audit: track every frame's place (one byte per frame) and check it.
 * @first_cpu: pin thread i to CPU @first_cpu + i (modulo online CPUs);
 *   -1: not pinned.
 * @spec/@flows/@count/@rate_pps: txpush's frame (xl_pkt_build), UDP source
 *   ports to rotate, frames to send over all sockets (0: no limit) and the
 *   rate (frames/s over all sockets, 0: as fast as possible).
 * @bursts: txpush: send @count, wait until every frame of it is completed,
 *   and do that @bursts times on the same sockets (each socket its share
 *   of @count per burst; total @count x @bursts). 1..XL_XSK_MAX_BURSTS;
 *   above 1 it needs @count.
 * @verify: rxdrop parses every frame and counts bad IPv4/UDP checksums.
 * @dump_path: rxdrop writes every received frame to this pcap (slow path).
 * @starve_fill: never give frames to the fill ring (tests the kernel's
 *   rx_fill_ring_empty_descs).
 * @bind_timeout_ns: how long to retry a bind that returns EBUSY (the
 *   previous socket on that queue is still being torn down).
 */
struct xl_xsk_config {
	const char *ifname;
	enum xl_xsk_app_kind app;
	uint32_t frame_size;
	uint32_t frames;
	uint32_t headroom;
	bool unaligned, hugepages;
	uint32_t rx_size, tx_size, fill_size, comp_size;
	uint32_t batch;
	enum xl_xdp_mode mode;
	enum xl_xsk_copy copy;
	bool need_wakeup, poll, busy_poll;
	uint32_t busy_budget;
	uint32_t queue, queues;
	bool shared_umem, frags, audit;
	int first_cpu;
	struct xl_pkt_spec spec;
	uint32_t flows;
	uint64_t count, rate_pps;
	uint32_t bursts;
	bool verify;
	const char *dump_path;
	bool starve_fill;
	uint64_t bind_timeout_ns;
};

/** xl_xsk_config_defaults() - the defaults every command starts from. */
void xl_xsk_config_defaults(struct xl_xsk_config *c);

/**
 * xl_xsk_config_wait_default() - how the application waits, by what was
 * measured best on a 2-CPU veth lab (docs/afxdp.md): busy polling
 * (SO_PREFER_BUSY_POLL: the application's syscalls run the veth's NAPI on
 * its own CPU) for l2fwd and for rxdrop in XDP_SKB mode, where the kernel
 * would otherwise wake a poll() sleeper per frame; poll() when idle for
 * rxdrop in XDP_DRV mode (and txpush, which never waits for RX). Set
 * @c->app and @c->mode first.
 */
void xl_xsk_config_wait_default(struct xl_xsk_config *c);

/**
 * xl_xsk_check_ring_size() - a ring size must be a power of two in
 * 1..XL_XSK_MAX_RING (the kernel masks ring indexes with size - 1).
 * @opt: option name for the message ("--rx-size").
 * @msg: out, one line naming the rule on failure (@len bytes).
 * Return: 0 or -EINVAL.
 */
int xl_xsk_check_ring_size(const char *opt, uint64_t size, char *msg,
			   size_t len);

/**
 * xl_xsk_check_frame_size() - the kernel's UMEM chunk rules (xdp_umem_reg()),
 * checked before any syscall: at least 2048 bytes (@size in bytes); a power
 * of two unless @unaligned; at most the page size, with or without
 * @hugepages (measured on 6.18: XDP_UMEM_REG refuses 8192 and 9728 from a
 * hugepage-backed UMEM; frames longer than a chunk need XDP_USE_SG).
 * Return: 0 or -EINVAL with the rule in @msg (@len bytes).
 */
int xl_xsk_check_frame_size(uint64_t size, bool unaligned, bool hugepages,
			    char *msg, size_t len);

/**
 * xl_xsk_config_check() - every cross-option rule: ring sizes, frame size,
 * headroom (must leave room for a minimum frame), frames 1..max and the
 * UMEM against physical memory, zero-copy with skb mode, batch vs rings,
 * bursts 1..XL_XSK_MAX_BURSTS (above 1 only with a count).
 * Return: 0 or -EINVAL with one line in @msg.
 */
int xl_xsk_config_check(const struct xl_xsk_config *c, char *msg, size_t len);

/**
 * xl_xsk_check_iface() - the rules that need the interface (current
 * netns): it exists, --queue/--queues fit its RX queue count, and without
 * --frags its MTU + 14 fits a chunk (xl_xsk_frame_room()); txpush's
 * --size fits the MTU + 14.
 * Return: 0, -ENODEV, -EINVAL (queues), -EMSGSIZE (MTU, size) or -errno,
 * with one line in @msg.
 */
int xl_xsk_check_iface(const struct xl_xsk_config *c, char *msg, size_t len);

/**
 * xl_xsk_frames_needed() - frames one socket needs for its fill ring to be
 * full after every refill, whatever the other rings its frames pass
 * through hold: fill + RX entries for rxdrop (a frame peeked from RX keeps
 * its RX slot until it is released and goes straight back to the fill
 * ring); fill + RX + TX + completion for l2fwd (the kernel takes a TX
 * descriptor only after reserving its completion slot, so frames sent but
 * not yet reaped are bounded by the completion ring). Per socket with
 * --shared-umem too: each socket has its own share of the UMEM and its own
 * fill and completion rings. 0 when the fill ring is not used (txpush,
 * --starve-fill).
 */
uint32_t xl_xsk_frames_needed(const struct xl_xsk_config *c);

/**
 * xl_xsk_fill_warning() - whether @c->frames is below
 * xl_xsk_frames_needed(); if so, one line in @msg (@len bytes) naming the
 * rings, the figure and the --frames to give.
 * Return: true when the warning is due.
 */
bool xl_xsk_fill_warning(const struct xl_xsk_config *c, char *msg, size_t len);

/**
 * xl_xsk_frame_room() - bytes of frame data one chunk holds for RX:
 * frame_size - 256 (kernel headroom) - headroom.
 */
uint32_t xl_xsk_frame_room(const struct xl_xsk_config *c);

/* ------------------------------------------------------------------ */
/* The frame allocator (src/lib/xsk_frames.c): pure, unit-tested.     */

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
 * address points into (strips the unaligned offset and the data offset).
 */
static inline uint64_t xl_frame_base(const struct xl_frames *f, uint64_t addr)
{
	if (f->unaligned)
		return (addr & XSK_UNALIGNED_BUF_ADDR_MASK) -
		       ((addr & XSK_UNALIGNED_BUF_ADDR_MASK) - f->first) % f->frame_size;
	return addr & ~(uint64_t)(f->frame_size - 1);
}

/**
 * xl_frames_desc_ok() - true when an RX descriptor lies inside one of this
 * allocator's frames: address and address + length within the frame.
 */
bool xl_frames_desc_ok(const struct xl_frames *f, uint64_t addr, uint32_t len);

/**
 * xl_frames_move() - record that @n frames (@addrs, any address inside
 * each frame) moved from @from to @to; with tracking, checks each frame
 * was in @from (else counts a violation). Updates the ledger. Does not
 * touch the free list (use xl_frames_get()/xl_frames_put()).
 */
void xl_frames_move(struct xl_frames *f, const uint64_t *addrs, uint32_t n,
		    enum xl_frame_state from, enum xl_frame_state to);

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
/* One socket's hot path (src/lib/xsk_ring.c): rings + frames + counters.
 * Works on real rings or on fake rings in plain memory (unit tests). */

/**
 * struct xl_xsk_counters - one socket's counters, written only by its
 * thread, in its own cache line; read by others with relaxed loads.
 * @rx_packets/@rx_bytes: frames received (multi-buffer: a frame is one
 *   packet however many descriptors), bytes. @tx_packets: TX descriptors
 *   completed by the kernel (a multi-buffer frame counts once per buffer);
 *   @tx_bytes: bytes submitted.
 * @rx_batches/@rx_descs: non-empty RX peeks and descriptors they returned
 *   (batch fill = rx_descs / rx_batches). @tx_batches/@tx_descs: the same
 *   for TX submits.
 * @wakeups: syscalls made (sendto, recvfrom, poll).
 * @bad_descs: RX descriptors outside the UMEM (never handed to code).
 * @tx_short: TX reservations smaller than wanted (ring full).
 * @csum_bad: --verify: frames whose IPv4 or UDP checksum is wrong.
 * @tx_submitted: descriptors submitted to TX.
 */
struct xl_xsk_counters {
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	uint64_t rx_batches, rx_descs, tx_batches, tx_descs;
	uint64_t wakeups, bad_descs, tx_short, csum_bad, tx_submitted;
} __attribute__((aligned(64)));

struct xl_xsk_dump;

/**
 * struct xl_xsk_q - one socket as its thread sees it.
 * @rx/@tx: its rings (either may be unused: size 0).
 * @fill/@comp: the UMEM rings this socket uses.
 * @frames: its frames. @area: UMEM start (frame data = area + address).
 * @fd: the socket (-1 on fake rings: kicks then fail harmlessly).
 * @batch: descriptors per peek/reserve. @need_wakeup: kick only when the
 * ring's flag asks. @poll: poll() when idle. @busy_poll: kick every loop.
 * @starve_fill: never refill. @verify/@dump: rxdrop extras.
 * @pkt_len: txpush frame length (bytes). @budget: txpush frames left to
 * send (UINT64_MAX: unlimited). @rate_pps: this socket's rate, 0: no limit.
 * @start_ns: when pacing started. @err: first fatal error (-errno; -ENXIO
 * when the device went away). @c: counters.
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
	bool need_wakeup, poll, busy_poll, starve_fill, verify;
	struct xl_xsk_dump *dump;
	uint32_t pkt_len;
	uint64_t budget;
	uint64_t rate_pps, start_ns;
	int err;
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

/**
 * xl_xsk_rxdrop_step() - one rxdrop iteration: peek a batch, count,
 * release, refill. Return: descriptors processed (0: ring was empty).
 */
uint32_t xl_xsk_rxdrop_step(struct xl_xsk_q *q);

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
 * the batch, free frames, ring room, the budget and the rate).
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
/* Building blocks (src/lib/xsk_umem.c, src/lib/xsk_socket.c).        */

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
	struct xsk_umem *umem;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	uint32_t nframes, frame_size;
};

/**
 * xl_memlock_ensure() - make sure @bytes of UMEM can be registered:
 * RLIMIT_MEMLOCK is raised (soft up to hard) only when it is too low; an
 * EPERM there is fatal only when CAP_IPC_LOCK is not held (the kernel
 * does not charge UMEM pages to holders of CAP_IPC_LOCK).
 * Return: 0, or -ENOBUFS with the sizes, the limit and the capability
 * named in the log.
 */
int xl_memlock_ensure(uint64_t bytes);

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

/**
 * xl_xsk_driver() - the driver of @ifname (ETHTOOL_GDRVINFO) into @buf,
 * "unknown" when it cannot be read.
 */
void xl_xsk_driver(const char *ifname, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Applications (src/lib/xsk_app.c over xsk_umem.c and xsk_socket.c). */

/**
 * struct xl_xsk_sock_stats - one socket's numbers at one instant.
 * @queue: its queue. @c: our counters. @xdp: the kernel's XDP_STATISTICS
 * (@xdp_ok false when unreadable, e.g. the device went away).
 */
struct xl_xsk_sock_stats {
	uint32_t queue;
	struct xl_xsk_counters c;
	struct xdp_statistics xdp;
	bool xdp_ok;
};

struct xl_xsk_app;

/**
 * xl_xsk_app__create() - build everything, in this order: validate, load
 * the XDP program (rxdrop, l2fwd), create the UMEM(s) (raising
 * RLIMIT_MEMLOCK only when needed), create and fill the fill rings, bind
 * the sockets (zero-copy if possible, EBUSY retried until
 * @c->bind_timeout_ns), put them in the XSKMAP, and attach the program.
 * Nothing runs yet. Runs in the caller's network namespace.
 * Return: the application (free with xl_xsk_app__destroy()) or NULL with
 * errno: EINVAL (bad configuration, logged), ENODEV (no interface),
 * EMSGSIZE (MTU above the chunk without --frags), EOPNOTSUPP (zero-copy
 * forced but unsupported), ENOMEM (UMEM: size, limit and CAP_IPC_LOCK
 * logged), EBUSY (queue still busy after the deadline), or another errno.
 */
struct xl_xsk_app *xl_xsk_app__create(const struct xl_xsk_config *c);

/** xl_xsk_app__zerocopy() - true when the sockets are bound zero-copy. */
bool xl_xsk_app__zerocopy(const struct xl_xsk_app *a);

/** xl_xsk_app__nsocks() - number of sockets. */
int xl_xsk_app__nsocks(const struct xl_xsk_app *a);

/** xl_xsk_app__start() - start one thread per socket. Return 0 or -errno. */
int xl_xsk_app__start(struct xl_xsk_app *a);

/** xl_xsk_app__stop() - ask the threads to stop (any thread, signal-safe). */
void xl_xsk_app__stop(struct xl_xsk_app *a);

/**
 * xl_xsk_app__done() - true when every thread has finished (txpush: its
 * budget sent and completed; or stopped, or failed).
 */
bool xl_xsk_app__done(const struct xl_xsk_app *a);

/**
 * xl_xsk_app__join() - wait for the threads (each drains its in-flight TX
 * for at most about a second). Return: 0 or the first thread error
 * (-ENXIO: the device went away).
 */
int xl_xsk_app__join(struct xl_xsk_app *a);

/**
 * xl_xsk_app__read() - per-socket numbers now (@out has room for
 * xl_xsk_app__nsocks() entries; callable while running).
 */
void xl_xsk_app__read(struct xl_xsk_app *a, struct xl_xsk_sock_stats *out);

/**
 * xl_xsk_app__audit() - after join: check every socket's frames
 * (xl_frames_audit_text()). Writes one line per socket into @buf.
 * Return: 0 when all hold, -EUCLEAN otherwise.
 */
int xl_xsk_app__audit(struct xl_xsk_app *a, char *buf, size_t len);

/** xl_xsk_app__ifindex() - the interface's index at creation. */
int xl_xsk_app__ifindex(const struct xl_xsk_app *a);

/**
 * xl_xsk_app__destroy() - stop, join, detach the program (closing its
 * link), delete sockets and UMEMs. NULL is fine.
 */
void xl_xsk_app__destroy(struct xl_xsk_app *a);

#endif /* XDPLAB_XSK_H */
