// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pace.c - the senders' pacing arithmetic (xdplab/pace.h, used by
 * gen and xsk txpush) on a fake clock: frames due, the wait until the next
 * one, and the catch-up after a stall capped at the bucket depth with the
 * rest of the debt counted as skipped. No timing: every "now" is given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "xdplab/pace.h"

#define MS 1000000ull

static void test_pace_depth(void **state)
{
	struct xl_pace p;

	xl_pace_init(&p, 25000, 0);
	assert_int_equal(p.depth, 25); /* the frames of 1 ms */
	xl_pace_init(&p, 1000, 0);
	assert_int_equal(p.depth, 8); /* 1 frame per ms: the minimum */
	xl_pace_init(&p, 7000000, 0);
	assert_int_equal(p.depth, 7000);
}

static void test_pace_due_and_wait(void **state)
{
	struct xl_pace p;
	uint64_t wait = 0;

	xl_pace_init(&p, 1000, 5 * MS);
	assert_int_equal(xl_pace_due(&p, 5 * MS, 0, &wait), 0);
	assert_int_equal(wait, MS); /* frame 1 is due 1 ms after the start */
	assert_int_equal(xl_pace_due(&p, 3 * MS, 0, &wait), 0); /* before the start */
	assert_int_equal(xl_pace_due(&p, 6 * MS, 0, &wait), 1);
	assert_int_equal(xl_pace_due(&p, 6 * MS + 500000, 1, &wait), 0);
	assert_int_equal(wait, 500000);
	assert_int_equal(xl_pace_due(&p, 12 * MS, 1, &wait), 6);
	assert_int_equal(p.skipped, 0);
	assert_int_equal(p.stalls, 0);
}

/* The measured case: a thread away for 73 ms at 100 kpps owed 7,300
 * frames; it now sends the depth (100) and skips 7,200. */
static void test_pace_stall_capped(void **state)
{
	struct xl_pace p;
	uint64_t wait = 0;

	xl_pace_init(&p, 100000, 0);
	assert_int_equal(xl_pace_due(&p, 73 * MS, 0, &wait), 100);
	assert_int_equal(p.skipped, 7200);
	assert_int_equal(p.stalls, 1);
	assert_int_equal(p.max_due, 100);
	/* Those 100 sent: nothing more due until frame 7,301's time. */
	assert_int_equal(xl_pace_due(&p, 73 * MS, 100, &wait), 0);
	assert_int_equal(wait, 10000);
	/* Then the schedule goes on from there, no further skipping. */
	assert_int_equal(xl_pace_due(&p, 74 * MS, 100, &wait), 100);
	assert_int_equal(p.skipped, 7200);
	assert_int_equal(p.stalls, 1);
	assert_int_equal(p.max_due, 100);
}

/* A sender's pacers summed: stalls, skipped and depths add up, the largest
 * catch-up is the largest of them. */
static void test_pace_add(void **state)
{
	struct xl_pace a, b;
	struct xl_pace_stats st = { 0 };

	xl_pace_init(&a, 100000, 0);
	xl_pace_init(&b, 20000, 0);
	assert_int_equal(xl_pace_due(&a, 73 * MS, 0, NULL), 100); /* 7,200 skipped */
	assert_int_equal(xl_pace_due(&b, 3 * MS, 0, NULL), 20);	  /* 40 skipped */
	assert_int_equal(xl_pace_due(&b, 3 * MS, 20, NULL), 0); /* the 20 sent: none due */
	xl_pace_add(&a, &st);
	xl_pace_add(&b, &st);
	assert_int_equal(st.stalls, 2);
	assert_int_equal(st.skipped, 7240);
	assert_int_equal(st.depth, 120);
	assert_int_equal(st.max_due, 100);
}

/*
 * A sender on the fake clock: every step sends what is due (at most
 * @budget left); one step of @stall_ns at @stall_at. Returns the frames
 * sent; *@max_burst the largest single send; *@end the clock at the end.
 */
static uint64_t simulate(struct xl_pace *p, uint64_t step_ns, uint64_t until_ns,
			 uint64_t budget, uint64_t stall_at, uint64_t stall_ns, uint64_t *max_burst,
			 uint64_t *end)
{
	uint64_t now = 0, sent = 0, d;

	*max_burst = 0;
	while (now < until_ns && (!budget || sent < budget)) {
		now += now == stall_at ? stall_ns : step_ns;
		d = xl_pace_due(p, now, sent, NULL);
		if (budget && d > budget - sent)
			d = budget - sent;
		if (d > *max_burst)
			*max_burst = d;
		sent += d;
	}
	*end = now;
	return sent;
}

