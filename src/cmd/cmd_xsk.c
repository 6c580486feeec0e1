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
#include "report_cli.h"
#include "json_cli.h"
#include "pkt_cli.h"
#include "run_opts.h"
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

#define A struct xsk_args
static const char *const copy_modes[] = { "auto", "copy", "zero-copy", NULL };
static const int copy_vals[] = { XL_XSK_AUTO, XL_XSK_COPY, XL_XSK_ZEROCOPY };
static const char *const policies[] = { "other", "fifo", "rr", "SCHED_OTHER", "SCHED_FIFO",
					"SCHED_RR", NULL };
static const int policy_vals[] = { SCHED_OTHER, SCHED_FIFO, SCHED_RR,
				   SCHED_OTHER, SCHED_FIFO, SCHED_RR };
static const char *const formats[] = { "pcap", "pcapng", NULL };
static const int format_vals[] = { 1, 2 };
/* A ring size: a power of two (xl_xsk_check_ring_size(), the kernel's rule). */
#define XSK_RING(f) XL_UINT(A, c.f, 0, UINT32_MAX), .check = xl_xsk_check_ring_size

static const struct xl_opt xsk_opts[] = {
	/* Any number here: the rules (minimum, power of two, even, page size)
	 * are checked after, each named in its message. */
	{ "frame-size", 'f', "BYTES", "UMEM chunk: 2048 or 4096, any 2048..page size with --unaligned (default 4096)",
	  XL_UINT(A, c.frame_size, 0, UINT32_MAX),
	  .hint = "-f is --frame-size, as in xdpsock; the UDP flows of txpush are --flows" },
	{ "frames", 0, "N", "UMEM frames per socket, {range} (default: what keeps the fill ring full: rxdrop 16384, l2fwd 20480, txpush 4096; with --cpu rxdrop 4096, l2fwd 8192)",
	  XL_UINT(A, c.frames, 1, XL_XSK_MAX_FRAMES), XL_SEEN(A, frames_seen) },
	{ "headroom", 0, "BYTES", "extra RX headroom per frame (default 0)", XL_UINT(A, c.headroom, 0, 65536) },
	{ "unaligned", 0, NULL, "unaligned chunks (XDP_UMEM_UNALIGNED_CHUNK_FLAG)", XL_FLAG(A, c.unaligned) },
	{ "hugepages", 0, NULL, "back the UMEM with hugepages (normal pages with a notice if none)", XL_FLAG(A, c.hugepages) },
	{ "rx-size", 0, "N", "RX ring entries, power of two 1..65536 (default 8192; 2048 with --cpu)",
	  XSK_RING(rx_size), XL_SEEN(A, rings_seen) },
	{ "tx-size", 0, "N", "TX ring entries, power of two (default 2048)", XSK_RING(tx_size) },
	{ "fill-size", 0, "N", "fill ring entries, power of two (default 8192; 2048 with --cpu)",
	  XSK_RING(fill_size), XL_SEEN(A, rings_seen) },
	{ "comp-size", 0, "N", "completion ring entries, power of two (default 2048)", XSK_RING(comp_size) },
	{ "batch", 'b', "N", "descriptors per peek/reserve, {range} (default {default})", .alias = "batch-size",
	  XL_UINT(A, c.batch, 1, XL_XSK_MAX_BATCH) },
	XL_RUN(MODE, A, c.mode, .no_short = true, .help = "XDP attach mode: native or drv (XDP_DRV, default), or skb (XDP_SKB)"),
	/* xdp-bench's spelling of --copy / --zero-copy / neither. */
	{ "copy-mode", 'C', "MODE", "auto (default: zero-copy, else copy with a notice), copy or zero-copy",
	  XL_ENUM(A, c.copy, copy_modes, copy_vals), XL_SEEN(A, copy_mode_seen) },
	{ "copy", 'c', NULL, "bind with XDP_COPY (default: try zero-copy, fall back with a notice)",
	  XL_SET(A, c.copy, XL_XSK_COPY), XL_SEEN(A, copy_seen) },
	{ "zero-copy", 'z', NULL, "bind with XDP_ZEROCOPY; fail if the driver lacks it",
	  XL_SET(A, c.copy, XL_XSK_ZEROCOPY), XL_SEEN(A, zc_seen) },
	{ "need-wakeup", 0, NULL, "XDP_USE_NEED_WAKEUP: kick only when the kernel asks (default)",
	  XL_FLAG(A, c.need_wakeup), XL_SEEN(A, wakeup_seen) },
	{ "no-need-wakeup", 'm', NULL, "kick the kernel after every batch",
	  XL_SET(A, c.need_wakeup, false), XL_SEEN(A, nowakeup_seen) },
	{ "poll", 'p', NULL, "sleep in poll() when the RX ring is empty (default for rxdrop in drv mode without --cpu)",
	  XL_FLAG(A, c.poll), XL_SEEN(A, poll_seen) },
	{ "spin", 0, NULL, "busy-spin on the rings instead (takes a whole CPU; default for rxdrop in drv mode with --cpu)",
	  XL_SET(A, c.poll, false), XL_SEEN(A, spin_seen) },
	{ "busy-poll", 'B', NULL, "SO_PREFER_BUSY_POLL + SO_BUSY_POLL: a syscall per loop busy-polls the queue's NAPI; veth has none, so there the loop just never sleeps (default for l2fwd, and rxdrop in skb mode)",
	  XL_FLAG(A, c.busy_poll), XL_SEEN(A, busy_seen) },
	{ "busy-budget", 0, "N", "SO_BUSY_POLL_BUDGET in packets, {range} (default {default})",
	  XL_UINT(A, c.busy_budget, 1, 65536) },
	{ "queue", 'q', "Q", "first queue (default 0)", XL_UINT(A, c.queue, 0, XL_XSK_MAX_QUEUES - 1),
	  .hint = "-q is --queue, as in xdpsock; quiet is -Q" },
	{ "queues", 0, "N", "sockets, one per queue and thread, {range} (default 1)",
	  XL_UINT(A, c.queues, 1, XL_XSK_MAX_QUEUES) },
	{ "shared-umem", 0, NULL, "one UMEM for all sockets (XDP_SHARED_UMEM)", XL_FLAG(A, c.shared_umem) },
	{ "frags", 0, NULL, "multi-buffer (XDP_USE_SG): frames longer than one chunk", XL_FLAG(A, c.frags) },
	{ "audit", 'a', NULL, "track every frame and prove at exit that each is in exactly one place", XL_FLAG(A, c.audit) },
	{ "cpu", 0, "CPU", "pin socket i's thread to CPU+i (default: not pinned)",
	  XL_UINT(A, c.first_cpu, 0, XL_OPT_MAX_CPU) },
	{ "policy", 0, "POLICY", "scheduling policy of the socket threads: other (default), fifo or rr (also SCHED_OTHER, SCHED_FIFO, SCHED_RR)",
	  XL_ENUM(A, c.sched_policy, policies, policy_vals) },
	{ "schpri", 0, "PRIO", "priority with --policy fifo or rr, {range} (default 1)", XL_UINT(A, c.sched_prio, 1, 99) },
	XL_RUN(INTERVAL, A, interval_ns),
	XL_RUN(DURATION, A, duration_ns),
	XL_RUN(EXTENDED, A, extended, .help = "also print wakeups/s, batch fill levels, TX ring short"),
	XL_RUN(QUIET, A, quiet, .short_name = 'Q'),
	XL_RUN(NETNS, A, netns),
	XL_RUN(PROFILE, A, prof.on),
	XL_RUN(PROFILE_DIR, A, prof.dir),
	XL_RUN(REPS, A, reps),
	XL_RUN(JSON, A, json),
	{ "count", 'n', "N", "txpush: frames to send over all sockets, 0 = no limit (default 0)",
	  XL_UINT(A, c.count, 0, UINT64_MAX / 2) },
	{ "bursts", 0, "R", "txpush: send --count, wait until all of it is completed, R times on the same sockets (total count x R), {range} (default 1)",
	  XL_UINT(A, c.bursts, 1, XL_XSK_MAX_BURSTS) },
	{ "rate", 'r', "PPS", "txpush: frames per second over all sockets, 0 = no limit (default 0)",
	  XL_UINT(A, c.rate_pps, 0, 1000000000) },
	{ "size", 's', "BYTES", "txpush: frame size without FCS, 60..MTU+14 (default 64)",
	  XL_UINT(A, c.spec.size, XL_PKT_MIN_SIZE, XL_PKT_MAX_SIZE) },
	{ "flows", 0, "N", "txpush: UDP source ports to rotate, {range} (default 1)",
	  XL_UINT(A, c.flows, 1, XL_GEN_MAX_FLOWS) },
	{ "src-mac", 0, "MAC", "txpush: source MAC (default: the interface's)", XL_STR(A, src_mac) },
	{ "dst-mac", 0, "MAC", "txpush: destination MAC (default: the veth peer's, else broadcast)", XL_STR(A, dst_mac) },
	{ "src-ip", 0, "ADDR", "txpush: source IPv4 (default 198.18.0.2)",
	  XL_IPV4(A, c.spec.src_ip4), XL_SEEN(A, src_ip_set) },
	{ "dst-ip", 0, "ADDR", "txpush: destination IPv4 (default 198.18.0.1)",
	  XL_IPV4(A, c.spec.dst_ip4), XL_SEEN(A, dst_ip_set) },
	{ "vlan-tag", 'V', NULL, "txpush: an 802.1Q VLAN tag in every frame (xdpsock's -V)", .alias = "tx-vlan",
	  XL_FLAG(A, vlan_tag) },
	{ "tx-vlan-id", 'J', "VID", "txpush with -V: the tag's VID, {range} (default 1)",
	  XL_UINT(A, vlan_id, 0, 4095), XL_SEEN(A, vlan_id_seen) },
	{ "tx-vlan-pri", 'K', "PCP", "txpush with -V: the tag's priority, {range} (default 0)",
	  XL_UINT(A, vlan_pri, 0, 7), XL_SEEN(A, vlan_pri_seen) },
	{ "tstamp", 'y', NULL, "txpush: a stamp in every frame's UDP payload, the pktgen header (sequence number, CLOCK_MONOTONIC send time) that xdplab latency reads (xdpsock's -y)",
	  XL_FLAG(A, c.tstamp) },
	{ "verify", 0, NULL, "rxdrop: check every frame's IPv4/UDP checksums (csum_bad)", XL_FLAG(A, c.verify) },
	{ "dump", 0, "FILE", "rxdrop: write every received frame to a pcap or pcapng file", XL_STR(A, c.dump_path) },
	{ "format", 'F', "FORMAT", "rxdrop --dump: pcap or pcapng (default: pcapng when FILE ends in .pcapng, else pcap)",
	  XL_ENUM(A, dump_format, formats, format_vals) },
	{ "snaplen", 0, "BYTES", "rxdrop --dump: bytes kept of each frame, {range} (default: all)",
	  XL_UINT(A, c.dump_snaplen, 14, 65535) },
	{ "starve-fill", 0, NULL, "rxdrop: never fill the fill ring (shows rx_fill_ring_empty_descs)", XL_FLAG(A, c.starve_fill) },
	{ "bind-timeout", 0, "SECONDS", "retry a busy queue (EBUSY) this long, {range} (default 3)",
	  XL_SECONDS(A, c.bind_timeout_ns, 0, 60) },
};
#undef XSK_RING
#undef A

