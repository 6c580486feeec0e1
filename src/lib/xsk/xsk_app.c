// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/xsk/ owns AF_XDP: the rxdrop/txpush/l2fwd applications
 * (xsk_app.c) over the UMEM (xsk_umem.c), sockets and the XSKMAP program
 * (xsk_socket.c), the hot path on the rings (xsk_ring.c), the frame
 * allocator (xsk_frames.c) and --dump (xsk_dump.c). xsk_priv.h is the
 * folder's inside; include/xdplab/xsk.h its API. See docs/architecture.md.
 */
/*
 * The AF_XDP applications: build UMEMs and sockets in the right order
 * (program loaded; UMEM; fill ring filled; bind; XSKMAP; attach last, so
 * no frame is redirected to a socket without frames), run one thread per
 * socket (the threads: xsk_app_run.c), read statistics, drain and audit
 * at the end.
 *
 * A bind that fails leaves libxdp's UMEM rings in an unknown state, so
 * every retry (EBUSY while the previous socket on the queue is torn down,
 * or the fallback from zero-copy to copy) rebuilds UMEMs and sockets from
 * scratch.
 */
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>

#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"
#include "xdplab/workers.h"
#include "xsk_priv.h"
#include "xsk_app_priv.h"
#include "xsk_dump.h"

#define BIND_RETRY_NS 50000000ull

void xl_xsk_inspect(struct xl_xsk_q *q, const uint8_t *data, uint32_t len, bool first)
{
	struct xl_pkt_info info;

	if (q->verify && first &&
	    (xl_pkt_parse(data, len, &info) || info.l4_proto != IPPROTO_UDP ||
	     !info.ip_csum_ok || !info.l4_csum_ok))
		q->c.csum_bad++;
	if (q->dump)
		xl_xsk_dump__frame(q->dump, data, len);
}

/* Every frame of a txpush socket holds the packet, flows rotating. */
static int prebuild(struct xl_xsk_app *a, struct xsk_sock *s)
{
	struct xl_xsk_config *c = &a->c;
	struct xl_pkt_spec spec = c->spec;
	uint32_t i;
	int len;

	for (i = 0; i < s->q.frames.nframes; i++) {
		spec.src_port = c->spec.src_port + (i % c->flows);
		len = xl_pkt_build(&spec, (uint8_t *)s->q.area + s->q.frames.first +
						  (uint64_t)i * c->frame_size, c->frame_size);
		if (len < 0)
			return len;
		s->q.pkt_len = len;
	}
	return 0;
}

static void teardown(struct xl_xsk_app *a)
{
	int i;

	for (i = 0; i < a->nsocks; i++) {
		struct xsk_sock *s = &a->socks[i];

		if (s->xsk)
			xsk_socket__delete(s->xsk);
		s->xsk = NULL;
		xl_frames_fini(&s->q.frames);
	}
	for (i = 0; i < a->numems; i++)
		xl_umem__destroy(&a->umems[i]);
}

