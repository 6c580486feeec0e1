// SPDX-License-Identifier: BSD-2-Clause
/*
 * The one sampler (see xdplab/sampler.h). Intervals are scheduled on the
 * run's start (start + k x interval), so they do not drift by the time each
 * sample takes; the window a command divides by is the time between the
 * samples' own stamps, never the schedule.
 */
#include "xdplab/sampler.h"
#include "xdplab/time.h"

#define POLL_NS_DEFAULT 100000000ull

static bool stopped(struct xl_sampler *s)
{
	return s->stop && *s->stop;
}

/*
 * One repetition from slot *@prev: its windows, until its duration, a stop,
 * done or a vanished device. Return: 1 when the duration ended it (the next
 * repetition may follow), 0 when it ended otherwise, or a negative value
 * (alive's, or -errno from a sample).
 */
static int one_rep(struct xl_sampler *s, uint64_t run_start, int *prev, int *cur)
{
	uint64_t poll = s->poll_ns ? s->poll_ns : POLL_NS_DEFAULT;
	uint64_t start = xl_now_ns(), next = start + s->interval_ns;
	uint64_t end = s->duration_ns ? start + s->duration_ns : 0;
	int err, a;

	for (;;) {
		uint64_t now = xl_now_ns(), wake = end && end < next ? end : next;
		bool last;

		a = s->alive ? s->alive(s->ctx) : XL_SAMPLER_GO;
		if (a < 0) {
			/*
			 * Something vanished: what was counted until now still
			 * stands (partial totals), if it can be read.
			 */
			if (!s->sample(s->ctx, *cur)) {
				s->last_slot = *cur;
				s->interval(s->ctx, *prev, *cur, xl_now_ns() - run_start, true);
			}
			return a;
		}
		last = a == XL_SAMPLER_DONE || stopped(s) || (end && now >= end);
		if (!last && now < wake) {
			/* Wake every @poll to notice a vanished device quickly. */
			uint64_t ns = wake - now < poll ? wake - now : poll;

			if (!s->wait) {
				xl_sleep_ns(ns, s->stop);
			} else if ((err = s->wait(s->ctx, ns)) < 0) {
				return err;
			}
			continue;
		}
		err = s->sample(s->ctx, *cur);
		if (err)
			return err;
		s->last_slot = *cur;
		now = xl_now_ns();
		s->interval(s->ctx, *prev, *cur, now - run_start, last && now < next);
		*prev = *cur;
		*cur = *cur == 1 ? 2 : 1;
		if (last || (end && now >= end))
			return a == XL_SAMPLER_GO && !stopped(s) && end && now >= end;
		while (next <= now)
			next += s->interval_ns;
	}
}

int xl_sampler_run(struct xl_sampler *s)
{
	int prev = 0, cur = 1, err, rep, reps = s->reps > 0 ? s->reps : 1;
	uint64_t run_start;

	s->last_slot = -1;
	err = s->have_first ? 0 : s->sample(s->ctx, prev);
	if (err)
		return err;
	s->last_slot = prev;
	run_start = xl_now_ns();
	for (rep = 0; rep < reps; rep++) {
		/* A repetition starts at the sample that ended the one before. */
		err = one_rep(s, run_start, &prev, &cur);
		if (s->rep_end)
			s->rep_end(s->ctx, rep, err == 1);
		if (err != 1)
			return err < 0 ? err : 0;
	}
	return 0;
}
