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

void xl_cmd_prof_print(FILE *out, const struct xl_profile *pr, const char *indent, int max)
{
	const char *last = "";
	int i, k = 0;

	fprintf(out, "%sprofile: %llu samples; folded stacks %s; flame graph %s\n", indent,
		(unsigned long long)pr->samples, XL_ESC(pr->folded), XL_ESC(pr->svg));
	if (strcmp(pr->event, "cpu-clock"))
		fprintf(out, "%s  (event %s)\n", indent, XL_ESC(pr->event));
	if (pr->incomplete[0])
		fprintf(out, "%s  (incomplete: %s)\n", indent, XL_ESC(pr->incomplete));
	if (pr->unparsed)
		fprintf(out, "%s  (%lu lines of perf script not parsed)\n", indent, pr->unparsed);
	for (i = 0; i < pr->ntop; i++) {
		const struct xl_top_sym *t = &pr->top[i];

		if (strcmp(last, t->label)) {
			fprintf(out, "%s  %-7s %-16s %-24s %s   (top symbols by self share of %s)\n",
				indent, "share", "command", "dso", "symbol", XL_ESC(t->label));
			last = t->label;
			k = 0;
		}
		if (k++ >= max)
			continue;
		/* A command's name is any process's to choose, symbols the ELF's. */
		fprintf(out, "%s  %6.2f%% %-16.16s %-24.24s %s\n", indent, t->share * 100,
			XL_ESC(t->comm), XL_ESC(t->dso), XL_ESC(t->sym));
	}
}