/* Build every UMEM and socket with @bind_flags; all or nothing. */
static int build(struct xl_xsk_app *a, uint16_t bind_flags)
{
	struct xl_xsk_config *c = &a->c;
	bool shared = c->shared_umem && c->queues > 1;
	int i, err;

	a->bind_failed = false;
	for (i = 0; i < a->nsocks; i++) {
		struct xsk_sock *s = &a->socks[i];
		struct xsk_socket_config sc = {
			.rx_size = c->app == XL_XSK_TXPUSH ? 0 : c->rx_size,
			.tx_size = c->app == XL_XSK_RXDROP ? 0 : c->tx_size,
			.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
			.bind_flags = bind_flags,
		};
		bool first = !shared || i == 0;
		uint32_t queue = c->queue + i;
		struct xl_xsk_q *q = &s->q;

		memset(q, 0, sizeof(*q));
		q->fd = -1;
		s->umem = &a->umems[shared ? 0 : i];
		s->queue = queue;
		if (first) {
			err = xl_umem__create(s->umem, c, shared ? c->frames * c->queues : c->frames);
			if (err)
				goto out_teardown;
		}
		err = xl_frames_init(&q->frames, shared ? (uint64_t)i * c->frames * c->frame_size : 0,
				     c->frames, c->frame_size, s->umem->size, c->unaligned, c->audit);
		if (err)
			goto out_teardown;
		q->area = s->umem->area;
		q->fill = first ? &s->umem->fill : &s->fill;
		q->comp = first ? &s->umem->comp : &s->comp;
		q->batch = c->batch;
		q->need_wakeup = c->need_wakeup;
		q->poll = c->poll;
		q->busy_poll = c->busy_poll;
		q->starve_fill = c->starve_fill;
		q->verify = c->verify;
		q->frags = c->frags;
		q->dump = a->dump;
		q->budget = UINT64_MAX;
		if (c->app == XL_XSK_TXPUSH) {
			err = prebuild(a, s);
			if (err)
				goto out_teardown;
			if (c->count)
				q->budget = c->count / c->queues + (i < (int)(c->count % c->queues));
			s->burst = q->budget;
			s->bursts_left = c->bursts > 1 ? c->bursts - 1 : 0;
			q->rate_pps = c->rate_pps / c->queues + (i < (int)(c->rate_pps % c->queues));
			if (c->tstamp) {
				struct xl_pkt_layout lo;

				xl_pkt_layout(&c->spec, &lo);
				q->stamp = true;
				q->stamp_off = lo.payload_off;
				q->stamp_csum_off = lo.l4_csum_off;
				q->stamp_seq = (uint32_t)i;
				q->stamp_step = c->queues;
			}
		}
		/* Fill before bind: the first frame may arrive right after it. */
		if (first && c->app != XL_XSK_TXPUSH)
			xl_xsk_refill(q, c->fill_size);
		if (first)
			err = xsk_socket__create(&s->xsk, c->ifname, queue, s->umem->umem,
						 sc.rx_size ? &q->rx : NULL,
						 sc.tx_size ? &q->tx : NULL, &sc);
		else
			err = xsk_socket__create_shared(&s->xsk, c->ifname, queue, s->umem->umem,
							sc.rx_size ? &q->rx : NULL,
							sc.tx_size ? &q->tx : NULL, &s->fill,
							&s->comp, &sc);
		if (err) {
			s->xsk = NULL;
			a->bind_failed = true;
			/*
			 * EBUSY is retried and reported by build_retry(); a
			 * refused zero-copy bind by bind_all(). Every other
			 * failure is said here, with the queue it was for.
			 */
			if (err != -EBUSY && !((bind_flags & XDP_ZEROCOPY) &&
					       (err == -EOPNOTSUPP || err == -EINVAL ||
						err == -EPROTONOSUPPORT)))
				xl_err("cannot create an AF_XDP socket on %s queue %u (%s, %s): %s",
				       c->ifname, queue, bind_flags & XDP_ZEROCOPY ? "zero-copy" : "copy",
				       xl_xdp_mode_name(c->mode), strerror(-err));
			goto out_teardown;
		}
		q->fd = xsk_socket__fd(s->xsk);
		if (!first && c->app != XL_XSK_TXPUSH)
			xl_xsk_refill(q, c->fill_size);
		if (c->busy_poll) {
			err = xl_xsk_busy_poll(q->fd, c->busy_budget);
			if (err) {
				xl_err("--busy-poll: cannot set SO_PREFER_BUSY_POLL/SO_BUSY_POLL/SO_BUSY_POLL_BUDGET: %s",
				       strerror(-err));
				goto out_teardown;
			}
		}
	}
	return 0;
out_teardown:
	teardown(a);
	return err;
}

