/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file env.h
 * The machine a run was measured on, as far as it moves packet figures:
 * kernel release, CPU model and count, the BPF JIT's knobs, the CPU
 * vulnerability mitigations. Written into every results file (the
 * "machine" object, docs/results.md) and shown side by side by
 * `xdplab compare`, which marks what differs.
 */
#ifndef XDPLAB_ENV_H
#define XDPLAB_ENV_H

/** Most entries of /sys/devices/system/cpu/vulnerabilities kept. */
#define XL_ENV_MAX_VULNS 32

/**
 * struct xl_env - facts about this machine.
 * @kernel: uname -r. @arch: uname -m. @host: the host name (tells two
 *   machines apart; a VM's CPU model alone may not).
 * @cpu_model: the first "model name" of /proc/cpuinfo ("" if none).
 * @cpus: online CPUs.
 * @jit_enable/@jit_harden: /proc/sys/net/core/bpf_jit_enable and
 *   bpf_jit_harden, -1 when unreadable.
 * @cmdline_mitigations: the value of "mitigations=" on /proc/cmdline, ""
 *   when absent (the kernel's default, auto).
 * @vuln_name/@vuln_state: /sys/devices/system/cpu/vulnerabilities/NAME and
 *   its one line ("Not affected", "Mitigation: ...", "Vulnerable..."),
 *   sorted by name; @nvulns of them (0: the directory is missing).
 * What makes noise (xl_env_read_noise(); issue 19):
 * @governor: the cpufreq governor, "performance" when every CPU that has
 *   one says the same, else "cpu0=performance cpu1=powersave..." (cut at
 *   the buffer's end); "" when no CPU has cpufreq (a VM such as this one).
 * @boost: frequency boost (turbo) 1 on, 0 off, -1 unknown: cpufreq/boost,
 *   else intel_pstate/no_turbo (inverted).
 * @smt: /sys/devices/system/cpu/smt/control ("on", "off", "forceoff",
 *   "notsupported", "notimplemented"), "" unknown; @smt_active: smt/active
 *   1 or 0, -1 unknown.
 * @lab_irqs: not read here (xl_env_read() leaves it ""): the lab devices'
 *   IRQs as a results file recorded them (machine.lab_irqs, "none" when it
 *   recorded null), for `xdplab compare`.
 */
struct xl_env {
	char kernel[65], arch[65], host[65];
	char cpu_model[128];
	int cpus;
	int jit_enable, jit_harden;
	char cmdline_mitigations[128];
	int nvulns;
	char vuln_name[XL_ENV_MAX_VULNS][48];
	char vuln_state[XL_ENV_MAX_VULNS][160];
	char governor[96];
	int boost;
	char smt[24];
	int smt_active;
	char lab_irqs[160];
};

/**
 * xl_env_read() - fill @e from uname, /proc and /sys. Facts that cannot be
 * read are left empty or -1; never fails.
 */
void xl_env_read(struct xl_env *e);

/**
 * xl_env_read_noise() - fill @e's @governor, @boost, @smt and @smt_active
 * from the sysfs tree under @root ("" or NULL: "/"; a test's fake tree),
 * for @cpus CPUs (cpu0..cpu@cpus-1; a CPU without cpufreq is left out).
 * xl_env_read() calls it with "/". Never fails: unreadable is unknown.
 */
void xl_env_read_noise(const char *root, int cpus, struct xl_env *e);

/**
 * xl_irq_affinity() - the IRQs of network device @ifname (of the network
 * namespace whose sysfs is mounted at @root/sys: the caller's) and the CPUs
 * each may run on, as "IRQ:CPUS IRQ:CPUS" ("33:0-3 34:1") into @buf (@len
 * bytes, cut short when too small): its MSI IRQs
 * (@root/sys/class/net/IF/device/msi_irqs/), else its one legacy IRQ
 * (device/irq), each with @root/proc/irq/N/smp_affinity_list. A virtual
 * device (veth: no device/ link) has none.
 * Return: the IRQs found (0: none, @buf ""), or -EINVAL (@ifname empty or
 * with a '/').
 */
int xl_irq_affinity(const char *root, const char *ifname, char *buf, size_t len);

#endif /* XDPLAB_ENV_H */
