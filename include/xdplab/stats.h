/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file stats.h
 * Rate arithmetic, repetition summaries and number formatting. Pure
 * functions, unit-tested; no I/O.
 */
#ifndef XDPLAB_STATS_H
#define XDPLAB_STATS_H

#include <stddef.h>
#include <stdint.h>

/** DUT CPU busy share below which a row is "generator-bound". */
#define XL_SATURATED_SHARE 0.95
/** Disagreement with the kernel's own counter above which a row is marked. */
#define XL_COUNTER_TOLERANCE 0.005
/**
 * Steal share of a window on the judged CPU above which the window is
 * marked (issue 19): 5% of the window given to another guest moves a
 * per-packet figure by about as much, past the few-percent differences a
 * compare looks for; /proc/stat's 10 ms ticks resolve 5% of a 1 s window.
 */
#define XL_STEAL_HIGH_SHARE 0.05

/**
 * xl_rate() - events per second: @delta events over @ns nanoseconds.
 * Return: 0.0 when @ns is 0.
 */
double xl_rate(uint64_t delta, uint64_t ns);

/**
 * xl_ns_per_pkt() - 1e9 / @pps: the time budget per packet in ns.
 * Return: 0.0 when @pps <= 0 (no packets: no figure).
 */
double xl_ns_per_pkt(double pps);

/**
 * struct xl_summary - a summary of repetitions.
 * @median: the median (mean of the middle two for an even count).
 * @min/@max: extremes. @n: number of values.
 */
struct xl_summary {
	double median, min, max;
	size_t n;
};

/**
 * xl_summarize() - median, min and max of @n values (not modified).
 * Return: the summary; all zero when @n is 0.
 */
struct xl_summary xl_summarize(const double *vals, size_t n);

/**
 * xl_choose() - the binomial coefficient C(@n, @k) in double: exact while
 * it fits 53 bits (up to C(64, 32) ~ 1.8e18 within one rounding per
 * factor), inf past ~1.8e308. Return: 0 when @k > @n.
 */
double xl_choose(size_t n, size_t k);

/**
 * xl_binom_half_cdf() - P(X <= @k) for X ~ Binomial(@n, 1/2): the tail the
 * sign test's p-value and the median's interval are read from. The terms
 * are summed from logs, so any @n is finite (2^n alone is not past 1023).
 * Return: 0..1; 1 when @k >= @n.
 */
double xl_binom_half_cdf(size_t n, size_t k);

/**
 * xl_median_ci() - a distribution-free 95% confidence interval of the
 * median of @n values (not modified): the order statistics x(k) and
 * x(n+1-k) with the largest k for which P(Binomial(n, 1/2) < k) <= 2.5%
 * (the sign test's interval; e.g. n = 9: x(2)..x(8), 96.1%; n = 25:
 * x(8)..x(18), 95.7%). Needs n >= 6 (below, no k reaches 95%).
 * Return: 0 with *@lo and *@hi set, -EDOM when @n < 6, -ENOMEM.
 */
int xl_median_ci(const double *vals, size_t n, double *lo, double *hi);

/**
 * xl_disagreement() - relative difference |a - b| / max(a, b), 0..1; 0 when
 * both are 0. Used to compare our count with the kernel's.
 */
double xl_disagreement(uint64_t a, uint64_t b);

/**
 * xl_fmt_thousands() - @v with ',' between groups of three digits
 * ("12,345,678") into @buf of @len bytes. Return: @buf.
 */
char *xl_fmt_thousands(uint64_t v, char *buf, size_t len);

#endif /* XDPLAB_STATS_H */
