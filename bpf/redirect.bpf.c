// SPDX-License-Identifier: GPL-2.0
/*
 * XDP_REDIRECT benchmark programs. Each ingress program applies the packet
 * operation (as bench.bpf.c does), counts in the same per-CPU record, and
 * redirects through a map:
 *  - xdp_redir_devmap: bpf_redirect_map() into a devmap (one OUT, key 0);
 *  - xdp_redir_ifindex: bpf_redirect() to OUT's ifindex, no map (xdp-bench's
 *    "redirect"; the kernel looks OUT up by ifindex per frame);
 *  - xdp_redir_cpumap: into a cpumap entry, the target CPU picked from a
 *    list by a steering policy (enum xl_steer, abi/redirect.h, parsed with
 *    the one parser of abi/parse.h), where xdp_redir_cpu_prog runs in the
 *    cpumap kthread and drops, passes or redirects again through the
 *    devmap (or no program runs: --remote-action disabled);
 *  - xdp_redir_multi: BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS over a
 *    devmap_hash keyed by ifindex (kernel 5.13, commit e624d4ed4aa8
 *    "xdp: Extend xdp_redirect_map with broadcast support").
 * A failed bpf_redirect_map() returns XDP_ABORTED (flags 0) and counts as an
 * error. Knobs are rodata constants, so each configuration runs only its code.
 */
#include "bench_stats.h"
#include "xdplab/abi/parse.h"
#include "xdplab/abi/redirect.h"
#include <bpf/bpf_tracing.h>

const volatile __u32 pkt_op = XL_OP_NO_TOUCH;
/* The steering list, in place before load (rodata), so the first frame
 * already sees all of it; steer is never XL_STEER_DEFAULT here. */
const volatile __u32 steer = XL_STEER_NO_TOUCH;
const volatile __u32 steer_count = 1;
const volatile __u32 steer_cpus[XL_STEER_MAX_CPUS] = { 0 };
const volatile __u32 cpu_action = XL_CPU_ACT_DROP;
/* --load-egress: the devmap entry's program; 1: it drops (--egress-action
 * drop), 0: it writes OUT's MAC as the source and sends the frame on. */
const volatile __u32 egress_drop = 0;
const volatile __u8 out_mac[6] = { 0 };
/* redirect-ifindex: OUT's ifindex. */
const volatile __u32 out_ifindex = 0;
/* 1: loaded with BPF_F_XDP_HAS_FRAGS (--frags), frames may span buffers. */
const volatile __u32 frags = 0;
/* Set after load: the id of our cpumap, to filter its tracepoint. */
volatile __u32 cpumap_id = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_redir_cpu_rec);
} cpu_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, XL_REDIR_MAX_OUT + 1);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} tx_multi SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_egress_rec);
} egress_stats SEC(".maps");

/* Per target CPU (key: its id; max_entries set to the possible CPUs). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_steer_rec);
} steer_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xl_steer_miss);
} steer_miss SEC(".maps");

/* round-robin's turn, one per RX CPU (as xdp-bench keeps it): no atomic
 * and no cache line shared between RX CPUs per frame; the spread is exact
 * per RX CPU (each starts at the first target), so over several RX CPUs
 * the first targets may get up to one frame more per RX CPU. The turn is
 * the next index in the list (< steer_count), wrapped by a compare. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} rr_turn SEC(".maps");

/* max_entries is set to the number of possible CPUs before load. */
struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
} cpu_map SEC(".maps");

/* Count the frame and apply the packet operation; NULL: no record. */
static __always_inline struct xl_bench_rec *rx_count(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec;

	rec = xl_bench_rec_this_cpu();
	if (!rec)
		return NULL;
	xl_rec_rx(rec, ctx, pkt_op, frags);
	return rec;
}

static __always_inline int rx_done(struct xl_bench_rec *rec, long act)
{
	if (act != XDP_REDIRECT)
		rec->errors++;
	if (act >= 0 && act < XL_XDP_ACTIONS)
		rec->actions[act]++;
	return act;
}

SEC("xdp")
int xdp_redir_devmap(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);

	if (!rec)
		return XDP_ABORTED;
	return rx_done(rec, bpf_redirect_map(&tx_port, 0, 0));
}

/* MurmurHash3's 32-bit block mix and finalizer (Austin Appleby, public
 * domain), for l4-hash. */
