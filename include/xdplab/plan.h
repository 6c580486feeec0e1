/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file plan.h
 * The one repetition planner (src/lib/measure/plan.c): every lab row, the
 * sensitivity search and `ab` run their repetitions through it. It owns
 * the order of things (set-up, warm-up, N counted repetitions, the extra
 * profiled one, arms interleaved within a repetition, the window's wait,
 * stop requests, tear-down on every path); the caller gives only what it
 * sets up and tears down and what it reads at a window's edges
 * (struct xl_plan_ops).
 *
 * A repetition is made of windows: @arms x @slices of them. Each arm is one
 * thing measured (a program, a monitor level, a cost): with 2 arms A and B
 * the repetitions go A B, B A, A B...; with more, and with slices, each
 * round of @arms windows is a row of a Williams square (xl_plan_arm()),
 * the row moving on per round and per repetition, so a drift of the host
 * falls on every arm alike and every arm follows every other equally often
 * (a slice's after-effects on the next, e.g. a backlog left by a slow arm,
 * fall on all arms alike too: with a plain rotation arm k always followed
 * arm k-1, and the lazy monitor's level, measured after the heaviest one,
 * read -10.6 CPU ns/packet against the no-monitor level although it
 * attaches nothing).
 *
 * Companion measurements (struct xl_plan_companion): something measured
 * beside every repetition of every row, e.g. a control workload that says
 * how fast the host is now, or noise readings (steal, load) per window.
 * It is not the row's: the plan calls it at fixed points, the row does not
 * know it is there. See struct xl_plan_companion for when each hook runs.
 */
#ifndef XDPLAB_PLAN_H
#define XDPLAB_PLAN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/** Most arms of a plan (the watch-cost rows' levels: 4). */
#define XL_PLAN_MAX_ARMS 8

/** How often a plan sets up and tears down (struct xl_plan.scope). */
enum xl_plan_scope {
	/** Once for all repetitions: the traffic flows between them. */
	XL_PLAN_ONCE,
	/** Once per repetition (and for the profiled one). */
	XL_PLAN_PER_REP,
	/** Once per window: each arm's window its own DUT (lab run --ab). */
	XL_PLAN_PER_WINDOW,
};

/**
 * struct xl_plan_step - where a plan is, as every callback sees it.
 * @rep: 0-based repetition; == struct xl_plan.reps for the profiled one
 *	(and, in xl_plan_companion.between, for the call after the last
 *	counted repetition).
 * @arm: the arm this window measures, 0..arms-1 (0 outside windows).
 * @slice: the arm's slice in this repetition, 0..slices-1.
 * @window: the window's index in its repetition, 0..arms x slices - 1.
 * @profiled: the extra repetition of struct xl_plan.profile: the caller
 *	records it with its profiler; its figures are not counted.
 * @live: the caller's set-up is in place (traffic flows): always in a
 *	window; in xl_plan_companion.between only with XL_PLAN_ONCE.
 */
struct xl_plan_step {
	int rep, arm, slice, window;
	bool profiled, live;
};

/**
 * struct xl_plan_ops - what the caller does; every member may be NULL
 * (nothing to do). Each returns 0 or -errno (an error ends the plan; the
 * caller says why in its own record).
 * @setup: set up what the windows measure (load, attach, start traffic);
 *	with XL_PLAN_ONCE @st is the first window's (rep 0, window 0).
 * @teardown: called after every @setup that was called, failed or not
 *	(it undoes what @setup made, NULL-safe), with the plan's error so far
 *	(-EINTR when stopped); Return: the error to go on with (usually @err).
 * @open: read the counters that open window @st (start a profiler first
 *	when @st->profiled).
 * @wait: the window's time, instead of xl_sleep_ns(window_ns, stop) (a
 *	run that ends by itself: wait for it). Return: 0 or -errno.
 * @close: read the counters that close window @st and keep its figures.
 * @rep_done: repetition @st->rep is complete (every window read; with
 *	XL_PLAN_PER_REP after its tear-down): record it (@st->profiled: the
 *	profiled one, whose figures only show what the profiler cost).
 */
