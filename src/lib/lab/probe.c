// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pre-flight facts about an interface and this kernel, each with a
 * verdict (xdplab/probe.h; `xdplab probe`).
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/if_xdp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "xdplab/attach.h"
#include "xdplab/gen.h"
#include "xdplab/netlink.h"
#include "xdplab/probe.h"

/* Where the rows go and how many failed. */
struct probe {
	FILE *out;
	int fails;
};

/* One fact: its verdict (ok, info, WARN, FAIL), what it is, what was found. */
static void row(struct probe *p, const char *verdict, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void row(struct probe *p, const char *verdict, const char *what, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(p->out, "%-5s %-18s %s\n", verdict, what, buf);
	if (!strcmp(verdict, "FAIL"))
		p->fails++;
}

static const char *onoff(int v)
{
	return v == 1 ? "on" : v == 0 ? "off" : "unknown";
}

/*
 * What VLAN offloads do to the tags XDP on @ifname sees (issue 21 item
 * 10). A NIC may strip tags on receive (rx-vlan-offload for 802.1Q,
 * rx-vlan-stag-hw-parse for 802.1ad). veth strips none (measured: gen
 * --vlan-id's tagged frames reach XDP whole with rxvlan on or off); there
 * it is the sender, the veth @peer: with tx-vlan-offload (802.1Q) or
 * tx-vlan-stag-hw-insert (802.1ad) on, a tag added on its side (a VLAN
 * device, tc vlan push) travels beside the frame as metadata, and XDP on
 * @ifname gets the frame without it (e2e probe-peer-vlan: 4 bytes less per
 * tag). gen's own tags are written into the frame either way.
 */
static void vlan_rows(struct probe *p, const char *ifname, const struct xl_link_info *li,
		      const struct xl_link_info *peer)
{
	static const char *const tx[] = { "tx-vlan-hw-insert", "tx-vlan-stag-hw-insert" };
	static const char *const stag_rx[] = { "rx-vlan-stag-hw-parse" };
	int rxvlan = xl_link_rxvlan(ifname), on[2], stag;

	if (strcmp(li->kind, "veth")) {
		if (rxvlan < 0)
			row(p, "info", "rx VLAN offload", "unknown (ETHTOOL_GFLAGS failed)");
		else
			row(p, rxvlan ? "WARN" : "ok", "rx VLAN offload", rxvlan ?
			    "on: the NIC may strip 802.1Q tags before XDP (untagged frames, 4 bytes less per tag): ethtool -K %s rxvlan off" :
			    "off: 802.1Q tags stay in the frames XDP sees%s", rxvlan ? ifname : "");
		if (!xl_link_features(ifname, stag_rx, 1, &stag) && stag >= 0)
			row(p, stag ? "WARN" : "ok", "rx S-VLAN parse", stag ?
			    "on: the NIC may strip 802.1ad tags before XDP (4 bytes less per tag): ethtool -K %s rx-vlan-stag-hw-parse off" :
			    "off: 802.1ad tags stay in the frames XDP sees%s", stag ? ifname : "");
		return;
	}
	if (rxvlan < 0)
		row(p, "info", "rx VLAN offload", "unknown (ETHTOOL_GFLAGS failed)");
	else
		row(p, "info", "rx VLAN offload", "%s: veth strips no tag, a tag in the frame reaches XDP (gen --vlan-id); one its sender kept as metadata does not",
		    rxvlan ? "on" : "off");
	if (!peer || xl_link_peer_features(peer, li->peer_netnsid, tx, 2, on))
		return;
	if (on[0] == 1 || on[1] == 1)
		row(p, "WARN", "peer VLAN offload", "%s: tx-vlan-offload %s, tx-vlan-stag-hw-insert %s: a tag added there (a VLAN device, tc vlan push) goes as metadata that XDP on %s never sees (4 bytes less per tag; gen --vlan-id's are in the frame): ethtool -K %s txvlan off tx-vlan-stag-hw-insert off",
		    peer->name, onoff(on[0]), onoff(on[1]), ifname, peer->name);
	else
		row(p, "ok", "peer VLAN offload", "%s: tx-vlan-offload %s, tx-vlan-stag-hw-insert %s: a tag added there (a VLAN device, tc vlan push) is in the frames XDP on %s sees",
		    peer->name, onoff(on[0]), onoff(on[1]), ifname);
}

/* Try to attach a trivial program in @mode through a link, then detach. */
static int try_attach(int prog_fd, int ifindex, enum xl_xdp_mode mode, struct xl_xdp_holder *h)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	int fd;

	opts.flags = mode == XL_MODE_SKB ? 2 /* XDP_FLAGS_SKB_MODE */ : 4 /* XDP_FLAGS_DRV_MODE */;
	fd = bpf_link_create(prog_fd, ifindex, BPF_XDP, &opts);
	if (fd < 0)
		return -errno;
	xl_xdp_link_close(fd);
	return 0;
}

