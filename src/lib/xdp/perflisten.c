// SPDX-License-Identifier: BSD-2-Clause
/* A `perf record` on a tracepoint, switched on and off through its control FIFO. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xdplab/child.h"
#include "xdplab/log.h"
#include "xdplab/perflisten.h"
#include "xdplab/tmpdir.h"

struct xl_perf_listener {
	struct xl_child child;
	char dir[160], ctl[176], ack[176], data[176], err[176]; /* dir: $TMPDIR up to ~135 bytes */
	int ctl_fd, ack_fd;
};

/* perf's first stderr line, for a message. */
static void log_perf_error(const struct xl_perf_listener *p, const char *what)
{
	char line[256] = "";
	FILE *f = fopen(p->err, "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	xl_err("perf record %s%s%s", what, line[0] ? ": " : "", line);
}

/* Send @cmd and wait for perf's "ack". Return: 0, -ETIMEDOUT or -EIO. */
static int command(struct xl_perf_listener *p, const char *cmd, int timeout_ms)
{
	char buf[16];
	struct pollfd pfd = { .fd = p->ack_fd, .events = POLLIN };
	int waited, r;

	if (write(p->ctl_fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -EIO;
	for (waited = 0; waited < timeout_ms; waited += 100) {
		r = poll(&pfd, 1, 100);
		if (r > 0) {
			ssize_t n = read(p->ack_fd, buf, sizeof(buf) - 1);

			if (n > 0)
				return 0; /* "ack\n" */
		}
		if (xl_child_exited(&p->child)) {
			log_perf_error(p, "exited");
			return -EIO;
		}
	}
	return -ETIMEDOUT;
}

struct xl_perf_listener *xl_perf_listener__create(const char *event, const char *filter)
{
	struct xl_perf_listener *p = calloc(1, sizeof(*p));
	char control[368];
	int err;

	if (!p)
		return NULL;
	p->ctl_fd = p->ack_fd = -1;
	/* Under $TMPDIR, named by our pid: `xdplab cleanup` removes a dead run's. */
	err = xl_run_mkdtemp(p->dir, sizeof(p->dir), "xdplab-perf");
	if (err) {
		char t[PATH_MAX + 8];

		xl_err("perf listener: cannot make a temporary directory in %s: %s",
		       xl_tmpdir_named(t, sizeof(t)), strerror(-err));
		free(p);
		errno = -err;
		return NULL;
	}
	snprintf(p->ctl, sizeof(p->ctl), "%s/ctl", p->dir);
	snprintf(p->ack, sizeof(p->ack), "%s/ack", p->dir);
	snprintf(p->data, sizeof(p->data), "%s/perf.data", p->dir);
	snprintf(p->err, sizeof(p->err), "%s/perf.err", p->dir);
	if (mkfifo(p->ctl, 0600) || mkfifo(p->ack, 0600)) {
		err = -errno;
		goto out_files;
	}
	/* O_RDWR: a FIFO opened so never blocks for want of the other end. */
	p->ctl_fd = open(p->ctl, O_RDWR | O_CLOEXEC);
	p->ack_fd = open(p->ack, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (p->ctl_fd < 0 || p->ack_fd < 0) {
		err = -errno;
		goto out_files;
	}
	snprintf(control, sizeof(control), "fifo:%s,%s", p->ctl, p->ack);
	{
		char *argv[] = { "perf", "record", "-a", "-e", (char *)event, "--filter",
				 (char *)filter, "-D", "-1", "--control", control, "-o", p->data,
				 "-B", "-N", "-q", NULL };

		err = xl_child_spawn(&p->child, argv, 0, p->err);
	}
	if (err) {
		if (err == -ENOENT)
			xl_err("perf not found: install Debian's linux-perf (scripts/deps.sh)");
		else
			xl_err("cannot start perf: %s", strerror(-err));
		goto out_files;
	}
	err = command(p, "disable\n", 10000);
	if (err) {
		if (err == -ETIMEDOUT)
			xl_err("perf record on %s did not answer on its control FIFO within 10 s",
			       event);
		goto out_stop;
	}
	return p;
out_stop:
	xl_child_stop(&p->child, SIGKILL, 1000);
out_files:
	if (p->ctl_fd >= 0)
		close(p->ctl_fd);
	if (p->ack_fd >= 0)
		close(p->ack_fd);
	unlink(p->ctl);
	unlink(p->ack);
	unlink(p->data);
	unlink(p->err);
	rmdir(p->dir);
	free(p);
	errno = -err;
	return NULL;
}

int xl_perf_listener__enable(struct xl_perf_listener *p)
{
	return command(p, "enable\n", 2000);
}

int xl_perf_listener__disable(struct xl_perf_listener *p)
{
	return command(p, "disable\n", 2000);
}

void xl_perf_listener__destroy(struct xl_perf_listener *p)
{
	char old[192];

	if (!p)
		return;
	xl_child_stop(&p->child, SIGINT, 3000);
	close(p->ctl_fd);
	close(p->ack_fd);
	unlink(p->ctl);
	unlink(p->ack);
	unlink(p->data);
	snprintf(old, sizeof(old), "%s.old", p->data);
	unlink(old);
	unlink(p->err);
	rmdir(p->dir);
	free(p);
}
