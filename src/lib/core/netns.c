// SPDX-License-Identifier: BSD-2-Clause
/* Network namespaces: enter and return, checked (see xdplab/netns.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/log.h"
#include "xdplab/netns.h"

int xl_netns_self(void)
{
	int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int xl_netns_enter_fd(int fd, struct xl_netns_saved *saved)
{
	int here = -1, err;

	if (saved)
		saved->fd = -1;
	if (fd < 0)
		return 0;
	if (saved) {
		here = xl_netns_self();
		if (here < 0)
			return here;
	}
	if (setns(fd, CLONE_NEWNET)) {
		err = -errno;
		if (here >= 0)
			close(here);
		return err;
	}
	if (saved)
		saved->fd = here;
	return 0;
}

int xl_netns_enter_path(const char *path, struct xl_netns_saved *saved)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (saved)
		saved->fd = -1;
	if (fd < 0)
		return -errno;
	err = xl_netns_enter_fd(fd, saved);
	close(fd);
	return err;
}

int xl_netns_restore(struct xl_netns_saved *saved)
{
	int err = 0;

	if (!saved || saved->fd < 0)
		return 0;
	if (setns(saved->fd, CLONE_NEWNET)) {
		err = -errno;
		xl_err("cannot return to the caller's network namespace: %s", strerror(-err));
	}
	close(saved->fd);
	saved->fd = -1;
	return err;
}
