// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab dump IFACE: the frames an XDP hook sees, to a pcap file, with the
 * books of where every frame went (docs/dump.md). Exit status: 0 complete,
 * 3 the capture lost frames (ring full), 1 runtime failure, 2 usage.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/socket.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/dump.h"
#include "xdplab/log.h"
#include "xdplab/pcapfile.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"

/** Exit status of a capture that completed but lost frames. */
#define XL_EXIT_LOSSY 3

struct dump_args {
	struct xl_dump_opts o;
	uint64_t interval_ns, duration_ns;
	bool quiet;
	const char *netns;
	int format; /* -1: by the file name, 0 pcap, 1 pcapng */
	bool hex;   /* -x: every frame written also on stdout, in hex */
	bool list;  /* -D: list the interfaces and their XDP programs, no capture */
	uint32_t ring_mib; /* --ring-size: o.ring_bytes once parsed */
	unsigned int n_ifs; /* the IFACEs given: o.ifnames (2 or more) or o.ifname */
	const char *const *ifs;
};

/* --ring-size: a power of two (the BPF ring buffer's rule). */
static int pow2_mib(const char *opt, uint64_t v, char *msg, size_t len)
{
	if (!(v & (v - 1)))
		return 0;
	snprintf(msg, len, "%s: %llu is not a power of two (accepted: 1, 2, 4 .. 1024)", opt,
		 (unsigned long long)v);
	return -EINVAL;
}

/* -x's context: where it prints, and the libpcap capture's direction. */
struct hex_out {
	FILE *o;
	enum xl_live_dir dir;
};

/*
 * -x: one frame on stdout, "SEC.NSEC: LEN bytes, captured CAPLEN, ifindex
 * I, rx queue Q, @HOOK[ ACTION]" ("ifindex I, @pcap in|out|inout" from
 * libpcap, which knows no queue), then its bytes 16 a line: offset, hex,
 * and the printable ASCII ('.' for the rest: a frame's bytes never reach
 * the terminal raw). The layout of tcpdump -X and xdpdump -x.
 */
static void print_frame(void *ctx, const struct xl_dump_hdr *h, const uint8_t *f, uint32_t caplen,
			uint64_t realtime_ns)
{
	static const char *const hooks[XL_DUMP_HOOKS] = { "own", "entry", "exit" };
	static const char *const dir[] = { "in", "out", "inout" };
	const struct hex_out *x = ctx;
	FILE *o = x->o;
	char line[96];
	uint32_t off, k;
	int n;

	fprintf(o, "%llu.%09llu: %u bytes, captured %u, ifindex %u, ",
		(unsigned long long)(realtime_ns / 1000000000ull),
		(unsigned long long)(realtime_ns % 1000000000ull), h->len, caplen, h->ifindex);
	if (h->hook == XL_DUMP_HOOK_PCAP)
		fprintf(o, "@pcap %s", dir[x->dir <= XL_LIVE_INOUT ? x->dir : XL_LIVE_IN]);
	else
		fprintf(o, "rx queue %u, @%s", h->rxq, h->hook < XL_DUMP_HOOKS ? hooks[h->hook] : "?");
	if (h->action != 0xffff)
		fprintf(o, " %s", xl_xdp_action_name(h->action));
	fputc('\n', o);
	for (off = 0; off < caplen; off += 16) {
		n = snprintf(line, sizeof(line), "  0x%04x: ", off);
		for (k = 0; k < 16; k++)
			n += off + k < caplen ? snprintf(line + n, sizeof(line) - n, " %02x", f[off + k]) :
						snprintf(line + n, sizeof(line) - n, "   ");
		n += snprintf(line + n, sizeof(line) - n, "  ");
		for (k = 0; k < 16 && off + k < caplen; k++)
			line[n++] = f[off + k] >= 0x20 && f[off + k] < 0x7f ? (char)f[off + k] : '.';
		line[n] = 0;
		fprintf(o, "%s\n", line);
	}
}

#define A struct dump_args
/* "entry,exit" is xdpdump's --rx-capture spelling of both (either order). */
static const char *const hook_words[] = { "own", "entry", "exit", "both", "pcap", "entry,exit", "exit,entry", NULL };
static const int hook_vals[] = { XL_DUMP_OWN, XL_DUMP_ENTRY, XL_DUMP_EXIT, XL_DUMP_BOTH,
				 XL_DUMP_PCAP, XL_DUMP_BOTH, XL_DUMP_BOTH };
