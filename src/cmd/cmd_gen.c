// SPDX-License-Identifier: BSD-2-Clause
/* xdplab gen: the traffic generator command. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "xdplab/gen.h"
#include "xdplab/abi/gen.h"
#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/stats.h"

enum {
	O_ENGINE, O_SIZE, O_FLOWS, O_RATE, O_COUNT, O_SRC_MAC,
	O_DST_MAC, O_SRC_IP, O_DST_IP, O_SRC_PORT, O_DST_PORT, O_IPV6,
	O_THREADS, O_CPU, O_PCAP, O_NO_CHECK, O_BATCH,
};

static const struct xl_opt gen_opts[] = {
	{ "engine", 'e', "ENGINE", "live (BPF_PROG_RUN live frames, default) or packet (AF_PACKET)", O_ENGINE },
	{ "size", 's', "BYTES", "frame size without FCS, 60..MTU+14 (default 64; IPv6 62..)", O_SIZE },
	{ "flows", 'f', "N", "UDP source ports to rotate through, 1..65536 (default 1)", O_FLOWS },
	{ "rate", 'r', "PPS", "frames per second over all threads, 0 = as fast as possible (default 0)", O_RATE },
	{ "count", 'n', "N", "total frames to send, 0 = no limit (default 0)", O_COUNT },
	XL_OPT_ENTRY_DURATION,
	{ "src-mac", 0, "MAC", "source MAC (default: the interface's)", O_SRC_MAC },
	{ "dst-mac", 0, "MAC", "destination MAC (default: the veth peer's, else broadcast)", O_DST_MAC },
	{ "src-ip", 0, "ADDR", "source IPv4/IPv6 address (default 198.18.0.1 / 2001:2::1)", O_SRC_IP },
	{ "dst-ip", 0, "ADDR", "destination IPv4/IPv6 address (default 198.18.0.2 / 2001:2::2)", O_DST_IP },
	{ "src-port", 0, "PORT", "first UDP source port, 1..65535 (default 1024)", O_SRC_PORT },
	{ "dst-port", 0, "PORT", "UDP destination port, 1..65535 (default 9, discard)", O_DST_PORT },
	{ "ipv6", '6', NULL, "send IPv6/UDP instead of IPv4/UDP", O_IPV6 },
	{ "threads", 't', "N", "sending threads, 1..number of CPUs (default 1)", O_THREADS },
	{ "cpu", 'c', "CPU", "pin thread i to CPU+i (default: not pinned)", O_CPU },
	{ "batch", 0, "FRAMES", "live engine: frames per batch before the redirects are flushed, 1..256 (default 64; 1 = one devmap bulk per frame)", O_BATCH },
	{ "pcap", 'p', "FILE", "replay this Ethernet capture in order (packet engine); once unless --count/--duration", O_PCAP },
	XL_OPT_ENTRY_INTERVAL,
	XL_OPT_ENTRY_NETNS,
	{ "no-check", 0, NULL, "skip the pre-flight check of the veth peer", O_NO_CHECK },
	XL_OPT_ENTRY_QUIET,
};

static const struct xl_cmd_spec gen_spec = {
	"gen", "IFACE", "Send UDP frames (or a capture) out of IFACE as fast as possible or at --rate.",
	gen_opts, sizeof(gen_opts) / sizeof(gen_opts[0]),
};

struct gen_args {
	struct xl_gen_opts o;
	const char *src_mac, *dst_mac, *src_ip, *dst_ip, *netns;
	const char *size_arg; /* checked once the interface's MTU is known */
	int src_family, dst_family; /* AF_INET/AF_INET6 of --src-ip/--dst-ip, 0 unset */
	bool is_veth;
	uint64_t interval_ns;
	bool no_check, quiet;
};

static int parse_ip(const char *opt, const char *arg, struct gen_args *a, bool src)
{
	struct xl_pkt_spec *s = &a->o.spec;

	int *fam = src ? &a->src_family : &a->dst_family, *other = src ? &a->dst_family :
									 &a->src_family;

	if (inet_pton(AF_INET, arg, src ? &s->src_ip4 : &s->dst_ip4) == 1)
		*fam = AF_INET;
	else if (inet_pton(AF_INET6, arg, src ? &s->src_ip6 : &s->dst_ip6) == 1)
		*fam = AF_INET6;
	else
		return xl_usage_error(&gen_spec, "%s: '%s' is not an IPv4 or IPv6 address", opt, arg);
	if (*other && *other != *fam)
		return xl_usage_error(&gen_spec, "--src-ip and --dst-ip: one is IPv4, the other IPv6 (accepted: both of one family)");
	if (*fam == AF_INET6)
		s->ipv6 = true;
	return 0;
}

