/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file percpu.h
 * How many CPUs a per-CPU record array holds: every possible CPU for the
 * values a per-CPU map's lookup writes and the totals, at most XL_MAX_CPUS
 * for the per-CPU detail. The counter readers of every layer size their
 * arrays from here (xdp's programs, sys's driver and nftables counters).
 */
#ifndef XDPLAB_PERCPU_H
#define XDPLAB_PERCPU_H

/**
 * Most CPUs whose per-CPU detail is kept (struct xl_meter_sample's arrays,
 * the --extended lines, the CPU judged for the verdict). Totals count every
 * possible CPU however many there are: the buffers the per-CPU maps are
 * read into are sized from libbpf_num_possible_cpus() when an object is
 * created.
 */
#define XL_MAX_CPUS 256

/**
 * xl_bench_ncpus() - possible CPUs (libbpf_num_possible_cpus()): how many
 * values a per-CPU map lookup writes, and how many CPUs totals add up.
 * 1 when the kernel does not say (a lookup would then fail, not overflow).
 */
int xl_bench_ncpus(void);

/** xl_bench_detail_ncpus() - CPUs with per-CPU detail: min(xl_bench_ncpus(), XL_MAX_CPUS). */
int xl_bench_detail_ncpus(void);

#endif /* XDPLAB_PERCPU_H */
