// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor: count the xdp tracepoints per CPU by (event, action,
 * ifindex, errno): in a per-CPU array slot per (event, errno class) when
 * the slot's key matches (the frequent events: no hash lookup), else in a
 * per-CPU hash (include/xdplab/abi/monitor.h). Two program sets over the same
 * counting code: tp_btf (BTF-typed arguments, device ifindexes read through
 * CO-RE, include/xdplab/xdp_core.h) for kernels with vmlinux BTF, and
 * raw_tp (scalar arguments only, ifindex 0) otherwise. User space loads one
 * set and, in it, only the tracepoints this kernel has.
 * Errors-only mode (the default) does not load the success-path programs
 * (xdp_redirect, xdp_redirect_map), so their tracepoints stay disabled and
 * cost nothing; the bulk events (cpumap, devmap) are counted only when they
 * report drops or an error. With count_all every event is counted.
 * With a device filter (ndevs, devs: set before load) only the events of
 * those devices are counted (exception and redirect events: the receiving
 * device; devmap_xmit: the transmitting one), checked before any map
 * access; cpumap events carry no device and are always counted.
 * Tracepoint prototypes: include/trace/events/xdp.h (kernel 5.10+).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "xdplab/abi/monitor.h"
#include "xdp_core.h"

#ifndef INT_MAX
#define INT_MAX 0x7fffffff
#endif

const volatile __u32 count_all = 0;
/*
 * The device filter, set before load: with ndevs > 0 only events on these
 * devices are counted (tp_btf only; raw_tp has no device to compare).
 * With ndevs 0 the verifier prunes the check away.
 */
const volatile __u32 ndevs = 0;
const volatile struct xl_mon_dev devs[XL_MON_MAX_DEVS] = {};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, XL_MON_MAX_KEYS);
	__type(key, struct xl_mon_key);
	__type(value, struct xl_mon_val);
} mon_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XL_MON_FAST_SLOTS);
	__type(key, __u32);
	__type(value, struct xl_mon_slot);
} mon_fast SEC(".maps");

/*
 * The slow path: the hash, for keys without a fast slot. @sched: 1 when
 * the event is a cpumap kthread loop that slept (struct xl_mon_val), else
 * 0; a constant 0 at every other call, so that add is compiled away there.
 */
static __always_inline void count_hash(__u32 ev, __u32 act, int ifindex, __u32 err, __u64 packets,
				  __u64 drops, __u64 sched)
{
	struct xl_mon_key k = { .event = ev, .action = act, .ifindex = ifindex, .err = err };
	struct xl_mon_val *v, zero = {};

	v = bpf_map_lookup_elem(&mon_counts, &k);
	if (!v) {
		bpf_map_update_elem(&mon_counts, &k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&mon_counts, &k);
		if (!v)
			return;
	}
	v->events++;
	v->packets += packets;
	v->drops += drops;
	v->sched += sched;
}

/* The redirect target's ifindex, as the tracepoint itself computes it. */
static __always_inline int redirect_target(const void *tgt, int map_type, __u32 map_id,
					   __u32 index)
{
	if (map_type == BPF_MAP_TYPE_DEVMAP || map_type == BPF_MAP_TYPE_DEVMAP_HASH)
		return tgt ? BPF_CORE_READ((struct bpf_dtab_netdev *)tgt, dev, ifindex) : 0;
	if (map_type == BPF_MAP_TYPE_UNSPEC && map_id == INT_MAX)
		return index;
	return 0;
}

/*
 * Count one event on this CPU's fast slot of its (event, errno class)
 * group: the first of the XL_MON_WAYS ways that is free (the slot becomes
 * this key's) or holds this key; the hash when the errno has no class or
 * every way holds another key. A plain event (by_map 0) matches by
 * (ifindex, action). A redirect event (by_map 1, @tgt/@map_type/@map_id/
 * @index from its tracepoint) matches by the tracepoint's (map_id, index),
 * so the target device (two probe reads) is read only when a slot is
 * claimed or the event goes to the hash; @ifindex is unused then. by_map is
 * a constant at every call, so each unrolled loop is specialised. This
 * replaced two copies of the loop (count() and count_redirect()): the
 * plain-event programs are instruction-identical to before, the four
 * tp_btf redirect programs 386 instructions instead of 393 (llvm-objdump
 * -d). An earlier merge (bd384cf) was reverted after e2e watch_cost_rows
 * failed with it; that test is load sensitive: alternating 6 runs each on
 * one loaded machine, the two copies passed 4 and this form 5.
 */
