// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AF_XDP applications' run (moved from xsk_app.c): one thread per
 * socket (pinned, scheduled as asked) running its rxdrop, txpush or l2fwd
 * loop on the rings (xsk_ring.c) until it is stopped or fails, then
 * draining in-flight TX and RX so the audit sees every frame home;
 * starting, stopping and joining them.
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

#include "xdplab/log.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"
#include "xdplab/workers.h"
#include "xsk_priv.h"
#include "xsk_app_priv.h"
#include "xsk_dump.h"

/* How long a stopping thread waits for its in-flight TX (ns). */
#define DRAIN_NS 1000000000ull
/* How long txpush waits for the last completions once all is sent (ns). */
#define TX_DONE_NS 2000000000ull

static bool stopping(const struct xsk_sock *s)
{
	return __atomic_load_n(&s->app->stop, __ATOMIC_RELAXED) || s->q.err;
}

/* Give in-flight TX a bounded time to complete, so the audit sees it home. */
static void drain(struct xsk_sock *s)
{
	uint64_t end = xl_now_ns() + DRAIN_NS;

	while (s->q.frames.in_tx && !s->q.err && xl_now_ns() < end) {
		if (!xl_xsk_reap(&s->q, s->q.batch * 4)) {
			xl_xsk_kick_tx(&s->q);
			xl_sleep_ns(1000000, NULL);
		}
	}
}

/*
 * On a stop, what the kernel already put in the RX ring is still processed
 * (counted, forwarded) instead of being left behind; bounded, in case
 * frames keep coming.
 */
static void drain_rx(struct xsk_sock *s)
{
	struct xl_xsk_q *q = &s->q;
	uint64_t end = xl_now_ns() + DRAIN_NS;
	bool saved_poll = q->poll;
	uint32_t idle = 0;

	q->poll = false;
	while (!q->err && idle < 3 && xl_now_ns() < end) {
		if (s->app->c.app == XL_XSK_RXDROP ? xl_xsk_rxdrop_step(q) :
						       xl_xsk_l2fwd_step(q, 0))
			idle = 0;
		else
			idle++;
	}
	q->poll = saved_poll;
}

static void run_txpush(struct xsk_sock *s)
{
	struct xl_xsk_q *q = &s->q;
	uint64_t done_at = 0, now;

	if (q->rate_pps)
		xl_pace_init(&q->pace, q->rate_pps, xl_now_ns());
	while (!stopping(s)) {
		now = xl_now_ns();
		if (!q->budget) {
			/* A burst ends when every frame of it has completed; the
			 * next one starts on the same socket and rings. */
			if (!q->frames.in_tx) {
				if (!s->bursts_left)
					break;
				s->bursts_left--;
				q->budget = s->burst;
				done_at = 0;
				continue;
			}
			if (!done_at)
				done_at = now;
			if (now - done_at > TX_DONE_NS) {
				xl_warn("queue %u: %u frames sent but never completed after %.0f s",
					s->queue, q->frames.in_tx, TX_DONE_NS / 1e9);
				break;
			}
		}
		if (!xl_xsk_txpush_step(q, now) && q->rate_pps && q->budget) {
			/* Until the next frame is due (as gen's threads), within
			 * 20 us..1 ms; 20 us when frames were due but no frame
			 * or ring slot was free. */
			uint64_t w = q->pace_wait_ns;

			xl_sleep_ns(w > 1000000 ? 1000000 : w < 20000 ? 20000 : w, NULL);
		}
	}
}

static void *sock_thread(void *arg)
{
	struct xsk_sock *s = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	xl_worker_running(&s->wk);
	if (s->cpu >= 0) {
		int err = xl_task_set_cpu(0, s->cpu);

		/* Unpinned, its figures would be another placement's: stop. */
		if (err) {
			xl_err("cannot pin the thread of queue %u to CPU %d: %s", s->queue, s->cpu,
			       strerror(-err));
			s->q.err = err;
			xl_worker_finished(&s->wk);
			return NULL;
		}
	}
	/* Away from a pinned NAPI kthread (xl_xsk_app__placement()); not
	 * fatal: the scheduler then places the thread, as without one. */
	if (s->cpu < 0 && s->app->have_away &&
	    sched_setaffinity(0, sizeof(s->app->away), &s->app->away))
		xl_warn("cannot keep the thread of queue %u off the NAPI's CPU: %s", s->queue,
			strerror(errno));
	if (s->app->c.sched_policy != SCHED_OTHER) {
		struct sched_param sp = { .sched_priority = s->app->c.sched_prio };
		int err = pthread_setschedparam(pthread_self(), s->app->c.sched_policy, &sp);

		/* Without it the run is not what was asked: stop, as above. */
		if (err) {
			xl_err("cannot set the thread of queue %u to %s priority %d: %s", s->queue,
			       s->app->c.sched_policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR",
			       s->app->c.sched_prio, strerror(err));
			s->q.err = -err;
			xl_worker_finished(&s->wk);
			return NULL;
		}
	}
	switch (s->app->c.app) {
	case XL_XSK_RXDROP: {
		/* The loop is chosen here, once: no per-packet test of
		 * --verify, --dump or --audit in the plain benchmark. */
		xl_xsk_step_fn step = xl_xsk_rxdrop_loop(&s->q);

		while (!stopping(s))
			step(&s->q);
		drain_rx(s);
		break;
	}
	case XL_XSK_L2FWD:
		while (!stopping(s))
			xl_xsk_l2fwd_step(&s->q, 0);
		drain_rx(s);
		drain(s);
		break;
	case XL_XSK_TXPUSH:
		run_txpush(s);
		drain(s);
		break;
	}
	xl_worker_finished(&s->wk);
	return NULL;
}

static void app_stop_cb(void *a)
{
	xl_xsk_app__stop(a);
}

int xl_xsk_app__start(struct xl_xsk_app *a)
{
	return xl_workers_start(&a->workers, sock_thread, app_stop_cb, a);
}

void xl_xsk_app__stop(struct xl_xsk_app *a)
{
	__atomic_store_n(&a->stop, 1, __ATOMIC_RELAXED);
}

bool xl_xsk_app__done(const struct xl_xsk_app *a)
{
	return xl_workers_done(&a->workers);
}

int xl_xsk_app__join(struct xl_xsk_app *a)
{
	int i, err = 0;

	if (!a->workers.started)
		return 0;
	xl_workers_join(&a->workers);
	for (i = 0; i < a->nsocks && !err; i++)
		err = a->socks[i].q.err;
	if (a->dump)
		xl_xsk_dump__flush(a->dump);
	return err;
}

int xl_xsk_app__dump_close(struct xl_xsk_app *a)
{
	int err;

	xl_xsk_app__stop(a);
	xl_xsk_app__join(a);
	err = xl_xsk_dump__close(a->dump);
	a->dump = NULL;
	return err;
}
