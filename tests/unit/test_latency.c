// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_latency.c - unit tests of the latency histogram (abi/latency.h's
 * xl_lat_bucket(), shared with BPF, and src/lib/xdp/latency.c): buckets are
 * contiguous, each value falls inside its bucket's bounds, widths stay
 * within 1/8 of the lower bound, and percentiles pick the right bucket;
 * a latency row's medians and notes, and its field table (the results
 * file's writer and compare's reader through xl_lat_row_fields[]).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <stdlib.h>

#include <jansson.h>

#include "xdplab/compare.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/latency.h"
#include "xdplab/latwatch.h"

static void test_bucket_bounds_contiguous(void **state)
{
	uint64_t lo, hi, prev_hi = 0;
	uint32_t i;

	(void)state;
	for (i = 0; i < XL_LAT_BUCKETS; i++) {
		xl_lat_bucket_bounds(i, &lo, &hi);
		if (i)
			assert_int_equal(lo, prev_hi + 1);
		else
			assert_int_equal(lo, 0);
		assert_true(hi >= lo);
		/* 3 significant bits: width <= lower bound / 8 (from 8 ns up). */
		if (lo >= 8)
			assert_true((hi - lo + 1) * 8 <= lo);
		/* Both ends map back to the bucket (the last takes all above). */
		assert_int_equal(xl_lat_bucket(lo), i);
		if (i < XL_LAT_BUCKETS - 1)
			assert_int_equal(xl_lat_bucket(hi), i);
		prev_hi = hi;
	}
	assert_int_equal(xl_lat_bucket(UINT64_MAX), XL_LAT_BUCKETS - 1);
}

static void test_bucket_values(void **state)
{
	(void)state;
	assert_int_equal(xl_lat_bucket(0), 0);
	assert_int_equal(xl_lat_bucket(7), 7);
	assert_int_equal(xl_lat_bucket(8), 8);
	assert_int_equal(xl_lat_bucket(15), 15);
	assert_int_equal(xl_lat_bucket(16), 16); /* [16,17] */
	assert_int_equal(xl_lat_bucket(17), 16);
	assert_int_equal(xl_lat_bucket(18), 17);
	/* 1000 ns: 2^9 = 512, sub = (1000 >> 6) & 7 = 15 & 7 = 7: (9-2)*8+7 */
	assert_int_equal(xl_lat_bucket(1000), 63);
}

static void test_percentiles(void **state)
{
	static uint64_t h[XL_LAT_BUCKETS];
	uint64_t lo, hi, lo2, hi2;

	(void)state;
	memset(h, 0, sizeof(h));
	assert_int_equal(xl_lat_percentile(h, 0, 0.5, 0), 0);
	/* 90 values at 1000 ns, 9 at 50000, 1 at 2000000 (the max). */
	h[xl_lat_bucket(1000)] = 90;
	h[xl_lat_bucket(50000)] = 9;
	h[xl_lat_bucket(2000000)] = 1;
	xl_lat_bucket_bounds(xl_lat_bucket(1000), &lo, &hi);
	xl_lat_bucket_bounds(xl_lat_bucket(50000), &lo2, &hi2);
	assert_int_equal(xl_lat_percentile(h, 100, 0.5, 2000000), hi);
	assert_int_equal(xl_lat_percentile(h, 100, 0.9, 2000000), hi);   /* rank 90 */
	assert_int_equal(xl_lat_percentile(h, 100, 0.91, 2000000), hi2); /* rank 91 */
	assert_int_equal(xl_lat_percentile(h, 100, 0.99, 2000000), hi2);
	/* The top bucket's upper bound is capped at the exact maximum. */
	assert_int_equal(xl_lat_percentile(h, 100, 0.999, 2000000), 2000000);
	assert_int_equal(xl_lat_percentile(h, 100, 1.0, 2000000), 2000000);
}

/*
 * Two CPUs' records summed (xl_lat_sum()), then a repetition's figures
 * against the sender's count (xl_lat_rep_from()): CPU 0 saw 2..5 once and
 * 4 again; CPU 1 saw 8 and 7 (reordered); the sender sent 0..11.
 */
