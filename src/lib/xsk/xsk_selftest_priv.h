/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file xsk_selftest_priv.h
 * The AF_XDP selftest's insides, shared by xsk_selftest.c (the cases),
 * xsk_selftest_io.c (the two ends: UMEM, socket, program) and
 * xsk_selftest_run.c (the send/receive loop and its checks). Private to
 * src/lib/xsk/.
 */
#ifndef XDPLAB_XSK_SELFTEST_PRIV_H
#define XDPLAB_XSK_SELFTEST_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/if_xdp.h>
#include <xdp/xsk.h>

#include "xdplab/abi/xsk_selftest.h"
#include "xdplab/xsk_selftest.h"

#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

/** struct xst_params @hw_ring: the device's rings at their least we set, or their most. */
#define XST_HW_RING_MIN 1
#define XST_HW_RING_MAX 2
/** The least hardware ring the min case sets: xskxceiver's batch (64 descriptors). */
#define XST_HW_RING_LEAST 64u

/** Bytes the kernel keeps in front of every received frame (XDP_PACKET_HEADROOM). */
#define XST_KERNEL_HEADROOM 256u
/** The Ethernet type of the selftest's frames (IEEE 802 local experimental). */
#define XST_ETHERTYPE 0x88b5
/** "XLST", after the Ethernet header of every frame, then the sequence number. */
#define XST_MAGIC 0x584c5354u
/** Bytes of header our frames start with: Ethernet, magic, sequence number. */
#define XST_HDR 22u
/** The largest frame a case sends (the 9K multi-buffer case), bytes. */
#define XST_MAX_FRAME 9014u

/**
 * struct xst_desc - one TX descriptor of a case's stream.
 * @addr/@len/@options: as written to the TX ring (the address absolute in
 *   the UMEM, any value: the invalid cases put it outside).
 * @seq: the frame it belongs to; @off: where its bytes start in that frame.
 * @valid: the kernel must send it (and complete it); false: it must count
 *   it in tx_invalid_descs and skip it.
 * @write: its bytes are written into the UMEM before the run (the address
 *   is inside it).
 */
struct xst_desc {
	uint64_t addr;
	uint32_t len, options;
	uint32_t seq, off;
	bool valid, write;
};

/**
 * struct xst_pkt - one frame the receiving end must get, in order.
 * @seq: its sequence number; @len: its length as sent (bytes; the
 *   program's tail change is added on top); @count: the program's count
 *   when it saw this frame (the metadata case checks it).
 */
struct xst_pkt {
	uint32_t seq, len, count;
};

/**
 * struct xst_flow - what one end sends and the other must receive: @d
 * (@nd descriptors, owned) and @p (@np frames, owned).
 */
struct xst_flow {
	struct xst_desc *d;
	uint32_t nd, cap_d;
	struct xst_pkt *p;
	uint32_t np, cap_p;
};

/** Counters of struct xdp_statistics a case checks (a bit each). */
enum xst_stat {
	XST_RX_DROPPED = 1 << 0,
	XST_RX_INVALID = 1 << 1,
	XST_TX_INVALID = 1 << 2,
	XST_RX_RING_FULL = 1 << 3,
	XST_RX_FILL_EMPTY = 1 << 4,
	XST_TX_RING_EMPTY = 1 << 5,
	XST_STAT_ALL = (1 << 5) - 1, /**< every one but tx_ring_empty_descs (it counts kicks) */
};

/**
 * struct xst_params - one case: the UMEM, rings, program, how the ends
 * behave, what they send, what must arrive and the counters expected.
 * @frame_size/@headroom/@unaligned/@sg: the UMEM and bind of both ends.
 * @fill_off: unaligned cases: bytes added to every fill address.
 * @mtu: 0 to leave the MTU, else set on both ends for the case (restored).
 * @rx_size/@tx_size/@fill_size/@comp_size: ring entries.
 * @prog/@tail_delta: what the receiving end's program does.
 * @fill_count: frames put in the fill ring at the start (UINT32_MAX: as
 *   many as it holds). @no_refill: never again (the fill-empty case).
 * @rx_hold: the receiver reads nothing until the sender is done (the
 *   RX-ring-full case). @poll_rx/@poll_tx: wait in poll() (xskxceiver's
 *   POLL_RX / POLL_TX). @bidi: both ends send @ba too, and receive.
 * @no_wakeup: bind without XDP_USE_NEED_WAKEUP (poll() then never sends).
 * @hw_ring: the interface's hardware rings (ethtool -G) for the case:
 *   XST_HW_RING_MIN or XST_HW_RING_MAX (0: left alone); restored after.
 * @fill_invalid: addresses beyond the receiver's UMEM put in its fill
 *   ring before the first valid chunk.
 * @batch: descriptors per reserve/peek.
 * @ab/@ba: the flows (peer to interface, and back when @bidi).
 * @rx_exp/@rx_check: the receiving socket's expected counters and which
 *   are checked; @tx_exp/@tx_check: the sending socket's.
 */
