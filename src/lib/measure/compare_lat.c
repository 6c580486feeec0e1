// SPDX-License-Identifier: BSD-2-Clause
/*
 * Comparing the latency rows of two results files (xdplab/compare.h,
 * docs/compare.md "Latency rows"): pairing by path and level, size and
 * wiring; the change of the medians in %; the exact Mann-Whitney U test
 * (utest.c) over the repetitions' p50 and p99, as the ns/packet rows are
 * tested over their repetitions; and the sequence books (lost, gaps,
 * reordered, duplicates) that rose from 0.
 *
 * Why the repetitions and not the frames: the rows carry a histogram of
 * all frames too, but the frames of one generator run are not
 * independent samples (a batch of 64 arrives together, a slow NAPI run
 * delays every frame behind it), so a frame-level test over 10^4..10^6
 * frames would call any shift of the host significant. The repetitions are
 * independent runs, each with a fresh receiver and sequence.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"

const char *xl_cmp_lat_book_name(int i)
{
	static const char *const names[] = { "lost", "gaps", "reordered", "duplicates" };

	return i >= 0 && i < 4 ? names[i] : "";
}

static unsigned long long book(const struct xl_lat_rep *r, int i)
{
	switch (i) {
	case 0:
		return r->lost;
	case 1:
		return r->gaps;
	case 2:
		return r->reordered;
	default:
		return r->duplicates;
	}
}

static double pct(double b, double n)
{
	return b > 0 ? 100 * (n - b) / b : 0;
}

static double metric(const struct xl_lat_rep *r, int m)
{
	return m == XL_CMP_LAT_P50 ? (double)r->p50_ns : (double)r->p99_ns;
}

/* The books that rose from 0: counted on every pair with both sides. */
static void books(struct xl_cmp_latpair *p)
{
	int i, k;

	for (i = 0; i < 4; i++) {
		for (k = 0; k < p->base->nreps; k++)
			p->base_sum[i] += book(&p->base->reps[k], i);
		for (k = 0; k < p->new->nreps; k++) {
			p->new_sum[i] += book(&p->new->reps[k], i);
			p->new_reps_with[i] += book(&p->new->reps[k], i) > 0;
		}
		if (p->base->nreps && p->new->nreps && !p->base_sum[i] && p->new_sum[i])
			p->rose |= 1u << i;
	}
}

static void lat_compare(struct xl_cmp_latpair *p, const struct xl_cmp_opts *o)
{
	const struct xl_cmp_latrow *b = p->base, *n = p->new;
	double bv[XL_MAX_REPS], nv[XL_MAX_REPS], d;
	bool up = false, down = false;
	int m, k;

	if (!b->nreps || !n->nreps) {
		p->status = XL_CMP_NOT_MEASURED;
		snprintf(p->reason, sizeof(p->reason), "not measured in %s%s%.120s",
			 !b->nreps && !n->nreps ? "either file" : !b->nreps ? "base" : "new",
			 (!b->nreps ? b : n)->note[0] ? ": " : "", (!b->nreps ? b : n)->note);
		return;
	}
	p->status = XL_CMP_PAIRED;
	p->pct_p50 = pct(b->med.p50_ns, n->med.p50_ns);
	p->pct_p99 = pct(b->med.p99_ns, n->med.p99_ns);
	p->pct_p999 = pct(b->med.p999_ns, n->med.p999_ns);
	p->pct_max = pct(b->med.max_ns, n->med.max_ns);
	p->too_few = xl_mann_whitney_min_p(n->nreps, b->nreps) >= o->alpha;
	for (m = 0; m < XL_CMP_LAT_NTESTS; m++) {
		for (k = 0; k < b->nreps; k++)
			bv[k] = metric(&b->reps[k], m);
		for (k = 0; k < n->nreps; k++)
			nv[k] = metric(&n->reps[k], m);
		/* x = new, y = base: U near n1*n2 means new is slower. */
		xl_mann_whitney(nv, n->nreps, bv, b->nreps, &p->test[m]);
		d = metric(&n->med, m) - metric(&b->med, m);
		p->mverdict[m] = XL_CMP_SAME;
		if (p->test[m].p < o->alpha && d > o->threshold_ns)
			p->mverdict[m] = XL_CMP_REGRESSION;
		else if (p->test[m].p < o->alpha && d < -o->threshold_ns)
			p->mverdict[m] = XL_CMP_IMPROVEMENT;
		up |= p->mverdict[m] == XL_CMP_REGRESSION;
		down |= p->mverdict[m] == XL_CMP_IMPROVEMENT;
	}
	p->verdict = up ? XL_CMP_REGRESSION : down ? XL_CMP_IMPROVEMENT : XL_CMP_SAME;
}

