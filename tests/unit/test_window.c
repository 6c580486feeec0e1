// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_window.c - unit tests of the measurement window arithmetic
 * (src/lib/measure/window.c) and of the meter's windows built on it
 * (xl_meter_window, xl_meter_window_add in src/lib/measure/meter.c), with
 * known inputs: failed reads, counters that wrap, zero-length windows, a
 * CPU read that failed inside a sum, a busy share above 1.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "xdplab/meter.h"
#include "xdplab/window.h"

#include "test_util.h"

static struct xl_read rd(uint64_t v, uint64_t t_ns, bool ok)
{
	return (struct xl_read){ .v = v, .t_ns = t_ns, .ok = ok };
}

static void test_delta_plain(void **state)
{
	struct xl_read a = rd(1000, 5000000000ull, true), b = rd(3001000, 7000000000ull, true);
	struct xl_delta d = xl_delta_of(&a, &b);

	(void)state;
	assert_true(d.ok);
	assert_int_equal(d.n, 3000000);
	assert_int_equal(d.ns, 2000000000ull);
	assert_dbl_equal(xl_delta_rate(&d), 1500000.0);
}

static void test_delta_failed_read(void **state)
{
	struct xl_read a = rd(1000, 1000, true), b = rd(99999, 2000, false);
	struct xl_delta d = xl_delta_of(&a, &b), e = xl_delta_of(&b, &a);
	struct xl_delta good = { .n = 10, .ns = 10, .ok = true };

	(void)state;
	assert_false(d.ok);
	assert_false(e.ok);
	assert_int_equal(d.n, 0);
	assert_false(xl_delta_valid(&d));
	assert_dbl_equal(xl_delta_rate(&d), 0.0);
	assert_dbl_equal(xl_delta_ratio(&good, &d), 0.0);
	assert_dbl_equal(xl_delta_ratio(&d, &good), 0.0);
	/* A failed read makes a sum fail too. */
	xl_delta_add(&good, &d);
	assert_false(good.ok);
}

static void test_delta_wraps(void **state)
{
	struct xl_read a = rd(UINT64_MAX - 5, 0, true), b = rd(10, 1000000000ull, true);
	struct xl_delta d = xl_delta_of(&a, &b);

	(void)state;
	assert_true(d.ok);
	assert_int_equal(d.n, 16); /* UINT64_MAX-5 -> 2^64 is 6, then 10 more */
	assert_dbl_equal(xl_delta_rate(&d), 16.0);
}

static void test_delta_zero_length(void **state)
{
	struct xl_read a = rd(100, 42, true), b = rd(200, 42, true);
	struct xl_delta d = xl_delta_of(&a, &b);
	struct xl_delta none = { .n = 0, .ns = 1000, .ok = true };

	(void)state;
	assert_true(d.ok);
	assert_int_equal(d.n, 100);
	assert_int_equal(d.ns, 0);
	assert_false(xl_delta_valid(&d)); /* nothing to divide by */
	assert_dbl_equal(xl_delta_rate(&d), 0.0);
	/* Per packet over a window with no packets: no figure. */
	assert_dbl_equal(xl_delta_ratio(&d, &none), 0.0);
}

static void test_delta_time_backwards(void **state)
{
	struct xl_read a = rd(1, 2000, true), b = rd(2, 1000, true);
	struct xl_delta d = xl_delta_of(&a, &b);

	(void)state;
	assert_false(d.ok);
}

static void test_share_unclamped(void **state)
{
	struct xl_delta busy = { .n = 1100, .ok = true }, span = { .n = 1000, .ok = true };

	(void)state;
	assert_dbl_equal(xl_delta_ratio(&busy, &span), 1.1);
	busy.n = 250;
	assert_dbl_equal(xl_delta_ratio(&busy, &span), 0.25);
}

