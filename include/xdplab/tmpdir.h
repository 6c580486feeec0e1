/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file tmpdir.h
 * Temporary directories of one xdplab process (the ssh generator's stderr,
 * the perf listener's FIFOs): made under $TMPDIR (else /tmp) and named
 * PREFIX.PID.XXXXXX, so that `xdplab cleanup` can tell a dead run's
 * leftovers (its PID no longer exists) from a live run's and remove only
 * those.
 */
#ifndef XDPLAB_TMPDIR_H
#define XDPLAB_TMPDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * Where a run's records of what it changed go, for `xdplab cleanup` after
 * a SIGKILL (root's tmpfs): the bpf_jit_kallsyms value (jitstate.h), the
 * clsact qdiscs a tc-drop row made (bench.h).
 */
#define XL_RUN_STATE_DIR "/run/xdplab"

/**
 * xl_run_state_dir() - make XL_RUN_STATE_DIR (0700) when missing and check
 * that it is a directory, not a symbolic link to one.
 * Return: 0, -ENOTDIR, or the -errno of mkdir/lstat.
 */
int xl_run_state_dir(void);

/**
 * xl_tmpdir() - the directory temporary files go to: $TMPDIR when it is
 * set and not empty, else "/tmp". The string is the environment's (or a
 * literal): do not free it.
 */
const char *xl_tmpdir(void);

/**
 * xl_tmpdir_named() - xl_tmpdir() as a message names it: "TMPDIR=VALUE"
 * when it comes from $TMPDIR (the user's setting is what to fix), "/tmp"
 * otherwise; into @buf (@len bytes). Return: @buf.
 */
const char *xl_tmpdir_named(char *buf, size_t len);

/**
 * xl_run_mkdtemp() - make the directory xl_tmpdir()/@prefix.PID.XXXXXX
 * (PID: this process's), mode 0700, its path in @buf (@len bytes).
 *
 * Return: 0, or -ENAMETOOLONG when the path does not fit @len, or the
 * negative errno of mkdtemp().
 */
int xl_run_mkdtemp(char *buf, size_t len, const char *prefix);

/**
 * xl_run_dir_pid() - the PID in a directory name @name (no path) made by
 * xl_run_mkdtemp() with @prefix.
 *
 * Return: the PID (> 0), or 0 when @name is not PREFIX.PID.XXXXXX.
 */
pid_t xl_run_dir_pid(const char *name, const char *prefix);

/**
 * xl_pid_name() - the PID in a pid-named record's name @name (no path):
 * @prefix, a decimal PID (no sign, no leading zero, at most 0x3fffffff),
 * then the end of @name (@tail '\0') or @tail and six characters (the
 * XXXXXX of mkdtemp()/mkstemp()).
 *
 * Return: the PID (> 0), or 0 when @name has another form.
 */
pid_t xl_pid_name(const char *name, const char *prefix, char tail);

/**
 * xl_pid_records_sweep() - the one sweep of pid-named records (run
 * directories, the jitstate and tc_mark records, the own programs' pin
 * directories): for each entry of directory @dir named as
 * xl_pid_name(@prefix, @tail) says whose process is gone (xl_pid_alive()),
 * call @take with its path and PID. A live process's are not touched.
 * @take: returns 0 when it removed the record, > 0 when it left it, or
 *        -errno to stop the sweep with that error; NULL means
 *        xl_pid_record_remove().
 * @removed: called after each record @take removed (may be NULL).
 * @ctx: passed to both.
 *
 * Return: the number of records removed, or -errno of opening @dir
 * (-ENOENT when it does not exist) or of @take.
 */
int xl_pid_records_sweep(const char *dir, const char *prefix, char tail,
			 int (*take)(const char *path, pid_t pid, void *ctx),
			 void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx);

/**
 * xl_pid_records_live() - how many entries of @dir are named as
 * xl_pid_name(@prefix, @tail) says and their process is alive.
 * Return: that count (0 when @dir does not exist), or -errno of opendir.
 */
int xl_pid_records_live(const char *dir, const char *prefix, char tail);

/**
 * xl_pid_record_remove() - remove the record @path when it is ours (owned
 * by the effective uid) and no symbolic link: a regular file, or a
 * directory with the files in it (one level: records hold files, FIFOs
 * and pins only). @pid and @ctx are unused (the shape of a
 * xl_pid_records_sweep() @take).
 * Return: 0 when removed, 1 when left.
 */
int xl_pid_record_remove(const char *path, pid_t pid, void *ctx);

/**
 * xl_run_dirs_sweep() - remove the directories xl_run_mkdtemp() made under
 * xl_tmpdir() with one of the NULL-ended @prefixes whose process is gone
 * (kill(PID, 0) gives ESRCH), with the files in them (xl_pid_records_sweep()
 * with xl_pid_record_remove()). A live process's are kept.
 * @removed: called with each removed directory's path and PID (may be NULL).
 *
 * Return: the number removed, or the negative errno of opening xl_tmpdir().
 */
int xl_run_dirs_sweep(const char *const *prefixes,
		      void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx);

/**
 * xl_pid_alive() - whether process @pid exists (kill(@pid, 0) is not ESRCH;
 * an EPERM process exists too).
 */
bool xl_pid_alive(pid_t pid);

#endif
