// SPDX-License-Identifier: BSD-2-Clause
/*
 * RTM_GETLINK through libmnl: the facts gen, probe and the lab check; a
 * device's ethtool flags, queues and MACs, and which process holds an
 * AF_XDP queue (sock_diag). A veth peer's facts from its namespace are
 * netlink_peer.c's, the netdev generic-netlink family netlink_netdev.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/xdp_diag.h>

#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/sysstat.h"
#include "procfd.h"

static int parse_xdp(const struct nlattr *nest, struct xl_link_info *info)
{
	struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_XDP_ATTACHED:
			info->xdp_attached = mnl_attr_get_u8(a);
			break;
		case IFLA_XDP_PROG_ID:
			info->xdp_prog_id = mnl_attr_get_u32(a);
			break;
		}
	}
	return 0;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct xl_link_info *info = data;
	struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);
	struct nlattr *a, *b;

	info->ifindex = ifm->ifi_index;
	info->up = !!(ifm->ifi_flags & IFF_UP);
	info->carrier = -1;
	info->operstate = -1;
	mnl_attr_for_each(a, nlh, sizeof(*ifm)) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_IFNAME:
			snprintf(info->name, sizeof(info->name), "%s", mnl_attr_get_str(a));
			break;
		case IFLA_ADDRESS:
			if (mnl_attr_get_payload_len(a) == 6)
				memcpy(info->mac, mnl_attr_get_payload(a), 6);
			break;
		case IFLA_MTU:
			info->mtu = mnl_attr_get_u32(a);
			break;
		case IFLA_CARRIER:
			info->carrier = mnl_attr_get_u8(a);
			break;
		case IFLA_OPERSTATE:
			info->operstate = mnl_attr_get_u8(a);
			break;
		case IFLA_NUM_RX_QUEUES:
			info->rx_queues = mnl_attr_get_u32(a);
			break;
		case IFLA_NUM_TX_QUEUES:
			info->tx_queues = mnl_attr_get_u32(a);
			break;
		case IFLA_LINK:
			info->peer_ifindex = mnl_attr_get_u32(a);
			break;
		case IFLA_LINK_NETNSID:
			info->peer_netnsid = (int)mnl_attr_get_u32(a);
			break;
		case IFLA_XDP:
			parse_xdp(a, info);
			break;
		case IFLA_LINKINFO:
			mnl_attr_for_each_nested(b, a)
				if (mnl_attr_get_type(b) == IFLA_INFO_KIND)
					snprintf(info->kind, sizeof(info->kind), "%s",
						 mnl_attr_get_str(b));
			break;
		}
	}
	return MNL_CB_OK;
}

int xl_link_get(int ifindex, int netnsid, struct xl_link_info *info)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	unsigned int seq = time(NULL), portid;
	int ret, err = 0;

	memset(info, 0, sizeof(*info));
	info->peer_netnsid = -1;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = ifindex;
	if (netnsid >= 0)
		mnl_attr_put_u32(nlh, IFLA_TARGET_NETNSID, netnsid);

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		err = -errno;
		goto out_close;
	}
	portid = mnl_socket_get_portid(nl);
	ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (ret < 0) {
		err = -errno;
		goto out_close;
	}
	ret = mnl_cb_run(buf, ret, seq, portid, link_cb, info);
	if (ret < 0)
		err = errno == ENODEV || errno == ENOENT ? -ENODEV : -errno;
out_close:
	mnl_socket_close(nl);
	return err;
}

/* An ethtool_value query (ETHTOOL_G*) of @ifname: its data, or -1 when it fails. */
static long long ethtool_value(const char *ifname, __u32 cmd)
{
	struct ethtool_value ev = { .cmd = cmd };
	struct ifreq ifr = {};
	long long v = -1;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ev;
	if (!ioctl(fd, SIOCETHTOOL, &ifr))
		v = ev.data;
	close(fd);
	return v;
}

int xl_link_rxvlan(const char *ifname)
{
	long long v = ethtool_value(ifname, ETHTOOL_GFLAGS);

	return v < 0 ? -1 : !!(v & ETH_FLAG_RXVLAN);
}

int xl_link_gro(const char *ifname)
{
	long long v = ethtool_value(ifname, ETHTOOL_GGRO);

	return v < 0 ? -1 : !!v;
}

static const char *operstate_name(int s)
{
	static const char *const n[] = { "unknown", "notpresent", "down", "lowerlayerdown",
					 "testing", "dormant", "up" };

	return s >= 0 && s < (int)(sizeof(n) / sizeof(n[0])) ? n[s] : "?";
}

