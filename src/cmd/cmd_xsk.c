// SPDX-License-Identifier: BSD-2-Clause
/* xdplab xsk rxdrop|txpush|l2fwd: the AF_XDP applications. */
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
#include "profile_cli.h"
#include "xdplab/abi/gen.h"
#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/report.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/window.h"
#include "xdplab/xsk.h"

enum {
	O_FRAME_SIZE, O_FRAMES, O_HEADROOM, O_UNALIGNED, O_HUGEPAGES, O_RX_SIZE, O_TX_SIZE,
	O_FILL_SIZE, O_COMP_SIZE, O_BATCH, O_MODE, O_COPY, O_ZEROCOPY, O_NO_WAKEUP, O_POLL,
	O_BUSY_POLL, O_BUSY_BUDGET, O_QUEUE, O_QUEUES, O_SHARED, O_FRAGS, O_AUDIT, O_CPU, O_POLICY, O_SCHPRI,
	O_COUNT, O_BURSTS, O_RATE, O_SIZE, O_FLOWS,
	O_SRC_MAC, O_DST_MAC, O_SRC_IP, O_DST_IP, O_VERIFY, O_DUMP, O_STARVE, O_BIND_TIMEOUT,
	O_NEED_WAKEUP, O_SPIN, O_COPY_MODE, O_SNAPLEN,
};

static const struct xl_opt xsk_opts[] = {
	{ "frame-size", 'f', "BYTES", "UMEM chunk: 2048 or 4096, any 2048..page size with --unaligned (default 4096)", O_FRAME_SIZE },
	{ "frames", 0, "N", "UMEM frames per socket, 1..4194304 (default 4096, or what keeps the fill ring full if more)", O_FRAMES },
	{ "headroom", 0, "BYTES", "extra RX headroom per frame (default 0)", O_HEADROOM },
	{ "unaligned", 0, NULL, "unaligned chunks (XDP_UMEM_UNALIGNED_CHUNK_FLAG)", O_UNALIGNED },
	{ "hugepages", 0, NULL, "back the UMEM with hugepages (normal pages with a notice if none)", O_HUGEPAGES },
	{ "rx-size", 0, "N", "RX ring entries, power of two 1..65536 (default 2048)", O_RX_SIZE },
	{ "tx-size", 0, "N", "TX ring entries, power of two (default 2048)", O_TX_SIZE },
	{ "fill-size", 0, "N", "fill ring entries, power of two (default 2048)", O_FILL_SIZE },
	{ "comp-size", 0, "N", "completion ring entries, power of two (default 2048)", O_COMP_SIZE },
	{ "batch", 'b', "N", "descriptors per peek/reserve, 1..2048 (default 64)", O_BATCH, .alias = "batch-size" },
	{ "mode", 0, "MODE", "XDP attach mode: native or drv (XDP_DRV, default), or skb (XDP_SKB)", O_MODE, .alias = "xdp-mode" },
	{ "copy-mode", 'C', "MODE", "auto (default: zero-copy, else copy with a notice), copy or zero-copy", O_COPY_MODE },
	{ "copy", 'c', NULL, "bind with XDP_COPY (default: try zero-copy, fall back with a notice)", O_COPY },
	{ "zero-copy", 'z', NULL, "bind with XDP_ZEROCOPY; fail if the driver lacks it", O_ZEROCOPY },
	{ "need-wakeup", 0, NULL, "XDP_USE_NEED_WAKEUP: kick only when the kernel asks (default)", O_NEED_WAKEUP },
	{ "no-need-wakeup", 'm', NULL, "kick the kernel after every batch", O_NO_WAKEUP },
	{ "poll", 'p', NULL, "sleep in poll() when the RX ring is empty (default for rxdrop in drv mode without --cpu)", O_POLL },
	{ "spin", 0, NULL, "busy-spin on the rings instead (takes a whole CPU; default for rxdrop in drv mode with --cpu)", O_SPIN },
	{ "busy-poll", 'B', NULL, "SO_PREFER_BUSY_POLL + SO_BUSY_POLL: the application drives NAPI (default for l2fwd, and rxdrop in skb mode)", O_BUSY_POLL },
	{ "busy-budget", 0, "N", "SO_BUSY_POLL_BUDGET in packets, 1..65536 (default 64)", O_BUSY_BUDGET },
	{ "queue", 'q', "Q", "first queue (default 0)", O_QUEUE },
	{ "queues", 0, "N", "sockets, one per queue and thread, 1..64 (default 1)", O_QUEUES },
	{ "shared-umem", 0, NULL, "one UMEM for all sockets (XDP_SHARED_UMEM)", O_SHARED },
	{ "frags", 0, NULL, "multi-buffer (XDP_USE_SG): frames longer than one chunk", O_FRAGS },
	{ "audit", 'a', NULL, "track every frame and prove at exit that each is in exactly one place", O_AUDIT },
	{ "cpu", 0, "CPU", "pin socket i's thread to CPU+i (default: not pinned)", O_CPU },
	{ "policy", 0, "POLICY", "scheduling policy of the socket threads: other (default), fifo or rr (also SCHED_OTHER, SCHED_FIFO, SCHED_RR)", O_POLICY },
	{ "schpri", 0, "PRIO", "priority with --policy fifo or rr, 1..99 (default 1)", O_SCHPRI },
	XL_OPT_ENTRY_INTERVAL,
	XL_OPT_ENTRY_DURATION,
	{ "extended", 'e', NULL, "also print wakeups/s, batch fill levels, TX ring short", XL_OPT_EXTENDED },
	XL_OPT_ENTRY_QUIET_AS('Q'),
	XL_OPT_ENTRY_NETNS,
	XL_OPT_ENTRY_PROFILE,
	XL_OPT_ENTRY_PROFILE_DIR,
	XL_OPT_ENTRY_REPS,
	XL_OPT_ENTRY_JSON,
	{ "count", 'n', "N", "txpush: frames to send over all sockets, 0 = no limit (default 0)", O_COUNT },
	{ "bursts", 0, "R", "txpush: send --count, wait until all of it is completed, R times on the same sockets (total count x R), 1..1000000 (default 1)", O_BURSTS },
	{ "rate", 'r', "PPS", "txpush: frames per second over all sockets, 0 = no limit (default 0)", O_RATE },
	{ "size", 's', "BYTES", "txpush: frame size without FCS, 60..MTU+14 (default 64)", O_SIZE },
	{ "flows", 0, "N", "txpush: UDP source ports to rotate, 1..65536 (default 1)", O_FLOWS },
	{ "src-mac", 0, "MAC", "txpush: source MAC (default: the interface's)", O_SRC_MAC },
	{ "dst-mac", 0, "MAC", "txpush: destination MAC (default: the veth peer's, else broadcast)", O_DST_MAC },
	{ "src-ip", 0, "ADDR", "txpush: source IPv4 (default 198.18.0.2)", O_SRC_IP },
	{ "dst-ip", 0, "ADDR", "txpush: destination IPv4 (default 198.18.0.1)", O_DST_IP },
	{ "verify", 0, NULL, "rxdrop: check every frame's IPv4/UDP checksums (csum_bad)", O_VERIFY },
	{ "dump", 0, "FILE", "rxdrop: write every received frame to a pcap file", O_DUMP },
	{ "snaplen", 0, "BYTES", "rxdrop --dump: bytes kept of each frame, 14..65535 (default: all)", O_SNAPLEN },
	{ "starve-fill", 0, NULL, "rxdrop: never fill the fill ring (shows rx_fill_ring_empty_descs)", O_STARVE },
	{ "bind-timeout", 0, "SECONDS", "retry a busy queue (EBUSY) this long, 0..60 (default 3)", O_BIND_TIMEOUT },
};

