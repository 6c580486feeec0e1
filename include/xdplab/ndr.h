/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file ndr.h
 * Zero-loss throughput in the style of RFC 2544 section 26.1 (throughput:
 * the highest offered rate at which the device forwards every frame it is
 * offered) and of TRex's NDR benchmark (NDR at an allowed loss, PDR at a
 * larger one): a binary search over offered rates, each tried for a stated
 * length (src/lib/measure/ndr.c, docs/ndr.md).
 *
 * The search is pure: it asks the caller for trials (struct xl_ndr_opts
 * @trial: one run at a rate, what was sent and what arrived) and keeps two
 * intervals, one per target, each between the highest rate that passed and
 * the lowest that failed. Every trial narrows both where it can, so NDR
 * and PDR share their trials. It ends when both intervals are at most the
 * resolution wide. The generator is part of what is measured: a trial
 * whose generator did not reach the asked rate says so, and a row whose
 * highest reachable rate passed is "limited by the generator".
 */
#ifndef XDPLAB_NDR_H
#define XDPLAB_NDR_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Most trials of one search (the bisection needs log2(1/resolution) per target). */
#define XL_NDR_MAX_TRIALS 40

/**
 * A trial reached the asked rate when its generator sent at least this
 * share of it: pacing on a shared host loses a little (the pacer's capped
 * catch-up after a stall, xdplab/pace.h).
 */
#define XL_NDR_GEN_REACH 0.98

/** The allowed loss shares accepted (RFC 2544 asks 0; TRex's PDR defaults to 0.1%). */
#define XL_NDR_LOSS_MAX 0.5

/**
 * struct xl_ndr_trial - one trial, as the caller measured it.
 * @rate_pps: the asked rate (0: unpaced, the generator's fastest).
 * @sent: frames the generator sent (handed to the device, refused or not).
 * @received: frames the DUT counted at its counting point.
 * @ns: how long the generator ran, ns (> 0).
 * Filled by the search:
 * @sent_pps: @sent / @ns.
 * @loss: (@sent - @received) / @sent (0 when @sent is 0 or fewer were sent than counted).
 * @short_of_rate: the generator sent less than XL_NDR_GEN_REACH of @rate_pps.
 * @pass_ndr/@pass_pdr: @loss within the NDR's and the PDR's allowed share.
 */
struct xl_ndr_trial {
	uint64_t rate_pps, sent, received, ns;
	double sent_pps, loss;
	bool short_of_rate, pass_ndr, pass_pdr;
};

/**
 * Run one trial at @rate_pps (0: unpaced) into @t (@sent, @received, @ns;
 * @t->rate_pps is set). Return: 0 or -errno (ends the search with it).
 */
typedef int (*xl_ndr_trial_fn)(void *ctx, uint64_t rate_pps, struct xl_ndr_trial *t);

/**
 * struct xl_ndr_opts - what to search.
 * @min_pps: the lower bound, frames/s, taken as passing until a trial
 *	says otherwise (0: none; tried last only when every rate above it
 *	failed).
 * @max_pps: the upper bound and the first trial (0: the generator's
 *	fastest, an unpaced first trial whose sent rate is the bound).
 * @resolution: the search ends when each target's interval is at most
 *	this share of the upper bound wide, (0, 0.5].
 * @ndr_loss/@pdr_loss: the loss shares NDR and PDR allow, 0..XL_NDR_LOSS_MAX,
 *	@ndr_loss <= @pdr_loss.
 * @trial/@ctx: the caller's trial.
 * @stop: set asynchronously to stop between trials (NULL: never).
 */
struct xl_ndr_opts {
	uint64_t min_pps, max_pps;
	double resolution, ndr_loss, pdr_loss;
	xl_ndr_trial_fn trial;
	void *ctx;
	volatile sig_atomic_t *stop;
};

/**
 * struct xl_ndr_result - the search's outcome.
 * @lo_pps/@hi_pps: the bounds searched (@hi_pps: the first trial's rate,
 *	or the generator's sent rate when it was unpaced or short of it).
 * @resolution_pps: the interval width that ends the search.
 * @ndr_pps/@pdr_pps: the highest rate that passed (a trial's asked rate,
 *	or its sent rate when it was short of it); 0: none above the lower
 *	bound (@below_min).
 * @ndr_fail_pps/@pdr_fail_pps: the lowest rate that failed; 0: none did.
 * @gen_limited/@pdr_gen_limited: the NDR's (PDR's) search ended at the
 *	generator: the highest rate it reached passed, and it could not offer
 *	the next rate the search asked (its fastest, or short of a paced
 *	rate): the DUT's figure is at least @ndr_pps (@pdr_pps); its interval
 *	may be wider than the resolution.
 * @converged: both intervals ended at most @resolution_pps wide (or with
 *	no failure at all).
 * @below_min: a trial at @lo_pps itself failed the NDR.
 * @trials/@ntrials: every trial in order.
 */
struct xl_ndr_result {
	uint64_t lo_pps, hi_pps, resolution_pps;
	uint64_t ndr_pps, pdr_pps, ndr_fail_pps, pdr_fail_pps;
	bool gen_limited, pdr_gen_limited, converged, below_min;
	int ntrials;
	struct xl_ndr_trial trials[XL_NDR_MAX_TRIALS];
};

/**
 * xl_ndr_opts_check() - @o's ranges (loss shares, resolution, bounds;
 * not @trial, which the caller may set later).
 * Return: 0, or -EINVAL with one line in @msg (@len bytes) naming the
 * value and the accepted range.
 */
int xl_ndr_opts_check(const struct xl_ndr_opts *o, char *msg, size_t len);

/**
 * xl_ndr_trial_judge() - the verdict of a measured trial: from @t's
 * @rate_pps, @sent, @received and @ns, fill its @sent_pps, @loss,
 * @short_of_rate (a paced trial whose generator sent less than
 * XL_NDR_GEN_REACH of @rate_pps; never an unpaced one) and @pass_ndr/
 * @pass_pdr (@loss within @o->ndr_loss/@o->pdr_loss). The one judgement
 * of the search's trials and of any later fixed-rate run at a found rate.
 * @ns 0 gives @sent_pps 0; more counted than sent is a loss of 0.
 */
void xl_ndr_trial_judge(const struct xl_ndr_opts *o, struct xl_ndr_trial *t);

/**
 * xl_ndr_search() - the binary search: the first trial at @o->max_pps
 * (unpaced when 0); when it passes the NDR the search ends there, limited
 * by the generator when the generator set that rate. Otherwise trials at
 * the middle of the NDR's interval until it is at most the resolution
 * wide, then of the PDR's; each trial narrows both. A trial short of its
 * rate counts at the rate sent, and the rate asked becomes the top the
 * generator can test; when an earlier trial had sent faster than that
 * rate, the trial is run once more first (a pacer's hiccup on a busy
 * host; both trials count, each at its rate) and only a second short one
 * makes the rate the generator's top. When every rate down to the resolution failed, a
 * last trial at @o->min_pps (when above 0) says whether the NDR is below it.
 * Return: 0 (@r filled), -EINVAL (@o out of range: xl_ndr_opts_check(),
 * or no @o->trial),
 * -ERANGE when the search cannot converge: the generator's first trial
 * sent less than @o->min_pps (the generator is too slow for the bounds;
 * @r->trials[0] says what it reached), -EINTR when stopped, or a trial's
 * -errno. @r keeps the trials run so far on every return.
 */
int xl_ndr_search(const struct xl_ndr_opts *o, struct xl_ndr_result *r);

#endif /* XDPLAB_NDR_H */