int xl_link_down_cause(int ifindex, char *msg, size_t len)
{
	struct xl_link_info li, peer;
	int err;

	err = xl_link_get(ifindex, -1, &li);
	if (err) {
		snprintf(msg, len, "interface %d: %s", ifindex, strerror(-err));
		return err;
	}
	if (!li.up) {
		snprintf(msg, len, "%s is down (administratively: ip link set %s up)", li.name,
			 li.name);
		return 1;
	}
	/* A veth's carrier follows its peer: name the peer when it is the cause. */
	if (li.peer_ifindex && !strcmp(li.kind, "veth") &&
	    !xl_link_get(li.peer_ifindex, li.peer_netnsid, &peer) && !peer.up) {
		snprintf(msg, len, "the veth peer of %s (%s%s) is down, so %s has no carrier: what is sent is dropped",
			 li.name, peer.name, li.peer_netnsid >= 0 ? ", other namespace" : "", li.name);
		return 1;
	}
	if (li.carrier == 0) {
		snprintf(msg, len, "%s has no carrier (operstate %s)", li.name,
			 operstate_name(li.operstate));
		return 1;
	}
	/* IF_OPER_UP = 6; unknown (0) is what many virtual devices report when up. */
	if (li.operstate > 0 && li.operstate != 6) {
		snprintf(msg, len, "%s is not operational (operstate %s)", li.name,
			 operstate_name(li.operstate));
		return 1;
	}
	return 0;
}

/* Entries named @prefix* in /sys/class/net/@ifname/queues; -errno if unreadable. */
static int sysfs_queue_count(const char *ifname, const char *prefix)
{
	char path[128];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		if (!strncmp(d->d_name, prefix, strlen(prefix)))
			n++;
	closedir(dir);
	return n;
}

int xl_link_real_queues(const char *ifname, uint32_t *rx, uint32_t *tx)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = {};
	int fd, err, n;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ch;
	err = ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
	close(fd);
	if (!err && ch.rx_count + ch.combined_count && ch.tx_count + ch.combined_count) {
		*rx = ch.rx_count + ch.combined_count;
		*tx = ch.tx_count + ch.combined_count;
		return 0;
	}
	if (err == -ENODEV)
		return err;
	/* No ETHTOOL_GCHANNELS: the queues the kernel made visible in sysfs. */
	n = sysfs_queue_count(ifname, "rx-");
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	*rx = n;
	n = sysfs_queue_count(ifname, "tx-");
	if (n <= 0)
		return n < 0 ? n : -ENOENT;
	*tx = n;
	return 0;
}

/* The socket inode that xsk_diag_cb found bound to (ifindex, queue). */
struct xsk_find {
	uint32_t ifindex, queue, ino;
};

static int xsk_diag_cb(const struct nlmsghdr *nlh, void *data)
{
	struct xdp_diag_msg *m = mnl_nlmsg_get_payload(nlh);
	struct xsk_find *f = data;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(*m)) {
		if (mnl_attr_get_type(a) != XDP_DIAG_INFO ||
		    mnl_attr_get_payload_len(a) < sizeof(struct xdp_diag_info))
			continue;
		const struct xdp_diag_info *di = mnl_attr_get_payload(a);

		if (di->ifindex == f->ifindex && di->queue_id == f->queue && !f->ino)
			f->ino = m->xdiag_ino;
	}
	return MNL_CB_OK;
}

/* A process with socket inode @ino open: its pid and name, or 0. */
static int socket_owner(uint32_t ino, char *comm, size_t len)
{
	char want[32];

	snprintf(want, sizeof(want), "socket:[%u]", ino);
	return xl_proc_fd_owner(xl_proc_fd_links_to, want, comm, len);
}

int xl_xsk_queue_holder(int ifindex, uint32_t queue, int *pid, char *comm, size_t len)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct xsk_find f = { .ifindex = ifindex, .queue = queue };
	struct xdp_diag_req *req;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	unsigned int seq = time(NULL), portid;
	int ret;

	*pid = 0;
	comm[0] = '\0';
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));
	req->sdiag_family = AF_XDP;
	req->xdiag_show = XDP_SHOW_INFO;
	nl = mnl_socket_open(NETLINK_SOCK_DIAG);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		mnl_socket_close(nl);
		return ret;
	}
	portid = mnl_socket_get_portid(nl);
	while ((ret = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		ret = mnl_cb_run(buf, ret, seq, portid, xsk_diag_cb, &f);
		if (ret <= 0)
			break;
	}
	mnl_socket_close(nl);
	if (ret < 0)
		return -errno;
	if (!f.ino)
		return 0;
	*pid = socket_owner(f.ino, comm, len);
	return 1;
}

int xl_link_macs(const char *ifname, uint8_t src[6], uint8_t dst[6], struct xl_link_info *li)
{
	struct xl_link_info me, peer;
	int ifindex = if_nametoindex(ifname);

	if (!ifindex || xl_link_get(ifindex, -1, &me))
		return -ENODEV;
	memcpy(src, me.mac, 6);
	memset(dst, 0xff, 6);
	if (!strcmp(me.kind, "veth") && me.peer_ifindex &&
	    !xl_link_get(me.peer_ifindex, me.peer_netnsid, &peer))
		memcpy(dst, peer.mac, 6);
	if (li)
		*li = me;
	return 0;
}

int xl_link_rx_queues(int ifindex)
{
	struct xl_link_info li;

	if (xl_link_get(ifindex, -1, &li) || li.rx_queues < 1)
		return 1;
	return li.rx_queues > XL_ETHTOOL_MAX_QUEUES ? XL_ETHTOOL_MAX_QUEUES : li.rx_queues;
}