struct xsk_args {
	struct xl_cmd_spec spec;
	struct xl_xsk_config c;
	uint64_t interval_ns, duration_ns;
	bool extended, quiet, copy_seen, zc_seen, copy_mode_seen, wakeup_seen, nowakeup_seen, poll_seen, spin_seen, busy_seen;
	bool wait_chosen; /* --poll, --spin or --busy-poll given (else the default) */
	bool frames_seen;
	const char *netns, *src_mac, *dst_mac, *json;
	bool src_ip_set, dst_ip_set;
	struct xl_cmd_prof prof;
	int reps;
};

static int ring_opt(struct xsk_args *a, const char *opt, const char *arg, uint32_t *out)
{
	char msg[200];
	uint64_t v;

	if (xl_parse_u64(&a->spec, opt, arg, 0, UINT32_MAX, &v))
		return -EINVAL;
	if (xl_xsk_check_ring_size(opt, v, msg, sizeof(msg)))
		return xl_usage_error(&a->spec, "%s", msg);
	*out = v;
	return 0;
}

static int u32_opt(struct xsk_args *a, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint32_t *out)
{
	uint64_t v;
	int r = xl_parse_u64(&a->spec, opt, arg, min, max, &v);

	if (!r)
		*out = v;
	return r;
}

static int ip_opt(struct xsk_args *a, const char *opt, const char *arg, struct in_addr *out)
{
	if (inet_pton(AF_INET, arg, out) != 1)
		return xl_usage_error(&a->spec, "%s: '%s' is not an IPv4 address", opt, arg);
	return 0;
}

