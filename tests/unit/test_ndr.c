// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_ndr.c - unit tests of the zero-loss throughput search
 * (src/lib/measure/ndr.c) against a simulated device and generator: trials
 * of 1 s where the device takes at most @capacity frames a second and the
 * generator sends at most @gen_max unpaced (@paced_max paced, with
 * @paced_short sent above it: a pacer that falls behind). The exact
 * sequence of asked rates, the bounds, the resolution, the results and
 * the refusals are checked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "xdplab/ndr.h"

struct sim {
	uint64_t capacity, gen_max, paced_max, paced_short;
	int fail_at; /* the trial (1-based) that fails with -EIO; 0: none */
	int hiccup_at; /* the trial (1-based) whose pacer sends 97% of its rate; 0: none */
	uint64_t sent_at[4]; /* frames sent by trials 1..4 when not 0 (a pacer's shortfall) */
	volatile sig_atomic_t stop;
	int stop_after;
	int n;
	uint64_t asked[XL_NDR_MAX_TRIALS + 1];
};

static int sim_trial(void *ctx, uint64_t rate, struct xl_ndr_trial *t)
{
	struct sim *s = ctx;
	uint64_t sent;

	s->asked[s->n++] = rate;
	if (s->n == s->fail_at)
		return -EIO;
	if (!rate)
		sent = s->gen_max;
	else if (s->paced_max && rate > s->paced_max)
		sent = s->paced_short;
	else
		sent = rate < s->gen_max ? rate : s->gen_max;
	if (s->n == s->hiccup_at)
		sent = sent * 97 / 100;
	if (s->n <= 4 && s->sent_at[s->n - 1])
		sent = s->sent_at[s->n - 1];
	t->sent = sent;
	t->received = sent < s->capacity ? sent : s->capacity;
	t->ns = 1000000000ull;
	if (s->stop_after && s->n == s->stop_after)
		s->stop = 1;
	return 0;
}

static struct xl_ndr_opts opts(struct sim *s)
{
	return (struct xl_ndr_opts){ .resolution = 0.01, .ndr_loss = 0, .pdr_loss = 0.001,
				     .trial = sim_trial, .ctx = s, .stop = &s->stop };
}

static void expect_asked(const struct sim *s, const struct xl_ndr_result *r,
			 const uint64_t *want, int n)
{
	int i;

	assert_int_equal(s->n, n);
	assert_int_equal(r->ntrials, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(s->asked[i], want[i]);
		assert_int_equal(r->trials[i].rate_pps, want[i]);
	}
}

/* Capacity 400 kpps, generator 1 Mpps, 1% resolution: the exact bisection. */
static void test_ndr_search_path(void **state)
{
	static const uint64_t want[] = { 0, 500000, 250000, 375000, 437500, 406250, 390625,
					 398437 };
	struct sim s = { .capacity = 400000, .gen_max = 1000000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 8);
	assert_int_equal(r.lo_pps, 0);
	assert_int_equal(r.hi_pps, 1000000);
	assert_int_equal(r.resolution_pps, 10000);
	assert_int_equal(r.ndr_pps, 398437);
	assert_int_equal(r.ndr_fail_pps, 406250);
	/* 406250 loses 1.54%, above the PDR's 0.1%: the same interval. */
	assert_int_equal(r.pdr_pps, 398437);
	assert_int_equal(r.pdr_fail_pps, 406250);
	assert_true(r.converged);
	assert_false(r.gen_limited);
	assert_false(r.below_min);
	/* The first trial: unpaced, 600000 of 1000000 lost. */
	assert_int_equal(r.trials[0].sent, 1000000);
	assert_int_equal(r.trials[0].received, 400000);
	assert_true(r.trials[0].loss > 0.6 - 1e-12 && r.trials[0].loss < 0.6 + 1e-12);
	assert_false(r.trials[0].pass_ndr);
	assert_true(r.trials[7].pass_ndr);
}