struct xst_params {
	uint32_t frame_size, headroom;
	bool unaligned, sg;
	uint64_t fill_off;
	uint32_t mtu;
	uint32_t rx_size, tx_size, fill_size, comp_size;
	enum xl_xskst_prog prog;
	int32_t tail_delta;
	uint32_t fill_count;
	bool no_refill, rx_hold, poll_rx, poll_tx, bidi, no_wakeup;
	uint8_t hw_ring;
	uint32_t fill_invalid;
	uint32_t batch;
	struct xst_flow ab, ba;
	struct xdp_statistics rx_exp, tx_exp;
	uint32_t rx_check, tx_check;
};

/**
 * struct xst_end - one end: its interface, UMEM, socket and (receiving)
 * program, and its progress through a flow.
 */
struct xst_end {
	const char *ifname, *netns;
	int ifindex;
	uint8_t mac[6];
	uint32_t mtu_saved; /* 0: not changed */
	bool ring_changed;  /* the device's rings were set: @ring_saved to put back */
	struct { uint32_t rx, tx; } ring_saved;
	void *area;
	uint64_t size;
	struct xsk_umem *umem;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xsk_socket *xsk;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	int fd;
	struct xsk_selftest *skel;
	int link_fd;
	bool zc;
	/* sending: @out, next to write, valid ones and completions seen */
	const struct xst_flow *out;
	uint32_t tx_next, tx_valid, comp_seen, comp_valid, comp_idx;
	/* receiving: @in, frames right so far, the frame being put together */
	const struct xst_flow *in;
	uint32_t rx_next;
	uint64_t rx_bytes;
	uint8_t *acc;
	uint32_t acc_len;
	bool acc_on;
	/* the fill frames: a stack of free addresses */
	uint64_t *free;
	uint32_t nfree, nfill_frames;
	uint64_t fill_first;
};

/** struct xst_ctx - a case's run: the config, mode, both ends, the verdict. */
struct xst_ctx {
	const struct xl_xskst_config *cfg;
	enum xl_xskst_mode mode;
	struct xst_params p;
	uint32_t frames; /* the plain stream's (struct xst_tweak) */
	struct xst_end a, b; /* a: the peer (sends), b: the interface (receives) */
	struct xl_xskst_result *r;
};

/** struct xst_layout - each end's UMEM in frames: the TX region, then the fill region. */
struct xst_layout {
	uint32_t tx_frames, fill_frames;
};

/** How a case runs once built: the flows, or one of the special checks. */
enum xst_run_kind {
	XST_RUN_FLOWS = 0,
	XST_RUN_POLL_RX_TIMEOUT, /**< nothing sent: poll(POLLIN) must time out */
	XST_RUN_POLL_TX_TIMEOUT, /**< a full TX ring never kicked: poll(POLLOUT) must time out */
	XST_RUN_TX_EMPTY,        /**< kicks on an empty TX ring: tx_ring_empty_descs counts each */
};

/**
 * struct xst_tweak - what a case changes from xst_defaults(), each field
 * once (0: the default): @frames of the plain stream, @frame_size,
 * @headroom, the program (@prog, @tail_delta), @poll_rx/@poll_tx, all
 * four rings' entries (@rings), @batch and the device's rings (@hw_ring).
 */
struct xst_tweak {
	uint32_t frames, frame_size, headroom;
	enum xl_xskst_prog prog;
	int32_t tail_delta;
	bool poll_rx, poll_tx;
	uint32_t rings, batch;
	uint8_t hw_ring;
};

/**
 * struct xst_case - one case of the table (xsk_selftest_cases.c).
 * @build: fills the context's flows (and parameters, and the layout when
 *   it must be exact) after @t is applied; NULL: xst_build_stream().
 *   Return: 0 or -ENOMEM.
 * @run: how it runs. @repeat: times the whole set-up, run and tear-down
 *   is done (teardown: 10), 0 meaning 1. @t: its parameters.
 */
