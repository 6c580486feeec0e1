// SPDX-License-Identifier: BSD-2-Clause
/* Paired A/B comparison: median difference, sign-test CI and p-value. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "xdplab/abtest.h"
#include "xdplab/stats.h"

double xl_sign_test_p(size_t pos, size_t neg)
{
	size_t n = pos + neg, k = pos < neg ? pos : neg;
	double p;

	if (!n)
		return 1.0;
	p = 2 * xl_binom_half_cdf(n, k);
	return p > 1 ? 1 : p;
}

int xl_ab_compare(const double *a, const double *b, size_t n, bool higher_is_faster,
		  double min_effect, struct xl_ab_result *r)
{
	double d[XL_AB_MAX_ROUNDS];
	size_t i, pos = 0, neg = 0;

	memset(r, 0, sizeof(*r));
	if (!n || n > XL_AB_MAX_ROUNDS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		d[i] = b[i] - a[i];
		pos += d[i] > 0;
		neg += d[i] < 0;
	}
	r->n = n;
	r->a_median = xl_summarize(a, n).median;
	r->b_median = xl_summarize(b, n).median;
	r->diff_median = xl_summarize(d, n).median;
	r->ci = !xl_median_ci(d, n, &r->diff_lo, &r->diff_hi);
	r->p = xl_sign_test_p(pos, neg);
	if (r->p < 0.05 && fabs(r->diff_median) > min_effect) {
		/* B above A: for a rate B is faster, for a cost A is. */
		bool b_higher = pos > neg;

		r->verdict = b_higher == higher_is_faster ? XL_AB_B_FASTER : XL_AB_A_FASTER;
	}
	return 0;
}

const char *xl_ab_verdict_name(enum xl_ab_verdict v)
{
	return v == XL_AB_A_FASTER ? "A faster" : v == XL_AB_B_FASTER ? "B faster" : "~";
}
