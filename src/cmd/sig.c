// SPDX-License-Identifier: BSD-2-Clause
/* Stop requests (SIGINT/SIGTERM/SIGHUP) and interruptible sleeps for commands. */
#include <signal.h>
#include <time.h>

#include "cmd.h"

volatile sig_atomic_t xl_stop_requested;

static void on_stop(int sig)
{
	xl_stop_requested = sig;
}

void xl_sig_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

uint64_t xl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int xl_sleep_ns(uint64_t ns)
{
	uint64_t end = xl_now_ns() + ns;

	while (!xl_stop_requested) {
		uint64_t now = xl_now_ns();
		struct timespec ts;

		if (now >= end)
			return 0;
		ts.tv_sec = (end - now) / 1000000000ull;
		ts.tv_nsec = (end - now) % 1000000000ull;
		nanosleep(&ts, NULL);
	}
	return 1;
}

