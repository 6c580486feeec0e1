/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/softirq_time.h
 * Layout shared by bpf/softirq_time.bpf.c and user space: the one value of
 * the per-CPU array in which the irq:softirq_entry/softirq_exit programs
 * add up each CPU's NET_RX softirq time. Compiles under clang -target bpf
 * and gcc.
 */
#ifndef XDPLAB_SOFTIRQ_TIME_SHARED_H
#define XDPLAB_SOFTIRQ_TIME_SHARED_H

#include <linux/types.h>

/** NET_RX_SOFTIRQ in the kernel's softirq numbering (include/linux/interrupt.h). */
#define XL_NET_RX_SOFTIRQ 3

/**
 * struct xl_sirq_rec - one CPU's NET_RX softirq time (written only by the
 * programs running on that CPU, so without atomics).
 * @ns:       time spent in finished NET_RX softirq runs, ns (bpf_ktime_get_ns,
 *            CLOCK_MONOTONIC).
 * @runs:     finished NET_RX softirq runs.
 * @entry_ns: bpf_ktime_get_ns() at the entry of the run in progress, 0 when
 *            none is (a reader adds now - @entry_ns: xl_sirq_cpu_ns()).
 */
struct xl_sirq_rec {
	__u64 ns;
	__u64 runs;
	__u64 entry_ns;
};

#endif /* XDPLAB_SOFTIRQ_TIME_SHARED_H */