static void test_sum_and_rep(void **state)
{
	static struct xl_lat_rec recs[3];
	static struct xl_lat_totals t;
	struct xl_lat_rep r;

	(void)state;
	memset(recs, 0, sizeof(recs));
	recs[0] = (struct xl_lat_rec){ .frames = 6, .stamped = 5, .timed = 5, .sum_ns = 5000, .min_ns = 500,
				       .max_ns = 2000, .seq_min = 2, .seq_max = 5,
				       .duplicates = 1, .reordered = 1 };
	recs[0].hist[xl_lat_bucket(500)] = 4;
	recs[0].hist[xl_lat_bucket(2000)] = 1;
	recs[1] = (struct xl_lat_rec){ .frames = 2, .stamped = 2, .timed = 2, .sum_ns = 700, .min_ns = 300,
				       .max_ns = 400, .seq_min = 7, .seq_max = 8, .reordered = 1 };
	recs[1].hist[xl_lat_bucket(300)] = 1;
	recs[1].hist[xl_lat_bucket(400)] = 1;
	recs[2].frames = 3; /* no stamp: counted, its zeros not taken as min */
	xl_lat_sum(recs, 3, &t);
	assert_int_equal(t.frames, 11);
	assert_int_equal(t.stamped, 7);
	assert_int_equal(t.min_ns, 300);
	assert_int_equal(t.max_ns, 2000);
	assert_int_equal(t.seq_first, 2);
	assert_int_equal(t.seq_last, 8);
	assert_int_equal(t.expected, 7);
	/* distinct: 2, 3, 4, 5, 7, 8 = 6; 7 expected: 1 gap (6). */
	assert_int_equal(t.lost, 1);
	assert_int_equal(t.duplicates, 1);
	assert_int_equal(t.reordered, 2);
	xl_lat_rep_from(&t, 12, 3, &r);
	assert_int_equal(r.sent, 12);
	assert_int_equal(r.xmit_errors, 3);
	assert_int_equal(r.received, 7);
	assert_int_equal(r.lost, 6); /* 0, 1, 6, 9, 10, 11 */
	assert_int_equal(r.gaps, 1);
	assert_int_equal(r.min_ns, 300);
	assert_int_equal(r.max_ns, 2000);
	/* rank ceil(0.5 * 7) = 4: 300, 400, 500, 500 -> the 500 ns bucket's top. */
	{
		uint64_t lo, hi;

		xl_lat_bucket_bounds(xl_lat_bucket(500), &lo, &hi);
		assert_int_equal(r.p50_ns, hi);
	}
	assert_int_equal(r.p999_ns, 2000);
	assert_true(r.mean_ns > 814.28 && r.mean_ns < 814.29); /* 5700 / 7 */
	/* More duplicates than the sender's count: nothing negative. */
	xl_lat_rep_from(&t, 3, 0, &r);
	assert_int_equal(r.lost, 0);
}

/*
 * Stamps not timed (issue 21 item 9): CPU 0 timed 2 frames (100 and
 * 900 ns); CPU 1 saw only a stamp from another clock and one of time 0,
 * its min/max 0 (never set). The totals' min/max and percentiles are of
 * the 2 timed frames; the notes name the 2 left out.
 */
