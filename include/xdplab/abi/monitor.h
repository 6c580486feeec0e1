/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/monitor.h
 * Layout shared by bpf/monitor.bpf.c and user space: the key and value of
 * the per-CPU hash in which the xdp tracepoint programs count events, and
 * the slots of the per-CPU array that counts the frequent ones.
 * Compiles under clang -target bpf and gcc.
 */
#ifndef XDPLAB_MONITOR_SHARED_H
#define XDPLAB_MONITOR_SHARED_H

#include <linux/types.h>

/** The xdp tracepoints the monitor knows (include/trace/events/xdp.h). */
enum xl_mon_event {
	XL_EV_EXCEPTION = 0,      /**< xdp_exception: XDP_ABORTED or an invalid action */
	XL_EV_REDIRECT = 1,       /**< xdp_redirect: success path (--all) */
	XL_EV_REDIRECT_ERR = 2,   /**< xdp_redirect_err: xdp_do_redirect() failed */
	XL_EV_REDIRECT_MAP = 3,   /**< xdp_redirect_map: old kernels only (--all) */
	XL_EV_REDIRECT_MAP_ERR = 4, /**< xdp_redirect_map_err: old kernels only */
	XL_EV_CPUMAP_ENQUEUE = 5, /**< xdp_cpumap_enqueue: a bulk queued to a cpumap CPU */
	XL_EV_CPUMAP_KTHREAD = 6, /**< xdp_cpumap_kthread: a cpumap kthread batch */
	XL_EV_DEVMAP_XMIT = 7,    /**< xdp_devmap_xmit: a bulk handed to ndo_xdp_xmit */
	XL_EV__COUNT,
};

/** Action field value of events that carry no XDP action. */
#define XL_MON_ACT_NONE 255

/** Most devices a filtered monitor watches (struct xl_mon_dev). */
#define XL_MON_MAX_DEVS 8

/**
 * struct xl_mon_dev - one watched device: @netns, the inode of its network
 * namespace (st_ino of /run/netns/NAME or /proc/self/ns/net), and @ifindex
 * there (ifindexes repeat across namespaces, so both are compared).
 */
struct xl_mon_dev {
	__u32 netns;
	__s32 ifindex;
};

/** Most distinct keys counted. */
#define XL_MON_MAX_KEYS 1024

/**
 * struct xl_mon_key - what one counter is about.
 * @event: enum xl_mon_event.
 * @action: the XDP action (xdp_exception: what the program returned;
 *          redirect events: XDP_REDIRECT), or XL_MON_ACT_NONE.
 * @ifindex: xdp_exception: the device the program ran on; redirect events:
 *          the target device (0 for a broadcast, a cpumap or an xskmap);
 *          xdp_devmap_xmit: the transmitting device; cpumap events: 0.
 *          In the namespace of that device. 0 when unknown (raw_tp: no BTF).
 * @err: positive errno (0: none), e.g. ENETDOWN for a redirect to a down
 *          device.
 */
struct xl_mon_key {
	__u32 event;
	__u32 action;
	__s32 ifindex;
	__u32 err;
};

/**
 * struct xl_mon_val - counts for one key on one CPU.
 * @events: tracepoint hits.
 * @packets: frames they concern (1 per hit for exception and redirect
 *          events; the bulk's processed/sent count otherwise).
 * @drops: frames lost (exception and redirect_err: every frame; bulk
 *          events: their drops argument).
 * @sched: xdp_cpumap_kthread only (0 for the other events): the hits whose
 *          sched argument was set, i.e. the kthread's loop had slept
 *          (ring empty, schedule()) or been rescheduled by cond_resched()
 *          before it took its batch (kernel/bpf/cpumap.c,
 *          cpu_map_kthread_run()); what xdp-tools' xdp_sample counts and
 *          xdp-monitor -e prints as "sched" (lib/util/xdp_sample.bpf.c).
 */
struct xl_mon_val {
	__u64 events;
	__u64 packets;
	__u64 drops;
	__u64 sched;
};

/*
 * The fast counters: a per-CPU array with XL_MON_WAYS slots per (event,
 * errno class), found by index (an array lookup the JIT inlines) instead
 * of a hash lookup per event, as xdp-tools' sample programs count
 * redirect errors per errno class (lib/util/xdp_sample.bpf.c). A slot
 * keeps the first full key it saw on its CPU; an event whose key matches
 * none of its ways (all taken), an errno outside the classes and
 * xdp_exception (rare; the action varies) go to the per-CPU hash as
 * before. User space adds both, so the rows are the same.
 */

/** Errno classes with a fast slot: none, ENETDOWN, EINVAL, ENETUNREACH,
 * EOPNOTSUPP, EBUSY, ENOSPC (the errnos of the redirect and xmit paths). */
#define XL_MON_ERR_CLASSES 7

/**
 * Ways per (event, errno class): that many distinct keys (targets,
 * devices) per CPU find a slot before the hash is used; the programs try
 * them in order. Other labs' traffic on the same CPU, a broadcast or a
 * second redirect target take a way each instead of pushing every event of
 * the measured path to the hash.
 */
#define XL_MON_WAYS 4

/** Slots of the fast array: every event x every errno class x every way. */
#define XL_MON_FAST_SLOTS (XL_EV__COUNT * XL_MON_ERR_CLASSES * XL_MON_WAYS)

/**
 * xl_mon_err_class() - the fast slot class of a positive errno @err, or
 * -1 when it has none (counted in the hash). Numbers as in
 * include/uapi/asm-generic/errno*.h (BPF programs have no errno.h).
 */
static inline int xl_mon_err_class(__u32 err)
{
	switch (err) {
	case 0:
		return 0;
	case 100: /* ENETDOWN */
		return 1;
	case 22: /* EINVAL */
		return 2;
	case 101: /* ENETUNREACH */
		return 3;
	case 95: /* EOPNOTSUPP */
		return 4;
	case 16: /* EBUSY */
		return 5;
	case 28: /* ENOSPC */
		return 6;
	}
	return -1;
}

/**
 * struct xl_mon_slot - one fast counter on one CPU.
 * @key: the full key of what it counts (set on first use).
 * @used: 0 until the first event on this CPU claims the slot.
 * @map_id/@index: redirect events: the map and key the slot's target was
 *   resolved from (the tracepoint's own scalars), so later events of the
 *   same target are matched without reading the target device again (two
 *   bpf_probe_read_kernel() calls per event otherwise). A devmap entry
 *   changed to another device while the monitor runs keeps the device it
 *   had when the slot was claimed.
 * @val: the counts, as in the hash.
 */
struct xl_mon_slot {
	struct xl_mon_key key;
	__u32 used;
	__u32 map_id;
	__u32 index;
	__u32 pad;
	struct xl_mon_val val;
};

#ifndef __bpf__
/* The layout is an ABI between the BPF program and user space. */
_Static_assert(sizeof(struct xl_mon_key) == 16, "struct xl_mon_key changed size");
_Static_assert(sizeof(struct xl_mon_val) == 32, "struct xl_mon_val changed size");
_Static_assert(sizeof(struct xl_mon_slot) == 64, "struct xl_mon_slot changed size");
#endif

#endif /* XDPLAB_MONITOR_SHARED_H */
