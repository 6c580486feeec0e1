// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_tmpdir.c - the run-owned temporary directories (src/lib/core/tmpdir.c):
 * they follow $TMPDIR, carry the maker's pid, and the sweep removes only a
 * dead process's (never a live one's, never through a symbolic link).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xdplab/tmpdir.h"
#include "test_util.h"

#define DEAD_PID 1073741000 /* above any pid_max (4194304 at most): never alive */

static char base[PATH_MAX / 8];

/* Our directory under the caller's $TMPDIR, then $TMPDIR set to it. */
static int setup(void **state)
{
	if (tmp_dir_make(base, sizeof(base), "tmpdir"))
		return -1;
	setenv("TMPDIR", base, 1);
	return 0;
}

static int teardown(void **state)
{
	return tmp_dir_remove(base);
}

static void test_tmpdir_env(void **state)
{
	assert_string_equal(xl_tmpdir(), base);
	setenv("TMPDIR", "", 1);
	assert_string_equal(xl_tmpdir(), "/tmp");
	unsetenv("TMPDIR");
	assert_string_equal(xl_tmpdir(), "/tmp");
	setenv("TMPDIR", base, 1);
}

/* Messages name $TMPDIR with its value (a TMPDIR that does not exist was not named). */
static void test_tmpdir_named(void **state)
{
	char buf[PATH_MAX];

	setenv("TMPDIR", "/nonexistent", 1);
	assert_string_equal(xl_tmpdir_named(buf, sizeof(buf)), "TMPDIR=/nonexistent");
	setenv("TMPDIR", "", 1);
	assert_string_equal(xl_tmpdir_named(buf, sizeof(buf)), "/tmp");
	unsetenv("TMPDIR");
	assert_string_equal(xl_tmpdir_named(buf, sizeof(buf)), "/tmp");
	setenv("TMPDIR", base, 1);
}

