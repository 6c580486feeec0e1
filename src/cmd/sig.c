// SPDX-License-Identifier: BSD-2-Clause
/*
 * Stop requests (SIGINT/SIGTERM/SIGHUP) and interruptible sleeps for
 * commands; SIGQUIT (Ctrl-\) toggles the extended per-CPU output of the
 * report loop while running, as xdp-bench does.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "sig.h"

volatile sig_atomic_t xl_stop_requested;
volatile sig_atomic_t xl_extended_toggles;
int xl_stop_fd = -1;
/* The process that made xl_stop_fd: a forked child shares the eventfd. */
static pid_t stop_fd_owner;

/*
 * The flag first, then the eventfd: a waiter that wakes on the fd finds the
 * flag set. write() and getpid() are async-signal-safe; errno is the
 * interrupted code's. Only the owner writes: a child forked before its exec
 * (perf, a spawned command) runs this handler until it execs or resets it,
 * and its write would have made the parent's eventfd readable for good with
 * the parent's flag still 0, so every xl_cmd_wait() returned at once.
 */
static void on_stop(int sig)
{
	int saved = errno;
	uint64_t one = 1;

	xl_stop_requested = sig;
	/* A failed write (EAGAIN) finds the counter non-zero: still readable. */
	if (xl_stop_fd >= 0 && getpid() == stop_fd_owner)
		(void)!write(xl_stop_fd, &one, sizeof(one));
	errno = saved;
}

static void on_quit(int sig)
{
	(void)sig;
	xl_extended_toggles++;
}

void xl_sig_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct sigaction sq = { .sa_handler = on_quit, .sa_flags = SA_RESTART };

	/* Non-blocking: a handler never blocks on a full counter. */
	if (xl_stop_fd < 0) {
		xl_stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		stop_fd_owner = getpid();
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&sq.sa_mask);
	sigaction(SIGQUIT, &sq, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int xl_cmd_wait(void *ctx, uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };
	struct pollfd pfd = { .fd = xl_stop_fd, .events = POLLIN };

	(void)ctx;
	if (xl_stop_requested)
		return 0;
	/*
	 * A stop between the check above and the sleep leaves the fd readable,
	 * so ppoll returns at once; a bare nanosleep slept the interval out.
	 */
	if (xl_stop_fd < 0)
		nanosleep(&ts, NULL);
	else
		ppoll(&pfd, 1, &ts, NULL);
	return 0;
}
