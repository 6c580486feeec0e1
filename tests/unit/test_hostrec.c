// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_hostrec.c - the planner's companion that records the host
 * (src/lib/measure/hostrec.c) through real plans (xl_plan_run(), windows of
 * 0 ns, no traffic): a control per counted repetition on the plan's CPU
 * (BPF_PROG_RUN: root), none for the profiled one nor after the last, none
 * with no judged CPU; records moved into the row and forgotten
 * (xl_hostrec__take()); a new plan forgets the last one's; hardware counts
 * only where counters opened (none on a machine without a PMU, as this
 * one: every count stays unknown). No figure is compared with a speed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "hostctl.skel.h"
#include "bpf_run.h"
#include "test_util.h"
#include "xdplab/hostrec.h"

TEST_HAVE_BPF(hostctl)

static int reps_done;

static int rep_done(void *ctx, const struct xl_plan_step *st)
{
	(void)ctx;
	reps_done += !st->profiled;
	return 0;
}

static const struct xl_plan_ops ops = { .rep_done = rep_done };

static struct xl_plan plan(struct xl_hostrec *h, int reps, int cpu, bool profile)
{
	return (struct xl_plan){ .reps = reps, .scope = XL_PLAN_PER_REP, .cpu = cpu,
				 .profile = profile, .ops = &ops, .companion = &h->comp };
}

/* A row of @n repetitions of 1000 packets each. */
static void row_of(struct xl_row_result *r, int n)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->kind = "xdp";
	r->nreps = n;
	for (i = 0; i < n; i++)
		r->reps[i] = (struct xl_rep_result){ .pps = 1e6, .packets = 1000, .xmit_events = -1 };
}

static void test_control_per_repetition(void **state)
{
	static struct xl_hostrec h;
	struct xl_row_result row;
	struct xl_plan p;
	int i, pmu = xl_pmu_probe();

	(void)state;
	need_bpf();
	xl_hostrec__init(&h, !pmu);
	assert_non_null(h.ctl);
	/* 3 counted repetitions and a profiled one on CPU 0. */
	p = plan(&h, 3, 0, true);
	reps_done = 0;
	assert_int_equal(xl_plan_run(&p), 0);
	assert_int_equal(reps_done, 3);
	for (i = 0; i < 3; i++)
		assert_true(h.ctl_ns[i] > 0);
	/* Not the profiled one (index 3), nor anything after. */
	assert_dbl_equal(h.ctl_ns[3], 0);
	row_of(&row, 3);
	xl_hostrec__take(&h, &row);
	for (i = 0; i < 3; i++)
		assert_true(row.reps[i].ctl_ns > 0);
	assert_int_equal(row.ctl.n, 3);
	assert_true(row.rel_ns_per_pkt > 0);
	/* Without a PMU nothing is counted; with one, every repetition. */
	for (i = 0; i < 3; i++)
		assert_int_equal(row.reps[i].pmu.ok[XL_PMU_INSTRUCTIONS], !pmu);
	/* Taken: forgotten. */
	for (i = 0; i < XL_MAX_REPS; i++)
		assert_dbl_equal(h.ctl_ns[i], 0);
	/* No judged CPU (a --dut row): nothing measured. */
	p = plan(&h, 2, -1, false);
	assert_int_equal(xl_plan_run(&p), 0);
	assert_dbl_equal(h.ctl_ns[0], 0);
	assert_dbl_equal(h.ctl_ns[1], 0);
	/* A new plan forgets what the last one recorded and no row took. */
	p = plan(&h, 2, 0, false);
	assert_int_equal(xl_plan_run(&p), 0);
	p = plan(&h, 1, -1, false);
	assert_int_equal(xl_plan_run(&p), 0);
	assert_dbl_equal(h.ctl_ns[0], 0);
	assert_dbl_equal(h.ctl_ns[1], 0);
	/* A row measured without a plan gets nothing. */
	row_of(&row, 2);
	xl_hostrec__take(&h, &row);
	assert_dbl_equal(row.reps[0].ctl_ns, 0);
	assert_int_equal(row.ctl.n, 0);
	xl_hostrec__done(&h);
	xl_hostrec__done(&h);
}

/* A control that did not load: the plans run, nothing is recorded. */
static void test_no_control(void **state)
{
	static struct xl_hostrec h;
	struct xl_row_result row;
	struct xl_plan p;

	(void)state;
	xl_hostrec__init(&h, false);
	xl_hostctl__destroy(h.ctl);
	h.ctl = NULL;
	p = plan(&h, 2, 0, false);
	assert_int_equal(xl_plan_run(&p), 0);
	row_of(&row, 2);
	xl_hostrec__take(&h, &row);
	assert_dbl_equal(row.reps[0].ctl_ns, 0);
	assert_dbl_equal(row.reps[1].ctl_ns, 0);
	assert_false(row.reps[0].pmu.ok[XL_PMU_INSTRUCTIONS]);
	xl_hostrec__done(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_per_repetition),
		cmocka_unit_test(test_no_control),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
