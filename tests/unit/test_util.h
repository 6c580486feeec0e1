/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the unit tests share: assert_near() / assert_dbl_equal() for
 * doubles, printing both values on failure. Include after <cmocka.h>.
 */
#ifndef XDPLAB_TEST_UTIL_H
#define XDPLAB_TEST_UTIL_H

#include <math.h>

/* Doubles: |a - b| <= eps, with both values printed on failure. */
static inline void assert_near_(double a, double b, double eps, const char *ea,
				const char *eb, const char *file, int line)
{
	if (fabs(a - b) <= eps)
		return;
	print_error("%s = %.17g, want %s = %.17g (within %g)\n", ea, a, eb, b, eps);
	_fail(file, line);
}

#define assert_near(a, b, eps) assert_near_((a), (b), (eps), #a, #b, __FILE__, __LINE__)
#define assert_dbl_equal(a, b) assert_near((a), (b), 0.0)

#endif /* XDPLAB_TEST_UTIL_H */