/*
 * One paced trial short of its rate (the pacer sent 97% of 250000 once,
 * a busy host) below the 1 Mpps the unpaced trial reached: it is run
 * again and the search goes on to the device's 400 kpps as without the
 * hiccup, not ending "limited by the generator" at 242500 (it did so
 * before: ndr's xsk-rxdrop row stopped at the rate of one short trial).
 */
static void test_ndr_paced_hiccup_retried(void **state)
{
	static const uint64_t want[] = { 0, 500000, 250000, 250000, 375000, 437500, 406250,
					 390625, 398437 };
	struct sim s = { .capacity = 400000, .gen_max = 1000000, .hiccup_at = 3 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 9);
	assert_true(r.trials[2].short_of_rate);
	assert_int_equal(r.trials[2].sent, 242500);
	assert_false(r.trials[3].short_of_rate);
	assert_int_equal(r.ndr_pps, 398437);
	assert_int_equal(r.ndr_fail_pps, 406250);
	assert_false(r.gen_limited);
	assert_true(r.converged);
}

/*
 * Short twice at 250000, the retry lower (240000, then 230000), both
 * passing: each counts at the rate it sent, so the NDR is 240000, the
 * higher (the retry's 230000 alone made the NDR, below a rate that had
 * passed: CI's ndr-rows, "trial 4 passed at 479028 pps, above the NDR
 * 423004"); the search then ends at the generator.
 */
static void test_ndr_retry_keeps_first(void **state)
{
	static const uint64_t want[] = { 0, 500000, 250000, 250000 };
	struct sim s = { .capacity = 400000, .gen_max = 1000000,
			 .sent_at = { 0, 0, 240000, 230000 } };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 4);
	assert_true(r.trials[2].short_of_rate && r.trials[3].short_of_rate);
	assert_int_equal(r.ndr_pps, 240000);
	assert_int_equal(r.ndr_fail_pps, 500000);
	assert_true(r.gen_limited);
}

/* PDR at 2%: 406250 (1.54%) passes it; the PDR's interval is searched on after the NDR's. */
static void test_ndr_pdr_shares_trials(void **state)
{
	static const uint64_t want[] = { 0, 500000, 250000, 375000, 437500, 406250, 390625,
					 398437, 421875, 414062 };
	struct sim s = { .capacity = 400000, .gen_max = 1000000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	o.pdr_loss = 0.02;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 10);
	assert_int_equal(r.ndr_pps, 398437);
	assert_int_equal(r.ndr_fail_pps, 406250);
	assert_int_equal(r.pdr_pps, 406250);
	assert_int_equal(r.pdr_fail_pps, 414062);
	assert_true(r.converged);
}

/* The generator's fastest loses nothing: one trial, limited by the generator. */
static void test_ndr_generator_limited(void **state)
{
	static const uint64_t want[] = { 0 };
	struct sim s = { .capacity = 1000000, .gen_max = 300000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 1);
	assert_int_equal(r.ndr_pps, 300000);
	assert_int_equal(r.pdr_pps, 300000);
	assert_int_equal(r.ndr_fail_pps, 0);
	assert_true(r.gen_limited);
	assert_true(r.pdr_gen_limited);
	assert_true(r.converged);
}

/*
 * A pacer that falls behind above 250 kpps (sends 240000 when asked more)
 * though the unpaced generator reaches 300000, a device of 280 kpps: the
 * short trial is run once more (the generator sent faster before), is
 * short again, counts at 240000 and the search ends at the generator.
 */
static void test_ndr_paced_short(void **state)
{
	static const uint64_t want[] = { 0, 150000, 225000, 262500, 262500 };
	struct sim s = { .capacity = 280000, .gen_max = 300000, .paced_max = 250000,
			 .paced_short = 240000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 5);
	assert_true(r.trials[3].short_of_rate);
	assert_true(r.trials[4].short_of_rate);
	assert_false(r.trials[2].short_of_rate);
	assert_int_equal(r.ndr_pps, 240000);
	assert_int_equal(r.ndr_fail_pps, 300000);
	assert_true(r.gen_limited);
	assert_false(r.converged);
}

