// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/gen/ owns the traffic generator: threads, budget and rate
 * (gen.c), what it is asked to send (gen_opts.c: the options' checks, the
 * per-flow header fields) and the per-packet engines (gen_engine.c, live
 * frames and AF_PACKET). See docs/architecture.md.
 */
/*
 * The traffic generator. This is product code (the fast path), so it is our
 * own: engine "live" drives BPF_PROG_RUN in live-frames mode (kernel commit
 * b530e9e1063e, 5.18), the fastest software generator on Linux; engine
 * "packet" is AF_PACKET with PACKET_QDISC_BYPASS and sendmmsg, which works on
 * any kernel and replays captures in order.
 *
 * Threads claim frames from a shared budget one chunk at a time (one atomic
 * per chunk, never per frame); each thread's counters live in its own cache
 * line and are read by the main thread with relaxed loads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "gen.skel.h"
#include "gen_priv.h"
#include "xdplab/gen.h"
#include "xdplab/abi/gen.h"
#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/netns.h"
#include "xdplab/pcapfile.h"
#include "xdplab/abi/latency.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"

/* Every queue: threads on several CPUs transmit on several queues. */
static uint64_t read_xmit_errors(struct xl_gen *gen)
{
	uint64_t sum = 0;

	if (!gen->is_veth || gen->stat_sock < 0)
		return 0;
	if (xl_ethtool_queue_sum(gen->stat_sock, gen->o.ifname, "tx", "xdp_xmit_errors", 0, &sum,
				 NULL))
		return 0;
	return sum;
}

