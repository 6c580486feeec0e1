/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the unit tests share: assert_near() / assert_dbl_equal() for
 * doubles, printing both values on failure; cap_start()/cap_end() to
 * capture what a call writes to stdout or stderr; mem_start()/mem_end()
 * for what a call writes to a FILE * it is given. Include after <cmocka.h>.
 */
#ifndef XDPLAB_TEST_UTIL_H
#define XDPLAB_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Doubles: |a - b| <= eps, with both values printed on failure. */
static inline void assert_near_(double a, double b, double eps, const char *ea,
				const char *eb, const char *file, int line)
{
	if (fabs(a - b) <= eps)
		return;
	print_error("%s = %.17g, want %s = %.17g (within %g)\n", ea, a, eb, b, eps);
	_fail(file, line);
}

#define assert_near(a, b, eps) assert_near_((a), (b), (eps), #a, #b, __FILE__, __LINE__)
#define assert_dbl_equal(a, b) assert_near((a), (b), 0.0)

/* ---- capturing a file descriptor (stderr or stdout) into a string ---- */

struct capture {
	int fd, saved;
	FILE *tmp;
};

static inline void cap_start(struct capture *c, int fd)
{
	fflush(stdout);
	fflush(stderr);
	c->fd = fd;
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(fd);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), fd) >= 0);
}

/* Restore the descriptor; return what was written to it (caller frees). */
static inline char *cap_end(struct capture *c)
{
	char *buf;
	long len;

	fflush(stdout);
	fflush(stderr);
	assert_true(dup2(c->saved, c->fd) >= 0);
	close(c->saved);
	assert_int_equal(fseek(c->tmp, 0, SEEK_END), 0);
	len = ftell(c->tmp);
	assert_true(len >= 0);
	rewind(c->tmp);
	buf = calloc(1, len + 1);
	assert_non_null(buf);
	if (len)
		assert_int_equal(fread(buf, 1, len, c->tmp), len);
	fclose(c->tmp);
	return buf;
}

/* ---- a FILE * in memory, for functions that write to one they are given ---- */

struct memout {
	char *buf;
	size_t len;
	FILE *f;
};

/* An empty in-memory stream (open_memstream(3)); write to the FILE * returned. */
static inline FILE *mem_start(struct memout *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	return m->f;
}

/* Close the stream; return what was written, NUL-terminated (caller frees). */
static inline char *mem_end(struct memout *m)
{
	assert_int_equal(fclose(m->f), 0);
	return m->buf;
}

#endif /* XDPLAB_TEST_UTIL_H */
