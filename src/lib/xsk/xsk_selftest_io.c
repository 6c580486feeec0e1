// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP selftest's two ends: each made in its own namespace (the
 * calling thread enters it and comes back; the sockets, once made, are
 * used from any namespace), with its MTU, UMEM, socket (libxdp's
 * xsk_socket__create() without its program: XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD)
 * and, on the receiving end, bpf/xsk_selftest.bpf.c attached through a
 * bpf_link. A zero-copy bind the device refuses makes the case a skip
 * with the kernel's reason, as xskxceiver skips its ZC mode.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xsk_selftest.skel.h"
#include "xdplab/attach.h"
#include "xdplab/log.h"
#include "xdplab/netns.h"
#include "xdplab/time.h"
#include "xsk_priv.h"
#include "xsk_selftest_priv.h"

/* How long a bind that finds the queue busy is retried. */
#define BIND_RETRY_NS (3 * 1000000000ull)

#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif

static int ifreq_ioctl(unsigned long req, struct ifreq *ifr)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, req, ifr))
		err = -errno;
	close(fd);
	return err;
}

/* MTU of @name in the current namespace: read into *@old, set to @mtu. */
static int set_mtu(const char *name, uint32_t mtu, uint32_t *old)
{
	struct ifreq ifr = { 0 };
	int err;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	err = ifreq_ioctl(SIOCGIFMTU, &ifr);
	if (err)
		return err;
	if (old)
		*old = ifr.ifr_mtu;
	if ((uint32_t)ifr.ifr_mtu == mtu)
		return 0;
	ifr.ifr_mtu = mtu;
	return ifreq_ioctl(SIOCSIFMTU, &ifr);
}

static int get_mac(const char *name, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };
	int err;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	err = ifreq_ioctl(SIOCGIFHWADDR, &ifr);
	if (!err)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return err;
}

/* The device's rings (ETHTOOL_GRINGPARAM / SRINGPARAM) on @name, current namespace. */
static int ringparam(const char *name, struct ethtool_ringparam *rp, bool set)
{
	struct ifreq ifr = { 0 };

	rp->cmd = set ? ETHTOOL_SRINGPARAM : ETHTOOL_GRINGPARAM;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = (void *)rp;
	return ifreq_ioctl(SIOCETHTOOL, &ifr);
}

/*
 * xskxceiver's HW_SW_MIN/MAX_RING_SIZE: the interface's hardware rings at
 * 64 descriptors (or less if that is its most) or at their most, put back
 * by xst_end_close(). A device without rings to size is a skip.
 */
static int set_hw_rings(struct xst_ctx *x, struct xst_end *e)
{
	struct ethtool_ringparam rp = { 0 };
	int err = ringparam(e->ifname, &rp, false);

	if (err)
		return xst_skip(x, "%s has no hardware rings to size (ETHTOOL_GRINGPARAM: %s)", e->ifname,
				strerror(-err));
	e->ring_saved.rx = rp.rx_pending;
	e->ring_saved.tx = rp.tx_pending;
	if (x->p.hw_ring == XST_HW_RING_MAX) {
		rp.rx_pending = rp.rx_max_pending;
		rp.tx_pending = rp.tx_max_pending;
	} else {
		rp.rx_pending = rp.rx_max_pending < XST_HW_RING_LEAST ? rp.rx_max_pending : XST_HW_RING_LEAST;
		rp.tx_pending = rp.tx_max_pending < XST_HW_RING_LEAST ? rp.tx_max_pending : XST_HW_RING_LEAST;
	}
	if ((err = ringparam(e->ifname, &rp, true)))
		return xst_fail(x, "cannot set the rings of %s to %u RX, %u TX: %s", e->ifname,
				rp.rx_pending, rp.tx_pending, strerror(-err));
	e->ring_changed = true;
	return 0;
}

