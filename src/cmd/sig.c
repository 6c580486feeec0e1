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

