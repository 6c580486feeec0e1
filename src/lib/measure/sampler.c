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

int xl_sampler_run(struct xl_sampler *s)
{
	uint64_t poll = s->poll_ns ? s->poll_ns : POLL_NS_DEFAULT;
	uint64_t start, next, end;
	int prev = 0, cur = 1, err, a;

	s->last_slot = -1;
	err = s->have_first ? 0 : s->sample(s->ctx, prev);
	if (err)
		return err;
	s->last_slot = prev;
	start = xl_now_ns();
	next = start + s->interval_ns;
	end = s->duration_ns ? start + s->duration_ns : 0;
	for (;;) {
		uint64_t now = xl_now_ns(), wake = end && end < next ? end : next;
		bool last;

		a = s->alive ? s->alive(s->ctx) : XL_SAMPLER_GO;
		if (a < 0) {
			/*
			 * Something vanished: what was counted until now still
			 * stands (partial totals), if it can be read.
			 */
			if (!s->sample(s->ctx, cur)) {
				s->last_slot = cur;
				s->interval(s->ctx, prev, cur, xl_now_ns() - start, true);
			}
			return a;
		}
		last = a == XL_SAMPLER_DONE || stopped(s) || (end && now >= end);
		if (!last && now < wake) {
			/* Wake every @poll to notice a vanished device quickly. */
			xl_sleep_ns(wake - now < poll ? wake - now : poll, s->stop);
			continue;
		}
		err = s->sample(s->ctx, cur);
		if (err)
			return err;
		s->last_slot = cur;
		now = xl_now_ns();
		s->interval(s->ctx, prev, cur, now - start, last && now < next);
		if (last || (end && now >= end))
			return 0;
		prev = cur;
		cur = cur == 1 ? 2 : 1;
		while (next <= now)
			next += s->interval_ns;
	}
}
