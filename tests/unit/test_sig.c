// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_sig.c - the stop handler (src/cmd/sig.c): a stop in the process sets
 * xl_stop_requested and makes xl_stop_fd readable; a stop that a forked
 * child takes before its exec (perf, a spawned command) leaves the parent's
 * flag and eventfd alone. Before that rule the child's handler wrote the
 * shared eventfd, the parent's flag stayed 0, and every xl_cmd_wait() in the
 * parent returned at once from then on (a busy report loop).
 *
 * No root needed, no timing: poll() with a 0 timeout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"

/* Whether xl_stop_fd is readable now. */
static int stop_fd_readable(void)
{
	struct pollfd p = { .fd = xl_stop_fd, .events = POLLIN };

	return poll(&p, 1, 0);
}

static void test_child_stop_leaves_parent(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	xl_sig_install();
	assert_true(xl_stop_fd >= 0);
	assert_int_equal(stop_fd_readable(), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* The child, before any exec: the handler is still ours. */
		raise(SIGINT);
		_exit(xl_stop_requested == SIGINT ? 0 : 3);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(xl_stop_requested, 0);
	assert_int_equal(stop_fd_readable(), 0);
	/* The parent's own stop: the flag and the eventfd. */
	raise(SIGTERM);
	assert_int_equal(xl_stop_requested, SIGTERM);
	assert_int_equal(stop_fd_readable(), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_child_stop_leaves_parent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
