// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_sysstat.c - the /proc/stat reader (src/lib/sys/sysstat.c) over
 * crafted files: exact values per CPU, an offline CPU without a line, a
 * line the read cut, the aggregate line skipped, and that one kept file is
 * re-read per call (a rewritten file shows its new values), through the
 * xl_cpu_times_set_source() seam; CPU lists as text and the CPUs off a
 * (stand-in) NAPI kthread; kernel configuration lines and files, plain and
 * gzip (CONFIG_IRQ_TIME_ACCOUNTING's detection).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "xdplab/sysstat.h"

#include "test_util.h"

/* One tick in ns on this machine (USER_HZ, 100 nearly everywhere). */
static uint64_t tick(void)
{
	return (uint64_t)(1e9 / sysconf(_SC_CLK_TCK));
}

static const char stat_text[] =
	"cpu  900 900 900 900 900 900 900 900 0 0\n"
	"cpu0 1 2 3 100 4 5 6 7 0 0\n"
	"cpu2 10 20 30 1000 40 50 60 70 8 9\n"
	"intr 12345 1 2 3\n"
	"cpu3 1 1 1 1 1 1 1 1 0 0\n";

static void test_parse_exact(void **state)
{
	struct xl_cpu_times t[4];
	bool ok[4];

	(void)state;
	memset(t, 0, sizeof(t));
	assert_int_equal(xl_cpu_times_parse(stat_text, strlen(stat_text), t, ok, 4), 2);
	assert_true(ok[0]);
	assert_false(ok[1]); /* offline: no line */
	assert_true(ok[2]);
	assert_false(ok[3]); /* after the per-CPU block: not a CPU line of it */
	/* busy = user+nice+system+irq+softirq+steal; total = busy+idle+iowait */
	assert_int_equal(t[0].busy, (1 + 2 + 3 + 5 + 6 + 7) * tick());
	assert_int_equal(t[0].softirq, 6 * tick());
	assert_int_equal(t[0].total, (1 + 2 + 3 + 5 + 6 + 7 + 100 + 4) * tick());
	assert_int_equal(t[2].busy, (10 + 20 + 30 + 50 + 60 + 70) * tick());
	assert_int_equal(t[2].softirq, 60 * tick());
	assert_int_equal(t[2].total, (10 + 20 + 30 + 50 + 60 + 70 + 1000 + 40) * tick());
	/* Fewer slots than CPUs: CPU 2 is skipped, not written past @n. */
	assert_int_equal(xl_cpu_times_parse(stat_text, strlen(stat_text), t, ok, 1), 1);
}

static void test_parse_cut_line(void **state)
{
	struct xl_cpu_times t[4] = { 0 };
	bool ok[4];
	/* The read ended inside cpu2's line: only cpu0 is trusted. */
	size_t cut = strstr(stat_text, "cpu2") - stat_text + 12;

	(void)state;
	assert_int_equal(xl_cpu_times_parse(stat_text, cut, t, ok, 4), 1);
	assert_true(ok[0]);
	assert_false(ok[2]);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

#define AGG "cpu  1 1 1 1 1 1 1 1 0 0\n"

static void test_read_all_kept_file(void **state)
{
	char dir[256], path[300];
	struct xl_cpu_times t[3], one;
	bool ok[3];
	int fd;

	(void)state;
	assert_int_equal(tmp_dir_make(dir, sizeof(dir), "stat"), 0);
	snprintf(path, sizeof(path), "%s/stat", dir);
	write_file(path, AGG
			 "cpu0 1 0 0 10 0 0 0 0 0 0\n"
			 "cpu1 2 0 0 20 0 0 3 0 0 0\n"
			 "intr 1\n");
	xl_cpu_times_set_source(path);
	assert_int_equal(xl_cpu_times_read_all(t, ok, 3), 2);
	assert_true(ok[0] && ok[1] && !ok[2]);
	assert_int_equal(t[1].busy, 5 * tick());
	assert_int_equal(t[1].softirq, 3 * tick());
	/*
	 * Rewritten in place (same inode, as /proc/stat regenerates): the kept
	 * file is re-read from its start, not from where the last read ended.
	 */
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "cpu0 7", 6, strlen(AGG)), 6);
	close(fd);
	assert_int_equal(xl_cpu_times_read_all(t, ok, 3), 2);
	assert_int_equal(t[0].busy, 7 * tick());
	assert_int_equal(xl_cpu_times_read(1, &one), 0);
	assert_int_equal(one.total, 25 * tick());
	assert_int_equal(xl_cpu_times_read(2, &one), -ENOENT);
	unlink(path);
	/* The kept file is gone from the name, not from the reader. */
	assert_int_equal(xl_cpu_times_read_all(t, ok, 3), 2);
	xl_cpu_times_set_source(path); /* reopens on the next read: no file */
	assert_int_equal(xl_cpu_times_read_all(t, ok, 3), -ENOENT);
	assert_false(ok[0]);
	xl_cpu_times_set_source(NULL);
	assert_int_equal(tmp_dir_remove(dir), 0);
	/* The real file: this machine's CPU 0 has a line. */
	assert_true(xl_cpu_times_read_all(t, ok, 1) == 1 && ok[0]);
}