static const char *const actions[] = { "pass", "drop", NULL };
static const int action_vals[] = { XDP_PASS, XDP_DROP };
static const char *const formats[] = { "pcap", "pcapng", NULL };
static const char *const dirs[] = { "in", "out", "inout", NULL };
static const int dir_vals[] = { XL_LIVE_IN, XL_LIVE_OUT, XL_LIVE_INOUT };

static const struct xl_opt dump_opts[] = {
	{ "write", 'w', "FILE", "capture file to write, '-' for standard output (required without -x)", XL_STR(A, o.path) },
	{ "list-interfaces", 'D', NULL, "list the interfaces (of --netns) with the XDP program attached to each, then exit; no IFACE (as xdpdump -D)", XL_FLAG(A, list) },
	{ "hex", 'x', NULL, "print every frame written on standard output: a line of its facts, then its bytes in hex and ASCII, 16 a line (as xdpdump -x)", XL_FLAG(A, hex) },
	{ "format", 'F', "FORMAT", "pcap or pcapng (default: pcapng when FILE ends in .pcapng, else pcap)",
	  XL_ENUM(A, format, formats, NULL) },
	{ "snaplen", 's', "BYTES", "bytes kept per frame, {range} (default {default})",
	  XL_UINT(A, o.snaplen, 1, XL_DUMP_MAX_SNAPLEN) },
	{ "count", 'c', "N", "stop after writing N frames, 0 = no limit (default 0)",
	  XL_UINT(A, o.count, 0, UINT64_MAX) },
	{ "filter", 'f', "EXPR", "tcpdump-syntax filter (pcap-filter(7)), run in user space on each captured frame",
	  XL_STR(A, o.filter) },
	{ "hook", 0, "WHERE", "own (our XDP program), entry, exit or both (also entry,exit) (fentry/fexit of the attached program), or pcap (libpcap, after XDP); default entry if a program is attached (pcap if the kernel refuses fentry), else own",
	  XL_ENUM(A, o.where, hook_words, hook_vals), .alias = "rx-capture" },
	{ "direction", 'Q', "DIR", "in (what IFACE receives, the default), out (what it sends) or inout (both); out and inout capture with libpcap (--hook pcap, as tcpdump -Q): XDP_TX and redirected frames are not among them",
	  XL_ENUM(A, o.dir, dirs, dir_vals) },
	{ "action", 'a', "ACTION", "what our program returns at the own hook: pass or drop (default pass)",
	  XL_ENUM(A, o.own_action, actions, action_vals) },
	{ "ring-size", 0, "MIB", "ring buffer size in MiB, a power of two {range} (default {default})",
	  XL_UINT(A, ring_mib, 1, 1024), .check = pow2_mib },
	{ "program-names", 'p', "NAME", "entry/exit: the attached program to trace, by its function name: NAME, NAME@ID, or all (whichever is attached); implies --hook entry unless --hook says (as xdpdump -p)",
	  XL_STR(A, o.prog_name) },
	XL_RUN(MODE, A, o.mode, .suffix = " (own hook; entry/exit: which attached program)"),
	XL_RUN(INTERVAL, A, interval_ns),
	XL_RUN(DURATION, A, duration_ns),
	XL_RUN(NETNS, A, netns),
	XL_RUN(QUIET, A, quiet),
};
#undef A

static const struct dump_args dump_defaults = {
	.interval_ns = 1000000000ull, .format = -1, .ring_mib = 8,
	.o = { .snaplen = XL_DUMP_MAX_SNAPLEN, .own_action = XDP_PASS },
};

static const struct xl_cmd_spec dump_spec = {
	"dump", "IFACE...",
	"Write the frames an XDP hook on IFACE sees to a pcap or pcapng file; count every frame seen, written, filtered or lost. Several IFACEs: our program (or libpcap: --hook pcap, -Q out) on each, into one pcapng (an interface id per frame).",
	dump_opts, sizeof(dump_opts) / sizeof(dump_opts[0]), &dump_defaults, sizeof(dump_defaults),
};

/*
 * -D: a line per interface of this namespace, by index: its index, name
 * and what holds XDP on it (xl_xdp_holder(): the program, its mode and
 * the process holding its link), "none" without a program.
 */