struct xst_case {
	const char *name, *what;
	int (*build)(struct xst_ctx *x, struct xst_layout *lo);
	enum xst_run_kind run;
	uint32_t repeat;
	struct xst_tweak t;
};

/**
 * xst_case_build() - case @k's parameters (xst_defaults(), then @k->t),
 * flows (its builder) and the layout of each end's UMEM into @x and @lo
 * (the TX region, when the builder leaves it 0: every chunk a written
 * descriptor touches). Free the flows with xst_flow_free().
 * Return: 0 or -ENOMEM.
 */
int xst_case_build(struct xst_ctx *x, const struct xst_case *k, struct xst_layout *lo);

/** xst_build_stream() - the plain case: @x->frames frames of varied length, one chunk each. */
int xst_build_stream(struct xst_ctx *x, struct xst_layout *lo);

/** The cases, in the order they run, and their number. */
extern const struct xst_case xst_cases[];
extern const int xst_ncases;

/** xst_defaults() - every case's starting parameters (4K chunks, rings of 2048). */
void xst_defaults(struct xst_params *p);

/** Ring entries of the ring_max case: xdplab's largest (XL_XSK_MAX_RING). */
#define XL_XSKST_RING_MAX 65536u

/* xsk_selftest.c: frames and verdicts */

/** xst_frame() - the bytes of frame @seq, @len bytes, from @src to @dst MAC, into @buf. */
void xst_frame(const uint8_t src[6], const uint8_t dst[6], uint32_t seq, uint32_t len,
	       uint8_t *buf);

/**
 * xst_frame_ours() - whether the @len bytes at @buf start as xst_frame()
 * starts them (the selftest's Ethernet type, then the magic), whatever the
 * MACs and sequence number. A frame that does not came from another sender
 * on the link (IPv6 neighbour discovery, say).
 */
bool xst_frame_ours(const uint8_t *buf, uint32_t len);

/**
 * xst_verdict() - give the case the verdict @st with a reason (printf
 * format); the first verdict stays. Through xst_fail() (failed), xst_xfail()
 * (failed in a known way of the kernel's) and xst_skip().
 * Return: -EOPNOTSUPP for a skip, else -EIO.
 */
int xst_verdict(struct xst_ctx *x, enum xl_xskst_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define xst_fail(x, ...) xst_verdict((x), XL_XSKST_FAIL, __VA_ARGS__)
#define xst_xfail(x, ...) xst_verdict((x), XL_XSKST_XFAIL, __VA_ARGS__)
#define xst_skip(x, ...) xst_verdict((x), XL_XSKST_SKIP, __VA_ARGS__)

/* xsk_selftest_io.c: the ends */

/**
 * xst_end_open() - make one end in its namespace: MTU (when @x->p.mtu),
 * UMEM of @nframes frames, a socket with an RX ring when @rx and a TX ring
 * when @tx, bound in @x->mode; with @rx the program loaded, the socket in
 * its XSKMAP and the program attached. Return: 0 or -errno (the case's
 * verdict set: failed, or skipped when the device cannot do the mode).
 */
int xst_end_open(struct xst_ctx *x, struct xst_end *e, uint32_t nframes, bool rx, bool tx);

/** xst_end_close() - undo xst_end_open(), whatever it got to; the MTU back. */
void xst_end_close(struct xst_end *e);

/** xst_kick_tx() - sendto() on @e's socket. Return: 0 or -errno (EAGAIN, EBUSY, ENOBUFS are 0). */
int xst_kick_tx(struct xst_end *e);

/** xst_stats() - @e's XDP_STATISTICS. Return: 0 or -errno. */
int xst_stats(struct xst_end *e, struct xdp_statistics *s);

/* xsk_selftest_run.c: the loop */

/**
 * xst_run_flows() - write the flows' frames, fill the fill rings, send and
 * receive until every valid descriptor is completed and every frame
 * received (or 2 s without progress), check that nothing more arrives,
 * then the counters. Return: 0 (pass) or -errno (the verdict set).
 */
int xst_run_flows(struct xst_ctx *x);

/** xst_flow_free() - free a flow's arrays. */
void xst_flow_free(struct xst_flow *f);

/**
 * xst_add_desc() / xst_add_pkt() - append to a flow (arrays grow).
 * Return: 0 or -ENOMEM.
 */
int xst_add_desc(struct xst_flow *f, const struct xst_desc *d);
int xst_add_pkt(struct xst_flow *f, uint32_t seq, uint32_t len, uint32_t count);

#endif /* XDPLAB_XSK_SELFTEST_PRIV_H */
