// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_hostctl.c - the host-speed control (src/lib/xdp/hostctl.c): the
 * bursts' reduction (minimum and median, odd and even counts, ties, the
 * bounds), and the fixed program's loop through BPF_PROG_RUN on CPU 0:
 * a positive ns per run no larger than the median, the runs it was asked
 * for, the thread back on its own CPUs after (also after a CPU that does
 * not exist), bad arguments refused. No figure is compared with a speed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>

#include "hostctl.skel.h"
#include "bpf_run.h"
#include "test_util.h"
#include "xdplab/hostctl.h"

TEST_HAVE_BPF(hostctl)

static void test_reduce(void **state)
{
	const double odd[5] = { 900, 812.5, 1500, 812.5, 850 };
	const double even[4] = { 1000, 700, 720, 5000 };
	double many[XL_HOSTCTL_MAX_BURSTS + 1] = { 0 };
	struct xl_hostctl_result r;

	(void)state;
	assert_int_equal(xl_hostctl_reduce(odd, 5, &r), 0);
	assert_dbl_equal(r.ns, 812.5);
	assert_dbl_equal(r.median_ns, 850);
	/* The input is left as it was. */
	assert_dbl_equal(odd[0], 900);
	assert_int_equal(xl_hostctl_reduce(even, 4, &r), 0);
	assert_dbl_equal(r.ns, 700);
	assert_dbl_equal(r.median_ns, 860);
	assert_int_equal(xl_hostctl_reduce(even, 1, &r), 0);
	assert_dbl_equal(r.ns, 1000);
	assert_dbl_equal(r.median_ns, 1000);
	assert_int_equal(xl_hostctl_reduce(even, 0, &r), -EINVAL);
	assert_int_equal(xl_hostctl_reduce(many, XL_HOSTCTL_MAX_BURSTS + 1, &r), -EINVAL);
	assert_int_equal(xl_hostctl_reduce(many, XL_HOSTCTL_MAX_BURSTS, &r), 0);
}

static void test_measure_on_cpu0(void **state)
{
	struct xl_hostctl *c;
	struct xl_hostctl_result r;
	cpu_set_t before, after;

	(void)state;
	need_bpf();
	c = xl_hostctl__create();
	assert_non_null(c);
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	assert_int_equal(xl_hostctl__measure(c, 0, 5, 50, &r), 0);
	assert_true(r.ns > 0);
	assert_true(r.ns <= r.median_ns);
	assert_int_equal(r.cpu, 0);
	assert_int_equal(r.bursts, 5);
	assert_int_equal(r.calls, 50);
	assert_true(r.took_ns > 0);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	/* A CPU that does not exist: refused, the thread where it was. */
	assert_int_equal(xl_hostctl__measure(c, CPU_SETSIZE - 1, 5, 50, &r), -EINVAL);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	assert_int_equal(xl_hostctl__measure(c, 0, 0, 50, &r), -EINVAL);
	assert_int_equal(xl_hostctl__measure(c, 0, XL_HOSTCTL_MAX_BURSTS + 1, 50, &r), -EINVAL);
	assert_int_equal(xl_hostctl__measure(c, 0, 5, 0, &r), -EINVAL);
	assert_int_equal(xl_hostctl__measure(c, -1, 5, 50, &r), -EINVAL);
	assert_int_equal(xl_hostctl__measure(c, CPU_SETSIZE, 5, 50, &r), -EINVAL);
	xl_hostctl__destroy(c);
	xl_hostctl__destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduce),
		cmocka_unit_test(test_measure_on_cpu0),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