/* A sample with every read ok at @t_ns: @rx frames, CPU 0 at @busy/@total ns. */
static void sample(struct xl_meter_sample *s, uint64_t t_ns, uint64_t rx, uint64_t busy,
		   uint64_t softirq, uint64_t total, bool cpu_ok)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
	s->total.rx_packets = rx;
	s->per_cpu[0].rx_packets = rx;
	s->cpu[0] = (struct xl_cpu_times){ .busy = busy, .softirq = softirq, .total = total };
	s->cpu_ok[0] = cpu_ok;
	s->cpu_t_ns = t_ns + 1000; /* the /proc read comes a microsecond later */
	s->gen_sent = rd(rx + rx / 10, t_ns, true);
	s->gen_refused = rd(rx / 10, t_ns, true);
}

static void test_meter_window(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	sample(&a, 1000000000ull, 0, 0, 0, 0, true);
	sample(&b, 2000000000ull, 5000000, 980000000, 650000000, 1000000000, true);
	xl_meter_window(&m, &a, &b, &w);
	assert_int_equal(w.packets, 5000000);
	assert_int_equal(w.ns, 1000000000ull);
	assert_dbl_equal(w.pps, 5000000.0);
	assert_near(w.cpu_busy, 0.98, 1e-12);
	assert_dbl_equal(w.cpu_ns_per_pkt, 130.0);
	/* The generator: 5.5 M offered, 0.5 M refused, 5 M delivered per second. */
	assert_int_equal(w.gen_sent.n, 5500000);
	assert_int_equal(w.gen_xmit_errors, 500000);
	assert_dbl_equal(w.gen_sent_pps, 5500000.0);
	assert_dbl_equal(w.gen_pps, 5000000.0);
	assert_false(w.eth_ok);
	assert_false(w.generator_bound);

	/* The CPU read failed at one edge: no CPU figure, the rate stands. */
	b.cpu_ok[0] = false;
	xl_meter_window(&m, &a, &b, &w);
	assert_dbl_equal(w.pps, 5000000.0);
	assert_false(w.cpu_ns.ok);
	assert_dbl_equal(w.cpu_ns_per_pkt, 0.0);
	assert_dbl_equal(w.cpu_busy, 0.0);
}

static void test_meter_window_add(void **state)
{
	static struct xl_meter_sample s0, s1, s2;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w1, w2, sum;

	(void)state;
	/* Window 1: 1 s, 2 M frames, 200 ms softirq, busy 100% (read as 110%). */
	sample(&s0, 0, 0, 0, 0, 0, true);
	sample(&s1, 1000000000ull, 2000000, 1100000000, 200000000, 1000000000, true);
	/* Window 2: 1 s, 4 M frames, the CPU read failed at its end. */
	sample(&s2, 2000000000ull, 6000000, 0, 0, 0, false);
	xl_meter_window(&m, &s0, &s1, &w1);
	xl_meter_window(&m, &s1, &s2, &w2);
	assert_dbl_equal(w1.cpu_busy, 1.0); /* clamped for the verdict ... */
	assert_int_equal(w1.cpu_busy_ns.n, 1100000000ull); /* ... the raw read kept */
	xl_meter_window_zero(&sum);
	xl_meter_window_add(&sum, &w1);
	xl_meter_window_add(&sum, &w2);
	assert_int_equal(sum.packets, 6000000);
	assert_int_equal(sum.ns, 2000000000ull);
	assert_dbl_equal(sum.pps, 3000000.0);
	/* CPU per packet over window 1 only: 200 ms / 2 M frames. */
	assert_dbl_equal(sum.cpu_ns_per_pkt, 100.0);
	assert_int_equal(sum.cpu_rx.n, 2000000);
	/* Offered and delivered add as counts: 6.6 M offered, 6 M delivered in 2 s. */
	assert_int_equal(sum.gen_sent.n, 6600000);
	assert_dbl_equal(sum.gen_pps, 3000000.0);
}

/*
 * Every field that adds, by its rule: counts always; the CPU group
 * (softirq runs, the CPU deltas and their packets) from window 1 only,
 * whose CPU read worked; the chain and the steal time where read; the
 * ethtool count ok only if every window's was.
 */
