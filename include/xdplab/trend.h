/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file trend.h
 * A stored row's trend (`xdplab history`, its text and its HTML page):
 * each run's figure, the median over the run's repetitions (the run is the
 * unit, as in compare's several-runs method), and the change points of
 * that series (xdplab/changepoint.h) with the size of each change.
 */
#ifndef XDPLAB_TREND_H
#define XDPLAB_TREND_H

#include <stdbool.h>
#include <stdio.h>

#include "xdplab/changepoint.h"
#include "xdplab/store.h"

/**
 * struct xl_trend_cp - one change point: @point, the index in the series'
 * @pts of the first run after the change; @before/@after: the medians of
 * the run figures from the previous change point (or the start) to it and
 * from it to the next (or the end), ns; @p: its permutation p-value.
 */
struct xl_trend_cp {
	int point;
	double before, after, p;
};

/**
 * struct xl_trend - a series' trend. @on_cpu: the figure is DUT CPU
 * ns/packet (a run was generator-bound and every repetition has a CPU
 * figure, compare's rule), else ns/packet (1e9/pps). @value/@lo/@hi: per
 * point of the series, compare's run summary (xl_cmp_run_summary()): the
 * median over its repetitions, their smallest and largest (ns; @hi
 * INFINITY when a repetition had 0 pps; all NAN when the run has no
 * repetition or its median is not finite); allocated, xl_trend_free(). @nvalues: points with a value (the
 * series tested). @cp/@ncp: the change points by run. @last_point: the
 * best candidate that was not significant (-1: none, too few runs), its
 * @last_p.
 */
struct xl_trend {
	bool on_cpu;
	double *value, *lo, *hi;
	int nvalues;
	struct xl_trend_cp cp[XL_CP_MAX];
	int ncp;
	int last_point;
	double last_p;
};

/**
 * xl_trend_of() - the trend of @x under @o into @t.
 * Return: 0, -ENOMEM, -EINVAL (as xl_edivisive()).
 */
int xl_trend_of(const struct xl_store_series *x, const struct xl_cp_opts *o, struct xl_trend *t);

/**
 * xl_trend_write() - @x's trend under @o as `xdplab history` shows it, on
 * @out: a heading (the row's identity and its figure), a line per run
 * (id, date, label, commit, host, repetitions, the median and its range
 * in % of it, the verdict; text from the store escaped for a terminal),
 * each change point with the medians around it, its size and p, then why
 * no (further) change point was found.
 * Return: the change points found (0 or more), -ENOMEM / -EINVAL (as
 * xl_trend_of()), or -EIO when @out reports an error.
 */
int xl_trend_write(FILE *out, const struct xl_store_series *x, const struct xl_cp_opts *o);

/** xl_trend_free() - free @t's arrays. */
void xl_trend_free(struct xl_trend *t);

#endif /* XDPLAB_TREND_H */
