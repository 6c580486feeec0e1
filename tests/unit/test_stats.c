// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_stats.c - unit tests of the rate arithmetic and summaries
 * (src/lib/measure/stats.c): xl_rate, xl_ns_per_pkt, xl_summarize, xl_disagreement,
 * xl_fmt_thousands; and of a lab row's derived figures and verdict
 * (xl_row_finish, xl_row_verdict in src/lib/measure/report.c) on hand-made
 * repetitions.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/report.h"
#include "xdplab/stats.h"

#include "test_util.h"

/* ---- xl_rate, xl_ns_per_pkt ---- */

static void test_rate(void **state)
{
	assert_dbl_equal(xl_rate(1000, 1000000000ULL), 1000.0);
	assert_dbl_equal(xl_rate(3000000, 2000000000ULL), 1500000.0);
	assert_dbl_equal(xl_rate(1500000, 500000000ULL), 3000000.0);
	assert_dbl_equal(xl_rate(1, 1), 1e9);
	assert_dbl_equal(xl_rate(0, 1000), 0.0);
	/* No time, no rate (and no division by zero). */
	assert_dbl_equal(xl_rate(0, 0), 0.0);
	assert_dbl_equal(xl_rate(12345, 0), 0.0);
	/* Large counts do not overflow (computed in double). */
	assert_near(xl_rate(UINT64_MAX, 1000000000ULL), 18446744073709551615.0, 1e4);
	assert_near(xl_rate(14880952ULL * 3600, 3600ULL * 1000000000ULL), 14880952.0, 1e-6);
}

static void test_ns_per_pkt(void **state)
{
	assert_dbl_equal(xl_ns_per_pkt(1e6), 1000.0);
	assert_dbl_equal(xl_ns_per_pkt(1e9), 1.0);
	assert_dbl_equal(xl_ns_per_pkt(2.5e6), 400.0);
	assert_near(xl_ns_per_pkt(14880952.0), 67.2, 1e-4); /* 10G line rate, 64 B */
	assert_dbl_equal(xl_ns_per_pkt(0), 0.0);
	assert_dbl_equal(xl_ns_per_pkt(-5.0), 0.0);
	assert_near(xl_ns_per_pkt(1e9 / 3), 3.0, 1e-12);
}

/* ---- xl_summarize ---- */

/* A struct xl_summary's count, median, min and max, exactly. */
#define assert_summary(s, n_, median_, min_, max_)         \
	do {                                               \
		assert_int_equal((s).n, (n_));             \
		assert_dbl_equal((s).median, (median_));   \
		assert_dbl_equal((s).min, (min_));         \
		assert_dbl_equal((s).max, (max_));         \
	} while (0)

static void test_summarize_odd(void **state)
{
	const double in[] = { 3.0, 1.0, 2.0 };
	double v[3];
	struct xl_summary s;

	memcpy(v, in, sizeof(v));
	s = xl_summarize(v, 3);
	assert_summary(s, 3, 2.0, 1.0, 3.0);
	assert_memory_equal(v, in, sizeof(v)); /* input not sorted in place */

	{
		const double in5[] = { 9.5, -1.0, 7.25, 0.5, 3.0 };
		double v5[5];

		memcpy(v5, in5, sizeof(v5));
		s = xl_summarize(v5, 5);
		assert_summary(s, 5, 3.0, -1.0, 9.5);
		assert_memory_equal(v5, in5, sizeof(v5));
	}
}

static void test_summarize_even(void **state)
{
	const double in[] = { 4.0, 1.0, 3.0, 2.0 };
	double v[4];
	struct xl_summary s;

	memcpy(v, in, sizeof(v));
	s = xl_summarize(v, 4);
	assert_summary(s, 4, 2.5, 1.0, 4.0); /* the median: the mean of the middle two */
	assert_memory_equal(v, in, sizeof(v));

	{
		const double two[] = { 10.0, 2.0 };

		s = xl_summarize(two, 2);
		assert_summary(s, 2, 6.0, 2.0, 10.0);
	}
}

static void test_summarize_empty_and_one(void **state)
{
	const double one[] = { 7.5 };
	struct xl_summary s;

	s = xl_summarize(NULL, 0);
	assert_summary(s, 0, 0.0, 0.0, 0.0);
	s = xl_summarize(one, 0); /* n counts, not the array */
	assert_int_equal(s.n, 0);
	assert_dbl_equal(s.median, 0.0);

	s = xl_summarize(one, 1);
	assert_summary(s, 1, 7.5, 7.5, 7.5);
}

