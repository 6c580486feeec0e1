// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_compare_verdict.c - unit tests of what the ns/packet rows and the
 * latency rows of `xdplab compare` share (src/lib/measure/compare_priv.h):
 * the verdict rule at its edges (p exactly alpha, the delta exactly the
 * threshold, NaN), the "not measured" reason for a missing side, the
 * set-up reasons both give, and the exact-then-loose pairing of rows;
 * then the same edges through xl_cmp_row_compare() and xl_cmp_lat_run().
 * And the one table of status words (compare.h) and the "rose from 0"
 * text that compare's tables, its JSON and the report use.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xdplab/compare.h"

#include "compare_priv.h"

#include "test_util.h"

/* ---- the verdict rule ---- */

static void test_decide_edges(void **state)
{
	const struct xl_cmp_opts o = { .alpha = 0.05, .threshold_ns = 2.0 };
	const struct xl_cmp_opts zero = { .alpha = 0.05, .threshold_ns = 0 };

	/* p exactly alpha is not significant; just below it is. */
	assert_int_equal(xl_cmp_decide(0.05, 10.0, &o), XL_CMP_SAME);
	assert_int_equal(xl_cmp_decide(0.05, -10.0, &o), XL_CMP_SAME);
	assert_int_equal(xl_cmp_decide(nextafter(0.05, 0), 10.0, &o), XL_CMP_REGRESSION);
	assert_int_equal(xl_cmp_decide(nextafter(0.05, 0), -10.0, &o), XL_CMP_IMPROVEMENT);
	/* The delta exactly the threshold is not beyond it, either way. */
	assert_int_equal(xl_cmp_decide(0.01, 2.0, &o), XL_CMP_SAME);
	assert_int_equal(xl_cmp_decide(0.01, -2.0, &o), XL_CMP_SAME);
	assert_int_equal(xl_cmp_decide(0.01, nextafter(2.0, 3), &o), XL_CMP_REGRESSION);
	assert_int_equal(xl_cmp_decide(0.01, nextafter(-2.0, -3), &o), XL_CMP_IMPROVEMENT);
	/* Threshold 0: any significant change but none at all. */
	assert_int_equal(xl_cmp_decide(0.01, 0.0, &zero), XL_CMP_SAME);
	assert_int_equal(xl_cmp_decide(0.01, 1e-9, &zero), XL_CMP_REGRESSION);
	assert_int_equal(xl_cmp_decide(0.01, -1e-9, &zero), XL_CMP_IMPROVEMENT);
	/* NaN on either side decides nothing. */
	assert_int_equal(xl_cmp_decide(NAN, 10.0, &o), XL_CMP_SAME);
	assert_int_equal(xl_cmp_decide(0.01, NAN, &o), XL_CMP_SAME);
}

/* ---- a missing side ---- */

static void test_not_measured(void **state)
{
	char buf[160], note[200];

	strcpy(buf, "untouched");
	assert_false(xl_cmp_not_measured(buf, sizeof(buf), 3, "b", 5, "n"));
	assert_string_equal(buf, "untouched");

	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 0, "", 3, "n"));
	assert_string_equal(buf, "not measured in base");
	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 0, "zero-copy: not on veth", 3, "n"));
	assert_string_equal(buf, "not measured in base: zero-copy: not on veth");
	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 3, "b", 0, "no AF_XDP"));
	assert_string_equal(buf, "not measured in new: no AF_XDP");
	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 3, "b", 0, ""));
	assert_string_equal(buf, "not measured in new");
	/* Both missing: base's note. */
	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 0, "base's", 0, "new's"));
	assert_string_equal(buf, "not measured in either file: base's");
	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 0, "", 0, "new's"));
	assert_string_equal(buf, "not measured in either file");
	/* At most 120 characters of the note. */
	memset(note, 'x', sizeof(note) - 1);
	note[sizeof(note) - 1] = '\0';
	assert_true(xl_cmp_not_measured(buf, sizeof(buf), 0, note, 3, ""));
	assert_int_equal(strlen(buf), strlen("not measured in base: ") + 120);
	/* A small buffer is cut, not overrun. */
	assert_true(xl_cmp_not_measured(buf, 10, 0, "", 0, ""));
	assert_string_equal(buf, "not measu");
}

