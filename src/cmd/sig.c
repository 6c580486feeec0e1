// SPDX-License-Identifier: BSD-2-Clause
/*
 * Stop requests (SIGINT/SIGTERM/SIGHUP) and interruptible sleeps for
 * commands; SIGQUIT (Ctrl-\) toggles the extended per-CPU output of the
 * report loop while running, as xdp-bench does.
 */
#include <signal.h>
#include <time.h>

#include "cmd.h"

volatile sig_atomic_t xl_stop_requested;
volatile sig_atomic_t xl_extended_toggles;

static void on_stop(int sig)
{
	xl_stop_requested = sig;
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

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&sq.sa_mask);
	sigaction(SIGQUIT, &sq, NULL);
	signal(SIGPIPE, SIG_IGN);
}