/* Build with EBUSY retried until the deadline. */
static int build_retry(struct xl_xsk_app *a, uint16_t bind_flags)
{
	uint64_t deadline = xl_now_ns() + a->c.bind_timeout_ns;
	int err, tries = 0;

	for (;;) {
		err = build(a, bind_flags);
		if (err != -EBUSY)
			break;
		tries++;
		if (xl_now_ns() >= deadline) {
			char holder[320] = "another socket holds the queue, or the last one is still being torn down";
			struct xl_xdp_holder h;
			char comm[32], desc[256];
			uint32_t q;
			int pid, found = 0;

			/*
			 * Name the holder: sock_diag says which socket is bound to
			 * the queue (kernels with CONFIG_XDP_SOCKETS_DIAG); else
			 * the process holding the XDP program on the interface is
			 * the likely one (an AF_XDP application attaches one).
			 */
			for (q = a->c.queue; !found && q < a->c.queue + a->c.queues; q++) {
				found = xl_xsk_queue_holder(a->ifindex, q, &pid, comm, sizeof(comm)) == 1;
				if (found && pid)
					snprintf(holder, sizeof(holder), "queue %u is held by pid %d (%s)",
						 q, pid, comm);
				else if (found)
					snprintf(holder, sizeof(holder), "queue %u is held by an AF_XDP socket of no process found here",
						 q);
			}
			if (!found && !xl_xdp_holder(a->ifindex, &h) && h.prog_id) {
				xl_xdp_holder_describe(&h, desc, sizeof(desc));
				snprintf(holder, sizeof(holder), "another socket holds the queue; %s has %s, likely its owner",
					 a->c.ifname, desc);
			}
			xl_err("cannot bind an AF_XDP socket to %s queue %u%s: %s for %.1f s (%d tries): %s",
			       a->c.ifname, a->c.queue, a->c.queues > 1 ? " and the next ones" : "",
			       strerror(-err), a->c.bind_timeout_ns / 1e9, tries, holder);
			break;
		}
		xl_dbg("bind on %s: EBUSY, retrying", a->c.ifname);
		xl_sleep_ns(BIND_RETRY_NS, NULL);
	}
	return err;
}

/* Bind in the asked mode; auto tries zero-copy first and says so when it falls back. */
static int bind_all(struct xl_xsk_app *a)
{
	struct xl_xsk_config *c = &a->c;
	uint16_t base = (c->need_wakeup ? XDP_USE_NEED_WAKEUP : 0) | (c->frags ? XDP_USE_SG : 0);
	uint64_t features;
	char drv[32];
	int err;

	xl_xsk_driver(c->ifname, drv, sizeof(drv));
	if (c->copy == XL_XSK_COPY || (c->copy == XL_XSK_AUTO && c->mode == XL_MODE_SKB))
		return build_retry(a, base | XDP_COPY);
	/*
	 * Auto, and the driver's xdp-features say no zero-copy (veth): straight
	 * to copy mode. Trying costs a whole build (the UMEM mapped, populated
	 * and registered twice: 50-80 ms each for 64 MiB on this machine).
	 */
	if (c->copy == XL_XSK_AUTO && !xl_link_xdp_features(a->ifindex, &features) &&
	    !(features & XL_XDP_ACT_XSK_ZEROCOPY)) {
		xl_warn("zero-copy not supported by %s (driver %s, %s mode: not in its xdp-features); falling back to copy mode",
			c->ifname, drv, xl_xdp_mode_name(c->mode));
		return build_retry(a, base | XDP_COPY);
	}
	err = build_retry(a, base | XDP_ZEROCOPY);
	if (!err)
		return 0;
	/* Only a refused bind says anything about zero-copy. */
	if (!a->bind_failed ||
	    (err != -EOPNOTSUPP && err != -EINVAL && err != -EPROTONOSUPPORT))
		return err;
	if (c->copy == XL_XSK_ZEROCOPY) {
		xl_err("zero-copy AF_XDP is not supported by %s (driver %s) in %s mode: %s; use --copy or the default auto mode",
		       c->ifname, drv, xl_xdp_mode_name(c->mode), strerror(-err));
		return -EOPNOTSUPP;
	}
	xl_warn("zero-copy not supported by %s (driver %s, %s mode: %s); falling back to copy mode",
		c->ifname, drv, xl_xdp_mode_name(c->mode), strerror(-err));
	return build_retry(a, base | XDP_COPY);
}

