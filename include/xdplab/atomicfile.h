/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file atomicfile.h
 * Writing files without following a planted symbolic link and without
 * leaving a half-written file under the final name (STYLE.md, "Untrusted
 * text"): a file is written under a temporary name in its own directory
 * (created with O_CREAT|O_EXCL|O_NOFOLLOW, a random suffix), flushed to
 * disk and renamed onto the final name. rename(2) replaces a symbolic link
 * at the final name, it never follows it; a reader sees the old file or
 * the whole new one. For files with a fixed or guessable name that are
 * not renamed into place, xl_open_excl().
 *
 * The stream keeps the first failed write's errno (a full disk: -ENOSPC,
 * not a bare -EIO) for xl_afile_commit(), and later writes fail at once.
 * A final name that is a character device or a FIFO (/dev/null, /dev/full)
 * is written directly: there is no file to replace, and renaming onto a
 * device node is wrong. A symbolic link to one (/dev/stdout) is followed
 * only for a path the user named (xl_afile_open_user()); at a name the tool
 * makes up (DIR/NAME.svg under --profile-dir, a record in /run/xdplab) a
 * link is replaced like any other, so one planted there pointing at
 * /dev/kmsg or a tty gets nothing written through it.
 */
#ifndef XDPLAB_ATOMICFILE_H
#define XDPLAB_ATOMICFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/**
 * struct xl_afile - a file being written under a temporary name.
 * @f: the stream to write to (NULL when not open); its writes go straight
 *     to @fd (fileno(@f) is -1). Do not move @a while it is open: the
 *     stream refers to it.
 * @fd: the file descriptor written (close-on-exec; may be given to a child
 *     as its output, flush @f first).
 * @err: the negative errno of the first failed write, or 0.
 * @direct: @path itself is written (a device or FIFO): no rename, no fsync.
 * @path: the final name.
 * @tmp: the temporary name, DIR/.BASE.PID.XXXXXX (DIR and BASE of @path,
 *       PID the writer's); "" when none.
 * @rec: the record naming @tmp for `xdplab cleanup` after a SIGKILL,
 *       xl_tmpdir()/xdplab-afile.PID.XXXXXX (xl_afile_sweep()); "" when
 *       none (direct, or xl_tmpdir() not writable).
 */
struct xl_afile {
	FILE *f;
	int fd;
	int err;
	bool direct;
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	char rec[PATH_MAX];
};

/**
 * xl_afile_open() - create the temporary file of @path (mode @mode, less
 * the umask) and open @a->f on it for writing. Nothing exists under @path
 * until xl_afile_commit(). A character device or FIFO at @path is opened
 * for writing itself (@a->direct), without following a link swapped in
 * meanwhile and without waiting for a FIFO's reader (-ENXIO when it has
 * none); a symbolic link at @path, whatever it points at, is replaced by
 * the rename.
 * Open before the work that produces the contents, so that a bad @path
 * fails first.
 *
 * Return: 0, or -errno (-ENAMETOOLONG: @path too long; -EISDIR: a
 * directory at @path; -ENXIO: a FIFO with no reader; -ELOOP or -EEXIST:
 * what was at @path changed under us; the errno of open(2) in @path's
 * directory, e.g. -ENOENT, -EACCES). @a is left closed (@a->f NULL) on
 * error.
 */
int xl_afile_open(struct xl_afile *a, const char *path, mode_t mode);

/**
 * xl_afile_open_user() - xl_afile_open() for a path the user named (--json,
 * -o, -w): a symbolic link there to a character device or FIFO
 * (/dev/stdout, a link to /dev/null) is followed and written directly.
 * Return: as xl_afile_open().
 */
int xl_afile_open_user(struct xl_afile *a, const char *path, mode_t mode);

/**
 * xl_afile_open_fd() - as xl_afile_open() on an already open @fd (taken
 * over: closed by commit or abort), written directly (@a->direct); @name
 * is what @a->path says (for messages). For "-" as stdout: dup() it first.
 *
 * Return: 0, or -ENOMEM; @fd is closed on error.
 */
int xl_afile_open_fd(struct xl_afile *a, int fd, const char *name);

/**
 * xl_afile_commit() - flush @a->f, fsync it, close it and rename the
 * temporary file onto @a->path (replacing a file or a symbolic link
 * there), then fsync the directory (direct: flush and close only). On any
 * failure the temporary file is removed and @a->path is untouched. @a is
 * closed either way.
 *
 * Return: 0, the -errno of the first failed write to @a->f (-ENOSPC: the
 * disk is full), or of fflush/fsync/fclose/rename (-EISDIR: @path is a
 * directory); -EBADF: @a is not open.
 */
int xl_afile_commit(struct xl_afile *a);

/**
 * xl_afile_abort() - close @a->f and remove the temporary file; @a->path
 * is untouched. Safe on a closed @a (nothing to do).
 */
void xl_afile_abort(struct xl_afile *a);

/**
 * xl_afile_write() - write @len bytes of @buf to @path with the steps
 * above (xl_afile_open(), fwrite, xl_afile_commit()).
 *
 * Return: 0 or -errno as those.
 */
int xl_afile_write(const char *path, const void *buf, size_t len, mode_t mode);

/**
 * xl_afile_sweep() - remove the temporaries of dead writers (a SIGKILLed
 * run leaves DIR/.BASE.PID.XXXXXX beside its output): each has a record
 * in xl_tmpdir() naming it (xdplab-afile.PID.XXXXXX); for each record
 * whose PID is gone (xl_pid_records_sweep()), the temporary it names is
 * removed when it is a regular file of ours named for that same PID (a
 * record cannot make the sweep remove anything else), then the record. A
 * live writer's are kept. The file at the final name is never touched.
 * @removed: called with each removed temporary's path and PID (may be NULL).
 *
 * Return: the number of temporaries removed, or -errno of opening
 * xl_tmpdir().
 */
int xl_afile_sweep(void (*removed)(const char *tmp, pid_t pid, void *ctx), void *ctx);

/**
 * xl_open_excl() - open(@path, @flags | O_CREAT | O_EXCL | O_NOFOLLOW |
 * O_CLOEXEC, @mode): a new file, never an existing one nor the target of a
 * symbolic link planted at @path. For a fixed or guessable name under
 * $TMPDIR (xl_tmpdir()) that is not renamed into place.
 *
 * Return: the fd, or -errno (-EEXIST: something, a symbolic link
 * included, is already at @path).
 */
int xl_open_excl(const char *path, int flags, mode_t mode);

#endif /* XDPLAB_ATOMICFILE_H */
