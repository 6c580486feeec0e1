// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP selftest's public side (xdplab/xsk_selftest.h): its frames and
 * verdicts, how each kind of case runs (the flows through both ends, the
 * poll time-outs, the empty-TX kicks), the checks before any case, and the
 * names of the modes. The cases themselves are in xsk_selftest_cases.c,
 * the ends in xsk_selftest_io.c, the send/receive loop in
 * xsk_selftest_run.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "xdplab/netns.h"
#include "xdplab/time.h"
#include "xsk_selftest.skel.h"
#include "xsk_selftest_priv.h"

#define POLL_TIMEOUT_MS 100
#define EMPTY_KICKS 8

void xst_frame(const uint8_t src[6], const uint8_t dst[6], uint32_t seq, uint32_t len,
	       uint8_t *buf)
{
	uint8_t hdr[XST_HDR];
	uint32_t k;

	memcpy(hdr, dst, 6);
	memcpy(hdr + 6, src, 6);
	hdr[12] = XST_ETHERTYPE >> 8;
	hdr[13] = XST_ETHERTYPE & 0xff;
	for (k = 0; k < 4; k++) {
		hdr[14 + k] = XST_MAGIC >> (24 - 8 * k);
		hdr[18 + k] = seq >> (24 - 8 * k);
	}
	for (k = 0; k < len; k++)
		buf[k] = k < XST_HDR ? hdr[k] : (uint8_t)(seq * 31 + k);
}

bool xst_frame_ours(const uint8_t *buf, uint32_t len)
{
	uint32_t k;

	if (len < XST_HDR || buf[12] != XST_ETHERTYPE >> 8 || buf[13] != (XST_ETHERTYPE & 0xff))
		return false;
	for (k = 0; k < 4; k++)
		if (buf[14 + k] != (uint8_t)(XST_MAGIC >> (24 - 8 * k)))
			return false;
	return true;
}

int xst_verdict(struct xst_ctx *x, enum xl_xskst_status st, const char *fmt, ...)
{
	va_list ap;

	if (x->r->status == XL_XSKST_PASS) {
		x->r->status = st;
		va_start(ap, fmt);
		vsnprintf(x->r->reason, sizeof(x->r->reason), fmt, ap);
		va_end(ap);
	}
	return st == XL_XSKST_SKIP ? -EOPNOTSUPP : -EIO;
}

static void end_init(struct xst_end *e, const char *ifname, const char *ns)
{
	memset(e, 0, sizeof(*e));
	e->ifname = ifname;
	e->netns = ns;
	e->fd = e->link_fd = -1;
}

static void ends_init(struct xst_ctx *x)
{
	end_init(&x->a, x->cfg->peer, x->cfg->peer_netns_path);
	end_init(&x->b, x->cfg->ifname, x->cfg->netns_path);
}

/* The sender's UMEM and socket (TX ring; RX too when bidirectional), then the receiver's. */
static int open_ends(struct xst_ctx *x, const struct xst_layout *lo, bool a_tx)
{
	const struct xst_params *p = &x->p;
	uint32_t slack = p->unaligned ? 1 : 0;
	int err;

	ends_init(x);
	x->a.fill_first = x->b.fill_first = (uint64_t)lo->tx_frames * p->frame_size;
	x->b.nfill_frames = lo->fill_frames;
	x->a.nfill_frames = p->bidi ? lo->fill_frames : 0;
	err = xst_end_open(x, &x->a, lo->tx_frames + x->a.nfill_frames + slack, p->bidi, a_tx);
	if (!err)
		err = xst_end_open(x, &x->b, lo->tx_frames + x->b.nfill_frames + slack, true, p->bidi);
	return err;
}

static void close_ends(struct xst_ctx *x)
{
	xst_end_close(&x->b);
	xst_end_close(&x->a);
}

static int run_flows(struct xst_ctx *x, const struct xst_layout *lo)
{
	int err = open_ends(x, lo, true);

	if (!err)
		err = xst_run_flows(x);
	if (err && x->p.prog == XL_XSKST_PROG_TAIL && x->b.skel && x->b.skel->bss->tail_fail) {
		x->r->status = XL_XSKST_SKIP;
		snprintf(x->r->reason, sizeof(x->r->reason),
			 "bpf_xdp_adjust_tail(%+d) refused %u frames in this mode, the first of %u bytes (no room after it)",
			 x->p.tail_delta, x->b.skel->bss->tail_fail, x->b.skel->bss->tail_fail_len);
	}
	close_ends(x);
	return err;
}