static int load_prog(struct xst_ctx *x, struct xst_end *e)
{
	struct bpf_program *prog;
	int err, key = x->cfg->queue, fd = e->fd;

	e->skel = xsk_selftest__open();
	if (!e->skel)
		return xst_fail(x, "cannot open the selftest's XDP program: %s", strerror(errno));
	prog = x->p.prog == XL_XSKST_PROG_META ? e->skel->progs.xdp_xskst_meta :
	       x->p.sg ? e->skel->progs.xdp_xskst_mb : e->skel->progs.xdp_xskst;
	bpf_program__set_autoload(e->skel->progs.xdp_xskst, prog == e->skel->progs.xdp_xskst);
	bpf_program__set_autoload(e->skel->progs.xdp_xskst_mb, prog == e->skel->progs.xdp_xskst_mb);
	bpf_program__set_autoload(e->skel->progs.xdp_xskst_meta, prog == e->skel->progs.xdp_xskst_meta);
	e->skel->bss->prog_kind = x->p.prog;
	e->skel->bss->tail_delta = x->p.tail_delta;
	err = xsk_selftest__load(e->skel);
	if (err && prog == e->skel->progs.xdp_xskst_meta)
		return xst_skip(x, "this kernel refuses bpf_xdp_adjust_meta() to the program: %s",
				strerror(-err));
	if (err)
		return xst_fail(x, "cannot load the selftest's XDP program: %s", strerror(-err));
	if (bpf_map_update_elem(bpf_map__fd(e->skel->maps.xsks_map), &key, &fd, BPF_ANY))
		return xst_fail(x, "cannot put the socket in the XSKMAP: %s", strerror(errno));
	e->link_fd = xl_xdp_attach(bpf_program__fd(prog), e->ifindex, e->ifname,
				   x->mode % 3 == XL_XSKST_SKB ? XL_MODE_SKB : XL_MODE_NATIVE);
	if (e->link_fd < 0) {
		err = e->link_fd;
		e->link_fd = -1;
		return xst_fail(x, "cannot attach XDP (%s) on %s: %s",
				x->mode % 3 == XL_XSKST_SKB ? "skb" : "drv", e->ifname, strerror(-err));
	}
	return 0;
}

static int make_socket(struct xst_ctx *x, struct xst_end *e, bool rx, bool tx)
{
	const struct xst_params *p = &x->p;
	struct xsk_socket_config sc = {
		.rx_size = rx ? p->rx_size : 0, .tx_size = tx ? p->tx_size : 0,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = 0,
		.bind_flags = (p->no_wakeup ? 0 : XDP_USE_NEED_WAKEUP) | (p->sg ? XDP_USE_SG : 0) |
			      (x->mode % 3 == XL_XSKST_ZC ? XDP_ZEROCOPY : XDP_COPY),
	};
	uint64_t t0 = xl_now_ns();
	int err;

	/* EBUSY: the previous case's socket on the queue is still going away. */
	while ((err = xsk_socket__create(&e->xsk, e->ifname, x->cfg->queue, e->umem,
					 rx ? &e->rx : NULL, tx ? &e->tx : NULL, &sc)) == -EBUSY &&
	       xl_now_ns() - t0 < BIND_RETRY_NS)
		xl_sleep_ns(1000000, NULL);
	if (err) {
		e->xsk = NULL;
		if (x->mode % 3 == XL_XSKST_ZC && (err == -EOPNOTSUPP || err == -EINVAL))
			return xst_skip(x, "zero-copy bind on %s: %s (the driver has no AF_XDP zero-copy)",
					e->ifname, strerror(-err));
		if (p->sg && err == -EOPNOTSUPP)
			return xst_skip(x, "multi-buffer (XDP_USE_SG) bind on %s: %s", e->ifname,
					strerror(-err));
		return xst_fail(x, "cannot bind an AF_XDP socket on %s queue %u: %s", e->ifname,
				x->cfg->queue, strerror(-err));
	}
	e->fd = xsk_socket__fd(e->xsk);
	e->zc = xl_xsk_is_zerocopy(e->fd) == 1;
	if (x->mode >= XL_XSKST_SKB_BUSY && (err = xl_xsk_busy_poll(e->fd, 64)))
		return xst_fail(x, "cannot set busy polling on the socket of %s: %s", e->ifname,
				strerror(-err));
	return 0;
}