static __always_inline __u32 mix32(__u32 h, __u32 k)
{
	k *= 0xcc9e2d51;
	k = (k << 15) | (k >> 17);
	k *= 0x1b873593;
	h ^= k;
	h = (h << 13) | (h >> 19);
	return h * 5 + 0xe6546b64;
}

static __always_inline __u32 fmix32(__u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/* The index into steer_cpus for an L4 policy; -1: drop (l4-filter). */
static __always_inline int steer_l4(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct xl_steer_miss *miss;
	struct xl_l3_info info;
	__u32 key = 0, h = 0, ports = 0, i;
	int ret, has_ports = 0;
	__u8 *ip, *l4;

	miss = bpf_map_lookup_elem(&steer_miss, &key);
	if (!miss)
		return 0;
	ret = xl_parse_l3(data, data_end, &info);
	if (ret == XL_PARSE_BAD) {
		miss->malformed++;
		return 0;
	}
	if (ret == XL_PARSE_NOT_IP) {
		miss->not_ip++;
		return 0;
	}
	if (info.l4_off && (info.l4_proto == 6 || info.l4_proto == 17)) {
		/* The masks bound the offsets below MAX_PACKET_OFF for the
		 * verifier; no linear XDP buffer is 16 KiB long, so they never
		 * change an offset the parser found inside the frame. */
		l4 = (__u8 *)data + (info.l4_off & 0x3fff);
		if (l4 + 4 > (__u8 *)data_end) {
			miss->malformed++;
			return 0;
		}
		ports = (__u32)xl_parse_be16(l4) << 16 | xl_parse_be16(l4 + 2);
		has_ports = 1;
	}
	if (steer == XL_STEER_L4_PROTO || steer == XL_STEER_L4_FILTER) {
		if (info.l4_proto == 6)
			return 0;
		if (info.l4_proto == 17) {
			if (steer == XL_STEER_L4_FILTER && has_ports && (ports & 0xffff) == 9) {
				miss->filtered++;
				return -1;
			}
			return 1;
		}
		if (info.l4_proto == 1 || info.l4_proto == 58)
			return 2;
		return 0;
	}
	if (!has_ports)
		miss->no_ports++;
	if (steer == XL_STEER_L4_SPORT)
		return has_ports ? ports >> 16 : 0;
	if (steer == XL_STEER_L4_DPORT)
		return has_ports ? ports & 0xffff : 0;
	/* l4-hash: addresses, protocol, ports. */
	ip = (__u8 *)data + (info.l3_off & 0x3fff);
	if (info.l3_proto == 0x0800) {
		if (ip + 20 > (__u8 *)data_end)
			return 0;
		h = mix32(h, *(__u32 *)(ip + 12));
		h = mix32(h, *(__u32 *)(ip + 16));
	} else {
		if (ip + 40 > (__u8 *)data_end)
			return 0;
		XL_PARSE_UNROLL
		for (i = 0; i < 8; i++)
			h = mix32(h, *(__u32 *)(ip + 8 + 4 * i));
	}
	h = mix32(h, info.l4_proto);
	h = mix32(h, ports);
	return fmix32(h) & 0x7fffffff;
}

SEC("xdp")
int xdp_redir_cpumap(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);
	struct xl_steer_rec *srec;
	struct xl_steer_miss *miss;
	__u32 key = 0, idx = 0, cpu, *turn;
	long act;
	int pick;

	if (!rec)
		return XDP_ABORTED;
	if (steer == XL_STEER_TOUCH) {
		__u8 *p = (void *)(long)ctx->data;
		volatile __u16 sink;

		if (p + 14 <= (__u8 *)(long)ctx->data_end) {
			sink = *(__u16 *)(p + 12);
			(void)sink;
		}
	} else if (steer == XL_STEER_ROUND_ROBIN) {
		turn = bpf_map_lookup_elem(&rr_turn, &key);
		if (turn) {
			idx = *turn;
			*turn = idx + 1 < steer_count ? idx + 1 : 0;
		}
	} else if (steer >= XL_STEER_L4_PROTO) {
		pick = steer_l4(ctx);
		if (pick < 0) {
			rec->actions[XDP_DROP]++;
			return XDP_DROP;
		}
		idx = (__u32)pick % steer_count;
	}
	/* idx < steer_count <= XL_STEER_MAX_CPUS (a power of 2): the mask is a
	 * no-op the verifier can follow, where a compare clang splits is not. */
	cpu = steer_cpus[idx & (XL_STEER_MAX_CPUS - 1)];
	act = bpf_redirect_map(&cpu_map, cpu, 0);
	if (act == XDP_REDIRECT) {
		srec = bpf_map_lookup_elem(&steer_stats, &cpu);
		if (srec)
			srec->steered++;
	} else {
		miss = bpf_map_lookup_elem(&steer_miss, &key);
		if (miss)
			miss->redirect_errors++;
	}
	return rx_done(rec, act);
}

