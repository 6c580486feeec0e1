// SPDX-License-Identifier: GPL-2.0
/*
 * Capture at the XDP hook (xdplab dump): each frame's first snaplen bytes
 * and a header (struct xl_dump_hdr, abi/dump.h) go into a BPF ring buffer.
 * Three programs, one loaded per hook:
 *  - xdp_dump: our own XDP program on the interface; returns own_action.
 *  - dump_entry / dump_exit: fentry / fexit of the XDP program already on the
 *    interface (the approach of xdp-tools' xdpdump, which uses a perf buffer;
 *    here a ring buffer): they see the frame before it runs and after it ran
 *    (with its action). The target is set by user space before load.
 * Wake-ups are batched: a record is submitted with BPF_RB_NO_WAKEUP unless
 * the ring's unread data crosses a multiple of wakeup_bytes, then with
 * BPF_RB_FORCE_WAKEUP; user space also polls with a short timeout, so the
 * tail below the threshold is read too.
 * Records are reserved in fixed size classes (bpf_ringbuf_reserve takes a
 * constant size), the smallest that holds the captured bytes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "xdplab/abi/dump.h"

const volatile __u32 snaplen = XL_DUMP_MAX_SNAPLEN;
const volatile __u32 own_action = XDP_PASS;
const volatile __u64 wakeup_bytes = 1 << 20;

struct xdp_rxq_info {
	struct net_device *dev;
	__u32 queue_index;
} __attribute__((preserve_access_index));

struct net_device {
	int ifindex;
} __attribute__((preserve_access_index));

struct xdp_buff {
	void *data;
	void *data_end;
	struct xdp_rxq_info *rxq;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* set by user space before load */
} dump_ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XL_DUMP_HOOKS);
	__type(key, __u32);
	__type(value, struct xl_dump_stats);
} dump_stats SEC(".maps");

/* Submit with a wake-up only when the unread bytes cross a multiple of wakeup_bytes. */
static __always_inline void submit(void *rec, __u64 sz, struct xl_dump_stats *st)
{
	__u64 avail = bpf_ringbuf_query(&dump_ring, BPF_RB_AVAIL_DATA);
	__u64 thr = wakeup_bytes;

	if (avail >= sz && avail / thr != (avail - sz) / thr) {
		st->wakeups++;
		bpf_ringbuf_submit(rec, BPF_RB_FORCE_WAKEUP);
	} else {
		bpf_ringbuf_submit(rec, BPF_RB_NO_WAKEUP);
	}
}

/*
 * One size class: reserve a record of SZ data bytes, copy n (1..SZ) bytes.
 * The empty asm keeps the compiler from dropping the bound checks the
 * verifier needs on n. @xdp_ctx: copy with bpf_xdp_load_bytes (own hook),
 * else with bpf_probe_read_kernel from @src (fentry/fexit).
 */
#define XL_DUMP_CLASS(SZ)                                                          \
	if (caplen <= (SZ)) {                                                      \
		struct xl_dump_hdr *h;                                             \
		__u64 n = caplen;                                                  \
		long err;                                                          \
                                                                                   \
		h = bpf_ringbuf_reserve(&dump_ring, sizeof(*h) + (SZ), 0);         \
		if (!h)                                                            \
			goto full;                                                 \
		asm volatile("" : "+r"(n));                                        \
		if (n < 1 || n > (SZ)) {                                           \
			bpf_ringbuf_discard(h, BPF_RB_NO_WAKEUP);                  \
			goto full;                                                 \
		}                                                                  \
		if (xdp_ctx)                                                       \
			err = bpf_xdp_load_bytes(xdp_ctx, 0, h + 1, n);            \
		else                                                               \
			err = bpf_probe_read_kernel(h + 1, n, src);                \
		if (err) {                                                         \
			bpf_ringbuf_discard(h, BPF_RB_NO_WAKEUP);                  \
			goto full;                                                 \
		}                                                                  \
		h->ts_ns = ts;                                                     \
		h->len = len;                                                      \
		h->caplen = n;                                                     \
		h->hook = hook;                                                    \
		h->action = action;                                                \
		h->ifindex = ifindex;                                              \
		h->rxq = rxq;                                                      \
		h->pad = 0;                                                        \
		submit(h, sizeof(*h) + (SZ) + 8 /* ring record header */, st);     \
		return;                                                            \
	}

/*
 * capture() - count the frame at @hook and copy its first bytes to the ring.
 * @len: frame length; @linear: bytes readable at @src (fentry/fexit) or
 * @len (own hook, where bpf_xdp_load_bytes also reads fragments).
 */
static __always_inline void capture(struct xdp_md *xdp_ctx, const void *src, __u32 len,
				    __u32 linear, __u32 hook, __u32 action, __u32 ifindex,
				    __u32 rxq)
{
	struct xl_dump_stats *st;
	__u64 ts = bpf_ktime_get_ns();
	__u32 caplen, key = hook;

	st = bpf_map_lookup_elem(&dump_stats, &key);
	if (!st)
		return;
	st->seen++;
	st->seen_bytes += len;
	if (action < 5)
		st->actions[action]++;
	caplen = len < snaplen ? len : snaplen;
	if (caplen > linear)
		caplen = linear;
	if (caplen < len)
		st->truncated++;
	if (!caplen)
		goto full;
	XL_DUMP_CLASS(64)
	XL_DUMP_CLASS(128)
	XL_DUMP_CLASS(256)
	XL_DUMP_CLASS(512)
	XL_DUMP_CLASS(1024)
	XL_DUMP_CLASS(1536)
	XL_DUMP_CLASS(2048)
	XL_DUMP_CLASS(4096)
	XL_DUMP_CLASS(8192)
	XL_DUMP_CLASS(XL_DUMP_MAX_SNAPLEN)
full:
	st->ring_full++;
}

SEC("xdp")
int xdp_dump(struct xdp_md *ctx)
{
	__u32 len = bpf_xdp_get_buff_len(ctx);

	capture(ctx, NULL, len, len, XL_DUMP_HOOK_OWN, own_action, ctx->ingress_ifindex,
		ctx->rx_queue_index);
	return own_action;
}

SEC("fentry/xdp_placeholder")
int BPF_PROG(dump_entry, struct xdp_buff *xdp)
{
	__u32 len = bpf_xdp_get_buff_len((struct xdp_md *)xdp);
	void *data = xdp->data;

	capture(NULL, data, len, xdp->data_end - data, XL_DUMP_HOOK_ENTRY, 0xffff,
		xdp->rxq->dev->ifindex, xdp->rxq->queue_index);
	return 0;
}

SEC("fexit/xdp_placeholder")
int BPF_PROG(dump_exit, struct xdp_buff *xdp, int ret)
{
	__u32 len = bpf_xdp_get_buff_len((struct xdp_md *)xdp);
	void *data = xdp->data;

	capture(NULL, data, len, xdp->data_end - data, XL_DUMP_HOOK_EXIT, ret,
		xdp->rxq->dev->ifindex, xdp->rxq->queue_index);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
