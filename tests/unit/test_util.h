/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the unit tests share: assert_near() / assert_dbl_equal() for
 * doubles, printing both values on failure; cap_start()/cap_end() to
 * capture what a call writes to stdout or stderr; mem_start()/mem_end()
 * for what a call writes to a FILE * it is given; tmp_dir_make() and
 * tmp_dir_remove() for a test's own directory under $TMPDIR. Include after
 * <cmocka.h>.
 */
#ifndef XDPLAB_TEST_UTIL_H
#define XDPLAB_TEST_UTIL_H

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "xdplab/tmpdir.h"

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

/* ---- a test's own directory under $TMPDIR (else /tmp) ---- */

/*
 * A new directory xl_tmpdir()/xl-test-@name.XXXXXX (mkdtemp: mode 0700, a
 * name no other run has), its path into @buf (@len bytes).
 * Return: 0, or -1 (too long for @buf, or mkdtemp failed): usable from a
 * group set-up, where a cmocka assert cannot run.
 */
static inline int tmp_dir_make(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/xl-test-%s.XXXXXX", xl_tmpdir(), name);

	return n > 0 && (size_t)n < len && mkdtemp(buf) ? 0 : -1;
}

static inline int tmp_dir_rm1(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	return remove(path) ? -1 : 0;
}

/* Remove @dir with everything in it (no link followed). Return: 0 or -1. */
static inline int tmp_dir_remove(const char *dir)
{
	return nftw(dir, tmp_dir_rm1, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* XDPLAB_TEST_UTIL_H */
