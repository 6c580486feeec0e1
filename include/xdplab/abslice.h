/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abslice.h
 * Two XDP programs on one interface in one run (`xdplab ab`,
 * docs/own-program.md): each repetition gives each program a short slice
 * in turn, A B then B A (xl_plan_run()'s two arms, xdplab/plan.h): its
 * link made, a settling time, a meter window of the slice, the link cut.
 * Both sides are counted by the device's own per-action XDP counters
 * (ethtool -S, xdplab/ethxdp.h: the same method for both, no cost to
 * either), so the host's speed swings fall on both alike; the verdict
 * comes from the paired differences of the CPU ns per packet
 * (xl_ab_compare(), xdplab/abtest.h).
 *
 * Life cycle: xl_abslice__open() (the device's counters),
 * xl_abslice__arm() twice (the programs, loaded by the caller),
 * xl_abslice__run(), xl_abslice__print() / xl_abslice__json(),
 * xl_abslice__close().
 */
#ifndef XDPLAB_ABSLICE_H
#define XDPLAB_ABSLICE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/attach.h"
#include "xdplab/report.h"

/** After a link is made: the driver's XDP set-up (veth: NAPI, ring), ns. */
#define XL_ABSLICE_SETTLE_NS 20000000ull

/**
 * struct xl_abslice_opts - where and how long.
 * @ifname/@ifindex: the interface, in the caller's namespace; @ifname is
 *	borrowed for the run's life.
 * @mode: the XDP attach mode of both programs.
 * @slice_ns: each program's measured slice per repetition, ns.
 * @reps: repetitions, each an A and a B slice, 1..XL_AB_MAX_ROUNDS.
 * @lines: where each repetition's line goes (both sides' Mpps and CPU
 *	ns/packet), NULL: none.
 * @stop: set asynchronously (a signal) to stop; NULL: never.
 */
struct xl_abslice_opts {
	const char *ifname;
	int ifindex;
	enum xl_xdp_mode mode;
	uint64_t slice_ns;
	int reps;
	FILE *lines;
	volatile sig_atomic_t *stop;
};

struct xl_abslice;

/**
 * xl_abslice__open() - the run on @o's interface: its per-action XDP
 * counters found (veth's rx_queue_N_xdp_*), and the peer's, which say how
 * many frames came as skbs (whole frames' bytes then).
 * Return: the run (xl_abslice__close()), or NULL with errno: EOPNOTSUPP
 * (the device has no such counters: logged, naming it), ENOMEM, or the
 * socket's.
 */
struct xl_abslice *xl_abslice__open(const struct xl_abslice_opts *o);

/**
 * xl_abslice__arm() - side @k (0: A, 1: B): the program @prog_fd (loaded,
 * detached; the caller keeps and closes it), @spec as given (a FILE.o or
 * a built-in "drop:no-touch"; in the JSON), @name (in messages and the
 * JSON), both borrowed for the run's life. @row: the caller's results
 * row, its identity set (the same on both, so compare pairs them): each
 * slice's window becomes a repetition of it, and its wiring and size are
 * set after the run. Return: 0, -EINVAL (@k not 0 or 1), -ENOMEM.
 */
int xl_abslice__arm(struct xl_abslice *ab, int k, const char *spec, const char *name, int prog_fd,
		    struct xl_row_result *row);

/**
 * xl_abslice__run() - the repetitions, A first in even ones, B in odd;
 * then the comparison of the complete ones. Failures are logged (an
 * attach, the counters, a slice without frames, a wiring that changed
 * between slices: its CPU figures would mix sources).
 * Return: 0; -EINTR when stopped (xl_abslice__done() repetitions were
 * complete, logged); -EIO on a failure.
 */
int xl_abslice__run(struct xl_abslice *ab);

/** xl_abslice__done() - the complete repetitions of the run. */
int xl_abslice__done(const struct xl_abslice *ab);

/**
 * xl_abslice__print() - the comparison on @out: medians of A and B, the
 * paired difference's median, 95% CI, p and verdict for Mpps and CPU
 * ns/packet; the verdict line; the totals; where the CPU figure and the
 * frame size came from. After a complete xl_abslice__run().
 */
void xl_abslice__print(const struct xl_abslice *ab, FILE *out);

/**
 * xl_abslice__json() - the comparison as one JSON object on @out (command
 * "ab", interface, mode, reps, slice_s, the sources, a and b with each
 * repetition's figures, cpu_ns_per_pkt and mpps compared, verdict),
 * indented, no newline after. Return: 0, or -errno (-ENOMEM, -EIO: a
 * write failed).
 */
int xl_abslice__json(const struct xl_abslice *ab, FILE *out);

/** xl_abslice__close() - free @ab and close its sockets (NULL: nothing). */
void xl_abslice__close(struct xl_abslice *ab);

#endif /* XDPLAB_ABSLICE_H */
