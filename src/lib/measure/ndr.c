// SPDX-License-Identifier: BSD-2-Clause
/*
 * The zero-loss throughput search (xdplab/ndr.h): RFC 2544's binary
 * search for the throughput (section 26.1), with TRex's pair of targets
 * (NDR at an allowed loss, PDR at a larger one) sharing the trials. Pure:
 * the trials are the caller's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/log.h"
#include "xdplab/ndr.h"

/*
 * One target's interval: @lo the highest rate that passed (or the lower
 * bound, untried), @hi the lowest that failed when @failed; @lo_tried: a
 * trial passed at @lo; @gen: the search of this target ended at the
 * generator (it could not offer the next rate).
 */
struct span {
	uint64_t lo, hi;
	bool failed, lo_tried, gen;
};

int xl_ndr_opts_check(const struct xl_ndr_opts *o, char *msg, size_t len)
{
	if (!(o->ndr_loss >= 0 && o->ndr_loss <= XL_NDR_LOSS_MAX)) {
		snprintf(msg, len, "NDR loss %g%% is out of range (accepted: 0..%g%%)",
			 o->ndr_loss * 100, XL_NDR_LOSS_MAX * 100);
		return -EINVAL;
	}
	if (!(o->pdr_loss >= o->ndr_loss && o->pdr_loss <= XL_NDR_LOSS_MAX)) {
		snprintf(msg, len, "PDR loss %g%% is out of range (accepted: the NDR's %g%%..%g%%)",
			 o->pdr_loss * 100, o->ndr_loss * 100, XL_NDR_LOSS_MAX * 100);
		return -EINVAL;
	}
	if (!(o->resolution > 0 && o->resolution <= 0.5)) {
		snprintf(msg, len, "resolution %g%% is out of range (accepted: above 0..50%%)",
			 o->resolution * 100);
		return -EINVAL;
	}
	if (o->max_pps && o->min_pps >= o->max_pps) {
		snprintf(msg, len, "lower bound %llu pps is not below the upper bound %llu pps",
			 (unsigned long long)o->min_pps, (unsigned long long)o->max_pps);
		return -EINVAL;
	}
	return 0;
}

void xl_ndr_trial_judge(const struct xl_ndr_opts *o, struct xl_ndr_trial *t)
{
	t->sent_pps = t->ns ? t->sent * 1e9 / t->ns : 0;
	t->loss = t->sent > t->received ? (double)(t->sent - t->received) / t->sent : 0;
	t->short_of_rate = t->rate_pps && t->sent_pps < t->rate_pps * XL_NDR_GEN_REACH;
	t->pass_ndr = t->loss <= o->ndr_loss;
	t->pass_pdr = t->loss <= o->pdr_loss;
}

/* Run one trial at @rate and fill the search's fields of it. */
static int run_trial(const struct xl_ndr_opts *o, struct xl_ndr_result *r, uint64_t rate,
		     struct xl_ndr_trial **out)
{
	struct xl_ndr_trial *t;
	int err;

	if (o->stop && *o->stop)
		return -EINTR;
	if (r->ntrials >= XL_NDR_MAX_TRIALS)
		return -E2BIG;
	t = &r->trials[r->ntrials];
	memset(t, 0, sizeof(*t));
	t->rate_pps = rate;
	err = o->trial(o->ctx, rate, t);
	t->rate_pps = rate;
	if (err)
		return err;
	r->ntrials++;
	xl_ndr_trial_judge(o, t);
	xl_dbg("ndr trial %d: asked %llu pps, sent %llu (%.0f pps%s), received %llu, loss %.6f%%",
	       r->ntrials, (unsigned long long)rate, (unsigned long long)t->sent, t->sent_pps,
	       t->short_of_rate ? ", short" : "", (unsigned long long)t->received, t->loss * 100);
	*out = t;
	return 0;
}

/* The rate a trial tested: the asked one, or the sent one when short of it. */
static uint64_t tested_rate(const struct xl_ndr_trial *t)
{
	return t->rate_pps && !t->short_of_rate ? t->rate_pps : (uint64_t)t->sent_pps;
}

/*
 * Narrow @s with a trial at @rate that passed or not; a result outside
 * the open interval (noise: a pass above a failure) changes nothing.
 */
static void narrow(struct span *s, uint64_t rate, bool pass)
{
	if (rate < s->lo || (s->failed && rate > s->hi))
		return;
	if (pass && rate >= s->lo && (!s->failed || rate < s->hi)) {
		s->lo = rate;
		s->lo_tried = true;
	} else if (!pass && (!s->failed || rate < s->hi) && rate > s->lo) {
		s->hi = rate;
		s->failed = true;
	}
}

