// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_softirq_time.c - the arithmetic of the exact softirq source
 * (src/lib/sys/softirq_time.c) and the meter's use of it
 * (src/lib/measure/meter.c): a run in progress counted up to the read's
 * "now", the tracepoint time preferred to /proc/stat's in softirq wiring,
 * /proc/stat kept when either edge could not read it or the two edges read
 * different loads of the programs (generations), the kthread's schedstat
 * with threaded NAPI, and the sources of a sum of windows. Then who holds
 * the programs (src/lib/sys/softirq_time.c's references, taken by a meter's
 * first sample and dropped by xl_meter_done()), on a fake instance in
 * plain memory (softirq_time_priv.h): known inputs only; nothing is loaded
 * (no root needed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/softirq_time.h"

#include "softirq_time_priv.h"
#include "test_util.h"

static void test_cpu_ns_finished_runs(void **state)
{
	struct xl_sirq_rec r = { .ns = 123456789, .runs = 10, .entry_ns = 0 };

	(void)state;
	assert_int_equal(xl_sirq_cpu_ns(&r, 5000000000ull), 123456789);
}

static void test_cpu_ns_run_in_progress(void **state)
{
	struct xl_sirq_rec r = { .ns = 1000, .runs = 1, .entry_ns = 4000000000ull };

	(void)state;
	/* 2.5 us into the current run: it counts up to now. */
	assert_int_equal(xl_sirq_cpu_ns(&r, 4000002500ull), 3500);
	/* A stamp after "now" (read on another CPU's clock edge): not counted. */
	assert_int_equal(xl_sirq_cpu_ns(&r, 3999999999ull), 1000);
}

/*
 * A sample at @t_ns with @rx frames on CPU 0: /proc/stat's softirq time
 * @proc_sirq, the tracepoints' @tp_sirq (read when @tp_ok) and @runs.
 */
static void sample(struct xl_meter_sample *s, uint64_t t_ns, uint64_t rx, uint64_t proc_sirq,
		   uint64_t tp_sirq, uint64_t runs, bool tp_ok)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
	s->total.rx_packets = rx;
	s->per_cpu[0].rx_packets = rx;
	s->cpu[0] = (struct xl_cpu_times){ .busy = t_ns, .softirq = proc_sirq, .total = t_ns };
	s->cpu_ok[0] = true;
	s->cpu_t_ns = t_ns + 1000;
	s->sirq_ok = tp_ok;
	s->sirq_gen = tp_ok ? 1 : 0;
	s->sirq_t_ns = t_ns + 2000;
	s->sirq_ns[0] = tp_sirq;
	s->sirq_runs[0] = runs;
}

static void test_meter_prefers_tracepoint(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	/* 1 s, 10 M frames; ticks say 600 ms of softirq, the tracepoints 713.5 ms. */
	sample(&a, 1000000000ull, 0, 0, 50000000, 100, true);
	sample(&b, 2000000000ull, 10000000, 600000000, 763500000, 100100, true);
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(w.cpu_ns.n, 713500000);
	assert_int_equal(w.cpu_ns.ns, 1000000000ull);
	assert_dbl_equal(w.cpu_ns_per_pkt, 71.35);
	assert_int_equal(w.sirq_runs, 100000);
	/* The busy share is still /proc/stat's: every task on the CPU counts. */
	assert_dbl_equal(w.cpu_busy, 1.0);

	/* The tracepoints unread at one edge: /proc/stat's figure, said so. */
	b.sirq_ok = false;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_PROCSTAT);
	assert_dbl_equal(w.cpu_ns_per_pkt, 60.0);
	assert_int_equal(w.sirq_runs, 0);

	/* A counter that went backwards within one load: no CPU figure. */
	b.sirq_ok = true;
	b.sirq_ns[0] = 1;
	xl_meter_window(&m, &a, &b, &w);
	assert_false(w.cpu_ns.ok);
	assert_null(w.cpu_source);
	assert_dbl_equal(w.cpu_ns_per_pkt, 0.0);
}

/*
 * The programs detached and loaded again between the samples: the second
 * reading's counters start from 0 in a new generation. Their difference is
 * no time (here it would be 713.5 ms of a 1 s window that ran 100 ms with
 * the new load); the window uses /proc/stat, as with a failed read.
 */
