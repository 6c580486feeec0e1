// SPDX-License-Identifier: BSD-2-Clause
/*
 * The report's flame graphs (html_priv.h). A results file is data, and
 * the path it names in a row's "profile" is too: the page never pastes a
 * file in. Each graph is drawn again from the row's folded stacks with the
 * project's own flame writer (flame.c, which escapes every frame name), so
 * a crafted SVG cannot bring its script along. The folded file is read
 * only when it is a regular file of at most XL_HTML_FOLDED_MAX bytes
 * beneath the results file's directory, opened one component at a time
 * with openat(O_NOFOLLOW) from that directory: no "..", no symbolic link,
 * an absolute path only when it lies inside that directory. Anything else
 * is refused with a note on the page and a warning on stderr
 * (docs/report.md "Untrusted results files").
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xdplab/escape.h"
#include "xdplab/log.h"
#include "xdplab/profile.h"

#include "html_priv.h"

/* The width lab run draws its NAME.svg with (perf.c): the same graph. */
#define FLAME_W 1200

/* @path with the directory @pre and its '/' taken off; NULL when not inside it. */
static const char *inside(const char *path, const char *pre)
{
	size_t n = strlen(pre);

	while (n > 1 && pre[n - 1] == '/')
		n--;
	if (n == 1 && pre[0] == '/')
		return path + 1;
	if (!n || strncmp(path, pre, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

/*
 * Open @path (from a results file) beneath @dir: relative to it, or
 * absolute and inside it (as written, or as realpath() has it). Each
 * component is opened with O_NOFOLLOW from the one before, so neither a
 * link nor ".." leaves the directory. Return: the descriptor of a regular
 * file of at most XL_HTML_FOLDED_MAX bytes, or -1 with @why set.
 */
static int open_beneath(const char *dir, const char *path, char *why, size_t len)
{
	char real[PATH_MAX], comp[NAME_MAX + 1];
	const char *rel = path, *p, *e;
	struct stat st;
	int dfd, fd = -1;

	if (path[0] == '/') {
		rel = dir[0] == '/' ? inside(path, dir) : NULL;
		if (!rel && realpath(dir, real))
			rel = inside(path, real);
		if (!rel) {
			snprintf(why, len, "an absolute path outside the results file's directory "
				 "(only files beneath it are read)");
			return -1;
		}
	}
	/* ".." anywhere is refused before anything is opened. */
	for (p = rel; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '/');
		if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			snprintf(why, len, "a \"..\" component (only files beneath the results file's "
				 "directory are read)");
			return -1;
		}
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(why, len, "cannot open the results file's directory: %s", strerror(errno));
		return -1;
	}
	for (p = rel; *p; p = *e ? e + 1 : e) {
		bool last;
		size_t n;
		int nfd;

		e = strchrnul(p, '/');
		n = (size_t)(e - p);
		if (!n || (n == 1 && p[0] == '.'))
			continue;
		if (n > NAME_MAX) {
			snprintf(why, len, "cannot open: %s", strerror(ENAMETOOLONG));
			goto out;
		}
		memcpy(comp, p, n);
		comp[n] = 0;
		while (*e == '/' && e[1] == '/')
			e++;
		last = !*e || !e[1];
		/*
		 * What it is before it is opened: opening a device can act on it
		 * (a tape rewinds). The last component is opened O_NONBLOCK (a
		 * FIFO swapped in does not block) and checked again below.
		 */
		if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW)) {
			snprintf(why, len, "cannot open: %s", strerror(errno));
			goto out;
		}
		if (S_ISLNK(st.st_mode)) {
			snprintf(why, len, "a symbolic link (links are not followed)");
			goto out;
		}
		if (last && !S_ISREG(st.st_mode)) {
			snprintf(why, len, "not a regular file");
			goto out;
		}
		nfd = openat(dfd, comp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
			     (last ? O_NONBLOCK : O_DIRECTORY));
		if (nfd < 0 && errno == ELOOP) { /* it became a link since */
			snprintf(why, len, "a symbolic link (links are not followed)");
			goto out;
		}
		if (nfd < 0) {
			snprintf(why, len, "cannot open: %s", strerror(errno));
			goto out;
		}
		close(dfd);
		dfd = nfd;
		if (last) {
			fd = nfd;
			dfd = -1;
			break;
		}
	}
	if (fd < 0) {
		snprintf(why, len, "not a file name");
		goto out;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, len, "not a regular file");
		goto out_fd;
	}
	if (st.st_size > XL_HTML_FOLDED_MAX) {
		snprintf(why, len, "larger than %d MiB", XL_HTML_FOLDED_MAX >> 20);
		goto out_fd;
	}
	return fd;
