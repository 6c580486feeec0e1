/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file time.h
 * The one clock and the one interruptible sleep of the library and the
 * commands (src/lib/core/time.c).
 */
#ifndef XDPLAB_TIME_H
#define XDPLAB_TIME_H

#include <signal.h>
#include <stdint.h>

/** xl_now_ns() - CLOCK_MONOTONIC in ns. Thread-safe, no failure. */
uint64_t xl_now_ns(void);

/**
 * xl_sleep_ns() - sleep @ns nanoseconds, or until *@stop becomes non-zero.
 * @ns:   how long, in ns (0 returns at once).
 * @stop: flag set by a signal handler or another thread; NULL = never stop.
 *        Checked at least every 50 ms, so a flag set from another thread,
 *        whose signal does not interrupt this thread's nanosleep, is seen
 *        promptly. The end is a deadline on xl_now_ns(), not a sum of naps,
 *        so interruptions do not lengthen the sleep.
 * Return: 1 if *@stop was set (before or during the sleep), else 0.
 */
int xl_sleep_ns(uint64_t ns, volatile sig_atomic_t *stop);

#endif