/* ---- why a pair is not comparable: the reasons both kinds of rows give ---- */

static void test_set_up_reasons(void **state)
{
	char buf[160];

	strcpy(buf, "untouched");
	assert_false(xl_cmp_text_differs(buf, sizeof(buf), "wiring", "threaded", "threaded"));
	assert_false(xl_cmp_text_differs(buf, sizeof(buf), "wiring", "", ""));
	assert_false(xl_cmp_row_reps_differ(buf, sizeof(buf), 5, 5));
	/* A side without repetitions is "not measured", not this. */
	assert_false(xl_cmp_row_reps_differ(buf, sizeof(buf), 0, 5));
	assert_false(xl_cmp_row_reps_differ(buf, sizeof(buf), 5, 0));
	assert_string_equal(buf, "untouched");

	assert_true(xl_cmp_text_differs(buf, sizeof(buf), "wiring", "threaded", "softirq"));
	assert_string_equal(buf, "wiring differs: threaded vs softirq");
	assert_true(xl_cmp_text_differs(buf, sizeof(buf), "generator engine", "", "live"));
	assert_string_equal(buf, "generator engine differs: - vs live");
	assert_true(xl_cmp_text_differs(buf, sizeof(buf), "wiring", "softirq", ""));
	assert_string_equal(buf, "wiring differs: softirq vs -");
	assert_true(xl_cmp_row_reps_differ(buf, sizeof(buf), 3, 5));
	assert_string_equal(buf, "repetitions differ: 3 vs 5 in this row");
}

/* ---- the status words: one table for compare's text, its JSON and the report ---- */