/* Nothing sent: the receiver's poll() times out, and nothing is there. */
static int run_poll_rx_timeout(struct xst_ctx *x, const struct xst_layout *lo)
{
	struct pollfd pfd;
	int err = open_ends(x, lo, true), n;

	if (err)
		goto out;
	pfd = (struct pollfd){ .fd = x->b.fd, .events = POLLIN };
	n = poll(&pfd, 1, POLL_TIMEOUT_MS);
	if (n != 0)
		err = xst_fail(x, "poll(POLLIN, %d ms) on %s returned %d (revents %#x), expected 0: a time-out",
			       POLL_TIMEOUT_MS, x->b.ifname, n, pfd.revents);
	else if (xsk_cons_nb_avail(&x->b.rx, 1))
		err = xst_fail(x, "%s received a frame though none was sent", x->b.ifname);
out:
	close_ends(x);
	return err;
}

/* Write @n descriptors of the flow from @from into @a's TX ring and kick once. */
static int push(struct xst_ctx *x, struct xst_end *a, uint32_t from, uint32_t n)
{
	uint32_t idx, i;
	int err;

	if (xsk_ring_prod__reserve(&a->tx, n, &idx) != n)
		return xst_fail(x, "cannot reserve %u TX descriptors on %s", n, a->ifname);
	for (i = 0; i < n; i++) {
		struct xdp_desc *d = xsk_ring_prod__tx_desc(&a->tx, idx + i);

		d->addr = x->p.ab.d[from + i].addr;
		d->len = x->p.ab.d[from + i].len;
		d->options = 0;
	}
	xsk_ring_prod__submit(&a->tx, n);
	if ((err = xst_kick_tx(a)))
		return xst_fail(x, "sendto() on %s: %s", a->ifname, strerror(-err));
	return 0;
}

/*
 * The TX queue full (xskxceiver's POLL_TXQ_FULL): frames fill the completion
 * ring, which is never read; the kernel then takes nothing more from a full
 * TX ring, and poll(POLLOUT) must time out.
 */
static int run_poll_tx_timeout(struct xst_ctx *x, const struct xst_layout *lo)
{
	struct xst_end *a = &x->a;
	uint32_t comp = x->p.comp_size, avail;
	uint64_t t0;
	struct pollfd pfd;
	int err = open_ends(x, lo, true), r;

	if (err || (err = push(x, a, 0, comp)))
		goto out;
	for (t0 = xl_now_ns(); (avail = xsk_cons_nb_avail(&a->comp, comp)) < comp;) {
		if (xl_now_ns() - t0 > 2000000000ull) {
			err = xst_fail(x, "%s: %u of %u frames completed", a->ifname, avail, comp);
			goto out;
		}
		if (xl_sleep_ns(100000, x->cfg->stop)) {
			err = xst_fail(x, "interrupted");
			goto out;
		}
		xst_kick_tx(a);
	}
	if ((err = push(x, a, comp, x->p.tx_size)))
		goto out;
	pfd = (struct pollfd){ .fd = a->fd, .events = POLLOUT };
	r = poll(&pfd, 1, POLL_TIMEOUT_MS);
	if (r != 0)
		err = xst_fail(x, "poll(POLLOUT, %d ms) on %s with full completion and TX rings returned %d (revents %#x), expected 0: a time-out",
			       POLL_TIMEOUT_MS, a->ifname, r, pfd.revents);
	else if ((avail = xsk_cons_nb_avail(&a->comp, UINT32_MAX)) != comp)
		err = xst_fail(x, "%s: %u completions with a full completion ring of %u", a->ifname,
			       avail, comp);
out:
	close_ends(x);
	return err;
}

/* Kicks of an empty TX ring: tx_ring_empty_descs counts each (xskq_cons_read_desc()). */
static int run_tx_empty(struct xst_ctx *x, const struct xst_layout *lo)
{
	struct xdp_statistics s;
	int err = open_ends(x, lo, true), i;

	if (err)
		goto out;
	for (i = 0; i < EMPTY_KICKS && !err; i++)
		if ((err = xst_kick_tx(&x->a)))
			xst_fail(x, "sendto() on %s: %s", x->a.ifname, strerror(-err));
	if (!err && (err = xst_stats(&x->a, &s)))
		xst_fail(x, "%s: cannot read XDP_STATISTICS: %s", x->a.ifname, strerror(-err));
	if (!err && (s.tx_ring_empty_descs != EMPTY_KICKS || s.tx_invalid_descs))
		err = xst_fail(x, "%s tx_ring_empty_descs %llu tx_invalid_descs %llu after %d kicks of an empty TX ring (expected %d and 0)",
			       x->a.ifname, (unsigned long long)s.tx_ring_empty_descs,
			       (unsigned long long)s.tx_invalid_descs, EMPTY_KICKS, EMPTY_KICKS);
out:
	close_ends(x);
	return err;
}

