// SPDX-License-Identifier: BSD-2-Clause
/* Worker threads' life cycle (see xdplab/workers.h). */
#include <errno.h>
#include <unistd.h>

#include "xdplab/sysstat.h"
#include "xdplab/workers.h"

static struct xl_worker *wk_of(const struct xl_workers *w, int i)
{
	return (struct xl_worker *)((char *)w->base + (size_t)i * w->stride + w->off);
}

static void *elem_of(const struct xl_workers *w, int i)
{
	return (char *)w->base + (size_t)i * w->stride;
}

int xl_workers_start(struct xl_workers *w, void *(*fn)(void *), void (*stop)(void *ctx),
		     void *ctx)
{
	int i, err;

	for (i = 0; i < w->n; i++) {
		err = pthread_create(&wk_of(w, i)->tid, NULL, fn, elem_of(w, i));
		if (err) {
			stop(ctx);
			while (--i >= 0)
				pthread_join(wk_of(w, i)->tid, NULL);
			return -err;
		}
	}
	w->started = true;
	return 0;
}

void xl_worker_running(struct xl_worker *wk)
{
	__atomic_store_n(&wk->ktid, (int)gettid(), __ATOMIC_RELEASE);
}

void xl_worker_finished(struct xl_worker *wk)
{
	__atomic_store_n(&wk->done, 1, __ATOMIC_RELEASE);
}

bool xl_workers_done_one(const struct xl_workers *w, int i)
{
	return __atomic_load_n(&wk_of(w, i)->done, __ATOMIC_ACQUIRE);
}

bool xl_workers_done(const struct xl_workers *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (!xl_workers_done_one(w, i))
			return false;
	return true;
}

void xl_workers_join(struct xl_workers *w)
{
	int i;

	if (!w->started)
		return;
	for (i = 0; i < w->n; i++)
		pthread_join(wk_of(w, i)->tid, NULL);
	w->started = false;
}

int xl_workers_runtime(const struct xl_workers *w, uint64_t *ns)
{
	uint64_t wait;

	return xl_workers_wait(w, &wait, ns);
}

int xl_workers_wait(const struct xl_workers *w, uint64_t *wait_ns, uint64_t *run_ns)
{
	uint64_t r;
	int i, tid;

	*wait_ns = *run_ns = 0;
	for (i = 0; i < w->n; i++) {
		tid = __atomic_load_n(&wk_of(w, i)->ktid, __ATOMIC_ACQUIRE);
		if (tid <= 0)
			continue;
		*wait_ns += xl_task_wait_ns(tid, &r);
		if (!r) {
			*wait_ns = *run_ns = 0;
			return -EIO;
		}
		*run_ns += r;
	}
	return 0;
}