static int on_opt(int id, const char *arg, void *ctx)
{
	static const char *const modes[] = { "drv", "skb", "native", NULL };
	struct xsk_args *a = ctx;
	struct xl_xsk_config *c = &a->c;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t v;
	int r;

	if (!xl_cmd_prof_opt(&a->prof, id, arg))
		return 0;
	r = xl_cmd_run_opt(&a->spec, id, arg, &(struct xl_run_opts){ &a->interval_ns,
				  &a->duration_ns, &a->extended, &a->netns, .quiet = &a->quiet,
				  .reps = &a->reps, .json = &a->json });
	if (r <= 0)
		return r;
	switch (id) {
	case O_FRAME_SIZE:
		/* Any number here: the rules (minimum, power of two, even, page
		 * size) are checked after, each named in its message. */
		if (!arg[0] || strspn(arg, "0123456789") != strlen(arg))
			return xl_usage_error(&a->spec, "--frame-size: '%s' is not a whole number (-f is --frame-size, as in xdpsock; the UDP flows of txpush are --flows)",
					      arg);
		return u32_opt(a, "--frame-size", arg, 0, UINT32_MAX, &c->frame_size);
	case O_FRAMES:
		a->frames_seen = true;
		return u32_opt(a, "--frames", arg, 1, XL_XSK_MAX_FRAMES, &c->frames);
	case O_HEADROOM:
		return u32_opt(a, "--headroom", arg, 0, 65536, &c->headroom);
	case O_UNALIGNED:
		c->unaligned = true;
		return 0;
	case O_HUGEPAGES:
		c->hugepages = true;
		return 0;
	case O_RX_SIZE:
		return ring_opt(a, "--rx-size", arg, &c->rx_size);
	case O_TX_SIZE:
		return ring_opt(a, "--tx-size", arg, &c->tx_size);
	case O_FILL_SIZE:
		return ring_opt(a, "--fill-size", arg, &c->fill_size);
	case O_COMP_SIZE:
		return ring_opt(a, "--comp-size", arg, &c->comp_size);
	case O_BATCH:
		return u32_opt(a, "--batch", arg, 1, XL_XSK_MAX_BATCH, &c->batch);
	case O_MODE:
		r = xl_parse_choice(&a->spec, "--mode", arg, modes);
		if (r < 0)
			return r;
		c->mode = r == 1 ? XL_MODE_SKB : XL_MODE_NATIVE;
		return 0;
	case O_COPY_MODE: {
		/* xdp-bench's spelling of --copy / --zero-copy / neither. */
		static const char *const cm[] = { "auto", "copy", "zero-copy", NULL };

		r = xl_parse_choice(&a->spec, "--copy-mode", arg, cm);
		if (r < 0)
			return r;
		if (a->copy_seen || a->zc_seen)
			return xl_usage_error(&a->spec, "--copy-mode and --copy/--zero-copy conflict");
		a->copy_mode_seen = true;
		c->copy = r == 1 ? XL_XSK_COPY : r == 2 ? XL_XSK_ZEROCOPY : XL_XSK_AUTO;
		return 0;
	}
	case O_COPY:
		if (a->copy_mode_seen)
			return xl_usage_error(&a->spec, "--copy-mode and --copy/--zero-copy conflict");
		a->copy_seen = true;
		c->copy = XL_XSK_COPY;
		return 0;
	case O_ZEROCOPY:
		if (a->copy_mode_seen)
			return xl_usage_error(&a->spec, "--copy-mode and --copy/--zero-copy conflict");
		a->zc_seen = true;
		c->copy = XL_XSK_ZEROCOPY;
		return 0;
	case O_NEED_WAKEUP:
		a->wakeup_seen = true;
		c->need_wakeup = true;
		return 0;
	case O_NO_WAKEUP:
		a->nowakeup_seen = true;
		c->need_wakeup = false;
		return 0;
	case O_POLL:
		a->poll_seen = true;
		c->poll = true;
		return 0;
	case O_SPIN:
		a->spin_seen = true;
		c->poll = false;
		return 0;
	case O_BUSY_POLL:
		a->busy_seen = true;
		c->busy_poll = true;
		return 0;
	case O_BUSY_BUDGET:
		return u32_opt(a, "--busy-budget", arg, 1, 65536, &c->busy_budget);
	case O_QUEUE:
		if (!arg[0] || strspn(arg, "0123456789") != strlen(arg))
			return xl_usage_error(&a->spec, "--queue: '%s' is not a whole number (-q is --queue, as in xdpsock; quiet is -Q)",
					      arg);
		return u32_opt(a, "--queue", arg, 0, XL_XSK_MAX_QUEUES - 1, &c->queue);
	case O_QUEUES:
		return u32_opt(a, "--queues", arg, 1, XL_XSK_MAX_QUEUES, &c->queues);
	case O_SHARED:
		c->shared_umem = true;
		return 0;
	case O_FRAGS:
		c->frags = true;
		return 0;
	case O_AUDIT:
		c->audit = true;
		return 0;
	case O_CPU:
		r = xl_parse_u64(&a->spec, "--cpu", arg, 0, ncpu - 1, &v);
		c->first_cpu = v;
		return r;
	case O_POLICY: {
		static const char *const pol[] = { "other", "fifo", "rr", "SCHED_OTHER", "SCHED_FIFO",
						   "SCHED_RR", NULL };
		static const int val[] = { SCHED_OTHER, SCHED_FIFO, SCHED_RR };

		r = xl_parse_choice(&a->spec, "--policy", arg, pol);
		if (r < 0)
			return r;
		c->sched_policy = val[r % 3];
		return 0;
	}
	case O_SCHPRI:
		r = xl_parse_u64(&a->spec, "--schpri", arg, 1, 99, &v);
		c->sched_prio = v;
		return r;
	case O_COUNT:
		return xl_parse_u64(&a->spec, "--count", arg, 0, UINT64_MAX / 2, &c->count);
	case O_BURSTS:
		return u32_opt(a, "--bursts", arg, 1, XL_XSK_MAX_BURSTS, &c->bursts);
	case O_RATE:
		return xl_parse_u64(&a->spec, "--rate", arg, 0, 1000000000, &c->rate_pps);
	case O_SIZE:
		return u32_opt(a, "--size", arg, XL_PKT_MIN_SIZE, XL_PKT_MAX_SIZE, &c->spec.size);
	case O_FLOWS:
		return u32_opt(a, "--flows", arg, 1, XL_GEN_MAX_FLOWS, &c->flows);
	case O_SRC_MAC:
		a->src_mac = arg;
		return 0;
	case O_DST_MAC:
		a->dst_mac = arg;
		return 0;
	case O_SRC_IP:
		a->src_ip_set = true;
		return ip_opt(a, "--src-ip", arg, &c->spec.src_ip4);
	case O_DST_IP:
		a->dst_ip_set = true;
		return ip_opt(a, "--dst-ip", arg, &c->spec.dst_ip4);
	case O_VERIFY:
		c->verify = true;
		return 0;
	case O_DUMP:
		c->dump_path = arg;
		return 0;
	case O_SNAPLEN:
		return u32_opt(a, "--snaplen", arg, 14, 65535, &c->dump_snaplen);
		return 0;
	case O_STARVE:
		c->starve_fill = true;
		return 0;
	case O_BIND_TIMEOUT:
		return xl_parse_seconds(&a->spec, "--bind-timeout", arg, 0, 60, &c->bind_timeout_ns);
	}
	return -EINVAL;
}

