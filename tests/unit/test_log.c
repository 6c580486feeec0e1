// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_log.c - the log module (src/lib/core/log.c): libbpf's own messages,
 * which already start "libbpf: ", reach stderr with that prefix once
 * ("xdplab: libbpf: elf: ..."), and only from -v (their warnings are our info).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "xdplab/log.h"

/* Open a missing object at @level; what libbpf logged through us, in @buf. */
static void libbpf_open_missing(enum xl_log_level level, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	struct bpf_object *obj;
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	xl_log_set_level(level);
	obj = bpf_object__open_file("/nonexistent/xl-test-log.o", NULL);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	xl_log_set_level(XL_LOG_WARN);
	assert_null(obj);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
}

static void test_libbpf_prefix_once(void **state)
{
	char buf[4096];

	libbpf_open_missing(XL_LOG_DEBUG, buf, sizeof(buf));
	if (!strstr(buf, "xdplab: libbpf: elf: failed to open /nonexistent/xl-test-log.o") ||
	    strstr(buf, "libbpf: libbpf:"))
		print_error("stderr was: %s\n", buf);
	assert_non_null(strstr(buf, "xdplab: libbpf: elf: failed to open /nonexistent/xl-test-log.o"));
	assert_null(strstr(buf, "libbpf: libbpf:"));
	libbpf_open_missing(XL_LOG_WARN, buf, sizeof(buf));
	assert_string_equal(buf, ""); /* a libbpf warning is our info: not without -v */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libbpf_prefix_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
