// SPDX-License-Identifier: BSD-2-Clause
/* The machine's facts that move packet figures (xdplab/env.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "xdplab/env.h"

/* The first line of @path into @buf without its newline; -1 if unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_int(const char *path)
{
	char buf[32], *end;
	long v;

	if (read_line(path, buf, sizeof(buf)) || !buf[0])
		return -1;
	v = strtol(buf, &end, 10);
	return *end ? -1 : (int)v;
}

static void read_cpu_model(char *buf, size_t len)
{
	char line[256], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(colon = strchr(line, ':')))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

static void read_cmdline_mitigations(char *buf, size_t len)
{
	char line[4096], *p, *tok, *save;

	buf[0] = '\0';
	if (read_line("/proc/cmdline", line, sizeof(line)))
		return;
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "--"))
			break; /* the rest goes to init */
		if (!strncmp(tok, "mitigations=", 12)) {
			p = tok + 12;
			snprintf(buf, len, "%s", p);
		}
	}
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static void read_vulns(struct xl_env *e)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	struct dirent **list;
	char path[512];
	int i, n;

	e->nvulns = 0;
	n = scandir(dir, &list, not_dot, by_name);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		if (e->nvulns < XL_ENV_MAX_VULNS) {
			snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
			snprintf(e->vuln_name[e->nvulns], sizeof(e->vuln_name[0]), "%.47s",
				 list[i]->d_name);
			if (!read_line(path, e->vuln_state[e->nvulns], sizeof(e->vuln_state[0])))
				e->nvulns++;
		}
		free(list[i]);
	}
	free(list);
}

void xl_env_read(struct xl_env *e)
{
	struct utsname u;

	memset(e, 0, sizeof(*e));
	if (!uname(&u)) {
		snprintf(e->kernel, sizeof(e->kernel), "%s", u.release);
		snprintf(e->arch, sizeof(e->arch), "%s", u.machine);
		snprintf(e->host, sizeof(e->host), "%s", u.nodename);
	}
	read_cpu_model(e->cpu_model, sizeof(e->cpu_model));
	e->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	e->jit_enable = read_int("/proc/sys/net/core/bpf_jit_enable");
	e->jit_harden = read_int("/proc/sys/net/core/bpf_jit_harden");
	read_cmdline_mitigations(e->cmdline_mitigations, sizeof(e->cmdline_mitigations));
	read_vulns(e);
}
