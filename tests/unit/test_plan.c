// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_plan.c - unit tests of the repetition planner
 * (src/lib/measure/plan.c) with fake callbacks that write what was called,
 * in order, into a trace: set-up, warm-up-free windows, the arms' order,
 * the profiled repetition, the companion's hooks, how errors and stops
 * end a plan. Windows are 0 ns: no timing is asserted.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "xdplab/plan.h"

struct fake {
	char trace[2048];
	int fail_setup_rep, fail_close_rep, fail_wait_rep, stop_at_close_rep;
	int teardown_err;
	volatile sig_atomic_t stop;
};

static void put(struct fake *f, const char *fmt, ...)
{
	size_t n = strlen(f->trace);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->trace + n, sizeof(f->trace) - n, fmt, ap);
	va_end(ap);
}

static int f_setup(void *ctx, const struct xl_plan_step *st)
{
	struct fake *f = ctx;

	put(f, "S%d%s ", st->rep, st->profiled ? "p" : "");
	return st->rep == f->fail_setup_rep ? -EIO : 0;
}

static int f_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct fake *f = ctx;

	put(f, "T%d(%d) ", st->rep, err);
	f->teardown_err = err;
	return err;
}

static int f_open(void *ctx, const struct xl_plan_step *st)
{
	put(ctx, "o%d.%d.%d%s ", st->rep, st->arm, st->slice, st->profiled ? "p" : "");
	return 0;
}

static int f_wait(void *ctx, const struct xl_plan_step *st, uint64_t ns)
{
	struct fake *f = ctx;

	put(f, "w ");
	return st->rep == f->fail_wait_rep ? -EPIPE : 0;
}

static int f_close(void *ctx, const struct xl_plan_step *st)
{
	struct fake *f = ctx;

	put(f, "c%d.%d ", st->rep, st->arm);
	if (st->rep == f->stop_at_close_rep)
		f->stop = 1;
	return st->rep == f->fail_close_rep ? -EIO : 0;
}

static int f_rep_done(void *ctx, const struct xl_plan_step *st)
{
	put(ctx, "D%d%s ", st->rep, st->profiled ? "p" : "");
	return 0;
}

static void c_between(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st)
{
	put(ctx, "B%d%s ", st->rep, st->live ? "l" : "");
}

static void c_open(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st)
{
	put(ctx, "[ ");
}

static void c_close(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st)
{
	put(ctx, "] ");
}

static const struct xl_plan_ops ops = { .setup = f_setup, .teardown = f_teardown,
					.open = f_open, .close = f_close,
					.rep_done = f_rep_done };

static struct xl_plan plan(struct fake *f, enum xl_plan_scope scope, int reps, int arms)
{
	memset(f, 0, sizeof(*f));
	f->fail_setup_rep = f->fail_close_rep = f->fail_wait_rep = f->stop_at_close_rep = -1;
	return (struct xl_plan){ .reps = reps, .arms = arms, .scope = scope, .stop = &f->stop,
				 .cpu = 1, .ops = &ops, .ctx = f };
}

/* Per repetition: set-up, window, tear-down, record; then the profiled one, recorded as such, not counted. */
static void test_per_rep_profiled(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_PER_REP, 2, 1);

	(void)state;
	p.profile = true;
	assert_int_equal(xl_plan_run(&p), 0);
	assert_string_equal(f.trace, "S0 o0.0.0 c0.0 T0(0) D0 S1 o1.0.0 c1.0 T1(0) D1 "
				     "S2p o2.0.0p c2.0 T2(0) D2p ");
	assert_int_equal(p.done, 2);
	assert_false(p.failed_profiled);
}

/* The companion: on both sides of every counted repetition, around every window. */
static void test_companion_per_rep(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_PER_REP, 2, 1);
	struct xl_plan_companion c = { c_between, c_open, c_close, &f };

	(void)state;
	p.companion = &c;
	p.profile = true;
	assert_int_equal(xl_plan_run(&p), 0);
	assert_string_equal(f.trace, "B0 S0 o0.0.0 [ ] c0.0 T0(0) D0 B1 S1 o1.0.0 [ ] c1.0 T1(0) D1 "
				     "B2 S2p o2.0.0p [ ] c2.0 T2(0) D2p ");
}

/* One set-up: the companion's later calls run with the traffic flowing. */
static void test_companion_once(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_ONCE, 2, 1);
	struct xl_plan_companion c = { .between = c_between, .ctx = &f };

	(void)state;
	p.companion = &c;
	assert_int_equal(xl_plan_run(&p), 0);
	assert_string_equal(f.trace, "B0 S0 o0.0.0 c0.0 D0 B1l o1.0.0 c1.0 D1 B2l T0(0) ");
}

/* Two arms: A B, B A, A B (lab run --ab, ab, the sensitivity search). */
static void test_two_arms_alternate(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_ONCE, 3, 2);

	(void)state;
	assert_int_equal(xl_plan_run(&p), 0);
	assert_string_equal(f.trace, "S0 o0.0.0 c0.0 o0.1.0 c0.1 D0 o1.1.0 c1.1 o1.0.0 c1.0 D1 "
				     "o2.0.0 c2.0 o2.1.0 c2.1 D2 T0(0) ");
	assert_int_equal(p.done, 3);
}

/* More arms and slices: the order moves on per round of arms and per
 * repetition; 3 arms take the mirrored rows too (rep 1's third round). */