/* Options that only make sense together, or for one application. */
static int check_combinations(struct xsk_args *a)
{
	if (a->copy_mode_seen && (a->copy_seen || a->zc_seen))
		return xl_usage_error(a->spec, "--copy-mode and --copy/--zero-copy conflict");
	if (a->c.sched_prio && a->c.sched_policy == SCHED_OTHER)
		return xl_usage_error(a->spec, "--schpri needs --policy fifo or rr (SCHED_OTHER has no priority)");
	if (a->c.sched_policy != SCHED_OTHER && !a->c.sched_prio)
		a->c.sched_prio = 1;
	struct xl_xsk_config *c = &a->c;
	bool tx = c->app == XL_XSK_TXPUSH, rxd = c->app == XL_XSK_RXDROP;

	if (a->copy_seen && a->zc_seen)
		return xl_usage_error(a->spec, "--copy and --zero-copy conflict");
	if (a->wakeup_seen && a->nowakeup_seen)
		return xl_usage_error(a->spec, "--need-wakeup and --no-need-wakeup conflict");
	if (a->poll_seen && a->spin_seen)
		return xl_usage_error(a->spec, "--poll and --spin conflict");
	if (c->busy_poll && a->poll_seen)
		return xl_usage_error(a->spec, "--busy-poll and --poll conflict (busy polling replaces poll())");
	if (c->busy_poll && a->spin_seen)
		return xl_usage_error(a->spec, "--busy-poll and --spin conflict");
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
		return xl_usage_error(a->spec, "--count, --bursts, --rate, --size, --flows and the address options are for txpush");
	if ((a->vlan_id_seen || a->vlan_pri_seen) && !a->vlan_tag)
		return xl_usage_error(a->spec, "--tx-vlan-id and --tx-vlan-pri need --vlan-tag (-V)");
	if (a->vlan_tag && !tx)
		return xl_usage_error(a->spec, "--vlan-tag is for txpush");
	if (c->tstamp && !tx)
		return xl_usage_error(a->spec, "--tstamp is for txpush (the receiver is xdplab latency)");
	if (a->vlan_tag) {
		c->spec.nvlans = 1;
		c->spec.vlan_id[0] = a->vlan_id_seen ? a->vlan_id : 1;
		c->spec.vlan_prio[0] = a->vlan_pri;
	}
	if (c->dump_snaplen && !c->dump_path)
		return xl_usage_error(a->spec, "--snaplen is for --dump");
	if (a->dump_format && !c->dump_path)
		return xl_usage_error(a->spec, "--format is for --dump");
	if (c->dump_path) {
		/* As dump -w: the name's ending decides unless --format says. */
		size_t len = strlen(c->dump_path);

		c->dump_pcapng = a->dump_format ? a->dump_format == 2 :
				 len >= 7 && !strcmp(c->dump_path + len - 7, ".pcapng");
	}
	if (!rxd && (c->verify || c->dump_path || c->starve_fill))
		return xl_usage_error(a->spec, "--verify, --dump and --starve-fill are for rxdrop");
	/* They look at one descriptor at a time: a multi-buffer frame has several. */
	if (c->frags && (c->verify || c->dump_path))
		return xl_usage_error(a->spec, "--verify and --dump do not take --frags (they inspect one descriptor, a frame may have several)");
	/* --rate vs --queues and --frags vs --batch/--tx-size: xl_xsk_config_check(). */
	if (c->shared_umem && c->queues < 2)
		return xl_usage_error(a->spec, "--shared-umem needs --queues 2 or more");
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
	err = xl_cmd_pkt_macs(a->spec, a->c.ifname, a->src_mac, a->dst_mac, s, NULL);
	return err == -ENODEV ? 0 : err;
}

