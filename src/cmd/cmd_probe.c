// SPDX-License-Identifier: BSD-2-Clause
/* xdplab probe: pre-flight facts about an interface and this kernel, each with a verdict. */
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
#include "cmd.h"
#include "run_opts.h"
#include "xdplab/gen.h"
#include "xdplab/attach.h"
#include "xdplab/netlink.h"

enum { O_NETNS };

static const struct xl_opt probe_opts[] = {
	{ "netns", 0, "NAME", "look at IFACE in network namespace /run/netns/NAME", O_NETNS },
};

static const struct xl_cmd_spec probe_spec = {
	"probe", "IFACE",
	"Print the pre-flight facts (native XDP, ndo_xdp_xmit, zero-copy, MTU, queues, memlock, BTF, kernel) with a verdict each.",
	probe_opts, 1,
};

static int fails;

static void row(const char *verdict, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void row(const char *verdict, const char *what, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("%-5s %-18s %s\n", verdict, what, buf);
	if (!strcmp(verdict, "FAIL"))
		fails++;
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
static void vlan_rows(const char *ifname, const struct xl_link_info *li,
		      const struct xl_link_info *peer)
{
	static const char *const tx[] = { "tx-vlan-hw-insert", "tx-vlan-stag-hw-insert" };
	static const char *const stag_rx[] = { "rx-vlan-stag-hw-parse" };
	int rxvlan = xl_link_rxvlan(ifname), on[2], stag;

	if (strcmp(li->kind, "veth")) {
		if (rxvlan < 0)
			row("info", "rx VLAN offload", "unknown (ETHTOOL_GFLAGS failed)");
		else
			row(rxvlan ? "WARN" : "ok", "rx VLAN offload", rxvlan ?
			    "on: the NIC may strip 802.1Q tags before XDP (untagged frames, 4 bytes less per tag): ethtool -K %s rxvlan off" :
			    "off: 802.1Q tags stay in the frames XDP sees%s", rxvlan ? ifname : "");
		if (!xl_link_features(ifname, stag_rx, 1, &stag) && stag >= 0)
			row(stag ? "WARN" : "ok", "rx S-VLAN parse", stag ?
			    "on: the NIC may strip 802.1ad tags before XDP (4 bytes less per tag): ethtool -K %s rx-vlan-stag-hw-parse off" :
			    "off: 802.1ad tags stay in the frames XDP sees%s", stag ? ifname : "");
		return;
	}
	if (rxvlan < 0)
		row("info", "rx VLAN offload", "unknown (ETHTOOL_GFLAGS failed)");
	else
		row("info", "rx VLAN offload", "%s: veth strips no tag, a tag in the frame reaches XDP (gen --vlan-id); one its sender kept as metadata does not",
		    rxvlan ? "on" : "off");
	if (!peer || xl_link_peer_features(peer, li->peer_netnsid, tx, 2, on))
		return;
	if (on[0] == 1 || on[1] == 1)
		row("WARN", "peer VLAN offload", "%s: tx-vlan-offload %s, tx-vlan-stag-hw-insert %s: a tag added there (a VLAN device, tc vlan push) goes as metadata that XDP on %s never sees (4 bytes less per tag; gen --vlan-id's are in the frame): ethtool -K %s txvlan off tx-vlan-stag-hw-insert off",
		    peer->name, onoff(on[0]), onoff(on[1]), ifname, peer->name);
	else
		row("ok", "peer VLAN offload", "%s: tx-vlan-offload %s, tx-vlan-stag-hw-insert %s: a tag added there (a VLAN device, tc vlan push) is in the frames XDP on %s sees",
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

static int on_opt(int id, const char *arg, void *ctx)
{
	*(const char **)ctx = arg;
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	const char *netns = NULL, *ifname;
	struct xl_link_info li, peer;
	struct xl_xdp_holder h;
	struct utsname u;
	struct rlimit rl;
	struct bench *skel;
	uint32_t rxq, txq;
	uint64_t features = 0;
	bool have_features, have_peer = false;
	int idx, ifindex, err, xsk;

	idx = xl_opts_parse(&probe_spec, argc, argv, on_opt, &netns);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc - 1) {
		xl_usage_error(&probe_spec, "one IFACE expected (see --help)");
		return XL_EXIT_USAGE;
	}
	ifname = argv[idx];
	if (netns && (err = xl_cmd_enter_netns(&probe_spec, netns)))
		return err;
	ifindex = if_nametoindex(ifname);
	if (!ifindex || xl_link_get(ifindex, -1, &li)) {
		xl_usage_error(&probe_spec, "interface '%s': no such interface", ifname);
		return XL_EXIT_USAGE;
	}
	have_features = !xl_link_xdp_features(ifindex, &features);
	uname(&u);
	row("info", "kernel", "%s %s", u.release, u.machine);
	row(access("/sys/kernel/btf/vmlinux", R_OK) ? "WARN" : "ok", "BTF",
	    access("/sys/kernel/btf/vmlinux", R_OK) ? "no /sys/kernel/btf/vmlinux: CO-RE tracepoint programs cannot load" :
						      "/sys/kernel/btf/vmlinux present");
	row("info", "interface", "%s ifindex %d kind %s, %s", ifname, ifindex,
	    li.kind[0] ? li.kind : "physical", li.up ? "up" : "DOWN");
	row(li.mtu <= 3498 ? "ok" : "WARN", "MTU", "%u bytes (frames up to %u bytes)%s", li.mtu,
	    li.mtu + 14, li.mtu <= 3498 ? "" : ": above one 4 KiB page, XDP needs multi-buffer");
	if (!xl_link_real_queues(ifname, &rxq, &txq))
		row("info", "queues", "%u rx, %u tx in use (device maximum %u rx, %u tx)", rxq, txq,
		    li.rx_queues, li.tx_queues);
	else
		row("info", "queues", "device maximum %u rx, %u tx (queues in use unknown)",
		    li.rx_queues, li.tx_queues);
	err = xl_xdp_holder(ifindex, &h);
	if (!err && h.prog_id) {
		char desc[256];

		xl_xdp_holder_describe(&h, desc, sizeof(desc));
		row("WARN", "XDP attached", "%s", desc);
	} else {
		row("ok", "XDP attached", "nothing attached");
	}
	skel = bench__open_and_load();
	if (!skel) {
		row("FAIL", "BPF", "cannot load an XDP program: %s (needs root, or CAP_BPF + CAP_NET_ADMIN)",
		    strerror(errno));
	} else {
		row("ok", "BPF", "XDP programs load; JIT %s",
		    access("/proc/sys/net/core/bpf_jit_enable", R_OK) ? "unknown" : "available");
		if (have_features) {
			/* The kernel said: nothing is attached to learn it. */
			row(features & XL_XDP_ACT_BASIC ? "ok" : "WARN", "native XDP",
			    features & XL_XDP_ACT_BASIC ? "yes (xdp-features: basic%s%s%s)" :
							  "no: the driver reports no native XDP (use --mode skb)%s%s%s",
			    features & XL_XDP_ACT_REDIRECT ? ", redirect" : "",
			    features & XL_XDP_ACT_RX_SG ? ", rx-sg" : "",
			    features & XL_XDP_ACT_NDO_XMIT ? ", ndo-xmit" : "");
			row("ok", "generic XDP", "yes (XDP_SKB works on every device)");
			row(features & XL_XDP_ACT_RX_SG ? "ok" : "info", "multi-buffer",
			    features & XL_XDP_ACT_RX_SG ? "yes: --frags programs for an MTU above one buffer" :
							  "no rx-sg: frames must fit one buffer in native mode");
		} else if (!h.prog_id) {
			/* Before 6.3 (no netdev netlink family): attach to find out. */
			err = try_attach(bpf_program__fd(skel->progs.xdp_bench_action), ifindex,
					 XL_MODE_NATIVE, &h);
			row(err ? "WARN" : "ok", "native XDP", err ? "no: %s (use --mode skb)" : "yes (XDP_DRV attach works)%s",
			    err ? strerror(-err) : "");
			err = try_attach(bpf_program__fd(skel->progs.xdp_bench_action), ifindex,
					 XL_MODE_SKB, &h);
			row(err ? "WARN" : "ok", "generic XDP", err ? "no: %s" : "yes (XDP_SKB attach works)%s",
			    err ? strerror(-err) : "");
		} else {
			row("info", "native XDP", "not tried: a program is attached");
		}
		bench__destroy(skel);
	}
	{
		int plain, lerr = xl_gen_live_check(&plain);
		char why[160];

		if (!lerr)
			row("ok", "live frames", "yes: BPF_PROG_RUN live frames work (gen's engine live)");
		else
			row("WARN", "live frames", "%s: gen uses engine packet (AF_PACKET)%s",
			    xl_gen_live_refusal(lerr, why, sizeof(why)),
			    plain ? "; BPF_PROG_RUN without live frames fails too" : "");
	}
	if (have_features)
		row(features & XL_XDP_ACT_NDO_XMIT ? "ok" : "WARN", "ndo_xdp_xmit",
		    features & XL_XDP_ACT_NDO_XMIT ? "yes (xdp-features): frames can be redirected into %s" :
		    !strcmp(li.kind, "veth") ? "no (xdp-features): %s's peer has no NAPI (XDP program or GRO on) now" :
					       "no (xdp-features): frames redirected into %s are dropped",
		    ifname);
	if (have_features && strcmp(li.kind, "veth"))
		row("info", "zero-copy", "%s (xdp-features)",
		    features & XL_XDP_ACT_XSK_ZEROCOPY ? "yes: AF_XDP zero-copy" : "no: AF_XDP copy mode only");
	if (!strcmp(li.kind, "veth")) {
		if (!have_features)
			row("info", "ndo_xdp_xmit", "veth: yes, when the peer has a NAPI (XDP program or GRO on)");
		have_peer = li.peer_ifindex && !xl_link_get(li.peer_ifindex, li.peer_netnsid, &peer);
		if (have_peer) {
			int gro = peer.xdp_attached ? 1 : xl_link_peer_gro(&peer, li.peer_netnsid);

			row(gro == 1 ? "ok" : "WARN", "veth peer", "%s %s%s", peer.name,
			    peer.xdp_attached ? "has an XDP program: redirected frames are received" :
			    gro == 1 ? "has GRO on (a NAPI): redirected frames are received" :
			    gro == 0 ? "has no XDP program and GRO off: redirected frames are dropped" :
				       "has no XDP program: redirected frames are dropped unless GRO is on",
			    li.peer_netnsid >= 0 ? " (other namespace)" : "");
		}
		row("info", "zero-copy", "no: veth has no AF_XDP zero-copy (copy mode only)");
	} else if (!have_features) {
		row("info", "ndo_xdp_xmit", "depends on the driver (see 'ethtool -i %s')", ifname);
	}
	vlan_rows(ifname, &li, have_peer ? &peer : NULL);
	xsk = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	row(xsk >= 0 ? "ok" : "WARN", "AF_XDP", xsk >= 0 ? "sockets available" : "no AF_XDP sockets: %s",
	    strerror(errno));
	if (xsk >= 0)
		close(xsk);
	getrlimit(RLIMIT_MEMLOCK, &rl);
	{
		struct rlimit want = { RLIM_INFINITY, RLIM_INFINITY };
		int raise_ok = !setrlimit(RLIMIT_MEMLOCK, &want);

		setrlimit(RLIMIT_MEMLOCK, &rl);
		if (rl.rlim_cur == RLIM_INFINITY)
			row("ok", "memlock", "unlimited");
		else
			row(raise_ok || cap_has(CAP_IPC_LOCK) ? "ok" : "WARN", "memlock",
			    "%llu KiB%s%s", (unsigned long long)rl.rlim_cur / 1024,
			    raise_ok ? ", can be raised" : ", cannot be raised (no CAP_SYS_RESOURCE)",
			    cap_has(CAP_IPC_LOCK) ? "; CAP_IPC_LOCK held: UMEM size not limited by it" : "");
	}
	row(cap_has(CAP_SYS_ADMIN) || cap_has(39 /* CAP_BPF */) ? "ok" : "FAIL", "capabilities",
	    "CAP_BPF/CAP_SYS_ADMIN %s, CAP_NET_ADMIN %s", cap_has(CAP_SYS_ADMIN) || cap_has(39) ? "yes" : "no",
	    cap_has(CAP_NET_ADMIN) ? "yes" : "no");
	printf("%s\n", fails ? "verdict: FAIL" : "verdict: ok");
	return fails ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}
