// SPDX-License-Identifier: BSD-2-Clause
/* Which process holds a file descriptor (procfd.h): one walk of /proc/PID/fd. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfd.h"

/* The first descriptor of @pid that @match accepts: 1, else 0. */
static int pid_matches(int pid, xl_proc_fd_match match, void *ctx)
{
	char path[64];
	struct dirent *f;
	DIR *fds;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	fds = opendir(path);
	if (!fds)
		return 0;
	while (!found && (f = readdir(fds)))
		if (f->d_name[0] != '.')
			found = match(pid, f->d_name, ctx) != 0;
	closedir(fds);
	return found;
}

int xl_proc_fd_links_to(int pid, const char *fd, void *ctx)
{
	char path[64], link[64];
	ssize_t n;

	if (pid == getpid())
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	return !strcmp(link, ctx);
}

int xl_proc_fd_owner(xl_proc_fd_match match, void *ctx, char *comm, size_t len)
{
	char path[64];
	struct dirent *p;
	DIR *proc;
	FILE *f;
	int pid = 0;

	comm[0] = '\0';
	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (!pid && (p = readdir(proc))) {
		int n = atoi(p->d_name);

		if (n > 0 && pid_matches(n, match, ctx))
			pid = n;
	}
	closedir(proc);
	if (!pid)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(comm, len, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	return pid;
}
