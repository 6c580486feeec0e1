// SPDX-License-Identifier: BSD-2-Clause
/*
 * The kernel's netdev generic-netlink family through libmnl
 * (xdplab/netlink.h): a device's NAPI kthread and its XDP features.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "xdplab/log.h"
#include "xdplab/netlink.h"

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
