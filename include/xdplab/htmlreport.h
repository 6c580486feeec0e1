/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file htmlreport.h
 * `xdplab report RUN.json [BASE.json] -o FILE`: one self-contained HTML
 * page of a lab run (no external script, font, style or network): the
 * environment, charts drawn by svgchart.h (per row median Mpps with
 * min-max whiskers and CPU ns/packet, coloured by verdict; the AF_XDP rows
 * grouped by benchmark and size across XDP_SKB / XDP_DRV / zero-copy; the
 * watch-cost rows per monitor level with 95% confidence intervals), the
 * table, the latency rows of `lab run --latency` (p50/p99/max on a log
 * axis, their table), the comparison with BASE (compare.h, latency rows
 * included) and the flame graphs of `lab run --profile`, drawn from their
 * folded stacks.
 */
#ifndef XDPLAB_HTMLREPORT_H
#define XDPLAB_HTMLREPORT_H

#include <stddef.h>

/**
 * xl_html_report() - write the report of the results file @run (and its
 * comparison with @base when not NULL) to @out_path. Every string of the
 * files is escaped (xl_xml_escape()). A row's flame graph is drawn again
 * from the folded stacks its "profile" names ("folded"; "svg" is not
 * read), read only as a regular file of at most 64 MiB beneath @run's
 * directory reached without a symbolic link or ".." (docs/report.md
 * "Untrusted results files"); a refused one is a note on the page and a
 * warning on stderr, not an error. On error @err
 * (@errlen bytes) gets one line naming the file and the cause. The page
 * is written whole or not at all (xdplab/atomicfile.h): on any error an
 * earlier file at @out_path stays as it was.
 * Return: 0, -ENOENT/-EINVAL/-EPROTO (a results file cannot be read, as
 * xl_cmp_load()), -EIO (cannot write @out_path: @err says "cannot write
 * PATH: CAUSE", e.g. "No space left on device"), -ENOMEM.
 */
int xl_html_report(const char *run, const char *base, const char *out_path, char *err,
		   size_t errlen);

struct xl_store_series;
struct xl_cp_opts;

/**
 * xl_html_history() - write `xdplab history --html`'s page to @out_path:
 * @title (the store and the filters; escaped), and for each of the @n
 * series @ser (xl_store_history()) a chart of its runs (svgchart.h: a bar
 * per run with its repetitions' min-max) grouped between its change points
 * (xl_trend_of() under @opts), each group's heading the change's size and
 * p. Written whole or not at all, as xl_html_report().
 * Return: 0, -EIO (cannot write: @err says why), -ENOMEM, -EINVAL.
 */
int xl_html_history(const char *out_path, const char *title, const struct xl_store_series *ser,
		    int n, const struct xl_cp_opts *opts, char *err, size_t errlen);

#endif /* XDPLAB_HTMLREPORT_H */
