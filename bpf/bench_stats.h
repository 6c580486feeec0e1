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

/*
 * The lookup's key, in .rodata rather than on the stack: the verifier's
 * inlined per-CPU array lookup reads the key through the pointer either
 * way, and a pointer to a map value needs no store of 0 and no stack
 * address computed per frame (three instructions fewer).
 */
static const volatile __u32 xl_bench_key0 = 0;

/* This CPU's record, or NULL (never, for a one-entry per-CPU array). */
static __always_inline struct xl_bench_rec *xl_bench_rec_this_cpu(void)
{
	return bpf_map_lookup_elem(&bench_stats, (const void *)&xl_bench_key0);
}

#endif
