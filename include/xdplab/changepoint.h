/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file changepoint.h
 * Change points in a series of run summaries (`xdplab history`): E-divisive
 * means, the hierarchical energy-statistic segmentation of D. S. Matteson
 * and N. A. James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", JASA 109 (2014) 334-345
 * (arXiv:1306.4933), with its permutation test for significance, as Apache
 * Otava (formerly Hunter, Datastax; Fleming et al., arXiv:2301.03034)
 * applies it to benchmark histories. Our own code: univariate, exponent
 * alpha = 1 (|x - y|), the (tau, kappa) search of the paper, a fixed
 * pseudo-random seed so the same series always gives the same answer.
 * Pure code: no I/O.
 */
#ifndef XDPLAB_CHANGEPOINT_H
#define XDPLAB_CHANGEPOINT_H

#include <stdint.h>

/** The most change points one series reports. */
#define XL_CP_MAX 16
/** The longest series accepted (its distance matrix is n^2 doubles). */
#define XL_CP_MAX_POINTS 4096

/** Defaults of xdplab history: significance, permutations, points a side. */
#define XL_CP_ALPHA_DEFAULT 0.01
#define XL_CP_PERMUTATIONS_DEFAULT 199
#define XL_CP_MIN_SIZE_DEFAULT 2

/**
 * struct xl_cp_opts - @alpha: a candidate is a change point when its
 * permutation p-value is <= @alpha (0 < alpha < 1). @permutations: R, the
 * permutations of the test (p = (1 + #{q_perm >= q}) / (R + 1), so the
 * smallest p is 1 / (R + 1): R must be >= 1 / alpha - 1 for any change
 * point to be found). @min_size: the fewest points on either side of a
 * change point and between two (>= 1). @seed: the permutations' seed (0:
 * the fixed default).
 */
struct xl_cp_opts {
	double alpha;
	int permutations, min_size;
	uint64_t seed;
};

/**
 * struct xl_cp - one change point. @index: the first point after the
 * change (1..n-1: the run where the row changed). @q: its divergence
 * statistic Q-hat (the paper's, alpha = 1; units of the series). @p: its
 * permutation p-value.
 */
struct xl_cp {
	int index;
	double q, p;
};

/**
 * struct xl_cp_result - @cp/@n: the change points found, by index
 * ascending. @last_p: the p-value of the best candidate that was not
 * significant (what stopped the search), 1 when there was no candidate
 * (too few points); @last_index its index (-1 none).
 */
struct xl_cp_result {
	struct xl_cp cp[XL_CP_MAX];
	int n;
	double last_p;
	int last_index;
};

/**
 * xl_edivisive() - find the change points of @z (@n values, in time order;
 * not modified) under @o. Each step finds, over every current segment
 * [s, e) and every s < tau < kappa <= e with tau - s and kappa - tau >=
 * @o->min_size, the (tau, kappa) with the largest
 * Q = (m1 m2 / (m1 + m2)) * (2/(m1 m2) sum|X - Y| - sum|X - X'|/C(m1,2) -
 * sum|Y - Y'|/C(m2,2)), X = z[s..tau), Y = z[tau..kappa); then permutes the
 * values within each segment @o->permutations times and takes p = (1 +
 * #{max Q over the permuted segments >= Q}) / (R + 1); p <= alpha makes
 * tau a change point and the search goes on in the two halves, else it
 * stops (Matteson and James 2014, section 3).
 * Return: 0, -EINVAL (@n above XL_CP_MAX_POINTS, or bad @o), -ENOMEM.
 */
int xl_edivisive(const double *z, int n, const struct xl_cp_opts *o, struct xl_cp_result *out);

#endif /* XDPLAB_CHANGEPOINT_H */
