// SPDX-License-Identifier: BSD-2-Clause
/* XDP attach through bpf_link, and finding/removing what holds an interface. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "xdplab/attach.h"
#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "procfd.h"

const char *xl_xdp_mode_name(enum xl_xdp_mode mode)
{
	return mode == XL_MODE_SKB ? "skb" : "native";
}

/* Does descriptor @fd of @pid say "link_id:\t<id>" in its fdinfo (@ctx: the line)? */
static int fd_is_link(int pid, const char *fd, void *ctx)
{
	char path[64], line[128];
	int found = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp))
		found = !strcmp(line, ctx);
	fclose(fp);
	return found;
}

/* The process holding link @link_id open, and its name: its pid, or 0. */
static int find_link_holder(unsigned int link_id, char *comm, size_t len)
{
	char want[32];

	snprintf(want, sizeof(want), "link_id:\t%u\n", link_id);
	return xl_proc_fd_owner(fd_is_link, want, comm, len);
}

/* The XDP link whose program is @prog_id, or 0 (legacy attach). */
static unsigned int find_xdp_link(unsigned int prog_id)
{
	__u32 id = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_LINK_TYPE_XDP && info.prog_id == prog_id) {
			close(fd);
			return id;
		}
		close(fd);
	}
	return 0;
}

int xl_xdp_holder(int ifindex, struct xl_xdp_holder *h)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd, err;

	memset(h, 0, sizeof(*h));
	h->mode = "";
	err = bpf_xdp_query(ifindex, 0, &q);
	if (err)
		return err;
	if (q.attach_mode == XDP_ATTACHED_NONE)
		return 0;
	h->prog_id = q.drv_prog_id ? q.drv_prog_id :
		     q.skb_prog_id ? q.skb_prog_id : q.hw_prog_id ? q.hw_prog_id : q.prog_id;
	h->mode = q.drv_prog_id ? "native" : q.skb_prog_id ? "skb" : "offload";
	fd = bpf_prog_get_fd_by_id(h->prog_id);
	if (fd >= 0) {
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			snprintf(h->prog_name, sizeof(h->prog_name), "%s",
				 info.name);
		close(fd);
	}
	h->link_id = find_xdp_link(h->prog_id);
	if (h->link_id)
		h->pid = find_link_holder(h->link_id, h->comm, sizeof(h->comm));
	return 0;
}

void xl_xdp_holder_describe(const struct xl_xdp_holder *h, char *buf,
			    size_t len)
{
	int n;

	n = snprintf(buf, len, "program %s (id %u, %s", h->prog_name[0] ? h->prog_name : "?",
		     h->prog_id, h->mode);
	if (n < 0 || (size_t)n >= len)
		return;
	if (h->link_id && h->pid)
		snprintf(buf + n, len - n, ", link %u held by pid %d %s)",
			 h->link_id, h->pid, h->comm);
	else if (h->link_id)
		snprintf(buf + n, len - n, ", link %u held by no process: pinned?)",
			 h->link_id);
	else
		snprintf(buf + n, len - n, ", attached without a link)");
}

void xl_xdp_prog_set_frags(struct bpf_program *prog)
{
	bpf_program__set_flags(prog, bpf_program__flags(prog) | BPF_F_XDP_HAS_FRAGS);
}

/* @ifindex's MTU, 0 if unknown (for messages). */
static unsigned int link_mtu(int ifindex)
{
	struct xl_link_info li;

	return xl_link_get(ifindex, -1, &li) ? 0 : li.mtu;
}

int xl_xdp_attach(int prog_fd, int ifindex, const char *ifname,
		  enum xl_xdp_mode mode)
{
	return xl_xdp_attach_frags(prog_fd, ifindex, ifname, mode, false);
}

int xl_xdp_attach_frags(int prog_fd, int ifindex, const char *ifname,
			enum xl_xdp_mode mode, bool frags)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	struct xl_xdp_holder h;
	char desc[256];
	int fd, err;

	opts.flags = mode == XL_MODE_SKB ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	fd = bpf_link_create(prog_fd, ifindex, BPF_XDP, &opts);
	if (fd >= 0)
		return fd;
	err = -errno;
	if ((err == -EBUSY || err == -EEXIST) && !xl_xdp_holder(ifindex, &h) &&
	    h.prog_id) {
		xl_xdp_holder_describe(&h, desc, sizeof(desc));
		xl_err("cannot attach XDP (%s mode) on %s: %s (%s is attached; "
		       "stop its owner or run 'xdplab cleanup %s')",
		       xl_xdp_mode_name(mode), ifname, strerror(-err), desc, ifname);
	} else if (err == -ERANGE && mode == XL_MODE_NATIVE && !frags) {
		/* veth_xdp_set() and most drivers: MTU above one buffer. */
		xl_err("cannot attach XDP on %s: its MTU (%u) needs a multi-buffer (xdp.frags) program on this driver: use --frags or lower the MTU",
		       ifname, link_mtu(ifindex));
	} else if (err == -EOPNOTSUPP && mode == XL_MODE_NATIVE) {
		xl_err("cannot attach XDP on %s: native mode not supported by its driver (try --mode skb)",
		       ifname);
	} else {
		xl_err("cannot attach XDP (%s mode) on %s: %s", xl_xdp_mode_name(mode),
		       ifname, strerror(-err));
	}
	return err;
}

void xl_xdp_link_close(int link_fd)
{
	if (link_fd < 0)
		return;
	(void)bpf_link_detach(link_fd);
	close(link_fd);
}

int xl_xdp_link_alive(int link_fd)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	if (link_fd < 0)
		return -EBADF;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(link_fd, &info, &len))
		return -errno;
	/* A detached link, or its device unregistered: ifindex 0. */
	return info.type == BPF_LINK_TYPE_XDP && info.xdp.ifindex ? 0 : -ENOLINK;
}

/*
 * Our XDP programs, by name as the kernel keeps it (BPF_OBJ_NAME_LEN: 15
 * characters). An exact list, not prefixes: "xdp_redir" would also match
 * xdp-tools' xdp_redirect_* programs.
 */
static bool is_ours(const char *name)
{
	static const char *const ours[] = { "xdp_bench_action", "xdp_gen_redirect",
					    "xdp_redir_devmap", "xdp_redir_cpumap",
					    "xdp_redir_multi", "xdp_xsk_redirect",
					    "xdp_xsk_redirect_mb", "xdp_dump", "xdp_latency" };
	size_t i;

	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (!strncmp(name, ours[i], 15))
			return true;
	return false;
}

int xl_xdp_cleanup(int ifindex, bool all)
{
	struct xl_xdp_holder h;
	int err, fd;

	err = xl_xdp_holder(ifindex, &h);
	if (err)
		return err;
	if (!h.prog_id)
		return 0;
	if (!all && !is_ours(h.prog_name))
		return -EPERM;
	if (h.link_id) {
		fd = bpf_link_get_fd_by_id(h.link_id);
		if (fd < 0)
			return -errno;
		err = bpf_link_detach(fd) ? -errno : 0;
		close(fd);
		return err ? err : 1;
	}
	err = bpf_xdp_detach(ifindex, !strcmp(h.mode, "skb") ? XDP_FLAGS_SKB_MODE :
				      XDP_FLAGS_DRV_MODE, NULL);
	return err ? err : 1;
}

unsigned int xl_xdp_attached_id(int ifindex, enum xl_xdp_mode mode)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);

	if (bpf_xdp_query(ifindex, 0, &q))
		return 0;
	return mode == XL_MODE_SKB ? q.skb_prog_id : q.drv_prog_id;
}
