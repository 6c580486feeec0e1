/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file attach.h
 * Attaching XDP programs through bpf_link (so even a SIGKILLed xdplab leaves
 * nothing attached: the kernel detaches when the last link fd closes), and
 * finding or removing what holds an interface.
 */
#ifndef XDPLAB_ATTACH_H
#define XDPLAB_ATTACH_H

#include <stdbool.h>
#include <stddef.h>

/** Attach modes: native (driver, XDP_DRV) or generic (skb, XDP_SKB). */
enum xl_xdp_mode {
	XL_MODE_NATIVE = 0,
	XL_MODE_SKB = 1,
};

/** xl_xdp_mode_name() - "native" or "skb". */
const char *xl_xdp_mode_name(enum xl_xdp_mode mode);

/**
 * xl_xdp_attach() - attach @prog_fd to @ifindex (current netns) in @mode
 * through BPF_LINK_CREATE; never replaces an attached program.
 * @ifname: for messages only.
 * Return: the link fd (owned by the caller; xl_xdp_link_close() detaches),
 * or -errno.
 * On -EBUSY/-EEXIST an error naming the holder (program name and id, and
 * the pid of the process holding its link if one is found) is logged.
 */
int xl_xdp_attach(int prog_fd, int ifindex, const char *ifname,
		  enum xl_xdp_mode mode);

/**
 * xl_xdp_link_alive() - whether the XDP bpf_link @link_fd (from
 * xl_xdp_attach()) still holds its program on its device: one
 * bpf(BPF_OBJ_GET_INFO_BY_FD) on the link, no socket, so a report loop may
 * ask every second for almost nothing (issue 12; a netlink query per check
 * opened a socket each time). Return: 0 (attached), -ENOLINK (detached,
 * e.g. by xdplab cleanup, or the device went away: the link's ifindex reads
 * 0), -EBADF for @link_fd < 0, or -errno.
 */
int xl_xdp_link_alive(int link_fd);

/**
 * xl_xdp_link_close() - detach the XDP bpf_link @link_fd at once
 * (BPF_LINK_DETACH), then close it. A bare close() detaches only when it
 * drops the last reference: a process that holds the link for a moment
 * (bpftool link list opens every link, a pin, another census) kept our
 * program attached after we left, and the next attach on that device failed
 * with EBUSY ("attached without a link" once the holder let go). Detach
 * errors are ignored (a link already detached or whose device went away is
 * what we want); @link_fd < 0 is a no-op. Sets nothing; the caller forgets
 * the fd.
 */
void xl_xdp_link_close(int link_fd);

/**
 * xl_xdp_attach_frags() - xl_xdp_attach() for a program loaded with or
 * without BPF_F_XDP_HAS_FRAGS (@frags), so that the driver's -ERANGE for
 * an MTU above one buffer (veth: above about 3.5 KB) is logged as "its MTU
 * (9000) needs a multi-buffer (xdp.frags) program on this driver: use
 * --frags or lower the MTU" rather than a bare "Numerical result out of
 * range". Never falls back to another mode. Return: as xl_xdp_attach().
 */
int xl_xdp_attach_frags(int prog_fd, int ifindex, const char *ifname,
			enum xl_xdp_mode mode, bool frags);

struct bpf_program;
/**
 * xl_xdp_prog_set_frags() - mark @prog (before load) multi-buffer:
 * BPF_F_XDP_HAS_FRAGS, what libbpf's SEC("xdp.frags") sets.
 */
void xl_xdp_prog_set_frags(struct bpf_program *prog);

/**
 * struct xl_xdp_holder - what holds XDP on an interface.
 * @prog_id: attached program id (0: nothing attached).
 * @prog_name: its name ("" if unknown).
 * @mode: "native", "skb" or "offload".
 * @link_id: the bpf_link's id, 0 for a legacy (netlink) attach.
 * @pid: a process holding the link fd (0 if none found, e.g. pinned).
 * @comm: that process's name.
 */
struct xl_xdp_holder {
	unsigned int prog_id;
	char prog_name[64];
	const char *mode;
	unsigned int link_id;
	int pid;
	char comm[32];
};

/**
 * xl_xdp_holder() - find what is attached to @ifindex (current netns).
 * Scans /proc/PID/fdinfo for the link. Return: 0 (holder->prog_id 0 when
 * nothing is attached) or -errno from netlink.
 */
int xl_xdp_holder(int ifindex, struct xl_xdp_holder *holder);

/**
 * xl_xdp_holder_describe() - one phrase for messages, e.g.
 * "program xdp_bench_action (id 42, native, link 7 held by pid 1234 xdplab)".
 */
void xl_xdp_holder_describe(const struct xl_xdp_holder *h, char *buf,
			    size_t len);

/**
 * xl_xdp_cleanup() - remove xdplab's programs from @ifindex: force-detach a
 * link (BPF_LINK_DETACH, even if another process holds it or it is pinned)
 * or a legacy attach, when the program is one of ours (its name is one of
 * the XDP programs in bpf/: xdp_bench_action, xdp_gen_redirect,
 * xdp_redir_devmap/cpumap/multi, xdp_xsk_redirect[_mb], xdp_dump, xdp_latency).
 * @all: also remove programs that are not ours.
 * Return: number of programs removed (0 or 1), -EPERM when the attached
 * program is not ours and !@all, or -errno.
 */
int xl_xdp_cleanup(int ifindex, bool all);

/**
 * xl_xdp_attached_id() - the id of the XDP program attached to @ifindex
 * (calling thread's namespace) in @mode, 0 for none or when the query
 * fails; a run compares it with its own to notice a detach ('xdplab cleanup
 * IFACE' cuts the link of a live holder), as its counters would read 0 pps.
 */
unsigned int xl_xdp_attached_id(int ifindex, enum xl_xdp_mode mode);

#endif /* XDPLAB_ATTACH_H */
