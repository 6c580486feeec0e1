// SPDX-License-Identifier: BSD-2-Clause
/* --netns NAME for every command: enter a namespace made by 'ip netns add'. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "xdplab/log.h"

int xl_cmd_enter_netns(const struct xl_cmd_spec *spec, const char *name)
{
	char path[300];
	int fd, err;

	if (strchr(name, '/') || !*name) {
		xl_usage_error(spec, "--netns: '%s' is not a namespace name (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		xl_usage_error(spec, "--netns: no namespace '%s' (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	err = setns(fd, CLONE_NEWNET) ? errno : 0;
	close(fd);
	if (err) {
		xl_err("cannot enter namespace %s: %s", name, strerror(err));
		return XL_EXIT_RUNTIME;
	}
	return XL_EXIT_OK;
}
