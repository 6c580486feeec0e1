// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_noise.c - what makes noise, recorded (issue 19 item 5), over fake
 * trees: /proc/stat's steal column and procs_running line (the parser, and
 * the kept reader through xl_cpu_times_set_source()), a window's steal
 * share and load from two samples (xl_meter_window()) and the threshold
 * mark, the governor, boost and SMT from a fake sysfs tree
 * (xl_env_read_noise()), and a device's IRQs and their affinity
 * (xl_irq_affinity(): MSI, legacy, none as veth).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"
#include "xdplab/env.h"
#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/sysstat.h"

static uint64_t tick(void)
{
	return (uint64_t)(1e9 / sysconf(_SC_CLK_TCK));
}

static const char stat_text[] =
	"cpu  900 900 900 900 900 900 900 900 0 0\n"
	"cpu0 1 2 3 100 4 5 6 7 0 0\n"
	"cpu1 10 20 30 1000 40 50 60 70 8 9\n"
	"intr 12345 1 2 3\n"
	"ctxt 99\n"
	"procs_running 17\n"
	"procs_blocked 2\n";

static void test_parse_steal_and_procs_running(void **state)
{
	struct xl_cpu_times t[2];
	bool ok[2];
	int running = 0;

	(void)state;
	assert_int_equal(xl_cpu_times_parse_load(stat_text, strlen(stat_text), t, ok, 2, &running), 2);
	assert_int_equal(t[0].steal, 7 * tick());
	assert_int_equal(t[1].steal, 70 * tick());
	/* steal stays in busy (as before), so a share of total is a share of the window */
	assert_int_equal(t[0].busy, (1 + 2 + 3 + 5 + 6 + 7) * tick());
	assert_int_equal(running, 17);
	/* The read ended inside the line: not trusted. */
	assert_int_equal(xl_cpu_times_parse_load(stat_text, strstr(stat_text, "17") - stat_text + 1,
						 t, ok, 2, &running), 2);
	assert_int_equal(running, -1);
	/* No such line, or no digits in it. */
	assert_int_equal(xl_cpu_times_parse_load(stat_text, strstr(stat_text, "procs_running") -
							 stat_text, t, ok, 2, &running), 2);
	assert_int_equal(running, -1);
	assert_int_equal(xl_cpu_times_parse_load("cpu0 1 1 1 1\nprocs_running \n", 29, t, ok, 1,
						 &running), 1);
	assert_int_equal(running, -1);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/*
 * The kept reader reads to the file's end for procs_running: a file whose
 * first read (1408 bytes for 2 CPUs) ends just inside the procs_running
 * line, after a whole "intr" line (which used to end the reading: the CPU
 * lines were all in), still gives it; a longer "intr" line (6000 bytes, as
 * on a machine with many IRQs) too; and the same read gives every CPU line.
 */
static void test_read_load_long_file(void **state)
{
	char dir[256], path[300];
	struct xl_cpu_times t[2];
	bool ok[2];
	int running = 0, i, k, want;
	char *text = malloc(16384), *p;

	(void)state;
	assert_int_equal(tmp_dir_make(dir, sizeof(dir), "noise-stat"), 0);
	snprintf(path, sizeof(path), "%s/stat", dir);
	assert_non_null(text);
	for (k = 0; k < 2; k++) {
		p = text + sprintf(text, "cpu  1 1 1 1 1 1 1 1 0 0\ncpu0 1 0 0 10 0 0 0 3 0 0\n"
					 "cpu1 2 0 0 20 0 0 0 4 0 0\nintr 1");
		/* The procs_running line starts at byte 1400, or at 6000. */
		want = (k ? 6000 : 1400) - (int)strlen("\nctxt 5\nbtime 1\n");
		while (p - text < want - 2)
			p += sprintf(p, " 0");
		p += sprintf(p, want - (p - text) == 2 ? " 0" : "0");
		p += sprintf(p, "\nctxt 5\nbtime 1\n");
		if (!k)
			assert_int_equal(p - text, 1400);
		sprintf(p, "procs_running %d\nprocs_blocked 0\n", 3 + k);
		write_file(path, text);
		xl_cpu_times_set_source(path);
		for (i = 0; i < 2; i++) {
			/* Twice: the first read grows the buffer, the second uses it. */
			running = 0;
			assert_int_equal(xl_cpu_times_read_load(t, ok, 2, &running), 2);
			assert_int_equal(running, 3 + k);
			assert_int_equal(t[1].steal, 4 * tick());
		}
		/* The CPU lines only (xl_cpu_times_read_all()) still work. */
		assert_int_equal(xl_cpu_times_read_all(t, ok, 2), 2);
	}
	xl_cpu_times_set_source(NULL);
	assert_int_equal(tmp_dir_remove(dir), 0);
	free(text);
}

/* A sample of CPU 0 at @t_ns with @steal of @total ns and @running tasks. */
static void sample(struct xl_meter_sample *s, uint64_t t_ns, uint64_t rx, uint64_t steal,
		   uint64_t total, int running)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = s->cpu_t_ns = t_ns;
	s->total.rx_packets = s->per_cpu[0].rx_packets = rx;
	s->cpu[0] = (struct xl_cpu_times){ .busy = total / 2, .steal = steal, .total = total };
	s->cpu_ok[0] = true;
	s->procs_running = running;
}

