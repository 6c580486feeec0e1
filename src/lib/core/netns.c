// SPDX-License-Identifier: BSD-2-Clause
/* Network namespaces: enter and return, checked (see xdplab/netns.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/wait.h>

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

int xl_netns_sysfs_write(int ns_fd, const char *rel, const char *val)
{
	char path[256];
	size_t len = strlen(val);
	int status, err;
	pid_t pid;

	if (snprintf(path, sizeof(path), "/sys/%s", rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* System calls only (we may have threads): the errno is the exit status. */
		int fd;

		if ((ns_fd >= 0 && setns(ns_fd, CLONE_NEWNET)) || unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL))
			_exit(errno & 0xff);
		/* The old sysfs off first: the same netns's on the same place is EBUSY. */
		umount2("/sys", MNT_DETACH);
		if (mount("sysfs", "/sys", "sysfs", 0, NULL))
			_exit(errno & 0xff);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			_exit(errno & 0xff);
		if (write(fd, val, len) != (ssize_t)len)
			_exit(errno ? errno & 0xff : EIO);
		_exit(close(fd) ? errno & 0xff : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -EINTR;
	err = WEXITSTATUS(status);
	return -err;
}
