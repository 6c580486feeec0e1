// SPDX-License-Identifier: BSD-2-Clause
/*
 * The one repetition planner (see xdplab/plan.h): the order in which a
 * measured run sets up, warms up, opens and closes its windows, records
 * its repetitions and tears down, written once for every row.
 */
#include <errno.h>

#include "xdplab/plan.h"
#include "xdplab/time.h"

static bool stopped(const struct xl_plan *p)
{
	return p->stop && *p->stop;
}

/*
 * Williams's sequence: position @j of 0, 1, n-1, 2, n-2, 3, ... (@n arms).
 * Its n shifts (each arm + i mod n) are a Latin square in which every arm
 * follows every other exactly once (n even); with the n mirrored rows as
 * well, exactly twice (n odd). E. J. Williams, "Experimental designs
 * balanced for the estimation of residual effects of treatments", Aust.
 * J. Sci. Res. 2 (1949) 149-168.
 */
static int williams(int n, int j)
{
	return j % 2 ? (j + 1) / 2 : (n - j / 2) % n;
}

int xl_plan_arm(int arms, int rep, int window)
{
	int j, t, row;

	if (arms < 2)
		return 0;
	j = window % arms;      /* the position in this round of the arms */
	t = rep + window / arms; /* the round's row: shifted per round and repetition */
	row = t % (arms % 2 ? 2 * arms : arms);
	if (row >= arms)        /* odd: the mirrored rows */
		j = arms - 1 - j;
	return (williams(arms, j) + row) % arms;
}

/* The companion's measurement before repetition @rep (== reps: after the last). */
static void between(struct xl_plan *p, int rep, bool live)
{
	const struct xl_plan_companion *c = p->companion;
	struct xl_plan_step st = { .rep = rep, .live = live };

	if (c && c->between && !stopped(p))
		c->between(c->ctx, p, &st);
}

static int setup(struct xl_plan *p, const struct xl_plan_step *st)
{
	int err = p->ops->setup ? p->ops->setup(p->ctx, st) : 0;

	if (!err && p->warmup_ns)
		xl_sleep_ns(p->warmup_ns, p->stop);
	return err;
}

static int teardown(struct xl_plan *p, const struct xl_plan_step *st, int err)
{
	return p->ops->teardown ? p->ops->teardown(p->ctx, st, err) : err;
}

/* One window: open, the wait, close (after every open that worked). */
static int window(struct xl_plan *p, const struct xl_plan_step *st)
{
	const struct xl_plan_ops *ops = p->ops;
	const struct xl_plan_companion *c = p->companion;
	int err, e;

	err = ops->open ? ops->open(p->ctx, st) : 0;
	if (err)
		return err;
	if (c && c->window_open)
		c->window_open(c->ctx, p, st);
	if (ops->wait)
		err = ops->wait(p->ctx, st, p->window_ns);
	else
		xl_sleep_ns(p->window_ns, p->stop);
	if (c && c->window_close)
		c->window_close(c->ctx, p, st);
	e = ops->close ? ops->close(p->ctx, st) : 0;
	if (!err)
		err = e;
	if (!err && stopped(p))
		err = -EINTR; /* a window cut short is no window */
	return err;
}

/* The windows of repetition @rep, each with its own set-up in XL_PLAN_PER_WINDOW. */
static int one_rep(struct xl_plan *p, int rep, bool profiled)
{
	int arms = p->arms > 0 ? p->arms : 1, slices = p->slices > 0 ? p->slices : 1;
	int w, err = 0;

	for (w = 0; !err && w < arms * slices; w++) {
		struct xl_plan_step st = { .rep = rep, .arm = xl_plan_arm(arms, rep, w),
					   .slice = w / arms, .window = w, .profiled = profiled,
					   .live = true };

		if (p->scope != XL_PLAN_PER_WINDOW) {
			err = window(p, &st);
			continue;
		}
		if (stopped(p))
			return -EINTR;
		err = setup(p, &st);
		if (!err)
			err = window(p, &st);
		err = teardown(p, &st, err);
		if (!err && stopped(p))
			err = -EINTR;
	}
	return err;
}

/* Repetition @rep (== reps: the profiled one, not counted) complete: the caller records it. */
static int rep_done(struct xl_plan *p, int rep)
{
	struct xl_plan_step st = { .rep = rep, .profiled = rep == p->reps };
	int err;

	err = p->ops->rep_done ? p->ops->rep_done(p->ctx, &st) : 0;
	if (!err && !st.profiled)
		p->done++;
	return err;
}

/* XL_PLAN_ONCE: one set-up, every repetition in it, one tear-down. */
static int run_once(struct xl_plan *p, int total)
{
	struct xl_plan_step st0 = { .live = true };
	int rep, err;

	between(p, 0, false);
	if (stopped(p))
		return -EINTR;
	err = setup(p, &st0);
	for (rep = 0; !err && rep < total; rep++) {
		if (rep && stopped(p)) {
			err = -EINTR;
			break;
		}
		err = one_rep(p, rep, rep == p->reps);
		if (!err)
			err = rep_done(p, rep);
		if (err)
			p->failed_profiled = rep == p->reps;
		else if (rep < p->reps)
			between(p, rep + 1, true);
	}
	return teardown(p, &st0, err);
}

int xl_plan_run(struct xl_plan *p)
{
	int total = p->reps + (p->profile ? 1 : 0);
	int rep, err;

	p->done = 0;
	p->failed_profiled = false;
	if (p->scope == XL_PLAN_ONCE)
		return run_once(p, total);
	for (rep = 0; rep < total; rep++) {
		bool profiled = rep == p->reps;
		struct xl_plan_step st = { .rep = rep, .profiled = profiled, .live = true };

		between(p, rep, false);
		if (stopped(p))
			return -EINTR;
		if (p->scope == XL_PLAN_PER_REP) {
			err = setup(p, &st);
			if (!err)
				err = one_rep(p, rep, profiled);
			err = teardown(p, &st, err);
		} else {
			err = one_rep(p, rep, profiled);
		}
		if (!err && stopped(p))
			err = -EINTR; /* a repetition cut short is not recorded */
		if (!err)
			err = rep_done(p, rep);
		if (err) {
			p->failed_profiled = profiled;
			return err;
		}
	}
	if (!p->profile)
		between(p, p->reps, false);
	return 0;
}
