/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: --prometheus FILE of monitor and the benchmarks
 * (drop, pass, tx, redirect*, run): their counters in the Prometheus text
 * exposition format (xdplab/prom.h) for node_exporter's textfile
 * collector, the file replaced atomically each interval (src/cmd/prom_cli.c).
 */
#ifndef XDPLAB_CMD_PROM_CLI_H
#define XDPLAB_CMD_PROM_CLI_H

#include <stdio.h>

#include "xdplab/meter.h"
#include "xdplab/monitor.h"

/**
 * xl_cmd_prom_check() - whether @path can be written (a temporary file
 * made in its directory and removed: nothing appears at @path): before the
 * work, so a bad path fails first. Return: 0, or -errno after one line
 * "cannot write PATH: cause" (the command exits XL_EXIT_RUNTIME, as for
 * --json).
 */
int xl_cmd_prom_check(const char *path);

/**
 * xl_cmd_prom_write() - replace @path with what @fill writes to its
 * stream (@ctx passed on), through a temporary file in the same directory
 * renamed onto it (xdplab/atomicfile.h): a scrape reads the old file or
 * the whole new one. A failure is said once per run on stderr (a warning:
 * the measurement goes on) and returned.
 * Return: 0 or -errno.
 */
int xl_cmd_prom_write(const char *path, void (*fill)(FILE *f, const void *ctx), const void *ctx);

/**
 * struct xl_cmd_prom_bench - what a benchmark's file says: @cmd ("drop",
 * "redirect"...) and @iface as labels; @total: every window since the
 * start summed (the counters); @last: the latest interval (the gauges).
 */
struct xl_cmd_prom_bench {
	const char *cmd, *iface;
	const struct xl_meter_window *total, *last;
};

/**
 * xl_cmd_prom_bench_fill() - a benchmark's exposition on @f (@ctx: struct
 * xl_cmd_prom_bench): xdplab_packets_total, xdplab_bytes_total,
 * xdplab_errors_total, xdplab_xdp_actions_total{action},
 * xdplab_measured_seconds_total (counters since the start); the last
 * interval's xdplab_packets_per_second, xdplab_dut_cpu_busy_ratio and
 * xdplab_dut_cpu_seconds_per_packet (gauges); every sample labelled command and
 * iface. docs/monitor.md "Prometheus".
 */
void xl_cmd_prom_bench_fill(FILE *f, const void *ctx);

/**
 * struct xl_cmd_prom_mon - monitor's file: @s, the counts since the start
 * (one row per event, action, ifindex, errno); @seconds since the first
 * sample.
 */
struct xl_cmd_prom_mon {
	const struct xl_mon_snapshot *s;
	double seconds;
};

/**
 * xl_cmd_prom_mon_fill() - monitor's exposition on @f (@ctx: struct
 * xl_cmd_prom_mon): xdplab_monitor_events_total, _packets_total and
 * _drops_total, one sample per key labelled event, action, ifindex and
 * errno (as monitor's table names them); xdplab_monitor_seconds_total.
 */
void xl_cmd_prom_mon_fill(FILE *f, const void *ctx);

#endif /* XDPLAB_CMD_PROM_CLI_H */
