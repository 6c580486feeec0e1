// SPDX-License-Identifier: BSD-2-Clause
/* The machine's facts that move packet figures (xdplab/env.h). */
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <errno.h>
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

/* @root (NULL or "": none) then @fmt's path into @buf; -1 when cut. */
static int root_path(char *buf, size_t len, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int root_path(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s", root ? root : ""), m;

	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return n + m < (int)len ? 0 : -1;
}

void xl_env_read_noise(const char *root, int cpus, struct xl_env *e)
{
	char path[512], gov[32], first[32] = "", list[sizeof(e->governor)] = "";
	bool mixed = false;
	size_t used = 0;
	int cpu, v;

	e->governor[0] = e->smt[0] = '\0';
	for (cpu = 0; cpu < cpus; cpu++) {
		if (root_path(path, sizeof(path), root,
			      "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu) ||
		    read_line(path, gov, sizeof(gov)) || !gov[0])
			continue;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", gov);
		else if (strcmp(first, gov))
			mixed = true;
		if (used < sizeof(list)) {
			int k = snprintf(list + used, sizeof(list) - used, "%scpu%d=%s",
					 used ? " " : "", cpu, gov);

			used += k > 0 ? (size_t)k : 0;
		}
	}
	snprintf(e->governor, sizeof(e->governor), "%s", mixed ? list : first);
	e->boost = -1;
	if (!root_path(path, sizeof(path), root, "/sys/devices/system/cpu/cpufreq/boost"))
		e->boost = read_int(path);
	if (e->boost < 0 &&
	    !root_path(path, sizeof(path), root, "/sys/devices/system/cpu/intel_pstate/no_turbo") &&
	    (v = read_int(path)) >= 0)
		e->boost = !v;
	if (e->boost > 1)
		e->boost = 1;
	if (!root_path(path, sizeof(path), root, "/sys/devices/system/cpu/smt/control"))
		read_line(path, e->smt, sizeof(e->smt));
	e->smt_active = -1;
	if (!root_path(path, sizeof(path), root, "/sys/devices/system/cpu/smt/active"))
		e->smt_active = read_int(path);
}

/* Append " IRQ:CPUS" of IRQ @irq to @buf at *@used. */
static void add_irq(const char *root, const char *irq, char *buf, size_t len, size_t *used)
{
	char path[512], cpus[256] = "?";
	int k;

	if (!root_path(path, sizeof(path), root, "/proc/irq/%s/smp_affinity_list", irq) &&
	    (read_line(path, cpus, sizeof(cpus)) || !cpus[0]))
		snprintf(cpus, sizeof(cpus), "?");
	if (*used >= len)
		return;
	k = snprintf(buf + *used, len - *used, "%s%s:%s", *used ? " " : "", irq, cpus);
	*used += k > 0 ? (size_t)k : 0;
}

static int is_number(const struct dirent *d)
{
	return d->d_name[0] >= '0' && d->d_name[0] <= '9' &&
	       strspn(d->d_name, "0123456789") == strlen(d->d_name);
}

/* By number, not by name: IRQ 100 after IRQ 99. */
static int by_number(const struct dirent **a, const struct dirent **b)
{
	long x = strtol((*a)->d_name, NULL, 10), y = strtol((*b)->d_name, NULL, 10);

	return x < y ? -1 : x > y;
}

int xl_irq_affinity(const char *root, const char *ifname, char *buf, size_t len)
{
	struct dirent **list;
	char path[512], irq[32];
	size_t used = 0;
	int i, n, found = 0;

	if (len)
		buf[0] = '\0';
	if (!ifname || !ifname[0] || strchr(ifname, '/'))
		return -EINVAL;
	if (root_path(path, sizeof(path), root, "/sys/class/net/%s/device/msi_irqs", ifname))
		return 0;
	n = scandir(path, &list, is_number, by_number);
	for (i = 0; i < n; i++) {
		add_irq(root, list[i]->d_name, buf, len, &used);
		found++;
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	if (found)
		return found;
	if (root_path(path, sizeof(path), root, "/sys/class/net/%s/device/irq", ifname) ||
	    read_line(path, irq, sizeof(irq)) || !irq[0] ||
	    strspn(irq, "0123456789") != strlen(irq) || !strcmp(irq, "0"))
		return 0;
	add_irq(root, irq, buf, len, &used);
	return 1;
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
	xl_env_read_noise("", e->cpus, e);
}