/* Options that only make sense together, or for one application. */
static int check_combinations(struct xsk_args *a)
{
	if (a->c.sched_prio && a->c.sched_policy == SCHED_OTHER)
		return xl_usage_error(&a->spec, "--schpri needs --policy fifo or rr (SCHED_OTHER has no priority)");
	if (a->c.sched_policy != SCHED_OTHER && !a->c.sched_prio)
		a->c.sched_prio = 1;
	struct xl_xsk_config *c = &a->c;
	bool tx = c->app == XL_XSK_TXPUSH, rxd = c->app == XL_XSK_RXDROP;

	if (a->copy_seen && a->zc_seen)
		return xl_usage_error(&a->spec, "--copy and --zero-copy conflict");
	if (a->wakeup_seen && a->nowakeup_seen)
		return xl_usage_error(&a->spec, "--need-wakeup and --no-need-wakeup conflict");
	if (a->poll_seen && a->spin_seen)
		return xl_usage_error(&a->spec, "--poll and --spin conflict");
	if (c->busy_poll && a->poll_seen)
		return xl_usage_error(&a->spec, "--busy-poll and --poll conflict (busy polling replaces poll())");
	if (c->busy_poll && a->spin_seen)
		return xl_usage_error(&a->spec, "--busy-poll and --spin conflict");
	/* Unless told, wait the way measured best (docs/afxdp.md). */
	a->wait_chosen = a->poll_seen || a->spin_seen || a->busy_seen;
	if (!a->wait_chosen)
		xl_xsk_config_wait_default(c);
	else if (c->busy_poll || a->spin_seen)
		c->poll = false;
	else
		c->poll = true;
	if (!tx && (c->count || c->bursts != 1 || c->rate_pps || a->src_mac || a->dst_mac ||
		    a->src_ip_set || a->dst_ip_set || c->flows != 1 || c->spec.size != 64))
		return xl_usage_error(&a->spec, "--count, --bursts, --rate, --size, --flows and the address options are for txpush");
	if (c->dump_snaplen && !c->dump_path)
		return xl_usage_error(&a->spec, "--snaplen is for --dump");
	if (!rxd && (c->verify || c->dump_path || c->starve_fill))
		return xl_usage_error(&a->spec, "--verify, --dump and --starve-fill are for rxdrop");
	/* They look at one descriptor at a time: a multi-buffer frame has several. */
	if (c->frags && (c->verify || c->dump_path))
		return xl_usage_error(&a->spec, "--verify and --dump do not take --frags (they inspect one descriptor, a frame may have several)");
	/* --rate vs --queues and --frags vs --batch/--tx-size: xl_xsk_config_check(). */
	if (c->shared_umem && c->queues < 2)
		return xl_usage_error(&a->spec, "--shared-umem needs --queues 2 or more");
	/* Unless told, enough frames to keep the fill ring full (l2fwd with the
	 * default rings: 8192; xl_xsk_frames_needed()). */
	if (!a->frames_seen && xl_xsk_frames_needed(c) > c->frames)
		c->frames = xl_xsk_frames_needed(c);
	return 0;
}

/* txpush's frame: the interface's MAC to its veth peer's, 198.18.0.2 -> .1. */
static int txpush_spec(struct xsk_args *a)
{
	struct xl_pkt_spec *s = &a->c.spec;
	int err;

	s->src_port = 1024;
	s->dst_port = 9;
	if (!a->src_ip_set)
		inet_pton(AF_INET, "198.18.0.2", &s->src_ip4);
	if (!a->dst_ip_set)
		inet_pton(AF_INET, "198.18.0.1", &s->dst_ip4);
	/* The interface was checked before (xl_xsk_check_iface()). */
	err = xl_cmd_pkt_macs(&a->spec, a->c.ifname, a->src_mac, a->dst_mac, s, NULL);
	return err == -ENODEV ? 0 : err;
}

static void sum_stats(const struct xl_xsk_sock_stats *s, int n, struct xl_xsk_sock_stats *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->xdp_ok = true;
	for (i = 0; i < n; i++) {
		const uint64_t *src = (const uint64_t *)&s[i].c;
		uint64_t *dst = (uint64_t *)&t->c;
		size_t k;

		for (k = 0; k < sizeof(t->c) / sizeof(uint64_t); k++)
			dst[k] += src[k];
		t->xdp.rx_dropped += s[i].xdp.rx_dropped;
		t->xdp.rx_invalid_descs += s[i].xdp.rx_invalid_descs;
		t->xdp.tx_invalid_descs += s[i].xdp.tx_invalid_descs;
		t->xdp.rx_ring_full += s[i].xdp.rx_ring_full;
		t->xdp.rx_fill_ring_empty_descs += s[i].xdp.rx_fill_ring_empty_descs;
		t->xdp.tx_ring_empty_descs += s[i].xdp.tx_ring_empty_descs;
		t->xdp_ok &= s[i].xdp_ok;
	}
}

