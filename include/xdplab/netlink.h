/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file netlink.h
 * Link facts over rtnetlink (libmnl): MTU, queues, kind, the veth peer and
 * its XDP state, also for a peer in another namespace (IFLA_TARGET_NETNSID).
 */
#ifndef XDPLAB_NETLINK_H
#define XDPLAB_NETLINK_H

#include <stdint.h>
#include <net/if.h>

/**
 * struct xl_link_info - what RTM_GETLINK says of one link.
 * @ifindex: the link; @name: its name.
 * @mtu: MTU in bytes; @rx_queues/@tx_queues: the queues the device was
 *   created with (IFLA_NUM_RX_QUEUES/IFLA_NUM_TX_QUEUES): its maximum, not
 *   the queues in use (a veth on 2 CPUs has 2 but uses 1); those come from
 *   xl_link_real_queues().
 * @kind: IFLA_INFO_KIND ("veth", ...; "" for a physical device).
 * @peer_ifindex: IFLA_LINK (veth: the peer's ifindex in its namespace), 0 if none.
 * @peer_netnsid: IFLA_LINK_NETNSID of the peer, -1 when in the same namespace.
 * @xdp_attached: XDP_ATTACHED_* (0 none, 1 native, 2 skb, 3 hw, 4 multi).
 * @xdp_prog_id: the attached program's id, 0 if none.
 * @up: IFF_UP set. @mac: IFLA_ADDRESS (zero if none).
 * @carrier: IFLA_CARRIER (1 carrier, 0 none, -1 not reported).
 * @operstate: IFLA_OPERSTATE (RFC 2863: 6 up, 2 down, 5 dormant, 0 unknown...;
 *   -1 not reported).
 */
struct xl_link_info {
	int ifindex;
	char name[IF_NAMESIZE];
	uint32_t mtu;
	uint32_t rx_queues, tx_queues;
	char kind[16];
	int peer_ifindex;
	int peer_netnsid;
	int xdp_attached;
	uint32_t xdp_prog_id;
	int up;
	uint8_t mac[6];
	int carrier;
	int operstate;
};

/**
 * xl_link_down_cause() - whether @ifindex (caller's namespace) can pass
 * traffic, and if not why, naming the real cause: down itself (IFF_UP off),
 * its veth peer down (a veth's carrier follows its peer; the peer may be
 * in another namespace), no carrier, or an operstate other than up.
 * Return: 0 when it can, 1 with one phrase in @msg when it cannot, or
 * -errno (the link cannot be read; @msg says so).
 */
int xl_link_down_cause(int ifindex, char *msg, size_t len);

/**
 * xl_link_get() - RTM_GETLINK for @ifindex.
 * @netnsid: -1 for the caller's namespace, else a peer netnsid as given by
 *           xl_link_info.peer_netnsid (IFLA_TARGET_NETNSID, kernel 4.20+).
 * Return: 0, -ENODEV when there is no such link, or -errno.
 */
int xl_link_get(int ifindex, int netnsid, struct xl_link_info *info);

/**
 * xl_link_macs() - the MACs of frames a sender puts on @ifname (calling
 * thread's namespace): @src the interface's, @dst its veth peer's (the peer
 * may be in another namespace), else broadcast (6 bytes each).
 * @li: out, NULL: not wanted: the interface's facts.
 * Return: 0, or -ENODEV (no such interface, or it cannot be read).
 */
int xl_link_macs(const char *ifname, uint8_t src[6], uint8_t dst[6], struct xl_link_info *li);

/**
 * xl_link_rx_queues() - how many of @ifindex's RX queues (calling
 * thread's namespace) an ethtool sum reads: its real RX queues, at most
 * XL_ETHTOOL_MAX_QUEUES (the kernel counts XDP per RX queue); 1 when the
 * link cannot be read.
 */
int xl_link_rx_queues(int ifindex);

/**
 * xl_link_real_queues() - the RX and TX queues @ifname uses now (in the
 * calling thread's namespace): ETHTOOL_GCHANNELS rx+combined and
 * tx+combined (as `ethtool -l` "Current hardware settings"), else the
 * rx-N / tx-N entries of /sys/class/net/@ifname/queues (which shows the
 * namespace sysfs was mounted in).
 * Return: 0 with *@rx and *@tx set, -ENODEV, or -errno when neither source
 * answers.
 */
int xl_link_real_queues(const char *ifname, uint32_t *rx, uint32_t *tx);

/**
 * xl_link_gro() - GRO state of @ifname in the calling thread's namespace
 * (ethtool ETHTOOL_GGRO). Return: 1 on, 0 off, -1 unknown.
 */
int xl_link_gro(const char *ifname);

/**
 * xl_link_rxvlan() - rx-vlan-offload (`ethtool -k`'s name; NETIF_F_HW_VLAN_CTAG_RX,
 * ETH_FLAG_RXVLAN of ETHTOOL_GFLAGS) of @ifname in the calling thread's
 * namespace: a NIC with it on may strip 802.1Q tags before XDP runs.
 * Return: 1 on, 0 off, -1 unknown.
 */