/* Take up to @want frames from the shared --count budget. */
static uint64_t claim(struct xl_gen *gen, uint64_t want)
{
	int64_t cur = __atomic_load_n(&gen->remaining, __ATOMIC_RELAXED);
	int64_t take;

	if (!gen->counted)
		return want;
	do {
		if (cur <= 0)
			return 0;
		take = cur < (int64_t)want ? cur : (int64_t)want;
	} while (!__atomic_compare_exchange_n(&gen->remaining, &cur, cur - take, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return take;
}

static void unclaim(struct xl_gen *gen, uint64_t n)
{
	if (gen->counted && n)
		__atomic_fetch_add(&gen->remaining, n, __ATOMIC_RELAXED);
}

static void *gen_thread_main(void *arg)
{
	struct gen_thread *t = arg;
	struct xl_gen *gen = t->gen;
	uint64_t rate = gen->o.rate_pps / gen->nthreads;
	sigset_t all;
	int err;

	xl_worker_running(&t->wk);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (gen->o.rate_pps && !rate)
		rate = 1;
	if (rate)
		xl_pace_init(&t->pace, rate, gen->start_ns);
	/* The sending thread lives in the generator's namespace for good. */
	err = xl_netns_enter_fd(gen->o.netns_fd, NULL);
	if (err)
		goto out;
	if (t->cpu >= 0) {
		err = xl_task_set_cpu(0, t->cpu);
		if (err) {
			xl_err("cannot pin generator thread %d to CPU %d: %s", t->idx, t->cpu,
			       strerror(-err));
			goto out;
		}
	}
	if (gen->engine == XL_ENGINE_LIVE)
		xl_gen_live_count_init(t);

	while (!__atomic_load_n(&gen->stop, __ATOMIC_RELAXED)) {
		uint64_t now = xl_now_ns(), want = PKT_BATCH, take, t0;
		int n;

		if (gen->deadline_ns && now >= gen->deadline_ns)
			break;
		if (gen->engine == XL_ENGINE_LIVE) {
			double w = t->est_pps * LIVE_CALL_NS / 1e9;

			if (gen->deadline_ns && t->est_pps > 0 &&
			    t->est_pps * (gen->deadline_ns - now) / 1e9 < w)
				w = t->est_pps * (gen->deadline_ns - now) / 1e9;
			want = w < LIVE_CHUNK_MIN ? LIVE_CHUNK_MIN :
			       w > LIVE_CHUNK_MAX ? LIVE_CHUNK_MAX : (uint64_t)w;
		}
		if (rate) {
			/* Pacing: frames due since start minus frames sent, a
			 * catch-up after a stall capped at the pace's depth. */
			uint64_t wait, due = xl_pace_due(&t->pace, now, t->sent, &wait);

			if (!due) {
				xl_sleep_ns(wait > 1000000 ? 1000000 : wait < 20000 ? 20000 : wait, NULL);
				continue;
			}
			if (due < want)
				want = due;
		}
		if (gen->pcap.n && !gen->o.imix && !gen->counted && !gen->deadline_ns) {
			/* Replay once: stop at the end of the capture. */
			uint64_t left = gen->pcap.n - t->sent;

			if (!left)
				break;
			if (left < want)
				want = left;
		}
		take = claim(gen, want);
		if (!take)
			break;
		t0 = xl_now_ns();
		n = gen->engine == XL_ENGINE_LIVE ? xl_gen_send_live(t, take) :
						    xl_gen_send_packet(t, take);
		if (n > 0 && take >= LIVE_CHUNK_MIN)
			t->est_pps = n * 1e9 / (double)(xl_now_ns() - t0 + 1);
		if (n > 0 && rate)
			xl_pace_call(&t->pace, xl_now_ns() - t0);
		if (n < 0) {
			unclaim(gen, take);
			err = n;
			break;
		}
		unclaim(gen, take - n);
		if (gen->engine == XL_ENGINE_LIVE)
			__atomic_store_n(&t->bytes, t->bytes + (uint64_t)n * gen->frame_len,
					 __ATOMIC_RELAXED);
		__atomic_store_n(&t->sent, t->sent + n, __ATOMIC_RELAXED);
	}
out:
	free(t->cnt_buf);
	t->cnt_buf = NULL;
	t->err = err;
	t->end_ns = xl_now_ns();
	xl_worker_finished(&t->wk);
	return NULL;
}

static int setup_flows(struct xl_gen *gen)
{
	struct xl_pkt_layout lo;
	uint32_t i;

	xl_pkt_layout(&gen->o.spec, &lo);
	gen->sport_off = lo.l4_off;
	gen->csum_off = lo.l4_csum_off;
	gen->payload_off = lo.payload_off;
	gen->saddr_off = lo.l3_off + (gen->o.spec.ipv6 ? 8 + 14 : 12 + 2);
	gen->ipcsum_off = gen->o.spec.ipv6 ? 0 : lo.l3_off + 10;
	gen->nflows = gen->o.flows * gen->dports * gen->saddrs;
	if (gen->nflows <= 1)
		return 0;
	gen->flows = calloc(gen->nflows, sizeof(*gen->flows));
	if (!gen->flows)
		return -ENOMEM;
	for (i = 0; i < gen->nflows; i++) {
		int err = xl_gen_flow_make(&gen->o.spec, i % gen->o.flows,
					   i / gen->o.flows % gen->dports,
					   i / (gen->o.flows * gen->dports), &gen->flows[i]);

		if (err)
			return err;
	}
	return 0;
}

/* Facts about the interface, in the generator's namespace. */
static int resolve_iface(struct xl_gen *gen)
{
	struct xl_link_info li;
	int err;

	gen->ifindex = if_nametoindex(gen->o.ifname);
	if (!gen->ifindex) {
		xl_err("interface %s: no such interface", gen->o.ifname);
		return -ENODEV;
	}
	err = xl_link_get(gen->ifindex, -1, &li);
	if (err)
		return err;
	gen->mtu = li.mtu;
	gen->is_veth = !strcmp(li.kind, "veth");
	gen->tx_queues = li.tx_queues;
	gen->stat_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return 0;
}

/*
 * --imix: the XL_GEN_IMIX cycle built once into gen->pcap, which the packet
 * engine sends in a loop (a replay that does not stop at its end): @spec's
 * headers at each size. Return: 0, -EMSGSIZE (a size above MTU+14 or
 * below the headers), -ENOMEM.
 */
static int build_imix(struct xl_gen *gen)
{
	static const uint32_t sizes[XL_GEN_IMIX_N] = XL_GEN_IMIX;
	struct xl_pcap_frames *f = &gen->pcap;
	struct xl_pkt_spec spec = gen->o.spec;
	size_t at = 0;
	int i, n;

	f->data = malloc(XL_GEN_IMIX_N * 1514);
	f->off = calloc(XL_GEN_IMIX_N, sizeof(*f->off));
	f->len = calloc(XL_GEN_IMIX_N, sizeof(*f->len));
	if (!f->data || !f->off || !f->len)
		return -ENOMEM;
	for (i = 0; i < XL_GEN_IMIX_N; i++) {
		if (sizes[i] > gen->mtu + XL_ETH_HLEN) {
			xl_err("--imix: its %u-byte frames are above the MTU of %s plus 14 (%u)",
			       sizes[i], gen->o.ifname, gen->mtu + XL_ETH_HLEN);
			return -EMSGSIZE;
		}
		spec.size = sizes[i];
		n = xl_pkt_build(&spec, f->data + at, 1514);
		if (n < 0) {
			xl_err("--imix: cannot build a %u-byte frame with these headers: %s", sizes[i],
			       strerror(-n));
			return n == -EINVAL ? -EMSGSIZE : n;
		}
		f->off[i] = at;
		f->len[i] = n;
		at += n;
	}
	f->n = XL_GEN_IMIX_N;
	return 0;
}

struct xl_gen *xl_gen__create(const struct xl_gen_opts *opts)
{
	int nthreads = opts->threads > 0 ? opts->threads : 1;
	struct xl_netns_saved cur_ns = { -1 };
	int err, i;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct xl_gen *gen;
	char msg[256];

	if (xl_gen_opts_check(opts, msg, sizeof(msg))) {
		xl_err("%s", msg);
		errno = EINVAL;
		return NULL;
	}

	gen = calloc(1, sizeof(*gen) + nthreads * sizeof(gen->th[0]));
	if (!gen)
		return NULL;
	gen->o = *opts;
	gen->nthreads = nthreads;
	gen->workers = XL_WORKERS(gen->th, nthreads, wk);
	/* Sized once for every possible CPU: none is left out of the count. */
	gen->ncpus = libbpf_num_possible_cpus();
	if (gen->ncpus > 0)
		gen->cpu_buf = calloc(gen->ncpus, sizeof(*gen->cpu_buf));
	gen->stat_sock = -1;
	gen->engine = opts->pcap_path || opts->imix ? XL_ENGINE_PACKET : opts->engine;
	if (!gen->o.flows)
		gen->o.flows = 1;
	gen->dports = opts->dst_ports ? opts->dst_ports : 1;
	gen->saddrs = opts->src_addrs ? opts->src_addrs : 1;
	gen->nflows = 1;
	for (i = 0; i < nthreads; i++) {
		gen->th[i].est_pps = 1e6; /* first call ~200k frames, then measured */
		gen->th[i].gen = gen;
		gen->th[i].idx = i;
		gen->th[i].sock = -1;
		gen->th[i].cpu = opts->first_cpu < 0 ? -1 : (opts->first_cpu + i) % ncpu;
	}
	if (opts->netns_fd >= 0) {
		err = xl_netns_enter_fd(opts->netns_fd, &cur_ns);
		if (err)
			goto out_err;
	}
	err = resolve_iface(gen);
	if (err)
		goto out_err;
	if (opts->imix) {
		err = build_imix(gen);
		if (err)
			goto out_err;
	} else if (opts->pcap_path) {
		err = xl_frames_load_pcap(opts->pcap_path, gen->mtu + XL_ETH_HLEN,
					  &gen->pcap);
		if (err)
			goto out_err;
		if (!gen->pcap.n) {
			xl_err("--pcap %s: no frame can be sent (%llu read, %llu longer than MTU+14=%u, %llu shorter than 14 bytes)",
			       opts->pcap_path, (unsigned long long)gen->pcap.read,
			       (unsigned long long)gen->pcap.oversize, gen->mtu + XL_ETH_HLEN,
			       (unsigned long long)gen->pcap.runt);
			err = -ENOMSG;
			goto out_err;
		}
	} else {
		if (opts->spec.size > gen->mtu + XL_ETH_HLEN) {
			xl_err("--size %u is above the MTU of %s plus 14 (accepted: %u..%u)",
			       opts->spec.size, opts->ifname, XL_PKT_MIN_SIZE,
			       gen->mtu + XL_ETH_HLEN);
			err = -EMSGSIZE;
			goto out_err;
		}
		err = xl_pkt_build(&gen->o.spec, gen->frame, sizeof(gen->frame));
		if (err < 0)
			goto out_err;
		gen->frame_len = err;
		err = setup_flows(gen);
		if (err)
			goto out_err;
	}
	if (opts->stamp)
		gen->stamp_tmpl_neg = (uint16_t)~xl_csum_partial(gen->frame + gen->payload_off,
								 XL_STAMP_LEN, 0);
	if (gen->engine == XL_ENGINE_LIVE && xl_gen_live_frame_max() &&
	    gen->frame_len > xl_gen_live_frame_max()) {
		/* The kernel would refuse it with a bare EINVAL: name the limit. */
		if (gen->o.engine_forced) {
			xl_err("--size %u: engine live sends frames of at most %u bytes here (BPF_PROG_RUN live frames: a page less XDP's headroom, the kernel's page head and skb_shared_info); use --engine packet or a --size up to %u",
			       gen->frame_len, xl_gen_live_frame_max(), xl_gen_live_frame_max());
			err = -EMSGSIZE;
			goto out_err;
		}
		xl_warn("--size %u: engine live sends frames of at most %u bytes here (BPF_PROG_RUN live frames: a page less XDP's headroom, the kernel's page head and skb_shared_info); using engine packet (AF_PACKET)",
			gen->frame_len, xl_gen_live_frame_max());
		gen->engine = XL_ENGINE_PACKET;
	}
	if (gen->engine == XL_ENGINE_LIVE) {
		err = xl_gen_setup_live(gen);
		if (err) {
			static bool said; /* once per process: lab run makes many */
			char why[160];

			xl_gen_live_refusal(err, why, sizeof(why));
			if (gen->o.engine_forced) {
				xl_err("--engine live on %s: %s (needs BPF_F_TEST_XDP_LIVE_FRAMES, kernel 5.18+, and frames up to a page; --engine packet sends through AF_PACKET)",
				       opts->ifname, why);
				goto out_err;
			}
			if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
				xl_warn("engine live %s; using engine packet (AF_PACKET)", why);
			gen__destroy(gen->skel);
			gen->skel = NULL;
			gen->engine = XL_ENGINE_PACKET;
		}
	}
	if (gen->engine == XL_ENGINE_PACKET) {
		for (i = 0; i < nthreads; i++) {
			err = xl_gen_setup_packet(&gen->th[i], gen->ifindex);
			if (err) {
				xl_err("cannot open an AF_PACKET socket on %s: %s",
				       opts->ifname, strerror(-err));
				goto out_err;
			}
		}
	}
	gen->xmit_err_base = read_xmit_errors(gen);
	err = xl_netns_restore(&cur_ns);
	if (err) {
		xl_gen__destroy(gen);
		errno = -err;
		return NULL;
	}
	return gen;
out_err:
	xl_netns_restore(&cur_ns);
	xl_gen__destroy(gen);
	errno = -err;
	return NULL;
}

enum xl_gen_engine xl_gen__engine(const struct xl_gen *gen)
{
	return gen->engine;
}

int xl_gen__preflight(struct xl_gen *gen)
{
	struct xl_link_info me, peer;
	struct xl_netns_saved cur_ns = { -1 };
	int err, gro;

	if (gen->o.netns_fd >= 0) {
		err = xl_netns_enter_fd(gen->o.netns_fd, &cur_ns);
		if (err) {
			xl_err("cannot enter the generator's namespace: %s", strerror(-err));
			return err;
		}
	}
	{
		char cause[256];

		/* Down, or its veth peer is: say that, not a missing NAPI. */
		if (xl_link_down_cause(gen->ifindex, cause, sizeof(cause)) == 1) {
			xl_warn("%s", cause);
			err = -ENETDOWN;
			goto out;
		}
	}
	if (gen->engine != XL_ENGINE_LIVE || !gen->is_veth) {
		err = 0;
		goto out;
	}
	err = xl_link_get(gen->ifindex, -1, &me);
	if (!err)
		err = xl_link_get(me.peer_ifindex, me.peer_netnsid, &peer);
	if (err) {
		xl_info("cannot read the veth peer of %s: %s", gen->o.ifname, strerror(-err));
		err = 0;
		goto out;
	}
	if (peer.xdp_attached)
		goto out;
	gro = xl_link_peer_gro(&peer, me.peer_netnsid);
	if (gro == 1)
		goto out;
	/*
	 * Unreadable (the peer's namespace is not under /run/netns: unshare,
	 * a container): not a reason to claim the frames are dropped, they were
	 * not when GRO was on there (issue 11 item 7). The totals' "refused by
	 * the device" and the stall rule say it if they are.
	 */
	if (gro < 0) {
		xl_info("the veth peer of %s (%s) has no XDP program and its GRO cannot be read (its namespace is not under /run/netns): without one of them frames are refused (see 'refused by the device')",
			gen->o.ifname, peer.name);
		goto out;
	}
	xl_warn("the veth peer of %s (%s) has no XDP program and GRO off: frames redirected into a veth are dropped unless the peer has a NAPI (attach one, e.g. 'xdplab drop %s', or 'ethtool -K %s gro on')",
		gen->o.ifname, peer.name, peer.name, peer.name);
	err = -ENETUNREACH;
out:
	{
		int rerr = xl_netns_restore(&cur_ns);

		return rerr ? rerr : err;
	}
}

static void gen_stop_cb(void *gen)
{
	xl_gen__stop(gen);
}

int xl_gen__start(struct xl_gen *gen)
{

	gen->counted = gen->o.count > 0;
	gen->remaining = gen->o.count;
	gen->start_ns = xl_now_ns();
	gen->deadline_ns = gen->o.duration_ns ? gen->start_ns + gen->o.duration_ns : 0;
	return xl_workers_start(&gen->workers, gen_thread_main, gen_stop_cb, gen);
}

int xl_gen__runtime(const struct xl_gen *gen, uint64_t *ns)
{
	return xl_workers_runtime(&gen->workers, ns);
}

uint64_t xl_gen__runtime_ns(const struct xl_gen *gen)
{
	uint64_t ns;

	return xl_gen__runtime(gen, &ns) ? 0 : ns;
}

void xl_gen__stop(struct xl_gen *gen)
{
	__atomic_store_n(&gen->stop, 1, __ATOMIC_RELAXED);
}

bool xl_gen__done(const struct xl_gen *gen)
{
	return xl_workers_done(&gen->workers);
}

int xl_gen__join(struct xl_gen *gen)
{
	int i, err = 0;

	if (!gen->workers.started)
		return 0;
	xl_workers_join(&gen->workers);
	for (i = 0; i < gen->nthreads && !err; i++)
		err = gen->th[i].err;
	return err;
}

void xl_gen__read(struct xl_gen *gen, struct xl_gen_stats *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < gen->nthreads; i++) {
		s->sent += __atomic_load_n(&gen->th[i].sent, __ATOMIC_RELAXED);
		s->bytes += __atomic_load_n(&gen->th[i].bytes, __ATOMIC_RELAXED);
	}
	if (gen->engine == XL_ENGINE_LIVE && gen->skel) {
		/*
		 * The threads add a whole call (~200 ms of frames) when it
		 * returns; the program's per-CPU counter moves with every frame,
		 * so a rate over a short window is right.
		 */
		uint64_t frames;

		if (!xl_gen_live_frames(gen, gen->cpu_buf, -1, &frames)) {
			s->sent = frames;
			s->bytes = frames * gen->frame_len;
		}
	}
	{
		uint64_t xe = read_xmit_errors(gen); /* 0 when unreadable */

		s->xmit_errors = xe > gen->xmit_err_base ? xe - gen->xmit_err_base : 0;
	}
	s->elapsed_ns = 0;
	if (gen->start_ns) {
		uint64_t end = 0;

		for (i = 0; i < gen->nthreads; i++) {
			if (!xl_workers_done_one(&gen->workers, i)) {
				end = xl_now_ns();
				break;
			}
			if (gen->th[i].end_ns > end)
				end = gen->th[i].end_ns;
		}
		s->elapsed_ns = end - gen->start_ns;
	}
	s->pace = (struct xl_pace_stats){ 0 };
	for (i = 0; i < gen->nthreads; i++)
		xl_pace_add(&gen->th[i].pace, &s->pace);
	s->pcap_frames = gen->pcap.read;
	s->pcap_oversize = gen->pcap.oversize;
	s->pcap_runt = gen->pcap.runt;
	s->pcap_short = gen->pcap.short_frames;
	s->pcap_truncated = gen->pcap.truncated;
}

void xl_gen__destroy(struct xl_gen *gen)
{
	int i;

	if (!gen)
		return;
	xl_gen__stop(gen);
	xl_gen__join(gen);
	for (i = 0; i < gen->nthreads; i++) {
		if (gen->th[i].sock >= 0)
			close(gen->th[i].sock);
		free(gen->th[i].bufs);
	}
	if (gen->stat_sock >= 0)
		close(gen->stat_sock);
	gen__destroy(gen->skel);
	xl_frames_free(&gen->pcap);
	free(gen->flows);
	free(gen->cpu_buf);
	free(gen);
}