static int on_opt(int id, const char *arg, void *ctx)
{
	static const char *const engines[] = { "live", "packet", NULL };
	struct gen_args *a = ctx;
	uint64_t v;
	int r;

	r = xl_cmd_run_opt(&gen_spec, id, arg, &(struct xl_run_opts){ .interval_ns = &a->interval_ns,
				  .duration_ns = &a->o.duration_ns, .netns = &a->netns,
				  .quiet = &a->quiet });
	if (r <= 0)
		return r;
	switch (id) {
	case O_ENGINE:
		r = xl_parse_choice(&gen_spec, "--engine", arg, engines);
		if (r < 0)
			return r;
		a->o.engine = r;
		a->o.engine_forced = true;
		return 0;
	case O_SIZE:
		/* The accepted range depends on the MTU: resolve_defaults(). */
		a->size_arg = arg;
		return 0;
	case O_FLOWS:
		r = xl_parse_u64(&gen_spec, "--flows", arg, 1, XL_GEN_MAX_FLOWS, &v);
		a->o.flows = v;
		return r;
	case O_RATE:
		return xl_parse_u64(&gen_spec, "--rate", arg, 0, 1000000000, &a->o.rate_pps);
	case O_COUNT:
		return xl_parse_u64(&gen_spec, "--count", arg, 0, UINT64_MAX / 2, &a->o.count);
	case O_SRC_MAC:
		a->src_mac = arg;
		return 0;
	case O_DST_MAC:
		a->dst_mac = arg;
		return 0;
	case O_SRC_IP:
		return parse_ip("--src-ip", arg, a, true);
	case O_DST_IP:
		return parse_ip("--dst-ip", arg, a, false);
	case O_SRC_PORT:
		r = xl_parse_u64(&gen_spec, "--src-port", arg, 1, 65535, &v);
		a->o.spec.src_port = v;
		return r;
	case O_DST_PORT:
		r = xl_parse_u64(&gen_spec, "--dst-port", arg, 1, 65535, &v);
		a->o.spec.dst_port = v;
		return r;
	case O_IPV6:
		a->o.spec.ipv6 = true;
		return 0;
	case O_THREADS:
		r = xl_parse_u64(&gen_spec, "--threads", arg, 1, sysconf(_SC_NPROCESSORS_ONLN), &v);
		a->o.threads = v;
		return r;
	case O_CPU:
		r = xl_parse_u64(&gen_spec, "--cpu", arg, 0, sysconf(_SC_NPROCESSORS_ONLN) - 1, &v);
		a->o.first_cpu = v;
		return r;
	case O_BATCH:
		r = xl_parse_u64(&gen_spec, "--batch", arg, 1, XL_GEN_MAX_BATCH, &v);
		a->o.batch = v;
		return r;
	case O_PCAP:
		a->o.pcap_path = arg;
		return 0;
	case O_NO_CHECK:
		a->no_check = true;
		return 0;
	}
	return -EINVAL;
}

/* Defaults that depend on the interface: MACs, and the size check. */
static int resolve_defaults(struct gen_args *a, const char *ifname)
{
	struct xl_pkt_spec *s = &a->o.spec;
	struct xl_link_info li, peer;
	int ifindex = if_nametoindex(ifname);
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	if (!ifindex || xl_link_get(ifindex, -1, &li)) {
		xl_usage_error(&gen_spec, "interface '%s': no such interface", ifname);
		return -EINVAL;
	}
	memcpy(s->src_mac, li.mac, 6);
	memcpy(s->dst_mac, bcast, 6);
	a->is_veth = !strcmp(li.kind, "veth");
	if (s->ipv6 && (a->src_family == AF_INET || a->dst_family == AF_INET))
		return xl_usage_error(&gen_spec, "--ipv6 with an IPv4 --src-ip/--dst-ip (accepted: IPv6 addresses, or no --ipv6)");
	if (!strcmp(li.kind, "veth") && li.peer_ifindex &&
	    !xl_link_get(li.peer_ifindex, li.peer_netnsid, &peer))
		memcpy(s->dst_mac, peer.mac, 6);
	if (a->src_mac && xl_mac_parse(a->src_mac, s->src_mac))
		return xl_usage_error(&gen_spec, "--src-mac: '%s' is not a MAC address (accepted: aa:bb:cc:dd:ee:ff)", a->src_mac);
	if (a->dst_mac && xl_mac_parse(a->dst_mac, s->dst_mac))
		return xl_usage_error(&gen_spec, "--dst-mac: '%s' is not a MAC address (accepted: aa:bb:cc:dd:ee:ff)", a->dst_mac);
	if (a->size_arg) {
		/* One message with the range that holds on this interface. */
		uint64_t min = s->ipv6 ? 62 : XL_PKT_MIN_SIZE, v;
		uint64_t max = li.mtu + 14 < XL_PKT_MAX_SIZE ? li.mtu + 14 : XL_PKT_MAX_SIZE;
		char what[64];

		if (a->o.pcap_path)
			max = XL_PKT_MAX_SIZE;
		snprintf(what, sizeof(what), "--size%s", s->ipv6 ? " (IPv6)" : "");
		if (xl_parse_u64(&gen_spec, what, a->size_arg, min, max, &v))
			return -EINVAL;
		s->size = v;
	}
	if (s->ipv6 && s->size < 62)
		return xl_usage_error(&gen_spec, "--size (IPv6): '%u' is out of range (accepted: 62..%u)",
				      s->size, li.mtu + 14);
	{
		char msg[256];

		if (xl_gen_opts_check(&a->o, msg, sizeof(msg)))
			return xl_usage_error(&gen_spec, "%s", msg);
	}
	if (a->o.flows > 1 && (uint32_t)s->src_port + a->o.flows - 1 > 65535)
		return xl_usage_error(&gen_spec, "--flows: %u flows from --src-port %u pass port 65535",
				      a->o.flows, s->src_port);
	return 0;
}

