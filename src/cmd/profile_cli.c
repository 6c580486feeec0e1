// SPDX-License-Identifier: BSD-2-Clause
/* --profile and --profile-dir for the commands (profile_cli.h). */
#include <string.h>
#include <unistd.h>

#include "profile_cli.h"
#include "xdplab/log.h"

void xl_cmd_prof_open(struct xl_cmd_prof *cp)
{
	char why[256];

	if ((!cp->on && !cp->dir) || cp->tried) /* --profile-dir implies --profile */
		return;
	cp->tried = true;
	cp->p = xl_profiler__open(cp->dir ? cp->dir : XL_PROFILE_DIR_DEFAULT, NULL, why, sizeof(why));
	if (!cp->p)
		xl_err("%s", why);
}

void xl_cmd_prof_close(struct xl_cmd_prof *cp)
{
	xl_profiler__close(cp->p);
	cp->p = NULL;
}

bool xl_cmd_prof_run_start(struct xl_cmd_prof *cp, const char *name, int app_cpu)
{
	struct xl_prof_cpu cpus[XL_PROF_MAX_CPUS];
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char stem[64], *c;
	int i;

	xl_cmd_prof_open(cp);
	if (!cp->p)
		return false;
	if (n > XL_PROF_MAX_CPUS) {
		xl_warn("profile: %ld CPUs, recording the first %d", n, XL_PROF_MAX_CPUS);
		n = XL_PROF_MAX_CPUS;
	}
	for (i = 0; i < n; i++)
		cpus[i] = (struct xl_prof_cpu){ .cpu = i };
	if (app_cpu >= 0 && app_cpu < n)
		snprintf(cpus[app_cpu].role, sizeof(cpus[app_cpu].role), "xsk-app");
	snprintf(stem, sizeof(stem), "%s", name);
	for (c = stem; *c; c++)
		if (*c == ' ' || *c == '/')
			*c = '-';
	if (xl_profiler__start(cp->p, cpus, n, stem)) {
		xl_cmd_prof_close(cp);
		return false;
	}
	fprintf(stderr, "xdplab: profiling CPUs 0-%ld with perf for the whole run (its overhead is in these figures: docs/profile.md)\n",
		n - 1);
	return true;
}

void xl_cmd_prof_run_stop(struct xl_cmd_prof *cp, int dut_cpu, struct xl_profile *pr)
{
	if (dut_cpu >= 0)
		xl_profiler__set_role(cp->p, dut_cpu, "dut");
	if (xl_profiler__stop(cp->p, pr))
		memset(pr, 0, sizeof(*pr));
}