static void test_mkdtemp_name(void **state)
{
	char buf[PATH_MAX], want[PATH_MAX], small[16];
	struct stat st;

	assert_int_equal(xl_run_mkdtemp(buf, sizeof(buf), "xdplab-ssh"), 0);
	snprintf(want, sizeof(want), "%s/xdplab-ssh.%d.", base, (int)getpid());
	assert_int_equal(strncmp(buf, want, strlen(want)), 0);
	assert_int_equal(strlen(buf), strlen(want) + 6);
	assert_int_equal(stat(buf, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(xl_run_dir_pid(strrchr(buf, '/') + 1, "xdplab-ssh"), getpid());
	assert_int_equal(xl_run_mkdtemp(small, sizeof(small), "xdplab-ssh"), -ENAMETOOLONG);
	rmdir(buf);
}

static void test_dir_pid(void **state)
{
	assert_int_equal(xl_run_dir_pid("xdplab-ssh.123.abcDEF", "xdplab-ssh"), 123);
	assert_int_equal(xl_run_dir_pid("xdplab-perf.123.abcDEF", "xdplab-ssh"), 0);
	assert_int_equal(xl_run_dir_pid("xdplab-ssh.abcDEF", "xdplab-ssh"), 0); /* the old name */
	assert_int_equal(xl_run_dir_pid("xdplab-ssh.0.abcDEF", "xdplab-ssh"), 0);
	assert_int_equal(xl_run_dir_pid("xdplab-ssh.12.abcDE", "xdplab-ssh"), 0);
	assert_int_equal(xl_run_dir_pid("xdplab-ssh.12x.abcDEF", "xdplab-ssh"), 0);
	assert_int_equal(xl_run_dir_pid("xdplab-sshX12.abcDEF", "xdplab-ssh"), 0);
}

static int nremoved;

static void on_removed(const char *path, pid_t pid, void *ctx)
{
	assert_int_equal(pid, DEAD_PID);
	nremoved++;
}

static void test_sweep(void **state)
{
	static const char *const prefixes[] = { "xdplab-ssh", "xdplab-perf", NULL };
	char dead[PATH_MAX / 2], live[PATH_MAX / 2], file[PATH_MAX], target[PATH_MAX / 2];
	char link[PATH_MAX / 2];

	snprintf(dead, sizeof(dead), "%s/xdplab-perf.%d.aaaaaa", base, DEAD_PID);
	snprintf(live, sizeof(live), "%s/xdplab-ssh.%d.bbbbbb", base, (int)getpid());
	snprintf(target, sizeof(target), "%s/keep", base);
	snprintf(link, sizeof(link), "%s/xdplab-ssh.%d.cccccc", base, DEAD_PID);
	assert_int_equal(mkdir(dead, 0700), 0);
	assert_int_equal(mkdir(live, 0700), 0);
	assert_int_equal(mkdir(target, 0700), 0);
	snprintf(file, sizeof(file), "%s/stderr", dead);
	fclose(fopen(file, "w"));
	snprintf(file, sizeof(file), "%s/precious", target);
	fclose(fopen(file, "w"));
	assert_int_equal(symlink(target, link), 0);

	nremoved = 0;
	assert_int_equal(xl_run_dirs_sweep(prefixes, on_removed, NULL), 1);
	assert_int_equal(nremoved, 1);
	assert_int_equal(access(dead, F_OK), -1);  /* the dead run's, with its file */
	assert_int_equal(access(live, F_OK), 0);   /* ours: alive */
	assert_int_equal(access(file, F_OK), 0);   /* not through the link */
	assert_int_equal(xl_run_dirs_sweep(prefixes, NULL, NULL), 0);
	assert_true(xl_pid_alive(getpid()));
	assert_false(xl_pid_alive(DEAD_PID));
}

/* The one name parser of the pid-named records: PREFIX PID, then the end or TAIL XXXXXX. */
static void test_pid_name(void **state)
{
	static const struct {
		const char *name, *prefix;
		char tail;
		pid_t want;
	} c[] = {
		{ "jit_kallsyms.123", "jit_kallsyms.", '\0', 123 },
		{ "jit_kallsyms.123x", "jit_kallsyms.", '\0', 0 },
		{ "jit_kallsyms.", "jit_kallsyms.", '\0', 0 },
		{ "jit_kallsyms.0123", "jit_kallsyms.", '\0', 0 },
		{ "jit_kallsyms.-5", "jit_kallsyms.", '\0', 0 },
		{ "jit_kallsyms.1073741824", "jit_kallsyms.", '\0', 0 },
		{ "jit_kallsyms.99999999999999999999", "jit_kallsyms.", '\0', 0 },
		{ "clsact.4026531840.7.42", "clsact.4026531840.7.", '\0', 42 },
		{ "clsact.4026531840.17.42", "clsact.4026531840.1", '\0', 0 },
		{ "xdplab-prog-77-abcDEF", "xdplab-prog-", '-', 77 },
		{ "xdplab-prog-77-abcDE", "xdplab-prog-", '-', 0 },
		{ "xdplab-prog-77.abcDEF", "xdplab-prog-", '-', 0 },
		{ "xdplab-prog-77", "xdplab-prog-", '-', 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_int_equal(xl_pid_name(c[i].name, c[i].prefix, c[i].tail), c[i].want);
}

static int take_fails(const char *path, pid_t pid, void *ctx)
{
	(*(int *)ctx)++;
	return -EIO;
}

static void on_record(const char *path, pid_t pid, void *ctx)
{
	assert_int_equal(pid, DEAD_PID);
	(*(int *)ctx)++;
}

/* Files and directories, dead and live, a link: only the dead run's own are removed. */
static void test_records_sweep(void **state)
{
	char dir[PATH_MAX / 4], dead[PATH_MAX / 2], live[PATH_MAX / 2], sub[PATH_MAX / 2];
	char file[PATH_MAX], link[PATH_MAX / 2], target[PATH_MAX / 2];
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/records", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dead, sizeof(dead), "%s/rec.%d", dir, DEAD_PID);
	snprintf(live, sizeof(live), "%s/rec.%d", dir, (int)getpid());
	snprintf(sub, sizeof(sub), "%s/rec.%d.abcdef", dir, DEAD_PID); /* another form */
	fclose(fopen(dead, "w"));
	fclose(fopen(live, "w"));
	fclose(fopen(sub, "w"));
	snprintf(target, sizeof(target), "%s/keep-file", base);
	fclose(fopen(target, "w"));
	snprintf(link, sizeof(link), "%s/rec.%d", dir, DEAD_PID + 1);
	assert_int_equal(symlink(target, link), 0);

	assert_int_equal(xl_pid_records_live(dir, "rec.", '\0'), 1);
	assert_int_equal(xl_pid_records_sweep(dir, "rec.", '\0', take_fails, NULL, &n), -EIO);
	assert_int_equal(n, 1);
	assert_int_equal(access(dead, F_OK), 0);
	n = 0;
	assert_int_equal(xl_pid_records_sweep(dir, "rec.", '\0', NULL, on_record, &n), 1);
	assert_int_equal(n, 1);
	assert_int_equal(access(dead, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	assert_int_equal(access(sub, F_OK), 0);
	assert_int_equal(access(target, F_OK), 0);
	assert_int_equal(access(link, F_OK), 0); /* a link is nobody's record: left */

	/* A directory record goes with its files (the pin directories). */
	snprintf(dead, sizeof(dead), "%s/pins-%d-abcdef", dir, DEAD_PID);
	assert_int_equal(mkdir(dead, 0700), 0);
	snprintf(file, sizeof(file), "%s/map", dead);
	fclose(fopen(file, "w"));
	n = 0;
	assert_int_equal(xl_pid_records_sweep(dir, "pins-", '-', NULL, on_record, &n), 1);
	assert_int_equal(n, 1);
	assert_int_equal(access(dead, F_OK), -1);
	snprintf(file, sizeof(file), "%s/none", base);
	assert_int_equal(xl_pid_records_sweep(file, "rec.", '\0', NULL, NULL, NULL), -ENOENT);
	assert_int_equal(xl_pid_records_live(file, "rec.", '\0'), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tmpdir_env),
		cmocka_unit_test(test_tmpdir_named),
		cmocka_unit_test(test_mkdtemp_name),
		cmocka_unit_test(test_dir_pid),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_pid_name),
		cmocka_unit_test(test_records_sweep),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