static int list_interfaces(void)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	struct xl_xdp_holder h;
	char what[256];

	if (!ifs) {
		xl_err("cannot list the interfaces: %s", strerror(errno));
		return XL_EXIT_RUNTIME;
	}
	printf("%7s  %-16s %s\n", "ifindex", "interface", "XDP program");
	for (i = ifs; i->if_index; i++) {
		if (xl_xdp_holder((int)i->if_index, &h))
			snprintf(what, sizeof(what), "unknown (cannot query)");
		else if (!h.prog_id)
			snprintf(what, sizeof(what), "none");
		else
			xl_xdp_holder_describe(&h, what, sizeof(what));
		printf("%7u  %-16s %s\n", i->if_index, XL_ESC(i->if_name), XL_ESC(what));
	}
	if_freenameindex(ifs);
	return XL_EXIT_OK;
}

static const char *hook_name(enum xl_dump_where w)
{
	static const char *const n[] = { "auto", "own", "entry", "exit", "both", "pcap" };

	return w <= XL_DUMP_PCAP ? n[w] : "?";
}

/*
 * The kernel's count of frames through XDP on each of the @n interfaces
 * @ifs (veth: rx_queue_N_xdp_packets, summed) into @per[], their sum in
 * *@out; *@queues the most queues of one.
 */
static int kernel_xdp_packets(int sock, const char *const *ifs, unsigned int n, uint64_t *per,
			      uint64_t *out, int *queues)
{
	unsigned int i;
	int err, q;

	*out = 0;
	*queues = 0;
	for (i = 0; i < n; i++) {
		err = xl_ethtool_queue_sum(sock, ifs[i], "rx", "xdp_packets", 0, &per[i], &q);
		if (err)
			return err;
		*out += per[i];
		*queues = q > *queues ? q : *queues;
	}
	return 0;
}

static void print_interval(FILE *out, double t, const struct xl_dump_counts *p,
			   const struct xl_dump_counts *c, double secs)
{
	char b[6][32];

	fprintf(out, "%8.3f s  seen/s %s  written/s %s  filtered/s %s  ring-full/s %s  truncated/s %s  total written %s\n",
		t, xl_fmt_thousands((uint64_t)((c->seen - p->seen) / secs), b[0], 32),
		xl_fmt_thousands((uint64_t)((c->written - p->written) / secs), b[1], 32),
		xl_fmt_thousands((uint64_t)((c->filtered - p->filtered) / secs), b[2], 32),
		xl_fmt_thousands((uint64_t)((c->ring_full - p->ring_full) / secs), b[3], 32),
		xl_fmt_thousands((uint64_t)((c->truncated - p->truncated) / secs), b[4], 32),
		xl_fmt_thousands(c->written, b[5], 32));
	fflush(out);
}

