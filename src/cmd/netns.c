// SPDX-License-Identifier: BSD-2-Clause
/* Options every command shares: --interval, --duration, --extended, --netns. */
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

int xl_cmd_run_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
		   const struct xl_run_opts *r)
{
	switch (id) {
	case XL_OPT_INTERVAL:
		if (r->interval_ns)
			return xl_parse_seconds(spec, "--interval", arg, 0.1, 60, r->interval_ns);
		break;
	case XL_OPT_DURATION:
		if (r->duration_ns)
			return xl_parse_seconds(spec, "--duration", arg, 0, 86400 * 365,
						r->duration_ns);
		break;
	case XL_OPT_EXTENDED:
		if (r->extended) {
			*r->extended = true;
			return 0;
		}
		break;
	case XL_OPT_NETNS:
		if (r->netns) {
			*r->netns = arg;
			return 0;
		}
		break;
	}
	return 1;
}
