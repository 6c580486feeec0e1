// SPDX-License-Identifier: GPL-2.0
/*
 * Exact NET_RX softirq time per CPU: the raw tracepoints irq:softirq_entry
 * and irq:softirq_exit (args[0] is the vector) stamp the start of each
 * NET_RX run and add its length to the CPU's record. Softirqs do not nest
 * on one CPU, so one entry stamp per CPU is enough. /proc/stat's softirq
 * field is tick-sampled on kernels without CONFIG_IRQ_TIME_ACCOUNTING and
 * is printed in 10 ms units on all of them; this is neither.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "xdplab/abi/softirq_time.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_sirq_rec);
} sirq_time SEC(".maps");

SEC("raw_tp/softirq_entry")
int xl_sirq_entry(struct bpf_raw_tracepoint_args *ctx)
{
	struct xl_sirq_rec *r;
	__u32 key = 0;

	if (ctx->args[0] != XL_NET_RX_SOFTIRQ)
		return 0;
	r = bpf_map_lookup_elem(&sirq_time, &key);
	if (r)
		r->entry_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tp/softirq_exit")
int xl_sirq_exit(struct bpf_raw_tracepoint_args *ctx)
{
	struct xl_sirq_rec *r;
	__u32 key = 0;
	__u64 now, start;

	if (ctx->args[0] != XL_NET_RX_SOFTIRQ)
		return 0;
	r = bpf_map_lookup_elem(&sirq_time, &key);
	if (!r || !r->entry_ns)
		return 0; /* attached in the middle of a run: not counted */
	now = bpf_ktime_get_ns();
	start = r->entry_ns;
	/*
	 * The stamp is cleared before the time is added: a reader on another
	 * CPU between the two stores misses this run (it sees it in its next
	 * read) instead of counting it twice.
	 */
	r->entry_ns = 0;
	asm volatile("" ::: "memory");
	r->ns += now - start;
	r->runs++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
