/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abtest.h
 * A/B comparison of paired measurements (round i of A and of B ran
 * interleaved, so the host's speed swings fall on both): the median of the
 * paired differences B - A, its distribution-free 95% confidence interval
 * (xl_median_ci(), the sign test's interval) and the two-sided sign test's
 * p-value. Pure functions, unit-tested.
 */
#ifndef XDPLAB_ABTEST_H
#define XDPLAB_ABTEST_H

#include <stdbool.h>
#include <stddef.h>

/** Verdicts: the difference is not shown (~), or A or B is faster. */
enum xl_ab_verdict { XL_AB_SAME = 0, XL_AB_A_FASTER = 1, XL_AB_B_FASTER = 2 };

/** Most paired rounds compared. */
#define XL_AB_MAX_ROUNDS 1024

/**
 * struct xl_ab_result - what xl_ab_compare() found.
 * @n: pairs used. @a_median/@b_median: medians of each side.
 * @diff_median: median of b[i] - a[i]; @diff_lo/@diff_hi: its 95% CI
 *   (@ci false when n < 6: no interval reaches 95%).
 * @p: two-sided sign-test p-value of "the median difference is 0" (ties
 *   dropped). @verdict: not XL_AB_SAME only when @p < 0.05 and
 *   |@diff_median| > the caller's minimum effect.
 */
struct xl_ab_result {
	size_t n;
	double a_median, b_median;
	double diff_median, diff_lo, diff_hi;
	bool ci;
	double p;
	enum xl_ab_verdict verdict;
};

/**
 * xl_sign_test_p() - two-sided p-value of the sign test with @pos
 * positive and @neg negative differences: 2 * P(Binomial(n, 1/2) <=
 * min(pos, neg)), capped at 1. Return: 1.0 when n is 0.
 */
double xl_sign_test_p(size_t pos, size_t neg);

/**
 * xl_ab_compare() - compare @n paired values @a[i], @b[i] (not modified).
 * @higher_is_faster: true for rates (pps), false for costs (ns/packet).
 * @min_effect: a median difference of at most this much (same unit) is
 *   called ~ whatever @p says: the measurement's resolution (prog-run: the
 *   kernel's duration is a whole number of ns, so 1), or 0.
 * Return: 0, -EINVAL (n 0 or above XL_AB_MAX_ROUNDS).
 */
int xl_ab_compare(const double *a, const double *b, size_t n, bool higher_is_faster,
		  double min_effect, struct xl_ab_result *r);

/** xl_ab_verdict_name() - "~", "A faster" or "B faster". */
const char *xl_ab_verdict_name(enum xl_ab_verdict v);

#endif /* XDPLAB_ABTEST_H */
