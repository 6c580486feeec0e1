// SPDX-License-Identifier: BSD-2-Clause
/*
 * The Mann-Whitney U test, exact with ties, and the netdev ns/packet
 * arithmetic (xdplab/compare.h). Method: docs/compare.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"

double xl_delta_ns_per_pkt(double base_pps, double new_pps)
{
	if (base_pps <= 0 || new_pps <= 0)
		return 0;
	return xl_ns_per_pkt(new_pps) - xl_ns_per_pkt(base_pps);
}

double xl_mann_whitney_min_p(size_t n1, size_t n2)
{
	double p = 2 / xl_choose(n1 + n2, n1);

	return p > 1 ? 1 : p;
}

size_t xl_mann_whitney_n_needed(double alpha)
{
	size_t n;

	for (n = 1; n <= XL_MAX_REPS; n++)
		if (xl_mann_whitney_min_p(n, n) < alpha)
			return n;
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int xl_mann_whitney(const double *x, size_t n1, const double *y, size_t n2,
		    struct xl_utest *out)
{
	size_t n = n1 + n2, i, j, k, c, t, g, smax;
	double pool[2 * XL_MAX_REPS], *cnt, *next, total, lo = 0, hi = 0;
	long obs2 = 0; /* x's rank sum, doubled (midranks are halves) */

	if (!n1 || !n2 || n1 > XL_MAX_REPS || n2 > XL_MAX_REPS)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->n1 = n1;
	out->n2 = n2;
	for (i = 0; i < n1; i++)
		for (j = 0; j < n2; j++)
			out->u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	memcpy(pool, x, n1 * sizeof(*x));
	memcpy(pool + n1, y, n2 * sizeof(*y));
	qsort(pool, n, sizeof(pool[0]), cmp_dbl);

	/*
	 * cnt[k * (smax + 1) + s]: in how many ways k of the values seen so
	 * far can be x's with doubled rank sum s. Each tie group of t values
	 * at doubled midrank 2r adds c x's in C(t, c) ways, for c = 0..t.
	 */
	smax = n * (n + 1);
	cnt = calloc(2 * (n1 + 1) * (smax + 1), sizeof(*cnt));
	if (!cnt)
		return -ENOMEM;
	next = cnt + (n1 + 1) * (smax + 1);
	cnt[0] = 1;
	for (g = 0; g < n; g += t) {
		long r2;

		for (t = 1; g + t < n && pool[g + t] == pool[g]; t++)
			;
		if (t > 1)
			out->ties = true;
		r2 = (long)(2 * g + t + 1); /* ranks g+1..g+t, doubled mean */
		for (i = 0; i < n1; i++)
			if (x[i] == pool[g])
				obs2 += r2;
		memset(next, 0, (n1 + 1) * (smax + 1) * sizeof(*next));
		for (k = 0; k <= n1; k++)
			for (j = 0; j <= smax; j++) {
				double w = cnt[k * (smax + 1) + j];

				if (!w)
					continue;
				for (c = 0; c <= t && k + c <= n1; c++)
					next[(k + c) * (smax + 1) + j + c * r2] += w * xl_choose(t, c);
			}
		memcpy(cnt, next, (n1 + 1) * (smax + 1) * sizeof(*cnt));
	}
	total = xl_choose(n, n1);
	for (j = 0; j <= smax; j++) {
		double w = cnt[n1 * (smax + 1) + j];

		if ((long)j <= obs2)
			lo += w;
		if ((long)j >= obs2)
			hi += w;
	}
	free(cnt);
	out->p = 2 * (lo < hi ? lo : hi) / total;
	if (out->p > 1)
		out->p = 1;
	return 0;
}
