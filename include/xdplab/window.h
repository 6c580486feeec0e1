/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file window.h
 * The one measurement window (src/lib/measure/window.c): a counter read
 * carries the time taken right next to it, a window between two reads keeps
 * the raw delta and its own length, and ratios (rates, shares, ns per
 * packet) are computed from raw deltas only when a figure is wanted, never
 * turned back into counts. Every command and every lab row measures with it
 * (docs/results.md "Windows").
 */
#ifndef XDPLAB_WINDOW_H
#define XDPLAB_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct xl_read - one counter read.
 * @v:    the counter's value (its unit is the counter's: frames, bytes, ns).
 * @t_ns: xl_now_ns() taken next to the read (right after it returned).
 * @ok:   the read succeeded; when false @v means nothing.
 */
struct xl_read {
	uint64_t v;
	uint64_t t_ns;
	bool ok;
};

/**
 * struct xl_delta - a counter between two reads.
 * @n:  raw delta, modulo 2^64 (a 64-bit counter that wrapped once between
 *      the reads gives the true count; every counter read is 64 bits).
 * @ns: time between the two reads, ns (the window this delta belongs to).
 * @ok: both reads succeeded and time did not run backwards.
 */
struct xl_delta {
	uint64_t n;
	uint64_t ns;
	bool ok;
};

/** xl_read_now() - a read of @v that succeeded (@ok) stamped with xl_now_ns(). */
struct xl_read xl_read_now(uint64_t v, bool ok);

/**
 * xl_delta_of() - the window from @a (earlier) to @b of a 64-bit counter.
 * Return: the delta; .ok false (and .n = .ns = 0) when a read failed.
 */
struct xl_delta xl_delta_of(const struct xl_read *a, const struct xl_read *b);

/** xl_delta_valid() - @d can be divided by: both reads ok and a window longer than 0 ns. */
bool xl_delta_valid(const struct xl_delta *d);

/** xl_delta_rate() - @d per second over its own window; 0 when !xl_delta_valid(). */
double xl_delta_rate(const struct xl_delta *d);

/**
 * xl_delta_ratio() - @num->n / @den->n: ns per packet, bytes per packet, or
 * a share of a window (a CPU's busy ns over the window's ns, 0..1),
 * unclamped, so that a read which lags its window shows above 1 instead of
 * being hidden; 0 when either failed or @den counted nothing.
 */
double xl_delta_ratio(const struct xl_delta *num, const struct xl_delta *den);

/** xl_delta_add() - accumulate @d into @sum (counts and lengths add; ok only if both). */
void xl_delta_add(struct xl_delta *sum, const struct xl_delta *d);

#endif /* XDPLAB_WINDOW_H */