static void test_window_steal_and_load(void **state)
{
	static struct xl_meter_sample a, b, c;
	struct xl_meter m = { .napi_cpu = 0, .eth_sock = -1 };
	struct xl_meter_window w, w2, sum;
	struct xl_rep_result rep;

	(void)state;
	/* 60 ms of steal in a 1 s window: 6%, above the 5% mark. */
	sample(&a, 1000000000ull, 0, 10000000, 5000000000ull, 3);
	sample(&b, 2000000000ull, 1000, 70000000, 6000000000ull, 6);
	xl_meter_window(&m, &a, &b, &w);
	assert_int_equal(w.steal_ns.n, 60000000);
	assert_int_equal(w.steal_span_ns.n, 1000000000);
	assert_near(w.steal_share, 0.06, 1e-12);
	assert_true(w.steal_high);
	assert_dbl_equal(w.load, 4.5);
	xl_meter_window_rep(&w, &rep);
	assert_true(rep.steal_ok && rep.steal_high && rep.load_ok);
	assert_near(rep.steal_share, 0.06, 1e-12);
	assert_dbl_equal(rep.load, 4.5);
	/* 5% exactly is not above the mark. */
	sample(&c, 3000000000ull, 2000, 120000000, 7000000000ull, 2);
	xl_meter_window(&m, &b, &c, &w2);
	assert_near(w2.steal_share, 0.05, 1e-12);
	assert_false(w2.steal_high);
	/* A sum of windows: 110 ms of 2 s; the load over the four edges. */
	xl_meter_window_zero(&sum);
	xl_meter_window_add(&sum, &w);
	xl_meter_window_add(&sum, &w2);
	assert_near(sum.steal_share, 0.055, 1e-12);
	assert_true(sum.steal_high);
	assert_dbl_equal(sum.load, (3 + 6 + 6 + 2) / 4.0);
	/* A failed /proc/stat read: not known, never 0. */
	c.cpu_ok[0] = false;
	c.procs_running = -1;
	xl_meter_window(&m, &b, &c, &w2);
	assert_dbl_equal(w2.steal_share, -1);
	assert_false(w2.steal_high);
	assert_dbl_equal(w2.load, -1);
	xl_meter_window_rep(&w2, &rep);
	assert_false(rep.steal_ok || rep.load_ok);
	/* Another CPU's steal (the ceiling row judges the generator's). */
	{
		struct xl_delta st, span;

		xl_meter_steal(&a, &b, 1, &st, &span);
		assert_false(st.ok || span.ok);
		xl_meter_steal(&a, &b, 0, &st, &span);
		assert_int_equal(st.n, 60000000);
		assert_dbl_equal(xl_steal_share(&st, &span, NULL), 0.06);
		xl_meter_steal(&a, &b, -1, &st, &span);
		assert_false(st.ok);
	}
}

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	write_file(path, text);
}