static __always_inline void count_slot(__u32 ev, __u32 act, int ifindex, int err, __u64 packets,
				       __u64 drops, __u64 sched, const int by_map, const void *tgt,
				       int map_type, __u32 map_id, __u32 index)
{
	__u32 e = err < 0 ? -err : err, base, idx, w;
	int c = xl_mon_err_class(e);
	struct xl_mon_slot *s;

	if (c < 0)
		goto slow;
	base = (ev * XL_MON_ERR_CLASSES + c) * XL_MON_WAYS;
	_Pragma("unroll")
	for (w = 0; w < XL_MON_WAYS; w++) {
		idx = base + w;
		s = bpf_map_lookup_elem(&mon_fast, &idx);
		if (!s)
			goto slow;
		if (!s->used) {
			/* A free way on this CPU: the slot is this key's. */
			s->key.event = ev;
			s->key.action = act;
			s->key.ifindex = by_map ? redirect_target(tgt, map_type, map_id, index) :
						  ifindex;
			s->key.err = e;
			if (by_map) {
				s->map_id = map_id;
				s->index = index;
			}
			s->used = 1;
			goto hit;
		}
		if (by_map ? s->map_id == map_id && s->index == index :
			     s->key.ifindex == ifindex && s->key.action == act)
			goto hit;
	}
	goto slow;
hit:
	s->val.events++;
	s->val.packets += packets;
	s->val.drops += drops;
	s->val.sched += sched;
	return;
slow:
	if (by_map)
		ifindex = redirect_target(tgt, map_type, map_id, index);
	count_hash(ev, act, ifindex, e, packets, drops, sched);
}

static __always_inline void count(__u32 ev, __u32 act, int ifindex, int err, __u64 packets,
				  __u64 drops, __u64 sched)
{
	count_slot(ev, act, ifindex, err, packets, drops, sched, 0, NULL, 0, 0, 0);
}

/* A bulk event is counted with --all, or when it reports drops or an error. */
static __always_inline int bulk_counted(__u64 drops, int err)
{
	return count_all || drops || err;
}

static __always_inline void bulk(__u32 ev, __u32 act, int ifindex, int err, __u64 packets,
				 __u64 drops, __u64 sched)
{
	if (bulk_counted(drops, err))
		count(ev, act, ifindex, err, packets, drops, sched);
}

/* ---- tp_btf: kernels with BTF ---- */

/* Is @dev one of the filter's devices (or is there no filter)? Before any map access. */
static __always_inline int wanted(const struct net_device *dev)
{
	__u32 i, ns;
	int ifx;

	if (!ndevs)
		return 1;
	ifx = dev->ifindex;
	ns = dev->nd_net.net->ns.inum;
	_Pragma("unroll")
	for (i = 0; i < XL_MON_MAX_DEVS; i++)
		if (i < ndevs && devs[i].ifindex == ifx && devs[i].netns == ns)
			return 1;
	return 0;
}

SEC("tp_btf/xdp_exception")
int BPF_PROG(xl_mon_exc, const struct net_device *dev, const struct bpf_prog *xdp, __u32 act)
{
	if (!wanted(dev))
		return 0;
	count_hash(XL_EV_EXCEPTION, act, dev->ifindex, 0, 1, 1, 0);
	return 0;
}

/* A redirect event: one frame, a drop when it failed. */
static __always_inline void count_redirect(__u32 ev, const void *tgt, int err, int map_type,
					   __u32 map_id, __u32 index)
{
	count_slot(ev, XDP_REDIRECT, 0, err, 1, err ? 1 : 0, 0, 1, tgt, map_type, map_id, index);
}

