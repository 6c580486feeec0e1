// SPDX-License-Identifier: GPL-2.0
/*
 * XDP benchmark program: applies a packet operation, counts per CPU and
 * returns a fixed action (XDP_DROP, XDP_PASS or XDP_TX). Both knobs are
 * rodata constants set before load, so the verifier prunes every branch not
 * taken and each configuration runs only its own code.
 * The same program with action XDP_DROP is the lab's sink on the generator
 * side. The counters follow xdp-bench's rx/s and err/s semantics.
 *
 * Per frame it writes two counters in one cache line, rx_packets and
 * rx_bytes (plus errors when the operation fails): not actions[], which
 * user space derives (every frame gets the one rodata action, so
 * actions[action] is rx_packets: xl_bench__read()). xdp-bench's program
 * writes two too (processed, dropped) but also reads the CPU id and the RX
 * queue for its lookup; the instruction counts side by side are in
 * docs/performance.md ("The drop program's instructions").
 */
#include <linux/pkt_cls.h>

#include "bench_stats.h"

const volatile __u32 action = XDP_DROP;
const volatile __u32 pkt_op = XL_OP_NO_TOUCH;
/* 1: loaded with BPF_F_XDP_HAS_FRAGS (--frags), frames may span buffers. */
const volatile __u32 frags = 0;
/*
 * --extra-ns: 1 loads a bounded busy loop of extra_iters iterations per
 * frame (at most XL_EXTRA_MAX_ITERS); user space calibrates it with
 * BPF_PROG_RUN and sets extra_iters (writable .bss: set after load; 0 spins
 * not at all). 0 (the default) prunes the loop: the program is the one
 * without the option.
 */
const volatile __u32 extra_on = 0;
__u32 extra_iters = 0;
/*
 * --load-mode load-bytes: read-data and swap-macs go through
 * bpf_xdp_load_bytes()/bpf_xdp_store_bytes() (copies, valid across
 * fragments) instead of direct packet access (xdp-bench's --load-mode).
 */
const volatile __u32 load_bytes = 0;
/* --rxq-stats: count frames per RX queue too (xdp-bench's option). */
const volatile __u32 rxq_on = 0;
/*
 * Set by user space when none of frags, extra_on, load_bytes and rxq_on is
 * (the benchmark's default): 1 + the packet operation. The program then
 * reads this one knob and the action, so the verifier's dead-code removal
 * leaves the lookup, two counters and the operation: the options' knobs
 * are not even loaded (each volatile rodata load stays in the verified
 * program although its branch is pruned). 0 (the default, for loaders
 * that set only the option knobs: tests, probe): every knob honoured.
 */
const volatile __u32 lean = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XL_RXQ_MAX);
	__type(key, __u32);
	__type(value, __u64);
} rxq_stats SEC(".maps");

/* The packet operation by helper calls; -1 when the frame is too short. */
static __always_inline int op_load_bytes(struct xdp_md *ctx, __u32 op)
{
	__u8 b[12];
	__u8 t;
	int i;

	if (op == XL_OP_READ_DATA) {
		__u8 h[14];
		volatile __u8 sink;

		if (bpf_xdp_load_bytes(ctx, 0, h, sizeof(h)))
			return -1;
		sink = h[0] ^ h[6] ^ h[12];
		(void)sink;
	} else if (op == XL_OP_SWAP_MACS) {
		if (bpf_xdp_load_bytes(ctx, 0, b, sizeof(b)))
			return -1;
		for (i = 0; i < 6; i++) {
			t = b[i];
			b[i] = b[i + 6];
			b[i + 6] = t;
		}
		if (bpf_xdp_store_bytes(ctx, 0, b, sizeof(b)))
			return -1;
	}
	return 0;
}

/* Every option honoured: the knobs as set (lean == 0). */
static __always_inline void bench_options(struct xdp_md *ctx, struct xl_bench_rec *rec)
{
	if (rxq_on) {
		__u32 q = ctx->rx_queue_index;
		__u64 *n = bpf_map_lookup_elem(&rxq_stats, &q);

		if (n)
			(*n)++;
	}
	if (load_bytes) {
		xl_rec_rx(rec, ctx, XL_OP_NO_TOUCH, frags);
		if (op_load_bytes(ctx, pkt_op))
			rec->errors++;
	} else {
		xl_rec_rx(rec, ctx, pkt_op, frags);
	}
	if (extra_on) {
		__u32 i, n = extra_iters;
		__u64 a = 0, b = 0, c = 0, d = 0;

		/*
		 * Open-coded, so one iteration is a few instructions (a
		 * bpf_loop() callback costs ~7 ns: too coarse for 10 ns); the
		 * empty asm keeps clang from folding the loop away.
		 * Four independent chains of two operations: the loop is bound
		 * by the CPU's issue width, not by one chain's latency, so its
		 * cost adds to the work around it wherever it runs. A single
		 * chain's latency overlaps with the independent work around it
		 * (BPF_PROG_RUN's next run, the driver's work), by an amount
		 * that differs between the two: with one chain, BPF_PROG_RUN
		 * read 9 ns for both 12 and 22 iterations where the live
		 * program cost 9 and 20 ns more (2026-12-07). Eight operations
		 * an iteration also keep 10 ns at ~15 iterations, where the
		 * exit branch is predicted; one operation needed ~34, where its
		 * prediction came and went from one load to the next (the
		 * check read +10 ns in some loads, +24 in others).
		 */
		for (i = 0; i < XL_EXTRA_MAX_ITERS; i++) {
			if (i >= n)
				break;
			asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
			a += i;
			b += i;
			c += i;
			d += i;
			asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
			a ^= i;
			b ^= i;
			c ^= i;
			d ^= i;
		}
	}
}