static void print_row(const char *label, const struct xl_xsk_sock_stats *a,
		      const struct xl_xsk_sock_stats *b, uint64_t ns, bool extended)
{
	char r[32], t[32];
	double rxb = b->c.rx_batches - a->c.rx_batches, txb = b->c.tx_batches - a->c.tx_batches;

	printf("%s rx/s %12s  tx/s %12s  rx_dropped %llu  rx_invalid_descs %llu  tx_invalid_descs %llu  rx_ring_full %llu  rx_fill_ring_empty_descs %llu  tx_ring_empty_descs %llu\n",
	       label, xl_fmt_thousands((uint64_t)xl_rate(b->c.rx_packets - a->c.rx_packets, ns), r, sizeof(r)),
	       xl_fmt_thousands((uint64_t)xl_rate(b->c.tx_packets - a->c.tx_packets, ns), t, sizeof(t)),
	       (unsigned long long)(b->xdp.rx_dropped - a->xdp.rx_dropped),
	       (unsigned long long)(b->xdp.rx_invalid_descs - a->xdp.rx_invalid_descs),
	       (unsigned long long)(b->xdp.tx_invalid_descs - a->xdp.tx_invalid_descs),
	       (unsigned long long)(b->xdp.rx_ring_full - a->xdp.rx_ring_full),
	       (unsigned long long)(b->xdp.rx_fill_ring_empty_descs - a->xdp.rx_fill_ring_empty_descs),
	       (unsigned long long)(b->xdp.tx_ring_empty_descs - a->xdp.tx_ring_empty_descs));
	if (extended)
		printf("%*s wakeups/s %.0f  rx batch fill %.1f  tx batch fill %.1f  tx ring short %llu  bad_descs %llu\n",
		       (int)strlen(label), "", xl_rate(b->c.wakeups - a->c.wakeups, ns),
		       rxb ? (b->c.rx_descs - a->c.rx_descs) / rxb : 0,
		       txb ? (b->c.tx_descs - a->c.tx_descs) / txb : 0,
		       (unsigned long long)(b->c.tx_short - a->c.tx_short),
		       (unsigned long long)(b->c.bad_descs - a->c.bad_descs));
}

static void print_totals(const struct xl_xsk_sock_stats *t, uint64_t ns)
{
	printf("totals: rx_packets %llu rx_bytes %llu tx_packets %llu tx_bytes %llu tx_submitted %llu tx_batches %llu bad_descs %llu csum_bad %llu seconds %.3f rx_pps %.0f tx_pps %.0f\n",
	       (unsigned long long)t->c.rx_packets, (unsigned long long)t->c.rx_bytes,
	       (unsigned long long)t->c.tx_packets, (unsigned long long)t->c.tx_bytes,
	       (unsigned long long)t->c.tx_submitted, (unsigned long long)t->c.tx_batches,
	       (unsigned long long)t->c.bad_descs,
	       (unsigned long long)t->c.csum_bad, ns / 1e9, xl_rate(t->c.rx_packets, ns),
	       xl_rate(t->c.tx_packets, ns));
	printf("xdp_statistics: rx_dropped %llu rx_invalid_descs %llu tx_invalid_descs %llu rx_ring_full %llu rx_fill_ring_empty_descs %llu tx_ring_empty_descs %llu%s\n",
	       (unsigned long long)t->xdp.rx_dropped, (unsigned long long)t->xdp.rx_invalid_descs,
	       (unsigned long long)t->xdp.tx_invalid_descs, (unsigned long long)t->xdp.rx_ring_full,
	       (unsigned long long)t->xdp.rx_fill_ring_empty_descs,
	       (unsigned long long)t->xdp.tx_ring_empty_descs,
	       t->xdp_ok ? "" : " (partial: a socket's statistics were unreadable)");
}

/* One sample: every socket's numbers, stamped, and the threads' run time. */
struct xsk_sample {
	struct xl_xsk_sock_stats st[XL_XSK_MAX_QUEUES];
	uint64_t t_ns;
	struct xl_read runtime;
};

/*
 * A window of the application: its own count (rxdrop: received; txpush and
 * l2fwd: sent), bytes, and the socket threads' CPU time (not ok when a
 * read failed or a thread started or ended in between) with @cpu_pkts, the
 * count of the windows in which it was read: a sum leaves a window without
 * a CPU read out of both sides of the per-packet figure.
 */
struct xsk_win {
	struct xl_delta pkts, cpu, cpu_pkts;
	uint64_t bytes;
};

/* What the sampler's callbacks need. */
struct xsk_run {
	struct xsk_args *a;
	struct xl_xsk_app *app;
	int n;
	struct xsk_sample s[XL_SAMPLER_SLOTS];
	struct xl_row_result *row;
	struct xl_cmd_records *rec;
	struct xsk_win rep;
	int rep_no;
	bool vanished;
};

static int xsk_sample(void *ctx, int slot)
{
	struct xsk_run *x = ctx;
	struct xsk_sample *s = &x->s[slot];
	uint64_t ns;

	xl_xsk_app__read(x->app, s->st);
	s->t_ns = xl_now_ns();
	ns = xl_xsk_app__runtime_ns(x->app);
	s->runtime = xl_read_now(ns, ns != 0);
	return 0;
}

static int xsk_alive(void *ctx)
{
	struct xsk_run *x = ctx;
	char cause[256];

	if (!if_indextoname(xl_xsk_app__ifindex(x->app), (char[IF_NAMESIZE]){ 0 })) {
		xl_err("interface %s vanished during the run", x->a->c.ifname);
		x->vanished = true;
		return -1;
	}
	/*
	 * A link that went down (or whose veth peer did) passes nothing:
	 * txpush would count sends that all drop.
	 */
	if (xl_link_down_cause(xl_xsk_app__ifindex(x->app), cause, sizeof(cause)) == 1) {
		xl_err("%s; stopping", cause);
		x->vanished = true;
		return -1;
	}
	return xl_xsk_app__done(x->app) ? XL_SAMPLER_DONE : XL_SAMPLER_GO;
}