static void test_status_words(void **state)
{
	static const struct {
		enum xl_cmp_status s;
		enum xl_cmp_verdict v;
		const char *json, *text, *html;
	} t[] = {
		{ XL_CMP_PAIRED, XL_CMP_REGRESSION, "compared", "regression", "regression" },
		{ XL_CMP_PAIRED, XL_CMP_IMPROVEMENT, "compared", "improvement", "improvement" },
		{ XL_CMP_PAIRED, XL_CMP_SAME, "compared", "~", "~" },
		{ XL_CMP_PAIRED, XL_CMP_TOO_FEW, "compared", "too few reps", "too few reps" },
		{ XL_CMP_NOT_COMPARABLE, XL_CMP_NONE, "not-comparable", "not comparable", "not comparable" },
		{ XL_CMP_NOT_MEASURED, XL_CMP_NONE, "not-measured", "not measured", "not measured" },
		{ XL_CMP_BASE_ONLY, XL_CMP_NONE, "base-only", "only in base", "only in BASE" },
		{ XL_CMP_NEW_ONLY, XL_CMP_NONE, "new-only", "only in new", "only in this run" },
		/* The verdict does not name a row that was not compared. */
		{ XL_CMP_NOT_MEASURED, XL_CMP_REGRESSION, "not-measured", "not measured", "not measured" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_string_equal(xl_cmp_status_word(t[i].s, t[i].v, XL_CMP_WORDS_JSON), t[i].json);
		assert_string_equal(xl_cmp_status_word(t[i].s, t[i].v, XL_CMP_WORDS_TEXT), t[i].text);
		assert_string_equal(xl_cmp_status_word(t[i].s, t[i].v, XL_CMP_WORDS_HTML), t[i].html);
	}
	assert_string_equal(xl_cmp_status_word(XL_CMP_PAIRED, XL_CMP_NONE, XL_CMP_WORDS_TEXT), "");
	/* JSON's "verdict" of a row that cannot tell: a word of its own, not "~". */
	assert_string_equal(xl_cmp_verdict_name(XL_CMP_TOO_FEW), "too-few-reps");
	assert_string_equal(xl_cmp_verdict_name(XL_CMP_SAME), "~");
	assert_string_equal(xl_cmp_status_word((enum xl_cmp_status)5, XL_CMP_SAME, XL_CMP_WORDS_TEXT), "");
	assert_string_equal(xl_cmp_status_word((enum xl_cmp_status)-1, XL_CMP_SAME, XL_CMP_WORDS_JSON),
			    "");
	assert_string_equal(xl_cmp_status_word(XL_CMP_BASE_ONLY, XL_CMP_SAME, (enum xl_cmp_words)3), "");
}

/* ---- pairing ---- */

static struct xl_cmp_rowdata prow(const char *name, const char *wiring)
{
	struct xl_cmp_rowdata r = { .size = 64 };

	snprintf(r.name, sizeof(r.name), "%s", name);
	snprintf(r.wiring, sizeof(r.wiring), "%s", wiring);
	return r;
}

static int name_order(const struct xl_cmp_file *b, int i, const struct xl_cmp_file *n, int j,
		      bool exact)
{
	int d = strcmp(b->rows[i].name, n->rows[j].name);

	return d || !exact ? d : strcmp(b->rows[i].wiring, n->rows[j].wiring);
}

static void test_pair_exact_first(void **state)
{
	struct xl_cmp_rowdata br[] = { prow("A", "softirq"), prow("A", "threaded"),
				       prow("B", "softirq"), prow("C", "softirq") };
	struct xl_cmp_rowdata nr[] = { prow("D", "softirq"), prow("A", "threaded"),
				       prow("C", "threaded"), prow("A", "softirq"),
				       prow("A", "threaded") };
	struct xl_cmp_file b = { .rows = br, .nrows = 4 }, n = { .rows = nr, .nrows = 5 };
	struct xl_cmp_pairing *p;

	assert_int_equal(xl_cmp_pair(&b, b.nrows, &n, n.nrows, name_order, &p), 6);
	/* A softirq finds its exact twin (3) though a loose one (1) comes first. */
	assert_int_equal(p[0].base, 0);
	assert_int_equal(p[0].new, 3);
	assert_int_equal(p[1].base, 1);
	assert_int_equal(p[1].new, 1);
	assert_int_equal(p[2].base, 2); /* B: only in base */
	assert_int_equal(p[2].new, -1);
	assert_int_equal(p[3].base, 3); /* C: loosely, wiring differs */
	assert_int_equal(p[3].new, 2);
	/* New's unpaired rows in its order: D, the second A threaded. */
	assert_int_equal(p[4].base, -1);
	assert_int_equal(p[4].new, 0);
	assert_int_equal(p[5].base, -1);
	assert_int_equal(p[5].new, 4);
	free(p);

	/* Empty files: nothing, and an array to free all the same. */
	assert_int_equal(xl_cmp_pair(&b, 0, &n, 0, name_order, &p), 0);
	assert_non_null(p);
	free(p);
}

/*
 * 100000 rows a side, NEW in reverse order, every tenth row in BASE only
 * and as many in NEW only: each pairs with its twin, in BASE's order, and
 * fast: the pairing was quadratic (13 s for this); 5 s of CPU time, not
 * of the clock (a loaded host), is generous for O(n log n) under the
 * sanitizers.
 */
/* name_order(), counting its calls: the work of a pairing, in comparisons. */
static unsigned long long order_calls;

static int counted_order(const struct xl_cmp_file *b, int i, const struct xl_cmp_file *n, int j,
			 bool exact)
{
	order_calls++;
	return name_order(b, i, n, j, exact);
}

/*
 * 100,000 rows a side, NEW reversed: pairing by sorting makes about
 * (nbase + nnew) log2(nnew) comparisons (some 3.4 M here, each pass), the
 * quadratic pairing it replaced N^2 / 2 (5,000 M). Counted, not timed: a
 * loaded host slows a timer, not a count.
 */
static void test_pair_many_rows(void **state)
{
	enum { N = 100000 };
	struct xl_cmp_rowdata *br = calloc(N, sizeof(*br)), *nr = calloc(N, sizeof(*nr));
	struct xl_cmp_file b = { .rows = br, .nrows = N }, n = { .rows = nr, .nrows = N };
	struct xl_cmp_pairing *p;
	int i, k;

	assert_non_null(br);
	assert_non_null(nr);
	for (i = 0; i < N; i++) {
		snprintf(br[i].name, sizeof(br[i].name), "row%d", i);
		snprintf(br[i].wiring, sizeof(br[i].wiring), "softirq");
		/* NEW's row N-1-i is BASE's i, but for i % 10 == 0: "other%d". */
		snprintf(nr[N - 1 - i].name, sizeof(nr[0].name), i % 10 ? "row%d" : "other%d", i);
		snprintf(nr[N - 1 - i].wiring, sizeof(nr[0].wiring), "softirq");
	}
	order_calls = 0;
	assert_int_equal(xl_cmp_pair(&b, N, &n, N, counted_order, &p), N + N / 10);
	print_message("pairing %d rows a side: %llu comparisons\n", N, order_calls);
	assert_true(order_calls < 20ull * 2 * N * 17); /* 68 M: 70 times below quadratic */
	for (i = 0; i < N; i++) {
		assert_int_equal(p[i].base, i);
		assert_int_equal(p[i].new, i % 10 ? N - 1 - i : -1);
	}
	/* NEW's own rows, in its order: other99990 first (row 9), ... */
	for (k = 0; k < N / 10; k++) {
		assert_int_equal(p[N + k].base, -1);
		assert_int_equal(p[N + k].new, 9 + 10 * k);
	}
	free(p);
	free(br);
	free(nr);
}

static void test_find_dup(void **state)
{
	struct xl_cmp_rowdata r[] = { prow("A", "softirq"), prow("B", "softirq"),
				      prow("A", "threaded"), prow("C", "softirq"),
				      prow("B", "softirq"), prow("A", "softirq") };
	struct xl_cmp_file f = { .rows = r };
	int a = -1, b = -1;

	/* No two alike among the first four (A twice, wirings differ). */
	assert_int_equal(xl_cmp_find_dup(&f, 4, name_order, &a, &b), 0);
	assert_int_equal(a, -1);
	/* B softirq at 1 and 4 comes before A softirq at 0 and 5. */
	assert_int_equal(xl_cmp_find_dup(&f, 6, name_order, &a, &b), 1);
	assert_int_equal(a, 1);
	assert_int_equal(b, 4);
	assert_int_equal(xl_cmp_find_dup(&f, 0, name_order, &a, &b), 0);
}

/* ---- the same edges through the rows' comparisons ---- */

/* A row of @nreps repetitions at @pps each, DUT CPU not measured. */
static struct xl_cmp_rowdata rate_row(int nreps, double pps, const char *note)
{
	struct xl_cmp_rowdata r = { .nreps = nreps, .size = 64 };
	int i;

	snprintf(r.name, sizeof(r.name), "drop");
	snprintf(r.verdict, sizeof(r.verdict), "valid");
	snprintf(r.note, sizeof(r.note), "%s", note);
	for (i = 0; i < nreps; i++)
		r.pps[i] = pps;
	r.mpps = (struct xl_summary){ .median = pps / 1e6, .min = pps / 1e6, .max = pps / 1e6 };
	return r;
}

static void test_row_compare_edges(void **state)
{
	/* 10 ns/packet against 20: +10.0 exactly; 4 vs 4 separated: p = 2/70. */
	struct xl_cmp_rowdata b = rate_row(4, 1e8, ""), n = rate_row(4, 5e7, ""), none;
	struct xl_cmp_row r = { .base = &b, .new = &n };

	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05, .threshold_ns = 10.0 });
	assert_int_equal(r.status, XL_CMP_PAIRED);
	assert_dbl_equal(r.delta, 10.0);
	assert_dbl_equal(r.test.p, 2.0 / 70);
	assert_int_equal(r.verdict, XL_CMP_SAME);
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05, .threshold_ns = 9.999 });
	assert_int_equal(r.verdict, XL_CMP_REGRESSION);
	/* p exactly alpha: also the smallest p 4 vs 4 can give, so too few. */
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 2.0 / 70, .threshold_ns = 0 });
	assert_int_equal(r.verdict, XL_CMP_TOO_FEW);
	assert_true(r.too_few);
	r = (struct xl_cmp_row){ .base = &n, .new = &b };
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05, .threshold_ns = 9.999 });
	assert_dbl_equal(r.delta, -10.0);
	assert_int_equal(r.verdict, XL_CMP_IMPROVEMENT);
	assert_false(r.too_few);

	/* A missing side: not measured, no verdict, the side's note. */
	none = rate_row(0, 0, "AF_XDP zero-copy: not on veth");
	r = (struct xl_cmp_row){ .base = &b, .new = &none };
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05 });
	assert_int_equal(r.status, XL_CMP_NOT_MEASURED);
	assert_int_equal(r.verdict, XL_CMP_NONE);
	assert_string_equal(r.reason, "not measured in new: AF_XDP zero-copy: not on veth");
}