/* The summary at exit; returns the exit status it states. */
static int print_summary(FILE *out, struct xl_dump *d, const struct dump_args *a,
			 const struct xl_dump_counts *c, int stop_err, bool k_ok, uint64_t k_pkts,
			 const uint64_t *k_per, int k_queues)
{
	enum xl_dump_where w = xl_dump__where(d);
	uint64_t in_flight = c->seen - c->records - c->ring_full;
	int i;

	fprintf(out, "totals: seen %llu frames, %llu bytes",
		(unsigned long long)c->seen, (unsigned long long)c->seen_bytes);
	if (w == XL_DUMP_BOTH)
		fprintf(out, " (entry %llu, exit %llu)",
			(unsigned long long)c->hook_seen[XL_DUMP_HOOK_ENTRY],
			(unsigned long long)c->hook_seen[XL_DUMP_HOOK_EXIT]);
	fprintf(out, "; written %llu (%llu bytes captured), filtered %llu, after --count %llu, ring full %llu; truncated by snaplen %llu; wake-ups %llu\n",
		(unsigned long long)c->written, (unsigned long long)c->written_bytes,
		(unsigned long long)c->filtered, (unsigned long long)c->after_count,
		(unsigned long long)c->ring_full, (unsigned long long)c->truncated,
		(unsigned long long)c->wakeups);
	if (w == XL_DUMP_EXIT || w == XL_DUMP_BOTH || w == XL_DUMP_OWN) {
		fprintf(out, "actions:");
		for (i = 0; i < 5; i++)
			fprintf(out, " %s %llu", xl_xdp_action_name(i),
				(unsigned long long)c->actions[i]);
		fprintf(out, "\n");
	}
	if (a->n_ifs > 1) {
		/* Each interface's frames written, and the kernel's count there. */
		fprintf(out, "interfaces:");
		for (i = 0; i < (int)a->n_ifs; i++) {
			fprintf(out, "%s %s written %llu", i ? "," : "", XL_ESC(a->ifs[i]),
				(unsigned long long)c->iface_written[i]);
			if (k_ok)
				fprintf(out, " (kernel %llu)", (unsigned long long)k_per[i]);
		}
		fprintf(out, "\n");
	}
	fprintf(out, w == XL_DUMP_PCAP ? "check: libpcap frames %llu = records read %llu + dropped by the socket %llu%s\n" :
					 "check: hook counter %llu = records read %llu + ring full %llu%s\n",
		(unsigned long long)c->seen, (unsigned long long)c->records,
		(unsigned long long)c->ring_full,
		stop_err == -EPROTO ? " FAILED" : "");
	if (k_ok) {
		char q[16] = "";

		if (k_queues > 1)
			snprintf(q, sizeof(q), "..%d", k_queues - 1);
		fprintf(out, "check: kernel rx_queue_0%s_xdp_packets %llu%s\n", q,
			(unsigned long long)k_pkts,
			w == XL_DUMP_BOTH ? " (each hook sees each frame once)" : "");
	}
	if (c->write_err)
		return XL_EXIT_RUNTIME; /* "cannot write FILE: CAUSE" said; nothing saved */
	if (stop_err == -EPROTO) {
		xl_err("capture books do not balance: %llu frames counted by the hook were neither read nor counted lost",
		       (unsigned long long)in_flight);
		return XL_EXIT_RUNTIME;
	}
	if (stop_err) {
		xl_err("capture failed: %s", strerror(-stop_err));
		return XL_EXIT_RUNTIME;
	}
	if (c->ring_full) {
		fprintf(out, "capture LOST %llu of %llu frames (%s): exit status %d\n",
			(unsigned long long)c->ring_full, (unsigned long long)c->seen,
			w == XL_DUMP_PCAP ? "dropped by the socket" : "ring buffer full", XL_EXIT_LOSSY);
		return XL_EXIT_LOSSY;
	}
	fprintf(out, "capture complete: every frame seen was written%s\n",
		c->filtered || c->after_count ? ", filtered or after --count" : "");
	return XL_EXIT_OK;
}

/* What the sampler's callbacks need: three stamped readings of the books. */
struct dump_run {
	struct xl_dump *d;
	const struct dump_args *a;
	FILE *out;
	struct xl_dump_counts c[XL_SAMPLER_SLOTS];
	uint64_t t[XL_SAMPLER_SLOTS];
};

/* The books at an interval's end, after the buffered records went to the file. */
static int dump_sample(void *ctx, int slot)
{
	struct dump_run *r = ctx;
	int err = xl_dump__flush(r->d);

	if (!err)
		err = xl_dump__read(r->d, &r->c[slot]);
	r->t[slot] = xl_now_ns();
	return err;
}

static int dump_alive(void *ctx)
{
	struct dump_run *r = ctx;
	unsigned int i;

	for (i = 0; i < r->a->n_ifs; i++)
		if (!if_nametoindex(r->a->ifs[i])) {
			xl_err("interface %s vanished during the capture", r->a->ifs[i]);
			return -1;
		}
	return xl_dump__done(r->d) ? XL_SAMPLER_DONE : XL_SAMPLER_GO;
}

/* Between samples the capture drains its ring into the file. */
static int dump_wait(void *ctx, uint64_t ns)
{
	int err = xl_dump__poll(((struct dump_run *)ctx)->d, ns < 1000000 ? 1 : (int)(ns / 1000000));

	return err < 0 ? err : 0;
}

static void dump_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct dump_run *r = ctx;

	if (!partial && !r->a->quiet)
		print_interval(r->out, t_ns / 1e9, &r->c[from], &r->c[to],
			       (r->t[to] - r->t[from]) / 1e9);
}