struct xl_plan_ops {
	int (*setup)(void *ctx, const struct xl_plan_step *st);
	int (*teardown)(void *ctx, const struct xl_plan_step *st, int err);
	int (*open)(void *ctx, const struct xl_plan_step *st);
	int (*wait)(void *ctx, const struct xl_plan_step *st, uint64_t ns);
	int (*close)(void *ctx, const struct xl_plan_step *st);
	int (*rep_done)(void *ctx, const struct xl_plan_step *st);
};

struct xl_plan;

/**
 * struct xl_plan_companion - measurements beside a plan's repetitions
 * (struct xl_plan.companion; NULL: none). Not the row's: whoever runs the
 * rows sets it (struct xl_labrun_opts.companion for lab run's rows), and
 * every plan calls it the same way. Failures are the companion's own to
 * record: the hooks return nothing and cannot end a plan. Each may be NULL.
 * @between: called before every counted repetition (@st->rep 0..reps-1)
 *	and once after the last (@st->rep == reps), so each repetition has a
 *	companion measurement on either side of it; not around the profiled
 *	repetition. With XL_PLAN_PER_REP and XL_PLAN_PER_WINDOW the caller's
 *	set-up is torn down then (no traffic, no DUT program: the judged CPU
 *	is the companion's); with XL_PLAN_ONCE it is in place (@st->live, the
 *	traffic flows) except before repetition 0, which is before the
 *	set-up. A stop request (struct xl_plan.stop) should cut it short.
 * @window_open/@window_close: right after the caller's @open and right
 *	before its @close of each window (profiled ones too, @st->profiled):
 *	readings over the same time as the window's (steal, load).
 * @ctx: passed to the hooks.
 * The plan (@p: the judged CPU in p->cpu, the stop flag, reps, arms) is
 * passed as it is running.
 */
struct xl_plan_companion {
	void (*between)(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st);
	void (*window_open)(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st);
	void (*window_close)(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st);
	void *ctx;
};

/**
 * struct xl_plan - one measured run: what to repeat and how.
 * @reps: counted repetitions, 1..; @arms: 1..XL_PLAN_MAX_ARMS (0: 1);
 *	@slices: windows per arm per repetition (0: 1).
 * @profile: one extra repetition after the counted ones (@st->profiled).
 * @scope: how often @ops->setup/@ops->teardown run.
 * @warmup_ns: after each set-up, before its first window (0: none).
 * @window_ns: each window's length, ns (the time @ops->wait is given).
 * @stop: set asynchronously (a signal) to stop: checked before each
 *	set-up and repetition and after each window (the repetition it
 *	interrupts is not completed: no @ops->rep_done); NULL: never.
 * @cpu: the judged CPU, for the companion (-1: not known before a window).
 * @ops/@ctx: the caller's callbacks and their argument.
 * @companion: NULL, or measurements beside the repetitions.
 * Out, filled by xl_plan_run():
 * @done: counted repetitions completed (@ops->rep_done returned 0; the
 *	profiled one is not counted).
 * @failed_profiled: the error came from the profiled repetition (the
 *	counted ones all completed; a caller may keep them and go on).
 */
struct xl_plan {
	int reps, arms, slices;
	bool profile;
	enum xl_plan_scope scope;
	uint64_t warmup_ns, window_ns;
	volatile sig_atomic_t *stop;
	int cpu;
	const struct xl_plan_ops *ops;
	void *ctx;
	const struct xl_plan_companion *companion;
	int done;
	bool failed_profiled;
};

/**
 * xl_plan_run() - run @p: for each repetition (and the profiled one), each
 * of its windows in the rotated order: @ops->open, the wait, @ops->close;
 * set-up, warm-up and tear-down at @p->scope; the companion's hooks at
 * theirs. Return: 0, -EINTR when stopped, or the first -errno of a
 * callback (after the tear-down it returned).
 */
int xl_plan_run(struct xl_plan *p);

/**
 * xl_plan_arm() - the arm window @window of repetition @rep measures in a
 * plan of @arms arms: position @window % @arms of row (@rep + @window /
 * @arms) of a Williams square (@arms rows; 2 x @arms with the mirrored
 * rows when @arms is odd). With 2 arms: A B, B A, ... as before.
 */
int xl_plan_arm(int arms, int rep, int window);

#endif /* XDPLAB_PLAN_H */