/*
 * The corrected figure (issue 19 item 2): base at 10 ns/packet measured
 * with the host-speed control at 500 ns per run, new at 20 ns/packet with
 * the control at 1000 (the host ran at half speed): raw a regression of
 * +10 ns; corrected to the median control 750 both are 15 ns, no change.
 * Without a control on every repetition the row stays raw.
 */
static void test_row_compare_corrected(void **state)
{
	struct xl_cmp_rowdata b = rate_row(4, 1e8, ""), n = rate_row(4, 5e7, ""), bc;
	struct xl_cmp_row r = { .base = &b, .new = &n };
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		b.ctl_ns[i] = 500;
		n.ctl_ns[i] = 1000;
	}
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05 });
	assert_false(r.corrected);
	assert_dbl_equal(r.delta, 10.0);
	assert_int_equal(r.verdict, XL_CMP_REGRESSION);
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_CORRECTED });
	assert_true(r.corrected);
	assert_dbl_equal(r.ctl_ref_ns, 750.0);
	assert_dbl_equal(r.delta, 0.0);
	assert_dbl_equal(r.test.p, 1.0);
	assert_int_equal(r.verdict, XL_CMP_SAME);
	/* The rows themselves are untouched: the table shows what was measured. */
	assert_dbl_equal(r.base->pps[0], 1e8);
	xl_cmp_correct(&b, 750, &bc);
	assert_dbl_equal(bc.pps[0], 1e8 / 1.5);
	assert_true(fabs(bc.mpps.median - 100.0 / 1.5) < 1e-9);
	n.ctl_ns[3] = 0;
	xl_cmp_row_compare(&r, &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_CORRECTED });
	assert_false(r.corrected);
	assert_dbl_equal(r.ctl_ref_ns, 0.0);
	assert_int_equal(r.verdict, XL_CMP_REGRESSION);
	assert_string_equal(xl_cmp_figure_name(XL_CMP_FIG_AUTO), "auto");
	assert_string_equal(xl_cmp_figure_name(XL_CMP_FIG_CORRECTED), "corrected");
	assert_string_equal(xl_cmp_figure_name((enum xl_cmp_figure)7), "");
}

