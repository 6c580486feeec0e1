/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file hostrec.h
 * What each repetition records of the host (issue 19), as the repetition
 * planner's companion (struct xl_plan_companion, xdplab/plan.h): the
 * host-speed control (xdplab/hostctl.h) on the plan's judged CPU before
 * each counted repetition, between windows, and the judged CPU's hardware
 * counters (xdplab/pmu.h) at each window's edges. The rows do not know it
 * is there; whoever runs them moves its records into each row after the
 * row's plan ran (xl_hostrec__take()). Steal and load are not here: the
 * meter takes them from the /proc/stat reads of its own samples.
 */
#ifndef XDPLAB_HOSTREC_H
#define XDPLAB_HOSTREC_H

#include <stdbool.h>

#include "xdplab/hostctl.h"
#include "xdplab/plan.h"
#include "xdplab/pmu.h"
#include "xdplab/report.h"

/**
 * struct xl_hostrec - the companion and what it recorded of the plan that
 * ran last (by counted repetition, 0..XL_MAX_REPS-1). Fill with
 * xl_hostrec__init(), end with xl_hostrec__done(); the members are its own.
 * @ctl: the control (NULL: it could not load; no control figures).
 * @pmu_on: count hardware events (false: the machine has none).
 * @pmu/@pmu_cpu: the counters, open on @pmu_cpu (-1: none open).
 * @comp: the companion to give the plans (struct xl_labrun_opts.companion).
 * @ctl_ns: each repetition's control, ns per run (0: not measured).
 * @pa/@pb/@counted: each repetition's counters at its window's open and
 *   close, read when the repetition was one window (@counted).
 * @failed: a control measurement failed (said once, with its -errno).
 */
struct xl_hostrec {
	struct xl_hostctl *ctl;
	bool pmu_on;
	struct xl_pmu pmu;
	int pmu_cpu;
	struct xl_plan_companion comp;
	double ctl_ns[XL_MAX_REPS];
	struct xl_pmu_read pa[XL_MAX_REPS], pb[XL_MAX_REPS];
	bool counted[XL_MAX_REPS];
	int failed;
};

/**
 * xl_hostrec__init() - load the control (a failure leaves @h->ctl NULL,
 * logged once as a warning) and set up @h->comp; @pmu: count hardware
 * events on the judged CPUs (xl_pmu_probe() said the machine can).
 */
void xl_hostrec__init(struct xl_hostrec *h, bool pmu);

/** xl_hostrec__done() - unload the control, close the counters. Safe twice. */
void xl_hostrec__done(struct xl_hostrec *h);

/**
 * xl_hostrec__take() - move what @h recorded into @row's repetitions
 * (struct xl_rep_result.ctl_ns; .pmu per packet of each repetition's
 * packets) and forget it, then xl_row_finish(@row). Call right after the
 * one row whose plan ran; a row measured without the planner gets nothing
 * (its fields stay unknown).
 */
void xl_hostrec__take(struct xl_hostrec *h, struct xl_row_result *row);

/**
 * xl_hostrec__take_set() - xl_hostrec__take() into each of @n rows
 * measured on one plan, interleaved (levels or arms of a set): each gets
 * the same records, since the control before repetition i ran before
 * every row's repetition i; then forget them. @rows: @n pointers, not NULL.
 */
void xl_hostrec__take_set(struct xl_hostrec *h, struct xl_row_result *const *rows, int n);

#endif /* XDPLAB_HOSTREC_H */