SEC("xdp")
int xdp_bench_action(struct xdp_md *ctx)
{
	struct xl_bench_rec *rec = xl_bench_rec_this_cpu();
	void *data, *data_end;
	__u32 l;

	if (!rec)
		return XDP_ABORTED;
	/*
	 * Read after the lookup (an inlined helper call to clang, which
	 * clobbers r1-r5): only the context pointer is then kept in a
	 * callee-saved register, and the JIT saves and restores fewer.
	 */
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	l = lean;
	/* l is a verifier-known constant: one of these branches stays. */
	if (l == 1 + XL_OP_NO_TOUCH)
		xl_rec_rx_lin(rec, data, data_end, XL_OP_NO_TOUCH);
	else if (l == 1 + XL_OP_READ_DATA)
		xl_rec_rx_lin(rec, data, data_end, XL_OP_READ_DATA);
	else if (l == 1 + XL_OP_PARSE_IP)
		xl_rec_rx_lin(rec, data, data_end, XL_OP_PARSE_IP);
	else if (l == 1 + XL_OP_SWAP_MACS)
		xl_rec_rx_lin(rec, data, data_end, XL_OP_SWAP_MACS);
	else
		bench_options(ctx, rec);
	return action;
}

/*
 * Where the device's driver counts every frame run through XDP (veth:
 * rx_queue_N_xdp_packets, _xdp_bytes and per action, read by
 * xl_eth_xdp_read()), the benchmark counts nothing on the way through
 * (struct xl_bench_opts.driver_counts). No-touch is then a program that
 * only returns its action, one per action so that not even the action is
 * read from rodata: the bare program whose cost is the floor. The other
 * operations apply the operation and look their CPU's record up only when
 * it fails, to count the error.
 */
SEC("xdp")
int xdp_bare_drop(struct xdp_md *ctx)
{
	return XDP_DROP;
}

SEC("xdp")
int xdp_bare_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int xdp_bare_tx(struct xdp_md *ctx)
{
	return XDP_TX;
}

SEC("xdp")
int xdp_bench_op_only(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 l = lean;
	int bad = 0;

	/* l is a verifier-known constant: one of these branches stays. */
	if (l == 1 + XL_OP_READ_DATA)
		bad = xl_pkt_op_apply(data, data_end, XL_OP_READ_DATA);
	else if (l == 1 + XL_OP_PARSE_IP)
		bad = xl_pkt_op_apply(data, data_end, XL_OP_PARSE_IP);
	else if (l == 1 + XL_OP_SWAP_MACS)
		bad = xl_pkt_op_apply(data, data_end, XL_OP_SWAP_MACS);
	if (bad) {
		struct xl_bench_rec *rec = xl_bench_rec_this_cpu();

		if (rec)
			rec->errors++;
	}
	return action;
}

/*
 * The lab's tc-drop row: the same counting and packet operation one hook up,
 * at the clsact ingress hook (an skb, after GRO), then TC_ACT_SHOT. Read as
 * XDP_DROPs (xl_bench__read()) so that readers need not tell the two apart.
 * Loaded instead of xdp_bench_action (struct xl_bench_opts.tc).
 */
SEC("tc")
int tc_bench_drop(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct xl_bench_rec *rec;

	rec = xl_bench_rec_this_cpu();
	if (!rec)
		return TC_ACT_SHOT;
	/* xl_rec_rx() with the skb's length: the whole frame, linear or not. */
	rec->rx_packets++;
	rec->rx_bytes += skb->len;
	if (xl_pkt_op_apply(data, data_end, pkt_op))
		rec->errors++;
	/* actions[XDP_DROP] is rx_packets: derived in user space. */
	return TC_ACT_SHOT;
}

char LICENSE[] SEC("license") = "GPL";