static void test_summarize_duplicates(void **state)
{
	const double a[] = { 5.0, 5.0, 1.0, 5.0 };
	const double b[] = { 9.0, 2.0, 1.0, 2.0 };
	const double c[] = { 4.0, 4.0, 4.0 };
	struct xl_summary s;

	s = xl_summarize(a, 4);
	assert_summary(s, 4, 5.0, 1.0, 5.0);
	s = xl_summarize(b, 4);
	assert_summary(s, 4, 2.0, 1.0, 9.0);
	s = xl_summarize(c, 3);
	assert_summary(s, 3, 4.0, 4.0, 4.0);
}

static void test_summarize_many(void **state)
{
	double v[XL_MAX_REPS];
	struct xl_summary s;
	int i;

	/* 32 values 31, 30, ..., 0 (descending): median (15 + 16) / 2. */
	for (i = 0; i < XL_MAX_REPS; i++)
		v[i] = XL_MAX_REPS - 1 - i;
	s = xl_summarize(v, XL_MAX_REPS);
	assert_summary(s, XL_MAX_REPS, 15.5, 0.0, 31.0);
	assert_dbl_equal(v[0], 31.0);
	assert_dbl_equal(v[XL_MAX_REPS - 1], 0.0);
	/* A prefix only: 31..21 (11 values), median 26. */
	s = xl_summarize(v, 11);
	assert_dbl_equal(s.median, 26.0);
	assert_dbl_equal(s.min, 21.0);
}

/* ---- xl_disagreement ---- */

static void test_disagreement(void **state)
{
	assert_dbl_equal(xl_disagreement(0, 0), 0.0);
	assert_dbl_equal(xl_disagreement(7, 7), 0.0);
	assert_dbl_equal(xl_disagreement(1000, 995), 0.005); /* 100 vs 99.5 */
	assert_dbl_equal(xl_disagreement(995, 1000), 0.005); /* symmetric */
	assert_dbl_equal(xl_disagreement(100, 0), 1.0);
	assert_dbl_equal(xl_disagreement(0, 100), 1.0);
	assert_dbl_equal(xl_disagreement(4, 3), 0.25);
	assert_dbl_equal(xl_disagreement(3, 4), 0.25);
	assert_dbl_equal(xl_disagreement(UINT64_MAX, 0), 1.0);
	assert_dbl_equal(xl_disagreement(UINT64_MAX, UINT64_MAX), 0.0);
	/* One in 2^64 is tiny but not zero, and not negative. */
	assert_true(xl_disagreement(UINT64_MAX, UINT64_MAX - 1) > 0.0);
	assert_true(xl_disagreement(UINT64_MAX - 1, UINT64_MAX) < 1e-18);
	/* The tolerance is compared with '>': 0.005 itself is within. */
	assert_false(xl_disagreement(1000, 995) > XL_COUNTER_TOLERANCE);
	assert_true(xl_disagreement(1000, 994) > XL_COUNTER_TOLERANCE);
}

/* ---- xl_fmt_thousands ---- */

static void fmt_is(uint64_t v, const char *want)
{
	char buf[40];

	memset(buf, 'X', sizeof(buf));
	assert_ptr_equal(xl_fmt_thousands(v, buf, sizeof(buf)), buf);
	assert_string_equal(buf, want);
}

static void test_fmt_thousands(void **state)
{
	fmt_is(0, "0");
	fmt_is(7, "7");
	fmt_is(999, "999");
	fmt_is(1000, "1,000");
	fmt_is(9999, "9,999");
	fmt_is(12345, "12,345");
	fmt_is(100000, "100,000");
	fmt_is(999999, "999,999");
	fmt_is(1000000, "1,000,000");
	fmt_is(1234567, "1,234,567");
	fmt_is(12345678, "12,345,678");
	fmt_is(UINT64_MAX, "18,446,744,073,709,551,615");
}

/* Every buffer length from 0 up: no write past @len, always NUL-terminated. */
static void fmt_bounded(uint64_t v, const char *full)
{
	char buf[48];
	size_t len, n = strlen(full), i;

	for (len = 0; len < 40; len++) {
		memset(buf, 'X', sizeof(buf));
		assert_ptr_equal(xl_fmt_thousands(v, buf, len), buf);
		for (i = len; i < sizeof(buf); i++)
			if (buf[i] != 'X') {
				print_error("len %zu: byte %zu written\n", len, i);
				fail();
			}
		if (!len)
			continue;
		assert_non_null(memchr(buf, '\0', len));
		assert_true(strlen(buf) <= len - 1);
		if (len > n)
			assert_string_equal(buf, full);
		else if (len >= 2)
			assert_true(strlen(buf) >= 1); /* something, never garbage */
		/* Only digits and commas, never a leading comma. */
		assert_int_equal(strspn(buf, "0123456789,"), strlen(buf));
		if (buf[0])
			assert_true(buf[0] != ',');
	}
}

