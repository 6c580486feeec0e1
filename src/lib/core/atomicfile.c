// SPDX-License-Identifier: BSD-2-Clause
/* Files written under a temporary name and renamed into place (atomicfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>

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

int xl_afile_open(struct xl_afile *a, const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0, n, i, fd = -EEXIST;

	a->f = NULL;
	a->tmp[0] = '\0';
	if (!path[dlen])
		return -EISDIR; /* "" or "DIR/" */
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path))
		return -ENAMETOOLONG;
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
	a->f = fdopen(fd, "w");
	if (!a->f) {
		int err = -errno;

		close(fd);
		unlink(a->tmp);
		a->tmp[0] = '\0';
		return err;
	}
	return 0;
}

void xl_afile_abort(struct xl_afile *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp[0])
		unlink(a->tmp);
	a->tmp[0] = '\0';
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
	int err = 0;

	if (!a->f)
		return -EBADF;
	if (ferror(a->f))
		err = -EIO;
	else if (fflush(a->f) || fsync(fileno(a->f)))
		err = -errno;
	if (fclose(a->f) && !err)
		err = -errno;
	a->f = NULL;
	if (!err && rename(a->tmp, a->path))
		err = -errno;
	if (err) {
		unlink(a->tmp);
	} else {
		sync_dir(a->path);
	}
	a->tmp[0] = '\0';
	return err;
}

int xl_afile_write(const char *path, const void *buf, size_t len, mode_t mode)
{
	struct xl_afile a;
	int err = xl_afile_open(&a, path, mode);

	if (err)
		return err;
	if (len && fwrite(buf, 1, len, a.f) != len) {
		xl_afile_abort(&a);
		return -EIO;
	}
	return xl_afile_commit(&a);
}
