/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: --profile and --profile-dir, shared by the
 * benchmark commands and `lab run` (docs/profile.md). A profile that cannot
 * be taken (no perf, no permission, hidden kallsyms) prints one line naming
 * the fix and the command runs without it.
 */
#ifndef XDPLAB_PROFILE_CLI_H
#define XDPLAB_PROFILE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "opts.h"
#include "xdplab/profile.h"

/**
 * struct xl_cmd_prof - a command's profiling state.
 * @on: --profile given. @dir: --profile-dir (NULL: the default).
 * @p: the perf session once xl_cmd_prof_open() succeeded (NULL: none).
 * @tried: xl_cmd_prof_open() ran (it says why it failed once).
 */
struct xl_cmd_prof {
	bool on, tried;
	const char *dir;
	struct xl_profiler *p;
};

/** Default directory of the profiles. */
#define XL_PROFILE_DIR_DEFAULT "xdplab-profile"

/**
 * xl_cmd_prof_open() - when --profile was given, open the perf session
 * (bpf_jit_kallsyms on until xl_cmd_prof_close()); on failure print the
 * one-line reason with its fix and leave @cp->p NULL.
 */
void xl_cmd_prof_open(struct xl_cmd_prof *cp);

/** xl_cmd_prof_close() - end the session (restores bpf_jit_kallsyms). */
void xl_cmd_prof_close(struct xl_cmd_prof *cp);

/**
 * xl_cmd_prof_run_start() - the profile of a command's whole run (its
 * measured window): open the session if needed and record every CPU (the
 * first XL_PROF_MAX_CPUS), @app_cpu (>= 0) with the role "xsk-app"; files
 * named @name. Return: true when recording (else the reason was printed).
 */
bool xl_cmd_prof_run_start(struct xl_cmd_prof *cp, const char *name, int app_cpu);

/**
 * xl_cmd_prof_run_stop() - end that recording: @dut_cpu (>= 0; the CPU
 * where the DUT's program ran most) gets the role "dut", then the profile
 * goes to @pr (zeroed when it failed, which is logged).
 */
void xl_cmd_prof_run_stop(struct xl_cmd_prof *cp, int dut_cpu, struct xl_profile *pr);

#endif /* XDPLAB_PROFILE_CLI_H */