static void test_meter_generation_mismatch(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	sample(&a, 1000000000ull, 0, 0, 50000000, 100, true);
	sample(&b, 2000000000ull, 10000000, 600000000, 763500000, 100100, true);
	b.sirq_gen = 2;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_PROCSTAT);
	assert_int_equal(w.cpu_ns.n, 600000000);
	assert_dbl_equal(w.cpu_ns_per_pkt, 60.0);
	assert_int_equal(w.sirq_runs, 0);
	/* The same generation again: the tracepoints' figure. */
	b.sirq_gen = 1;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(w.cpu_ns.n, 713500000);
}

static void test_meter_kthread_source(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .napi_pid = 4242, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	sample(&a, 1000000000ull, 0, 0, 0, 0, false);
	sample(&b, 2000000000ull, 4000000, 0, 0, 0, false);
	a.napi_runtime = (struct xl_read){ .v = 1000, .t_ns = 1000000000ull, .ok = true };
	b.napi_runtime = (struct xl_read){ .v = 200001000, .t_ns = 2000000000ull, .ok = true };
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_KTHREAD);
	assert_dbl_equal(w.cpu_ns_per_pkt, 50.0);
}

static void test_sum_sources_and_row(void **state)
{
	static struct xl_meter_sample s0, s1, s2;
	static struct xl_row_result row;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w1, w2, sum;

	(void)state;
	sample(&s0, 0, 0, 0, 0, 0, true);
	sample(&s1, 1000000000ull, 1000000, 0, 70000000, 1000, true);
	sample(&s2, 2000000000ull, 2000000, 0, 150000000, 2500, true);
	xl_meter_window(&m, &s0, &s1, &w1);
	xl_meter_window(&m, &s1, &s2, &w2);
	xl_meter_window_zero(&sum);
	xl_meter_window_add(&sum, &w1);
	xl_meter_window_add(&sum, &w2);
	assert_string_equal(sum.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(sum.sirq_runs, 2500);
	assert_dbl_equal(sum.cpu_ns_per_pkt, 75.0);

	/* A row whose repetitions agree says the source; otherwise "mixed". */
	memset(&row, 0, sizeof(row));
	row.kind = "xdp";
	row.nreps = 2;
	xl_meter_window_rep(&w1, &row.reps[0]);
	xl_meter_window_rep(&w2, &row.reps[1]);
	xl_row_finish(&row);
	assert_string_equal(row.cpu_source, XL_CPU_SRC_TRACEPOINT);
	row.reps[1].cpu_source = XL_CPU_SRC_PROCSTAT;
	xl_row_finish(&row);
	assert_string_equal(row.cpu_source, XL_CPU_SRC_MIXED);
	w2.cpu_source = XL_CPU_SRC_PROCSTAT;
	xl_meter_window_add(&sum, &w2);
	assert_string_equal(sum.cpu_source, XL_CPU_SRC_MIXED);
}

/* ---- who holds the programs: a fake instance in plain memory ---- */

/*
 * The fake's state: loads tried (@loads) and done (@loaded), reads, frees;
 * @fail: what the next loads return; @ns: every CPU's time.
 */
static struct {
	int loads, loaded, unloads, reads, fail;
	uint64_t ns;
} fake;

static int fake_load(void **h)
{
	fake.loads++;
	if (fake.fail)
		return fake.fail;
	fake.loaded++;
	*h = &fake;
	return 0;
}

static int fake_read(void *h, struct xl_sirq_rec *recs, int ncpus)
{
	int i;

	assert_ptr_equal(h, &fake);
	for (i = 0; i < ncpus; i++)
		recs[i] = (struct xl_sirq_rec){ .ns = fake.ns, .runs = fake.ns / 1000 };
	fake.reads++;
	return 0;
}

static void fake_unload(void *h)
{
	assert_ptr_equal(h, &fake);
	fake.unloads++;
}

static const struct xl_sirq_ops fake_ops = { fake_load, fake_read, fake_unload };

/* The meter's counters: none moving (the reads under test are the tracepoints'). */
static int fake_bench(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	(void)ctx;
	memset(total, 0, sizeof(*total));
	if (per_cpu)
		memset(per_cpu, 0, sizeof(*per_cpu) * xl_bench_detail_ncpus());
	return 0;
}

/* A softirq-wiring meter (no NAPI kthread, not the generator ceiling). */
#define SOFTIRQ_METER { .napi_cpu = 0, .eth_sock = -1, .src = { "fake", fake_bench, NULL } }

static int fake_setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	/* The tracepoints whatever this machine's kernel accounts (its choice: test_choose). */
	setenv(XL_SIRQ_ENV, "tracepoint", 1);
	return xl_sirq__set_ops(&fake_ops);
}

