/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * monitor_cli.h - between src/cmd/cmd_monitor.c (`xdplab monitor`: its
 * options, the run) and src/cmd/cmd_monitor_out.c (its table, totals and
 * JSON records). CLI only.
 */
#ifndef XDPLAB_CMD_MONITOR_CLI_H
#define XDPLAB_CMD_MONITOR_CLI_H

#include <stdint.h>

#include <jansson.h>

#include "xdplab/monitor.h"

/*
 * The per-CPU counts of a window (-e): the snapshots of its two reads,
 * @prev NULL for the totals (since the start), @ncpus each; @d room for
 * @ncpus deltas. @ncpus 0 without -e.
 */
struct xl_mon_cpus {
	const struct xl_mon_snapshot *prev, *cur;
	int ncpus;
	struct xl_mon_val *d;
};

/*
 * xl_mon_cli_json() - one record of the --json file (@what "interval" or
 * "totals", at @t s): the keys that moved between @prev and @cur over @ns
 * (every key, without rates, when @prev is NULL); with -e each row's
 * "per_cpu" array from @pc, and on xdp_cpumap_kthread's rows and their
 * CPUs "sched" (and "sched_per_s" with rates). Return: a new reference (the caller's).
 */
json_t *xl_mon_cli_json(const char *what, double t, const struct xl_mon_snapshot *prev,
			const struct xl_mon_snapshot *cur, uint64_t ns, const struct xl_mon_cpus *pc);

/* xl_mon_cli_print() - an interval's table rows at @t s (with -e the CPUs' rows under each,
 * and the columns pkts/event and sched/s, "-" but on xdp_cpumap_kthread's rows). */
void xl_mon_cli_print(double t, const struct xl_mon_snapshot *prev,
		      const struct xl_mon_snapshot *cur, uint64_t ns, const struct xl_mon_cpus *pc);

/* xl_mon_cli_totals() - the totals after @secs s (with -e each key's CPUs, and
 * xdp_cpumap_kthread's lines end with "sched N"). */
void xl_mon_cli_totals(const struct xl_mon_snapshot *s, double secs, const struct xl_mon_cpus *pc);

#endif /* XDPLAB_CMD_MONITOR_CLI_H */
