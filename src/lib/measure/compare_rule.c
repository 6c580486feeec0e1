// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the ns/packet rows (compare.c) and the latency rows (compare_lat.c)
 * are judged and named by, once (compare_priv.h, docs/compare.md
 * "Verdict"): the verdict rule, the reasons a pair is not measured or not
 * comparable, the exact-then-loose pairing of rows, and the words for a
 * verdict and a status (compare.h) that compare's output and the report use.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"

#include "compare_priv.h"

const char *xl_cmp_verdict_name(enum xl_cmp_verdict v)
{
	switch (v) {
	case XL_CMP_SAME:
		return "~";
	case XL_CMP_REGRESSION:
		return "regression";
	case XL_CMP_IMPROVEMENT:
		return "improvement";
	case XL_CMP_TOO_FEW:
		return "too-few-reps";
	default:
		return "";
	}
}

const char *xl_cmp_status_word(enum xl_cmp_status s, enum xl_cmp_verdict v, enum xl_cmp_words w)
{
	/* Indexed by status, then by enum xl_cmp_words; NULL: the verdict's name. */
	static const char *const words[][3] = {
		[XL_CMP_PAIRED] = { "compared", NULL, NULL },
		[XL_CMP_NOT_COMPARABLE] = { "not-comparable", "not comparable", "not comparable" },
		[XL_CMP_NOT_MEASURED] = { "not-measured", "not measured", "not measured" },
		[XL_CMP_BASE_ONLY] = { "base-only", "only in base", "only in BASE" },
		[XL_CMP_NEW_ONLY] = { "new-only", "only in new", "only in this run" },
	};

	if ((unsigned int)s >= sizeof(words) / sizeof(words[0]) || (unsigned int)w >= 3)
		return "";
	if (words[s][w])
		return words[s][w];
	return v == XL_CMP_TOO_FEW ? "too few reps" : xl_cmp_verdict_name(v);
}

enum xl_cmp_verdict xl_cmp_decide(double p, double delta, const struct xl_cmp_opts *o)
{
	if (p < o->alpha && delta > o->threshold_ns)
		return XL_CMP_REGRESSION;
	if (p < o->alpha && delta < -o->threshold_ns)
		return XL_CMP_IMPROVEMENT;
	return XL_CMP_SAME;
}

bool xl_cmp_not_measured(char *buf, size_t len, int base_reps, const char *base_note,
			 int new_reps, const char *new_note)
{
	const char *note = !base_reps ? base_note : new_note;

	if (base_reps && new_reps)
		return false;
	snprintf(buf, len, "not measured in %s%s%.120s",
		 !base_reps && !new_reps ? "either file" : !base_reps ? "base" : "new",
		 note[0] ? ": " : "", note);
	return true;
}

bool xl_cmp_text_differs(char *buf, size_t len, const char *what, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return false;
	snprintf(buf, len, "%s differs: %s vs %s", what, a[0] ? a : "-", b[0] ? b : "-");
	return true;
}

bool xl_cmp_row_reps_differ(char *buf, size_t len, int base_reps, int new_reps)
{
	if (base_reps == new_reps || !base_reps || !new_reps)
		return false;
	snprintf(buf, len, "repetitions differ: %d vs %d in this row", base_reps, new_reps);
	return true;
}

/* The context of sort_new(): qsort_r() passes one pointer. */
struct order_ctx {
	const struct xl_cmp_file *f;
	xl_cmp_order_fn *order;
	bool exact;
};

/* By identity, then by index: equal identities stay in file order. */
static int by_identity(const void *a, const void *b, void *arg)
{
	const struct order_ctx *c = arg;
	int i = *(const int *)a, j = *(const int *)b;
	int d = c->order(c->f, i, c->f, j, c->exact);

	return d ? d : (i > j) - (i < j);
}

/* The first of @idx[0..n) whose identity is not below base row @i: a lower bound. */
static int lower_bound(const int *idx, int n, const struct xl_cmp_file *base, int i,
		       const struct xl_cmp_file *new, xl_cmp_order_fn *order, bool exact)
{
	int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (order(new, idx[mid], base, i, exact) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int xl_cmp_pair(const struct xl_cmp_file *base, int nbase, const struct xl_cmp_file *new,
		int nnew, xl_cmp_order_fn *order, struct xl_cmp_pairing **out)
{
	struct xl_cmp_pairing *p;
	struct order_ctx ctx = { .f = new, .order = order };
	int *idx, *next, i, j, k, pass, n, m;
	bool *used;

	*out = NULL;
	p = calloc(nbase + nnew + 1, sizeof(*p));
	used = calloc(nnew + 1, sizeof(*used));
	idx = calloc(nnew + 1, sizeof(*idx));
	next = calloc(nnew + 1, sizeof(*next));
	if (!p || !used || !idx || !next) {
		free(p);
		free(used);
		free(idx);
		free(next);
		return -ENOMEM;
	}
	for (i = 0; i < nbase; i++)
		p[i] = (struct xl_cmp_pairing){ .base = i, .new = -1 };
	/*
	 * Exact identity first, then the loose one (set-up differs). Each
	 * pass sorts NEW's rows still free by identity and file order; a
	 * BASE row in order takes the first free one of its identity. Within
	 * one identity the rows are taken in order, so the group's next free
	 * row is a cursor (@next, per group start): O(n log n) in all, the
	 * same pairing as trying every NEW row for every BASE row.
	 */
	for (pass = 0; pass < 2; pass++) {
		ctx.exact = !pass;
		for (j = 0, m = 0; j < nnew; j++)
			if (!used[j])
				idx[m++] = j;
		qsort_r(idx, m, sizeof(*idx), by_identity, &ctx);
		for (k = 0; k < m; k++)
			next[k] = k;
		for (i = 0; i < nbase; i++) {
			if (p[i].new >= 0)
				continue;
			k = lower_bound(idx, m, base, i, new, order, ctx.exact);
			if (k == m || order(new, idx[k], base, i, ctx.exact))
				continue;
			j = next[k];
			if (j == m || order(new, idx[j], base, i, ctx.exact))
				continue; /* the group is used up */
			used[idx[j]] = true;
			p[i].new = idx[j];
			next[k] = j + 1;
		}
	}
	n = nbase;
	for (j = 0; j < nnew; j++)
		if (!used[j])
			p[n++] = (struct xl_cmp_pairing){ .base = -1, .new = j };
	free(used);
	free(idx);
	free(next);
	*out = p;
	return n;
}

int xl_cmp_find_dup(const struct xl_cmp_file *f, int n, xl_cmp_order_fn *order, int *first,
		    int *second)
{
	struct order_ctx ctx = { .f = f, .order = order, .exact = true };
	int *idx, k, ret = 0;

	if (n < 2)
		return 0;
	idx = calloc(n, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		idx[k] = k;
	qsort_r(idx, n, sizeof(*idx), by_identity, &ctx);
	/* The duplicate pair that comes first in the file. */
	for (k = 1; k < n; k++)
		if (!order(f, idx[k - 1], f, idx[k], true) && (!ret || idx[k] < *second)) {
			*first = idx[k - 1];
			*second = idx[k];
			ret = 1;
		}
	free(idx);
	return ret;
}

int xl_cmp_zero_rates(const double *v, int n)
{
	int i, z = 0;

	for (i = 0; i < n; i++)
		z += !(v[i] > 0);
	return z;
}

double xl_cmp_test_ns(double pps)
{
	return pps > 0 ? xl_ns_per_pkt(pps) : INFINITY;
}

bool xl_cmp_all_positive(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return n > 0;
}
