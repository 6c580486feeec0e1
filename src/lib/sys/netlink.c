// SPDX-License-Identifier: BSD-2-Clause
/* RTM_GETLINK through libmnl: the facts gen, probe and the lab check. */
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
#include <linux/genetlink.h>
#include <linux/sock_diag.h>
#include <linux/xdp_diag.h>

#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/netns.h"
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

/*
 * GRO state of the veth peer @peer. A peer in another namespace is found
 * by visiting the named namespaces (/run/netns) for a device with its
 * ifindex, name and MAC; the thread returns after each visit (checked).
 * Return: 1 on, 0 off, -1 unknown.
 */
/*
 * @fn(@peer's name, @ctx) run where @peer is: here when @peer_netnsid < 0,
 * else in the named namespace (/run/netns) that has a device of its
 * ifindex, name and MAC. Return: @fn's return, or -1 when not found.
 */
static int in_peer_ns(const struct xl_link_info *peer, int peer_netnsid,
		      int (*fn)(const char *ifname, void *ctx), void *ctx)
{
	struct dirent *d;
	int ret = -1;
	bool found = false;
	DIR *dir;

	if (peer_netnsid < 0)
		return fn(peer->name, ctx);
	dir = opendir("/run/netns");
	if (!dir)
		return -1;
	while (!found && (d = readdir(dir))) {
		struct xl_netns_saved saved;
		struct xl_link_info li;
		char path[300];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", d->d_name);
		if (xl_netns_enter_path(path, &saved))
			continue;
		if (!xl_link_get(peer->ifindex, -1, &li) && !strcmp(li.name, peer->name) &&
		    !memcmp(li.mac, peer->mac, 6)) {
			found = true;
			ret = fn(peer->name, ctx);
		}
		if (xl_netns_restore(&saved)) {
			/* Stranded in another namespace (logged): stop. */
			xl_err("(after visiting namespace %s)", d->d_name);
			ret = -1;
			break;
		}
	}
	closedir(dir);
	return ret;
}

static int gro_fn(const char *ifname, void *ctx)
{
	return xl_link_gro(ifname);
}

int xl_link_peer_gro(const struct xl_link_info *peer, int peer_netnsid)
{
	return in_peer_ns(peer, peer_netnsid, gro_fn, NULL);
}

struct features_args {
	const char *const *names;
	int n;
	int *on;
};

/* xl_ethtool_features() of @ifname here, through a socket of this namespace. */
static int features_fn(const char *ifname, void *ctx)
{
	struct features_args *a = ctx;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return -1;
	err = xl_ethtool_features(fd, ifname, a->names, a->n, a->on);
	close(fd);
	return err ? -1 : 0;
}

int xl_link_features(const char *ifname, const char *const names[], int n, int on[])
{
	struct features_args a = { names, n, on };

	return features_fn(ifname, &a);
}

int xl_link_peer_features(const struct xl_link_info *peer, int peer_netnsid,
			  const char *const names[], int n, int on[])
{
	struct features_args a = { names, n, on };

	return in_peer_ns(peer, peer_netnsid, features_fn, &a);
}

/* A socket of the namespace this runs in (@ifname, @ctx unused). */
static int socket_fn(const char *ifname, void *ctx)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -1 : fd;
}

int xl_link_peer_socket(const struct xl_link_info *peer, int peer_netnsid)
{
	return in_peer_ns(peer, peer_netnsid, socket_fn, NULL);
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

/*
 * The netdev generic-netlink family (kernel 6.3+, Documentation/netlink/
 * specs/netdev.yaml); its constants are here because the build host's
 * UAPI headers may predate it.
 */
#define XL_NETDEV_CMD_DEV_GET 1
#define XL_NETDEV_CMD_NAPI_GET 11 /* kernel 6.8+ */
#define XL_NETDEV_A_DEV_IFINDEX 1
#define XL_NETDEV_A_DEV_XDP_FEATURES 3
#define XL_NETDEV_A_NAPI_IFINDEX 1
#define XL_NETDEV_A_NAPI_PID 4

static int genl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int dev_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == XL_NETDEV_A_DEV_XDP_FEATURES)
			*(uint64_t *)data = mnl_attr_get_u64(a);
	return MNL_CB_OK;
}

/* One generic-netlink request (@flags besides NLM_F_REQUEST) on @nl and its answers through @cb. */
static int genl_call_flags(struct mnl_socket *nl, uint16_t type, uint8_t cmd, uint16_t flags,
			   int attr, const void *val, size_t len, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = time(NULL), portid = mnl_socket_get_portid(nl);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	int ret;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	mnl_attr_put(nlh, attr, len, val);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while ((ret = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		ret = mnl_cb_run(buf, ret, seq, portid, cb, data);
		if (ret <= 0)
			break;
	}
	return ret < 0 ? -errno : 0;
}

static int genl_call(struct mnl_socket *nl, uint16_t type, uint8_t cmd, int attr, const void *val,
		     size_t len, mnl_cb_t cb, void *data)
{
	return genl_call_flags(nl, type, cmd, NLM_F_ACK, attr, val, len, cb, data);
}

/* A netdev-family socket (bound) and the family's id; -EOPNOTSUPP: none (before 6.3). */
static int netdev_open(struct mnl_socket **nlp, uint16_t *family)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	int err;

	*family = 0;
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		mnl_socket_close(nl);
		return err;
	}
	err = genl_call(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME, "netdev",
			sizeof("netdev"), genl_family_cb, family);
	if (err || !*family) {
		mnl_socket_close(nl);
		return -EOPNOTSUPP;
	}
	*nlp = nl;
	return 0;
}

/* What napi_cb found: NAPI instances of the device and the first kthread's pid. */
struct napi_find {
	int napis, pid;
};

static int napi_cb(const struct nlmsghdr *nlh, void *data)
{
	struct napi_find *f = data;
	struct nlattr *a;

	f->napis++;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == XL_NETDEV_A_NAPI_PID && !f->pid)
			f->pid = (int)mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

int xl_napi_pid_netlink(int ifindex)
{
	struct napi_find f = { 0 };
	struct mnl_socket *nl;
	uint32_t idx = ifindex;
	uint16_t family;
	int err;

	err = netdev_open(&nl, &family);
	if (err)
		return err;
	/* A dump filtered by ifindex: every NAPI instance of the device. */
	err = genl_call_flags(nl, family, XL_NETDEV_CMD_NAPI_GET, NLM_F_DUMP,
			      XL_NETDEV_A_NAPI_IFINDEX, &idx, sizeof(idx), napi_cb, &f);
	mnl_socket_close(nl);
	/* No such command (before 6.8): the kernel says EOPNOTSUPP or EINVAL. */
	if (err == -EOPNOTSUPP || err == -EINVAL)
		return -EOPNOTSUPP;
	if (err)
		return err;
	return f.pid;
}

int xl_link_xdp_features(int ifindex, uint64_t *features)
{
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t idx = ifindex;
	int err;

	*features = 0;
	err = netdev_open(&nl, &family);
	if (err)
		return err; /* -EOPNOTSUPP: no netdev family, a kernel before 6.3 */
	*features = UINT64_MAX; /* not reported yet */
	err = genl_call(nl, family, XL_NETDEV_CMD_DEV_GET, XL_NETDEV_A_DEV_IFINDEX, &idx,
			sizeof(idx), dev_get_cb, features);
	if (!err && *features == UINT64_MAX)
		err = -EOPNOTSUPP;
	mnl_socket_close(nl);
	if (err)
		*features = 0;
	return err;
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