static void xsk_window(const struct xsk_run *x, const struct xsk_sample *a,
		       const struct xsk_sample *b, struct xsk_win *w)
{
	struct xl_xsk_sock_stats ta, tb;
	bool rx = x->a->c.app == XL_XSK_RXDROP;

	sum_stats(a->st, x->n, &ta);
	sum_stats(b->st, x->n, &tb);
	w->pkts = (struct xl_delta){ .n = rx ? tb.c.rx_packets - ta.c.rx_packets :
					       tb.c.tx_packets - ta.c.tx_packets,
				     .ns = b->t_ns - a->t_ns, .ok = b->t_ns >= a->t_ns };
	w->bytes = rx ? tb.c.rx_bytes - ta.c.rx_bytes : tb.c.tx_bytes - ta.c.tx_bytes;
	w->cpu = xl_delta_of(&a->runtime, &b->runtime, 64);
	if (b->runtime.v < a->runtime.v)
		w->cpu.ok = false;
	w->cpu_pkts = w->cpu.ok ? w->pkts : (struct xl_delta){ 0 };
}

/* A window as a repetition record: the app threads' share of their CPUs is the judged busy share. */
static void xsk_rep(const struct xsk_run *x, const struct xsk_win *w, struct xl_rep_result *r)
{
	double span = (double)w->cpu.ns * x->n;

	*r = (struct xl_rep_result){
		.ns = w->pkts.ns, .packets = w->pkts.n, .run_packets = w->pkts.n,
		.pps = xl_delta_rate(&w->pkts),
		.cpu_busy = w->cpu.ok && span > 0 ? w->cpu.n / span : 0,
		.cpu_ns_per_pkt = xl_delta_ratio(&w->cpu, &w->cpu_pkts), .xmit_events = -1,
	};
	if (r->cpu_busy > 1.0)
		r->cpu_busy = 1.0;
}

static void xsk_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct xsk_run *x = ctx;
	const struct xsk_sample *a = &x->s[from], *b = &x->s[to];
	struct xl_xsk_sock_stats tp, tc;
	struct xsk_win w;
	char label[32];
	int i;

	xsk_window(x, a, b, &w);
	x->rep.pkts.n += w.pkts.n;
	x->rep.pkts.ns += w.pkts.ns;
	x->rep.bytes += w.bytes;
	if (w.cpu.ok) {
		x->rep.cpu.n += w.cpu.n;
		x->rep.cpu.ns += w.cpu.ns;
		x->rep.cpu.ok = true;
		x->rep.cpu_pkts.n += w.pkts.n;
		x->rep.cpu_pkts.ok = true;
	}
	if (x->rec) {
		struct xl_rep_result r;

		xsk_rep(x, &w, &r);
		xl_cmd_records_add(x->rec, t_ns / 1e9, x->rep_no, &r);
	}
	if (partial || x->a->quiet)
		return;
	/*
	 * Rates over the time between this read and the previous one (each
	 * stamped right after the read), not over the scheduled interval: a
	 * late wake-up would otherwise inflate them.
	 */
	sum_stats(a->st, x->n, &tp);
	sum_stats(b->st, x->n, &tc);
	snprintf(label, sizeof(label), "%8.3f s  total", t_ns / 1e9);
	print_row(label, &tp, &tc, b->t_ns - a->t_ns, x->a->extended);
	for (i = 0; x->n > 1 && i < x->n; i++) {
		snprintf(label, sizeof(label), "%8s    q%-3u", "", b->st[i].queue);
		print_row(label, &a->st[i], &b->st[i], b->t_ns - a->t_ns, false);
	}
}

static void xsk_rep_end(void *ctx, int rep, bool complete)
{
	struct xsk_run *x = ctx;

	if (x->row && complete && x->rep.pkts.ns && x->row->nreps < XL_MAX_REPS)
		xsk_rep(x, &x->rep, &x->row->reps[x->row->nreps++]);
	x->rep = (struct xsk_win){ .pkts.ok = true };
	x->rep_no = rep + 1;
}

static int run(struct xsk_args *a, struct xl_xsk_app *app, struct xl_row_result *row,
	       struct xl_cmd_records *rec)
{
	static struct xsk_run x;
	static struct xl_xsk_sock_stats cur[XL_XSK_MAX_QUEUES];
	struct xl_xsk_sock_stats tp, tc;
	struct xl_sampler sm;
	int i, ret = XL_EXIT_OK, err;
	uint64_t now;
	static char audit[32768];
	static struct xl_profile pr;
	bool profiling;

