// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_procfd.c - xl_proc_fd_owner() with xl_proc_fd_links_to()
 * (src/lib/sys/procfd.c), the /proc walk behind "held by pid N NAME" for
 * XDP links and AF_XDP sockets: a child named xl-holder holds one end of a
 * pipe; the walk finds it (not this process, which holds the other end:
 * the match passes over it) and names it;
 * a descriptor nobody has gives 0 and an empty name. No root needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/lib/sys/procfd.h"

static void test_owner_found_and_named(void **state)
{
	int p[2], ready[2], status;
	char want[48], comm[32] = "x", c;
	struct stat st;
	pid_t child;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(fstat(p[0], &st), 0);
	snprintf(want, sizeof(want), "pipe:[%lu]", (unsigned long)st.st_ino);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(p[1]);
		close(ready[0]);
		prctl(PR_SET_NAME, "xl-holder");
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		while (read(p[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(xl_proc_fd_owner(xl_proc_fd_links_to, want, comm, sizeof(comm)), child);
	assert_string_equal(comm, "xl-holder");
	close(p[1]); /* the child reads EOF and ends */
	close(ready[0]);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Gone with it: nobody holds the pipe now. */
	assert_int_equal(xl_proc_fd_owner(xl_proc_fd_links_to, want, comm, sizeof(comm)), 0);
	assert_string_equal(comm, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_found_and_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
