/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file xsk_selftest.h
 * The AF_XDP conformance suite (xdplab xsk selftest): the cases of the
 * kernel's xskxceiver (tools/testing/selftests/bpf/xskxceiver.c and
 * test_xsk.sh: their list and what each checks; our own code) on any pair
 * of interfaces that reach each other, a veth pair here. One end sends
 * (the peer), the other receives (the interface under test); a case sends
 * sequence-numbered frames, checks every one byte for byte, in order, and
 * the XDP_STATISTICS counters of both sockets exactly. Frames go out only
 * on the two interfaces given. Cases run one at a time, in the calling
 * thread (which enters each end's namespace to make its socket and comes
 * back).
 */
#ifndef XDPLAB_XSK_SELFTEST_H
#define XDPLAB_XSK_SELFTEST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * enum xl_xskst_mode - how the sockets are bound and the program attached,
 * as xskxceiver's test modes: XDP_SKB + XDP_COPY, XDP_DRV + XDP_COPY,
 * XDP_DRV + XDP_ZEROCOPY, each without and with busy polling
 * (SO_PREFER_BUSY_POLL, SO_BUSY_POLL, SO_BUSY_POLL_BUDGET and a recvfrom()
 * / sendto() per loop).
 */
enum xl_xskst_mode {
	XL_XSKST_SKB = 0,
	XL_XSKST_DRV,
	XL_XSKST_ZC,
	XL_XSKST_SKB_BUSY,
	XL_XSKST_DRV_BUSY,
	XL_XSKST_ZC_BUSY,
	XL_XSKST_NMODES,
};

/** Planted faults, for the selftest's own tests only (XDPLAB_XSKST_FAULT). */
enum xl_xskst_fault {
	XL_XSKST_FAULT_NONE = 0,
	XL_XSKST_FAULT_NO_REFILL = 1, /**< the fill ring is never refilled after its first filling */
	XL_XSKST_FAULT_FLIP_BYTE = 2, /**< one byte of frame 7 is changed before it is sent */
};

/**
 * struct xl_xskst_config - what to test.
 * @ifname: the interface under test, the receiving end, in @netns_path's
 *   namespace (NULL: the caller's).
 * @peer: the sending end, in @peer_netns_path's namespace (NULL: the caller's).
 * @queue: the queue of both sockets (0 on veth).
 * @fault: enum xl_xskst_fault (tests of the selftest only).
 * @stop: when it becomes non-zero (a signal handler), the case under way
 *   ends as failed ("interrupted"), its ends torn down as always; NULL:
 *   never.
 */
struct xl_xskst_config {
	const char *ifname, *netns_path;
	const char *peer, *peer_netns_path;
	uint32_t queue;
	int fault;
	volatile sig_atomic_t *stop;
};

/**
 * enum xl_xskst_status - a case's verdict. XL_XSKST_XFAIL: it failed in
 * one exact, known way the kernel has (the reason says which); the suite
 * does not fail for it (TAP "# TODO", ksft's xfail).
 */
enum xl_xskst_status {
	XL_XSKST_PASS = 0,
	XL_XSKST_FAIL,
	XL_XSKST_SKIP,
	XL_XSKST_XFAIL,
};

/**
 * struct xl_xskst_result - one case in one mode.
 * @status: the verdict. @reason: why it failed or was skipped (one line,
 *   empty on a pass). @sent/@received: frames sent by the peer and received
 *   whole and right at the interface. @bytes: bytes of those frames.
 * @elapsed_ns: how long the case took.
 */
struct xl_xskst_result {
	enum xl_xskst_status status;
	char reason[256];
	uint64_t sent, received, bytes;
	uint64_t elapsed_ns;
};

/** xl_xskst_ncases() - the number of cases (each runs in every mode). */
int xl_xskst_ncases(void);

/** xl_xskst_case_name() - case @i's name ("send_receive"), NULL when out of range. */
const char *xl_xskst_case_name(int i);

/** xl_xskst_case_what() - one line saying what case @i checks. */
const char *xl_xskst_case_what(int i);

/** xl_xskst_mode_name() - "skb", "drv", "zc", "skb_busy_poll"... */
const char *xl_xskst_mode_name(enum xl_xskst_mode m);

/**
 * xl_xskst_check() - the interfaces exist in their namespaces, are up,
 * and take an AF_XDP socket (a copy-mode bind on @c->queue of each): what
 * every case needs, checked once before any.
 * Return: 0; -ENOENT (a namespace), -ENODEV (an interface), -ENETDOWN, or
 * the bind's -errno (-EOPNOTSUPP, -EINVAL...: no AF_XDP on the device),
 * with one line naming the interface and the cause in @msg (@len bytes).
 */
int xl_xskst_check(const struct xl_xskst_config *c, char *msg, size_t len);

/**
 * xl_xskst_run() - run case @idx in mode @m: set up both ends, send, check,
 * tear everything down (sockets, UMEMs, the program's link, the MTU when
 * the case changed it), on every path.
 * Return: 0 with @r filled (pass, fail or skip with its reason), or -EINVAL
 * for an @idx or @m out of range.
 */
int xl_xskst_run(const struct xl_xskst_config *c, enum xl_xskst_mode m, int idx,
		 struct xl_xskst_result *r);

#endif /* XDPLAB_XSK_SELFTEST_H */
