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

pid_t xl_run_dir_pid(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *p = name + pl + 1;
	char *end;
	long pid;

	if (strncmp(name, prefix, pl) || name[pl] != '.' || *p < '1' || *p > '9')
		return 0;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || pid <= 0 || pid > 0x3fffffff || *end != '.' || strlen(end + 1) != 6)
		return 0;
	return (pid_t)pid;
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

int xl_run_dirs_sweep(const char *const *prefixes,
		      void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx)
{
	const char *t = xl_tmpdir();
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0, i;
	DIR *d;

	d = opendir(t);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;
		pid_t pid = 0;

		for (i = 0; prefixes[i] && !pid; i++)
			pid = xl_run_dir_pid(de->d_name, prefixes[i]);
		if (!pid || xl_pid_alive(pid))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", t, de->d_name) >= (int)sizeof(path))
			continue;
		/* Ours only: a real directory (not a link to one) owned by us. */
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (remove_dir1(path))
			continue;
		n++;
		if (removed)
			removed(path, pid, ctx);
	}
	closedir(d);
	return n;
}