out_fd:
	close(fd);
	fd = -1;
out:
	if (dfd >= 0)
		close(dfd);
	return -1;
}

/* All of @fd, at most XL_HTML_FOLDED_MAX bytes (it may grow after the fstat()). */
static char *slurp(int fd, size_t *n, char *why, size_t len)
{
	size_t cap = 65536, got = 0;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	while (buf) {
		if (got == cap) {
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		r = read(fd, buf + got, cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, len, "cannot read: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (!r) {
			*n = got;
			return buf;
		}
		got += (size_t)r;
		if (got > XL_HTML_FOLDED_MAX) {
			snprintf(why, len, "larger than %d MiB", XL_HTML_FOLDED_MAX >> 20);
			free(buf);
			return NULL;
		}
	}
	free(buf);
	snprintf(why, len, "%s", strerror(ENOMEM));
	return NULL;
}

/* @path's stacks into @f, or -1 with @why set. */
static int load_folded(const char *dir, const char *path, struct xl_folded *f, char *why,
		       size_t len)
{
	unsigned long bad = 0;
	size_t n;
	FILE *in;
	char *buf;
	int fd, err;

	fd = open_beneath(dir, path, why, len);
	if (fd < 0)
		return -1;
	buf = slurp(fd, &n, why, len);
	close(fd);
	if (!buf)
		return -1;
	if (!n) {
		free(buf);
		return 0;
	}
	in = fmemopen(buf, n, "r");
	if (!in) {
		snprintf(why, len, "%s", strerror(errno));
		free(buf);
		return -1;
	}
	err = xl_folded__read(f, in, &bad);
	fclose(in);
	free(buf);
	if (err == -EBADMSG)
		snprintf(why, len, "not folded stacks (line %lu)", bad);
	else if (err)
		snprintf(why, len, "%s", strerror(-err));
	return err ? -1 : 0;
}

/* The graph's title: the file's stem, as lab run titled NAME.svg. */
static void stem(char *buf, size_t len, const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 7 && !strcmp(b + n - 7, ".folded"))
		n -= 7;
	snprintf(buf, len, "%.*s", (int)n, b);
}

int xl_html_flame(FILE *o, const char *dir, const char *label, const char *folded)
{
	char why[160] = "", title[256];
	struct xl_folded *f;
	int err = 0;

	if (!folded || !folded[0]) {
		snprintf(why, sizeof(why), "the profile names no folded stacks (\"folded\"), "
			 "which the graph is drawn from");
		goto refuse;
	}
	f = xl_folded__new();
	if (!f)
		return -ENOMEM;
	if (!load_folded(dir, folded, f, why, sizeof(why))) {
		stem(title, sizeof(title), folded);
		err = xl_flame_svg(f, o, title, FLAME_W);
	}
	xl_folded__free(f);
	if (err || !why[0])
		return err;
refuse:
	fputs("<p class=\"muted\" data-flame-refused=\"1\">flame graph not drawn: ", o);
	if (folded && folded[0]) {
		xl_xml_escape(o, folded);
		fputs(": ", o);
	}
	xl_xml_escape(o, why);
	fputs("</p>", o);
	/* xl_warn() escapes the line for the terminal (a results file's text). */
	xl_warn("report: %s: flame graph not drawn: %s%s%s", label, folded ? folded : "",
		folded && folded[0] ? ": " : "", why);
	return 0;
}
