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
 * Environment variable that turns the tracepoint source off when set to
 * "proc-stat" (the meter then uses /proc/stat): to measure what the
 * tracepoints cost, side by side (docs/lab.md).
 */
#define XL_SIRQ_ENV "XDPLAB_SOFTIRQ_SOURCE"

/**
 * xl_sirq_get() - take a reference on the programs; the first one (no
 * other holder) loads and attaches them. Main thread only (not locked).
 * Return: 0 (a reference: drop it with xl_sirq_put()), -ECANCELED (turned
 * off by XL_SIRQ_ENV), or -errno of loading or attaching (no BPF
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
