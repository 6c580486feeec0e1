/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file softirq_time.h
 * Exact NET_RX softirq time per CPU (src/lib/sys/softirq_time.c,
 * bpf/softirq_time.bpf.c): two BPF programs on the raw tracepoints
 * irq:softirq_entry and irq:softirq_exit add up each CPU's NET_RX runs in
 * ns. The meter's DUT CPU time in softirq wiring (docs/lab.md "CPU time"):
 * /proc/stat's softirq field is charged by the 4 ms scheduler tick on
 * kernels without CONFIG_IRQ_TIME_ACCOUNTING (a run inside the generator's
 * system call counts as whatever the tick saw) and is printed in 10 ms
 * units on every kernel.
 * One instance per process, shared by reference: every meter that reads it
 * takes a reference before its first read (xl_sirq_get(), through
 * xl_meter_sample()) and drops it when done (xl_sirq_put(), through
 * xl_meter_done()); the first reference loads and attaches the programs,
 * the last one dropped detaches and frees them. They run on every softirq
 * of the machine (measured: +20 ns per packet at 6.5 frames per NET_RX
 * run, +8.8 at 28; docs/lab.md), so only what measures with them pays
 * them. Each load is a new generation: counters of two loads are not
 * comparable (xl_sirq_read() says which one a reading came from).
 */
#ifndef XDPLAB_SOFTIRQ_TIME_H
#define XDPLAB_SOFTIRQ_TIME_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/abi/softirq_time.h"

/**
 * Environment variable that chooses the DUT's CPU-time source in softirq
 * wiring (xl_sirq_choose()): "auto" (or unset, empty), "tracepoint" or
 * "proc-stat"; to measure what the tracepoints cost, side by side
 * (docs/lab.md).
 */
#define XL_SIRQ_ENV "XDPLAB_SOFTIRQ_SOURCE"

/** Where a meter in softirq wiring takes the DUT's NET_RX time from. */
enum xl_sirq_src {
	/** The programs of this header: two hits per NET_RX run, ns. */
	XL_SIRQ_SRC_TRACEPOINT,
	/** /proc/stat's softirq field, IRQ time accounting: no program, 10 ms units. */
	XL_SIRQ_SRC_PROCSTAT_IRQTIME,
	/** /proc/stat's softirq field, sampled by the tick. */
	XL_SIRQ_SRC_PROCSTAT,
};

/**
 * xl_sirq_choose() - the source for @env (XL_SIRQ_ENV's value, NULL: unset)
 * on a kernel whose IRQ time accounting is @irqtime
 * (xl_irq_time_accounting(): 1, 0, -1 unknown), into *@src. "auto", empty
 * or unset: /proc/stat where the kernel accounts softirq time at each
 * entry and exit (@irqtime 1: no program per NET_RX run), else the
 * tracepoints; "tracepoint": the tracepoints; "proc-stat": /proc/stat,
 * accounted or sampled as @irqtime says. Pure: no I/O.
 * Return: 0, or -EINVAL for another @env (*@src is then auto's choice).
 */
int xl_sirq_choose(const char *env, int irqtime, enum xl_sirq_src *src);

/**
 * xl_sirq_source() - xl_sirq_choose() for this process: XL_SIRQ_ENV and
 * the running kernel, chosen at the first call and kept; an unknown value
 * is warned about once and read as "auto".
 */
enum xl_sirq_src xl_sirq_source(void);

/**
 * xl_sirq_get() - take a reference on the programs; the first one (no
 * other holder) loads and attaches them, whatever xl_sirq_source() chose
 * (a meter asks only when it chose them; the meter-cost row loads them as
 * the thing it measures). Main thread only (not locked).
 * Return: 0 (a reference: drop it with xl_sirq_put()), or -errno of loading or attaching (no BPF
 * privilege, no such tracepoint); on error no reference is taken, and the
 * first failure is kept for the process (not retried, not said again).
 */
int xl_sirq_get(void);

/**
 * xl_sirq_put() - drop a reference taken by xl_sirq_get(); the last one
 * detaches and frees the programs (a later xl_sirq_get() loads them again,
 * a new generation). Without a reference held: nothing (logged at debug).
 */
void xl_sirq_put(void);

/** xl_sirq_users() - references held now (0: the programs are not loaded). */
int xl_sirq_users(void);

/**
 * xl_sirq_read() - one read of the per-CPU array: each CPU's NET_RX
 * softirq time so far (xl_sirq_cpu_ns(): a run in progress counts up to
 * now) into @ns[0..@n) and its finished runs into @runs (NULL: not
 * wanted); CPUs from @n on are not reported. @t_ns: the CLOCK_MONOTONIC
 * stamp taken right before the copy (xl_now_ns()), the "now" of the runs in
 * progress. @gen: the load generation the counters belong to (1 for the
 * first load, one more for each load after a detach): a difference of two
 * readings is a time only when their generations are equal.
 * Return: 0, -ENODEV (no reference held: not loaded), or -errno of the map
 * read.
 */
int xl_sirq_read(uint64_t *ns, uint64_t *runs, int n, uint64_t *t_ns, uint64_t *gen);

/**
 * xl_sirq_cpu_ns() - @r's softirq time at @now_ns (the bpf_ktime_get_ns()
 * clock, CLOCK_MONOTONIC): its finished runs plus the one in progress
 * (@now_ns - @r->entry_ns when @r->entry_ns is set and not after @now_ns).
 */
uint64_t xl_sirq_cpu_ns(const struct xl_sirq_rec *r, uint64_t now_ns);

#endif /* XDPLAB_SOFTIRQ_TIME_H */
