// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab xsk rxdrop|txpush|l2fwd: the AF_XDP applications. This file owns
 * the options (table, parsing, the checks of their combinations) and the
 * set-up in the interface's netns; the measured run and its report are in
 * cmd_xsk_run.c (shared state: xsk_cli.h).
 */
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
#include "pace_cli.h"
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
#include "xsk_cli.h"

enum {
	O_FRAME_SIZE, O_FRAMES, O_HEADROOM, O_UNALIGNED, O_HUGEPAGES, O_RX_SIZE, O_TX_SIZE,
	O_FILL_SIZE, O_COMP_SIZE, O_BATCH, O_MODE, O_COPY, O_ZEROCOPY, O_NO_WAKEUP, O_POLL,
	O_BUSY_POLL, O_BUSY_BUDGET, O_QUEUE, O_QUEUES, O_SHARED, O_FRAGS, O_AUDIT, O_CPU, O_POLICY, O_SCHPRI,
	O_COUNT, O_BURSTS, O_RATE, O_SIZE, O_FLOWS,
	O_SRC_IP, O_DST_IP, O_VERIFY, O_DUMP, O_STARVE, O_BIND_TIMEOUT,
	O_NEED_WAKEUP, O_SPIN, O_COPY_MODE, O_SNAPLEN, O_FORMAT,
};

