// SPDX-License-Identifier: BSD-2-Clause
/* The marks of the clsact qdiscs tc-drop made (tc_mark.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xdplab/atomicfile.h"
#include "xdplab/tmpdir.h"
#include "tc_mark.h"

/* "clsact.NETNS.IFINDEX." of the calling thread's netns into @buf. */
static int mark_prefix(int ifindex, char *buf, size_t len)
{
	struct stat st;

	if (stat("/proc/thread-self/ns/net", &st))
		return -errno;
	snprintf(buf, len, "clsact.%lu.%d.", (unsigned long)st.st_ino, ifindex);
	return 0;
}

int xl_tc_mark_set(int ifindex, char *path, size_t len)
{
	char prefix[64];
	int err;

	path[0] = '\0';
	err = mark_prefix(ifindex, prefix, sizeof(prefix));
	if (!err)
		err = xl_run_state_dir();
	if (err)
		return err;
	snprintf(path, len, "%s/%s%d", XL_RUN_STATE_DIR, prefix, (int)getpid());
	err = xl_afile_write(path, "", 0, 0600);
	if (err)
		path[0] = '\0';
	return err;
}

void xl_tc_mark_clear(char *path)
{
	if (path[0])
		unlink(path);
	path[0] = '\0';
}

int xl_tc_mark_take_dead(int ifindex)
{
	char prefix[64], path[PATH_MAX];
	struct dirent *de;
	int n = 0, err;
	DIR *d;

	err = mark_prefix(ifindex, prefix, sizeof(prefix));
	if (err)
		return err;
	d = opendir(XL_RUN_STATE_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		pid = strtol(de->d_name + strlen(prefix), &end, 10);
		if (*end || pid <= 0 || pid > 0x3fffffff || xl_pid_alive((pid_t)pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", XL_RUN_STATE_DIR, de->d_name);
		if (!unlink(path))
			n++;
	}
	closedir(d);
	return n;
}