#define REDIRECT_BTF(name, ev, is_err)                                                        \
	SEC("tp_btf/" #ev)                                                                    \
	int BPF_PROG(name, const struct net_device *dev, const struct bpf_prog *xdp,          \
		     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)       \
	{                                                                                     \
		if (!wanted(dev)) /* the receiving device */                                  \
			return 0;                                                             \
		count_redirect(is_err, tgt, err, map_type, map_id, index);                    \
		return 0;                                                                     \
	}

REDIRECT_BTF(xl_mon_rdr, xdp_redirect, XL_EV_REDIRECT)
REDIRECT_BTF(xl_mon_rerr, xdp_redirect_err, XL_EV_REDIRECT_ERR)
REDIRECT_BTF(xl_mon_rmap, xdp_redirect_map, XL_EV_REDIRECT_MAP)
REDIRECT_BTF(xl_mon_rme, xdp_redirect_map_err, XL_EV_REDIRECT_MAP_ERR)

/*
 * The cpumap events read no device, so their tp_btf and raw_tp programs
 * have one body: CPUMAP_PROGS(kind, suffix) makes both of a kind
 * (xl_mon_enq, xl_mon_kth; with _raw for raw_tp). The kthread's @sched
 * (0 or 1 in the kernel; any nonzero value counted once) is its loop's
 * "slept or was rescheduled before this batch" (struct xl_mon_val).
 */
#define CPUMAP_PROGS(kind, sfx)                                                               \
	SEC(kind "/xdp_cpumap_enqueue")                                                       \
	int BPF_PROG(xl_mon_enq##sfx, int map_id, unsigned int processed, unsigned int drops, \
		     int to_cpu)                                                              \
	{                                                                                     \
		bulk(XL_EV_CPUMAP_ENQUEUE, XDP_REDIRECT, 0, 0, processed, drops, 0);          \
		return 0;                                                                     \
	}                                                                                     \
                                                                                              \
	SEC(kind "/xdp_cpumap_kthread")                                                       \
	int BPF_PROG(xl_mon_kth##sfx, int map_id, unsigned int processed, unsigned int drops, \
		     int sched)                                                               \
	{                                                                                     \
		bulk(XL_EV_CPUMAP_KTHREAD, XL_MON_ACT_NONE, 0, 0, processed, drops,           \
		     sched != 0);                                                             \
		return 0;                                                                     \
	}

CPUMAP_PROGS("tp_btf", )

SEC("tp_btf/xdp_devmap_xmit")
int BPF_PROG(xl_mon_xmit, const struct net_device *from_dev, const struct net_device *to_dev,
	     int sent, int drops, int err)
{
	/*
	 * Every devmap bulk (16 frames) of a healthy path ends here: return
	 * before touching the device. Without the barrier clang loads
	 * to_dev->ifindex first (a BTF pointer read is a plain load, so it
	 * may be hoisted), a cache line the success path does not need.
	 */
	if (!bulk_counted(drops, err))
		return 0;
	asm volatile("" ::: "memory");
	if (!wanted(to_dev))
		return 0;
	count(XL_EV_DEVMAP_XMIT, XDP_REDIRECT, to_dev->ifindex, err, sent, drops, 0);
	return 0;
}

/*
 * The floor (struct xl_monitor_opts.floor): an empty program on the same
 * tracepoint, loaded alone, so that what the kernel's dispatch of a BPF
 * program on xdp_devmap_xmit costs is measured beside what xl_mon_xmit
 * costs (lab run --with-monitor-floor, docs/monitor.md). Not loaded
 * otherwise (user space turns autoload off).
 */
SEC("tp_btf/xdp_devmap_xmit")
int BPF_PROG(xl_mon_floor, const struct net_device *from_dev, const struct net_device *to_dev,
	     int sent, int drops, int err)
{
	return 0;
}

/* ---- raw_tp: no BTF, so no device fields: ifindex 0 (exception: too) ---- */

SEC("raw_tp/xdp_exception")
int BPF_PROG(xl_mon_exc_raw, void *dev, void *xdp, __u32 act)
{
	count_hash(XL_EV_EXCEPTION, act, 0, 0, 1, 1, 0);
	return 0;
}

#define REDIRECT_RAW(name, ev, is_err)                                                        \
	SEC("raw_tp/" #ev)                                                                    \
	int BPF_PROG(name, void *dev, void *xdp, void *tgt, int err, int map_type,            \
		     __u32 map_id, __u32 index)                                               \
	{                                                                                     \
		int ifx = map_type == BPF_MAP_TYPE_UNSPEC && map_id == INT_MAX ? index : 0;   \
                                                                                              \
		count(is_err, XDP_REDIRECT, ifx, err, 1, err ? 1 : 0, 0);                     \
		return 0;                                                                     \
	}

REDIRECT_RAW(xl_mon_rdr_raw, xdp_redirect, XL_EV_REDIRECT)
REDIRECT_RAW(xl_mon_rerr_raw, xdp_redirect_err, XL_EV_REDIRECT_ERR)
REDIRECT_RAW(xl_mon_rmap_raw, xdp_redirect_map, XL_EV_REDIRECT_MAP)
REDIRECT_RAW(xl_mon_rme_raw, xdp_redirect_map_err, XL_EV_REDIRECT_MAP_ERR)

CPUMAP_PROGS("raw_tp", _raw)

SEC("raw_tp/xdp_devmap_xmit")
int BPF_PROG(xl_mon_xmit_raw, void *from_dev, void *to_dev, int sent, int drops, int err)
{
	bulk(XL_EV_DEVMAP_XMIT, XDP_REDIRECT, 0, err, sent, drops, 0);
	return 0;
}

/* The floor for raw_tp (the set without BTF). */
SEC("raw_tp/xdp_devmap_xmit")
int BPF_PROG(xl_mon_floor_raw, void *from_dev, void *to_dev, int sent, int drops, int err)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