static void test_sum_untimed(void **state)
{
	static struct xl_lat_rec recs[2];
	static struct xl_lat_totals t, z;
	struct xl_lat_rep r;
	char note[192];
	uint64_t lo, hi;

	(void)state;
	memset(recs, 0, sizeof(recs));
	recs[0] = (struct xl_lat_rec){ .frames = 2, .stamped = 2, .timed = 2, .sum_ns = 1000,
				       .min_ns = 100, .max_ns = 900, .seq_min = 0, .seq_max = 1 };
	recs[0].hist[xl_lat_bucket(100)] = 1;
	recs[0].hist[xl_lat_bucket(900)] = 1;
	recs[1] = (struct xl_lat_rec){ .frames = 2, .stamped = 2, .negative = 1, .unset = 1,
				       .seq_min = 2, .seq_max = 3 };
	xl_lat_sum(recs, 2, &t);
	assert_int_equal(t.stamped, 4);
	assert_int_equal(t.timed, 2);
	assert_int_equal(t.negative, 1);
	assert_int_equal(t.unset, 1);
	assert_int_equal(t.min_ns, 100);
	assert_int_equal(t.max_ns, 900);
	assert_int_equal(t.lost, 0);
	xl_lat_rep_from(&t, 4, 0, &r);
	assert_int_equal(r.received, 4);
	assert_int_equal(r.negative, 1);
	assert_int_equal(r.unset, 1);
	assert_int_equal(r.min_ns, 100);
	/* rank ceil(0.5 * 2) = 1: the 100 ns bucket's top, not 0 ns. */
	xl_lat_bucket_bounds(xl_lat_bucket(100), &lo, &hi);
	assert_int_equal(r.p50_ns, hi);
	assert_int_equal(r.p99_ns, 900);
	assert_true(r.mean_ns == 500);
	assert_string_equal(xl_lat_notes(&t, note, sizeof(note)),
			    "1 stamps from another clock (negative delta), not in the percentiles; "
			    "1 stamps of time 0 (unset), not in the percentiles");
	t.unset = 0;
	assert_string_equal(xl_lat_notes(&t, note, sizeof(note)),
			    "1 stamps from another clock (negative delta), not in the percentiles");
	t.negative = 0;
	t.unset = 7;
	assert_string_equal(xl_lat_notes(&t, note, sizeof(note)),
			    "7 stamps of time 0 (unset), not in the percentiles");
	assert_string_equal(xl_lat_notes(&z, note, sizeof(note)), "");
	/* Only untimed stamps: no latency figures at all. */
	xl_lat_sum(&recs[1], 1, &t);
	assert_int_equal(t.timed, 0);
	xl_lat_rep_from(&t, 2, 0, &r);
	assert_int_equal(r.p50_ns, 0);
	assert_int_equal(r.max_ns, 0);
	assert_true(r.mean_ns == 0);
}

/*
 * A row's notes: rt-l2fwd's says how long its socket thread waited for its
 * CPU (issue 21 item 14: the milliseconds at 10 kpps were unexplained),
 * after the interruption and before the stamps not timed; no other path
 * says it, nor rt-l2fwd when the wait was not read. The longest note fits.
 */
static void test_row_notes(void **state)
{
	static struct xl_lat_row row;
	static const char wait_note[] =
		"socket thread waited 75% of 2.00 s for CPU 1 (run delay: frames wait in its RX ring meanwhile)";

	(void)state;
	row = (struct xl_lat_row){ .path = XL_LAT_L2FWD, .app_wait_ns = 1500000000ull,
				   .app_window_ns = 2000000000ull };
	xl_lat_row_notes(&row, 1);
	assert_string_equal(row.rec.note, wait_note);
	snprintf(row.rec.note, sizeof(row.rec.note), "interrupted after 1 of 3 repetitions");
	row.all.negative = 2;
	xl_lat_row_notes(&row, 1);
	assert_string_equal(row.rec.note,
			    "interrupted after 1 of 3 repetitions; socket thread waited 75% of 2.00 s for CPU 1 (run delay: frames wait in its RX ring meanwhile); "
			    "2 stamps from another clock (negative delta), not in the percentiles");
	/* The longest: every part at its widest, nothing cut. */
	snprintf(row.rec.note, sizeof(row.rec.note), "interrupted after 10 of 10 repetitions");
	row.app_wait_ns = row.app_window_ns = 99999990000000000ull;
	row.all.negative = row.all.unset = 18446744073709551615ull;
	xl_lat_row_notes(&row, 4095);
	assert_string_equal(row.rec.note,
			    "interrupted after 10 of 10 repetitions; socket thread waited 100% of 99999990.00 s for CPU 4095 (run delay: frames wait in its RX ring meanwhile); "
			    "18446744073709551615 stamps from another clock (negative delta), not in the percentiles; "
			    "18446744073709551615 stamps of time 0 (unset), not in the percentiles");
	row = (struct xl_lat_row){ .path = XL_LAT_L2FWD };
	xl_lat_row_notes(&row, 1);
	assert_string_equal(row.rec.note, "");
	row = (struct xl_lat_row){ .path = XL_LAT_TX, .app_wait_ns = 1, .app_window_ns = 2 };
	xl_lat_row_notes(&row, 1);
	assert_string_equal(row.rec.note, "");
}

