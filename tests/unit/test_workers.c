// SPDX-License-Identifier: BSD-2-Clause
/* test_workers.c - unit tests of the worker threads' life cycle (src/lib/sys/workers.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <time.h>

#include "xdplab/workers.h"

#define SPIN_LIMIT_S 30 /* the longest wait for the threads to start, seconds */

struct elem {
	int idx;
	struct xl_worker wk;
	int *go;
	int ran;
};

static void *body(void *arg)
{
	struct elem *e = arg;

	xl_worker_running(&e->wk);
	while (!__atomic_load_n(e->go, __ATOMIC_ACQUIRE))
		sched_yield();
	e->ran = e->idx + 100;
	xl_worker_finished(&e->wk);
	return NULL;
}

static void stop(void *ctx)
{
	__atomic_store_n((int *)ctx, 1, __ATOMIC_RELEASE);
}

static void test_life_cycle(void **state)
{
	struct elem e[3] = { { .idx = 0 }, { .idx = 1 }, { .idx = 2 } };
	struct xl_workers w = XL_WORKERS(e, 3, wk);
	int go = 0, i, running;
	struct timespec t0, t;
	uint64_t ns = 0;

	(void)state;
	for (i = 0; i < 3; i++)
		e[i].go = &go;
	assert_int_equal(w.stride, sizeof(struct elem));
	assert_int_equal(w.off, offsetof(struct elem, wk));
	assert_false(w.started);
	xl_workers_join(&w); /* nothing started: nothing to join */
	assert_int_equal(xl_workers_start(&w, body, stop, &go), 0);
	assert_true(w.started);
	/*
	 * Every thread records its kernel tid before it waits for go. Bounded:
	 * a thread that never gets there fails the test after SPIN_LIMIT_S
	 * (generous: 3 threads start in microseconds even on a loaded machine)
	 * instead of hanging it; the threads are released before failing.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (running = 0, i = 0; i < 3; i++)
			running += __atomic_load_n(&e[i].wk.ktid, __ATOMIC_ACQUIRE) > 0;
		if (running == 3)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > SPIN_LIMIT_S) {
			print_error("%d of 3 worker threads running after %d s\n", running, SPIN_LIMIT_S);
			stop(&go);
			xl_workers_join(&w);
			fail();
		}
		sched_yield();
	}
	assert_false(xl_workers_done(&w));
	assert_int_equal(xl_workers_runtime(&w, &ns), 0);
	assert_true(ns > 0);
	stop(&go);
	xl_workers_join(&w);
	assert_false(w.started);
	assert_true(xl_workers_done(&w));
	for (i = 0; i < 3; i++) {
		assert_true(xl_workers_done_one(&w, i));
		assert_int_equal(e[i].ran, i + 100); /* each thread got its own element */
	}
	/* Ended threads' times cannot be read: no figure rather than a smaller sum. */
	assert_int_equal(xl_workers_runtime(&w, &ns), -EIO);
	assert_int_equal(ns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_life_cycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