/*
 * A rate that fell to 0 pps was 0 ns/packet and a delta of 0: "~" (or,
 * with enough repetitions, an "improvement" the threshold hid). It is a
 * regression whatever the sizes; rising from 0 an improvement.
 */
static void test_row_compare_zero_rate(void **state)
{
	struct xl_cmp_rowdata b = rate_row(5, 1e6, ""), n = rate_row(5, 0, ""), few = rate_row(3, 0, "");
	struct xl_cmp_rowdata b3 = rate_row(3, 1e6, ""), part = rate_row(5, 1e6, "");
	struct xl_cmp_opts o = { .alpha = 0.05 };
	struct xl_cmp_row r = { .base = &b, .new = &n };

	xl_cmp_row_compare(&r, &o);
	assert_int_equal(r.status, XL_CMP_PAIRED);
	assert_int_equal(r.verdict, XL_CMP_REGRESSION);
	assert_string_equal(r.reason, "rate fell to 0 pps in 5 of 5 new repetitions");
	/* The test sees 0 pps as infinitely slow: new is slower, p = 2/252. */
	assert_dbl_equal(r.test.u, 25);
	assert_near(r.test.p, 2.0 / 252, 1e-12);
	/* 3 vs 3: too few for any test, not for a rate of 0. */
	r = (struct xl_cmp_row){ .base = &b3, .new = &few };
	xl_cmp_row_compare(&r, &o);
	assert_true(r.too_few);
	assert_int_equal(r.verdict, XL_CMP_REGRESSION);
	assert_string_equal(r.reason, "rate fell to 0 pps in 3 of 3 new repetitions");
	/* One repetition of five at 0, the others as base's. */
	part.pps[2] = 0;
	r = (struct xl_cmp_row){ .base = &b, .new = &part };
	xl_cmp_row_compare(&r, &o);
	assert_int_equal(r.verdict, XL_CMP_REGRESSION);
	assert_string_equal(r.reason, "rate fell to 0 pps in 1 of 5 new repetitions");
	/* The other way round: from 0, an improvement. */
	r = (struct xl_cmp_row){ .base = &few, .new = &b3 };
	xl_cmp_row_compare(&r, &o);
	assert_int_equal(r.verdict, XL_CMP_IMPROVEMENT);
	assert_string_equal(r.reason, "rate rose from 0 pps (0 in 3 of 3 base repetitions)");
	/* 0 on both sides: the test decides (all tied: p 1), the reason says it. */
	r = (struct xl_cmp_row){ .base = &n, .new = &n };
	xl_cmp_row_compare(&r, &o);
	assert_int_equal(r.verdict, XL_CMP_SAME);
	assert_dbl_equal(r.test.p, 1.0);
	assert_string_equal(r.reason, "rate 0 pps in 5 of 5 base and 5 of 5 new repetitions");
}

