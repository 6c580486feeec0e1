// SPDX-License-Identifier: GPL-2.0
/*
 * bench/limits/xsk_napi_probe.c - can an AF_XDP socket busy-poll this
 * device's NAPI? A measuring tool for docs/performance.md ("What limits
 * each target not met"), built and run by bench/limits/busypoll.sh; not
 * part of xdplab.
 *
 *   xsk_napi_probe IFACE SECONDS [busy]
 *
 * It binds one copy-mode AF_XDP socket (XDP_DRV, need_wakeup) to queue 0
 * of IFACE, receives and recycles frames for SECONDS, and prints:
 *   - the NAPI instances netdev netlink lists for IFACE (napi-get dump:
 *     id, and the kthread pid when threaded);
 *   - RX queue 0's NAPI id as netdev netlink's queue-get reports it
 *     (0: the driver never linked the queue to its NAPI,
 *     netif_queue_set_napi());
 *   - SO_INCOMING_NAPI_ID of the socket right after bind and after the
 *     frames: the id sk_busy_loop() would poll (0: it polls nothing);
 *   - the frames received.
 * With "busy" the socket gets SO_PREFER_BUSY_POLL, SO_BUSY_POLL 20 us and
 * SO_BUSY_POLL_BUDGET 64, and the loop calls recvfrom(MSG_DONTWAIT) once
 * per pass, the syscall that runs sk_busy_loop() for an AF_XDP socket
 * (as xdpsock -B does); without it the loop spins on the RX ring alone.
 * Exit 0, 1 on a set-up error, 2 on usage.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <xdp/xsk.h>

/* Copies of src/lib/xsk/xsk_socket.c's fallbacks on purpose: the probe builds alone (cc, no libxdplab). */
#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID 56
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

/* netdev family (Documentation/netlink/specs/netdev.yaml), kernel 6.8+ */
#define NETDEV_CMD_QUEUE_GET 10
#define NETDEV_CMD_NAPI_GET 11
#define NETDEV_A_QUEUE_ID 1
#define NETDEV_A_QUEUE_IFINDEX 2
#define NETDEV_A_QUEUE_TYPE 3
#define NETDEV_A_QUEUE_NAPI_ID 4
#define NETDEV_A_NAPI_IFINDEX 1
#define NETDEV_A_NAPI_ID 2
#define NETDEV_A_NAPI_PID 4

#define NFRAMES 4096
#define FRAME 4096
#define BATCH 64

/* netlink.c's genl_family_cb() and napi_cb() again on purpose: a standalone probe (cc, no libxdplab). */
static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int napi_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;
	uint32_t id = 0, pid = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == NETDEV_A_NAPI_ID)
			id = mnl_attr_get_u32(a);
		if (mnl_attr_get_type(a) == NETDEV_A_NAPI_PID)
			pid = mnl_attr_get_u32(a);
	}
	printf("netlink napi-get: napi id %u, kthread pid %u\n", id, pid);
	(*(int *)data)++;
	return MNL_CB_OK;
}

static int queue_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;
	uint32_t id = UINT32_MAX, type = UINT32_MAX, napi = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case NETDEV_A_QUEUE_ID: id = mnl_attr_get_u32(a); break;
		case NETDEV_A_QUEUE_TYPE: type = mnl_attr_get_u32(a); break;
		case NETDEV_A_QUEUE_NAPI_ID: napi = mnl_attr_get_u32(a); break;
		}
	}
	if (id == 0 && type == 0) /* RX queue 0 */
		*(uint32_t *)data = napi;
	return MNL_CB_OK;
}

/* One generic-netlink request (a dump when @dump) with one u32 attribute. */
static int genl(struct mnl_socket *nl, uint16_t type, uint8_t cmd, int dump, int attr,
		const void *val, size_t len, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = (unsigned int)time(NULL), portid = mnl_socket_get_portid(nl);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	int ret;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
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

/* The NAPI instances of @ifindex and RX queue 0's NAPI id, printed. */
static void netlink_report(int ifindex)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	uint16_t family = 0;
	uint32_t idx = (uint32_t)ifindex, qnapi = 0;
	int n = 0, err;

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		printf("netlink: %s\n", strerror(errno));
		goto out;
	}
	if (genl(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, CTRL_ATTR_FAMILY_NAME, "netdev",
		 sizeof("netdev"), family_cb, &family) || !family) {
		printf("netlink: no netdev family\n");
		goto out;
	}
	err = genl(nl, family, NETDEV_CMD_NAPI_GET, 1, NETDEV_A_NAPI_IFINDEX, &idx, sizeof(idx),
		   napi_cb, &n);
	printf("netlink napi-get: %d instance(s)%s%s\n", n, err ? ", error " : "",
	       err ? strerror(-err) : "");
	err = genl(nl, family, NETDEV_CMD_QUEUE_GET, 1, NETDEV_A_QUEUE_IFINDEX, &idx, sizeof(idx),
		   queue_cb, &qnapi);
	printf("netlink queue-get: rx queue 0 napi id %u%s%s\n", qnapi, err ? ", error " : "",
	       err ? strerror(-err) : "");
