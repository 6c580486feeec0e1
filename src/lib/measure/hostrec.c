// SPDX-License-Identifier: BSD-2-Clause
/* The repetition planner's companion that records the host (xdplab/hostrec.h). */
#include <errno.h>
#include <string.h>

#include "xdplab/hostrec.h"
#include "xdplab/log.h"

/* Forget every record (a new plan, or after a take). */
static void forget(struct xl_hostrec *h)
{
	memset(h->ctl_ns, 0, sizeof(h->ctl_ns));
	memset(h->counted, 0, sizeof(h->counted));
}

/* The counters on @cpu: kept open while the judged CPU stays the same. */
static void pmu_on_cpu(struct xl_hostrec *h, int cpu)
{
	if (!h->pmu_on || cpu == h->pmu_cpu)
		return;
	if (h->pmu_cpu >= 0)
		xl_pmu__close(&h->pmu);
	h->pmu_cpu = cpu >= 0 && !xl_pmu__open(&h->pmu, cpu) ? cpu : -1;
}

/*
 * Before repetition @st->rep: the control on the judged CPU. With the
 * per-repetition plans of the XDP rows the row's set-up is torn down (no
 * traffic, no DUT program); the one after the last repetition is not kept.
 */
static void between(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st)
{
	struct xl_hostrec *h = ctx;
	struct xl_hostctl_result r;
	int err;

	if (!st->rep)
		forget(h);
	pmu_on_cpu(h, p->cpu);
	if (!h->ctl || p->cpu < 0 || st->rep >= p->reps || st->rep >= XL_MAX_REPS ||
	    (p->stop && *p->stop))
		return;
	err = xl_hostctl__measure(h->ctl, p->cpu, XL_HOSTCTL_BURSTS, XL_HOSTCTL_CALLS, &r);
	if (err) {
		if (!h->failed)
			xl_warn("host-speed control on CPU %d failed: %s (its figures are null)",
				p->cpu, strerror(-err));
		h->failed = err;
		return;
	}
	xl_dbg("host-speed control on CPU %d: %.1f ns/run (median %.1f), took %.2f ms", p->cpu,
	       r.ns, r.median_ns, r.took_ns / 1e6);
	h->ctl_ns[st->rep] = r.ns;
}

/* A repetition of one window: its counters are the window's. */
static bool one_window(const struct xl_hostrec *h, const struct xl_plan *p,
		       const struct xl_plan_step *st)
{
	return h->pmu_cpu >= 0 && h->pmu_cpu == p->cpu && !st->profiled &&
	       (p->arms <= 1 && p->slices <= 1) && st->rep >= 0 && st->rep < XL_MAX_REPS;
}

static void window_open(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st)
{
	struct xl_hostrec *h = ctx;

	if (one_window(h, p, st))
		xl_pmu__read(&h->pmu, &h->pa[st->rep]);
}

static void window_close(void *ctx, const struct xl_plan *p, const struct xl_plan_step *st)
{
	struct xl_hostrec *h = ctx;

	if (!one_window(h, p, st))
		return;
	xl_pmu__read(&h->pmu, &h->pb[st->rep]);
	h->counted[st->rep] = true;
}

void xl_hostrec__init(struct xl_hostrec *h, bool pmu)
{
	memset(h, 0, sizeof(*h));
	h->pmu_on = pmu;
	h->pmu_cpu = -1;
	h->comp = (struct xl_plan_companion){ .between = between, .window_open = window_open,
					      .window_close = window_close, .ctx = h };
	h->ctl = xl_hostctl__create();
	if (!h->ctl)
		xl_warn("cannot load the host-speed control (bpf/hostctl.bpf.c): %s; its figures are null",
			strerror(errno));
}

void xl_hostrec__done(struct xl_hostrec *h)
{
	xl_hostctl__destroy(h->ctl);
	h->ctl = NULL;
	if (h->pmu_cpu >= 0)
		xl_pmu__close(&h->pmu);
	h->pmu_cpu = -1;
}

void xl_hostrec__take_set(struct xl_hostrec *h, struct xl_row_result *const *rows, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		struct xl_hostrec copy;

		if (k == n - 1) {
			xl_hostrec__take(h, rows[k]);
			break;
		}
		/* The records only: take() forgets its argument's. */
		memcpy(copy.ctl_ns, h->ctl_ns, sizeof(copy.ctl_ns));
		memcpy(copy.pa, h->pa, sizeof(copy.pa));
		memcpy(copy.pb, h->pb, sizeof(copy.pb));
		memcpy(copy.counted, h->counted, sizeof(copy.counted));
		xl_hostrec__take(&copy, rows[k]);
	}
}

void xl_hostrec__take(struct xl_hostrec *h, struct xl_row_result *row)
{
	int i;

	for (i = 0; i < row->nreps && i < XL_MAX_REPS; i++) {
		struct xl_rep_result *r = &row->reps[i];

		r->ctl_ns = h->ctl_ns[i];
		if (h->counted[i])
			xl_pmu_per_pkt(&h->pa[i], &h->pb[i], r->packets, &r->pmu);
	}
	forget(h);
	xl_row_finish(row);
}