static bool span_done(const struct span *s, uint64_t res)
{
	return !s->failed || s->hi - s->lo <= res || s->gen;
}

static void apply(struct span *n, struct span *p, const struct xl_ndr_trial *t)
{
	uint64_t rate = tested_rate(t);

	narrow(n, rate, t->pass_ndr);
	narrow(p, rate, t->pass_pdr);
}

/*
 * The next rate for @s: the middle of its interval, unless the generator
 * was already short of a rate at or below it (@gen_cap): then its search
 * ends at the generator. Return: the rate, or 0 when none.
 */
static uint64_t next_rate(struct span *s, uint64_t res, uint64_t gen_cap)
{
	uint64_t mid;

	if (span_done(s, res))
		return 0;
	mid = s->lo + (s->hi - s->lo) / 2;
	if (mid >= gen_cap) {
		s->gen = true;
		return 0;
	}
	return mid;
}

/* The lower bound tried when the search of @s came down to it untried. */
static bool needs_min(const struct xl_ndr_opts *o, const struct span *s)
{
	return o->min_pps && !s->lo_tried && s->lo == o->min_pps && s->failed && !s->gen;
}

int xl_ndr_search(const struct xl_ndr_opts *o, struct xl_ndr_result *r)
{
	struct span n = { .lo = o->min_pps }, p;
	uint64_t top, res, rate, gen_cap = UINT64_MAX, reached;
	struct xl_ndr_trial *t;
	char msg[160];
	int err;

	memset(r, 0, sizeof(*r));
	r->lo_pps = o->min_pps;
	err = o->trial ? xl_ndr_opts_check(o, msg, sizeof(msg)) : -EINVAL;
	if (err) {
		xl_dbg("ndr: %s", msg);
		return err;
	}
	err = run_trial(o, r, o->max_pps, &t);
	if (err)
		return err;
	top = tested_rate(t);
	reached = (uint64_t)t->sent_pps;
	r->hi_pps = top;
	if (top <= o->min_pps)
		return -ERANGE; /* the generator cannot reach the lower bound */
	res = (uint64_t)ceil(o->resolution * top);
	if (!res)
		res = 1;
	r->resolution_pps = res;
	if (!o->max_pps || t->short_of_rate)
		gen_cap = o->max_pps ? o->max_pps : top + 1;
	p = n;
	apply(&n, &p, t);
	/* Nothing faster to ask: a pass at the generator's fastest is its limit. */
	if (!n.failed && gen_cap != UINT64_MAX)
		n.gen = true;
	if (!p.failed && gen_cap != UINT64_MAX)
		p.gen = true;
	for (;;) {
		rate = next_rate(&n, res, gen_cap);
		if (!rate)
			rate = next_rate(&p, res, gen_cap);
		if (!rate)
			break;
		err = run_trial(o, r, rate, &t);
		/*
		 * Short of a rate the generator has already sent faster than:
		 * a pacer's hiccup (a busy host) is tried once more before
		 * the rate becomes the generator's top. The short trial still
		 * counts, at the rate it sent.
		 */
		if (!err && t->short_of_rate && rate <= reached) {
			apply(&n, &p, t);
			err = run_trial(o, r, rate, &t);
		}
		if (err)
			break;
		if (t->short_of_rate && rate < gen_cap)
			gen_cap = rate;
		if ((uint64_t)t->sent_pps > reached)
			reached = (uint64_t)t->sent_pps;
		apply(&n, &p, t);
	}
	if (!err && (needs_min(o, &n) || needs_min(o, &p))) {
		err = run_trial(o, r, o->min_pps, &t);
		if (!err) {
			if (t->short_of_rate) {
				err = -ERANGE; /* the generator cannot offer the lower bound */
			} else {
				n.lo_tried |= t->pass_ndr;
				p.lo_tried |= t->pass_pdr;
				r->below_min = !t->pass_ndr;
				if (!t->pass_pdr)
					p.hi = o->min_pps;
				if (!t->pass_ndr)
					n.hi = o->min_pps;
			}
		}
	}
	r->ndr_pps = n.lo_tried ? n.lo : 0;
	r->pdr_pps = p.lo_tried ? p.lo : 0;
	r->ndr_fail_pps = n.failed ? n.hi : 0;
	r->pdr_fail_pps = p.failed ? p.hi : 0;
	r->gen_limited = n.gen;
	r->pdr_gen_limited = p.gen;
	r->converged = !err && (!n.failed || n.hi - n.lo <= res) &&
		       (!p.failed || p.hi - p.lo <= res);
	return err;
}