int xl_link_rxvlan(const char *ifname);

/**
 * xl_link_peer_gro() - GRO state of a veth peer as xl_link_get() returned
 * it (@peer, and the @peer_netnsid it was read with). A peer in another
 * namespace is found by visiting the named ones (/run/netns) for a device
 * with its ifindex, name and MAC; the calling thread always returns to its
 * own namespace. A veth peer with GRO on has a NAPI, so frames redirected
 * into the veth are received even without an XDP program.
 * Return: 1 on, 0 off, -1 unknown (e.g. the peer's namespace has no name).
 */
int xl_link_peer_gro(const struct xl_link_info *peer, int peer_netnsid);

/**
 * xl_link_features() - xl_ethtool_features() of @ifname in the calling
 * thread's namespace: @on[i] 1 when feature @names[i] is active, 0 when
 * not, -1 when the device has no such feature.
 * Return: 0, or -1 when the device cannot be asked.
 */
int xl_link_features(const char *ifname, const char *const names[], int n, int on[]);

/**
 * xl_link_peer_features() - xl_link_features() of a veth peer as
 * xl_link_get() returned it (@peer, @peer_netnsid), found as
 * xl_link_peer_gro() finds it (the calling thread returns to its own
 * namespace). Return: 0, or -1 (not found, or it cannot be asked).
 */
int xl_link_peer_features(const struct xl_link_info *peer, int peer_netnsid,
			  const char *const names[], int n, int on[]);

/**
 * xl_link_peer_socket() - a datagram socket (AF_INET, SOCK_CLOEXEC) made in
 * the namespace of a veth peer as xl_link_get() returned it (@peer,
 * @peer_netnsid), found as xl_link_peer_gro() finds it, so ethtool ioctls
 * on it reach @peer->name there (an ioctl acts in its socket's namespace);
 * the calling thread returns to its own namespace.
 * Return: the socket (the caller closes it), or -1 (not found, or no socket).
 */
int xl_link_peer_socket(const struct xl_link_info *peer, int peer_netnsid);

/**
 * xl_xsk_queue_holder() - the AF_XDP socket bound to @ifindex queue @queue
 * in the caller's namespace, found with sock_diag (NETLINK_SOCK_DIAG,
 * AF_XDP, XDP_SHOW_INFO: what `ss --xdp` reads), and the process holding
 * it (/proc/PID/fd links; 0 when none is found, e.g. another namespace).
 * @comm (@len bytes) gets its name.
 * Return: 1 found (*@pid may be 0), 0 none bound there, or -errno.
 */
int xl_xsk_queue_holder(int ifindex, uint32_t queue, int *pid, char *comm, size_t len);

/** The xdp-features bits of NETDEV_A_DEV_XDP_FEATURES (enum netdev_xdp_act). */
#define XL_XDP_ACT_BASIC (1ull << 0)        /* XDP_PASS/DROP/ABORTED/TX: native XDP */
#define XL_XDP_ACT_REDIRECT (1ull << 1)     /* XDP_REDIRECT out of the device */
#define XL_XDP_ACT_NDO_XMIT (1ull << 2)     /* takes redirected frames (ndo_xdp_xmit) */
#define XL_XDP_ACT_XSK_ZEROCOPY (1ull << 3) /* AF_XDP zero-copy */
#define XL_XDP_ACT_HW_OFFLOAD (1ull << 4)
#define XL_XDP_ACT_RX_SG (1ull << 5)        /* multi-buffer (xdp.frags) on receive */
#define XL_XDP_ACT_NDO_XMIT_SG (1ull << 6)  /* multi-buffer redirected frames */

/**
 * xl_link_xdp_features() - what the driver of @ifindex (caller's namespace)
 * says it supports for XDP, from the kernel (netdev generic netlink,
 * NETDEV_CMD_DEV_GET, kernel 6.3+, as `ynl --family netdev` or
 * `ip -d link` show it), without attaching anything: on a real NIC an
 * attach can reset the link. A veth's NDO_XMIT bit follows its peer (set
 * when the peer has a NAPI).
 * Return: 0 with *@features (XL_XDP_ACT_*), -EOPNOTSUPP when the kernel
 * has no netdev family (before 6.3: the caller may fall back to an attach
 * probe), or -errno.
 */
int xl_link_xdp_features(int ifindex, uint64_t *features);

/**
 * xl_napi_pid_netlink() - the pid of a threaded-NAPI kthread of @ifindex
 * (caller's namespace) from the kernel (netdev generic netlink, a
 * NETDEV_CMD_NAPI_GET dump filtered by ifindex, kernel 6.8+: the
 * NETDEV_A_NAPI_PID of the first NAPI instance that has one), without
 * walking /proc. Return: the pid, 0 when the device has no threaded NAPI
 * (no NAPI at all, or softirq), -EOPNOTSUPP when the kernel has no
 * napi-get (before 6.8: the caller walks /proc), or -errno (-ENODEV: no
 * such device here).
 */
int xl_napi_pid_netlink(int ifindex);

#endif /* XDPLAB_NETLINK_H */