int xl_xskst_run(const struct xl_xskst_config *c, enum xl_xskst_mode m, int idx,
		 struct xl_xskst_result *r)
{
	struct xst_ctx x = { .cfg = c, .mode = m, .r = r };
	struct xst_layout lo;
	const struct xst_case *k;
	uint64_t t0 = xl_now_ns();
	uint32_t rep;
	int err;

	if (idx < 0 || idx >= xst_ncases || m < 0 || m >= XL_XSKST_NMODES)
		return -EINVAL;
	k = &xst_cases[idx];
	memset(r, 0, sizeof(*r));
	err = xst_case_build(&x, k, &lo);
	if (err == -ENOMEM)
		xst_fail(&x, "out of memory");
	for (rep = 0; !err && rep < (k->repeat ? k->repeat : 1); rep++) {
		if (c->stop && *c->stop) {
			err = xst_fail(&x, "interrupted");
			break;
		}
		switch (k->run) {
		case XST_RUN_FLOWS:
			err = run_flows(&x, &lo);
			break;
		case XST_RUN_POLL_RX_TIMEOUT:
			err = run_poll_rx_timeout(&x, &lo);
			break;
		case XST_RUN_POLL_TX_TIMEOUT:
			err = run_poll_tx_timeout(&x, &lo);
			break;
		case XST_RUN_TX_EMPTY:
			err = run_tx_empty(&x, &lo);
			break;
		}
		if (err && k->repeat > 1 && r->status == XL_XSKST_FAIL) {
			char why[sizeof(r->reason)];

			snprintf(why, sizeof(why), "%s", r->reason);
			snprintf(r->reason, sizeof(r->reason), "round %u of %u: %.200s", rep + 1, k->repeat, why);
		}
	}
	if (k->repeat > 1 && r->status == XL_XSKST_PASS)
		r->sent *= k->repeat, r->received *= k->repeat, r->bytes *= k->repeat;
	xst_flow_free(&x.p.ab);
	xst_flow_free(&x.p.ba);
	r->elapsed_ns = xl_now_ns() - t0;
	return 0;
}

int xl_xskst_ncases(void)
{
	return xst_ncases;
}

const char *xl_xskst_case_name(int i)
{
	return i >= 0 && i < xst_ncases ? xst_cases[i].name : NULL;
}

const char *xl_xskst_case_what(int i)
{
	return i >= 0 && i < xst_ncases ? xst_cases[i].what : NULL;
}

const char *xl_xskst_mode_name(enum xl_xskst_mode m)
{
	static const char *const names[] = { "skb", "drv", "zc", "skb_busy_poll", "drv_busy_poll",
					     "zc_busy_poll" };

	return m >= 0 && m < XL_XSKST_NMODES ? names[m] : "?";
}

/* @name in @ns: exists and is up. */
static int check_one(const char *name, const char *ns, char *msg, size_t len)
{
	struct xl_netns_saved saved = { -1 };
	struct ifreq ifr = { 0 };
	int fd, err;

	if (ns && (err = xl_netns_enter_path(ns, &saved))) {
		snprintf(msg, len, "cannot enter the namespace %s: %s", ns, strerror(-err));
		return err == -ENOENT ? -ENOENT : err;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	err = 0;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || !if_nametoindex(name)) {
		snprintf(msg, len, "interface '%s': no such interface%s%s", name, ns ? " in " : "",
			 ns ? ns : "");
		err = -ENODEV;
	} else if (ioctl(fd, SIOCGIFFLAGS, &ifr) || !(ifr.ifr_flags & IFF_UP)) {
		snprintf(msg, len, "interface %s is down", name);
		err = -ENETDOWN;
	}
	if (fd >= 0)
		close(fd);
	if (saved.fd >= 0)
		xl_netns_restore(&saved);
	return err;
}

int xl_xskst_check(const struct xl_xskst_config *c, char *msg, size_t len)
{
	struct xl_xskst_result r;
	int err, idx;

	if ((err = check_one(c->ifname, c->netns_path, msg, len)) ||
	    (err = check_one(c->peer, c->peer_netns_path, msg, len)))
		return err;
	/* One frame each way that a socket can take: the single-frame case in skb mode. */
	for (idx = 0; idx < xst_ncases && strcmp(xst_cases[idx].name, "send_receive_single_pkt"); idx++)
		;
	xl_xskst_run(&(struct xl_xskst_config){ c->ifname, c->netns_path, c->peer,
						c->peer_netns_path, c->queue, XL_XSKST_FAULT_NONE, c->stop },
		     XL_XSKST_SKB, idx, &r);
	if (r.status != XL_XSKST_PASS) {
		snprintf(msg, len, "no AF_XDP frame goes from %s to %s (one frame, XDP_SKB, copy mode): %s",
			 c->peer, c->ifname, r.reason);
		return -EOPNOTSUPP;
	}
	return 0;
}