/* Why a pair cannot be compared; "" when it can. */
static void lat_set_up_differs(const struct xl_cmp_latrow *b, const struct xl_cmp_latrow *n,
			       char *buf, size_t len)
{
	buf[0] = '\0';
	if (strcmp(b->wiring, n->wiring))
		snprintf(buf, len, "wiring differs: %s vs %s", b->wiring[0] ? b->wiring : "-",
			 n->wiring[0] ? n->wiring : "-");
	else if (b->rate_pps != n->rate_pps)
		snprintf(buf, len, "rate differs: %.0f vs %.0f pps", b->rate_pps, n->rate_pps);
	else if (b->seconds != n->seconds)
		snprintf(buf, len, "window differs: %g s vs %g s", b->seconds, n->seconds);
	else if (b->batch != n->batch)
		snprintf(buf, len, "generator batch differs: %u vs %u", b->batch, n->batch);
	else if (b->delay_ns != n->delay_ns)
		snprintf(buf, len, "added delay differs: %.0f vs %.0f ns", b->delay_ns, n->delay_ns);
	else if (b->nreps != n->nreps && b->nreps && n->nreps)
		snprintf(buf, len, "repetitions differ: %d vs %d in this row", b->nreps, n->nreps);
}

static bool lat_same(const struct xl_cmp_latrow *a, const struct xl_cmp_latrow *b, bool exact)
{
	return !strcmp(a->name, b->name) && a->size == b->size &&
	       (!exact || !strcmp(a->wiring, b->wiring));
}

int xl_cmp_lat_run(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
		   const struct xl_cmp_opts *o, struct xl_cmp_latresult *out)
{
	bool *used_n;
	int *pair;
	int i, j, pass, ret = 0;

	memset(out, 0, sizeof(*out));
	out->pairs = calloc(base->nlat + new->nlat + 1, sizeof(*out->pairs));
	used_n = calloc(new->nlat + 1, sizeof(bool));
	pair = calloc(base->nlat + 1, sizeof(int));
	if (!out->pairs || !used_n || !pair) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < base->nlat; i++)
		pair[i] = -1;
	/* Exact identity first, then name and size only (wiring differs). */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < base->nlat; i++)
			for (j = 0; pair[i] < 0 && j < new->nlat; j++)
				if (!used_n[j] && lat_same(&base->lat[i], &new->lat[j], !pass)) {
					used_n[j] = true;
					pair[i] = j;
				}
	for (i = 0; i < base->nlat; i++) {
		struct xl_cmp_latpair *p = &out->pairs[out->npairs++];

		p->base = &base->lat[i];
		if (pair[i] < 0) {
			p->status = XL_CMP_BASE_ONLY;
			continue;
		}
		p->new = &new->lat[pair[i]];
		out->paired++;
		books(p);
		out->rose += p->rose != 0;
		lat_set_up_differs(p->base, p->new, p->reason, sizeof(p->reason));
		if (p->reason[0]) {
			p->status = XL_CMP_NOT_COMPARABLE;
			continue;
		}
		lat_compare(p, o);
		if (p->status != XL_CMP_PAIRED)
			continue;
		out->compared++;
		out->regressions += p->verdict == XL_CMP_REGRESSION;
		out->improvements += p->verdict == XL_CMP_IMPROVEMENT;
		out->too_few += p->too_few;
	}
	for (j = 0; j < new->nlat; j++)
		if (!used_n[j]) {
			out->pairs[out->npairs].new = &new->lat[j];
			out->pairs[out->npairs++].status = XL_CMP_NEW_ONLY;
		}
out_free:
	free(used_n);
	free(pair);
	if (ret) {
		free(out->pairs);
		out->pairs = NULL;
	}
	return ret;
}

void xl_cmp_latresult_free(struct xl_cmp_latresult *r)
{
	free(r->pairs);
	r->pairs = NULL;
	r->npairs = 0;
}