static int xsk_in_ns(struct xsk_args *ap, const char *appname);

int cmd_xsk(int argc, char **argv)
{
	static const char *const apps[] = { "rxdrop", "txpush", "l2fwd", "selftest", NULL };
	struct xsk_args a, defs = { .interval_ns = 1000000000ull, .reps = 1 };
	struct xl_cmd_spec spec;
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
	/* The defaults are the library's (xl_xsk_config_defaults()), and the application's. */
	xl_xsk_config_defaults(&defs.c);
	defs.c.app = r;
	snprintf(name, sizeof(name), "xsk %s", apps[r]);
	snprintf(summary, sizeof(summary), "AF_XDP %s on IFACE: rx/s, tx/s and the kernel's XDP_STATISTICS every interval.",
		 apps[r]);
	spec = (struct xl_cmd_spec){ name, "IFACE", summary, xsk_opts,
				     sizeof(xsk_opts) / sizeof(xsk_opts[0]), &defs, sizeof(defs) };
	/* argv[1] is the application: its options and IFACE follow. */
	idx = xl_cmd_parse_iface(&spec, argc - 1, argv + 1, NULL, &a, &a.c.ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	a.spec = &spec;
	if (xl_cmd_check_reps(a.spec, a.reps, a.duration_ns))
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
	struct xl_interval_recs rec = { 0 };
	struct xl_xsk_app *app;
	char name[32], msg[512], rowname[40], *pace_json = NULL;
	int r, napi_pid;

	if (a.netns) {
		int rc = xl_cmd_enter_netns(a.spec, a.netns);

		if (rc)
			return rc;
	}
	if (xl_xsk_config_check(&a.c, msg, sizeof(msg)) ||
	    xl_xsk_check_iface(&a.c, msg, sizeof(msg))) {
		xl_usage_error(a.spec, "%s", msg);
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
	xl_keep_off_napi_of(napi_pid, a.c.ifname, NULL);
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
	xl_row_init_single(&row, rowname, NULL, "xsk", "XDP_REDIRECT", appname,
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
	r = xl_cmd_json_finish(a.json, a.spec->name, &(struct xl_cmd_loop){
			.interval_ns = a.interval_ns, .duration_ns = a.duration_ns, .reps = a.reps,
			.rec = &rec, .extra_json = pace_json }, &row, r);
	free(pace_json);
	return r;
}
