/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file sampler.h
 * The one sampler (src/lib/measure/sampler.c): the loop every reporting
 * command runs. It takes a first sample, one at the end of every interval
 * and one at the end of the run, checks liveness between samples, and
 * hands each pair of samples to the command, which computes its window
 * (xdplab/window.h, xdplab/meter.h) and prints its line and JSON record.
 * The sampler knows nothing of what a sample holds: the command keeps
 * three sample slots and the sampler names which one to fill.
 */
#ifndef XDPLAB_SAMPLER_H
#define XDPLAB_SAMPLER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/** Sample slots: the first sample's, and two that alternate after it. */
#define XL_SAMPLER_SLOTS 3

/** What struct xl_sampler.alive returns. */
enum { XL_SAMPLER_GO = 0, XL_SAMPLER_DONE = 1 };

/**
 * struct xl_sampler - one run of the loop.
 * @interval_ns: time between samples, ns (> 0).
 * @duration_ns: length of a repetition, ns; 0: until *@stop or @alive says
 *   done.
 * @reps: repetitions of @duration_ns back to back (0 or 1: one); each
 *   starts at the sample that ended the one before, so they tile time.
 * @poll_ns: longest sleep between liveness checks, ns (0: 100 ms).
 * @stop: set by a signal handler (Ctrl-C): the run ends with a final
 *   sample; NULL: never.
 * @sample: fill slot @slot (0..XL_SAMPLER_SLOTS-1) now. Return 0 or -errno
 *   (the run ends; no interval is handed over for that sample).
 * @alive: called every @poll_ns between samples and before the first
 *   interval sample: XL_SAMPLER_GO, XL_SAMPLER_DONE (the work finished:
 *   take the final sample and end), or a negative value (something vanished:
 *   a final sample is tried, its window handed over as partial if it could
 *   be read, and the run ends). NULL: always XL_SAMPLER_GO.
 * @interval: the window from slot @from to slot @to, @t_ns after the
 *   run's start (at @to's sample); @partial: a final piece shorter than an
 *   interval (stopped, done, or the duration ended between samples),
 *   which a command may leave out of its printed lines but counts in its
 *   totals.
 * @wait: NULL, or how the time between samples passes instead of
 *   xl_sleep_ns(): called with at most @poll_ns to wait (a capture polls its
 *   ring meanwhile); a negative return ends the run with it.
 * @rep_end: NULL, or called after each repetition (0-based @rep) with
 *   @complete true when its duration ran out (not stopped, done or gone).
 * @ctx: passed to the callbacks.
 * @have_first: slot 0 already holds the first sample (taken by the caller,
 *   e.g. before the traffic starts).
 * @last_slot: out: the slot of the run's last sample (-1: none).
 */
struct xl_sampler {
	uint64_t interval_ns, duration_ns, poll_ns;
	int reps;
	volatile sig_atomic_t *stop;
	bool have_first;
	int last_slot;
	int (*sample)(void *ctx, int slot);
	int (*alive)(void *ctx);
	void (*interval)(void *ctx, int from, int to, uint64_t t_ns, bool partial);
	void (*rep_end)(void *ctx, int rep, bool complete);
	int (*wait)(void *ctx, uint64_t ns);
	void *ctx;
};

/**
 * xl_sampler_run() - run @s: sample slot 0, then one window per interval,
 * the last one of a repetition ending at its duration, the stop request or
 * @alive's done, for @s->reps repetitions.
 * Every window is handed to @s->interval exactly once, so the windows
 * tile the run from the first sample to the last: a sum of them is the
 * run's total.
 * Return: 0 (ended by duration, stop or done), the negative value @alive
 * returned, or -errno from @s->sample (for the first sample too).
 */
int xl_sampler_run(struct xl_sampler *s);

#endif /* XDPLAB_SAMPLER_H */
