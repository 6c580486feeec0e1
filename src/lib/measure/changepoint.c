// SPDX-License-Identifier: BSD-2-Clause
/*
 * E-divisive means with the permutation test (xdplab/changepoint.h):
 * Matteson and James 2014, as Apache Otava applies it to benchmark runs.
 * The sums of |z_i - z_j| over blocks come from a 2-D prefix sum of the
 * distance matrix, so each (tau, kappa) costs O(1) and a search over a
 * series of n points O(n^2).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/changepoint.h"

struct cp_work {
	int n;
	double *ps; /* (n+1)^2 prefix sums: ps[i][j] = sum of D over [0,i) x [0,j) */
};

static void prefix(struct cp_work *w, const double *z)
{
	int n = w->n, i, j, m = n + 1;

	memset(w->ps, 0, sizeof(double) * m * m);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			double d = z[i] > z[j] ? z[i] - z[j] : z[j] - z[i];

			w->ps[(i + 1) * m + j + 1] = d + w->ps[i * m + j + 1] + w->ps[(i + 1) * m + j] -
						     w->ps[i * m + j];
		}
}

/* The sum of D over [a,b) x [c,d). */
static double block(const struct cp_work *w, int a, int b, int c, int d)
{
	int m = w->n + 1;

	return w->ps[b * m + d] - w->ps[a * m + d] - w->ps[b * m + c] + w->ps[a * m + c];
}

/* Q-hat of X = [s,t), Y = [t,k) (the paper's, alpha = 1). */
static double qhat(const struct cp_work *w, int s, int t, int k)
{
	double m1 = t - s, m2 = k - t, e;

	e = 2 * block(w, s, t, t, k) / (m1 * m2);
	if (m1 > 1)
		e -= block(w, s, t, s, t) / 2 / (m1 * (m1 - 1) / 2);
	if (m2 > 1)
		e -= block(w, t, k, t, k) / 2 / (m2 * (m2 - 1) / 2);
	return m1 * m2 / (m1 + m2) * e;
}

/* The best tau of segment [s,e): its Q in *q, -1 when the segment is too short. */
static int best_in(const struct cp_work *w, int s, int e, int min, double *q)
{
	int t, k, best = -1;

	for (t = s + min; t + min <= e; t++)
		for (k = t + min; k <= e; k++) {
			double v = qhat(w, s, t, k);

			if (best < 0 || v > *q) {
				*q = v;
				best = t;
			}
		}
	return best;
}

/* The best candidate over the segments bounded by @cuts (@ncuts, sorted, 0 and n included). */
static int best_over(const struct cp_work *w, const int *cuts, int ncuts, int min, double *q)
{
	int i, t, best = -1;
	double v = 0;

	for (i = 0; i + 1 < ncuts; i++) {
		t = best_in(w, cuts[i], cuts[i + 1], min, &v);
		if (t >= 0 && (best < 0 || v > *q)) {
			*q = v;
			best = t;
		}
	}
	return best;
}

/* splitmix64 (Steele, Lea and Flood 2014): a small seeded generator, enough for shuffles. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fisher-Yates within each segment. */
static void shuffle(double *v, const int *cuts, int ncuts, uint64_t *rng)
{
	int c, i, j;

	for (c = 0; c + 1 < ncuts; c++)
		for (i = cuts[c + 1] - 1; i > cuts[c]; i--) {
			double t;

			j = cuts[c] + (int)(((unsigned __int128)next_rand(rng) * (i - cuts[c] + 1)) >> 64);
			t = v[i];
			v[i] = v[j];
			v[j] = t;
		}
}

static void insert_cut(int *cuts, int *ncuts, int t)
{
	int i = *ncuts;

	while (i > 0 && cuts[i - 1] > t) {
		cuts[i] = cuts[i - 1];
		i--;
	}
	cuts[i] = t;
	(*ncuts)++;
}

int xl_edivisive(const double *z, int n, const struct xl_cp_opts *o, struct xl_cp_result *out)
{
	int cuts[XL_CP_MAX + 2], ncuts = 2, t, r, above, i;
	struct cp_work w = { .n = n };
	uint64_t rng = o->seed ? o->seed : 0x78646c6162ULL; /* "xdlab" */
	double q, qp, *perm;

	memset(out, 0, sizeof(*out));
	out->last_p = 1;
	out->last_index = -1;
	if (n < 0 || n > XL_CP_MAX_POINTS || !(o->alpha > 0 && o->alpha < 1) ||
	    o->permutations < 1 || o->min_size < 1)
		return -EINVAL;
	if (n < 2 * o->min_size)
		return 0;
	w.ps = malloc(sizeof(double) * (n + 1) * (n + 1));
	perm = malloc(sizeof(double) * n);
	if (!w.ps || !perm) {
		free(w.ps);
		free(perm);
		return -ENOMEM;
	}
	cuts[0] = 0;
	cuts[1] = n;
	while (out->n < XL_CP_MAX) {
		prefix(&w, z);
		t = best_over(&w, cuts, ncuts, o->min_size, &q);
		if (t < 0)
			break;
		above = 0;
		memcpy(perm, z, sizeof(double) * n);
		for (r = 0; r < o->permutations; r++) {
			shuffle(perm, cuts, ncuts, &rng);
			prefix(&w, perm);
			if (best_over(&w, cuts, ncuts, o->min_size, &qp) >= 0 &&
			    qp >= q - 1e-9 * (q > 0 ? q : -q)) /* the same split, summed in another order */
				above++;
		}
		out->last_p = (1.0 + above) / (o->permutations + 1.0);
		out->last_index = t;
		if (out->last_p > o->alpha)
			break;
		out->cp[out->n++] = (struct xl_cp){ .index = t, .q = q, .p = out->last_p };
		out->last_p = 1;
		out->last_index = -1;
		insert_cut(cuts, &ncuts, t);
	}
	/* By index: the search found them by strength. */
	for (i = 1; i < out->n; i++) {
		struct xl_cp c = out->cp[i];
		int j = i;

		while (j > 0 && out->cp[j - 1].index > c.index) {
			out->cp[j] = out->cp[j - 1];
			j--;
		}
		out->cp[j] = c;
	}
	free(w.ps);
	free(perm);
	return 0;
}
