/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/html/: the report's parts that live outside html.c.
 */
#ifndef XDPLAB_HTML_PRIV_H
#define XDPLAB_HTML_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "xdplab/compare.h"

/** xl_html_cell() - one <td> of @s, escaped; @num: right-aligned figures. */
void xl_html_cell(FILE *o, const char *s, bool num);

/**
 * xl_html_num_cell() - one right-aligned <td> of @v printed with @fmt (a
 * printf format taking one double; at most 47 characters are kept).
 */
void xl_html_num_cell(FILE *o, const char *fmt, double v);

/**
 * xl_html_verdict_cls() - the CSS class of a compared row's verdict @v:
 * "regression", "improvement", "same" (also for XL_CMP_NONE).
 */
const char *xl_html_verdict_cls(enum xl_cmp_verdict v);

/**
 * xl_html_latency() - the latency section of @run's page (nothing when it
 * has no latency rows): a chart of each row's median p50, p99 and max
 * (log axis, whiskers min-max over the repetitions) and the table of the
 * medians and books; with @base (NULL: none), the latency rows compared
 * (xl_cmp_lat_run(), alpha XL_CMP_ALPHA_DEFAULT). Return: 0, -EIO, -ENOMEM.
 */
int xl_html_latency(FILE *o, const struct xl_cmp_file *run, const struct xl_cmp_file *base);

/**
 * xl_html_report_write() - the page of xl_html_report() written to @o (not
 * closed; fuzz/fuzz_report.c gives it a memory stream). Return: as
 * xl_html_report(), -EIO when @o failed.
 */
int xl_html_report_write(const char *run, const char *base, FILE *o, char *err, size_t errlen);

/* xl_html_css() - the pages' own CSS (light and dark), for a <style> element: the report's and history's. */
const char *xl_html_css(void);

/** The largest folded-stacks file a report reads (bytes). */
#define XL_HTML_FOLDED_MAX (64 << 20)

/**
 * xl_html_flame() - the flame graph of the row @label, drawn again from
 * its folded stacks @folded (the path the results file names, NULL: none)
 * with xl_flame_svg(). @folded is read only when it is a regular file of at
 * most XL_HTML_FOLDED_MAX bytes beneath @dir (the results file's
 * directory; relative to it, or absolute and inside it), reached without
 * a symbolic link or a ".." component; otherwise, or when it is not folded
 * stacks, a note on the page and a warning on stderr (xl_warn()) say why.
 * Return: 0 (drawn or refused), -ENOMEM, -EIO.
 */
int xl_html_flame(FILE *o, const char *dir, const char *label, const char *folded);

#endif /* XDPLAB_HTML_PRIV_H */
