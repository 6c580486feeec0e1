/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file workers.h
 * The one life cycle of a group of worker threads (src/lib/sys/workers.c),
 * for the generator's threads and the AF_XDP socket threads: start one per
 * element of the owner's array, know when each has run and ended, join
 * them, sum their CPU time. Each element embeds a struct xl_worker; what
 * a thread does and how it is told to stop stay the owner's.
 */
#ifndef XDPLAB_WORKERS_H
#define XDPLAB_WORKERS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct xl_worker - one thread's bookkeeping, embedded in its element.
 * @tid: the pthread. @ktid: its kernel tid once it runs (0 before), for
 * its run time. @done: set when it has ended (acquire/release).
 */
struct xl_worker {
	pthread_t tid;
	int ktid;
	int done;
};

/**
 * struct xl_workers - a group: @n elements of @stride bytes from @base, the
 * struct xl_worker of each at offset @off (see XL_WORKERS()). @started:
 * threads were started and not joined yet.
 */
struct xl_workers {
	void *base;
	int n;
	size_t stride, off;
	bool started;
};

/** XL_WORKERS(arr_, n_, member_) - the group of @n_ elements of the array @arr_, whose struct xl_worker is @member_. */
#define XL_WORKERS(arr_, n_, member_)                                                  \
	((struct xl_workers){ .base = (arr_), .n = (n_), .stride = sizeof((arr_)[0]),         \
			      .off = offsetof(__typeof__((arr_)[0]), member_) })

/**
 * xl_workers_start() - one thread per element running @fn(element). When a
 * thread cannot be created, @stop(@ctx) tells the ones already started to
 * end and they are joined. Return: 0 or -errno of pthread_create().
 */
int xl_workers_start(struct xl_workers *w, void *(*fn)(void *), void (*stop)(void *ctx),
		     void *ctx);

/** xl_worker_running() - called first by the thread itself: records its kernel tid. */
void xl_worker_running(struct xl_worker *wk);

/** xl_worker_finished() - called last by the thread itself: it has ended. */
void xl_worker_finished(struct xl_worker *wk);

/** xl_workers_done() - every thread has called xl_worker_finished(). */
bool xl_workers_done(const struct xl_workers *w);

/** xl_workers_done_one() - element @i's thread has ended. */
bool xl_workers_done_one(const struct xl_workers *w, int i);

/** xl_workers_join() - join every thread (nothing when not started). */
void xl_workers_join(struct xl_workers *w);

/**
 * xl_workers_runtime() - the CPU time the threads have run, summed, ns
 * (/proc/PID/schedstat); threads not running yet add 0.
 * Return: 0, or -EIO when a running thread's time could not be read (a
 * failed read is no figure, not a smaller sum; *@ns is then 0).
 */
int xl_workers_runtime(const struct xl_workers *w, uint64_t *ns);

/**
 * xl_workers_wait() - the time the threads have waited for a CPU while
 * runnable (the scheduler's run delay, xl_task_wait_ns()), summed, ns, into
 * *@wait_ns, and their CPU time into *@run_ns; threads not running yet add 0.
 * Return: 0, or -EIO when a running thread's could not be read (both 0).
 */
int xl_workers_wait(const struct xl_workers *w, uint64_t *wait_ns, uint64_t *run_ns);

#endif
