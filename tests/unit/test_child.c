// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_child.c - xl_child_spawn_opts() (src/lib/core/child.c), what perf
 * needs of it: an fd passed under its own number (perf's --control
 * fd:CTL,ACK), stderr and stdout to a file of ours, argv never seen by a
 * shell, and the refusals (an fd below 3, too many fds); a wait status
 * in words (xl_wait_status_str()), from real children that exit 0, exit 1
 * and are killed by SIGKILL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "xdplab/child.h"
#include "test_util.h"

static char dir[PATH_MAX / 4];

static int setup(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "child");
}

static int teardown(void **state)
{
	return tmp_dir_remove(dir);
}

/* A new file in our directory, open close-on-exec and already unlinked. */
static int anon_file(void)
{
	char tmpl[PATH_MAX];
	int fd;

	snprintf(tmpl, sizeof(tmpl), "%s/out.XXXXXX", dir);
	fd = mkostemp(tmpl, O_CLOEXEC);
	assert_true(fd >= 0);
	unlink(tmpl);
	return fd;
}

/* Up to @len - 1 bytes of @fd from offset 0, as a string. */
static const char *read_all(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_pass_fd_and_err_fd(void **state)
{
	char buf[128], arg[64];
	int sv[2], err_fd = anon_file();
	struct xl_child_opts o = { .err_fd = err_fd, .out_to_err = true, .npass = 1 };
	struct xl_child c;
	ssize_t n;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	o.pass_fds = &sv[1];
	snprintf(arg, sizeof(arg), "echo ctl >&%d; echo out; echo err >&2", sv[1]);
	assert_int_equal(xl_child_spawn_opts(&c, (char *[]){ "sh", "-c", arg, NULL }, &o), 0);
	close(sv[1]);
	n = read(sv[0], buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "ctl\n");
	assert_int_equal(xl_child_stop(&c, 0, 5000), 0);
	assert_string_equal(read_all(err_fd, buf, sizeof(buf)), "out\nerr\n");
	/* ours stays open, and close-on-exec */
	assert_true(fcntl(err_fd, F_GETFD) & FD_CLOEXEC);
	close(sv[0]);
	close(err_fd);
}

/* An argument with a quote and $(...) is one argument, not shell text. */
static void test_argv_not_a_shell(void **state)
{
	char buf[PATH_MAX + 64], evil[PATH_MAX + 64], pwned[PATH_MAX];
	int out = anon_file();
	struct xl_child_opts o = { .err_fd = out, .out_to_err = true };
	struct xl_child c;

	snprintf(pwned, sizeof(pwned), "%s/pwned", dir);
	snprintf(evil, sizeof(evil), "a'$(touch %s)'b", pwned);
	assert_int_equal(xl_child_spawn_opts(&c, (char *[]){ "printf", "%s", evil, NULL }, &o), 0);
	assert_int_equal(xl_child_stop(&c, 0, 5000), 0);
	assert_string_equal(read_all(out, buf, sizeof(buf)), evil);
	assert_int_equal(access(pwned, F_OK), -1);
	close(out);
}

static void test_refusals(void **state)
{
	int low = 2, many[XL_CHILD_MAX_PASS + 1] = { 3, 3, 3, 3, 3 };
	struct xl_child_opts o = { .err_fd = -1, .pass_fds = &low, .npass = 1 };
	struct xl_child c;

	assert_int_equal(xl_child_spawn_opts(&c, (char *[]){ "true", NULL }, &o), -EBADF);
	assert_int_equal(c.pid, 0);
	o.pass_fds = many;
	o.npass = XL_CHILD_MAX_PASS + 1;
	assert_int_equal(xl_child_spawn_opts(&c, (char *[]){ "true", NULL }, &o), -EINVAL);
	o.npass = 0;
	assert_int_equal(xl_child_spawn_opts(&c, (char *[]){ "xl-no-such-program", NULL }, &o),
			 -ENOENT);
}

/* The wait status of a child that exits @code, or is killed by @sig when not 0. */
static int status_of(int code, int sig)
{
	pid_t pid = fork();
	int st = 0;

	assert_true(pid >= 0);
	if (!pid) {
		if (sig)
			raise(sig);
		_exit(code);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void test_wait_status_str(void **state)
{
	char buf[48];

	assert_string_equal(xl_wait_status_str(status_of(0, 0), buf, sizeof(buf)), "exited 0");
	assert_string_equal(xl_wait_status_str(status_of(1, 0), buf, sizeof(buf)), "exited 1");
	assert_string_equal(xl_wait_status_str(status_of(0, SIGKILL), buf, sizeof(buf)),
			    "killed by signal 9");
	/* pclose()'s status is the same */
	assert_string_equal(xl_wait_status_str(256, buf, sizeof(buf)), "exited 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_fd_and_err_fd),
		cmocka_unit_test(test_argv_not_a_shell),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_wait_status_str),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
