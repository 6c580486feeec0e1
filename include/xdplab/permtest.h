/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file permtest.h
 * The two-sample permutation test over a handful of values a side (the
 * runs of `xdplab compare BASE... -- NEW...`, one summary per run), its
 * confidence interval by inversion, pooled spreads and Student's t
 * quantiles for the smallest detectable difference. Pure functions,
 * unit-tested; no I/O. docs/compare.md "Several runs a side".
 */
#ifndef XDPLAB_PERMTEST_H
#define XDPLAB_PERMTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Most values a side (runs a side in compare). */
#define XL_PERM_MAX 32
/** Up to this many relabelings the test enumerates them all (C(18, 9) = 48620). */
#define XL_PERM_EXACT_MAX 200000
/** Above it, this many random relabelings (the observed one among them)... */
#define XL_PERM_DRAWS 20000
/** ...drawn from this fixed seed (splitmix64), so a comparison repeats exactly. */
#define XL_PERM_SEED 0x19c0ffee19ULL

/**
 * struct xl_perm_result - xl_perm_test()'s answer.
 * @nb/@nn: values a side. @estimate: mean(new) - mean(base), the statistic.
 * @p: two-sided p-value: the share of the relabelings whose |statistic| is
 *   at least the observed one (within 1e-9 of the values' scale, so that
 *   equal values tie whatever the order of summation). @min_p: the
 *   smallest p the design can give whatever the data: 2 / C(nb+nn, nb)
 *   with nb == nn (a relabeling and its mirror tie), 1 / C(nb+nn, nb)
 *   otherwise; 1 / @relabelings when drawn. @exact: every relabeling
 *   counted; else @relabelings random ones (the first the observed).
 * @ci_lo/@ci_hi: the 95% interval of the shift new - base: the shifts d
 *   for which the test of (new - d) against base gives p > 0.05, found by
 *   bisection from @estimate outwards; -inf/+inf when the design cannot
 *   reach p <= 0.05 (@min_p > 0.05): no interval is possible.
 */
struct xl_perm_result {
	size_t nb, nn;
	double estimate, p, min_p, ci_lo, ci_hi;
	bool exact;
	uint64_t relabelings;
};

/**
 * xl_perm_test() - the two-sample permutation test of @base (@nb values)
 * against @new (@nn), neither modified: under "the side labels do not
 * matter" every assignment of the pooled values to a side of @nb and one
 * of @nn is equally likely (Fisher 1935; Good, "Permutation, Parametric
 * and Bootstrap Tests of Hypotheses", 2005, ch. 3). Statistic: the
 * difference of the sides' means. Exact over all C(nb+nn, nb) relabelings
 * up to XL_PERM_EXACT_MAX of them, else XL_PERM_DRAWS random ones from
 * XL_PERM_SEED (Phipson and Smyth 2010: the observed relabeling counts as
 * one of them, so p is never 0). The interval: see struct xl_perm_result.
 * Return: 0; -EINVAL when a side has 0 or more than XL_PERM_MAX values or
 * a value is not finite; -ENOMEM.
 */
int xl_perm_test(const double *base, size_t nb, const double *new, size_t nn,
		 struct xl_perm_result *out);

/**
 * xl_perm_p() - xl_perm_test() without the interval (@ci_lo/@ci_hi stay
 * -inf/+inf): for the A/A calibration, which tests hundreds of splits.
 * Return: as xl_perm_test().
 */
int xl_perm_p(const double *base, size_t nb, const double *new, size_t nn,
	      struct xl_perm_result *out);

/**
 * xl_perm_min_p() - the smallest two-sided p xl_perm_test() can give for
 * @nb vs @nn values (struct xl_perm_result @min_p): 3 vs 3: 0.1, 4 vs 4:
 * 0.029, 3 vs 4: 0.029. Return: 1 when a side is 0.
 */
double xl_perm_min_p(size_t nb, size_t nn);

/**
 * xl_perm_n_needed() - the smallest n such that n vs n values can reach
 * p < @alpha: 4 for 0.05, 5 for 0.01. Return: 0 when XL_PERM_MAX cannot.
 */
size_t xl_perm_n_needed(double alpha);

/**
 * xl_pooled_sd() - the pooled standard deviation of @ngroups groups:
 * group g is @vals[@off[g] .. @off[g+1]) (so @off has @ngroups + 1
 * entries): sqrt(sum over groups of sum (x - group mean)^2 / sum (n_g -
 * 1)). Return: it, NAN when no group has two values.
 */
double xl_pooled_sd(const double *vals, const size_t *off, size_t ngroups);

/**
 * xl_t_cdf() - Student's t distribution with @df (>= 1) degrees of
 * freedom: P(T <= @t), by the finite sums for whole df (Abramowitz and
 * Stegun 1964, 26.7.3 and 26.7.4). Return: 0..1; NAN when @df is 0.
 */
double xl_t_cdf(double t, unsigned int df);

/**
 * xl_t_quantile() - the @p quantile (0 < p < 1) of Student's t with @df
 * degrees of freedom, by bisection of xl_t_cdf() to 1e-10: t(0.975, 6) =
 * 2.447, t(0.8, 6) = 0.906. Return: it; NAN for @df 0 or @p outside (0, 1).
 */
double xl_t_quantile(double p, unsigned int df);

/**
 * xl_min_detectable() - the smallest difference of means two sides of @nb
 * and @nn runs with between-run standard deviation @sd can detect at
 * two-sided level @alpha with 80% power, by the t-test's approximation:
 * (t(1 - alpha/2, df) + t(0.8, df)) * sd * sqrt(1/nb + 1/nn), df = nb + nn
 * - 2 (e.g. Cohen 1988, ch. 2; the permutation test's power is close to
 * the t-test's when its level is reachable). Return: it; NAN when df < 1
 * or @sd is NAN.
 */
double xl_min_detectable(double sd, size_t nb, size_t nn, double alpha);

/**
 * xl_splitmix64() - the next value of the splitmix64 sequence at *@s (Steele,
 * Lea and Flood 2014; the seeding generator of Vigna's xoshiro): the fixed-
 * seed draws of the permutation test and the calibration's splits.
 */
uint64_t xl_splitmix64(uint64_t *s);

#endif /* XDPLAB_PERMTEST_H */
