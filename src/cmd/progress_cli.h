/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the progress lines of a long run (`lab run`, so
 * `make bench`, and its --sensitivity and --latency steps) on stderr:
 * "xdplab: measuring ROW at SIZE bytes (row I of N)...", and on a terminal
 * the time left, estimated from the steps done so far.
 */
#ifndef XDPLAB_PROGRESS_CLI_H
#define XDPLAB_PROGRESS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xdplab/labrows.h"

/**
 * struct xl_cmd_progress - where a run of @total steps is.
 * @total: steps planned (rows, sensitivity searches, latency rows); @done:
 * steps begun before the current one; @skipped: those of @done that took
 * no time (xl_cmd_progress_skip()); @start_ns: xl_now_ns() at
 * xl_cmd_progress_init(); @eta: print the time left (stderr is a terminal).
 */
struct xl_cmd_progress {
	int total, done, skipped;
	uint64_t start_ns;
	bool eta;
};

/** xl_cmd_progress_init() - @p at step 0 of @total; the estimate on when stderr is a terminal. */
void xl_cmd_progress_init(struct xl_cmd_progress *p, int total);

/**
 * xl_cmd_progress_step() - begin the next step: one line on stderr,
 * "xdplab: " @what " (row I of N)..." where I counts from 1, with
 * ", about T left" before the closing ")" once a step is done and @p->eta
 * is set. @p NULL: the line without the count. Steps past @total are still
 * printed ("row 5 of 4" tells the count was wrong).
 */
void xl_cmd_progress_step(struct xl_cmd_progress *p, const char *what);

/**
 * xl_cmd_progress_skip() - a step that prints nothing (a row --dut skips):
 * counted as done, but not in the time per step of the estimate.
 */
void xl_cmd_progress_skip(struct xl_cmd_progress *p);

/**
 * xl_cmd_progress_rows() - @p as the library's progress of a run of rows
 * (struct xl_labrow_progress): its steps xl_cmd_progress_step(), its skips
 * xl_cmd_progress_skip(). @p must outlive the use.
 */
struct xl_labrow_progress xl_cmd_progress_rows(struct xl_cmd_progress *p);

/**
 * xl_cmd_progress_eta() - the time left of @p at @now_ns (xl_now_ns()):
 * xl_cmd_progress_left() over the steps measured, the skipped ones left
 * out of both the steps done and the total (a skipped step took no time;
 * counted, they made the time per step read low). Return: @buf.
 */
char *xl_cmd_progress_eta(const struct xl_cmd_progress *p, uint64_t now_ns, char *buf, size_t len);

/**
 * xl_cmd_progress_left() - the time left after @done of @total steps in
 * @elapsed_ns, as the mean step so far times the steps not yet done
 * (the current one included), into @buf (@len bytes): "45 s", "3 min 5 s",
 * "1 h 2 min". Return: @buf; "" when nothing is done yet.
 */
char *xl_cmd_progress_left(int done, int total, uint64_t elapsed_ns, char *buf, size_t len);

#endif /* XDPLAB_PROGRESS_CLI_H */