static int make_root(void **state)
{
	(void)state;
	return tmp_dir_make(root, sizeof(root), "noise");
}

static int remove_root(void **state)
{
	(void)state;
	return tmp_dir_remove(root);
}

static void test_env_noise_fake_sysfs(void **state)
{
	struct xl_env e;

	(void)state;
	/* An empty tree (a VM with neither cpufreq nor smt): all unknown. */
	memset(&e, 0x55, sizeof(e));
	xl_env_read_noise(root, 4, &e);
	assert_string_equal(e.governor, "");
	assert_int_equal(e.boost, -1);
	assert_string_equal(e.smt, "");
	assert_int_equal(e.smt_active, -1);
	/* Every CPU with cpufreq agrees; cpu2 has none; boost from cpufreq/boost. */
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	put("/sys/devices/system/cpu/smt/control", "on\n");
	put("/sys/devices/system/cpu/smt/active", "1\n");
	xl_env_read_noise(root, 4, &e);
	assert_string_equal(e.governor, "performance");
	assert_int_equal(e.boost, 1);
	assert_string_equal(e.smt, "on");
	assert_int_equal(e.smt_active, 1);
	/* They differ: each CPU's; intel_pstate's no_turbo when no boost file. */
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/sys/devices/system/cpu/smt/control", "notsupported\n");
	put("/sys/devices/system/cpu/smt/active", "0\n");
	xl_env_read_noise(root, 4, &e);
	assert_string_equal(e.governor, "cpu0=performance cpu1=powersave cpu3=performance");
	assert_int_equal(e.boost, 0);
	assert_string_equal(e.smt, "notsupported");
	assert_int_equal(e.smt_active, 0);
	/* Only the CPUs asked for. */
	xl_env_read_noise(root, 1, &e);
	assert_string_equal(e.governor, "performance");
}

static void test_irq_affinity_fake_tree(void **state)
{
	char buf[64];

	(void)state;
	/* veth: no device/ link, no IRQ. */
	assert_int_equal(xl_irq_affinity(root, "veth0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* MSI IRQs, in number order (100 after 99), each with its CPUs. */
	put("/sys/class/net/eth0/device/msi_irqs/99", "msix\n");
	put("/sys/class/net/eth0/device/msi_irqs/100", "msix\n");
	put("/proc/irq/99/smp_affinity_list", "0-3\n");
	put("/proc/irq/100/smp_affinity_list", "1\n");
	assert_int_equal(xl_irq_affinity(root, "eth0", buf, sizeof(buf)), 2);
	assert_string_equal(buf, "99:0-3 100:1");
	/* A legacy IRQ; one whose affinity is unreadable shows "?". */
	put("/sys/class/net/eth1/device/irq", "11\n");
	assert_int_equal(xl_irq_affinity(root, "eth1", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "11:?");
	put("/proc/irq/11/smp_affinity_list", "2\n");
	assert_int_equal(xl_irq_affinity(root, "eth1", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "11:2");
	/* IRQ 0 is no IRQ (a device without one). */
	put("/sys/class/net/eth2/device/irq", "0\n");
	assert_int_equal(xl_irq_affinity(root, "eth2", buf, sizeof(buf)), 0);
	/* Cut short, still terminated. */
	assert_int_equal(xl_irq_affinity(root, "eth0", buf, 6), 2);
	assert_string_equal(buf, "99:0-");
	/* A name that would leave the device directory. */
	assert_int_equal(xl_irq_affinity(root, "../x", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(xl_irq_affinity(root, "", buf, sizeof(buf)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_steal_and_procs_running),
		cmocka_unit_test(test_read_load_long_file),
		cmocka_unit_test(test_window_steal_and_load),
		cmocka_unit_test_setup_teardown(test_env_noise_fake_sysfs, make_root, remove_root),
		cmocka_unit_test_setup_teardown(test_irq_affinity_fake_tree, make_root, remove_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
