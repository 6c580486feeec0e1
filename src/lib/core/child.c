// SPDX-License-Identifier: BSD-2-Clause
/*
 * Helper processes: spawned so that they cannot outlive xdplab (the parent
 * death signal, an atexit handler), stopped with a signal, a deadline and
 * SIGKILL after it; and xl_run_cmd(), the one way to run a short command
 * and wait for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "xdplab/child.h"

extern char **environ;

#define MAX_CHILDREN 16

static pid_t live[MAX_CHILDREN];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void kill_live_at_exit(void)
{
	int i;

	for (i = 0; i < MAX_CHILDREN; i++)
		if (live[i] > 0)
			kill(live[i], SIGKILL);
}

static void registry(pid_t add, pid_t del)
{
	static bool registered;
	int i;

	pthread_mutex_lock(&live_lock);
	if (!registered) {
		atexit(kill_live_at_exit);
		registered = true;
	}
	for (i = 0; i < MAX_CHILDREN; i++) {
		if (del && live[i] == del) {
			live[i] = 0;
			break;
		}
		if (add && !live[i]) {
			live[i] = add;
			break;
		}
	}
	pthread_mutex_unlock(&live_lock);
}

static void child_exec(char *const argv[], pid_t parent, int in_fd, int out_fd, int err_fd,
		       int report_fd, const struct xl_child_opts *o)
{
	sigset_t all;
	int sig, e, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127); /* the parent died before prctl() */
	setpgid(0, 0);
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(127);
	for (i = 0; i < o->npass; i++)
		if (fcntl(o->pass_fds[i], F_SETFD, 0))
			_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(report_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int xl_child_spawn_opts(struct xl_child *c, char *const argv[], const struct xl_child_opts *o)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, rep[2] = { -1, -1 };
	int null_fd, err_fd, e = 0, err = 0, i;
	pid_t parent = getpid(), pid;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	c->stdin_fd = c->stdout_fd = -1;
	if (o->npass < 0 || o->npass > XL_CHILD_MAX_PASS)
		return -EINVAL;
	for (i = 0; i < o->npass; i++)
		if (o->pass_fds[i] < 3)
			return -EBADF; /* would be replaced by stdin, stdout or stderr */
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0)
		return -errno;
	err_fd = o->err_fd >= 0 ? o->err_fd : null_fd;
	if (((o->flags & XL_CHILD_STDIN_PIPE) && pipe2(in, O_CLOEXEC)) ||
	    ((o->flags & XL_CHILD_STDOUT_PIPE) && pipe2(out, O_CLOEXEC)) || pipe2(rep, O_CLOEXEC)) {
		err = -errno;
		goto out_pipes;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out_pipes;
	}
	if (!pid)
		child_exec(argv, parent, in[0] >= 0 ? in[0] : null_fd,
			   out[1] >= 0 ? out[1] : o->out_to_err ? err_fd : null_fd, err_fd, rep[1], o);
	registry(pid, 0);
	close(rep[1]);
	rep[1] = -1;
	/* The report pipe closes on a successful exec (O_CLOEXEC), else says why. */
	do
		n = read(rep[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	c->pid = pid;
	if (n == sizeof(e)) {
		xl_child_stop(c, 0, 1000);
		err = -e;
		goto out_pipes;
	}
	c->stdin_fd = in[1];
	c->stdout_fd = out[0];
	in[1] = out[0] = -1;
out_pipes:
	for (n = 0; n < 2; n++) {
		if (in[n] >= 0)
			close(in[n]);
		if (out[n] >= 0)
			close(out[n]);
		if (rep[n] >= 0)
			close(rep[n]);
	}
	close(null_fd);
	return err;
}

int xl_child_spawn(struct xl_child *c, char *const argv[], int flags, const char *err_path)
{
	struct xl_child_opts o = { .flags = flags, .err_fd = -1 };
	int err;

	if (err_path) {
		o.err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (o.err_fd < 0) {
			memset(c, 0, sizeof(*c));
			c->stdin_fd = c->stdout_fd = -1;
			return -errno;
		}
	}
	err = xl_child_spawn_opts(c, argv, &o);
	if (o.err_fd >= 0)
		close(o.err_fd);
	return err;
}

static bool reap(struct xl_child *c, int options)
{
	int st;
	pid_t r;

	do
		r = waitpid(c->pid, &st, options);
	while (r < 0 && errno == EINTR);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		registry(0, c->pid);
		c->status = r == c->pid ? st : 0;
		c->pid = 0;
		return true;
	}
	return false;
}

bool xl_child_exited(struct xl_child *c)
{
	return !c->pid || reap(c, WNOHANG);
}

int xl_child_stop(struct xl_child *c, int sig, int timeout_ms)
{
	struct timespec step = { 0, 10000000 };
	bool killed = false;
	int waited;

	if (c->stdin_fd >= 0)
		close(c->stdin_fd);
	if (c->stdout_fd >= 0)
		close(c->stdout_fd);
	c->stdin_fd = c->stdout_fd = -1;
	if (!c->pid)
		goto out;
	if (sig)
		kill(c->pid, sig);
	for (waited = 0; waited < timeout_ms; waited += 10) {
		if (reap(c, WNOHANG))
			goto out;
		nanosleep(&step, NULL);
	}
	kill(c->pid, SIGKILL);
	killed = true;
	reap(c, 0);
out:
	if (killed)
		return -ETIMEDOUT;
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	return WIFSIGNALED(c->status) ? 128 + WTERMSIG(c->status) : 0;
}

int xl_run_cmd(char *const argv[], char *errline, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, err;
	char buf[512];
	ssize_t n;
	pid_t pid;

	if (errline && errlen)
		errline[0] = '\0';
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		return -err;
	}
	n = read(pipefd[0], buf, sizeof(buf) - 1);
	/* Drain the rest so the child never blocks on a full pipe. */
	{
		char scratch[256];

		while (read(pipefd[0], scratch, sizeof(scratch)) > 0)
			;
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (errline && errlen && n > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(errline, errlen, "%s", buf);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

char *xl_wait_status_str(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exited %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
	return buf;
}