/* A row's medians over its repetitions: odd count the middle, even the mean floored. */
static void test_row_medians(void **state)
{
	static struct xl_lat_row row;

	(void)state;
	memset(&row, 0, sizeof(row));
	row.rec.nreps = 3;
	row.rec.reps[0] = (struct xl_lat_rep){ .sent = 10, .lost = 5, .p50_ns = 900, .max_ns = 1, .mean_ns = 3 };
	row.rec.reps[1] = (struct xl_lat_rep){ .sent = 10, .lost = 0, .p50_ns = 100, .max_ns = 7, .mean_ns = 1 };
	row.rec.reps[2] = (struct xl_lat_rep){ .sent = 12, .lost = 1, .p50_ns = 300, .max_ns = 4, .mean_ns = 2 };
	xl_lat_row_finish(&row);
	assert_int_equal(row.rec.med.sent, 10);
	assert_int_equal(row.rec.med.lost, 1);
	assert_int_equal(row.rec.med.p50_ns, 300);
	assert_int_equal(row.rec.med.max_ns, 4);
	assert_true(row.rec.med.mean_ns == 2);
	row.rec.nreps = 2;
	xl_lat_row_finish(&row);
	assert_int_equal(row.rec.med.p50_ns, 500);
	assert_int_equal(row.rec.med.lost, 2); /* 2.5 floored */
	row.rec.nreps = 0;
	xl_lat_row_finish(&row);
	assert_int_equal(row.rec.med.p50_ns, 0);
}


/*
 * A latency row whose every member, and every repetition's every figure,
 * holds a value of its own (so a table entry with another member's offset
 * or type shows: the uint32_t members above INT_MAX), finished with its
 * medians.
 */
static void fill_row(struct xl_lat_row *row, int nreps)
{
	size_t k;
	int i;

	memset(row, 0, sizeof(*row));
	row->path = XL_LAT_TX;
	snprintf(row->rec.name, sizeof(row->rec.name), "lat/rt-tx/low");
	snprintf(row->rec.path, sizeof(row->rec.path), "%s", xl_lat_path_name(row->path));
	row->rec.round_trip = true;
	row->rec.size = 3000001500u; /* above INT_MAX: a uint32_t written as an int shows */
	row->rec.rate_pps = 10000;
	row->rec.seconds = 0.375;
	row->rec.batch = 3000000017u;
	snprintf(row->rec.wiring, sizeof(row->rec.wiring), "threaded");
	row->rec.delay_ns = 200000;
	row->rec.nreps = nreps;
	snprintf(row->rec.note, sizeof(row->rec.note), "why \"not\"\n");
	for (i = 0; i < nreps; i++)
		for (k = 0; k < xl_lat_rep_nfields; k++) {
			char *at = (char *)&row->rec.reps[i] + xl_lat_rep_fields[k].off;

			if (xl_lat_rep_fields[k].type == XL_FT_REAL)
				*(double *)at = 1000.25 * (i + 1) + k;
			else
				*(uint64_t *)at = 100000ull * (i + 1) + k + 1;
		}
	row->all.hist[9] = 5;
	xl_lat_row_finish(row);
}

/*
 * The latency row's field table: the writer's JSON of a row, key by key in
 * the file's order with each number's form (docs/results.md; committed files
 * are read by it), and back through compare's reader (xl_cmp_from_doc(),
 * which the report reads with too) into the same record, every member
 * exactly. A wrong key, type or offset in xl_lat_row_fields[] or
 * xl_lat_rep_fields[] fails one or the other.
 */
