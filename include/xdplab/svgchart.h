/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file svgchart.h
 * The one chart writer of the HTML report: horizontal bar charts as
 * inline SVG, one labelled row per bar (so labels never overlap, however
 * many rows), an optional whisker per bar (min-max, or a confidence
 * interval), a labelled x axis with units, a zero line when values are
 * negative, and group headings. Colours come from CSS classes that the
 * page styles for light and dark (xl_svg_chart_css()).
 */
#ifndef XDPLAB_SVGCHART_H
#define XDPLAB_SVGCHART_H

#include <stdbool.h>
#include <stdio.h>

#include "xdplab/escape.h" /* the charts' text goes through xl_xml_escape() */

/**
 * struct xl_bar - one row of a chart.
 * @label: the row's label (left of the axis). @group: heading drawn above
 * the first bar of each new group (NULL: none). @value: bar length in axis
 * units; @has_value false: no bar (the label stays, @note is shown).
 * @lo/@hi: the whisker's ends (@has_whisker). @cls: CSS class of the bar
 * ("valid", "generator-bound", "ceiling", "na", "regression"...): sets
 * its colour. @note: text after the bar (NULL: the value with @fmt).
 * @tip: hover text (title element; NULL: label and value).
 */
struct xl_bar {
	const char *label, *group;
	double value, lo, hi;
	bool has_value, has_whisker;
	const char *cls, *note, *tip;
};

/**
 * struct xl_chart - a bar chart.
 * @title: above the chart. @axis: the x axis title with its unit
 * ("median Mpps (whiskers: min-max)"). @fmt: printf format of a value
 * ("%.2f"). @bars/@n. @width: px of the whole SVG (>= 400).
 * @id: a name for the chart, written as data-chart (tests find it).
 * @log_scale: a log10 x axis over whole decades around the positive
 *   values and whisker ends (a tick per decade; bars start at the axis'
 *   left end; values <= 0 are drawn at it), for figures that span orders
 *   of magnitude (latency from us to ms). Default: linear from 0.
 */
struct xl_chart {
	const char *title, *axis, *fmt, *id;
	const struct xl_bar *bars;
	int n;
	double width;
	bool log_scale;
};

/**
 * xl_svg_chart() - write @c to @out as an <svg> element (no XML prolog;
 * for inlining in HTML). Bars are <rect class="bar CLS">, one per bar with
 * a value; every label is a <text class="label">. Return: 0 or -EIO.
 */
int xl_svg_chart(FILE *out, const struct xl_chart *c);

/**
 * xl_svg_nice_step() - tick step for an axis from @lo to @hi with about
 * @want ticks: 1, 2 or 5 times a power of ten. Return: the step (> 0).
 */
double xl_svg_nice_step(double lo, double hi, int want);

/** xl_svg_chart_css() - the CSS the charts need (light and dark), for a <style> element. */
const char *xl_svg_chart_css(void);

#endif /* XDPLAB_SVGCHART_H */