/*
 * Frames @ifname really transmitted: its TX packets counter, read from
 * /proc/thread-self/net/dev (the namespace this thread is in). The sent
 * count cannot tell: a live-frames redirect that the device refuses fails
 * before any driver counter moves (a veth whose peer has no NAPI lacks the
 * NDO_XMIT feature, so bpf_redirect drops in the core and neither
 * tx_queue_0_xdp_xmit_errors nor TX dropped counts it). Used on veth only,
 * whose TX packets include the frames its peer's NAPI took (drivers differ
 * on whether XDP transmits count there).
 * Return: 0 and *@out, or -errno.
 */
static int dev_tx_packets(const char *ifname, uint64_t *out)
{
	char line[512];
	size_t n = strlen(ifname);
	int err = -ENODEV;
	FILE *f;

	f = fopen("/proc/thread-self/net/dev", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[10];
		char *p = line;

		while (*p == ' ')
			p++;
		if (strncmp(p, ifname, n) || p[n] != ':')
			continue;
		/* rx: bytes packets errs drop fifo frame compressed multicast; tx: bytes packets */
		if (sscanf(p + n + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
			   &v[9]) == 10) {
			*out = v[9];
			err = 0;
		} else {
			err = -EPROTO;
		}
		break;
	}
	fclose(f);
	return err;
}

/* @left: frames the device's TX counter saw (veth), or -1 when unknown. */
static void print_summary(struct xl_gen *gen, const char *ifname, int64_t left)
{
	struct xl_gen_stats st;
	char b1[32];
	uint64_t ns;

	xl_gen__read(gen, &st);
	ns = st.elapsed_ns;
	printf("sent %llu frames, %llu bytes in %.3f s (%s pps) on %s, engine %s; xmit errors %llu\n",
	       (unsigned long long)st.sent, (unsigned long long)st.bytes, ns / 1e9,
	       xl_fmt_thousands((uint64_t)xl_rate(st.sent, ns), b1, sizeof(b1)), ifname,
	       xl_gen_engine_name(xl_gen__engine(gen)), (unsigned long long)st.xmit_errors);
	if (left >= 0)
		printf("device: %lld frames left %s (its TX packets counter)\n", (long long)left,
		       ifname);
	if (st.pcap_frames)
		printf("pcap: %llu frames read, %llu skipped larger than MTU+14, %llu skipped shorter than 14 bytes, %llu sent shorter than 60 bytes, %llu cut by the capture's snaplen (sent as captured)\n",
		       (unsigned long long)st.pcap_frames, (unsigned long long)st.pcap_oversize,
		       (unsigned long long)st.pcap_runt, (unsigned long long)st.pcap_short,
		       (unsigned long long)st.pcap_truncated);
}

