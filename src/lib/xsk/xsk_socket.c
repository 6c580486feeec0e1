// SPDX-License-Identifier: BSD-2-Clause
/*
 * AF_XDP sockets' kernel side: our steering program (skeleton, XSKMAP,
 * bpf_link), the socket options we read or set, and the interface facts a
 * configuration must fit. The binds themselves
 * go through libxdp (xsk_socket__create/__create_shared with
 * XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD) in xsk_app.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <unistd.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xsk.skel.h"
#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xsk_priv.h"
#include "xdplab/abi/xsk.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif
/* Microseconds a busy-polling syscall may spin for packets. */
#define BUSY_POLL_US 20

int xl_xsk_prog__load(struct xl_xsk_prog *p, bool frags)
{
	int err;

	memset(p, 0, sizeof(*p));
	p->prog_fd = p->map_fd = p->link_fd = -1;
	p->skel = xsk__open();
	if (!p->skel) {
		err = -errno;
		xl_err("cannot open the AF_XDP steering program: %s", strerror(-err));
		return err;
	}
	bpf_program__set_autoload(p->skel->progs.xdp_xsk_redirect, !frags);
	bpf_program__set_autoload(p->skel->progs.xdp_xsk_redirect_mb, frags);
	err = xsk__load(p->skel);
	if (err) {
		xl_err("cannot load the AF_XDP steering program: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		xsk__destroy(p->skel);
		p->skel = NULL;
		return err;
	}
	p->prog_fd = bpf_program__fd(frags ? p->skel->progs.xdp_xsk_redirect_mb :
					     p->skel->progs.xdp_xsk_redirect);
	p->map_fd = bpf_map__fd(p->skel->maps.xsks_map);
	return 0;
}

int xl_xsk_prog__set(struct xl_xsk_prog *p, uint32_t queue, int xsk_fd)
{
	if (queue >= XL_XSK_MAP_SIZE)
		return -E2BIG;
	if (bpf_map_update_elem(p->map_fd, &queue, &xsk_fd, BPF_ANY)) {
		int err = -errno;

		xl_err("cannot put the socket of queue %u in the XSKMAP: %s", queue, strerror(-err));
		return err;
	}
	return 0;
}

int xl_xsk_prog__attach(struct xl_xsk_prog *p, int ifindex, const char *ifname,
			enum xl_xdp_mode mode)
{
	int fd = xl_xdp_attach(p->prog_fd, ifindex, ifname, mode);

	if (fd < 0)
		return fd;
	p->link_fd = fd;
	return 0;
}

void xl_xsk_prog__destroy(struct xl_xsk_prog *p)
{
	xl_xdp_link_close(p->link_fd); /* -1: nothing */
	if (p->skel)
		xsk__destroy(p->skel);
	memset(p, 0, sizeof(*p));
	p->prog_fd = p->map_fd = p->link_fd = -1;
}

int xl_xsk_busy_poll(int fd, uint32_t budget)
{
	int one = 1, us = BUSY_POLL_US, b = (int)budget;

	if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &b, sizeof(b)))
		return -errno;
	return 0;
}

int xl_xsk_statistics(int fd, struct xdp_statistics *s)
{
	socklen_t len = sizeof(*s);

	memset(s, 0, sizeof(*s));
	return getsockopt(fd, SOL_XDP, XDP_STATISTICS, s, &len) ? -errno : 0;
}

int xl_xsk_is_zerocopy(int fd)
{
	struct xdp_options o = { 0 };
	socklen_t len = sizeof(o);

	if (getsockopt(fd, SOL_XDP, XDP_OPTIONS, &o, &len))
		return -errno;
	return !!(o.flags & XDP_OPTIONS_ZEROCOPY);
}

int xl_xsk_check_iface(const struct xl_xsk_config *c, char *msg, size_t len)
{
	struct xl_link_info li;
	uint32_t rxq, txq;
	int ifindex, err;

	ifindex = if_nametoindex(c->ifname);
	if (!ifindex) {
		snprintf(msg, len, "interface '%s': no such interface", c->ifname);
		return -ENODEV;
	}
	err = xl_link_get(ifindex, -1, &li);
	if (err) {
		snprintf(msg, len, "interface %s: cannot read its link facts: %s", c->ifname,
			 strerror(-err));
		return err;
	}
	/*
	 * The queues in use, not the device's maximum (li.rx_queues): a veth
	 * made on 2 CPUs has 2 RX queues but uses 1, and a bind to the second
	 * fails with EINVAL.
	 */
	if (xl_link_real_queues(c->ifname, &rxq, &txq))
		rxq = li.rx_queues;
	if (c->queue + c->queues > rxq || c->queue + c->queues > XL_XSK_MAX_QUEUES) {
		if (c->queues > 1)
			snprintf(msg, len, "--queue %u --queues %u: %s has %u RX queue(s) in use (accepted: queues 0..%u)",
				 c->queue, c->queues, c->ifname, rxq, rxq - 1);
		else
			snprintf(msg, len, "--queue %u: %s has %u RX queue(s) in use (accepted: 0..%u)",
				 c->queue, c->ifname, rxq, rxq - 1);
		return -EINVAL;
	}
	if (c->app != XL_XSK_TXPUSH && !c->frags && li.mtu + XL_ETH_HLEN > xl_xsk_frame_room(c)) {
		snprintf(msg, len, "the MTU of %s (%u) allows %u-byte frames but a %u-byte chunk holds %u (after 256 bytes of kernel headroom and %u of --headroom): lower the MTU, raise --frame-size, or pass --frags",
			 c->ifname, li.mtu, li.mtu + XL_ETH_HLEN, c->frame_size,
			 xl_xsk_frame_room(c), c->headroom);
		return -EMSGSIZE;
	}
	if (c->app == XL_XSK_TXPUSH && c->spec.size > li.mtu + XL_ETH_HLEN) {
		snprintf(msg, len, "--size %u is above the MTU of %s plus 14 (%u)", c->spec.size,
			 c->ifname, li.mtu + XL_ETH_HLEN);
		return -EMSGSIZE;
	}
	return 0;
}