/*
 * Every test lets go of what it took: nothing held, nothing left loaded.
 * What a failed test left held is dropped first, so the next test starts
 * clean (and fails on its own merits).
 */
static int fake_teardown(void **state)
{
	int held = xl_sirq_users();

	(void)state;
	while (xl_sirq_users())
		xl_sirq_put();
	assert_int_equal(held, 0);
	assert_int_equal(fake.unloads, fake.loaded);
	return xl_sirq__set_ops(NULL);
}

static void test_refs_shared_by_meters(void **state)
{
	static struct xl_meter_sample s1, s2, s3;
	struct xl_meter m1 = SOFTIRQ_METER, m2 = SOFTIRQ_METER;
	struct xl_meter_window w;
	uint64_t gen;

	(void)state;
	assert_int_equal(xl_sirq_users(), 0);
	assert_int_equal(xl_meter_sample(&m1, &s1), 0);
	assert_true(s1.sirq_ok);
	assert_int_equal(fake.loads, 1);
	assert_int_equal(xl_sirq_users(), 1);
	gen = s1.sirq_gen;
	assert_true(gen > 0);
	/* Its next samples hold the same one reference. */
	assert_int_equal(xl_meter_sample(&m1, &s1), 0);
	assert_int_equal(xl_sirq_users(), 1);
	/* A second meter shares the loaded programs. */
	assert_int_equal(xl_meter_sample(&m2, &s2), 0);
	assert_int_equal(xl_sirq_users(), 2);
	assert_int_equal(fake.loads, 1);
	assert_int_equal(s2.sirq_gen, gen);
	/* One meter done (twice: the second does nothing): the other still reads. */
	xl_meter_done(&m1);
	xl_meter_done(&m1);
	assert_int_equal(xl_sirq_users(), 1);
	assert_int_equal(fake.unloads, 0);
	fake.ns = 5000;
	assert_int_equal(xl_meter_sample(&m2, &s3), 0);
	assert_true(s3.sirq_ok);
	xl_meter_window(&m2, &s2, &s3, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_TRACEPOINT);
	assert_int_equal(w.cpu_ns.n, 5000);
	/* The last one done: detached. */
	xl_meter_done(&m2);
	assert_int_equal(xl_sirq_users(), 0);
	assert_int_equal(fake.unloads, 1);
	assert_int_equal(xl_sirq_read(s3.sirq_ns, NULL, 1, &s3.sirq_t_ns, &s3.sirq_gen), -ENODEV);
	/*
	 * m1 samples again: a new load, a new generation, its counters from 0;
	 * the window across the two is /proc/stat's, not 0 - 5000.
	 */
	fake.ns = 0;
	assert_int_equal(xl_meter_sample(&m1, &s3), 0);
	assert_int_equal(fake.loads, 2);
	assert_int_equal(s3.sirq_gen, gen + 1);
	xl_meter_window(&m1, &s2, &s3, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_PROCSTAT);
	xl_meter_done(&m1);
	assert_int_equal(fake.unloads, 2);
}

/* A function that samples and returns early; its meter is XL_METER_SCOPED. */
static int sample_and_return(int early)
{
	static struct xl_meter_sample s;
	struct xl_meter m XL_METER_SCOPED = SOFTIRQ_METER;

	if (xl_meter_sample(&m, &s))
		return -1;
	if (early)
		return xl_sirq_users();
	return s.sirq_ok ? 10 : 20;
}

