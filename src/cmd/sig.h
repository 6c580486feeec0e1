/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: stop requests (SIGINT/SIGTERM/SIGHUP), SIGQUIT's
 * --extended toggle, and the waits a stop ends at once (sig.c).
 */
#ifndef XDPLAB_SIG_H
#define XDPLAB_SIG_H

#include <signal.h>
#include <stdint.h>

#include "xdplab/time.h"


/** Set by SIGINT/SIGTERM/SIGHUP: loops end and clean up normally. */
extern volatile sig_atomic_t xl_stop_requested;
/** SIGQUITs received: an odd count flips --extended in xl_cmd_report_loop(). */
extern volatile sig_atomic_t xl_extended_toggles;

/**
 * An eventfd the stop handler writes after setting xl_stop_requested, or -1
 * (no xl_sig_install(), or eventfd failed): readable from the first stop on,
 * never drained. A wait that polls it wakes at once whichever thread took
 * the signal and however late in the wait's set-up it came (the self-pipe
 * trick: D. J. Bernstein's; the kernel's eventfd(2) as the pipe).
 */
extern int xl_stop_fd;

/** Install the stop handlers (no SA_RESTART, so sleeps wake up) and xl_stop_fd. */
void xl_sig_install(void);

/** Sleep @ns or until a stop is requested. Return: 1 if stopped. */
#define xl_cmd_sleep_ns(ns) xl_sleep_ns((ns), &xl_stop_requested)

/** Liveness checks once a second (struct xl_cmd_loop.poll_ns) with xl_cmd_wait(). */
#define XL_CMD_POLL_NS 1000000000ull

/**
 * xl_cmd_wait() - a struct xl_cmd_loop.wait: the @ns between samples in one
 * ppoll() on xl_stop_fd (a stop ends it at once: also one that came just
 * before the ppoll, or that another thread took), not xl_sleep_ns()'s 50 ms
 * naps; a plain nanosleep when there is no xl_stop_fd.
 * With a cheap liveness check polled every XL_CMD_POLL_NS the process wakes
 * about once per interval, as xdp-bench's. @ctx unused. Return: 0.
 */
int xl_cmd_wait(void *ctx, uint64_t ns);

#endif /* XDPLAB_SIG_H */