	x = (struct xsk_run){ .a = a, .app = app, .n = xl_xsk_app__nsocks(app), .row = row,
			      .rec = rec, .rep = { .pkts.ok = true } };
	xsk_sample(&x, 0); /* the totals' window starts at this read, before the threads */
	err = xl_xsk_app__start(app);
	if (err) {
		xl_err("cannot start the socket threads: %s", strerror(-err));
		return XL_EXIT_RUNTIME;
	}
	/* The profile covers the run; a pinned first socket's CPU is the app's. */
	profiling = xl_cmd_prof_run_start(&a->prof, a->spec.name, a->c.first_cpu);
	sm = (struct xl_sampler){ .interval_ns = a->interval_ns, .duration_ns = a->duration_ns,
				  .reps = a->reps, .stop = &xl_stop_requested, .have_first = true,
				  .sample = xsk_sample, .alive = xsk_alive,
				  .interval = xsk_interval, .rep_end = xsk_rep_end, .ctx = &x };
	xl_sampler_run(&sm);
	xl_xsk_app__stop(app);
	err = xl_xsk_app__join(app);
	if (profiling)
		xl_cmd_prof_run_stop(&a->prof, -1, &pr);
	/* The totals: from the first read to one after the threads ended. */
	xl_xsk_app__read(app, cur);
	now = xl_now_ns();
	sum_stats(cur, x.n, &tc);
	sum_stats(x.s[0].st, x.n, &tp);
	for (i = 0; i < (int)(sizeof(tc.c) / sizeof(uint64_t)); i++)
		((uint64_t *)&tc.c)[i] -= ((uint64_t *)&tp.c)[i];
	if ((err == -ENXIO || err == -ENODEV || err == -ENETDOWN) && !x.vanished) {
		xl_err("interface %s %s during the run", a->c.ifname,
		       err == -ENETDOWN ? "went down" : "went away");
		x.vanished = true;
	} else if (err && !x.vanished) {
		xl_err("a socket thread failed: %s", strerror(-err));
		ret = XL_EXIT_RUNTIME;
	}
	if (x.vanished) {
		xl_err("partial results follow");
		ret = XL_EXIT_RUNTIME;
	}
	print_totals(&tc, now - x.s[0].t_ns);
	/*
	 * Frames the kernel dropped, with the likely cause (issue 11 item 1:
	 * at a tenth of capacity, default placement, the fill ring ran empty
	 * while the application waited for a CPU).
	 */
	if (tc.xdp.rx_fill_ring_empty_descs && !a->c.starve_fill)
		xl_warn("the kernel dropped %llu frames for an empty fill ring (rx_fill_ring_empty_descs): the application did not refill it in time, likely because it waited for its CPU (the traffic's NAPI, the generator or other load ran there); more room (--fill-size, --frames) and a CPU of its own (--cpu) reduce it",
			(unsigned long long)tc.xdp.rx_fill_ring_empty_descs);
	if (tc.xdp.rx_ring_full)
		xl_warn("the kernel dropped %llu frames for a full RX ring (rx_ring_full): the application did not empty it in time; give it a CPU of its own with --cpu, or a larger --rx-size",
			(unsigned long long)tc.xdp.rx_ring_full);
	if (a->c.dump_path) {
		/* A frame dropped for an empty fill ring is in rx_dropped too. */
		uint64_t lost = tc.xdp.rx_dropped + tc.xdp.rx_ring_full;

		/*
		 * Frames the kernel dropped while the file was written (the
		 * writer is a slow path) are not in it: say so, never a
		 * silently incomplete capture, and fail the run.
		 */
		printf("dump: %s holds %llu frames (snaplen %u); %s\n", a->c.dump_path,
		       (unsigned long long)tc.c.rx_packets, a->c.dump_snaplen ? a->c.dump_snaplen : 65535,
		       lost ? "INCOMPLETE" : "complete: the kernel dropped nothing");
		if (lost) {
			xl_err("--dump %s is incomplete: the kernel dropped %llu frames while it was written (rx_dropped %llu, of them for an empty fill ring %llu; rx_ring_full %llu: %.1f%% of what arrived)",
			       a->c.dump_path, (unsigned long long)lost,
			       (unsigned long long)tc.xdp.rx_dropped,
			       (unsigned long long)tc.xdp.rx_fill_ring_empty_descs,
			       (unsigned long long)tc.xdp.rx_ring_full,
			       100.0 * lost / (lost + tc.c.rx_packets));
			ret = XL_EXIT_RUNTIME;
		}
	}
	if (pr.samples)
		xl_cmd_prof_print(stdout, &pr, "", XL_PROF_TOP);
	if (row) {
		bool rxd = a->c.app == XL_XSK_RXDROP;
		uint64_t pk = rxd ? tc.c.rx_packets : tc.c.tx_packets;
		uint64_t by = rxd ? tc.c.rx_bytes : tc.c.tx_bytes;

		row->size = pk ? (uint32_t)((by + pk / 2) / pk) : 0;
		xl_row_finish(row);
		xl_cmd_print_verdict(row);
	}
	if (a->c.audit) {
		if (xl_xsk_app__audit(app, audit, sizeof(audit))) {
			/* After the device vanished, frames it held never came back. */
			printf("audit: %s\n", audit);
			if (!x.vanished) {
				xl_err("frame audit failed");
				ret = XL_EXIT_RUNTIME;
			}
		} else {
			printf("audit: %s\n", audit);
		}
	}
	return ret;
}

static int xsk_in_ns(struct xsk_args *ap, const char *appname);

