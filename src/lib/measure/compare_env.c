// SPDX-License-Identifier: BSD-2-Clause
/*
 * The two machines of a comparison side by side (xdplab/compare.h,
 * xl_cmp_env()): kernel, CPU, JIT knobs, mitigations and what makes noise,
 * each field marked where the two differ.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/compare.h"

/* ---- environments ---- */

static void vuln_summary(const struct xl_cmp_file *f, char *buf, size_t len)
{
	int i, mit = 0, vul = 0, na = 0, other = 0;

	if (!f->have_vulns) {
		snprintf(buf, len, "?");
		return;
	}
	for (i = 0; i < f->env.nvulns; i++) {
		const char *s = f->env.vuln_state[i];

		if (!strncmp(s, "Mitigation", 10))
			mit++;
		else if (!strncmp(s, "Vulnerable", 10))
			vul++;
		else if (!strncmp(s, "Not affected", 12))
			na++;
		else
			other++;
	}
	snprintf(buf, len, "%d mitigated, %d vulnerable, %d not affected", mit, vul, na);
	if (other)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %d other", other);
}

static const char *vuln_state(const struct xl_cmp_file *f, const char *name)
{
	int i;

	for (i = 0; i < f->env.nvulns; i++)
		if (!strcmp(f->env.vuln_name[i], name))
			return f->env.vuln_state[i];
	return NULL;
}

static int add(struct xl_cmp_env_row *rows, int n, int max, const char *field,
	       const char *b, const char *nw)
{
	if (n >= max)
		return n;
	rows[n].field = field;
	snprintf(rows[n].base, sizeof(rows[n].base), "%s", b && *b ? b : "?");
	snprintf(rows[n].new, sizeof(rows[n].new), "%s", nw && *nw ? nw : "?");
	rows[n].differs = strcmp(rows[n].base, "?") && strcmp(rows[n].new, "?") &&
			  strcmp(rows[n].base, rows[n].new);
	return n + 1;
}

static const char *num(char *buf, size_t len, double v, bool known)
{
	if (!known)
		return "?";
	snprintf(buf, len, "%g", v);
	return buf;
}

int xl_cmp_env(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
	       struct xl_cmp_env_row *rows, int max)
{
	const struct xl_env *b = &base->env, *nw = &new->env;
	char x[160], y[160];
	int n = 0, i, pass;

	n = add(rows, n, max, "kernel", b->kernel, nw->kernel);
	n = add(rows, n, max, "arch", b->arch, nw->arch);
	n = add(rows, n, max, "CPU model", b->cpu_model, nw->cpu_model);
	n = add(rows, n, max, "CPUs", num(x, sizeof(x), b->cpus, b->cpus > 0),
		num(y, sizeof(y), nw->cpus, nw->cpus > 0));
	n = add(rows, n, max, "host", b->host, nw->host);
	n = add(rows, n, max, "xdplab commit", base->git, new->git);
	n = add(rows, n, max, "date", base->date, new->date);
	n = add(rows, n, max, "bpf_jit_enable", num(x, sizeof(x), b->jit_enable, b->jit_enable >= 0),
		num(y, sizeof(y), nw->jit_enable, nw->jit_enable >= 0));
	n = add(rows, n, max, "bpf_jit_harden", num(x, sizeof(x), b->jit_harden, b->jit_harden >= 0),
		num(y, sizeof(y), nw->jit_harden, nw->jit_harden >= 0));
	/* An empty mitigations= is the kernel's default; say so when known. */
	n = add(rows, n, max, "mitigations=",
		base->have_vulns ? (b->cmdline_mitigations[0] ? b->cmdline_mitigations : "(default)") : "",
		new->have_vulns ? (nw->cmdline_mitigations[0] ? nw->cmdline_mitigations : "(default)") : "");
	vuln_summary(base, x, sizeof(x));
	vuln_summary(new, y, sizeof(y));
	n = add(rows, n, max, "vulnerabilities", x, y);
	if (base->have_vulns && new->have_vulns) {
		rows[n - 1].differs = false;
		/* Every name either side has, once: base's, then new's own. */
		for (pass = 0; pass < 2; pass++) {
			const struct xl_cmp_file *f = pass ? new : base;

			for (i = 0; i < f->env.nvulns; i++) {
				const char *name = f->env.vuln_name[i];
				const char *sb = vuln_state(base, name), *sn = vuln_state(new, name);

				if (pass && sb)
					continue;
				if (sb && sn && !strcmp(sb, sn))
					continue;
				rows[n - 1].differs = true;
				n = add(rows, n, max, name, sb ? sb : "(absent)", sn ? sn : "(absent)");
			}
		}
	}
	/* What makes noise (issue 19); "?" where a file does not say. */
	n = add(rows, n, max, "cpufreq governor", b->governor, nw->governor);
	n = add(rows, n, max, "boost", b->boost < 0 ? "" : b->boost ? "on" : "off",
		nw->boost < 0 ? "" : nw->boost ? "on" : "off");
	n = add(rows, n, max, "SMT", b->smt, nw->smt);
	n = add(rows, n, max, "SMT active", b->smt_active < 0 ? "" : b->smt_active ? "yes" : "no",
		nw->smt_active < 0 ? "" : nw->smt_active ? "yes" : "no");
	n = add(rows, n, max, "lab IRQs (IRQ:CPUs)", b->lab_irqs, nw->lab_irqs);
	n = add(rows, n, max, "lab wiring", base->wiring, new->wiring);
	n = add(rows, n, max, "repetitions", num(x, sizeof(x), base->reps, base->reps > 0),
		num(y, sizeof(y), new->reps, new->reps > 0));
	n = add(rows, n, max, "window s", num(x, sizeof(x), base->seconds, base->seconds > 0),
		num(y, sizeof(y), new->seconds, new->seconds > 0));
	n = add(rows, n, max, "warm-up s", num(x, sizeof(x), base->warmup, base->reps > 0),
		num(y, sizeof(y), new->warmup, new->reps > 0));
	return n;
}
