// SPDX-License-Identifier: BSD-2-Clause
/* xdplab gen: the traffic generator command. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"
#include "report_cli.h"
#include "json_cli.h"
#include "pkt_cli.h"
#include "run_opts.h"
#include "pace_cli.h"
#include "xdplab/gen.h"
#include "xdplab/abi/gen.h"
#include "xdplab/log.h"
#include "xdplab/netdev.h"
#include "xdplab/netlink.h"
#include "xdplab/report.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"
#include "xdplab/window.h"

enum { O_SRC_IP, O_DST_IP, O_VLAN_ID, O_VLAN_PRIO, O_IPV6_EXT };

struct gen_args {
	struct xl_gen_opts o;
	const char *src_mac, *dst_mac, *netns, *json;
	const char *size_arg; /* checked once the interface's MTU is known */
	int src_family, dst_family; /* AF_INET/AF_INET6 of --src-ip/--dst-ip, 0 unset */
	bool is_veth;
	uint64_t interval_ns;
	bool no_check, quiet;
	uint8_t prio[2], nprio; /* --vlan-prio values, applied once the tags are known */
};

#define A struct gen_args
static const char *const engines[] = { "live", "packet", NULL };
static const char *const shapes[] = { "udp", "tcp-syn", "tcp-established", NULL };

static const struct xl_opt gen_opts[] = {
	{ "engine", 'e', "ENGINE", "live (BPF_PROG_RUN live frames, default) or packet (AF_PACKET)",
	  XL_ENUM(A, o.engine, engines, NULL), XL_SEEN(A, o.engine_forced) },
	/* The accepted range depends on the MTU: resolve_defaults(). */
	{ "size", 's', "BYTES", "frame size without FCS, 60..MTU+14 (default 64, or the smallest that holds the headers: IPv6 62, TCP and VLAN tags more)",
	  .alias = "pkt-size", XL_STR(A, size_arg) },
	{ "flows", 'f', "N", "L4 source ports to rotate through, {range} (default 1)",
	  XL_UINT(A, o.flows, 1, XL_GEN_MAX_FLOWS) },
	{ "dyn-ports", 0, "N", "destination ports to rotate through from --dst-port, {range} (default 1; as xdp-trafficgen's)",
	  XL_UINT(A, o.dst_ports, 1, XL_GEN_MAX_FLOWS) },
	{ "src-addrs", 0, "N", "source addresses to rotate through from --src-ip (its last 16 bits), {range} (default 1)",
	  XL_UINT(A, o.src_addrs, 1, XL_GEN_MAX_FLOWS) },
	{ "rate", 'r', "PPS", "frames per second over all threads, 0 = as fast as possible (default 0)",
	  XL_UINT(A, o.rate_pps, 0, 1000000000) },
	{ "count", 'n', "N", "total frames to send, 0 = no limit (default 0)", .alias = "num-packets",
	  XL_UINT(A, o.count, 0, UINT64_MAX / 2) },
	XL_RUN(DURATION, A, o.duration_ns),
	{ "src-mac", 0, "MAC", "source MAC (default: the interface's)", XL_STR(A, src_mac) },
	{ "dst-mac", 0, "MAC", "destination MAC (default: the veth peer's, else broadcast)", XL_STR(A, dst_mac) },
	{ "src-ip", 0, "ADDR", "source IPv4/IPv6 address (default 198.18.0.1 / 2001:2::1)", O_SRC_IP },
	{ "dst-ip", 0, "ADDR", "destination IPv4/IPv6 address (default 198.18.0.2 / 2001:2::2)", O_DST_IP },
	{ "src-port", 0, "PORT", "first UDP source port, {range} (default {default})",
	  XL_UINT(A, o.spec.src_port, 1, 65535) },
	{ "dst-port", 0, "PORT", "UDP destination port, {range} (default {default}, discard)",
	  XL_UINT(A, o.spec.dst_port, 1, 65535) },
	{ "ipv6", '6', NULL, "send IPv6/UDP instead of IPv4/UDP", XL_FLAG(A, o.spec.ipv6) },
	{ "threads", 't', "N", "sending threads, 1..number of CPUs (default 1)",
	  XL_UINT(A, o.threads, 1, XL_OPT_NCPU) },
	{ "cpu", 'c', "CPU", "pin thread i to CPU+i (default: not pinned)",
	  XL_UINT(A, o.first_cpu, 0, XL_OPT_MAX_CPU) },
	{ "batch", 0, "FRAMES", "live engine: frames per batch before the redirects are flushed, {range} (default 64; 1 = one devmap bulk per frame)",
	  XL_UINT(A, o.batch, 1, XL_GEN_MAX_BATCH) },
	{ "vlan-id", 0, "VID", "add an 802.1Q tag with this VID, 0..4095; twice: two tags, outer first", O_VLAN_ID, true },
	{ "vlan-prio", 0, "PCP", "priority (PCP) of the tags, 0..7, in the order of --vlan-id (once: every tag; default 0)", O_VLAN_PRIO, true },
	{ "qinq", 0, NULL, "with two --vlan-id the outer tag is 802.1ad (TPID 0x88a8), the inner 802.1Q",
	  XL_FLAG(A, o.spec.qinq) },
	{ "ipv6-ext", 0, "LIST", "IPv6 extension headers before L4, in this order: hbh, dst, rt, frag, comma separated (8 bytes each: PadN options, routing with 0 segments left, an atomic fragment; hbh first, each once, dst twice, at most 4)", O_IPV6_EXT },
	{ "l4", 0, "SHAPE", "udp (default), tcp-syn (SYN flood) or tcp-established (ACK|PSH segments)",
	  XL_ENUM(A, o.spec.l4, shapes, NULL) },
	{ "fill", 0, "BYTE", "payload byte, {range} (default: the pattern byte i = i & 0xff)",
	  XL_UINT(A, o.spec.fill, 0, 255), XL_SEEN(A, o.spec.fill_set) },
	{ "ttl", 0, "N", "IPv4 TTL / IPv6 hop limit, {range} (default 64)", .alias = "hop-limit",
	  XL_UINT(A, o.spec.ttl, 1, 255) },
	{ "stamp", 0, NULL, "write a pktgen header (sequence number, send time) into each frame for 'xdplab latency' (1 thread)",
	  XL_FLAG(A, o.stamp) },
	{ "imix", 0, NULL, "send the simple IMIX: 7 frames of 60 bytes, 4 of 590 and 1 of 1514 (64, 594, 1518 with the FCS) in a cycle of 12 (packet engine, one flow; not with --size)",
	  XL_FLAG(A, o.imix) },
	{ "pcap", 'p', "FILE", "replay this Ethernet capture in order (packet engine); once unless --count/--duration",
	  XL_STR(A, o.pcap_path) },
	XL_RUN(INTERVAL, A, interval_ns),
	XL_RUN(NETNS, A, netns),
	{ "no-check", 0, NULL, "skip the pre-flight check of the veth peer", XL_FLAG(A, no_check) },
	XL_RUN(QUIET, A, quiet),
	XL_RUN(JSON, A, json),
};
#undef A