/* A latency row "lat/one-way/low" of @nreps repetitions at p50 = p99 = @ns. */
static struct xl_lat_rowrec lat_row(int nreps, uint64_t ns, const char *note)
{
	struct xl_lat_rowrec r = { .nreps = nreps, .size = 64 };
	int i;

	snprintf(r.name, sizeof(r.name), "lat/one-way/low");
	snprintf(r.note, sizeof(r.note), "%s", note);
	for (i = 0; i < nreps; i++)
		r.reps[i].p50_ns = r.reps[i].p99_ns = ns;
	r.med.p50_ns = r.med.p99_ns = nreps ? ns : 0;
	return r;
}

static void test_lat_compare_edges(void **state)
{
	struct xl_lat_rowrec bl[] = { lat_row(4, 10000, ""), lat_row(4, 10000, "") };
	struct xl_lat_rowrec nl[] = { lat_row(4, 10500, ""), lat_row(0, 0, "no receiver") };
	struct xl_cmp_file b = { .lat = bl, .nlat = 1 }, n = { .lat = nl, .nlat = 1 };
	struct xl_cmp_latresult lr;
	struct xl_cmp_opts o;

	/* +500 ns exactly the threshold: ~; just under it: regression on both. */
	o = (struct xl_cmp_opts){ .alpha = 0.05, .threshold_ns = 500 };
	assert_int_equal(xl_cmp_lat_run(&b, &n, &o, &lr), 0);
	assert_int_equal(lr.npairs, 1);
	assert_int_equal(lr.pairs[0].status, XL_CMP_PAIRED);
	assert_dbl_equal(lr.pairs[0].test[XL_CMP_LAT_P50].p, 2.0 / 70);
	assert_int_equal(lr.pairs[0].mverdict[XL_CMP_LAT_P50], XL_CMP_SAME);
	assert_int_equal(lr.pairs[0].mverdict[XL_CMP_LAT_P99], XL_CMP_SAME);
	assert_int_equal(lr.pairs[0].verdict, XL_CMP_SAME);
	xl_cmp_latresult_free(&lr);
	o = (struct xl_cmp_opts){ .alpha = 0.05, .threshold_ns = 499 };
	assert_int_equal(xl_cmp_lat_run(&b, &n, &o, &lr), 0);
	assert_int_equal(lr.pairs[0].mverdict[XL_CMP_LAT_P50], XL_CMP_REGRESSION);
	assert_int_equal(lr.pairs[0].mverdict[XL_CMP_LAT_P99], XL_CMP_REGRESSION);
	assert_int_equal(lr.pairs[0].verdict, XL_CMP_REGRESSION);
	assert_int_equal(lr.regressions, 1);
	xl_cmp_latresult_free(&lr);
	/* p exactly alpha: also 4 vs 4's smallest p, so too few to tell. */
	assert_int_equal(xl_cmp_lat_run(&b, &n, &(struct xl_cmp_opts){ .alpha = 2.0 / 70 }, &lr), 0);
	assert_int_equal(lr.pairs[0].mverdict[XL_CMP_LAT_P50], XL_CMP_SAME);
	assert_int_equal(lr.pairs[0].verdict, XL_CMP_TOO_FEW);
	assert_true(lr.pairs[0].too_few);
	assert_int_equal(lr.too_few, 1);
	xl_cmp_latresult_free(&lr);

	/* A missing side: not measured, with its note; no test. */
	n.lat = &nl[1];
	assert_int_equal(xl_cmp_lat_run(&b, &n, &(struct xl_cmp_opts){ .alpha = 0.05 }, &lr), 0);
	assert_int_equal(lr.pairs[0].status, XL_CMP_NOT_MEASURED);
	assert_int_equal(lr.pairs[0].verdict, XL_CMP_NONE);
	assert_string_equal(lr.pairs[0].reason, "not measured in new: no receiver");
	assert_int_equal(lr.compared, 0);
	xl_cmp_latresult_free(&lr);

	/* Rows on one side only. */
	b.nlat = 2;
	assert_int_equal(xl_cmp_lat_run(&b, &(struct xl_cmp_file){ 0 },
					 &(struct xl_cmp_opts){ .alpha = 0.05 }, &lr), 0);
	assert_int_equal(lr.npairs, 2);
	assert_int_equal(lr.pairs[0].status, XL_CMP_BASE_ONLY);
	assert_int_equal(lr.pairs[1].status, XL_CMP_BASE_ONLY);
	assert_ptr_equal(lr.pairs[1].base, &bl[1]);
	assert_null(lr.pairs[1].new);
	assert_int_equal(lr.paired, 0);
	xl_cmp_latresult_free(&lr);
	assert_int_equal(xl_cmp_lat_run(&(struct xl_cmp_file){ 0 }, &b,
					 &(struct xl_cmp_opts){ .alpha = 0.05 }, &lr), 0);
	assert_int_equal(lr.npairs, 2);
	assert_int_equal(lr.pairs[0].status, XL_CMP_NEW_ONLY);
	assert_null(lr.pairs[0].base);
	assert_ptr_equal(lr.pairs[1].new, &bl[1]);
	xl_cmp_latresult_free(&lr);
}