SEC("xdp")
int xdp_redir_ifindex(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);

	if (!rec)
		return XDP_ABORTED;
	return rx_done(rec, bpf_redirect(out_ifindex, 0));
}

SEC("xdp")
int xdp_redir_multi(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = rx_count(ctx);

	if (!rec)
		return XDP_ABORTED;
	return rx_done(rec, bpf_redirect_map(&tx_multi, 0,
					     BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS));
}

/* The devmap entry's egress program (xdp-bench's --load-egress): runs on
 * each frame as OUT transmits it; XDP_PASS sends it on. */
SEC("xdp/devmap")
int xdp_redir_egress(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	struct xl_egress_rec *rec;
	__u32 key = 0;
	int i;

	rec = bpf_map_lookup_elem(&egress_stats, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->processed++;
	if (egress_drop) {
		rec->dropped++;
		return XDP_DROP;
	}
	if (p + 12 > (__u8 *)(long)ctx->data_end) {
		rec->dropped++;
		return XDP_DROP;
	}
	for (i = 0; i < 6; i++)
		p[6 + i] = out_mac[i];
	rec->forwarded++;
	return XDP_PASS;
}

/* Runs in the cpumap kthread of the target CPU. Its first lines are
 * xdp_redir_egress()'s with another map and record, kept apart on purpose:
 * a shared inline helper (tried for issue 12 part 1) changed both per-frame
 * programs' branch layout (an extra jump on the found path), and these four
 * lines are not worth a change in what the benchmark's DUT runs. */
SEC("xdp/cpumap")
int xdp_redir_cpu_prog(struct xdp_md *ctx)
{
	struct xl_redir_cpu_rec *rec;
	__u32 key = 0;
	long act;

	rec = bpf_map_lookup_elem(&cpu_stats, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->processed++;
	if (cpu_action == XL_CPU_ACT_PASS) {
		rec->passed++;
		return XDP_PASS;
	}
	if (cpu_action == XL_CPU_ACT_REDIRECT) {
		act = bpf_redirect_map(&tx_port, 0, 0);
		if (act == XDP_REDIRECT)
			rec->redirected++;
		else
			rec->errors++;
		return act;
	}
	rec->dropped++;
	return XDP_DROP;
}

/* Queue-full drops of our cpumap, counted on the enqueuing CPU. Attached
 * only for redirect-cpu; fires once per bulk flush (up to 8 frames). */
SEC("tp_btf/xdp_cpumap_enqueue")
int BPF_PROG(xdp_redir_enqueue_tp, int map_id, unsigned int processed,
	     unsigned int drops, int to_cpu)
{
	struct xl_redir_cpu_rec *rec;
	struct xl_steer_rec *srec;
	__u32 key = 0;

	if ((__u32)map_id != cpumap_id)
		return 0;
	rec = bpf_map_lookup_elem(&cpu_stats, &key);
	if (!rec)
		return 0;
	rec->enqueued += processed - drops;
	rec->enqueue_drops += drops;
	key = to_cpu;
	srec = bpf_map_lookup_elem(&steer_stats, &key);
	if (srec) {
		srec->enqueued += processed - drops;
		srec->enqueue_drops += drops;
	}
	return 0;
}

/* Frames a cpumap kthread took off its queue, on the kthread's (target)
 * CPU: the processed count when no program runs on the entry. */
SEC("tp_btf/xdp_cpumap_kthread")
int BPF_PROG(xdp_redir_kthread_tp, int map_id, unsigned int processed, unsigned int drops,
	     int sched)
{
	struct xl_steer_rec *srec;
	__u32 key;

	if ((__u32)map_id != cpumap_id)
		return 0;
	key = bpf_get_smp_processor_id();
	srec = bpf_map_lookup_elem(&steer_stats, &key);
	if (!srec)
		return 0;
	srec->kthread_processed += processed;
	srec->kthread_drops += drops;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
