// SPDX-License-Identifier: BSD-2-Clause
/* The report's chart writer: tick steps, one bar per value, every label, whiskers, negatives, a log axis. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"
#include "xdplab/svgchart.h"

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static char *render(const struct xl_chart *c)
{
	struct memout m;

	assert_int_equal(xl_svg_chart(mem_start(&m), c), 0);
	return mem_end(&m);
}

static void test_nice_step(void **state)
{
	assert_dbl_equal(xl_svg_nice_step(0, 6.17, 6), 2);
	assert_dbl_equal(xl_svg_nice_step(0, 1359, 6), 500);
	assert_dbl_equal(xl_svg_nice_step(-76.8, 487.6, 6), 100);
	assert_dbl_equal(xl_svg_nice_step(0, 0.9, 6), 0.2);
	assert_dbl_equal(xl_svg_nice_step(3, 3, 6), 1); /* no span */
}

static void test_bars_labels_whiskers(void **state)
{
	const struct xl_bar bars[] = {
		{ .label = "drop/no-touch 64 B", .value = 5, .lo = 4, .hi = 6, .has_value = true,
		  .has_whisker = true, .cls = "generator-bound" },
		{ .label = "xsk-rxdrop 64 B zc", .note = "not supported by veth", .cls = "na" },
		{ .label = "pass <64 B>", .value = 0.5, .has_value = true, .cls = "valid", .group = "g&1" },
	};
	char *s = render(&(struct xl_chart){ .title = "Rate", .axis = "median Mpps", .fmt = "%.2f",
					     .id = "mpps", .bars = bars, .n = 3, .width = 1000 });

	assert_int_equal(count_of(s, "<rect class=\"bar "), 2);
	assert_int_equal(count_of(s, "<rect class=\"bar generator-bound\""), 1);
	assert_int_equal(count_of(s, "class=\"label\""), 3);
	assert_non_null(strstr(s, ">drop/no-touch 64 B</text>"));
	assert_non_null(strstr(s, ">pass &lt;64 B&gt;</text>"));
	assert_non_null(strstr(s, ">g&amp;1</text>"));
	assert_non_null(strstr(s, ">not supported by veth</text>"));
	assert_non_null(strstr(s, "data-chart=\"mpps\""));
	assert_non_null(strstr(s, ">median Mpps</text>"));
	/* Axis 0..6 (step 1) over x 270..810: the bar 0..5 is 450 px, the whisker 4..6. */
	assert_non_null(strstr(s, "<rect class=\"bar generator-bound\" x=\"270.0\" y=\"27\" width=\"450.0\""));
	assert_non_null(strstr(s, "<line class=\"whisker\" x1=\"630.0\" x2=\"810.0\""));
	assert_null(strstr(s, "class=\"zero\"")); /* nothing negative */
	/* 3 rows + 1 group heading, title 24, axis 40. */
	assert_non_null(strstr(s, "height=\"136\""));
	free(s);
}

static void test_negative_values(void **state)
{
	const struct xl_bar bars[] = {
		{ .label = "a", .value = -50, .has_value = true, .cls = "improvement" },
		{ .label = "b", .value = 100, .has_value = true, .cls = "regression" },
	};
	char *s = render(&(struct xl_chart){ .title = "Delta", .axis = "ns", .fmt = "%+.1f",
					     .bars = bars, .n = 2, .width = 1000 });

	/* -50..100 in steps of 50 over 270..810: zero at 450; a bar goes left of it. */
	assert_int_equal(count_of(s, "class=\"zero\""), 1);
	assert_non_null(strstr(s, "<line class=\"zero\" x1=\"450.0\""));
	assert_non_null(strstr(s, "<rect class=\"bar improvement\" x=\"270.0\" y=\"27\" width=\"180.0\""));
	assert_non_null(strstr(s, "<rect class=\"bar regression\" x=\"450.0\" y=\"45\" width=\"360.0\""));
	assert_non_null(strstr(s, ">-50</text>")); /* a tick label */
	assert_non_null(strstr(s, ">-50.0</text>"));
	free(s);
}

static void test_log_scale(void **state)
{
	const struct xl_bar bars[] = {
		{ .label = "p50", .value = 100, .lo = 20, .hi = 500, .has_value = true,
		  .has_whisker = true, .cls = "lat-p50" },
		{ .label = "max", .value = 1000, .has_value = true, .cls = "lat-max" },
		{ .label = "none", .value = 0, .has_value = true, .cls = "lat-p99" },
	};
	char *s = render(&(struct xl_chart){ .title = "Latency", .axis = "us (log)", .fmt = "%.1f",
					     .bars = bars, .n = 3, .width = 1000, .log_scale = true });

	/* Decades 10..1000 (the whisker's 20 sets the low end) over x 270..810. */
	assert_non_null(strstr(s, "text-anchor=\"middle\">10</text>"));
	assert_non_null(strstr(s, "text-anchor=\"middle\">100</text>"));
	assert_non_null(strstr(s, "text-anchor=\"middle\">1000</text>"));
	assert_null(strstr(s, "text-anchor=\"middle\">10000</text>"));
	assert_non_null(strstr(s, "<rect class=\"bar lat-p50\" x=\"270.0\" y=\"27\" width=\"270.0\""));
	assert_non_null(strstr(s, "<rect class=\"bar lat-max\" x=\"270.0\" y=\"45\" width=\"540.0\""));
	/* 0 has no place on a log axis: drawn at its left end. */
	assert_non_null(strstr(s, "<rect class=\"bar lat-p99\" x=\"270.0\" y=\"63\" width=\"0.0\""));
	/* log10(2) / 2 x 540 = 81.3; log10(50) / 2 x 540 = 458.7. */
	assert_non_null(strstr(s, "<line class=\"whisker\" x1=\"351.3\" x2=\"728.7\""));
	assert_null(strstr(s, "class=\"zero\""));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_bars_labels_whiskers),
		cmocka_unit_test(test_negative_values),
		cmocka_unit_test(test_log_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