/*
 * Not pinned (no --cpu): when the interface's NAPI runs in a kthread pinned
 * to some CPUs, keep every socket thread off them (issue 11 item 1: an
 * application sharing the NAPI's CPU waits for it while the fill ring
 * empties). A softirq NAPI runs on the sending CPU, unknown here: left to
 * the scheduler. Only the first queue's kthread is looked at.
 */
static void place_away(struct xl_xsk_app *a)
{
	a->napi_pid = a->c.first_cpu < 0 ? xl_napi_kthread_pid(a->c.ifname) : 0;
	a->have_away = xl_cpus_off_napi(a->napi_pid, &a->away, &a->napi_cpus) > 0;
}

struct xl_xsk_app *xl_xsk_app__create(const struct xl_xsk_config *c)
{
	struct xl_xsk_app *a;
	char msg[256];
	int i, err, zc;

	err = xl_xsk_config_check(c, msg, sizeof(msg));
	if (err) {
		xl_err("%s", msg);
		errno = EINVAL;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->c = *c;
	a->nsocks = c->queues;
	a->numems = c->shared_umem ? 1 : c->queues;
	a->socks = aligned_alloc(64, sizeof(*a->socks) * a->nsocks);
	a->workers = XL_WORKERS(a->socks, a->nsocks, wk);
	a->umems = calloc(a->numems, sizeof(*a->umems));
	if (!a->socks || !a->umems) {
		err = -ENOMEM;
		goto out_free;
	}
	memset(a->socks, 0, sizeof(*a->socks) * a->nsocks);
	a->prog.link_fd = -1;
	err = xl_xsk_check_iface(c, msg, sizeof(msg));
	if (err) {
		xl_err("%s", msg);
		goto out_free;
	}
	a->ifindex = if_nametoindex(c->ifname);
	err = xl_memlock_ensure((uint64_t)c->frames * c->frame_size * c->queues);
	if (err)
		goto out_free;
	if (c->dump_path) {
		a->dump = xl_xsk_dump__open(c->dump_path, c->dump_snaplen, c->dump_pcapng,
					    c->ifname);
		if (!a->dump) {
			err = -errno;
			goto out_free;
		}
	}
	if (c->app != XL_XSK_TXPUSH) {
		err = xl_xsk_prog__load(&a->prog, c->frags);
		if (err)
			goto out_close_dump;
		a->have_prog = true;
	}
	err = bind_all(a);
	if (err)
		goto out_unload;
	zc = xl_xsk_is_zerocopy(a->socks[0].q.fd);
	a->zerocopy = zc > 0;
	for (i = 0; i < a->nsocks; i++) {
		a->socks[i].app = a;
		a->socks[i].cpu = c->first_cpu < 0 ? -1 :
				  (c->first_cpu + i) % (int)sysconf(_SC_NPROCESSORS_ONLN);
	}
	place_away(a);
	if (a->have_prog) {
		for (i = 0; i < a->nsocks && !err; i++)
			err = xl_xsk_prog__set(&a->prog, a->socks[i].queue, a->socks[i].q.fd);
		if (!err)
			err = xl_xsk_prog__attach(&a->prog, a->ifindex, c->ifname, c->mode);
		if (err)
			goto out_teardown;
	}
	return a;
out_teardown:
	teardown(a);
out_unload:
	if (a->have_prog)
		xl_xsk_prog__destroy(&a->prog);
out_close_dump:
	xl_xsk_dump__abort(a->dump);
out_free:
	free(a->socks);
	free(a->umems);
	free(a);
	errno = -err;
	return NULL;
}

void xl_xsk_app__umem_facts(const struct xl_xsk_app *a, uint32_t *chunk, uint32_t *nframes,
			    bool *unaligned, bool *huge)
{
	const struct xl_umem *u = &a->umems[0];

	*chunk = u->frame_size;
	*nframes = u->nframes;
	*unaligned = u->unaligned;
	*huge = u->huge;
}

void xl_xsk_app__placement(const struct xl_xsk_app *a, char *buf, size_t len)
{
	char away[64], napi[64];

	if (a->c.first_cpu >= 0) {
		snprintf(buf, len, "socket threads pinned from CPU %d (--cpu)", a->c.first_cpu);
		return;
	}
	if (a->have_away) {
		xl_cpu_list_text(&a->away, away, sizeof(away));
		xl_cpu_list_text(&a->napi_cpus, napi, sizeof(napi));
		snprintf(buf, len, "socket threads on CPU %s, away from %s's NAPI kthread (pid %d) on CPU %s",
			 away, a->c.ifname, a->napi_pid, napi);
		return;
	}
	snprintf(buf, len, a->napi_pid ?
		 "socket threads not pinned: %s's NAPI kthread may run on any CPU (pin it, or use --cpu)" :
		 "socket threads not pinned: %s's NAPI runs in softirq on the CPU that sends to it (use --cpu to choose)",
		 a->c.ifname);
}

bool xl_xsk_app__zerocopy(const struct xl_xsk_app *a)
{
	return a->zerocopy;
}

int xl_xsk_app__nsocks(const struct xl_xsk_app *a)
{
	return a->nsocks;
}

int xl_xsk_app__ifindex(const struct xl_xsk_app *a)
{
	return a->ifindex;
}

int xl_xsk_app__wait_ns(const struct xl_xsk_app *a, uint64_t *wait_ns, uint64_t *run_ns)
{
	return xl_workers_wait(&a->workers, wait_ns, run_ns);
}

void xl_xsk_app__read(struct xl_xsk_app *a, struct xl_xsk_sock_stats *out)
{
	int i;

	for (i = 0; i < a->nsocks; i++) {
		struct xsk_sock *s = &a->socks[i];
		const uint64_t *src = (const uint64_t *)&s->q.c;
		uint64_t *dst = (uint64_t *)&out[i].c;
		size_t k;

		memset(&out[i], 0, sizeof(out[i]));
		out[i].queue = s->queue;
		/* One writer per counter: relaxed 64-bit loads are whole. */
		for (k = 0; k < sizeof(out[i].c) / sizeof(uint64_t); k++)
			dst[k] = __atomic_load_n(&src[k], __ATOMIC_RELAXED);
		out[i].xdp_ok = !xl_xsk_statistics(s->q.fd, &out[i].xdp);
	}
}

void xl_xsk_app__pace(const struct xl_xsk_app *a, struct xl_pace_stats *st)
{
	int i;

	*st = (struct xl_pace_stats){ 0 };
	for (i = 0; i < a->nsocks; i++)
		if (a->socks[i].q.rate_pps)
			xl_pace_add(&a->socks[i].q.pace, st);
}

int xl_xsk_app__audit(struct xl_xsk_app *a, char *buf, size_t len)
{
	size_t used = 0;
	int i, ret = 0;

	buf[0] = '\0';
	for (i = 0; i < a->nsocks && used < len; i++) {
		struct xsk_sock *s = &a->socks[i];
		uint32_t fill, rx, tx, comp;
		char line[512];
		int n;

		xl_xsk_ring_counts(&s->q, &fill, &rx, &tx, &comp);
		if (xl_frames_audit_text(&s->q.frames, fill, rx, tx, comp, line, sizeof(line)))
			ret = -EUCLEAN;
		n = snprintf(buf + used, len - used, "%squeue %u: %s", i ? "\n" : "", s->queue, line);
		if (n < 0)
			break;
		used += n;
	}
	return ret;
}

void xl_xsk_app__destroy(struct xl_xsk_app *a)
{
	if (!a)
		return;
	xl_xsk_app__stop(a);
	xl_xsk_app__join(a);
	/* Detach first: no frame may be redirected to a closing socket. */
	if (a->have_prog)
		xl_xsk_prog__destroy(&a->prog);
	teardown(a);
	xl_xsk_dump__abort(a->dump); /* not closed by xl_xsk_app__dump_close(): not saved */
	free(a->socks);
	free(a->umems);
	free(a);
}
