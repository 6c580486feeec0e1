/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file progbench.h
 * What one packet costs a user's XDP program, measured with BPF_PROG_RUN
 * (`xdplab prog-run`, docs/own-program.md): each frame is run in rounds,
 * the kernel's duration per run less the repeat loop's own (an empty
 * program's, timed the same way and interleaved); a frame the program
 * changes is timed in calls of one run each on a fresh copy. With two
 * programs (A/B) each frame and round runs A B B A, each side the mean of
 * its two calls, and each packet class is compared with xl_ab_compare()
 * over the rounds (xdplab/abtest.h). The single-frame runs are
 * xdplab/progrun.h's.
 *
 * Life cycle: xl_progbench__create() loads the programs,
 * xl_progbench__run() measures, xl_progbench__print() or
 * xl_progbench__json() writes the results, xl_progbench__destroy() frees.
 */
#ifndef XDPLAB_PROGBENCH_H
#define XDPLAB_PROGBENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/pcapfile.h"
#include "xdplab/userprog.h"

/**
 * A frame the program changes is timed in calls of one run on a fresh
 * copy each, at most this many a round (each a syscall: ~2 us).
 */
#define XL_PROGBENCH_FRESH_MAX_CALLS 1000

/** Below this many runs per call (--repeat), the figure is mostly the timer's. */
#define XL_PROGBENCH_REPEAT_WARN 100

/**
 * struct xl_progbench_opts - what to measure.
 * @path: the object of the one program, or of A; @b_path: B's, NULL
 *	without an A/B comparison. Borrowed for the bench's life.
 * @uo: how to load each object (section, function, map fills: struct
 *	xl_userprog_opts; its @path is ignored). Borrowed for the bench's life.
 * @frames: the frames to run (a capture's, with frame numbers, or built
 *	ones; struct xl_pcap_frames). Borrowed for the bench's life.
 * @source: what the frames are, for the results ("--packets", or the
 *	capture's path); borrowed.
 * @repeat: runs per BPF_PROG_RUN call of a frame the program leaves as it
 *	is, 1.. .
 * @rounds: calls per frame, interleaved over the frames (and A/B),
 *	1..XL_AB_MAX_ROUNDS.
 * @stop: set asynchronously (a signal) to stop after the current call;
 *	NULL: never.
 */
struct xl_progbench_opts {
	const char *path, *b_path;
	const struct xl_userprog_opts *uo;
	const struct xl_pcap_frames *frames;
	const char *source;
	uint64_t repeat, rounds;
	volatile sig_atomic_t *stop;
};

struct xl_progbench;

/**
 * xl_progbench__create() - load the program(s) of @o and an empty XDP
 * program beside each (the loop's overhead, with the same frags flag) and
 * allocate the figures of @o->rounds x frames. The causes are logged.
 * @bad_object: out, set when the failure is the user's object's
 *	(xl_userprog_usage_error(): missing, not an XDP object...), else
 *	cleared.
 * Return: the bench (xl_progbench__destroy()), or NULL with errno set.
 */
struct xl_progbench *xl_progbench__create(const struct xl_progbench_opts *o, bool *bad_object);

/**
 * xl_progbench__run() - measure: each frame once on a fresh copy (its
 * action and out bytes, whether the program changes it), then the rounds.
 * A frame BPF_PROG_RUN refuses (-EINVAL, -ENOSPC, or -E2BIG: longer than
 * the linear part a program without frags sees) is not run and reported
 * so; any other error of a call stops the run (logged, naming the object
 * and the frame). A stop request ends it after the last complete round:
 * the rounds done are reported, which is said in one logged line.
 * Return: 0 when every round ran; -EINTR when stopped (results of the
 * complete rounds, none when xl_progbench__rounds_done() is 0); or the
 * call's -errno (-EPERM: needs CAP_BPF), -ENOMEM.
 */
int xl_progbench__run(struct xl_progbench *pb);

/** xl_progbench__rounds_done() - the complete rounds of the last xl_progbench__run(). */
int xl_progbench__rounds_done(const struct xl_progbench *pb);

/**
 * xl_progbench__print() - the results as text on @out: the header (the
 * programs, the frames, how they were timed, the overheads subtracted),
 * a line per frame (class, bytes, action, net ns/run, raw ns, out bytes,
 * how timed; A/B: each side's action and ns/run), a line per packet class
 * (A/B: B-A's median, 95% CI, p and verdict), the frames not run and the
 * notes (frames over the live engine's limit, A/B's method, actions that
 * differ). Untrusted names are escaped for a terminal. Call after
 * xl_progbench__run() with complete rounds. Return: 0, or -ENOMEM.
 */
int xl_progbench__print(struct xl_progbench *pb, FILE *out);

/**
 * xl_progbench__json() - the results as one JSON object on @out (members
 * command, object or a and b, program, source, repeat, rounds, overheads,
 * frames[], classes[], skipped; docs/own-program.md), indented, then a
 * newline. As xl_progbench__print(), which it replaces. Return: 0, or
 * -ENOMEM.
 */
int xl_progbench__json(struct xl_progbench *pb, FILE *out);

/** xl_progbench__destroy() - close the programs and free @pb (NULL: nothing). */
void xl_progbench__destroy(struct xl_progbench *pb);

#endif /* XDPLAB_PROGBENCH_H */