static void test_arms_rotate(void **state)
{
	static const int want[2][8] = { { 0, 1, 2, 1, 2, 0, 2, 0 }, { 1, 2, 0, 2, 0, 1, 2, 1 } };
	static const int want4[8] = { 0, 1, 3, 2, 1, 2, 0, 3 };
	int rep, w;

	(void)state;
	for (rep = 0; rep < 2; rep++)
		for (w = 0; w < 8; w++)
			assert_int_equal(xl_plan_arm(3, rep, w), want[rep][w]);
	for (w = 0; w < 8; w++)
		assert_int_equal(xl_plan_arm(4, 0, w), want4[w]);
	assert_int_equal(xl_plan_arm(1, 5, 3), 0);
}

/*
 * Carry-over balance, 2 to 9 arms: over the square's rows (one round of
 * each repetition 0..rows-1) every round measures each arm once, and every
 * ordered pair of different arms is consecutive equally often: once per
 * square with an even number of arms, twice with an odd one. With 2 arms
 * the order is A B, B A, ... as it always was.
 */
static void test_arms_carryover_balanced(void **state)
{
	int n, t, j, a, b;

	(void)state;
	for (n = 2; n <= 9; n++) {
		int rows = n % 2 ? 2 * n : n, pairs[9][9] = { { 0 } };

		for (t = 0; t < rows; t++) {
			int seen = 0;

			for (j = 0; j < n; j++) {
				seen |= 1 << xl_plan_arm(n, t, j);
				if (j)
					pairs[xl_plan_arm(n, t, j - 1)][xl_plan_arm(n, t, j)]++;
			}
			assert_int_equal(seen, (1 << n) - 1);
		}
		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++)
				assert_int_equal(pairs[a][b], a == b ? 0 : (n % 2 ? 2 : 1));
	}
	for (t = 0; t < 4; t++)
		for (j = 0; j < 6; j++)
			assert_int_equal(xl_plan_arm(2, t, j), (t + j / 2 + j) % 2);
}

/* Per window: each window its own set-up and tear-down, the record after the repetition. */
static void test_per_window(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_PER_WINDOW, 2, 2);

	(void)state;
	assert_int_equal(xl_plan_run(&p), 0);
	assert_string_equal(f.trace, "S0 o0.0.0 c0.0 T0(0) S0 o0.1.0 c0.1 T0(0) D0 "
				     "S1 o1.1.0 c1.1 T1(0) S1 o1.0.0 c1.0 T1(0) D1 ");
}

/* A failed set-up is torn down with its error and ends the plan. */
static void test_setup_fails(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_PER_REP, 3, 1);

	(void)state;
	f.fail_setup_rep = 1;
	assert_int_equal(xl_plan_run(&p), -EIO);
	assert_string_equal(f.trace, "S0 o0.0.0 c0.0 T0(0) D0 S1 T1(-5) ");
	assert_int_equal(p.done, 1);
	assert_false(p.failed_profiled);
}

/* A stop in a window: torn down with -EINTR, that repetition not recorded. */
static void test_stop_in_window(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_ONCE, 3, 2);

	(void)state;
	f.stop_at_close_rep = 1;
	assert_int_equal(xl_plan_run(&p), -EINTR);
	assert_string_equal(f.trace, "S0 o0.0.0 c0.0 o0.1.0 c0.1 D0 o1.1.0 c1.1 T0(-4) ");
	assert_int_equal(p.done, 1);
}

/* A stop before the plan: nothing is set up. */
static void test_stop_before(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_PER_REP, 3, 1);

	(void)state;
	f.stop = 1;
	assert_int_equal(xl_plan_run(&p), -EINTR);
	assert_string_equal(f.trace, "");
	assert_int_equal(p.done, 0);
}

/* A failed wait: the window is still closed (a profiler stopped), the wait's error kept. */
static void test_wait_fails(void **state)
{
	struct fake f;
	struct xl_plan_ops o = ops;
	struct xl_plan p = plan(&f, XL_PLAN_PER_REP, 2, 1);

	(void)state;
	o.wait = f_wait;
	p.ops = &o;
	f.fail_wait_rep = 0;
	f.fail_close_rep = 0;
	assert_int_equal(xl_plan_run(&p), -EPIPE);
	assert_string_equal(f.trace, "S0 o0.0.0 w c0.0 T0(-32) ");
}

/* The profiled repetition's failure is told apart: the counted ones stand. */
static void test_profiled_fails(void **state)
{
	struct fake f;
	struct xl_plan p = plan(&f, XL_PLAN_PER_REP, 2, 1);

	(void)state;
	p.profile = true;
	f.fail_close_rep = 2;
	assert_int_equal(xl_plan_run(&p), -EIO);
	assert_int_equal(p.done, 2);
	assert_true(p.failed_profiled);
	assert_int_equal(f.teardown_err, -EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_rep_profiled),
		cmocka_unit_test(test_companion_per_rep),
		cmocka_unit_test(test_companion_once),
		cmocka_unit_test(test_two_arms_alternate),
		cmocka_unit_test(test_arms_rotate),
		cmocka_unit_test(test_arms_carryover_balanced),
		cmocka_unit_test(test_per_window),
		cmocka_unit_test(test_setup_fails),
		cmocka_unit_test(test_stop_in_window),
		cmocka_unit_test(test_stop_before),
		cmocka_unit_test(test_wait_fails),
		cmocka_unit_test(test_profiled_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