out:
	if (nl)
		mnl_socket_close(nl);
}

static unsigned int napi_id_of(int fd)
{
	unsigned int id = 0;
	socklen_t len = sizeof(id);

	if (getsockopt(fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &len))
		return UINT32_MAX;
	return id;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct xsk_ring_prod fq, tx_unused;
	struct xsk_ring_cons cq, rx;
	struct xsk_umem *umem = NULL;
	struct xsk_socket *xsk = NULL;
	struct xsk_socket_config cfg = { 0 };
	uint64_t frames = 0, syscalls = 0;
	double secs, end;
	uint32_t idx, i;
	int ifindex, fd, busy, ret = 1;
	void *area;

	(void)tx_unused;
	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "busy"))) {
		fprintf(stderr, "usage: xsk_napi_probe IFACE SECONDS [busy]\n");
		return 2;
	}
	ifindex = (int)if_nametoindex(argv[1]);
	secs = atof(argv[2]);
	busy = argc == 4;
	if (!ifindex || secs <= 0) {
		fprintf(stderr, "xsk_napi_probe: IFACE '%s' must exist and SECONDS > 0\n", argv[1]);
		return 2;
	}
	area = mmap(NULL, (size_t)NFRAMES * FRAME, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	if (xsk_umem__create(&umem, area, (uint64_t)NFRAMES * FRAME, &fq, &cq, NULL)) {
		fprintf(stderr, "xsk_napi_probe: umem: %s\n", strerror(errno));
		goto out;
	}
	cfg.rx_size = 2048;
	cfg.tx_size = 0;
	cfg.xdp_flags = XDP_FLAGS_DRV_MODE;
	cfg.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP;
	if (xsk_socket__create(&xsk, argv[1], 0, umem, &rx, NULL, &cfg)) {
		fprintf(stderr, "xsk_napi_probe: socket on %s: %s\n", argv[1], strerror(errno));
		goto out;
	}
	fd = xsk_socket__fd(xsk);
	if (busy) {
		int one = 1, us = 20, budget = BATCH;

		if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof(one)) ||
		    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)) ||
		    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget, sizeof(budget))) {
			fprintf(stderr, "xsk_napi_probe: busy-poll options: %s\n", strerror(errno));
			goto out;
		}
	}
	printf("socket napi id after bind: %u\n", napi_id_of(fd));
	netlink_report(ifindex);
	if (xsk_ring_prod__reserve(&fq, 2048, &idx) != 2048)
		goto out;
	for (i = 0; i < 2048; i++)
		*xsk_ring_prod__fill_addr(&fq, idx + i) = (uint64_t)i * FRAME;
	xsk_ring_prod__submit(&fq, 2048);

	end = now_s() + secs;
	while (now_s() < end) {
		uint32_t n, r, f;

		for (int k = 0; k < 256; k++) {
			if (busy) {
				recvfrom(fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
				syscalls++;
			}
			n = xsk_ring_cons__peek(&rx, BATCH, &r);
			if (!n)
				continue;
			while (xsk_ring_prod__reserve(&fq, n, &f) != n)
				;
			for (i = 0; i < n; i++)
				*xsk_ring_prod__fill_addr(&fq, f + i) =
					xsk_umem__extract_addr(xsk_ring_cons__rx_desc(&rx, r + i)->addr);
			xsk_ring_prod__submit(&fq, n);
			xsk_ring_cons__release(&rx, n);
			frames += n;
		}
	}
	printf("socket napi id after %llu frames: %u\n", (unsigned long long)frames, napi_id_of(fd));
	printf("frames %llu in %.1f s (%.3f Mpps), recvfrom calls %llu, busy %s\n",
	       (unsigned long long)frames, secs, frames / secs / 1e6,
	       (unsigned long long)syscalls, busy ? "yes" : "no");
	ret = 0;
out:
	if (xsk)
		xsk_socket__delete(xsk);
	if (umem)
		xsk_umem__delete(umem);
	munmap(area, (size_t)NFRAMES * FRAME);
	return ret;
}
