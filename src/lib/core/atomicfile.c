// SPDX-License-Identifier: BSD-2-Clause
/* Files written under a temporary name and renamed into place (atomicfile.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "xdplab/atomicfile.h"
#include "xdplab/tmpdir.h"

#define TMP_TRIES 16
/* The records of open temporaries: xl_tmpdir()/xdplab-afile.PID.XXXXXX. */
#define REC_PREFIX "xdplab-afile."

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

/*
 * Open a new file at @buf, whose last six characters (XXXXXX) are replaced
 * by random ones until the name is free (TMP_TRIES tries). Return: the fd
 * (xl_open_excl()), or -errno.
 */
static int open_unique(char *buf, int flags, mode_t mode)
{
	size_t n = strlen(buf);
	int fd = -EEXIST, i;

	for (i = 0; i < TMP_TRIES && fd == -EEXIST; i++) {
		random_suffix(buf + n - 6, 6);
		fd = xl_open_excl(buf, flags, mode);
	}
	return fd;
}

/*
 * Record @a->tmp (made absolute) in a->rec, a file xl_tmpdir()/
 * xdplab-afile.PID.XXXXXX, so that `xdplab cleanup` finds the temporary of
 * a killed run (xl_afile_sweep()) wherever it is. Best effort: without a
 * writable xl_tmpdir() the file is written all the same, unrecorded.
 */
static void record_tmp(struct xl_afile *a)
{
	char line[PATH_MAX + 2], cwd[PATH_MAX];
	int fd, n;

	a->rec[0] = '\0';
	if (a->tmp[0] == '/')
		n = snprintf(line, sizeof(line), "%s\n", a->tmp);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(line, sizeof(line), "%s/%s\n", cwd, a->tmp);
	else
		return;
	if (n >= (int)sizeof(line) - 1)
		return;
	if (snprintf(a->rec, sizeof(a->rec), "%s/%s%d.XXXXXX", xl_tmpdir(), REC_PREFIX,
		     (int)getpid()) >= (int)sizeof(a->rec))
		goto out_none;
	fd = open_unique(a->rec, O_WRONLY, 0600);
	if (fd < 0)
		goto out_none;
	if (write(fd, line, n) != n) {
		close(fd);
		unlink(a->rec);
		goto out_none;
	}
	close(fd);
	return;
out_none:
	a->rec[0] = '\0';
}

/* Remove the temporary (when @tmp) and its record. */
static void drop_tmp(struct xl_afile *a, bool tmp)
{
	if (tmp && a->tmp[0])
		unlink(a->tmp);
	if (a->rec[0])
		unlink(a->rec);
	a->tmp[0] = '\0';
	a->rec[0] = '\0';
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
	a->rec[0] = '\0';
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
	int dlen = slash ? (int)(slash - path + 1) : 0, fd = -EEXIST, err;

	a->f = NULL;
	a->fd = -1;
	a->err = 0;
	a->direct = false;
	a->tmp[0] = '\0';
	a->rec[0] = '\0';
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
	/* DIR/.BASE.PID.XXXXXX: the writer's pid tells cleanup a dead run's. */
	if (snprintf(a->tmp, sizeof(a->tmp), "%.*s.%s.%d.XXXXXX", dlen, path, path + dlen,
		     (int)getpid()) >= (int)sizeof(a->tmp)) {
		a->tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	fd = open_unique(a->tmp, O_WRONLY, mode);
	if (fd < 0) {
		a->tmp[0] = '\0';
		return fd;
	}
	record_tmp(a);
	a->fd = fd;
	err = afile_stream(a);
	if (err) {
		close(fd);
		drop_tmp(a, true);
		a->fd = -1;
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
	drop_tmp(a, true);
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
	if (a->tmp[0] && !err)
		sync_dir(a->path);
	drop_tmp(a, err);
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

/*
 * The PID in a temporary's name DIR/.BASE.PID.XXXXXX (BASE may hold dots),
 * or 0 when @tmp has another form.
 */
static pid_t tmp_pid(const char *tmp)
{
	const char *b = strrchr(tmp, '/'), *p;
	size_t len;

	b = b ? b + 1 : tmp;
	len = strlen(b);
	if (b[0] != '.' || len < 11 || b[len - 7] != '.')
		return 0;
	for (p = b + len - 8; p > b && isdigit((unsigned char)*p); p--)
		;
	return *p == '.' && p > b + 1 ? xl_pid_name(p + 1, "", '.') : 0;
}

struct afile_sweep {
	void (*removed)(const char *tmp, pid_t pid, void *ctx);
	void *ctx;
	int n; /* temporaries removed */
};

/*
 * A dead run's record (xl_pid_records_sweep() @take): remove the temporary
 * it names when that is a regular file of ours named for the same PID,
 * then the record. A record not ours, or no regular file, is left.
 */
static int take_record(const char *rec, pid_t pid, void *ctx)
{
	struct afile_sweep *s = ctx;
	char tmp[PATH_MAX + 1];
	struct stat st;
	ssize_t n;
	int fd = open(rec, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return 1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return 1;
	}
	n = read(fd, tmp, sizeof(tmp) - 1);
	close(fd);
	tmp[n > 0 ? n : 0] = '\0';
	tmp[strcspn(tmp, "\n")] = '\0';
	if (tmp_pid(tmp) == pid && !lstat(tmp, &st) && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid() && !unlink(tmp)) {
		s->n++;
		if (s->removed)
			s->removed(tmp, pid, s->ctx);
	}
	return unlink(rec) ? 1 : 0;
}

int xl_afile_sweep(void (*removed)(const char *tmp, pid_t pid, void *ctx), void *ctx)
{
	struct afile_sweep s = { removed, ctx, 0 };
	int err = xl_pid_records_sweep(xl_tmpdir(), REC_PREFIX, '.', take_record, NULL, &s);

	return err < 0 ? err : s.n;
}