/*
 * A task's run time through the kept /proc/PID/schedstat: read, read again
 * (the same file re-read from its start: never less), and 0 once the task
 * has exited and been reaped.
 */
/*
 * A child that spins (@spin) or sleeps until killed, and is killed with
 * this test program if an assertion ends a test before its kill(): a
 * spinning orphan once held a CPU for 14 minutes.
 */
static pid_t child_until_killed(bool spin)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0); /* the parent went before the line above */
	if (spin) {
		volatile unsigned long x = 0;

		for (;;)
			x++;
	}
	for (;;)
		pause();
}

static void test_task_runtime_kept(void **state)
{
	uint64_t a, b;
	pid_t pid;
	int st;

	(void)state;
	pid = child_until_killed(true);
	assert_true(pid > 0);
	usleep(20000);
	a = xl_task_runtime_ns(pid);
	usleep(20000);
	b = xl_task_runtime_ns(pid);
	assert_true(a > 0);
	assert_true(b >= a);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(xl_task_runtime_ns(pid), 0);
	assert_int_equal(xl_task_runtime_ns(0), 0);
	assert_true(xl_task_runtime_ns(getpid()) > 0);
}

/*
 * The run delay is schedstat's second field, the CPU time its first, read
 * from the kept file: a child asleep in pause() (state S in /proc/PID/stat)
 * keeps both still, so they equal the file's own text exactly; a reaped
 * child reads 0 and 0.
 */
static void test_task_wait_fields(void **state)
{
	unsigned long long run, wait;
	char path[64], buf[256], st_ch = 0;
	uint64_t r = 1, w;
	FILE *f;
	pid_t pid;
	int st, i;

	(void)state;
	pid = child_until_killed(false);
	assert_true(pid > 0);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 500 && st_ch != 'S'; i++) {
		usleep(2000);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_non_null(fgets(buf, sizeof(buf), f));
		fclose(f);
		st_ch = strrchr(buf, ')')[2];
	}
	assert_int_equal(st_ch, 'S');
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu", &run, &wait), 2);
	fclose(f);
	w = xl_task_wait_ns(pid, &r);
	assert_true(run > 0);
	assert_int_equal(r, run);
	assert_int_equal(w, wait);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(xl_task_wait_ns(pid, &r), 0);
	assert_int_equal(r, 0);
}

/* ksoftirqd/0 from the kept pid is what a walk of /proc finds, every time. */
static void test_ksoftirqd_kept(void **state)
{
	int pid = xl_ksoftirqd_pid(0);

	(void)state;
	assert_true(pid > 0);
	assert_int_equal(xl_kthread_pid("ksoftirqd/0\n"), pid);
	assert_int_equal(xl_ksoftirqd_pid(0), pid);
	assert_int_equal(xl_ksoftirqd_pid(100000), 0); /* no such CPU: a walk, nothing */
}

/* CPU lists as /proc's Cpus_allowed_list writes them; a short buffer cuts, terminated. */
static void test_cpu_list_text(void **state)
{
	static const struct { int cpus[6], n; const char *want; } cases[] = {
		{ { 0 }, 0, "" },
		{ { 0 }, 1, "0" },
		{ { 1, 2, 3, 5 }, 4, "1-3,5" },
		{ { 0, 2, 4 }, 3, "0,2,4" },
		{ { 6, 7 }, 2, "6-7" },
	};
	char buf[32];
	cpu_set_t set;
	size_t i;
	int c;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CPU_ZERO(&set);
		for (c = 0; c < cases[i].n; c++)
			CPU_SET(cases[i].cpus[c], &set);
		memset(buf, 'x', sizeof(buf));
		xl_cpu_list_text(&set, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
	CPU_ZERO(&set);
	CPU_SET(1, &set), CPU_SET(2, &set), CPU_SET(3, &set), CPU_SET(5, &set);
	memset(buf, 'x', sizeof(buf));
	xl_cpu_list_text(&set, buf, 4);
	assert_string_equal(buf, "1-3");
}

/*
 * A stand-in for a NAPI kthread: a child pinned to the first CPU this
 * thread may use. Off it: every other CPU of ours (none on one CPU:
 * -ENOSPC); xl_keep_off_napi() moves this thread there, then finds it
 * already there (0). No kthread: -ESRCH.
 */
static void test_cpus_off_napi(void **state)
{
	cpu_set_t mine, away, napi, now, want;
	int first = -1, c, pid, st, n;

	(void)state;
	assert_int_equal(xl_cpus_off_napi(0, &away, NULL), -ESRCH);
	assert_int_equal(xl_keep_off_napi(-1, NULL), -ESRCH);
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	for (c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &mine))
			first = c;
	pid = child_until_killed(false);
	assert_true(pid > 0);
	assert_int_equal(xl_task_set_cpu(pid, first), 0);
	want = mine;
	CPU_CLR(first, &want);
	n = xl_cpus_off_napi(pid, &away, &napi);
	if (CPU_COUNT(&mine) == 1) {
		assert_int_equal(n, -ENOSPC);
		assert_int_equal(xl_keep_off_napi(pid, NULL), -ENOSPC);
	} else {
		assert_int_equal(n, CPU_COUNT(&mine) - 1);
		assert_true(CPU_EQUAL(&away, &want));
		assert_int_equal(CPU_COUNT(&napi), 1);
		assert_true(CPU_ISSET(first, &napi));
		assert_int_equal(xl_keep_off_napi(pid, &away), n);
		assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
		assert_true(CPU_EQUAL(&now, &want));
		assert_int_equal(xl_keep_off_napi(pid, NULL), 0);
		assert_int_equal(sched_setaffinity(0, sizeof(mine), &mine), 0);
	}
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(xl_cpus_off_napi(pid, &away, NULL), -ESRCH);
}

