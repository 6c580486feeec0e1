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
#include "xdplab/pace.h"
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
 * @tstamp: txpush writes the latency stamp (xl_stamp_put(): the pktgen
 *   header as xdpsock's --tstamp, with a sequence number and the
 *   CLOCK_MONOTONIC send time) at the start of every frame's UDP payload,
 *   UDP checksum kept valid; one time per batch, taken before the batch's
 *   descriptors are submitted (as xdpsock); socket i numbers its frames
 *   i, i + @queues, i + 2 x @queues, ... Needs a @spec.size of at least
 *   xl_stamp_min_size() (checked by xl_xsk_config_check()).
 * @verify: rxdrop parses every frame and counts bad IPv4/UDP checksums.
 * @dump_path: rxdrop writes every received frame to this pcap (slow path).
 * @dump_snaplen: bytes kept of each frame in @dump_path, 0 = all (the
 *   record keeps the frame's length on the wire).
 * @dump_pcapng: write @dump_path as pcapng (xl_pcap_writer__open_ng(),
 *   if_name @ifname, nanosecond timestamps) instead of classic pcap.
 * @starve_fill: never give frames to the fill ring (tests the kernel's
 *   rx_fill_ring_empty_descs).
 * @sched_policy/@sched_prio: scheduling policy of every socket thread,
 *   SCHED_OTHER (0, the default: unchanged), SCHED_FIFO or SCHED_RR with a
 *   priority 1..99 (xdpsock's --policy/--schpri); a thread that cannot get
 *   it stops with the error, as one that cannot be pinned does.
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
	bool tstamp;
	bool verify;
	const char *dump_path;
	uint32_t dump_snaplen;
	bool dump_pcapng;
	bool starve_fill;
	uint64_t bind_timeout_ns;
	int sched_policy, sched_prio;
};

/** xl_xsk_config_defaults() - the defaults every command starts from. */
void xl_xsk_config_defaults(struct xl_xsk_config *c);

/**
 * xl_xsk_config_wait_default() - how the application waits, by what was
 * measured best on a 2-CPU veth lab (docs/afxdp.md): busy polling
 * (SO_PREFER_BUSY_POLL: the application's syscalls run the veth's NAPI on
 * its own CPU) for l2fwd and for rxdrop in XDP_SKB mode, where the kernel
 * would otherwise wake a poll() sleeper per frame; for rxdrop in XDP_DRV
 * mode, busy-spin when the application is pinned (@c->first_cpu >= 0: a
 * CPU of its own, where spinning costs nothing and poll()'s wake-ups cost
 * the kernel's side), else poll() when idle (and txpush, which never waits
 * for RX). Set @c->app, @c->mode and @c->first_cpu first.
 */
void xl_xsk_config_wait_default(struct xl_xsk_config *c);

/**
 * xl_xsk_config_rings_default() - the RX and fill ring sizes when the user
 * gave neither, by placement: pinned (@c->first_cpu >= 0, a benchmark on a
 * CPU of its own) 2048 each, the faster size (rxdrop XDP_DRV with rings of
 * 8192 and 16384 frames ran at 0.82x (0.72..0.83) of 2048 and 4096 frames,
 * 5 pairs side by side, bench/limits/rxdrop-rings.txt: a 64 MiB UMEM
 * cycles through more cache than a 16 MiB one); not pinned, 8192 each, for
 * an application that waits for a CPU (the measurement is in the function's
 * body; docs/afxdp.md "Exact counts in the default placement").
 * xl_xsk_config_defaults() sets them so (not pinned). Set @c->first_cpu
 * first; --frames follows (xl_xsk_frames_needed()).
 */
void xl_xsk_config_rings_default(struct xl_xsk_config *c);

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
 * bursts 1..XL_XSK_MAX_BURSTS (above 1 only with a count), txpush's rate at
 * least one frame per second per queue (each queue gets rate / queues, and
 * 0 means no limit), --frags with a batch and TX ring of at least
 * XL_XSK_MAX_FRAME_DESCS (else l2fwd can never send a whole frame and loops
 * forever), txpush's frame holding the stamp with @tstamp.
 * xl_xsk_app__create() applies it too, so no caller can skip it.
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
/* Counters and facts the applications report.                         */

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


/**
 * xl_memlock_ensure() - make sure @bytes of UMEM can be registered:
 * RLIMIT_MEMLOCK is raised (soft up to hard) only when it is too low; an
 * EPERM there is fatal only when CAP_IPC_LOCK is not held (the kernel
 * does not charge UMEM pages to holders of CAP_IPC_LOCK).
 * Return: 0, or -ENOBUFS with the sizes, the limit and the capability
 * named in the log.
 */
int xl_memlock_ensure(uint64_t bytes);


/**
 * xl_xsk_driver() - the driver of @ifname (ETHTOOL_GDRVINFO) into @buf,
 * "unknown" when it cannot be read.
 */
void xl_xsk_driver(const char *ifname, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Applications (src/lib/xsk/xsk_app.c over xsk_umem.c and xsk_socket.c). */

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

/**
 * xl_xsk_app__umem_facts() - the first UMEM as registered: @chunk bytes per
 * frame, @nframes frames, @unaligned (XDP_UMEM_UNALIGNED_CHUNK_FLAG),
 * @huge (hugepages, false after the fall-back to normal pages), so that
 * what is in effect can be printed and a downgrade is seen.
 */
void xl_xsk_app__umem_facts(const struct xl_xsk_app *a, uint32_t *chunk, uint32_t *nframes,
			    bool *unaligned, bool *huge);

/**
 * xl_xsk_app__placement() - where the socket threads run, one line into
 * @buf (@len bytes): pinned from --cpu; or, not pinned, restricted to the
 * CPUs away from the interface's NAPI kthread when that kthread is pinned
 * (its CPUs and pid named; set when the application was created, applied
 * by each thread as it starts); or left to the scheduler, saying why (a
 * softirq NAPI runs on the sending CPU, which the application cannot know).
 */
void xl_xsk_app__placement(const struct xl_xsk_app *a, char *buf, size_t len);

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
 * xl_xsk_app__dump_close() - stop and join the threads, then write, fsync
 * and rename rxdrop's --dump file into place. Without it
 * xl_xsk_app__destroy() saves nothing (the temporary is removed).
 * Return: 0 (also without --dump), or the negative errno of the file's
 * first failed write (logged as "cannot write PATH: CAUSE"; nothing saved).
 */
int xl_xsk_app__dump_close(struct xl_xsk_app *a);

/**
 * xl_xsk_app__read() - per-socket numbers now (@out has room for
 * xl_xsk_app__nsocks() entries; callable while running).
 */
void xl_xsk_app__read(struct xl_xsk_app *a, struct xl_xsk_sock_stats *out);

/**
 * xl_xsk_app__pace() - txpush with --rate: what the sockets' pacers did
 * (xdplab/pace.h: times they fell behind, frames' worth of schedule the
 * capped catch-up deferred, the depths summed, the largest catch-up one
 * socket sent at once) into @st (zeroed first; all 0 without a rate).
 * Callable while running.
 */
void xl_xsk_app__pace(const struct xl_xsk_app *a, struct xl_pace_stats *st);

/**
 * xl_xsk_app__audit() - after join: check every socket's frames
 * (xl_frames_audit_text()). Writes one line per socket into @buf.
 * Return: 0 when all hold, -EUCLEAN otherwise.
 */
int xl_xsk_app__audit(struct xl_xsk_app *a, char *buf, size_t len);

/** xl_xsk_app__ifindex() - the interface's index at creation. */
int xl_xsk_app__ifindex(const struct xl_xsk_app *a);

/**
 * xl_xsk_app__wait_ns() - the socket threads' CPU time, ns, summed into
 * *@run_ns (/proc/PID/schedstat, as xl_gen__runtime_ns() for the generator:
 * the application's own cost, which other load on its CPU does not
 * inflate), and the time they waited for a CPU while runnable (the
 * scheduler's run delay, summed, ns) into *@wait_ns (xl_workers_wait()).
 * While a socket's thread waits, the frames it would take wait in its RX
 * ring. Threads not started yet add 0.
 * Return: 0, or -EIO when a thread's could not be read (ended: both 0).
 */
int xl_xsk_app__wait_ns(const struct xl_xsk_app *a, uint64_t *wait_ns, uint64_t *run_ns);

/**
 * xl_xsk_app__destroy() - stop, join, detach the program (closing its
 * link), delete sockets and UMEMs. NULL is fine.
 */
void xl_xsk_app__destroy(struct xl_xsk_app *a);

#endif /* XDPLAB_XSK_H */
