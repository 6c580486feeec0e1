// SPDX-License-Identifier: BSD-2-Clause
/* Files written under a temporary name and renamed into place (atomicfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "xdplab/atomicfile.h"

#define TMP_TRIES 16

int xl_open_excl(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);

	return fd < 0 ? -errno : fd;
}

/* @n random characters of [a-zA-Z0-9] into @out (not terminated). */
static void random_suffix(char *out, size_t n)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[16];
	size_t i;

	if (n > sizeof(r))
		n = sizeof(r);
	if (getrandom(r, n, 0) != (ssize_t)n) {
		/* No entropy source: O_EXCL still makes the open safe, only guessable. */
		unsigned long x = (unsigned long)getpid() * 2654435761ul ^ (unsigned long)&r;

		for (i = 0; i < n; i++, x /= 62)
			r[i] = x % 62;
	}
	for (i = 0; i < n; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
}

/* The stream's write: all of @buf, or the first failure kept in a->err. */
static ssize_t afile_write(void *cookie, const char *buf, size_t n)
{
	struct xl_afile *a = cookie;
	size_t done = 0;

	while (!a->err && done < n) {
		ssize_t w = write(a->fd, buf + done, n - done);

		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno == EINTR)
			continue;
		else
			a->err = w < 0 ? -errno : -EIO;
	}
	if (!a->err)
		return (ssize_t)n;
	errno = -a->err;
	return 0; /* fopencookie(3): 0 is the error return */
}

/* @a->f on @a->fd; 0 or -ENOMEM (@a->fd left open). */
static int afile_stream(struct xl_afile *a)
{
	cookie_io_functions_t io = { .write = afile_write };

	a->err = 0;
	a->f = fopencookie(a, "w", io);
	return a->f ? 0 : -ENOMEM;
}

/*
 * Whether @path is to be written directly: a character device or a FIFO,
 * or, with @links (a path the user named), a symbolic link to one
 * (/dev/stdout). Any other link is replaced by the rename, never followed.
 */
static int direct_target(const char *path, bool links, bool *direct)
{
	struct stat st;

	*direct = false;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode) && (!links || stat(path, &st)))
		return 0; /* not followed, or dangling: replaced */
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	*direct = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
	return 0;
}

int xl_afile_open_fd(struct xl_afile *a, int fd, const char *name)
{
	int err;

	a->tmp[0] = '\0';
	a->direct = true;
	a->fd = fd;
	snprintf(a->path, sizeof(a->path), "%s", name);
	err = afile_stream(a);
	if (err) {
		close(fd);
		a->fd = -1;
	}
	return err;
}

static int afile_open(struct xl_afile *a, const char *path, mode_t mode, bool links)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0, n, i, fd = -EEXIST, err;

	a->f = NULL;
	a->fd = -1;
	a->err = 0;
	a->direct = false;
	a->tmp[0] = '\0';
	if (!path[dlen])
		return -EISDIR; /* "" or "DIR/" */
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path))
		return -ENAMETOOLONG;
	err = direct_target(path, links, &a->direct);
	if (err)
		return err;
	if (a->direct && !links) {
		/*
		 * A name the tool made up: what lstat() saw may be swapped for a
		 * link before the open (O_NOFOLLOW: ELOOP), and a FIFO nobody
		 * reads must not hang us (O_NONBLOCK: ENXIO); what was opened is
		 * checked to be a device or FIFO still, then writes block.
		 */
		struct stat st;

		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			return -errno;
		if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) ||
		    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
			close(fd);
			return -EEXIST;
		}
	} else if (a->direct) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	if (a->direct) {
		a->fd = fd;
		err = afile_stream(a);
		if (err) {
			close(fd);
			a->fd = -1;
		}
		return err;
	}
	for (i = 0; i < TMP_TRIES && fd == -EEXIST; i++) {
		n = snprintf(a->tmp, sizeof(a->tmp), "%.*s.%s.XXXXXX", dlen, path, path + dlen);
		if (n >= (int)sizeof(a->tmp))
			return -ENAMETOOLONG;
		random_suffix(a->tmp + n - 6, 6);
		fd = xl_open_excl(a->tmp, O_WRONLY, mode);
	}
	if (fd < 0) {
		a->tmp[0] = '\0';
		return fd;
	}
	a->fd = fd;
	err = afile_stream(a);
	if (err) {
		close(fd);
		unlink(a->tmp);
		a->fd = -1;
		a->tmp[0] = '\0';
	}
	return err;
}

void xl_afile_abort(struct xl_afile *a)
{
	if (a->f) {
		/* Nothing more reaches the file: the buffer is dropped, not written. */
		a->err = a->err ? a->err : -ECANCELED;
		fclose(a->f);
		close(a->fd);
	}
	a->f = NULL;
	a->fd = -1;
	if (a->tmp[0])
		unlink(a->tmp);
	a->tmp[0] = '\0';
}

int xl_afile_open(struct xl_afile *a, const char *path, mode_t mode)
{
	return afile_open(a, path, mode, false);
}

int xl_afile_open_user(struct xl_afile *a, const char *path, mode_t mode)
{
	return afile_open(a, path, mode, true);
}

/* fsync the directory of @path, so that the rename survives a crash; best effort. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int xl_afile_commit(struct xl_afile *a)
{
	int err;

	if (!a->f)
		return -EBADF;
	/* fclose() flushes through afile_write(), which keeps the first error. */
	if (fclose(a->f) && !a->err)
		a->err = -EIO;
	a->f = NULL;
	err = a->err;
	if (!err && !a->direct && fsync(a->fd))
		err = -errno;
	if (close(a->fd) && !err && !a->direct)
		err = -errno;
	a->fd = -1;
	if (!a->direct && !err && rename(a->tmp, a->path))
		err = -errno;
	if (a->tmp[0] && err)
		unlink(a->tmp);
	else if (a->tmp[0])
		sync_dir(a->path);
	a->tmp[0] = '\0';
	return err;
}

int xl_afile_write(const char *path, const void *buf, size_t len, mode_t mode)
{
	struct xl_afile a;
	int err = xl_afile_open(&a, path, mode);

	if (err)
		return err;
	if (len)
		fwrite(buf, 1, len, a.f); /* a failure is kept in a.err */
	return xl_afile_commit(&a);
}
