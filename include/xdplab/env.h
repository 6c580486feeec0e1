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
};

/**
 * xl_env_read() - fill @e from uname, /proc and /sys. Facts that cannot be
 * read are left empty or -1; never fails.
 */
void xl_env_read(struct xl_env *e);

#endif /* XDPLAB_ENV_H */
