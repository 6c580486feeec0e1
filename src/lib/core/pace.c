// SPDX-License-Identifier: BSD-2-Clause
/* The senders' rate pacing with a capped catch-up (xdplab/pace.h). */
#include "xdplab/pace.h"

#define NS_PER_S 1000000000ull

void xl_pace_init(struct xl_pace *p, uint64_t rate_pps, uint64_t start_ns)
{
	uint64_t depth = (unsigned __int128)rate_pps * XL_PACE_DEPTH_NS / NS_PER_S;

	if (depth < XL_PACE_DEPTH_MIN)
		depth = XL_PACE_DEPTH_MIN;
	*p = (struct xl_pace){ .rate_pps = rate_pps ? rate_pps : 1, .start_ns = start_ns,
				   .depth_min = depth, .depth = depth };
}

void xl_pace_call(struct xl_pace *p, uint64_t ns)
{
	uint64_t s[XL_PACE_CALLS], d;
	uint32_t n, i, j;

	p->calls[p->ncalls % XL_PACE_CALLS] = ns;
	/* Never back to 0 (n would be 0, the median read nothing written). */
	p->ncalls = p->ncalls == UINT32_MAX ? XL_PACE_CALLS : p->ncalls + 1;
	n = p->ncalls < XL_PACE_CALLS ? p->ncalls : XL_PACE_CALLS;
	/* The upper median of the last calls: a stall inside one call (the
	 * thread descheduled in the syscall) does not move it. */
	for (i = 0; i < n; i++) {
		for (j = i; j && s[j - 1] > p->calls[i]; j--)
			s[j] = s[j - 1];
		s[j] = p->calls[i];
	}
	p->call_ns = s[n / 2];
	d = (unsigned __int128)p->rate_pps * 2 * p->call_ns / NS_PER_S;
	/* Written by the sending thread only; read by xl_gen__read() while it
	 * runs: relaxed atomic stores (single writer, no read-modify-write). */
	__atomic_store_n(&p->depth, d > p->depth_min ? d : p->depth_min, __ATOMIC_RELAXED);
}

uint64_t xl_pace_due(struct xl_pace *p, uint64_t now_ns, uint64_t sent,
			 uint64_t *wait_ns)
{
	uint64_t el = now_ns > p->start_ns ? now_ns - p->start_ns : 0;
	/* Frames the schedule holds up to now (integer: exact for the test). */
	uint64_t sched = (unsigned __int128)p->rate_pps * el / NS_PER_S;
	uint64_t done = sent + p->skipped, due, next_ns;

	if (sched > done) {
		due = sched - done;
		if (due > p->depth) {
			__atomic_store_n(&p->skipped, p->skipped + (due - p->depth), __ATOMIC_RELAXED);
			__atomic_store_n(&p->stalls, p->stalls + 1, __ATOMIC_RELAXED);
			due = p->depth;
		}
		if (due > p->max_due)
			__atomic_store_n(&p->max_due, due, __ATOMIC_RELAXED);
		return due;
	}
	if (wait_ns) {
		/* Frame number done+1 is due at ceil((done + 1) s / rate). */
		next_ns = (uint64_t)(((unsigned __int128)(done + 1) * NS_PER_S + p->rate_pps - 1) /
				     p->rate_pps);
		*wait_ns = next_ns > el ? next_ns - el : 1;
	}
	return 0;
}

void xl_pace_add(const struct xl_pace *p, struct xl_pace_stats *st)
{
	uint64_t m = __atomic_load_n(&p->max_due, __ATOMIC_RELAXED);

	st->stalls += __atomic_load_n(&p->stalls, __ATOMIC_RELAXED);
	st->skipped += __atomic_load_n(&p->skipped, __ATOMIC_RELAXED);
	st->depth += __atomic_load_n(&p->depth, __ATOMIC_RELAXED);
	if (m > st->max_due)
		st->max_due = m;
}