static void test_refs_scoped_meter(void **state)
{
	(void)state;
	assert_int_equal(sample_and_return(1), 1); /* held inside */
	assert_int_equal(xl_sirq_users(), 0);      /* let go on the way out */
	assert_int_equal(fake.unloads, 1);
	assert_int_equal(sample_and_return(0), 10);
	assert_int_equal(xl_sirq_users(), 0);
	assert_int_equal(fake.loads, 2);
	assert_int_equal(fake.unloads, 2);
}

/* Never for the generator ceiling (no_sirq) nor with a NAPI kthread. */
static void test_refs_not_taken(void **state)
{
	static struct xl_meter_sample s;
	struct xl_meter ceiling = SOFTIRQ_METER, threaded = SOFTIRQ_METER;

	(void)state;
	ceiling.no_sirq = true;
	threaded.napi_pid = getpid(); /* a task with a schedstat */
	assert_int_equal(xl_meter_sample(&ceiling, &s), 0);
	assert_false(s.sirq_ok);
	assert_int_equal(s.sirq_gen, 0);
	assert_int_equal(xl_meter_sample(&threaded, &s), 0);
	assert_false(s.sirq_ok);
	assert_int_equal(fake.loads, 0);
	assert_int_equal(xl_sirq_users(), 0);
	xl_meter_done(&ceiling);
	xl_meter_done(&threaded);
	xl_sirq_put(); /* without a reference: nothing */
	assert_int_equal(xl_sirq_users(), 0);
	assert_int_equal(fake.unloads, 0);
}

/* xl_meter_prepare(): the load before any sample, softirq wiring only; the first sample reuses it. */
static void test_refs_prepare(void **state)
{
	static struct xl_meter_sample s;
	struct xl_meter m = SOFTIRQ_METER, threaded = SOFTIRQ_METER, ceiling = SOFTIRQ_METER;

	(void)state;
	threaded.napi_pid = getpid();
	ceiling.no_sirq = true;
	xl_meter_prepare(&threaded);
	xl_meter_prepare(&ceiling);
	assert_int_equal(fake.loads, 0);
	xl_meter_prepare(&m);
	assert_int_equal(fake.loads, 1);
	assert_int_equal(xl_sirq_users(), 1);
	xl_meter_prepare(&m); /* once */
	assert_int_equal(xl_meter_sample(&m, &s), 0);
	assert_true(s.sirq_ok);
	assert_int_equal(fake.loads, 1);
	assert_int_equal(xl_sirq_users(), 1);
	xl_meter_done(&m);
	assert_int_equal(xl_sirq_users(), 0);
	assert_int_equal(fake.unloads, 1);
}

/*
 * XDPLAB_SOFTIRQ_SOURCE=proc-stat keeps the meters off them, for the
 * process (the choice is made once); a reference asked for outright (the
 * meter-cost row's hook) still loads them.
 */
static void test_refs_env_off(void **state)
{
	static struct xl_meter_sample s;
	struct xl_meter m = SOFTIRQ_METER;

	(void)state;
	setenv(XL_SIRQ_ENV, "proc-stat", 1);
	xl_sirq__set_ops(&fake_ops); /* forget the choice: read the variable again */
	assert_int_equal(xl_meter_sample(&m, &s), 0);
	assert_false(s.sirq_ok);
	assert_false(m.sirq_held);
	setenv(XL_SIRQ_ENV, "tracepoint", 1);
	assert_int_equal(xl_meter_sample(&m, &s), 0); /* kept: still off */
	assert_false(m.sirq_held);
	assert_int_equal(fake.loads, 0);
	assert_int_equal(xl_sirq_get(), 0);
	assert_int_equal(fake.loads, 1);
	xl_sirq_put();
	xl_meter_done(&m);
}