static int cap_has(int cap)
{
	char line[256];
	unsigned long long eff = 0;
	FILE *fp = fopen("/proc/self/status", "r");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(fp);
	return !!(eff & (1ULL << cap));
}

int xl_probe_print(FILE *out, const char *ifname, int ifindex, const struct xl_link_info *link)
{
	struct probe pr = { .out = out }, *p = &pr;
	struct xl_link_info li = *link, peer;
	struct xl_xdp_holder h;
	struct utsname u;
	struct rlimit rl;
	struct bench *skel;
	uint32_t rxq, txq;
	uint64_t features = 0;
	bool have_features, have_peer = false;
	int err, xsk;

	have_features = !xl_link_xdp_features(ifindex, &features);
	uname(&u);
	row(p, "info", "kernel", "%s %s", u.release, u.machine);
	row(p, access("/sys/kernel/btf/vmlinux", R_OK) ? "WARN" : "ok", "BTF",
	    access("/sys/kernel/btf/vmlinux", R_OK) ? "no /sys/kernel/btf/vmlinux: CO-RE tracepoint programs cannot load" :
						      "/sys/kernel/btf/vmlinux present");
	row(p, "info", "interface", "%s ifindex %d kind %s, %s", ifname, ifindex,
	    li.kind[0] ? li.kind : "physical", li.up ? "up" : "DOWN");
	row(p, li.mtu <= 3498 ? "ok" : "WARN", "MTU", "%u bytes (frames up to %u bytes)%s", li.mtu,
	    li.mtu + 14, li.mtu <= 3498 ? "" : ": above one 4 KiB page, XDP needs multi-buffer");
	if (!xl_link_real_queues(ifname, &rxq, &txq))
		row(p, "info", "queues", "%u rx, %u tx in use (device maximum %u rx, %u tx)", rxq, txq,
		    li.rx_queues, li.tx_queues);
	else
		row(p, "info", "queues", "device maximum %u rx, %u tx (queues in use unknown)",
		    li.rx_queues, li.tx_queues);
	err = xl_xdp_holder(ifindex, &h);
	if (!err && h.prog_id) {
		char desc[256];

		xl_xdp_holder_describe(&h, desc, sizeof(desc));
		row(p, "WARN", "XDP attached", "%s", desc);
	} else {
		row(p, "ok", "XDP attached", "nothing attached");
	}
	skel = bench__open_and_load();
	if (!skel) {
		row(p, "FAIL", "BPF", "cannot load an XDP program: %s (needs root, or CAP_BPF + CAP_NET_ADMIN)",
		    strerror(errno));
	} else {
		row(p, "ok", "BPF", "XDP programs load; JIT %s",
		    access("/proc/sys/net/core/bpf_jit_enable", R_OK) ? "unknown" : "available");
		if (have_features) {
			/* The kernel said: nothing is attached to learn it. */
			row(p, features & XL_XDP_ACT_BASIC ? "ok" : "WARN", "native XDP",
			    features & XL_XDP_ACT_BASIC ? "yes (xdp-features: basic%s%s%s)" :
							  "no: the driver reports no native XDP (use --mode skb)%s%s%s",
			    features & XL_XDP_ACT_REDIRECT ? ", redirect" : "",
			    features & XL_XDP_ACT_RX_SG ? ", rx-sg" : "",
			    features & XL_XDP_ACT_NDO_XMIT ? ", ndo-xmit" : "");
			row(p, "ok", "generic XDP", "yes (XDP_SKB works on every device)");
			row(p, features & XL_XDP_ACT_RX_SG ? "ok" : "info", "multi-buffer",
			    features & XL_XDP_ACT_RX_SG ? "yes: --frags programs for an MTU above one buffer" :
							  "no rx-sg: frames must fit one buffer in native mode");
		} else if (!h.prog_id) {
			/* Before 6.3 (no netdev netlink family): attach to find out. */
			err = try_attach(bpf_program__fd(skel->progs.xdp_bench_action), ifindex,
					 XL_MODE_NATIVE, &h);
			row(p, err ? "WARN" : "ok", "native XDP", err ? "no: %s (use --mode skb)" : "yes (XDP_DRV attach works)%s",
			    err ? strerror(-err) : "");
			err = try_attach(bpf_program__fd(skel->progs.xdp_bench_action), ifindex,
					 XL_MODE_SKB, &h);
			row(p, err ? "WARN" : "ok", "generic XDP", err ? "no: %s" : "yes (XDP_SKB attach works)%s",
			    err ? strerror(-err) : "");
		} else {
			row(p, "info", "native XDP", "not tried: a program is attached");
		}
		bench__destroy(skel);
	}
	{
		int plain, lerr = xl_gen_live_check(&plain);
		char why[160];

		if (!lerr)
			row(p, "ok", "live frames", "yes: BPF_PROG_RUN live frames work (gen's engine live)");
		else
			row(p, "WARN", "live frames", "%s: gen uses engine packet (AF_PACKET)%s",
			    xl_gen_live_refusal(lerr, why, sizeof(why)),
			    plain ? "; BPF_PROG_RUN without live frames fails too" : "");
	}
	if (have_features)
		row(p, features & XL_XDP_ACT_NDO_XMIT ? "ok" : "WARN", "ndo_xdp_xmit",
		    features & XL_XDP_ACT_NDO_XMIT ? "yes (xdp-features): frames can be redirected into %s" :
		    !strcmp(li.kind, "veth") ? "no (xdp-features): %s's peer has no NAPI (XDP program or GRO on) now" :
					       "no (xdp-features): frames redirected into %s are dropped",
		    ifname);
	if (have_features && strcmp(li.kind, "veth"))
		row(p, "info", "zero-copy", "%s (xdp-features)",
		    features & XL_XDP_ACT_XSK_ZEROCOPY ? "yes: AF_XDP zero-copy" : "no: AF_XDP copy mode only");
	if (!strcmp(li.kind, "veth")) {
		if (!have_features)
			row(p, "info", "ndo_xdp_xmit", "veth: yes, when the peer has a NAPI (XDP program or GRO on)");
		have_peer = li.peer_ifindex && !xl_link_get(li.peer_ifindex, li.peer_netnsid, &peer);
		if (have_peer) {
			int gro = peer.xdp_attached ? 1 : xl_link_peer_gro(&peer, li.peer_netnsid);

			row(p, gro == 1 ? "ok" : "WARN", "veth peer", "%s %s%s", peer.name,
			    peer.xdp_attached ? "has an XDP program: redirected frames are received" :
			    gro == 1 ? "has GRO on (a NAPI): redirected frames are received" :
			    gro == 0 ? "has no XDP program and GRO off: redirected frames are dropped" :
				       "has no XDP program: redirected frames are dropped unless GRO is on",
			    li.peer_netnsid >= 0 ? " (other namespace)" : "");
		}
		row(p, "info", "zero-copy", "no: veth has no AF_XDP zero-copy (copy mode only)");
	} else if (!have_features) {
		row(p, "info", "ndo_xdp_xmit", "depends on the driver (see 'ethtool -i %s')", ifname);
	}
	vlan_rows(p, ifname, &li, have_peer ? &peer : NULL);
	xsk = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	row(p, xsk >= 0 ? "ok" : "WARN", "AF_XDP", xsk >= 0 ? "sockets available" : "no AF_XDP sockets: %s",
	    strerror(errno));
	if (xsk >= 0)
		close(xsk);
	getrlimit(RLIMIT_MEMLOCK, &rl);
	{
		struct rlimit want = { RLIM_INFINITY, RLIM_INFINITY };
		int raise_ok = !setrlimit(RLIMIT_MEMLOCK, &want);

		setrlimit(RLIMIT_MEMLOCK, &rl);
		if (rl.rlim_cur == RLIM_INFINITY)
			row(p, "ok", "memlock", "unlimited");
		else
			row(p, raise_ok || cap_has(CAP_IPC_LOCK) ? "ok" : "WARN", "memlock",
			    "%llu KiB%s%s", (unsigned long long)rl.rlim_cur / 1024,
			    raise_ok ? ", can be raised" : ", cannot be raised (no CAP_SYS_RESOURCE)",
			    cap_has(CAP_IPC_LOCK) ? "; CAP_IPC_LOCK held: UMEM size not limited by it" : "");
	}
	row(p, cap_has(CAP_SYS_ADMIN) || cap_has(39 /* CAP_BPF */) ? "ok" : "FAIL", "capabilities",
	    "CAP_BPF/CAP_SYS_ADMIN %s, CAP_NET_ADMIN %s", cap_has(CAP_SYS_ADMIN) || cap_has(39) ? "yes" : "no",
	    cap_has(CAP_NET_ADMIN) ? "yes" : "no");
	fprintf(out, "%s\n", p->fails ? "verdict: FAIL" : "verdict: ok");
	return p->fails;
}