static void test_fmt_thousands_small_buffers(void **state)
{
	char buf[8];

	fmt_bounded(0, "0");
	fmt_bounded(1000, "1,000");
	fmt_bounded(1234567, "1,234,567");
	fmt_bounded(UINT64_MAX, "18,446,744,073,709,551,615");

	/* Exactly big enough, and one short of it. */
	memset(buf, 'X', sizeof(buf));
	xl_fmt_thousands(1000, buf, 6);
	assert_string_equal(buf, "1,000");
	memset(buf, 'X', sizeof(buf));
	xl_fmt_thousands(1000, buf, 5);
	assert_int_equal(buf[4], '\0');
	assert_int_equal(buf[5], 'X');
	memset(buf, 'X', sizeof(buf));
	xl_fmt_thousands(1000, buf, 1);
	assert_string_equal(buf, "");
	assert_int_equal(buf[1], 'X');
	/* Regression test for a bug found by review (fixed). */
	xl_fmt_thousands(1000, buf, 3);
	assert_string_equal(buf, "1,");
	xl_fmt_thousands(1234567, buf, 7);
	assert_string_equal(buf, "1,234,");
}

/* ---- xl_row_finish, xl_row_verdict ---- */

static void rep_set(struct xl_row_result *r, int i, double pps, double busy,
		    double cpu_ns, double gen_pps, uint64_t xmit_errors, bool eth_ok,
		    double disagreement)
{
	r->reps[i] = (struct xl_rep_result){
		.ns = 1000000000ULL, .packets = (uint64_t)pps, .pps = pps,
		.gen_pps = gen_pps, .gen_sent = (uint64_t)gen_pps, .cpu_busy = busy,
		.cpu_ns_per_pkt = cpu_ns,
		.gen_xmit_errors = xmit_errors, .eth_ok = eth_ok,
		.eth_packets = eth_ok ? (uint64_t)pps : 0, .disagreement = disagreement,
	};
	if (r->nreps < i + 1)
		r->nreps = i + 1;
}

static void row_init(struct xl_row_result *r, const char *kind)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", "drop/no-touch");
	r->kind = kind;
	r->mode = "native";
	r->size = 64;
}

static void test_row_finish_odd(void **state)
{
	struct xl_row_result r;

	row_init(&r, "xdp");
	rep_set(&r, 0, 1e6, 0.99, 900.0, 1.5e6, 10, true, 0.001);
	rep_set(&r, 1, 3e6, 0.90, 300.0, 3.5e6, 20, true, 0.004);
	rep_set(&r, 2, 2e6, 0.97, 500.0, 2.5e6, 12, true, 0.002);
	xl_row_finish(&r);
	assert_summary(r.mpps, 3, 2.0, 1.0, 3.0);
	assert_dbl_equal(r.ns_per_pkt, 500.0); /* 1e3 / 2.0 Mpps */
	assert_dbl_equal(r.cpu_busy, 0.97);
	assert_dbl_equal(r.cpu_ns_per_pkt, 500.0);
	assert_dbl_equal(r.gen_mpps, 2.5);
	assert_int_equal(r.xmit_errors, 42);
	assert_dbl_equal(r.disagreement, 0.004); /* the largest */
	assert_false(r.mismatch);
	assert_true(r.valid);
	assert_string_equal(xl_row_verdict(&r), "valid");
	/* The reps themselves are left as they were. */
	assert_dbl_equal(r.reps[0].pps, 1e6);
	assert_dbl_equal(r.reps[1].cpu_busy, 0.90);

	/* Finishing twice gives the same figures (sums are not accumulated). */
	xl_row_finish(&r);
	assert_int_equal(r.xmit_errors, 42);
	assert_dbl_equal(r.mpps.median, 2.0);
}