/* Built at start (the addresses by inet_pton()): cmd_gen(). */
static struct gen_args gen_defaults = {
	.o = { .engine = XL_ENGINE_LIVE, .netns_fd = -1, .flows = 1, .threads = 1, .first_cpu = -1,
	       .spec = { .size = 64, .src_port = 1024, .dst_port = 9 } },
	.interval_ns = 1000000000ull
};

static const struct xl_cmd_spec gen_spec = {
	"gen", "IFACE", "Send UDP frames (or a capture) out of IFACE as fast as possible or at --rate.",
	gen_opts, sizeof(gen_opts) / sizeof(gen_opts[0]), &gen_defaults, sizeof(gen_defaults),
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

/* What the entries cannot say: either address family, and the lists. */
static int on_opt(int id, const char *arg, void *ctx)
{
	struct gen_args *a = ctx;
	uint64_t v;
	int r;

	switch (id) {
	case O_SRC_IP:
		return parse_ip("--src-ip", arg, a, true);
	case O_DST_IP:
		return parse_ip("--dst-ip", arg, a, false);
	case O_VLAN_ID:
		if (a->o.spec.nvlans == 2)
			return xl_usage_error(&gen_spec, "--vlan-id: more than two tags (accepted: once or twice)");
		r = xl_parse_u64(&gen_spec, "--vlan-id", arg, 0, 4095, &v);
		a->o.spec.vlan_id[a->o.spec.nvlans++] = v;
		return r;
	case O_VLAN_PRIO:
		if (a->nprio == 2)
			return xl_usage_error(&gen_spec, "--vlan-prio: more than two values (accepted: once or twice)");
		r = xl_parse_u64(&gen_spec, "--vlan-prio", arg, 0, 7, &v);
		a->prio[a->nprio++] = v;
		return r;
	case O_IPV6_EXT:
		r = xl_pkt_ext_parse(arg, a->o.spec.ip6_ext);
		if (r < 0)
			return xl_usage_error(&gen_spec, "--ipv6-ext: '%s' is not accepted (accepted: a comma list of hbh, dst, rt, frag; hbh first, each once but dst twice, at most %d)",
					      arg, XL_PKT_MAX_EXT);
		a->o.spec.n_ext = r;
		return 0;
	}
	return -EINVAL;
}

/* Defaults that depend on the interface: MACs, and the size check. */
static int resolve_defaults(struct gen_args *a, const char *ifname)
{
	struct xl_pkt_spec *s = &a->o.spec;
	struct xl_link_info li;
	int err = xl_cmd_pkt_macs(&gen_spec, ifname, a->src_mac, a->dst_mac, s, &li);

	if (err == -ENODEV) {
		xl_usage_error(&gen_spec, "interface '%s': no such interface", ifname);
		return -EINVAL;
	}
	if (err)
		return err;
	if (s->n_ext && !s->ipv6)
		return xl_usage_error(&gen_spec, "--ipv6-ext needs --ipv6 (extension headers are IPv6's)");
	if (s->ipv6 && (a->src_family == AF_INET || a->dst_family == AF_INET))
		return xl_usage_error(&gen_spec, "--ipv6 with an IPv4 --src-ip/--dst-ip (accepted: IPv6 addresses, or no --ipv6)");
	a->is_veth = !strcmp(li.kind, "veth");
	if (a->o.imix && a->size_arg)
		return xl_usage_error(&gen_spec, "--imix sets the frame sizes: not with --size");
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
	{
		/* VLAN tags, extension headers and TCP need room: the smallest frame of this shape. */
		struct xl_pkt_layout lo;
		int t;

		if (a->nprio > s->nvlans)
			return xl_usage_error(&gen_spec, "--vlan-prio: %u values for %u --vlan-id tags", a->nprio, s->nvlans);
		if (s->qinq && s->nvlans != 2)
			return xl_usage_error(&gen_spec, "--qinq needs two --vlan-id (outer and inner tag)");
		for (t = 0; t < s->nvlans; t++)
			s->vlan_prio[t] = a->nprio == 1 ? a->prio[0] : a->nprio ? a->prio[t] : 0;
		xl_pkt_layout(s, &lo);
		if (!a->size_arg && s->size < lo.min_size)
			s->size = lo.min_size;
		if (s->size < lo.min_size)
			return xl_usage_error(&gen_spec, "--size: '%u' is out of range for this frame shape (accepted: %u..%u)",
					      s->size, lo.min_size, li.mtu + 14);
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
 * One sample of the generator: its sent and refused counts and, on veth,
 * the device's TX packets counter (what really left), each read stamped.
 */
struct gen_sample {
	struct xl_read sent, refused, tx;
};

/*
 * The three counts of a window, each labelled: sent (handed to the
 * device), refused by it, delivered (left it). Delivered is the device's TX
 * counter where it is read (veth: it also catches refusals that no error
 * counter sees), else sent minus refused.
 */
struct gen_counts {
	struct xl_delta sent, refused, delivered;
	bool from_tx;
};

static void gen_counts(const struct gen_sample *a, const struct gen_sample *b,
		       struct gen_counts *c)
{
	c->sent = xl_delta_of(&a->sent, &b->sent);
	c->from_tx = a->tx.ok && b->tx.ok;
	if (c->from_tx) {
		c->delivered = xl_delta_of(&a->tx, &b->tx);
		/*
		 * The device's TX counter also counts what the kernel sent from
		 * that end meanwhile (an ARP, a reply): never more delivered
		 * than we sent (issue 11 item 7: "1001 of 1000").
		 */
		if (c->delivered.n > c->sent.n)
			c->delivered.n = c->sent.n;
		c->refused = c->sent;
		c->refused.n = c->sent.n > c->delivered.n ? c->sent.n - c->delivered.n : 0;
	} else {
		c->refused = xl_delta_of(&a->refused, &b->refused);
		c->delivered = c->sent;
		c->delivered.n = c->sent.n > c->refused.n ? c->sent.n - c->refused.n : 0;
	}
}

/* What the sampler's callbacks need. */
struct gen_run {
	struct gen_args *a;
	struct xl_gen *gen;
	const char *ifname;
	struct gen_sample s[XL_SAMPLER_SLOTS];
	struct xl_interval_recs *rec;
	struct xl_rep_result total;
	int stalled, status;
};

static int gen_sample(void *ctx, int slot)
{
	struct gen_run *g = ctx;
	struct gen_sample *s = &g->s[slot];
	struct xl_gen_stats st;
	uint64_t tx = 0;

	xl_gen__read(g->gen, &st);
	s->sent = xl_read_now(st.sent, true);
	s->refused = s->sent;
	s->refused.v = st.xmit_errors;
	s->tx.ok = false;
	if (g->a->is_veth) {
		bool ok = xl_netdev_tx_packets(g->ifname, &tx) == 0;

		s->tx = xl_read_now(tx, ok);
	}
	return 0;
}

static int gen_alive(void *ctx)
{
	struct gen_run *g = ctx;

	if (g->status)
		return -1;
	return xl_gen__done(g->gen) ? XL_SAMPLER_DONE : XL_SAMPLER_GO;
}

/* A window as a record of the JSON file: the generator's figures. */
static void gen_rep(const struct gen_counts *c, struct xl_rep_result *r)
{
	*r = (struct xl_rep_result){
		.ns = c->sent.ns, .packets = c->delivered.n, .pps = xl_delta_rate(&c->delivered),
		.gen_pps = xl_delta_rate(&c->delivered), .gen_sent = c->sent.n,
		.gen_xmit_errors = c->refused.n, .run_packets = c->delivered.n,
		.xmit_events = -1,
	};
}

static void gen_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct gen_run *g = ctx;
	const struct gen_sample *a = &g->s[from], *b = &g->s[to];
	struct gen_counts c;
	struct xl_rep_result r;

	gen_counts(a, b, &c);
	gen_rep(&c, &r);
	if (g->rec)
		xl_interval_recs_add(g->rec, t_ns / 1e9, 0, &r);
	if (!g->a->quiet && !partial) {
		char b1[32], b2[32], b3[32];

		printf("%8.3f s  sent %s pps  refused/s %s  delivered %s pps (%.3f Mpps)\n",
		       t_ns / 1e9, xl_fmt_thousands((uint64_t)xl_delta_rate(&c.sent), b1, sizeof(b1)),
		       xl_fmt_thousands((uint64_t)xl_delta_rate(&c.refused), b2, sizeof(b2)),
		       xl_fmt_thousands((uint64_t)xl_delta_rate(&c.delivered), b3, sizeof(b3)),
		       xl_delta_rate(&c.delivered) / 1e6);
	}
	if (partial)
		return;
	/*
	 * Nothing left the device: what was sent all failed, or nothing
	 * was sent although the rate asks for frames every interval.
	 */
	if (!c.sent.n) {
		if (!g->a->o.rate_pps || g->a->o.rate_pps * (double)g->a->interval_ns >= 1e9)
			g->stalled++;
	} else if (!c.delivered.n) {
		g->stalled++;
	} else {
		g->stalled = 0;
	}
	if (g->stalled >= 3) {
		char cause[256];
		int ifindex = if_nametoindex(g->ifname);

		/* A link that is down (or whose veth peer is) is the cause, not NAPI. */
		if (!ifindex || xl_link_down_cause(ifindex, cause, sizeof(cause)) != 1)
			snprintf(cause, sizeof(cause), "%s",
				 b->sent.v ? "the device drops what is redirected to it (veth: its peer needs an XDP program or GRO on)" :
				     "the generator is not sending (see -v)");
		xl_err("nothing left %s for 3 intervals (%llu sent, %llu xmit errors): %s",
		       g->ifname, (unsigned long long)b->sent.v, (unsigned long long)b->refused.v,
		       cause);
		g->status = XL_EXIT_RUNTIME;
	}
}

/* @first/@last: the run's first and final samples (after the threads ended). */
static void print_summary(struct xl_gen *gen, const char *ifname, const struct gen_sample *first,
			  const struct gen_sample *last, bool counted)
{
	struct xl_gen_stats st;
	struct gen_counts c;
	char b1[32], b2[32];
	uint64_t ns;

	xl_gen__read(gen, &st);
	ns = st.elapsed_ns;
	printf("sent %llu frames, %llu bytes in %.3f s (%s pps) on %s, engine %s; xmit errors %llu\n",
	       (unsigned long long)st.sent, (unsigned long long)st.bytes, ns / 1e9,
	       xl_fmt_thousands((uint64_t)xl_rate(st.sent, ns), b1, sizeof(b1)), XL_ESC(ifname),
	       xl_gen_engine_name(xl_gen__engine(gen)), (unsigned long long)st.xmit_errors);
	gen_counts(first, last, &c);
	printf("delivered %llu frames (%s pps), refused by the device %llu (%s)\n",
	       (unsigned long long)c.delivered.n,
	       xl_fmt_thousands((uint64_t)xl_rate(c.delivered.n, ns), b2, sizeof(b2)),
	       (unsigned long long)c.refused.n,
	       c.from_tx ? "sent minus its TX packets counter" : "its xmit errors");
	if (st.pcap_frames)
		printf("pcap: %llu frames read, %llu skipped larger than MTU+14, %llu skipped shorter than 14 bytes, %llu sent shorter than 60 bytes, %llu cut by the capture's snaplen (sent as captured)\n",
		       (unsigned long long)st.pcap_frames, (unsigned long long)st.pcap_oversize,
		       (unsigned long long)st.pcap_runt, (unsigned long long)st.pcap_short,
		       (unsigned long long)st.pcap_truncated);
	/* The capped catch-up (xdplab/pace.h): said only when it acted. */
	xl_cmd_print_pace(&st.pace, counted, "1 ms at the rate, at least 8, or 2 send calls");
}

int cmd_gen(int argc, char **argv)
{
	struct gen_args a;
	static struct xl_row_result row;
	static struct gen_run g;
	struct xl_interval_recs rec = { 0 };
	struct gen_sample first;
	struct xl_sampler sm;
	const char *ifname;
	struct xl_gen *gen;
	char *pace_json = NULL;
	int idx, err, ret = XL_EXIT_OK;

	inet_pton(AF_INET, "198.18.0.1", &gen_defaults.o.spec.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &gen_defaults.o.spec.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &gen_defaults.o.spec.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &gen_defaults.o.spec.dst_ip6);
	idx = xl_cmd_parse_iface(&gen_spec, argc, argv, on_opt, &a, &ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (a.netns && (ret = xl_cmd_enter_netns(&gen_spec, a.netns)))
		return ret;
	if (resolve_defaults(&a, ifname))
		return XL_EXIT_USAGE;
	if (a.json && !xl_cmd_out_open(a.json)) /* a bad path fails before the run */
		return XL_EXIT_RUNTIME;
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
	g = (struct gen_run){ .a = &a, .gen = gen, .ifname = ifname, .rec = a.json ? &rec : NULL };
	gen_sample(&g, 0); /* before the first frame: every frame is in the summary */
	err = xl_gen__start(gen);
	if (err) {
		xl_err("cannot start the generator threads: %s", strerror(-err));
		xl_gen__destroy(gen);
		return XL_EXIT_RUNTIME;
	}
	/* Polled every 20 ms: the run ends promptly after the last frame. */
	sm = (struct xl_sampler){ .interval_ns = a.interval_ns, .poll_ns = 20000000ull,
				  .stop = &xl_stop_requested, .sample = gen_sample,
				  .alive = gen_alive, .interval = gen_interval, .ctx = &g,
				  .have_first = true };
	err = xl_sampler_run(&sm);
	if (err == -1)
		ret = g.status;
	xl_gen__stop(gen);
	err = xl_gen__join(gen);
	if (err == -ENXIO || err == -ENODEV) {
		xl_err("interface %s vanished during the run", ifname);
		ret = XL_EXIT_RUNTIME;
	} else if (err) {
		xl_err("generator on %s failed: %s", ifname, strerror(-err));
		ret = XL_EXIT_RUNTIME;
	}
	/*
	 * The summary's window ends after the last frame: a sample after the
	 * join and after 50 ms in which the veth peer's NAPI takes the frames
	 * still in its ring (its TX counter counts them then).
	 */
	xl_sleep_ns(50000000ull, NULL);
	first = g.s[0];
	gen_sample(&g, 1);
	print_summary(gen, ifname, &first, &g.s[1], a.o.count > 0);
	if (a.json) {
		struct gen_counts c;

		xl_row_init_single(&row, "gen", NULL, "gen", NULL, NULL, "-", "-");
		row.engine = xl_gen_engine_name(xl_gen__engine(gen));
		row.judged = "gen-cpu";
		row.size = a.o.spec.size;
		gen_counts(&first, &g.s[1], &c);
		gen_rep(&c, &row.reps[0]);
		row.nreps = 1;
		xl_row_finish(&row);
	}
	if (a.json && a.o.rate_pps) {
		struct xl_gen_stats st;

		/* With a rate: what the threads' pacers did (docs/results.md). */
		xl_gen__read(gen, &st);
		pace_json = xl_cmd_pace_json(&st.pace, a.o.rate_pps);
	}
	ret = xl_cmd_json_finish(a.json, "gen", &(struct xl_cmd_loop){
			.interval_ns = a.interval_ns, .duration_ns = a.o.duration_ns,
			.rec = &rec, .extra_json = pace_json }, &row, ret);
	free(pace_json);
	xl_gen__destroy(gen);
	return ret;
}
