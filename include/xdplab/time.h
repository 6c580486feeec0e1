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

/**
 * xl_timens_mono_off_parse() - the CLOCK_MONOTONIC offset of a time
 * namespace from the text of /proc/PID/timens_offsets (@buf,
 * NUL-terminated: lines "monotonic SECS NSECS" and "boottime SECS NSECS",
 * man 7 time_namespaces) into *@off_ns, ns (may be negative).
 * Return: 0, or -EINVAL when no well-formed monotonic line is there.
 */
int xl_timens_mono_off_parse(const char *buf, int64_t *off_ns);

/**
 * xl_ktime_realtime_off_ns() - CLOCK_REALTIME minus the kernel's own
 * CLOCK_MONOTONIC (bpf_ktime_get_ns()'s clock), ns: add it to a BPF time
 * to date it. In a time namespace the process's CLOCK_MONOTONIC is shifted
 * by the namespace's offset and bpf_ktime_get_ns() is not, so the offset
 * read from /proc/self/timens_offsets is added back (no such file, a
 * kernel without time namespaces: offset 0). No failure.
 */
int64_t xl_ktime_realtime_off_ns(void);

#endif