int cmd_gen(int argc, char **argv)
{
	struct gen_args a = { .o = { .engine = XL_ENGINE_LIVE, .netns_fd = -1, .flows = 1,
				     .threads = 1, .first_cpu = -1,
				     .spec = { .size = 64, .src_port = 1024, .dst_port = 9 } },
			      .interval_ns = 1000000000ull };
	struct xl_gen_stats prev = { 0 }, cur;
	uint64_t start, next, last_print, tx_prev = 0, tx_cur = 0, tx_first = 0;
	bool have_tx;
	const char *ifname;
	struct xl_gen *gen;
	int idx, err, stalled = 0, ret = XL_EXIT_OK;

	inet_pton(AF_INET, "198.18.0.1", &a.o.spec.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &a.o.spec.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &a.o.spec.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &a.o.spec.dst_ip6);
	idx = xl_opts_parse(&gen_spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc - 1) {
		xl_usage_error(&gen_spec, idx >= argc ? "missing IFACE (see --help)" :
					  "one IFACE expected, got '%s' too", argv[argc - 1]);
		return XL_EXIT_USAGE;
	}
	ifname = argv[idx];
	if (a.netns && (ret = xl_cmd_enter_netns(&gen_spec, a.netns)))
		return ret;
	if (resolve_defaults(&a, ifname))
		return XL_EXIT_USAGE;
	a.o.ifname = ifname;
	if (a.o.pcap_path)
		a.o.engine = XL_ENGINE_PACKET;

	gen = xl_gen__create(&a.o);
	if (!gen) {
		err = errno;
		return err == ENODEV || err == EINVAL || err == EMSGSIZE || err == ENOENT ||
			       err == EBADF || err == EPROTO || err == ENOMSG ?
			       XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	}
	if (!a.no_check && xl_gen__preflight(gen))
		xl_warn("continuing: the run stops if nothing leaves %s for 3 intervals", ifname);
	err = xl_gen__start(gen);
	if (err) {
		xl_err("cannot start the generator threads: %s", strerror(-err));
		xl_gen__destroy(gen);
		return XL_EXIT_RUNTIME;
	}
	have_tx = a.is_veth && dev_tx_packets(ifname, &tx_prev) == 0;
	tx_first = tx_prev;
	start = last_print = xl_now_ns();
	next = start + a.interval_ns;
	while (!xl_stop_requested && !xl_gen__done(gen)) {
		uint64_t now;

		xl_cmd_sleep_ns(20000000); /* 20 ms: end promptly after the last frame */
		now = xl_now_ns();
		if (now < next)
			continue;
		xl_gen__read(gen, &cur);
		if (!a.quiet) {
			char b1[32];
			double pps = xl_rate(cur.sent - prev.sent, now - last_print);

			printf("%8.3f s  tx %s pps (%.3f Mpps)  xmit-err/s %llu\n",
			       (now - start) / 1e9, xl_fmt_thousands((uint64_t)pps, b1, sizeof(b1)),
			       pps / 1e6,
			       (unsigned long long)xl_rate(cur.xmit_errors - prev.xmit_errors,
							   now - last_print));
		}
		/*
		 * Nothing left the device: what was sent all failed, or nothing
		 * was sent although the rate asks for frames every interval.
		 */
		if (have_tx && dev_tx_packets(ifname, &tx_cur))
			have_tx = false;
		if (cur.sent == prev.sent) {
			if (!a.o.rate_pps || a.o.rate_pps * (double)a.interval_ns >= 1e9)
				stalled++;
		} else if (have_tx ? tx_cur == tx_prev :
			   cur.sent - prev.sent <= cur.xmit_errors - prev.xmit_errors) {
			stalled++;
		} else {
			stalled = 0;
		}
		tx_prev = tx_cur;
		if (stalled >= 3) {
			xl_err("nothing left %s for 3 intervals (%llu sent, %llu xmit errors): %s",
			       ifname, (unsigned long long)cur.sent,
			       (unsigned long long)cur.xmit_errors,
			       cur.sent ? "the device drops what is redirected to it (veth: its peer needs an XDP program or GRO on)" :
					  "the generator is not sending (see -v)");
			ret = XL_EXIT_RUNTIME;
			break;
		}
		prev = cur;
		last_print = now;
		next += a.interval_ns;
	}
	xl_gen__stop(gen);
	err = xl_gen__join(gen);
	if (err == -ENXIO || err == -ENODEV) {
		xl_err("interface %s vanished during the run", ifname);
		ret = XL_EXIT_RUNTIME;
	} else if (err) {
		xl_err("generator on %s failed: %s", ifname, strerror(-err));
		ret = XL_EXIT_RUNTIME;
	}
	if (have_tx && dev_tx_packets(ifname, &tx_cur))
		have_tx = false;
	print_summary(gen, ifname, have_tx ? (int64_t)(tx_cur - tx_first) : -1);
	xl_gen__destroy(gen);
	return ret;
}
