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
 * One instance per process, opened on first use and kept until
 * xl_sirq_close() or the process's exit (the links close with their fds).
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
 * xl_sirq_open() - load and attach the two programs, once per process;
 * later calls return the first call's result.
 * Return: 0, -ECANCELED (turned off by XL_SIRQ_ENV), or -errno of loading
 * or attaching (no BPF privilege, no such tracepoint).
 */
int xl_sirq_open(void);

/**
 * xl_sirq_close() - detach and free the programs (a later xl_sirq_open()
 * loads them again). The tracepoints run on every softirq of the machine
 * (measured: +20 ns per packet at 6.5 frames per NET_RX run, +8.8 at 28;
 * docs/lab.md), so a
 * caller that measures several things closes them after each one that used
 * them (lab run: after every row). After a failed open: nothing (the
 * failure is kept, not retried).
 */
void xl_sirq_close(void);

/**
 * xl_sirq_read() - one read of the per-CPU array: each CPU's NET_RX
 * softirq time so far (xl_sirq_cpu_ns(): a run in progress counts up to
 * now) into @ns[0..@n) and its finished runs into @runs (NULL: not
 * wanted); CPUs from @n on are not reported. @t_ns: the CLOCK_MONOTONIC
 * stamp taken right after the read (xl_now_ns()), the "now" of the runs in
 * progress. Return: 0, -ENODEV (not open), or -errno of the map read.
 */
int xl_sirq_read(uint64_t *ns, uint64_t *runs, int n, uint64_t *t_ns);

/**
 * xl_sirq_cpu_ns() - @r's softirq time at @now_ns (the bpf_ktime_get_ns()
 * clock, CLOCK_MONOTONIC): its finished runs plus the one in progress
 * (@now_ns - @r->entry_ns when @r->entry_ns is set and not after @now_ns).
 */
uint64_t xl_sirq_cpu_ns(const struct xl_sirq_rec *r, uint64_t now_ns);

#endif /* XDPLAB_SOFTIRQ_TIME_H */