static void test_meter_window_add_fields(void **state)
{
	struct xl_meter_window w1, w2, sum;

	(void)state;
	memset(&w1, 0, sizeof(w1));
	memset(&w2, 0, sizeof(w2));
	w1.rx = (struct xl_delta){ .n = 100, .ns = 1000, .ok = true };
	w2.rx = (struct xl_delta){ .n = 300, .ns = 3000, .ok = true };
	w1.bytes = 6400, w2.bytes = 19200;
	w1.errors = 1, w2.errors = 2;
	w1.actions[1] = 100, w2.actions[1] = 290, w2.actions[3] = 10;
	w1.load_sum = 5, w1.load_n = 2, w2.load_sum = 9, w2.load_n = 2;
	w1.cpu_ns = (struct xl_delta){ .n = 5000, .ns = 1000, .ok = true };
	w1.cpu_busy_ns = w1.cpu_span_ns = (struct xl_delta){ .n = 1000, .ns = 1000, .ok = true };
	w1.sirq_runs = 7, w2.sirq_runs = 11; /* w2's CPU read failed: its runs do not count */
	w1.cpu_source = XL_CPU_SRC_TRACEPOINT;
	w2.chain_ns = (struct xl_delta){ .n = 9000, .ns = 3000, .ok = true };
	w1.steal_ns = (struct xl_delta){ .n = 10, .ns = 1000, .ok = true };
	w1.steal_span_ns = (struct xl_delta){ .n = 1000, .ns = 1000, .ok = true };
	w1.eth = (struct xl_delta){ .n = 100, .ns = 1000, .ok = true };
	w1.gen_sent = w2.gen_sent = w1.gen_refused = w2.gen_refused = w1.rx;
	w1.packets = 100, w2.packets = 300, w1.napi_cpu = 1, w2.napi_cpu = 0;
	xl_meter_window_zero(&sum);
	assert_true(sum.rx.ok && sum.eth.ok && sum.gen_sent.ok && sum.gen_refused.ok);
	assert_false(sum.cpu_ns.ok || sum.chain_ns.ok || sum.steal_ns.ok);
	xl_meter_window_add(&sum, &w1);
	xl_meter_window_add(&sum, &w2);
	assert_int_equal(sum.packets, 400);
	assert_int_equal(sum.bytes, 25600);
	assert_int_equal(sum.errors, 3);
	assert_int_equal(sum.actions[1], 390);
	assert_int_equal(sum.actions[3], 10);
	assert_int_equal(sum.load_sum, 14);
	assert_int_equal(sum.load_n, 4);
	assert_dbl_equal(sum.load, 3.5);
	assert_int_equal(sum.sirq_runs, 7);
	assert_int_equal(sum.cpu_rx.n, 100);
	assert_dbl_equal(sum.cpu_ns_per_pkt, 50.0);
	assert_string_equal(sum.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(sum.chain_rx.n, 300);
	assert_dbl_equal(sum.chain_ns_per_pkt, 30.0);
	assert_int_equal(sum.steal_ns.n, 10);
	assert_dbl_equal(sum.steal_share, 0.01);
	assert_false(sum.eth.ok); /* window 2 had no ethtool read */
	assert_false(sum.eth_ok);
	assert_int_equal(sum.gen_sent.n, 200);
	assert_int_equal(sum.napi_cpu, 0);
}

/* A meter without a counter source samples nothing. */
static void test_meter_no_source(void **state)
{
	static struct xl_meter_sample s;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1, .no_sirq = true };

	(void)state;
	assert_int_equal(xl_meter_sample(&m, &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_plain),
		cmocka_unit_test(test_delta_failed_read),
		cmocka_unit_test(test_delta_wraps),
		cmocka_unit_test(test_delta_zero_length),
		cmocka_unit_test(test_delta_time_backwards),
		cmocka_unit_test(test_share_unclamped),
		cmocka_unit_test(test_meter_window),
		cmocka_unit_test(test_meter_window_add),
		cmocka_unit_test(test_meter_window_add_fields),
		cmocka_unit_test(test_meter_no_source),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
