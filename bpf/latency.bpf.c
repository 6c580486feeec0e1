// SPDX-License-Identifier: GPL-2.0
/*
 * The latency receiver (xdplab latency, docs/latency.md): on the DUT, it
 * reads the stamp that 'gen --stamp' writes into the UDP payload
 * (struct xl_stamp, abi/latency.h: the pktgen header), takes the one-way
 * latency as bpf_ktime_get_ns() now minus the send time (both ends on one
 * host: one CLOCK_MONOTONIC; stamps of time 0 or from the future are
 * counted apart, not timed), and keeps per CPU a 3-significant-bit
 * histogram, min/max/sum, and the sequence numbers' books (lowest, highest,
 * reordered, duplicates). Returns a fixed action (XDP_DROP or XDP_PASS).
 * busy_wait_ns > 0 spins that long before reading the clock: a known added
 * delay, to check that the measurement sees it.
 */
#include "bpf_helpers_local.h"
#include "xdplab/abi/latency.h"
#include "xdplab/abi/parse.h"

const volatile __u32 action = XDP_DROP;
const volatile __u64 busy_wait_ns = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_lat_rec);
} lat_stats SEC(".maps");

static long spin_cb(__u32 i, void *ctx)
{
	__u64 *t0 = ctx;

	return bpf_ktime_get_ns() - *t0 >= busy_wait_ns ? 1 : 0;
}

SEC("xdp")
int xdp_latency(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct xl_l3_info info;
	struct xl_lat_rec *r;
	struct xl_stamp *sp;
	__u64 now, ts, lat, seq;
	__u32 key = 0, b, slot;
	__u64 off;

	r = bpf_map_lookup_elem(&lat_stats, &key);
	if (!r)
		return XDP_ABORTED;
	r->frames++;
	if (busy_wait_ns) {
		__u64 t0 = bpf_ktime_get_ns();

		bpf_loop(1 << 23, spin_cb, &t0, 0);
	}
	now = bpf_ktime_get_ns();
	if (xl_parse_l3(data, data_end, &info) != XL_PARSE_OK || info.l4_proto != 17 ||
	    !info.l4_off)
		return action;
	off = info.l4_off + 8;
	/* Keep the bound check on the register the access uses. */
	asm volatile("" : "+r"(off));
	if (off > 0x3fff) /* the verifier wants var off + size below 64 KiB */
		return action;
	sp = data + off;
	if ((void *)(sp + 1) > data_end)
		return action;
	if (sp->magic != bpf_htonl(XL_STAMP_MAGIC))
		return action;
	seq = bpf_ntohl(sp->seq);
	ts = (__u64)bpf_ntohl(sp->tv_sec) * 1000000000ull +
	     (__u64)bpf_ntohl(sp->tv_usec) * 1000 + bpf_ntohs(sp->nsec);
	/*
	 * Only stamps of this clock are timed: a stamp of time 0 (unset) or
	 * later than now (another clock) is counted apart, kept out of the
	 * histogram, sum and min/max, so the percentiles are of the timed
	 * frames alone. The sequence books take every stamp.
	 */
	if (!ts) {
		r->unset++;
	} else if (now < ts) {
		r->negative++;
	} else {
		lat = now - ts;
		r->timed++;
		r->sum_ns += lat;
		b = xl_lat_bucket(lat);
		if (b < XL_LAT_BUCKETS)
			r->hist[b]++;
		if (r->timed == 1 || lat < r->min_ns)
			r->min_ns = lat;
		if (r->timed == 1 || lat > r->max_ns)
			r->max_ns = lat;
	}
	r->stamped++;
	if (r->stamped == 1) {
		r->seq_min = r->seq_max = seq;
	} else if (seq < r->seq_min) {
		r->seq_min = seq;
	}
	slot = seq % XL_LAT_SEQ_SLOTS;
	if (r->stamped == 1) {
		r->min_ns = r->max_ns = lat;
		r->seq_min = r->seq_max = seq;
	} else {
		if (lat < r->min_ns)
			r->min_ns = lat;
		if (lat > r->max_ns)
			r->max_ns = lat;
		if (seq < r->seq_min)
			r->seq_min = seq;
	}
	if (slot < XL_LAT_SEQ_SLOTS && r->slots[slot] == (__u32)(seq + 1)) {
		r->duplicates++;
		return action;
	}
	if (slot < XL_LAT_SEQ_SLOTS)
		r->slots[slot] = seq + 1;
	if (seq < r->seq_max)
		r->reordered++;
	else
		r->seq_max = seq;
	return action;
}

char LICENSE[] SEC("license") = "GPL";
