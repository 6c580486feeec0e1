// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_xsk_wakeup.c - need_wakeup on fake rings (xsk_rig.h): the hot path
 * makes a wakeup syscall (sendto for TX, recvfrom for the fill ring) only
 * when the ring's XDP_RING_NEED_WAKEUP flag asks, and then exactly one per
 * batch. Every kick goes through one place that counts it in q.c.wakeups
 * just before the syscall (skipped on the rig's fd -1), so the counter is
 * the number of wakeup syscalls a real socket would have made. The rig's
 * queues spin (q.poll off): the poll() that --poll adds when a ring is
 * empty is a sleep, not a wakeup, and is not counted or tested here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "xsk_rig.h"

#define ROUNDS 10

/* One txpush batch: a step submits 64, the kernel sends and completes
 * them; returns the wakeups of the step. */
static uint64_t txpush_batch(struct rig *r)
{
	uint64_t w = r->q.c.wakeups;

	assert_int_equal(xl_xsk_txpush_step(&r->q, 0), 64);
	assert_int_equal(kernel_tx(r, 1000), 64);
	return r->q.c.wakeups - w;
}

static void test_txpush_wakeups(void **state)
{
	struct rig *r = rig_new(256, 256, 256, 0, true);
	int i;

	r->q.pkt_len = 60;
	/* The kernel does not ask: not one sendto. */
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(txpush_batch(r), 0);
	/* It asks: exactly one per batch. */
	r->tx_m.flags = XDP_RING_NEED_WAKEUP;
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(txpush_batch(r), 1);
	/* Without XDP_USE_NEED_WAKEUP (--no-need-wakeup) the flag means nothing:
	 * one per batch whatever it says. */
	r->q.need_wakeup = false;
	r->tx_m.flags = 0;
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(txpush_batch(r), 1);
	assert_int_equal(r->q.c.tx_batches, 3 * ROUNDS);
	assert_int_equal(r->q.c.wakeups, 2 * ROUNDS);
	/* Nothing in flight and nothing to send (budget spent): no kick. */
	while (r->q.frames.in_tx)
		xl_xsk_reap(&r->q, 1000);
	r->q.need_wakeup = true;
	r->tx_m.flags = XDP_RING_NEED_WAKEUP;
	r->q.budget = 0;
	assert_int_equal(xl_xsk_txpush_step(&r->q, 0), 0);
	assert_int_equal(r->q.c.wakeups, 2 * ROUNDS);
	assert_audit(r);
	rig_free(r);
}

/* One rxdrop batch: the kernel fills RX with 64 frames, one step takes
 * them and refills; returns the wakeups of the step. */
static uint64_t rxdrop_batch(struct rig *r)
{
	uint64_t w = r->q.c.wakeups;

	assert_int_equal(kernel_rx(r, 64, 60), 64);
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 64);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 64); /* refilled */
	return r->q.c.wakeups - w;
}

static void test_fill_wakeups(void **state)
{
	struct rig *r = rig_new(256, 64, 64, 0, true);
	uint64_t w;
	int i;

	assert_int_equal(xl_xsk_refill(&r->q, 64), 64);
	assert_int_equal(r->q.c.wakeups, 0);
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(rxdrop_batch(r), 0);
	r->fill_m.flags = XDP_RING_NEED_WAKEUP;
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(rxdrop_batch(r), 1);
	assert_int_equal(r->q.c.rx_packets, 2 * ROUNDS * 64);
	/*
	 * RX empty, the fill ring full and the kernel asking: one recvfrom
	 * (the idle path), not zero (the kernel would never look again) ...
	 */
	w = r->q.c.wakeups;
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 0);
	assert_int_equal(r->q.c.wakeups - w, 1);
	/* ... and still one when that step also refilled: the kernel took 16
	 * frames it has not delivered yet, so the fill ring had room. */
	r->fill_m.cons += 16;
	w = r->q.c.wakeups;
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 0);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 64);
	assert_int_equal(r->q.c.wakeups - w, 1);
	assert_audit(r); /* the 16 are "in kernel (rx)" */
	/* Not asking: an empty RX ring costs no wakeup (in spin mode, no
	 * syscall at all; with --poll, the step would then sleep in poll()). */
	r->fill_m.flags = 0;
	w = r->q.c.wakeups;
	assert_int_equal(xl_xsk_rxdrop_step(&r->q), 0);
	assert_int_equal(r->q.c.wakeups - w, 0);
	rig_free(r);
}

/* One l2fwd batch: 64 frames in, forwarded, sent and completed by the
 * kernel (reaped and refilled by the next step); the step's wakeups. */
static uint64_t l2fwd_batch(struct rig *r)
{
	uint64_t w = r->q.c.wakeups;

	assert_int_equal(kernel_rx(r, 64, 60), 64);
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 64);
	assert_int_equal(kernel_tx(r, 1000), 64);
	return r->q.c.wakeups - w;
}

/* l2fwd kicks TX after each batch and the fill ring after each refill,
 * each only when its own ring's flag asks. */
static void test_l2fwd_wakeups(void **state)
{
	struct rig *r = rig_new(128, 64, 64, 0, true);
	uint64_t w;
	int i;

	assert_int_equal(xl_xsk_refill(&r->q, 64), 64);
	/* Neither ring asks. */
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(l2fwd_batch(r), 0);
	/* TX asks: one sendto per batch. */
	r->tx_m.flags = XDP_RING_NEED_WAKEUP;
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(l2fwd_batch(r), 1);
	/* The fill ring asks: one recvfrom per refill (the batch completed in
	 * the previous round comes back through it). */
	r->tx_m.flags = 0;
	r->fill_m.flags = XDP_RING_NEED_WAKEUP;
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(l2fwd_batch(r), 1);
	/* Both: one of each. */
	r->tx_m.flags = XDP_RING_NEED_WAKEUP;
	for (i = 0; i < ROUNDS; i++)
		assert_int_equal(l2fwd_batch(r), 2);
	/* RX empty, the fill ring full, the kernel asking: one recvfrom (the
	 * idle path; the last batch is reaped, TX is quiet). */
	r->tx_m.flags = 0;
	w = r->q.c.wakeups;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 0);
	assert_int_equal(r->q.c.wakeups - w, 1);
	assert_int_equal(r->q.frames.in_tx, 0);
	assert_int_equal(r->q.c.tx_packets, 4 * ROUNDS * 64);
	/* Still one when that step also refilled (the kernel took 16 frames it
	 * has not delivered): the refill's recvfrom is the idle path's. */
	r->fill_m.cons += 16;
	w = r->q.c.wakeups;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 0);
	assert_int_equal(r->fill_m.prod - r->fill_m.cons, 64);
	assert_int_equal(r->q.c.wakeups - w, 1);
	assert_audit(r);
	/* Quiet rings, nothing in flight: no syscall. */
	r->fill_m.flags = 0;
	w = r->q.c.wakeups;
	assert_int_equal(xl_xsk_l2fwd_step(&r->q, 0), 0);
	assert_int_equal(r->q.c.wakeups - w, 0);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_txpush_wakeups),
		cmocka_unit_test(test_fill_wakeups),
		cmocka_unit_test(test_l2fwd_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
