// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab xsk's measured run (moved from cmd_xsk.c): the sampler's callbacks
 * over the sockets' statistics, the interval, per-CPU and totals lines,
 * the repetitions' windows for --json, and the end of the run (the --dump
 * completeness line, the profile, the verdict, --audit).
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
#include "sig.h"
#include "report_cli.h"
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
	struct xl_interval_recs *rec;
	struct xsk_win rep;
	int rep_no;
	bool vanished;
	uint64_t wait_ns, run_ns; /* the socket threads' run delay and CPU time at the last read */
};

static int xsk_sample(void *ctx, int slot)
{
	struct xsk_run *x = ctx;
	struct xsk_sample *s = &x->s[slot];
	uint64_t wait, ns;

	xl_xsk_app__read(x->app, s->st);
	s->t_ns = xl_now_ns();
	if (xl_xsk_app__wait_ns(x->app, &wait, &ns))
		ns = 0;
	s->runtime = xl_read_now(ns, ns != 0);
	/* Kept at each read: after the threads end there is nothing to read. */
	if (ns) {
		x->wait_ns = wait;
		x->run_ns = ns;
	}
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
	w->cpu = xl_delta_of(&a->runtime, &b->runtime);
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
		xl_interval_recs_add(x->rec, t_ns / 1e9, x->rep_no, &r);
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

int xl_cmd_xsk_run(struct xsk_args *a, struct xl_xsk_app *app, struct xl_row_result *row,
		   struct xl_interval_recs *rec)
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
	profiling = xl_cmd_prof_run_start(&a->prof, a->spec->name, a->c.first_cpu);
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
	 * Where frames wait when the threads wait: a busy-polling thread on a
	 * CPU with other runnable tasks is off it for whole time slices
	 * (issue 21 item 14: rt-l2fwd's milliseconds at 10 kpps, docs/latency.md).
	 */
	if (x.run_ns)
		printf("socket threads: on CPU %.0f ms, waited %.0f ms for a CPU while runnable (the scheduler's run delay: frames wait in the RX ring meanwhile)\n",
		       x.run_ns / 1e6, x.wait_ns / 1e6);
	if (a->c.app == XL_XSK_TXPUSH && a->c.rate_pps) {
		struct xl_pace_stats ps;

		/* The capped catch-up (xdplab/pace.h), as gen says it. */
		xl_xsk_app__pace(app, &ps);
		xl_cmd_print_pace(&ps, a->c.count > 0, "1 ms at the rate, at least 8");
	}
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
	if (a->c.dump_path && xl_xsk_app__dump_close(app)) {
		/* "cannot write FILE: CAUSE" said: nothing was saved. */
		printf("dump: %s NOT written (0 of %llu frames saved)\n", XL_ESC(a->c.dump_path),
		       (unsigned long long)tc.c.rx_packets);
		ret = XL_EXIT_RUNTIME;
	} else if (a->c.dump_path) {
		/* A frame dropped for an empty fill ring is in rx_dropped too. */
		uint64_t lost = tc.xdp.rx_dropped + tc.xdp.rx_ring_full;

		/*
		 * Frames the kernel dropped while the file was written (the
		 * writer is a slow path) are not in it: say so, never a
		 * silently incomplete capture, and fail the run.
		 */
		printf("dump: %s holds %llu frames (snaplen %u); %s\n", XL_ESC(a->c.dump_path),
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
	if (pr.folded[0]) /* a profile was taken (xl_cmd_prof_run_stop() clears a failed one) */
		xl_profile_print(stdout, &pr, "", XL_PROF_TOP);
	if (row) {
		bool rxd = a->c.app == XL_XSK_RXDROP;
		uint64_t pk = rxd ? tc.c.rx_packets : tc.c.tx_packets;
		uint64_t by = rxd ? tc.c.rx_bytes : tc.c.tx_bytes;

		row->size = pk ? (uint32_t)((by + pk / 2) / pk) : 0;
		xl_row_finish(row);
		xl_row_print_verdict(stdout, row);
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
