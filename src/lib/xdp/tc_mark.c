// SPDX-License-Identifier: BSD-2-Clause
/* The marks of the clsact qdiscs tc-drop made (tc_mark.h). */
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
	char prefix[64];
	int n;

	n = mark_prefix(ifindex, prefix, sizeof(prefix));
	if (n)
		return n;
	n = xl_pid_records_sweep(XL_RUN_STATE_DIR, prefix, '\0', NULL, NULL, NULL);
	return n == -ENOENT ? 0 : n;
}
