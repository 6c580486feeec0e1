/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the subcommands' entry points and what they share
 * (signal flag, verbosity). Each returns an exit status: XL_EXIT_OK,
 * XL_EXIT_RUNTIME or XL_EXIT_USAGE.
 */
#ifndef XDPLAB_CMD_H
#define XDPLAB_CMD_H

#include <signal.h>
#include <stdint.h>

#include "xdplab/opts.h"

/** Set by SIGINT/SIGTERM/SIGHUP: loops end and clean up normally. */
extern volatile sig_atomic_t xl_stop_requested;

/** Install the stop handlers (no SA_RESTART, so sleeps wake up). */
void xl_sig_install(void);

/** Sleep @ns or until a stop is requested. Return: 1 if stopped. */
int xl_sleep_ns(uint64_t ns);

/**
 * xl_cmd_enter_netns() - move the calling process's main thread (and the
 * threads it starts later) into /run/netns/@name, for --netns.
 * Return: XL_EXIT_OK, XL_EXIT_USAGE (no such namespace; one line printed
 * naming @spec's command), or XL_EXIT_RUNTIME (setns failed, logged).
 */
int xl_cmd_enter_netns(const struct xl_cmd_spec *spec, const char *name);

/** Monotonic time in ns. */
uint64_t xl_now_ns(void);

int cmd_gen(int argc, char **argv);
int cmd_bench(int argc, char **argv); /* drop, pass, tx: argv[0] says which */
int cmd_lab(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_xsk(int argc, char **argv); /* xsk rxdrop|txpush|l2fwd */
int cmd_cleanup(int argc, char **argv);
int cmd_redirect(int argc, char **argv); /* redirect, redirect-cpu, redirect-multi */
int cmd_monitor(int argc, char **argv);

#endif /* XDPLAB_CMD_H */
