/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pace.h - the one rate pacer of the senders that take a --rate (the
 * generator's threads, src/lib/gen/, and AF_XDP txpush's sockets,
 * src/lib/xsk/): an absolute schedule of @rate_pps frames per second from
 * @start_ns, with the catch-up after a stall capped at a bucket depth.
 * Single writer (the sending thread); its counters may be read by another
 * thread while it runs (relaxed atomic loads).
 *
 * Without the cap, a thread descheduled for a while owed the whole missed
 * schedule and sent it at once at line rate (7,300 frames in 4 ms were
 * seen from gen; txpush did the same), so "sub-capacity" count tests saw
 * bursts of thousands. Kernel pktgen keeps the same kind of absolute
 * schedule without a cap (a missed slot sets the next one a delay after
 * it, net/core/pktgen.c spin()), so it too catches up at full speed. The
 * depth is the frames of 1 ms, or of twice the sender's own time per send
 * call when that is longer (fed by xl_pace_call(); the generator's
 * live-frames BPF_PROG_RUN call costs ~24 ms here however few frames it
 * carries (its page pool's teardown), so at 20 kpps each call must carry
 * ~500 frames or the rate is never reached (a 1 ms cap gave 785 pps);
 * txpush's ring steps take microseconds and do not feed it). The debt
 * above the depth is dropped from the schedule and counted: with a count
 * every frame is still sent (the budget is separate), only later; with a
 * duration and no count, those frames are not sent.
 */
#ifndef XDPLAB_PACE_H
#define XDPLAB_PACE_H

#include <stdint.h>

/* The pacer is in src/lib/core/pace.c; its unit test is tests/unit/test_pace.c. */

/* Bucket depth: the frames of this long at the rate (ns)... */
#define XL_PACE_DEPTH_NS 1000000ull
/* ...and at least this many frames. */
#define XL_PACE_DEPTH_MIN 8ull
/* Send calls whose median is the engine's cost per call. */
#define XL_PACE_CALLS 8

/**
 * struct xl_pace - one sending thread's schedule.
 * @rate_pps: frames per second (> 0).
 * @start_ns: when the schedule starts (CLOCK_MONOTONIC ns).
 * @depth_min: the frames of XL_PACE_DEPTH_NS, at least
 *   XL_PACE_DEPTH_MIN.
 * @calls/@ncalls: the last XL_PACE_CALLS send calls' times (ns), and
 *   how many calls were seen.
 * @call_ns: their upper median (0: none seen).
 * @depth: most frames due at once: @depth_min, or the frames of 2 x
 *   @call_ns when more.
 * @skipped: frames' worth of schedule dropped because the debt was deeper
 *   than @depth (the frames the cap deferred).
 * @stalls: times that happened (the thread fell behind).
 * @max_due: the most frames xl_pace_due() ever let go at once (the
 *   largest catch-up; <= the @depth of that moment).
 */
struct xl_pace {
	uint64_t rate_pps;
	uint64_t start_ns;
	uint64_t depth_min;
	uint64_t calls[XL_PACE_CALLS];
	uint32_t ncalls;
	uint64_t call_ns;
	uint64_t depth;
	uint64_t skipped;
	uint64_t stalls;
	uint64_t max_due;
};

/** xl_pace_init() - a schedule of @rate_pps (> 0) frames/s from @start_ns. */
void xl_pace_init(struct xl_pace *p, uint64_t rate_pps, uint64_t start_ns);

/**
 * xl_pace_call() - one send call took @ns: the depth follows the
 * engine's cost per call, the upper median of the last XL_PACE_CALLS
 * (the live engine's calls vary from 0.1 to 40 ms here; one call that
 * held a stall does not raise it).
 */
void xl_pace_call(struct xl_pace *p, uint64_t ns);

/**
 * xl_pace_due() - frames to send at @now_ns when @sent frames have
 * been sent so far: the schedule's frames up to now minus @sent and minus
 * what was skipped, capped at @p->depth (the rest skipped and counted).
 * Return: the frames due (0..depth); when 0, *@wait_ns (if not NULL) is
 * how long until the next one is due (>= 1).
 */
uint64_t xl_pace_due(struct xl_pace *p, uint64_t now_ns, uint64_t sent, uint64_t *wait_ns);

/**
 * struct xl_pace_stats - what the pacers of one sender (its threads or
 * sockets) did, for its totals and --json.
 * @stalls: times a pacer fell behind by more than its depth (summed).
 * @skipped: frames' worth of schedule the cap deferred (summed): with a
 *   count those frames were sent later; without, not at all.
 * @depth: the depths at the end, summed (the most frames the sender as a
 *   whole may send at once to catch up).
 * @max_due: the largest catch-up one pacer let go at once (the largest
 *   of them, frames).
 */
struct xl_pace_stats {
	uint64_t stalls, skipped, depth, max_due;
};

/**
 * xl_pace_add() - add @p's counters to @st (relaxed atomic loads: safe
 * while @p's thread runs). Zero @st before the first call.
 */
void xl_pace_add(const struct xl_pace *p, struct xl_pace_stats *st);

#endif /* XDPLAB_PACE_H */
