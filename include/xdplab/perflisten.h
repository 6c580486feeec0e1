/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file perflisten.h
 * A perf listener on a tracepoint, for the price of watching: `perf record`
 * (Debian's linux-perf) on one event with a --filter, started once with its
 * events disabled (-D -1) and switched on and off through its control FIFO
 * (--control fifo:CTL,ACK, each command acknowledged), so that it can be
 * interleaved in 50 ms slices with other levels the way the monitor levels
 * are (xl_labrun_watch_cost()). The idea of a non-matching filter's cost
 * comes from the netdev measurement behind the separate xdp_redirect_err
 * tracepoint (perf record with a filter that matches nothing: ~48 ns/packet).
 *
 * While disabled, the perf event stays open: its probe stays registered on
 * the tracepoint and returns at once (an empty per-CPU list), so levels
 * measured beside it carry that residual; enabled, every hit builds the
 * trace record and runs the filter.
 */
#ifndef XDPLAB_PERFLISTEN_H
#define XDPLAB_PERFLISTEN_H

struct xl_perf_listener;

/**
 * xl_perf_listener__create() - start `perf record -a -e @event --filter
 * @filter -D -1 --control fifo:... -o DIR/perf.data -B -N -q` in a private
 * temporary DIR, and wait (up to 10 s) until perf answers a first
 * "disable": its events are then open. perf dies with xdplab (struct
 * xl_child). Return: the listener, or NULL with errno: ENOENT (perf is not
 * installed: Debian's linux-perf), ETIMEDOUT (no answer), EIO (perf exited;
 * its first error line is logged).
 */
struct xl_perf_listener *xl_perf_listener__create(const char *event, const char *filter);

/** xl_perf_listener__enable() - enable the events; Return: 0 or -errno (-ETIMEDOUT, -EIO). */
int xl_perf_listener__enable(struct xl_perf_listener *p);

/** xl_perf_listener__disable() - disable them; Return: as __enable(). */
int xl_perf_listener__disable(struct xl_perf_listener *p);

/**
 * xl_perf_listener__destroy() - stop perf (SIGINT, SIGKILL after 3 s),
 * delete its files and directory, free. NULL is fine.
 */
void xl_perf_listener__destroy(struct xl_perf_listener *p);

#endif /* XDPLAB_PERFLISTEN_H */
