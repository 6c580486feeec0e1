// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_sampler.c - unit tests of the one sampler (src/lib/measure/sampler.c)
 * with fake samples: which slots it fills, that its windows tile the run,
 * how it ends (stop, done, vanished, a failed sample). No timing is asserted.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "xdplab/sampler.h"

struct fake {
	int nsample, fail_at, ninterval, alive_ret, npartial;
	int nrep_end, complete[8], rep_of_interval[64], rep_now, nwait;
	int slots[64], from[64], to[64];
	volatile sig_atomic_t stop;
};

static int f_sample(void *ctx, int slot)
{
	struct fake *f = ctx;

	if (f->nsample == f->fail_at)
		return -EIO;
	f->slots[f->nsample++] = slot;
	return 0;
}

static int f_alive(void *ctx)
{
	return ((struct fake *)ctx)->alive_ret;
}

static void f_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct fake *f = ctx;

	f->rep_of_interval[f->ninterval] = f->rep_now;
	f->from[f->ninterval] = from;
	f->to[f->ninterval] = to;
	f->ninterval++;
	f->npartial += partial;
}

static void f_rep_end(void *ctx, int rep, bool complete)
{
	struct fake *f = ctx;

	assert_int_equal(rep, f->nrep_end);
	f->complete[f->nrep_end++] = complete;
	f->rep_now = rep + 1;
}

static struct xl_sampler sampler(struct fake *f, uint64_t duration_ns)
{
	return (struct xl_sampler){ .interval_ns = 20000000, .duration_ns = duration_ns,
				    .poll_ns = 5000000, .stop = &f->stop, .sample = f_sample,
				    .alive = f_alive, .interval = f_interval,
				    .rep_end = f_rep_end, .ctx = f };
}

static void test_stop_already_set(void **state)
{
	struct fake f = { .fail_at = -1, .stop = 1 };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	assert_int_equal(xl_sampler_run(&s), 0);
	/* The first sample and a final one: one partial window 0 -> 1. */
	assert_int_equal(f.nsample, 2);
	assert_int_equal(f.slots[0], 0);
	assert_int_equal(f.slots[1], 1);
	assert_int_equal(f.ninterval, 1);
	assert_int_equal(f.npartial, 1);
	assert_int_equal(s.last_slot, 1);
}

static void test_done(void **state)
{
	struct fake f = { .fail_at = -1, .alive_ret = XL_SAMPLER_DONE };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	assert_int_equal(xl_sampler_run(&s), 0);
	assert_int_equal(f.nsample, 2);
	assert_int_equal(f.ninterval, 1);
	assert_int_equal(f.npartial, 1);
}

static void test_vanished(void **state)
{
	struct fake f = { .fail_at = -1, .alive_ret = -5 };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	/* alive's value comes back; the counts until then are still handed over. */
	assert_int_equal(xl_sampler_run(&s), -5);
	assert_int_equal(f.nsample, 2);
	assert_int_equal(f.ninterval, 1);
	assert_int_equal(f.npartial, 1);
}

static void test_first_sample_fails(void **state)
{
	struct fake f = { .fail_at = 0 };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	assert_int_equal(xl_sampler_run(&s), -EIO);
	assert_int_equal(f.ninterval, 0);
	assert_int_equal(s.last_slot, -1);
}

static void test_later_sample_fails(void **state)
{
	struct fake f = { .fail_at = 2 };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	assert_int_equal(xl_sampler_run(&s), -EIO);
	assert_int_equal(f.ninterval, 1); /* only the window whose end was read */
	assert_int_equal(s.last_slot, 1);
}

static void test_windows_tile(void **state)
{
	struct fake f = { .fail_at = -1 };
	struct xl_sampler s = sampler(&f, 90000000); /* 90 ms of 20 ms intervals */
	int i;

	(void)state;
	assert_int_equal(xl_sampler_run(&s), 0);
	assert_true(f.ninterval >= 1);
	assert_int_equal(f.nsample, f.ninterval + 1);
	assert_int_equal(f.from[0], 0);
	for (i = 1; i < f.ninterval; i++) {
		/* Each window starts where the previous one ended, slots 1 and 2 alternate. */
		assert_int_equal(f.from[i], f.to[i - 1]);
		assert_int_not_equal(f.to[i], f.from[i]);
		assert_true(f.to[i] == 1 || f.to[i] == 2);
	}
	assert_int_equal(s.last_slot, f.to[f.ninterval - 1]);
}

static void test_have_first(void **state)
{
	struct fake f = { .fail_at = -1, .stop = 1 };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	s.have_first = true;
	assert_int_equal(xl_sampler_run(&s), 0);
	/* Slot 0 is the caller's: only the final sample is taken. */
	assert_int_equal(f.nsample, 1);
	assert_int_equal(f.slots[0], 1);
	assert_int_equal(f.from[0], 0);
}

static void test_reps_tile(void **state)
{
	struct fake f = { .fail_at = -1 };
	struct xl_sampler s = sampler(&f, 30000000); /* 30 ms of 20 ms intervals */
	int i;

	(void)state;
	s.reps = 3;
	assert_int_equal(xl_sampler_run(&s), 0);
	assert_int_equal(f.nrep_end, 3);
	assert_true(f.complete[0] && f.complete[1] && f.complete[2]);
	/* One first sample for the whole run: repetitions share their edges. */
	assert_int_equal(f.nsample, f.ninterval + 1);
	for (i = 1; i < f.ninterval; i++)
		assert_int_equal(f.from[i], f.to[i - 1]);
	/* At least one window per repetition, however late the host wakes us
	 * (on time it is two each: 20 ms and the rest of 30 ms; a unit test
	 * asserts no timing, so only what holds at any speed is checked). */
	assert_true(f.ninterval >= 3);
	assert_int_equal(f.rep_of_interval[0], 0);
	assert_int_equal(f.rep_of_interval[f.ninterval - 1], 2);
}

static void test_reps_stopped(void **state)
{
	struct fake f = { .fail_at = -1, .stop = 1 };
	struct xl_sampler s = sampler(&f, 30000000);

	(void)state;
	s.reps = 3;
	assert_int_equal(xl_sampler_run(&s), 0);
	/* The first repetition was cut short: not complete, and no other follows. */
	assert_int_equal(f.nrep_end, 1);
	assert_false(f.complete[0]);
	assert_int_equal(f.ninterval, 1);
}

static int f_wait_fails(void *ctx, uint64_t ns)
{
	struct fake *f = ctx;

	assert_true(ns > 0 && ns <= 5000000); /* at most the poll period */
	return ++f->nwait == 3 ? -EPIPE : 0;
}

static void test_wait_callback(void **state)
{
	struct fake f = { .fail_at = -1 };
	struct xl_sampler s = sampler(&f, 0);

	(void)state;
	s.interval_ns = 1000000000ull; /* no interval ends before the third wait */
	s.wait = f_wait_fails;
	assert_int_equal(xl_sampler_run(&s), -EPIPE);
	assert_int_equal(f.nwait, 3);
	assert_int_equal(f.ninterval, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_already_set),
		cmocka_unit_test(test_done),
		cmocka_unit_test(test_vanished),
		cmocka_unit_test(test_first_sample_fails),
		cmocka_unit_test(test_later_sample_fails),
		cmocka_unit_test(test_windows_tile),
		cmocka_unit_test(test_have_first),
		cmocka_unit_test(test_reps_tile),
		cmocka_unit_test(test_reps_stopped),
		cmocka_unit_test(test_wait_callback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
