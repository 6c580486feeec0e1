// SPDX-License-Identifier: BSD-2-Clause
/*
 * xsk_loop - the AF_XDP hot loop alone: l2fwd's and txpush's iteration
 * (src/lib/xsk/xsk_ring.c) on fake rings in plain memory, with the unit
 * tests' tiny "kernel" (tests/unit/xsk_rig.h) moving frames from the fill
 * ring to RX and from TX to the completion ring between iterations. No
 * socket, no syscall (fd -1), no root: what the application itself spends
 * per packet, without the kernel's copy-mode path that dominates a real
 * run (docs/performance.md).
 *
 * Method: ROUNDS rounds of FRAMES frames each, 64 B, full batches of 64;
 * only the application's step calls are timed (one clock read before and
 * after each, ~1 ns per packet at a batch of 64). ns/packet is each
 * round's figure; the line gives the median with its min..max. Exact
 * instructions per packet, the same on any machine and load:
 *   valgrind --tool=callgrind --toggle-collect=xl_xsk_l2fwd_step \
 *       build/bench/xsk_loop l2fwd 1
 * (or txpush and xl_xsk_txpush_step), callgrind's Ir over the frames
 * the line reports.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/stats.h"
#include "xdplab/time.h"

/* xsk_rig.h's asserts, without cmocka: a bench stops on a broken rig. */
#define assert_non_null(p)                                                    \
	do {                                                                  \
		if (!(p)) {                                                   \
			fprintf(stderr, "xsk_loop: out of memory\n");         \
			exit(1);                                              \
		}                                                             \
	} while (0)
#define assert_int_equal(a, b)                                                \
	do {                                                                  \
		if ((a) != (b)) {                                             \
			fprintf(stderr, "xsk_loop: %s:%d: %lld != %lld\n",    \
				__FILE__, __LINE__, (long long)(a), (long long)(b)); \
			exit(1);                                              \
		}                                                             \
	} while (0)
#define print_message(...) fprintf(stderr, __VA_ARGS__)
#include "../unit/xsk_rig.h"

#define ROUNDS 15
#define FRAMES 2000000ull
#define BATCH 64
#define LEN 64

/* One round of l2fwd: @frames frames received, forwarded, completed.
 * Return: ns spent in the application's steps. */
static uint64_t round_l2fwd(uint64_t frames)
{
	struct rig *r = rig_new(4096, 2048, 2048, 0, false);
	uint64_t done = 0, ns = 0, t;

	r->q.batch = BATCH;
	r->q.busy_poll = false;
	xl_xsk_refill(&r->q, 2048);
	while (done < frames) {
		kernel_rx(r, BATCH, LEN);
		t = xl_now_ns();
		done += xl_xsk_l2fwd_step(&r->q, 0);
		ns += xl_now_ns() - t;
		kernel_tx(r, BATCH);
	}
	assert_audit(r);
	rig_free(r);
	return ns;
}

/* One round of txpush: @frames frames sent and completed. */
static uint64_t round_txpush(uint64_t frames)
{
	struct rig *r = rig_new(4096, 2048, 2048, 0, false);
	uint64_t ns = 0, t;

	r->q.batch = BATCH;
	r->q.pkt_len = LEN;
	r->q.budget = frames;
	while (r->q.budget) {
		t = xl_now_ns();
		xl_xsk_txpush_step(&r->q, 0);
		ns += xl_now_ns() - t;
		kernel_tx(r, BATCH);
	}
	while (r->q.frames.in_tx) {
		xl_xsk_reap(&r->q, BATCH);
		kernel_tx(r, BATCH);
	}
	assert_int_equal(r->q.c.tx_submitted, frames);
	assert_audit(r);
	rig_free(r);
	return ns;
}

static void run(const char *name, uint64_t (*fn)(uint64_t), int rounds, uint64_t frames)
{
	double v[ROUNDS];
	struct xl_summary s;
	int i;

	for (i = 0; i < rounds; i++)
		v[i] = (double)fn(frames) / frames;
	s = xl_summarize(v, rounds);
	printf("xsk %-7s %llu frames x %d rounds, batch %d, %d B: %.2f ns/packet (%.2f..%.2f), application steps only\n",
	       name, (unsigned long long)frames, rounds, BATCH, LEN, s.median, s.min, s.max);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	int rounds = argc > 2 ? atoi(argv[2]) : ROUNDS;

	if (argc > 3 || (only && strcmp(only, "l2fwd") && strcmp(only, "txpush")) ||
	    rounds < 1 || rounds > ROUNDS) {
		fprintf(stderr, "usage: xsk_loop [l2fwd|txpush [ROUNDS 1..%d]]\n", ROUNDS);
		return 2;
	}
	if (!only || !strcmp(only, "l2fwd"))
		run("l2fwd", round_l2fwd, rounds, FRAMES);
	if (!only || !strcmp(only, "txpush"))
		run("txpush", round_txpush, rounds, FRAMES);
	return 0;
}
