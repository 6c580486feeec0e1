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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"

#include "compare_priv.h"

const char *xl_cmp_lat_book_name(int i)
{
	static const char *const names[] = { "lost", "gaps", "reordered", "duplicates" };

	return i >= 0 && i < 4 ? names[i] : "";
}

void xl_cmp_lat_rose_append(char *buf, size_t len, unsigned int rose)
{
	size_t n;
	int i;

	for (i = 0; i < 4; i++)
		if (rose & (1u << i)) {
			n = strlen(buf);
			snprintf(buf + n, len - n, "; %s rose from 0", xl_cmp_lat_book_name(i));
		}
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
	const struct xl_lat_rowrec *b = p->base, *n = p->new;
	double bv[XL_MAX_REPS], nv[XL_MAX_REPS], d;
	bool up = false, down = false;
	int m, k;

	if (xl_cmp_not_measured(p->reason, sizeof(p->reason), b->nreps, b->note, n->nreps,
				n->note)) {
		p->status = XL_CMP_NOT_MEASURED;
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
		p->mverdict[m] = xl_cmp_decide(p->test[m].p, d, o);
		up |= p->mverdict[m] == XL_CMP_REGRESSION;
		down |= p->mverdict[m] == XL_CMP_IMPROVEMENT;
	}
	if (p->too_few) /* the sizes could not have said otherwise */
		p->verdict = XL_CMP_TOO_FEW;
	else
		p->verdict = up ? XL_CMP_REGRESSION : down ? XL_CMP_IMPROVEMENT : XL_CMP_SAME;
}

/* Why a pair cannot be compared; "" when it can. */
static void lat_set_up_differs(const struct xl_lat_rowrec *b, const struct xl_lat_rowrec *n,
			       char *buf, size_t len)
{
	buf[0] = '\0';
	if (xl_cmp_text_differs(buf, len, "wiring", b->wiring, n->wiring))
		return;
	if (b->rate_pps != n->rate_pps)
		snprintf(buf, len, "rate differs: %llu vs %llu pps", (unsigned long long)b->rate_pps,
			 (unsigned long long)n->rate_pps);
	else if (b->seconds != n->seconds)
		snprintf(buf, len, "window differs: %g s vs %g s", b->seconds, n->seconds);
	else if (b->batch != n->batch)
		snprintf(buf, len, "generator batch differs: %u vs %u", b->batch, n->batch);
	else if (b->delay_ns != n->delay_ns)
		snprintf(buf, len, "added delay differs: %llu vs %llu ns",
			 (unsigned long long)b->delay_ns, (unsigned long long)n->delay_ns);
	else
		xl_cmp_row_reps_differ(buf, len, b->nreps, n->nreps);
}

int xl_cmp_lat_order(const struct xl_cmp_file *af, int i, const struct xl_cmp_file *bf, int j,
		     bool exact)
{
	const struct xl_lat_rowrec *a = &af->lat[i], *b = &bf->lat[j];
	int d = strcmp(a->name, b->name);

	if (d)
		return d;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return exact ? strcmp(a->wiring, b->wiring) : 0;
}

int xl_cmp_lat_run(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
		   const struct xl_cmp_opts *o, struct xl_cmp_latresult *out)
{
	struct xl_cmp_pairing *pairs;
	int k, n;

	memset(out, 0, sizeof(*out));
	n = xl_cmp_pair(base, base->nlat, new, new->nlat, xl_cmp_lat_order, &pairs);
	if (n < 0)
		return n;
	out->pairs = calloc(n + 1, sizeof(*out->pairs));
	if (!out->pairs) {
		free(pairs);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		struct xl_cmp_latpair *p = &out->pairs[out->npairs++];

		p->base = pairs[k].base < 0 ? NULL : &base->lat[pairs[k].base];
		p->new = pairs[k].new < 0 ? NULL : &new->lat[pairs[k].new];
		if (!p->base || !p->new) {
			p->status = p->base ? XL_CMP_BASE_ONLY : XL_CMP_NEW_ONLY;
			continue;
		}
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
		out->too_few += p->verdict == XL_CMP_TOO_FEW;
	}
	free(pairs);
	return 0;
}

void xl_cmp_latresult_free(struct xl_cmp_latresult *r)
{
	free(r->pairs);
	r->pairs = NULL;
	r->npairs = 0;
}