/* The books that rose from 0, after a latency verdict. */
static void test_lat_rose_append(void **state)
{
	char buf[96];

	strcpy(buf, "~");
	xl_cmp_lat_rose_append(buf, sizeof(buf), 0);
	assert_string_equal(buf, "~");
	xl_cmp_lat_rose_append(buf, sizeof(buf), XL_CMP_LAT_LOST | XL_CMP_LAT_DUPLICATES);
	assert_string_equal(buf, "~; lost rose from 0; duplicates rose from 0");
	strcpy(buf, "regression (p99)");
	xl_cmp_lat_rose_append(buf, sizeof(buf), XL_CMP_LAT_GAPS | XL_CMP_LAT_REORDERED);
	assert_string_equal(buf, "regression (p99); gaps rose from 0; reordered rose from 0");
	/* Cut at the buffer's end, terminated. */
	strcpy(buf, "~");
	xl_cmp_lat_rose_append(buf, 12, XL_CMP_LAT_LOST | XL_CMP_LAT_GAPS);
	assert_string_equal(buf, "~; lost ros");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_edges),
		cmocka_unit_test(test_not_measured),
		cmocka_unit_test(test_set_up_reasons),
		cmocka_unit_test(test_status_words),
		cmocka_unit_test(test_pair_exact_first),
		cmocka_unit_test(test_pair_many_rows),
		cmocka_unit_test(test_find_dup),
		cmocka_unit_test(test_row_compare_edges),
		cmocka_unit_test(test_row_compare_zero_rate),
		cmocka_unit_test(test_row_compare_corrected),
		cmocka_unit_test(test_lat_compare_edges),
		cmocka_unit_test(test_lat_rose_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