/* Kept up with (a step shorter than the depth's 1 ms): exactly the rate,
 * nothing skipped. */
static void test_pace_steady(void **state)
{
	struct xl_pace p;
	uint64_t burst, end;

	xl_pace_init(&p, 1000000, 0);
	assert_int_equal(simulate(&p, 100000, 1000 * MS, 0, 1, 0, &burst, &end), 1000000);
	assert_int_equal(burst, 100);
	assert_int_equal(p.max_due, 100);
	assert_int_equal(p.skipped, 0);
	assert_int_equal(p.stalls, 0);
}

/* A duration run (no count) with a 50 ms stall at 20 kpps: the burst
 * after it is the depth (20), 980 frames of schedule skipped and not sent
 * (20,000 - 980 in the second). */
static void test_pace_stall_duration(void **state)
{
	struct xl_pace p;
	uint64_t burst, end;

	xl_pace_init(&p, 20000, 0);
	assert_int_equal(simulate(&p, 100000, 1000 * MS, 0, 200 * MS, 50 * MS, &burst, &end),
			 20000 - 980);
	assert_int_equal(burst, 20);
	assert_int_equal(p.skipped, 980);
	assert_int_equal(p.stalls, 1);
}

/* With a count the debt is spread, not dropped: all 10,000 frames go, the
 * largest send is still the depth, and the run ends 49 ms later than the
 * schedule's 500 ms (980 frames' worth skipped at 20 kpps). */
static void test_pace_stall_count(void **state)
{
	struct xl_pace p;
	uint64_t burst, end;

	xl_pace_init(&p, 20000, 0);
	assert_int_equal(simulate(&p, 100000, 10000 * MS, 10000, 200 * MS, 50 * MS, &burst, &end),
			 10000);
	assert_int_equal(burst, 20);
	assert_int_equal(p.skipped, 980);
	assert_int_equal(end, 549 * MS);
}

/* The depth follows the engine's cost per call (the upper median of the
 * last 8): a live-frames call of 24 ms at 20 kpps lets 960 frames (2
 * calls' worth) go at once; one call that held a 200 ms stall does not
 * raise it; never below the 1 ms minimum. */
static void test_pace_call_cost(void **state)
{
	struct xl_pace p;

	xl_pace_init(&p, 20000, 0);
	assert_int_equal(p.depth, 20);
	xl_pace_call(&p, 24 * MS);
	assert_int_equal(p.depth, 960);
	/* 24 ms of schedule owed after such a call: no stall. */
	assert_int_equal(xl_pace_due(&p, 24 * MS, 0, NULL), 480);
	assert_int_equal(p.stalls, 0);
	/* A 100 ms stall: 960 go, 1,040 skipped. */
	assert_int_equal(xl_pace_due(&p, 124 * MS, 480, NULL), 960);
	assert_int_equal(p.skipped, 1040);
	assert_int_equal(p.stalls, 1);
	xl_pace_call(&p, 22 * MS);
	xl_pace_call(&p, 20 * MS); /* 20 22 24: 22 */
	assert_int_equal(p.call_ns, 22 * MS);
	assert_int_equal(p.depth, 880);
	xl_pace_call(&p, 200 * MS); /* 20 22 24 200: 24 */
	assert_int_equal(p.depth, 960);
	xl_pace_call(&p, 1 * MS);
	xl_pace_call(&p, 1 * MS);
	xl_pace_call(&p, 1 * MS);
	xl_pace_call(&p, 1 * MS); /* 1 1 1 1 20 22 24 200: 20 */
	assert_int_equal(p.depth, 800);
	xl_pace_call(&p, 1 * MS); /* the first 24 ms call leaves: 1 x5 20 22 200: 1 */
	assert_int_equal(p.depth, 40);
	xl_pace_init(&p, 20000, 0);
	xl_pace_call(&p, 100000); /* 0.1 ms: 4 frames, the minimum holds */
	assert_int_equal(p.depth, 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pace_depth),
		cmocka_unit_test(test_pace_due_and_wait),
		cmocka_unit_test(test_pace_stall_capped),
		cmocka_unit_test(test_pace_add),
		cmocka_unit_test(test_pace_steady),
		cmocka_unit_test(test_pace_stall_duration),
		cmocka_unit_test(test_pace_stall_count),
		cmocka_unit_test(test_pace_call_cost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