static const struct xl_opt xsk_opts[] = {
	{ "frame-size", 'f', "BYTES", "UMEM chunk: 2048 or 4096, any 2048..page size with --unaligned (default 4096)", O_FRAME_SIZE },
	{ "frames", 0, "N", "UMEM frames per socket, 1..4194304 (default: what keeps the fill ring full: rxdrop 16384, l2fwd 20480, txpush 4096; with --cpu rxdrop 4096, l2fwd 8192)", O_FRAMES },
	{ "headroom", 0, "BYTES", "extra RX headroom per frame (default 0)", O_HEADROOM },
	{ "unaligned", 0, NULL, "unaligned chunks (XDP_UMEM_UNALIGNED_CHUNK_FLAG)", O_UNALIGNED },
	{ "hugepages", 0, NULL, "back the UMEM with hugepages (normal pages with a notice if none)", O_HUGEPAGES },
	{ "rx-size", 0, "N", "RX ring entries, power of two 1..65536 (default 8192; 2048 with --cpu)", O_RX_SIZE },
	{ "tx-size", 0, "N", "TX ring entries, power of two (default 2048)", O_TX_SIZE },
	{ "fill-size", 0, "N", "fill ring entries, power of two (default 8192; 2048 with --cpu)", O_FILL_SIZE },
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
	{ "busy-poll", 'B', NULL, "SO_PREFER_BUSY_POLL + SO_BUSY_POLL: a syscall per loop busy-polls the queue's NAPI; veth has none, so there the loop just never sleeps (default for l2fwd, and rxdrop in skb mode)", O_BUSY_POLL },
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
	{ "src-mac", 0, "MAC", "txpush: source MAC (default: the interface's)", XL_OPT_SRC_MAC },
	{ "dst-mac", 0, "MAC", "txpush: destination MAC (default: the veth peer's, else broadcast)", XL_OPT_DST_MAC },
	{ "src-ip", 0, "ADDR", "txpush: source IPv4 (default 198.18.0.2)", O_SRC_IP },
	{ "dst-ip", 0, "ADDR", "txpush: destination IPv4 (default 198.18.0.1)", O_DST_IP },
	{ "verify", 0, NULL, "rxdrop: check every frame's IPv4/UDP checksums (csum_bad)", O_VERIFY },
	{ "dump", 0, "FILE", "rxdrop: write every received frame to a pcap or pcapng file", O_DUMP },
	{ "format", 'F', "FORMAT", "rxdrop --dump: pcap or pcapng (default: pcapng when FILE ends in .pcapng, else pcap)", O_FORMAT },
	{ "snaplen", 0, "BYTES", "rxdrop --dump: bytes kept of each frame, 14..65535 (default: all)", O_SNAPLEN },
	{ "starve-fill", 0, NULL, "rxdrop: never fill the fill ring (shows rx_fill_ring_empty_descs)", O_STARVE },
	{ "bind-timeout", 0, "SECONDS", "retry a busy queue (EBUSY) this long, 0..60 (default 3)", O_BIND_TIMEOUT },
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
	int r;

	if (!xl_cmd_prof_opt(&a->prof, id, arg))
		return 0;
	r = xl_cmd_run_opt(&a->spec, id, arg, &(struct xl_run_opts){ &a->interval_ns,
				  &a->duration_ns, &a->extended, &a->netns, .quiet = &a->quiet,
				  .reps = &a->reps, .json = &a->json });
	if (r <= 0)
		return r;
	if (!xl_cmd_mac_opt(id, arg, &a->src_mac, &a->dst_mac))
		return 0;
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
		a->rings_seen = true;
		return ring_opt(a, "--rx-size", arg, &c->rx_size);
	case O_TX_SIZE:
		return ring_opt(a, "--tx-size", arg, &c->tx_size);
	case O_FILL_SIZE:
		a->rings_seen = true;
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
		return XL_PARSE_INTO(&a->spec, "--cpu", arg, 0, ncpu - 1, c->first_cpu);
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
		return XL_PARSE_INTO(&a->spec, "--schpri", arg, 1, 99, c->sched_prio);
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
	case O_FORMAT: {
		static const char *const formats[] = { "pcap", "pcapng", NULL };
		int f = xl_parse_choice(&a->spec, "--format", arg, formats);

		if (f < 0)
			return f;
		a->dump_format = f + 1;
		return 0;
	}
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
	/* Unless told, wait as docs/afxdp.md says (drv rxdrop pinned: spin, as xdpsock does). */
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
	if (a->dump_format && !c->dump_path)
		return xl_usage_error(&a->spec, "--format is for --dump");
	if (c->dump_path) {
		/* As dump -w: the name's ending decides unless --format says. */
		size_t len = strlen(c->dump_path);

		c->dump_pcapng = a->dump_format ? a->dump_format == 2 :
				 len >= 7 && !strcmp(c->dump_path + len - 7, ".pcapng");
	}
	if (!rxd && (c->verify || c->dump_path || c->starve_fill))
		return xl_usage_error(&a->spec, "--verify, --dump and --starve-fill are for rxdrop");
	/* They look at one descriptor at a time: a multi-buffer frame has several. */
	if (c->frags && (c->verify || c->dump_path))
		return xl_usage_error(&a->spec, "--verify and --dump do not take --frags (they inspect one descriptor, a frame may have several)");
	/* --rate vs --queues and --frags vs --batch/--tx-size: xl_xsk_config_check(). */
	if (c->shared_umem && c->queues < 2)
		return xl_usage_error(&a->spec, "--shared-umem needs --queues 2 or more");
	/* Unless told, RX and fill rings by placement (2048 pinned, 8192 not),
	 * and enough frames to keep the fill ring full (not pinned: rxdrop
	 * 16384, l2fwd 20480; pinned: 4096, 8192; xl_xsk_frames_needed()). */
	if (!a->rings_seen)
		xl_xsk_config_rings_default(c);
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

static int xsk_in_ns(struct xsk_args *ap, const char *appname);

int cmd_xsk(int argc, char **argv)
{
	static const char *const apps[] = { "rxdrop", "txpush", "l2fwd", "selftest", NULL };
	struct xsk_args a = { .interval_ns = 1000000000ull, .reps = 1 };
	char summary[160], name[32];
	int idx, r, st;

	r = xl_cmd_subcommand(argc, argv, "xsk", "application", apps,
		"Usage: xdplab xsk rxdrop|txpush|l2fwd|selftest [options] IFACE\n"
		"  rxdrop   receive, count, recycle frames to the fill ring\n"
		"  txpush   push prebuilt frames out, reap completions\n"
		"  l2fwd    swap MACs and send every frame back out\n"
		"  selftest the AF_XDP conformance suite (xskxceiver's cases) on a link, TAP output\n"
		"'xdplab xsk APP --help' for options.\n", &st);
	if (r < 0)
		return st;
	if (r == 3) /* its own options and output */
		return cmd_xsk_selftest(argc - 1, argv + 1);
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
	if (a.json && !xl_cmd_out_open(a.json)) /* a bad path fails before the run */
		return XL_EXIT_RUNTIME;
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
	char name[32], msg[512], rowname[40], *pace_json = NULL;
	int r, napi_pid;

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
	/*
	 * The main (report) thread keeps off the NAPI kthread's CPUs as drop's,
	 * redirect's and run's process does, --cpu or not: only the socket
	 * threads moved, and the reporter woke on the CPU it measures. Before
	 * the socket threads start; they set their own CPUs.
	 */
	napi_pid = xl_napi_kthread_pid(a.c.ifname); /* once: also the row's wiring */
	xl_cmd_keep_off_napi(napi_pid, a.c.ifname, NULL);
	if (a.c.queues > 1)
		snprintf(name, sizeof(name), "queues %u..%u", a.c.queue, a.c.queue + a.c.queues - 1);
	else
		snprintf(name, sizeof(name), "queue %u", a.c.queue);
	{
		uint32_t chunk, nframes;
		bool unaligned, huge;

		/* What is in effect, read back from the UMEM as registered. */
		xl_xsk_app__umem_facts(app, &chunk, &nframes, &unaligned, &huge);
		xl_xsk_app__placement(app, msg, sizeof(msg));
		fprintf(stderr, "xdplab: %s\n", msg);
		fprintf(stderr, "xdplab: %s on %s %s, %s mode, %s%s, %s%s, UMEM %u x %u-byte chunks %s%s; Ctrl-C to stop\n",
			appname, XL_ESC(a.c.ifname), name, a.c.mode == XL_MODE_SKB ? "XDP_SKB" : "XDP_DRV",
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
			napi_pid ? "threaded" : "softirq");
	row.engine = a.c.app == XL_XSK_TXPUSH ? "xsk" : "external";
	row.judged = "app-cpu";
	r = xl_cmd_xsk_run(&a, app, &row, a.json ? &rec : NULL);
	ap->prof = a.prof; /* xl_cmd_xsk_run() may have closed the session: the caller closes what is left */
	if (a.json && a.c.app == XL_XSK_TXPUSH && a.c.rate_pps) {
		struct xl_pace_stats ps;

		/* With a rate: what the sockets' pacers did (docs/results.md). */
		xl_xsk_app__pace(app, &ps);
		pace_json = xl_cmd_pace_json(&ps, a.c.rate_pps);
	}
	xl_xsk_app__destroy(app);
	r = xl_cmd_json_finish(a.json, a.spec.name, &(struct xl_cmd_loop){
			.interval_ns = a.interval_ns, .duration_ns = a.duration_ns, .reps = a.reps,
			.rec = &rec, .extra_json = pace_json }, &row, r);
	free(pace_json);
	return r;
}