/* The source for each value of XDPLAB_SOFTIRQ_SOURCE and IRQ time accounting. */
static void test_choose(void **state)
{
	static const struct {
		const char *env;
		int irqtime, ret;
		enum xl_sirq_src src;
	} cases[] = {
		{ NULL, 0, 0, XL_SIRQ_SRC_TRACEPOINT },
		{ NULL, -1, 0, XL_SIRQ_SRC_TRACEPOINT },
		{ NULL, 1, 0, XL_SIRQ_SRC_PROCSTAT_IRQTIME },
		{ "", 1, 0, XL_SIRQ_SRC_PROCSTAT_IRQTIME },
		{ "auto", 0, 0, XL_SIRQ_SRC_TRACEPOINT },
		{ "auto", 1, 0, XL_SIRQ_SRC_PROCSTAT_IRQTIME },
		{ "tracepoint", 1, 0, XL_SIRQ_SRC_TRACEPOINT },
		{ "tracepoint", 0, 0, XL_SIRQ_SRC_TRACEPOINT },
		{ "proc-stat", 0, 0, XL_SIRQ_SRC_PROCSTAT },
		{ "proc-stat", -1, 0, XL_SIRQ_SRC_PROCSTAT },
		{ "proc-stat", 1, 0, XL_SIRQ_SRC_PROCSTAT_IRQTIME },
		{ "Proc-stat", 1, -EINVAL, XL_SIRQ_SRC_PROCSTAT_IRQTIME },
		{ "bpf", 0, -EINVAL, XL_SIRQ_SRC_TRACEPOINT },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum xl_sirq_src src = 99;

		assert_int_equal(xl_sirq_choose(cases[i].env, cases[i].irqtime, &src), cases[i].ret);
		assert_int_equal(src, cases[i].src);
	}
}

/*
 * /proc/stat's softirq time read on a kernel with IRQ time accounting (no
 * tracepoints): "proc-stat-irqtime"; an edge read without it: "proc-stat".
 */
static void test_meter_irqtime_source(void **state)
{
	static struct xl_meter_sample a, b;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w;

	(void)state;
	sample(&a, 1000000000ull, 0, 0, 0, 0, false);
	sample(&b, 2000000000ull, 10000000, 650000000, 0, 0, false);
	a.irqtime = b.irqtime = true;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_PROCSTAT_IRQTIME);
	assert_int_equal(w.cpu_ns.n, 650000000);
	assert_dbl_equal(w.cpu_ns_per_pkt, 65.0);
	a.irqtime = false;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_PROCSTAT);
	/* The tracepoints read at both edges win over either. */
	sample(&a, 1000000000ull, 0, 0, 50000000, 100, true);
	sample(&b, 2000000000ull, 10000000, 600000000, 763500000, 100100, true);
	a.irqtime = b.irqtime = true;
	xl_meter_window(&m, &a, &b, &w);
	assert_string_equal(w.cpu_source, XL_CPU_SRC_TRACEPOINT);
}

/* A failed load is kept: no reference, not retried by later samples. */
static void test_refs_failed_load_kept(void **state)
{
	static struct xl_meter_sample s;
	struct xl_meter m = SOFTIRQ_METER;

	(void)state;
	fake.fail = -EPERM;
	assert_int_equal(xl_meter_sample(&m, &s), 0);
	assert_false(s.sirq_ok);
	assert_int_equal(xl_meter_sample(&m, &s), 0);
	assert_int_equal(xl_sirq_get(), -EPERM);
	assert_int_equal(fake.loads, 1);
	assert_int_equal(xl_sirq_users(), 0);
	xl_meter_done(&m);
	/* The ops cannot change under a holder. */
	fake.fail = 0;
	assert_int_equal(xl_sirq__set_ops(&fake_ops), 0);
	assert_int_equal(xl_sirq_get(), 0);
	assert_int_equal(xl_sirq__set_ops(NULL), -EBUSY);
	xl_sirq_put();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_ns_finished_runs),
		cmocka_unit_test(test_cpu_ns_run_in_progress),
		cmocka_unit_test(test_meter_prefers_tracepoint),
		cmocka_unit_test(test_meter_generation_mismatch),
		cmocka_unit_test(test_meter_kthread_source),
		cmocka_unit_test(test_meter_irqtime_source),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_sum_sources_and_row),
		cmocka_unit_test_setup_teardown(test_refs_shared_by_meters, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_refs_scoped_meter, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_refs_not_taken, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_refs_prepare, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_refs_env_off, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_refs_failed_load_kept, fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