static void test_row_finish_even(void **state)
{
	struct xl_row_result r;

	row_init(&r, "xdp");
	rep_set(&r, 0, 4e6, 0.50, 100.0, 4e6, 0, false, 0);
	rep_set(&r, 1, 1e6, 0.70, 400.0, 1e6, 0, false, 0);
	rep_set(&r, 2, 3e6, 0.80, 200.0, 3e6, 0, false, 0);
	rep_set(&r, 3, 2e6, 0.60, 300.0, 2e6, 0, false, 0);
	xl_row_finish(&r);
	assert_summary(r.mpps, 4, 2.5, 1.0, 4.0);
	assert_dbl_equal(r.ns_per_pkt, 400.0);
	assert_near(r.cpu_busy, 0.65, 1e-12);
	assert_dbl_equal(r.cpu_ns_per_pkt, 250.0);
	assert_dbl_equal(r.gen_mpps, 2.5);
	assert_int_equal(r.xmit_errors, 0);
	assert_false(r.valid);
	assert_string_equal(xl_row_verdict(&r), "generator-bound");
}

static void test_row_ns_per_pkt(void **state)
{
	struct xl_row_result r;

	row_init(&r, "xdp");
	rep_set(&r, 0, 14880952.0, 1.0, 60.0, 14880952.0, 0, true, 0);
	xl_row_finish(&r);
	assert_near(r.mpps.median, 14.880952, 1e-12);
	assert_near(r.ns_per_pkt, 1e3 / 14.880952, 1e-9);
	assert_near(r.ns_per_pkt, xl_ns_per_pkt(r.reps[0].pps), 1e-9);

	/* No packets: no ns/packet figure rather than a division by zero. */
	row_init(&r, "xdp");
	rep_set(&r, 0, 0, 1.0, 0, 0, 0, true, 0);
	xl_row_finish(&r);
	assert_dbl_equal(r.mpps.median, 0.0);
	assert_dbl_equal(r.ns_per_pkt, 0.0);
}

static void test_row_validity_threshold(void **state)
{
	struct xl_row_result r;

	/* Exactly XL_SATURATED_SHARE is saturated ("valid"). */
	row_init(&r, "xdp");
	rep_set(&r, 0, 1e6, XL_SATURATED_SHARE, 1, 1e6, 0, true, 0);
	xl_row_finish(&r);
	assert_true(r.valid);
	assert_string_equal(xl_row_verdict(&r), "valid");

	row_init(&r, "xdp");
	rep_set(&r, 0, 1e6, 0.9499, 1, 1e6, 0, true, 0);
	xl_row_finish(&r);
	assert_false(r.valid);
	assert_string_equal(xl_row_verdict(&r), "generator-bound");

	/* The median decides, not the best or the worst repetition. */
	row_init(&r, "xdp");
	rep_set(&r, 0, 1e6, 1.00, 1, 1e6, 0, true, 0);
	rep_set(&r, 1, 1e6, 0.10, 1, 1e6, 0, true, 0);
	rep_set(&r, 2, 1e6, 0.96, 1, 1e6, 0, true, 0);
	xl_row_finish(&r);
	assert_dbl_equal(r.cpu_busy, 0.96);
	assert_true(r.valid);
	rep_set(&r, 2, 1e6, 0.94, 1, 1e6, 0, true, 0);
	xl_row_finish(&r);
	assert_false(r.valid);

	/* A row judged invalid before becomes valid when recomputed. */
	rep_set(&r, 1, 1e6, 0.99, 1, 1e6, 0, true, 0);
	xl_row_finish(&r);
	assert_true(r.valid);
}

static void test_row_mismatch(void **state)
{
	struct xl_row_result r;

	/* 0.005 is within the tolerance; anything above is a mismatch. */
	row_init(&r, "xdp");
	rep_set(&r, 0, 1e6, 1.0, 1, 1e6, 0, true, xl_disagreement(1000, 995));
	xl_row_finish(&r);
	assert_dbl_equal(r.disagreement, 0.005);
	assert_false(r.mismatch);

	rep_set(&r, 1, 1e6, 1.0, 1, 1e6, 0, true, 0.0051);
	rep_set(&r, 2, 1e6, 1.0, 1, 1e6, 0, true, 0.001);
	xl_row_finish(&r);
	assert_dbl_equal(r.disagreement, 0.0051); /* the largest, not the median */
	assert_true(r.mismatch);
	assert_string_equal(xl_row_verdict(&r), "valid"); /* mismatch is separate */

	/* Repetitions without the kernel's counter do not count. */
	row_init(&r, "xdp");
	rep_set(&r, 0, 1e6, 1.0, 1, 1e6, 0, false, 0.5);
	rep_set(&r, 1, 1e6, 1.0, 1, 1e6, 0, true, 0.002);
	xl_row_finish(&r);
	assert_dbl_equal(r.disagreement, 0.002);
	assert_false(r.mismatch);

	/* A stale mismatch is cleared when recomputed. */
	row_init(&r, "xdp");
	r.mismatch = true;
	r.disagreement = 0.9;
	r.xmit_errors = 99;
	rep_set(&r, 0, 1e6, 1.0, 1, 1e6, 3, true, 0);
	xl_row_finish(&r);
	assert_false(r.mismatch);
	assert_dbl_equal(r.disagreement, 0.0);
	assert_int_equal(r.xmit_errors, 3);
}