int xst_end_open(struct xst_ctx *x, struct xst_end *e, uint32_t nframes, bool rx, bool tx)
{
	const struct xst_params *p = &x->p;
	struct xsk_umem_config uc = {
		.fill_size = p->fill_size, .comp_size = p->comp_size, .frame_size = p->frame_size,
		.frame_headroom = p->headroom,
		.flags = p->unaligned ? XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0,
	};
	struct xl_netns_saved saved = { -1 };
	int err;

	e->fd = e->link_fd = -1;
	if (e->netns && (err = xl_netns_enter_path(e->netns, &saved)))
		return xst_fail(x, "cannot enter %s: %s", e->netns, strerror(-err));
	e->ifindex = if_nametoindex(e->ifname);
	if (!e->ifindex) {
		err = xst_fail(x, "interface '%s': no such interface", e->ifname);
		goto out;
	}
	if ((err = get_mac(e->ifname, e->mac))) {
		xst_fail(x, "cannot read the MAC of %s: %s", e->ifname, strerror(-err));
		goto out;
	}
	if (p->mtu && (err = set_mtu(e->ifname, p->mtu, &e->mtu_saved))) {
		xst_skip(x, "cannot set the MTU of %s to %u: %s", e->ifname, p->mtu, strerror(-err));
		e->mtu_saved = 0;
		goto out;
	}
	if (p->hw_ring && rx && (err = set_hw_rings(x, e)))
		goto out;
	e->size = (uint64_t)nframes * p->frame_size;
	e->area = mmap(NULL, e->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		       -1, 0);
	if (e->area == MAP_FAILED) {
		e->area = NULL;
		err = xst_fail(x, "cannot map a UMEM of %llu KiB: %s",
			       (unsigned long long)e->size >> 10, strerror(errno));
		goto out;
	}
	if ((err = xl_memlock_ensure(e->size)))
		goto out_fail;
	err = xsk_umem__create(&e->umem, e->area, e->size, &e->fill, &e->comp, &uc);
	if (err) {
		e->umem = NULL;
		xst_fail(x, "cannot register the UMEM (%u frames x %u bytes%s, headroom %u): %s",
			 nframes, p->frame_size, p->unaligned ? ", unaligned" : "", p->headroom,
			 strerror(-err));
		goto out;
	}
	if ((err = make_socket(x, e, rx, tx)))
		goto out;
	if (rx)
		err = load_prog(x, e);
	goto out;
out_fail:
	xst_fail(x, "cannot lock the UMEM's memory: %s", strerror(-err));
out:
	if (saved.fd >= 0)
		xl_netns_restore(&saved);
	return err;
}

void xst_end_close(struct xst_end *e)
{
	struct xl_netns_saved saved = { -1 };

	xl_xdp_link_close(e->link_fd);
	e->link_fd = -1;
	if (e->skel)
		xsk_selftest__destroy(e->skel);
	e->skel = NULL;
	if (e->xsk)
		xsk_socket__delete(e->xsk);
	e->xsk = NULL;
	if (e->umem)
		xsk_umem__delete(e->umem);
	e->umem = NULL;
	if (e->area)
		munmap(e->area, e->size);
	e->area = NULL;
	if ((e->mtu_saved || e->ring_changed) && (!e->netns || !xl_netns_enter_path(e->netns, &saved))) {
		struct ethtool_ringparam rp = { 0 };

		/* After the program went: veth refuses a drv program's MTU change. */
		if (e->mtu_saved && set_mtu(e->ifname, e->mtu_saved, NULL))
			xl_warn("cannot set the MTU of %s back to %u", e->ifname, e->mtu_saved);
		if (e->ring_changed && (ringparam(e->ifname, &rp, false) ||
					(rp.rx_pending = e->ring_saved.rx, rp.tx_pending = e->ring_saved.tx,
					 ringparam(e->ifname, &rp, true))))
			xl_warn("cannot set the rings of %s back to %u RX, %u TX", e->ifname,
				e->ring_saved.rx, e->ring_saved.tx);
		xl_netns_restore(&saved);
	}
	e->mtu_saved = 0;
	e->ring_changed = false;
	free(e->free);
	e->free = NULL;
	free(e->acc);
	e->acc = NULL;
}

int xst_kick_tx(struct xst_end *e)
{
	if (sendto(e->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
		return 0;
	if (errno == EAGAIN || errno == EBUSY || errno == ENOBUFS || errno == EINTR)
		return 0;
	return -errno;
}

int xst_stats(struct xst_end *e, struct xdp_statistics *s)
{
	return xl_xsk_statistics(e->fd, s);
}
