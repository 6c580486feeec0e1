// SPDX-License-Identifier: BSD-2-Clause
/* Temporary directories of one xdplab process (tmpdir.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xdplab/tmpdir.h"

const char *xl_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

int xl_run_state_dir(void)
{
	struct stat st;

	if (mkdir(XL_RUN_STATE_DIR, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(XL_RUN_STATE_DIR, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

const char *xl_tmpdir_named(char *buf, size_t len)
{
	const char *t = getenv("TMPDIR");

	if (t && *t)
		snprintf(buf, len, "TMPDIR=%s", t);
	else
		snprintf(buf, len, "/tmp");
	return buf;
}

int xl_run_mkdtemp(char *buf, size_t len, const char *prefix)
{
	int n = snprintf(buf, len, "%s/%s.%d.XXXXXX", xl_tmpdir(), prefix, (int)getpid());

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return mkdtemp(buf) ? 0 : -errno;
}

pid_t xl_pid_name(const char *name, const char *prefix, char tail)
{
	size_t pl = strlen(prefix);
	const char *p = name + pl;
	char *end;
	long pid;

	if (strncmp(name, prefix, pl) || *p < '1' || *p > '9')
		return 0;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || pid <= 0 || pid > 0x3fffffff)
		return 0;
	if (tail ? *end != tail || strlen(end + 1) != 6 : *end != '\0')
		return 0;
	return (pid_t)pid;
}

pid_t xl_run_dir_pid(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);

	/* PREFIX.PID.XXXXXX: the '.' after PREFIX is part of what must match. */
	if (strncmp(name, prefix, pl) || name[pl] != '.')
		return 0;
	return xl_pid_name(name + pl + 1, "", '.');
}

bool xl_pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH);
}

/* Remove the files in @path, then @path; 0 or -errno. */
static int remove_dir1(const char *path)
{
	char f[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(f, sizeof(f), "%s/%s", path, de->d_name) < (int)sizeof(f))
			unlink(f);
	}
	closedir(d);
	return rmdir(path) ? -errno : 0;
}

int xl_pid_record_remove(const char *path, pid_t pid, void *ctx)
{
	struct stat st;

	/* Ours only: a real file or directory (not a link to one) owned by us. */
	if (lstat(path, &st) || st.st_uid != geteuid())
		return 1;
	if (S_ISDIR(st.st_mode))
		return remove_dir1(path) ? 1 : 0;
	if (S_ISREG(st.st_mode))
		return unlink(path) ? 1 : 0;
	return 1;
}

/* Each entry of @d named as xl_pid_name() says: its PID, or 0. */
static pid_t next_record(DIR *d, const char *prefix, char tail, const char **name)
{
	struct dirent *de;
	pid_t pid;

	while ((de = readdir(d))) {
		pid = xl_pid_name(de->d_name, prefix, tail);
		if (pid) {
			*name = de->d_name;
			return pid;
		}
	}
	return 0;
}

int xl_pid_records_live(const char *dir, const char *prefix, char tail)
{
	const char *name;
	int n = 0;
	pid_t pid;
	DIR *d = opendir(dir);

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((pid = next_record(d, prefix, tail, &name)))
		n += xl_pid_alive(pid);
	closedir(d);
	return n;
}

int xl_pid_records_sweep(const char *dir, const char *prefix, char tail,
			 int (*take)(const char *path, pid_t pid, void *ctx),
			 void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx)
{
	char path[PATH_MAX];
	const char *name;
	int n = 0, err;
	pid_t pid;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	if (!take)
		take = xl_pid_record_remove;
	while ((pid = next_record(d, prefix, tail, &name))) {
		if (xl_pid_alive(pid))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
			continue;
		err = take(path, pid, ctx);
		if (err < 0) {
			closedir(d);
			return err;
		}
		if (err)
			continue;
		n++;
		if (removed)
			removed(path, pid, ctx);
	}
	closedir(d);
	return n;
}

int xl_run_dirs_sweep(const char *const *prefixes,
		      void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx)
{
	char prefix[NAME_MAX + 1];
	int n = 0, i, err;

	for (i = 0; prefixes[i]; i++) {
		snprintf(prefix, sizeof(prefix), "%s.", prefixes[i]);
		err = xl_pid_records_sweep(xl_tmpdir(), prefix, '.', NULL, removed, ctx);
		if (err < 0)
			return err;
		n += err;
	}
	return n;
}