static void test_row_fields_round_trip(void **state)
{
	static struct xl_lat_row row;
	static const char want[] =
		"{\"name\":\"lat/rt-tx/low\",\"path\":\"rt-tx\",\"round_trip\":true,\"size\":3000001500,"
		"\"rate_pps\":10000,\"seconds\":0.375,\"batch\":3000000017,\"wiring\":\"threaded\","
		"\"delay_ns\":200000,\"nreps\":1,\"note\":\"why \\\"not\\\"\\n\","
		"\"median\":{\"sent\":100001,\"xmit_errors\":100002,\"received\":100003,\"lost\":100004,"
		"\"gaps\":100005,\"reordered\":100006,\"duplicates\":100007,\"min_ns\":100008,"
		"\"p50_ns\":100009,\"p90_ns\":100010,\"p99_ns\":100011,\"p999_ns\":100012,"
		"\"max_ns\":100013,\"mean_ns\":1013.25,\"negative\":100015,\"unset\":100016},"
		"\"reps\":[{\"sent\":100001,\"xmit_errors\":100002,\"received\":100003,\"lost\":100004,"
		"\"gaps\":100005,\"reordered\":100006,\"duplicates\":100007,\"min_ns\":100008,"
		"\"p50_ns\":100009,\"p90_ns\":100010,\"p99_ns\":100011,\"p999_ns\":100012,"
		"\"max_ns\":100013,\"mean_ns\":1013.25,\"negative\":100015,\"unset\":100016}],"
		"\"buckets\":[{\"lo_ns\":9,\"hi_ns\":9,\"count\":5}]}";
	struct xl_cmp_file f;
	json_t *o, *doc;
	char err[256], *s;
	int i;

	(void)state;
	fill_row(&row, 1);
	o = xl_lat_row_json(&row);
	assert_non_null(o);
	s = json_dumps(o, JSON_COMPACT);
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
	json_decref(o);

	fill_row(&row, 3);
	doc = json_pack("{s:s,s:[],s:[o]}", "schema", XL_RESULTS_SCHEMA, "rows", "latency",
			xl_lat_row_json(&row));
	assert_non_null(doc);
	assert_int_equal(xl_cmp_from_doc("t.json", doc, &f, err, sizeof(err)), 0);
	json_decref(doc);
	assert_int_equal(f.nlat, 1);
	assert_string_equal(f.lat[0].name, "lat/rt-tx/low");
	assert_string_equal(f.lat[0].path, "rt-tx");
	assert_string_equal(f.lat[0].wiring, "threaded");
	assert_int_equal(f.lat[0].nreps, 3);
	assert_true(f.lat[0].seconds == 0.375);
	for (i = 0; i < 3; i++)
		assert_memory_equal(&f.lat[0].reps[i], &row.rec.reps[i], sizeof(row.rec.reps[i]));
	assert_memory_equal(&f.lat[0].med, &row.rec.med, sizeof(row.rec.med));
	/* Every member, the padding included (both records start zeroed). */
	assert_memory_equal(&f.lat[0], &row.rec, sizeof(row.rec));
	xl_cmp_file_free(&f);
}

/*
 * The one writer of a histogram's "buckets" (a latency row's and `xdplab
 * latency --json`'s): the non-empty buckets only, in order, each with its
 * inclusive bounds; none: an empty array.
 */
static void test_buckets_json(void **state)
{
	static uint64_t hist[XL_LAT_BUCKETS];
	json_t *b;
	char *s;

	(void)state;
	b = xl_lat_buckets_json(hist);
	assert_non_null(b);
	s = json_dumps(b, JSON_COMPACT);
	assert_string_equal(s, "[]");
	free(s);
	json_decref(b);
	hist[0] = 1;
	hist[5] = 2;
	hist[60] = 4;
	b = xl_lat_buckets_json(hist);
	assert_non_null(b);
	s = json_dumps(b, JSON_COMPACT);
	assert_string_equal(s, "[{\"lo_ns\":0,\"hi_ns\":0,\"count\":1},{\"lo_ns\":5,\"hi_ns\":5,\"count\":2},"
			       "{\"lo_ns\":768,\"hi_ns\":831,\"count\":4}]");
	free(s);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds_contiguous),
		cmocka_unit_test(test_bucket_values),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_sum_and_rep),
		cmocka_unit_test(test_sum_untimed),
		cmocka_unit_test(test_row_medians),
		cmocka_unit_test(test_row_notes),
		cmocka_unit_test(test_row_fields_round_trip),
		cmocka_unit_test(test_buckets_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