int cmd_dump(int argc, char **argv)
{
	struct dump_args a;
	static struct dump_run r;
	static struct hex_out hx;
	struct xl_dump_counts cur;
	struct xl_sampler sm;
	uint64_t k0 = 0, k1 = 0, kp0[XL_DUMP_MAX_IFACES] = { 0 }, kp1[XL_DUMP_MAX_IFACES] = { 0 };
	int idx, ret, err = 0, sock, kq = 0;
	bool k_ok = false;
	struct xl_dump *d;
	unsigned int tid;
	FILE *out;

	idx = xl_opts_parse(&dump_spec, argc, argv, NULL, &a);
	if (idx == XL_OPTS_HELP || idx < 0)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (a.list) {
		if (idx < argc) {
			xl_usage_error(&dump_spec, "-D lists every interface: no IFACE expected (got '%s')", argv[idx]);
			return XL_EXIT_USAGE;
		}
		if (a.netns && (ret = xl_cmd_enter_netns(&dump_spec, a.netns)))
			return ret;
		return list_interfaces();
	}
	if (idx >= argc) {
		xl_usage_error(&dump_spec, "missing IFACE (see --help)");
		return XL_EXIT_USAGE;
	}
	if (argc - idx > XL_DUMP_MAX_IFACES) {
		xl_usage_error(&dump_spec, "%d interfaces: at most %d in one capture", argc - idx, XL_DUMP_MAX_IFACES);
		return XL_EXIT_USAGE;
	}
	a.o.ifname = argv[idx];
	a.n_ifs = (unsigned int)(argc - idx);
	a.ifs = (const char *const *)argv + idx;
	if (a.o.dir != XL_LIVE_IN &&
	    (a.o.prog_name || (a.o.where != XL_DUMP_AUTO && a.o.where != XL_DUMP_PCAP))) {
		xl_usage_error(&dump_spec, "-Q %s captures with libpcap: not with %s (accepted: -Q in with any hook; -Q out|inout alone or with --hook pcap)",
			       dirs[a.o.dir], a.o.prog_name ? "-p" : "--hook own|entry|exit|both");
		return XL_EXIT_USAGE;
	}
	if (a.o.dir != XL_LIVE_IN)
		a.o.where = XL_DUMP_PCAP;
	for (tid = 1; tid < a.n_ifs; tid++)
		for (unsigned int j = 0; j < tid; j++)
			if (!strcmp(a.ifs[j], a.ifs[tid])) {
				xl_usage_error(&dump_spec, "interface '%s' named twice (each IFACE once)",
					       a.ifs[tid]);
				return XL_EXIT_USAGE;
			}
	if (a.n_ifs > 1) {
		a.o.ifnames = a.ifs;
		a.o.n_ifnames = a.n_ifs;
		if (a.o.prog_name || (a.o.where != XL_DUMP_AUTO && a.o.where != XL_DUMP_OWN &&
				      a.o.where != XL_DUMP_PCAP)) {
			xl_usage_error(&dump_spec, "several interfaces are captured with xdplab's own program or libpcap only (--hook own|pcap): not with --hook entry|exit|both or -p");
			return XL_EXIT_USAGE;
		}
	}
	a.o.ring_bytes = a.ring_mib << 20;
	if (!a.o.path && !a.hex) {
		xl_usage_error(&dump_spec, "missing -w FILE (a pcap or pcapng file, or '-' for standard output) or -x (the frames in hex on standard output)");
		return XL_EXIT_USAGE;
	}
	if (a.o.prog_name && a.o.where == XL_DUMP_PCAP) {
		xl_usage_error(&dump_spec, "-p names the attached program to trace at its entry or exit: not with --hook pcap");
		return XL_EXIT_USAGE;
	}
	if (a.o.prog_name && a.o.where == XL_DUMP_OWN) {
		xl_usage_error(&dump_spec, "-p names the attached program to trace at its entry or exit: not with --hook own");
		return XL_EXIT_USAGE;
	}
	if (a.hex && a.o.path && !strcmp(a.o.path, "-")) {
		xl_usage_error(&dump_spec, "-x and -w - both write to standard output: give -w a file, or leave it out");
		return XL_EXIT_USAGE;
	}
	if (a.hex) {
		hx = (struct hex_out){ .o = stdout, .dir = a.o.dir };
		a.o.on_frame = print_frame;
		a.o.frame_ctx = &hx;
	}
	if (a.format < 0 && a.o.path) {
		size_t n = strlen(a.o.path);

		a.format = n >= 7 && !strcmp(a.o.path + n - 7, ".pcapng");
	}
	a.o.pcapng = a.format == 1;
	if (a.n_ifs > 1 && a.o.path && !a.o.pcapng) {
		xl_usage_error(&dump_spec, "several interfaces need pcapng (-F pcapng or a FILE ending in .pcapng): a pcap file cannot say which interface a frame came from");
		return XL_EXIT_USAGE;
	}
	if (a.o.filter) {
		/* A filter that does not compile is a usage error (checked
		 * again where the capture compiles it). */
		char ferr[256];
		struct xl_pcap_filter *f = xl_pcap_filter__compile(a.o.filter, a.o.snaplen, ferr,
								   sizeof(ferr));

		if (!f) {
			xl_usage_error(&dump_spec, "--filter '%s': %s", a.o.filter, ferr);
			return XL_EXIT_USAGE;
		}
		xl_pcap_filter__free(f);
	}
	if (a.netns && (ret = xl_cmd_enter_netns(&dump_spec, a.netns)))
		return ret;
	for (tid = 0; tid < a.n_ifs; tid++)
		if (!if_nametoindex(a.ifs[tid])) {
			xl_usage_error(&dump_spec, "interface '%s': no such interface", a.ifs[tid]);
			return XL_EXIT_USAGE;
		}
	/* With -w - the frames own stdout: every line goes to stderr. */
	out = !a.o.path || strcmp(a.o.path, "-") ? stdout : stderr;
	d = xl_dump__create(&a.o);
	if (!d)
		return errno == EINVAL ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* The kernel counts frames received through XDP: none that -Q out captures. */
	if (sock >= 0 && a.o.dir != XL_LIVE_OUT)
		k_ok = !kernel_xdp_packets(sock, a.ifs, a.n_ifs, kp0, &k0, &kq);
	{
		const char *tn = xl_dump__target(d, &tid);
		char names[XL_DUMP_MAX_IFACES * (IF_NAMESIZE + 2)] = "";
		unsigned int i;
		size_t n = 0;

		for (i = 0; i < a.n_ifs && n < sizeof(names); i++)
			n += snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "", a.ifs[i]);
		if (xl_dump__where(d) == XL_DUMP_PCAP)
			fprintf(stderr, "xdplab: capturing on %s with libpcap (AF_PACKET, %s), snaplen %u%s%s%s; Ctrl-C to stop\n",
				XL_ESC(names),
				a.o.dir == XL_LIVE_OUT	 ? "outbound" :
				a.o.dir == XL_LIVE_INOUT ? "inbound after XDP and outbound" :
							   "inbound, after XDP",
				a.o.snaplen, a.o.filter ? ", filter '" : "",
				a.o.filter ? XL_ESC(a.o.filter) : "", a.o.filter ? "'" : "");
		else if (xl_dump__where(d) == XL_DUMP_OWN)
			fprintf(stderr, "xdplab: capturing on %s with our XDP program (%s, %s mode), snaplen %u, ring %u MiB%s%s%s; Ctrl-C to stop\n",
				XL_ESC(names), xl_xdp_action_name(a.o.own_action),
				xl_xdp_mode_name(a.o.mode), a.o.snaplen, a.o.ring_bytes >> 20,
				a.o.filter ? ", filter '" : "", a.o.filter ? XL_ESC(a.o.filter) : "",
				a.o.filter ? "'" : "");
		else
			fprintf(stderr, "xdplab: capturing on %s at the %s of %s (id %u), snaplen %u, ring %u MiB%s%s%s; Ctrl-C to stop\n",
				XL_ESC(a.o.ifname), xl_dump__where(d) == XL_DUMP_BOTH ? "entry and exit" :
					    hook_name(xl_dump__where(d)),
				XL_ESC(tn), tid, a.o.snaplen, a.o.ring_bytes >> 20,
				a.o.filter ? ", filter '" : "", a.o.filter ? XL_ESC(a.o.filter) : "",
				a.o.filter ? "'" : "");
	}
	r = (struct dump_run){ .d = d, .a = &a, .out = out };
	r.t[0] = xl_now_ns(); /* the first window starts from nothing: the capture's start */
	sm = (struct xl_sampler){ .interval_ns = a.interval_ns, .duration_ns = a.duration_ns,
				  .poll_ns = 10000000ull, .stop = &xl_stop_requested,
				  .have_first = true, .sample = dump_sample, .alive = dump_alive,
				  .interval = dump_interval, .wait = dump_wait, .ctx = &r };
	err = xl_sampler_run(&sm);
	if (err == -1)
		err = -ENODEV;
	ret = xl_dump__stop(d, &cur);
	if (!ret && err)
		ret = err;
	if (k_ok)
		k_ok = !kernel_xdp_packets(sock, a.ifs, a.n_ifs, kp1, &k1, &kq);
	for (tid = 0; tid < a.n_ifs; tid++)
		kp1[tid] -= kp0[tid];
	ret = print_summary(out, d, &a, &cur, ret, k_ok, k1 - k0, kp1, kq);
	if (sock >= 0)
		close(sock);
	xl_dump__destroy(d);
	return ret;
}