/* Bounds: --max 500000 is the first trial, --min 100000 the bottom; 1% of 500000. */
static void test_ndr_bounds(void **state)
{
	static const uint64_t want[] = { 500000, 300000, 400000, 450000, 425000, 412500,
					 406250, 403125 };
	struct sim s = { .capacity = 400000, .gen_max = 1000000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	o.min_pps = 100000;
	o.max_pps = 500000;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 8);
	assert_int_equal(r.lo_pps, 100000);
	assert_int_equal(r.hi_pps, 500000);
	assert_int_equal(r.resolution_pps, 5000);
	/* At exactly the capacity nothing is lost. */
	assert_int_equal(r.ndr_pps, 400000);
	assert_int_equal(r.ndr_fail_pps, 403125);
	assert_false(r.gen_limited);
}

/* --max below the device's capacity: every rate passes; the bound, not the generator. */
static void test_ndr_max_passes(void **state)
{
	struct sim s = { .capacity = 400000, .gen_max = 1000000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	o.max_pps = 200000;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	assert_int_equal(r.ntrials, 1);
	assert_int_equal(r.ndr_pps, 200000);
	assert_false(r.gen_limited);
	assert_true(r.converged);
}

/* The device loses at every rate down to --min: the bound is tried last, NDR below it. */
static void test_ndr_below_min(void **state)
{
	static const uint64_t want[] = { 500000, 300000, 200000, 150000, 125000, 112500,
					 106250, 103125, 100000 };
	struct sim s = { .capacity = 50000, .gen_max = 1000000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	o.min_pps = 100000;
	o.max_pps = 500000;
	assert_int_equal(xl_ndr_search(&o, &r), 0);
	expect_asked(&s, &r, want, 9);
	assert_true(r.below_min);
	assert_int_equal(r.ndr_pps, 0);
	assert_int_equal(r.ndr_fail_pps, 100000);
	assert_int_equal(r.pdr_pps, 0);
}

/* The generator's fastest is below --min: the search cannot converge. */
static void test_ndr_gen_below_min(void **state)
{
	struct sim s = { .capacity = 1000000, .gen_max = 50000 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	o.min_pps = 100000;
	assert_int_equal(xl_ndr_search(&o, &r), -ERANGE);
	assert_int_equal(r.ntrials, 1);
	assert_int_equal(r.hi_pps, 50000);
	assert_int_equal((uint64_t)r.trials[0].sent_pps, 50000);
	/* --max above what the generator sends: short at the first trial, the same. */
	s = (struct sim){ .capacity = 1000000, .gen_max = 50000 };
	o.max_pps = 200000;
	assert_int_equal(xl_ndr_search(&o, &r), -ERANGE);
	assert_true(r.trials[0].short_of_rate);
}

/* Out-of-range targets, resolution and bounds: -EINVAL, one line naming the value. */
static void test_ndr_opts_range(void **state)
{
	struct sim s = { .capacity = 1, .gen_max = 1 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;
	char msg[160];

	(void)state;
	o.ndr_loss = 0.6;
	assert_int_equal(xl_ndr_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "NDR loss 60% is out of range (accepted: 0..50%)");
	assert_int_equal(xl_ndr_search(&o, &r), -EINVAL);
	assert_int_equal(s.n, 0);
	o.ndr_loss = -0.01;
	assert_int_equal(xl_ndr_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	o = opts(&s);
	o.ndr_loss = 0.01;
	assert_int_equal(xl_ndr_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "PDR loss 0.1% is out of range (accepted: the NDR's 1%..50%)");
	o = opts(&s);
	o.resolution = 0;
	assert_int_equal(xl_ndr_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "resolution 0% is out of range (accepted: above 0..50%)");
	o = opts(&s);
	o.min_pps = 5;
	o.max_pps = 5;
	assert_int_equal(xl_ndr_opts_check(&o, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "lower bound 5 pps is not below the upper bound 5 pps");
	o = opts(&s);
	assert_int_equal(xl_ndr_opts_check(&o, msg, sizeof(msg)), 0);
}

/* A trial's error ends the search with it; a stop ends it with -EINTR; trials kept. */
static void test_ndr_errors(void **state)
{
	struct sim s = { .capacity = 400000, .gen_max = 1000000, .fail_at = 3 };
	struct xl_ndr_opts o = opts(&s);
	struct xl_ndr_result r;

	(void)state;
	assert_int_equal(xl_ndr_search(&o, &r), -EIO);
	assert_int_equal(r.ntrials, 2);
	assert_int_equal(r.ndr_fail_pps, 500000);
	assert_false(r.converged);
	s = (struct sim){ .capacity = 400000, .gen_max = 1000000, .stop_after = 2 };
	assert_int_equal(xl_ndr_search(&o, &r), -EINTR);
	assert_int_equal(r.ntrials, 2);
}

/*
 * The verdict of one trial: sent rate, loss share, short of its rate
 * (paced only, below 98% of it), and each target's pass, at the edges.
 */
static void test_ndr_trial_judge(void **state)
{
	struct xl_ndr_opts o = { .ndr_loss = 0, .pdr_loss = 0.001, .resolution = 0.01 };
	struct xl_ndr_trial t;

	(void)state;
	/* 100000 asked, 98000 sent in 1 s (exactly 98%: reached), 97902 counted (0.1%). */
	t = (struct xl_ndr_trial){ .rate_pps = 100000, .sent = 98000, .received = 97902,
				   .ns = 1000000000ull };
	xl_ndr_trial_judge(&o, &t);
	assert_true(t.sent_pps == 98000.0);
	assert_true(t.loss == 98.0 / 98000);
	assert_false(t.short_of_rate);
	assert_false(t.pass_ndr);
	assert_true(t.pass_pdr);
	/* One frame more lost: above the PDR's 0.1% too. */
	t.received = 97901;
	xl_ndr_trial_judge(&o, &t);
	assert_false(t.pass_ndr);
	assert_false(t.pass_pdr);
	/* 97999 sent in 1 s: short of 98%; every frame counted passes both. */
	t = (struct xl_ndr_trial){ .rate_pps = 100000, .sent = 97999, .received = 97999,
				   .ns = 1000000000ull };
	xl_ndr_trial_judge(&o, &t);
	assert_true(t.short_of_rate);
	assert_true(t.loss == 0);
	assert_true(t.pass_ndr);
	assert_true(t.pass_pdr);
	/* Unpaced: never short; 500 ms; more counted than sent is no loss. */
	t = (struct xl_ndr_trial){ .rate_pps = 0, .sent = 1000, .received = 1003, .ns = 500000000ull };
	xl_ndr_trial_judge(&o, &t);
	assert_true(t.sent_pps == 2000.0);
	assert_false(t.short_of_rate);
	assert_true(t.loss == 0);
	assert_true(t.pass_ndr);
	/* Nothing sent, no time: rate 0, loss 0, short of a paced rate. */
	t = (struct xl_ndr_trial){ .rate_pps = 10 };
	xl_ndr_trial_judge(&o, &t);
	assert_true(t.sent_pps == 0);
	assert_true(t.loss == 0);
	assert_true(t.short_of_rate);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ndr_search_path),
		cmocka_unit_test(test_ndr_paced_hiccup_retried),
		cmocka_unit_test(test_ndr_retry_keeps_first),
		cmocka_unit_test(test_ndr_pdr_shares_trials),
		cmocka_unit_test(test_ndr_generator_limited),
		cmocka_unit_test(test_ndr_paced_short),
		cmocka_unit_test(test_ndr_bounds),
		cmocka_unit_test(test_ndr_max_passes),
		cmocka_unit_test(test_ndr_below_min),
		cmocka_unit_test(test_ndr_gen_below_min),
		cmocka_unit_test(test_ndr_opts_range),
		cmocka_unit_test(test_ndr_errors),
		cmocka_unit_test(test_ndr_trial_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