static void test_row_verdicts(void **state)
{
	struct xl_row_result r;

	/* The generator ceiling is a "ceiling", saturated or not. */
	row_init(&r, "gen");
	rep_set(&r, 0, 5e6, 1.0, 1, 5e6, 0, false, 0);
	xl_row_finish(&r);
	assert_true(r.valid);
	assert_string_equal(xl_row_verdict(&r), "ceiling");
	rep_set(&r, 0, 5e6, 0.3, 1, 5e6, 0, false, 0);
	xl_row_finish(&r);
	assert_false(r.valid);
	assert_string_equal(xl_row_verdict(&r), "ceiling");

	/* No repetitions: "n/a", whatever the kind; nothing to sum or compare. */
	row_init(&r, "xdp");
	r.mismatch = true;
	r.xmit_errors = 5;
	r.disagreement = 0.5;
	xl_row_finish(&r);
	assert_string_equal(xl_row_verdict(&r), "n/a");
	assert_false(r.mismatch);
	assert_int_equal(r.xmit_errors, 0);
	assert_dbl_equal(r.disagreement, 0.0);
	row_init(&r, "gen");
	xl_row_finish(&r);
	assert_string_equal(xl_row_verdict(&r), "n/a");
}

/* The sign test's interval: n = 9 -> x(2)..x(8); n = 25 -> x(8)..x(18);
 * n = 6 -> x(1)..x(6); fewer than 6 -> -EDOM; the input stays unsorted. */
static void test_binom_half_cdf(void **state)
{
	(void)state;
	/* P(X <= 1), n = 10: (1 + 10) / 1024. */
	assert_float_equal(xl_binom_half_cdf(10, 1), 11.0 / 1024, 1e-15);
	assert_float_equal(xl_binom_half_cdf(6, 0), 1.0 / 64, 1e-15);
	assert_float_equal(xl_binom_half_cdf(6, 6), 1.0, 0);
	/* n = 1024: 2^n is past double, the tail is not; P(X <= 511) = (1 - P(X = 512)) / 2. */
	assert_float_equal(xl_binom_half_cdf(1024, 511), (1 - 0.0249278058929795) / 2, 1e-12);
	assert_float_equal(xl_choose(10, 3), 120, 0);
	assert_float_equal(xl_choose(64, 32), 1832624140942590534.0, 1e4);
	assert_float_equal(xl_choose(3, 4), 0, 0);
}

static void test_median_ci(void **state)
{
	double v9[9] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 }, v25[25], v6[6] = { 6, 5, 4, 3, 2, 1 };
	double lo = 0, hi = 0;
	int i;

	assert_int_equal(xl_median_ci(v9, 9, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 8);
	assert_true(v9[0] == 9 && v9[1] == 1);
	for (i = 0; i < 25; i++)
		v25[i] = 25 - i; /* 25 .. 1 */
	assert_int_equal(xl_median_ci(v25, 25, &lo, &hi), 0);
	assert_true(lo == 8 && hi == 18);
	assert_int_equal(xl_median_ci(v6, 6, &lo, &hi), 0);
	assert_true(lo == 1 && hi == 6);
	assert_int_equal(xl_median_ci(v6, 5, &lo, &hi), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_ns_per_pkt),
		cmocka_unit_test(test_summarize_odd),
		cmocka_unit_test(test_summarize_even),
		cmocka_unit_test(test_summarize_empty_and_one),
		cmocka_unit_test(test_summarize_duplicates),
		cmocka_unit_test(test_summarize_many),
		cmocka_unit_test(test_disagreement),
		cmocka_unit_test(test_fmt_thousands),
		cmocka_unit_test(test_fmt_thousands_small_buffers),
		cmocka_unit_test(test_row_finish_odd),
		cmocka_unit_test(test_row_finish_even),
		cmocka_unit_test(test_row_ns_per_pkt),
		cmocka_unit_test(test_row_validity_threshold),
		cmocka_unit_test(test_row_mismatch),
		cmocka_unit_test(test_row_verdicts),
		cmocka_unit_test(test_binom_half_cdf),
		cmocka_unit_test(test_median_ci),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