int cmd_xsk(int argc, char **argv)
{
	static const char *const apps[] = { "rxdrop", "txpush", "l2fwd", NULL };
	struct xsk_args a = { .interval_ns = 1000000000ull, .reps = 1 };
	char summary[160], name[32];
	int idx, r;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *f = argc < 2 ? stderr : stdout;

		fprintf(f, "Usage: xdplab xsk rxdrop|txpush|l2fwd [options] IFACE\n"
			   "  rxdrop   receive, count, recycle frames to the fill ring\n"
			   "  txpush   push prebuilt frames out, reap completions\n"
			   "  l2fwd    swap MACs and send every frame back out\n"
			   "'xdplab xsk APP --help' for options.\n");
		return argc < 2 ? XL_EXIT_USAGE : XL_EXIT_OK;
	}
	for (r = 0; apps[r] && strcmp(apps[r], argv[1]); r++)
		;
	if (!apps[r]) {
		fprintf(stderr, "xdplab xsk: unknown application '%s' (accepted: rxdrop, txpush, l2fwd)\n",
			argv[1]);
		return XL_EXIT_USAGE;
	}
	xl_xsk_config_defaults(&a.c);
	a.c.app = r;
	snprintf(name, sizeof(name), "xsk %s", apps[r]);
	snprintf(summary, sizeof(summary), "AF_XDP %s on IFACE: rx/s, tx/s and the kernel's XDP_STATISTICS every interval.",
		 apps[r]);
	a.spec = (struct xl_cmd_spec){ name, "IFACE", summary, xsk_opts,
				       sizeof(xsk_opts) / sizeof(xsk_opts[0]) };
	/* argv[1] is the application: its options and IFACE follow. */
	idx = xl_cmd_parse_iface(&a.spec, argc - 1, argv + 1, on_opt, &a, &a.c.ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (xl_cmd_check_reps(&a.spec, a.reps, a.duration_ns))
		return XL_EXIT_USAGE;
	if (check_combinations(&a))
		return XL_EXIT_USAGE;
	/* Before --netns: bpf_jit_kallsyms exists in the initial namespace only. */
	xl_cmd_prof_open(&a.prof);
	r = xsk_in_ns(&a, apps[a.c.app]);
	xl_cmd_prof_close(&a.prof);
	return r;
}

/* cmd_xsk() once the options are parsed: the namespace, checks, the run. */
static int xsk_in_ns(struct xsk_args *ap, const char *appname)
{
	static struct xl_row_result row;
	struct xsk_args a = *ap; /* a copy: the body reads as cmd_xsk()'s did */
	struct xl_cmd_records rec = { 0 };
	struct xl_xsk_app *app;
	char name[32], msg[512], rowname[40];
	int r;

	if (a.netns) {
		int rc = xl_cmd_enter_netns(&a.spec, a.netns);

		if (rc)
			return rc;
	}
	if (xl_xsk_config_check(&a.c, msg, sizeof(msg)) ||
	    xl_xsk_check_iface(&a.c, msg, sizeof(msg))) {
		xl_usage_error(&a.spec, "%s", msg);
		return XL_EXIT_USAGE;
	}
	if (a.c.app == XL_XSK_TXPUSH && txpush_spec(&a))
		return XL_EXIT_USAGE;
	if (xl_xsk_fill_warning(&a.c, msg, sizeof(msg)))
		xl_warn("%s", msg);
	/* A UMEM that cannot be locked is a usage error: fewer or smaller frames. */
	if (xl_memlock_ensure((uint64_t)a.c.frames * a.c.frame_size * a.c.queues))
		return XL_EXIT_USAGE;
	{
		char cause[256];

		/* Down at the start: nothing would pass, say why instead of rates. */
		if (xl_link_down_cause(if_nametoindex(a.c.ifname), cause, sizeof(cause)) == 1) {
			xl_err("cannot run %s on %s: %s", appname, a.c.ifname, cause);
			return XL_EXIT_RUNTIME;
		}
	}
	/* Every input rule was checked above: what fails now is the system. */
	app = xl_xsk_app__create(&a.c);
	if (!app)
		return XL_EXIT_RUNTIME;
	if (a.c.queues > 1)
		snprintf(name, sizeof(name), "queues %u..%u", a.c.queue, a.c.queue + a.c.queues - 1);
	else
		snprintf(name, sizeof(name), "queue %u", a.c.queue);
	{
		uint32_t chunk, nframes;
		bool unaligned, huge;

		/* What is in effect, read back from the UMEM as registered. */
		xl_xsk_app__umem_facts(app, &chunk, &nframes, &unaligned, &huge);
		fprintf(stderr, "xdplab: %s on %s %s, %s mode, %s%s, %s%s, UMEM %u x %u-byte chunks %s%s; Ctrl-C to stop\n",
			appname, a.c.ifname, name, a.c.mode == XL_MODE_SKB ? "XDP_SKB" : "XDP_DRV",
			xl_xsk_app__zerocopy(app) ? "zero-copy" : "copy",
			a.c.need_wakeup ? " need_wakeup" : "",
			a.c.busy_poll ? "busy-poll" : a.c.poll ? "poll()" : "busy-spin",
			a.wait_chosen ? "" : " (default)", nframes, chunk,
			unaligned ? "unaligned" : "aligned", huge ? ", hugepages" : "");
		if (a.c.sched_policy != SCHED_OTHER)
			fprintf(stderr, "xdplab: socket threads %s priority %d\n",
				a.c.sched_policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR",
				a.c.sched_prio);
	}
	snprintf(rowname, sizeof(rowname), "xsk-%s", appname); /* the lab's row name */
	xl_cmd_row_init(&row, rowname, NULL, "xsk", "XDP_REDIRECT", appname,
			xl_xsk_app__zerocopy(app) ? "zc" : a.c.mode == XL_MODE_SKB ? "skb" : "native",
			xl_napi_kthread_pid(a.c.ifname) ? "threaded" : "softirq");
	row.engine = a.c.app == XL_XSK_TXPUSH ? "xsk" : "external";
	row.judged = "app-cpu";
	r = run(&a, app, &row, a.json ? &rec : NULL);
	ap->prof = a.prof; /* run() may have closed the session: the caller closes what is left */
	xl_xsk_app__destroy(app);
	return xl_cmd_json_finish(a.json, a.spec.name, &(struct xl_cmd_loop){
			.interval_ns = a.interval_ns, .duration_ns = a.duration_ns, .reps = a.reps,
			.rec = &rec }, &row, r);
}