/* Kernel configuration lines: only a whole "NAME=y" line sets NAME. */
static void test_kconfig_has(void **state)
{
	static const char cfg[] = "# Automatically generated file\n"
				  "CONFIG_TICK_CPU_ACCOUNTING=y\n"
				  "# CONFIG_IRQ_TIME_ACCOUNTING is not set\n"
				  "CONFIG_HAVE_IRQ_TIME_ACCOUNTING=y\n"
				  "CONFIG_IRQ_TIME_ACCOUNTING_X=y\n"
				  "CONFIG_VETH=m\n"
				  "CONFIG_LAST=y";
	static const char on[] = "CONFIG_A=y\nCONFIG_IRQ_TIME_ACCOUNTING=y\n";

	(void)state;
	assert_int_equal(xl_kconfig_has(cfg, strlen(cfg), "CONFIG_IRQ_TIME_ACCOUNTING"), 0);
	assert_int_equal(xl_kconfig_has(cfg, strlen(cfg), "CONFIG_TICK_CPU_ACCOUNTING"), 1);
	assert_int_equal(xl_kconfig_has(cfg, strlen(cfg), "CONFIG_VETH"), 0);
	/* The last line without its newline still counts; cut one byte short, not. */
	assert_int_equal(xl_kconfig_has(cfg, strlen(cfg), "CONFIG_LAST"), 1);
	assert_int_equal(xl_kconfig_has(cfg, strlen(cfg) - 1, "CONFIG_LAST"), 0);
	assert_int_equal(xl_kconfig_has(on, strlen(on), "CONFIG_IRQ_TIME_ACCOUNTING"), 1);
	assert_int_equal(xl_kconfig_has(on, 0, "CONFIG_A"), 0);
}

/* The same through a file, plain (/boot/config-*) or gzip (/proc/config.gz). */
static void test_kconfig_file_has(void **state)
{
	static const char on[] = "CONFIG_A=y\nCONFIG_IRQ_TIME_ACCOUNTING=y\n";
	char dir[256], plain[300], gz[300], missing[300];
	gzFile f;

	(void)state;
	assert_int_equal(tmp_dir_make(dir, sizeof(dir), "kconfig"), 0);
	snprintf(plain, sizeof(plain), "%s/config", dir);
	snprintf(gz, sizeof(gz), "%s/config.gz", dir);
	snprintf(missing, sizeof(missing), "%s/none", dir);
	write_file(plain, "# CONFIG_IRQ_TIME_ACCOUNTING is not set\nCONFIG_A=y\n");
	f = gzopen(gz, "wb");
	assert_non_null(f);
	assert_int_equal(gzwrite(f, on, strlen(on)), (int)strlen(on));
	assert_int_equal(gzclose(f), Z_OK);
	assert_int_equal(xl_kconfig_file_has(gz, "CONFIG_IRQ_TIME_ACCOUNTING"), 1);
	assert_int_equal(xl_kconfig_file_has(plain, "CONFIG_IRQ_TIME_ACCOUNTING"), 0);
	assert_int_equal(xl_kconfig_file_has(plain, "CONFIG_A"), 1);
	assert_int_equal(xl_kconfig_file_has(missing, "CONFIG_A"), -ENOENT);
	assert_int_equal(tmp_dir_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_exact),
		cmocka_unit_test(test_parse_cut_line),
		cmocka_unit_test(test_read_all_kept_file),
		cmocka_unit_test(test_task_runtime_kept),
		cmocka_unit_test(test_task_wait_fields),
		cmocka_unit_test(test_ksoftirqd_kept),
		cmocka_unit_test(test_cpu_list_text),
		cmocka_unit_test(test_cpus_off_napi),
		cmocka_unit_test(test_kconfig_has),
		cmocka_unit_test(test_kconfig_file_has),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
