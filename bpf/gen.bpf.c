// SPDX-License-Identifier: GPL-2.0
/*
 * Live-frames traffic generator: run by BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES (kernel 5.18, commit b530e9e1063e "bpf: Add
 * "live packet" mode for XDP in BPF_PROG_RUN"), it redirects the frame out
 * of ifindex_out. With nr_flows > 1 it rewrites the L4 source port (and the
 * destination port, the source address and the IPv4 header checksum when
 * they vary) and the L4 checksum from a table that user space precomputed; live-frame pages
 * keep their data between runs, so each write is absolute, not incremental.
 */
#include "bpf_helpers_local.h"
#include "xdplab/abi/gen.h"
#include "xdplab/abi/latency.h"

const volatile __u32 ifindex_out = 0;
const volatile __u32 nr_flows = 1;
/* Set by user space to check that live frames work without sending:
 * the program then drops and counts nothing. */
volatile __u32 dry_run = 0;
/* Offsets of the UDP source port and checksum in the template frame. */
const volatile __u32 sport_off = 34;
const volatile __u32 csum_off = 40;
/* --dyn-ports / --src-addrs: also write the destination port (at
 * sport_off + 2), the source address's low 16 bits at saddr_off and, for
 * IPv4, the header checksum at ipcsum_off. */
/* One sending thread: the flows rotate in one sequence for the whole run
 * (flow_next), so each gets exactly its share even when the thread moves
 * between CPUs; several threads keep one rotation per CPU (st->next), with
 * no cache line shared between them. */
const volatile __u32 one_sender = 0;
__u64 flow_next = 0;
const volatile __u32 vary_dport = 0;
const volatile __u32 vary_saddr = 0;
const volatile __u32 saddr_off = 28;
const volatile __u32 ipcsum_off = 24;
/*
 * --stamp: write struct xl_stamp (abi/latency.h: the pktgen header, seq and
 * CLOCK_MONOTONIC time) at stamp_off, the UDP payload, and fix the UDP
 * checksum from the template's (tmpl_csum, or the flow's) with
 * bpf_csum_diff over the 20 bytes: stamp_tmpl holds the template's bytes
 * there (the builder's payload pattern), copied once at set-up, so the new
 * checksum is absolute too. One sending thread (user space checks), so
 * stamp_seq needs no atomics.
 */
const volatile __u32 stamp = 0;
const volatile __u32 stamp_off = 42;
const volatile __u16 tmpl_csum = 0;
const volatile __u8 stamp_tmpl[XL_STAMP_LEN] = {};
__u64 stamp_seq = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XL_GEN_MAX_FLOWS);
	__type(key, __u32);
	__type(value, struct xl_gen_flow);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_gen_cpu);
} gen_state SEC(".maps");

SEC("xdp")
int xdp_gen_redirect(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xl_gen_cpu *st;
	__u32 key = 0;

	if (dry_run)
		return XDP_DROP;
	st = bpf_map_lookup_elem(&gen_state, &key);
	if (!st)
		return XDP_ABORTED;
	__u16 csum0 = tmpl_csum;

	if (nr_flows > 1) {
		struct xl_gen_flow *fl;
		__u64 *next = one_sender ? &flow_next : &st->next;
		__u32 idx = *next;

		if (++*next >= nr_flows)
			*next = 0;
		fl = bpf_map_lookup_elem(&flows, &idx);
		if (!fl)
			return XDP_ABORTED;
		if (data + sport_off + 4 > data_end ||
		    data + csum_off + 2 > data_end)
			return XDP_ABORTED;
		*(__u16 *)(data + sport_off) = fl->src_port;
		*(__u16 *)(data + csum_off) = fl->l4_csum;
		csum0 = fl->l4_csum;
		if (vary_dport)
			*(__u16 *)(data + sport_off + 2) = fl->dst_port;
		if (vary_saddr) {
			if (data + saddr_off + 2 > data_end || data + ipcsum_off + 2 > data_end)
				return XDP_ABORTED;
			*(__u16 *)(data + saddr_off) = fl->saddr_lo;
			if (ipcsum_off)
				*(__u16 *)(data + ipcsum_off) = fl->ip_csum;
		}
	}
	if (stamp) {
		struct xl_stamp *sp = data + stamp_off;
		__u64 now = bpf_ktime_get_ns();
		__s64 sum;

		if ((void *)(sp + 1) > data_end || data + csum_off + 2 > data_end)
			return XDP_ABORTED;
		sp->magic = bpf_htonl(XL_STAMP_MAGIC);
		sp->seq = bpf_htonl((__u32)stamp_seq++);
		sp->tv_sec = bpf_htonl((__u32)(now / 1000000000ull));
		sp->tv_usec = bpf_htonl((__u32)(now % 1000000000ull / 1000));
		sp->nsec = bpf_htons((__u16)(now % 1000));
		sp->zero = 0;
		sum = bpf_csum_diff((__be32 *)stamp_tmpl, XL_STAMP_LEN, (__be32 *)sp, XL_STAMP_LEN,
				    (__u16)~csum0);
		if (sum < 0)
			return XDP_ABORTED;
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		csum0 = ~sum & 0xffff;
		*(__u16 *)(data + csum_off) = csum0 ? csum0 : 0xffff;
	}
	st->frames++;
	return bpf_redirect(ifindex_out, 0);
}

char LICENSE[] SEC("license") = "GPL";
