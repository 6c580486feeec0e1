/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF-only: the benchmarks' per-CPU counter map, declared once for every
 * program that counts in struct xl_bench_rec (bench.bpf.c, redirect.bpf.c).
 * Each object gets its own map of this name; user space reads it through
 * the skeleton (maps.bench_stats) in src/lib/xdp/.
 */
#ifndef XDPLAB_BPF_BENCH_STATS_H
#define XDPLAB_BPF_BENCH_STATS_H

#include "bpf_helpers_local.h"
#include "xdplab/abi/bench.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_bench_rec);
} bench_stats SEC(".maps");

/* This CPU's record, or NULL (never, for a one-entry per-CPU array). */
static __always_inline struct xl_bench_rec *xl_bench_rec_this_cpu(void)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&bench_stats, &key);
}

#endif
