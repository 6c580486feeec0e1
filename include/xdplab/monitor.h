/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file monitor.h
 * The xdp tracepoint monitor: BPF programs on xdp_exception,
 * xdp_redirect_err, xdp_redirect_map_err (old kernels), xdp_cpumap_enqueue,
 * xdp_cpumap_kthread, xdp_devmap_xmit (and, with @all, the success path
 * xdp_redirect, xdp_redirect_map) counting per CPU by (event, action,
 * ifindex, errno); snapshots summed over CPUs, and the pure helpers that
 * name and aggregate them. Tracepoints this kernel lacks are skipped, never
 * a failure. Attached through bpf_links: a killed process leaves nothing.
 * Why errors-only by default: a program on the xdp_redirect tracepoint
 * costs every forwarded frame (netdev measured ~25 ns; docs/monitor.md has
 * ours), which is why the kernel has a separate error tracepoint.
 */
#ifndef XDPLAB_MONITOR_H
#define XDPLAB_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/abi/monitor.h"

/** How the programs attach. */
enum xl_mon_attach {
	XL_MON_AUTO = 0, /**< tp_btf when /sys/kernel/btf/vmlinux exists, else raw_tp */
	XL_MON_BTF = 1,  /**< tp_btf: typed arguments, ifindexes via CO-RE */
	XL_MON_RAW = 2,  /**< raw_tp: no BTF needed; device ifindexes read as 0 */
};

/**
 * struct xl_monitor_opts - what to watch.
 * @all: also count the success path (xdp_redirect, xdp_redirect_map) and
 *       every cpumap/devmap bulk, not only those with drops or an error.
 * @attach: how to attach.
 * @ndevs: with 1..XL_MON_MAX_DEVS, count only the events of the devices in
 *         @devs (checked in BPF before any map access, so other XDP
 *         traffic on the machine is neither counted nor costs a map
 *         update); cpumap events carry no device and are always counted.
 *         Needs tp_btf (raw_tp has no device fields): with XL_MON_RAW, or
 *         XL_MON_AUTO without kernel BTF, creation fails with EOPNOTSUPP.
 *         0: every device (the default).
 * @devs: the devices (namespace inode and ifindex), see struct xl_mon_dev.
 * @floor: load only an empty program on xdp_devmap_xmit (returns 0, counts
 *         nothing): what the kernel's dispatch of a BPF program on that
 *         tracepoint costs without our program's work, the floor under the
 *         errors-only monitor's cost (lab run --with-monitor-floor,
 *         docs/monitor.md). Not with @all (EINVAL); @ndevs/@devs unused.
 */
struct xl_monitor_opts {
	bool all, floor;
	enum xl_mon_attach attach;
	int ndevs;
	struct xl_mon_dev devs[XL_MON_MAX_DEVS];
};

/** struct xl_mon_row - one key and its counts summed over CPUs. */
struct xl_mon_row {
	struct xl_mon_key key;
	struct xl_mon_val val;
};

/**
 * struct xl_mon_snapshot - every key counted so far.
 * @n: rows used; @rows: sorted by xl_mon_sort() order after
 * xl_monitor__read().
 */
struct xl_mon_snapshot {
	int n;
	struct xl_mon_row rows[XL_MON_MAX_KEYS];
};

struct xl_monitor;

/**
 * xl_monitor__create() - load and attach the programs for the tracepoints
 * this kernel has. Each one skipped is logged at INFO and listed by
 * xl_monitor__skipped(). Return: the monitor (free with
 * xl_monitor__destroy()), or NULL with errno (EPERM: no BPF permission,
 * ENOENT: none of the tracepoints exists, EINVAL: @ndevs out of 0..XL_MON_MAX_DEVS,
 * EOPNOTSUPP: a device filter without tp_btf, or a load/attach errno).
 */
struct xl_monitor *xl_monitor__create(const struct xl_monitor_opts *opts);

/** xl_monitor__read() - sum the per-CPU counts into @s, sorted. Return: 0 or -errno. */
int xl_monitor__read(struct xl_monitor *m, struct xl_mon_snapshot *s);

/**
 * xl_monitor__read_cpus() - as xl_monitor__read(), and each CPU's own
 * counts into @cpus[i] for CPU i < @ncpus (rows only for keys that CPU
 * counted; @cpus may be NULL), the per-CPU view of xdp-monitor's
 * --extended. @cpus holds @ncpus snapshots (the caller's, typically
 * xl_monitor__ncpus() of them). Return: 0 or -errno (-ENOSPC: a snapshot
 * is full).
 */
int xl_monitor__read_cpus(struct xl_monitor *m, struct xl_mon_snapshot *s,
			  struct xl_mon_snapshot *cpus, int ncpus);

/** xl_monitor__ncpus() - the possible CPUs the counters are kept for. */
int xl_monitor__ncpus(const struct xl_monitor *m);

/**
 * xl_monitor__skipped() - names of the tracepoints skipped (absent here),
 * up to @max into @names (pointers to static strings). Return: how many.
 */
int xl_monitor__skipped(const struct xl_monitor *m, const char **names, int max);

/**
 * xl_monitor__attached() - names of the tracepoints watched, as
 * xl_monitor__skipped(). Return: how many.
 */
int xl_monitor__attached(const struct xl_monitor *m, const char **names, int max);

/**
 * xl_monitor__prog_ids() - the kernel's ids of @m's loaded programs (one
 * per tracepoint attached at creation, attached now or not), up to @max
 * into @ids. Return: how many are loaded (may exceed @max), or -errno.
 */
int xl_monitor__prog_ids(struct xl_monitor *m, uint32_t *ids, int max);

/**
 * struct xl_mon_census - the kernel's tracepoint links, now (xl_mon_link_census()).
 * @links: links whose program is one of the ids asked about, any tracepoint.
 * @on_xmit: of those, links on xdp_devmap_xmit.
 * @first_prog_id: the program of the first of those links the walk met
 *   (0: none), which a census of one link names.
 * @xmit_total: every tracepoint link on xdp_devmap_xmit, whoever made it
 *   (other monitors on the machine included).
 */
struct xl_mon_census {
	int links, on_xmit, xmit_total;
	uint32_t first_prog_id;
};

/**
 * xl_mon_link_census() - walk every BPF link in the kernel
 * (BPF_LINK_GET_NEXT_ID, as `bpftool link list` does) and count the
 * raw-tracepoint links (tp_btf and raw_tp attach that way) of the programs
 * @ids[0..@nids) into @c: what is attached, as the kernel sees it, not as
 * the monitor believes. Needs CAP_SYS_ADMIN. Links made or cut during the
 * walk may or may not be seen. Return: 0, or -errno.
 */
int xl_mon_link_census(const uint32_t *ids, int nids, struct xl_mon_census *c);

/** xl_monitor__attach_kind() - "tp_btf" or "raw_tp". */
const char *xl_monitor__attach_kind(const struct xl_monitor *m);

/**
 * xl_monitor__detach() - remove the tracepoint links, keeping the programs
 * loaded and the counts: the tracepoints then cost nothing until
 * xl_monitor__attach(). Detaching a detached monitor does nothing.
 * Returns only when the kernel has released the links' ids (a link being
 * freed may fire for microseconds more; the lab's settle time covers
 * that): a raw-tracepoint link
 * cannot be force-detached (no BPF_LINK_DETACH for it), and while another
 * process holds one (bpftool link list opens every link) closing ours left
 * the program attached into the lab's next slice (a "no monitor" slice
 * measured with the previous level's monitor still firing). Waits up to
 * XL_MON_DETACH_WAIT_MS for that holder. Return: 0, -EBUSY (a link still
 * attached after that: pinned, or held by a process that does not let go),
 * or -errno (also when a link's id could not be read to wait for it; the
 * links are closed in every case).
 */
int xl_monitor__detach(struct xl_monitor *m);

/** XL_MON_DETACH_WAIT_MS - xl_monitor__detach()'s wait for other holders, ms. */
#define XL_MON_DETACH_WAIT_MS 500

/**
 * xl_monitor__attach() - attach again every tracepoint that
 * xl_monitor__create() attached (a link creation each, no program load:
 * milliseconds, so a measurement can toggle the monitor between short
 * windows). Return: 0, or -errno with the monitor left detached.
 */
int xl_monitor__attach(struct xl_monitor *m);

/** xl_monitor__destroy() - detach (close the links), unload, free. NULL is fine. */
void xl_monitor__destroy(struct xl_monitor *m);

/** xl_mon_event_name() - the tracepoint's name ("xdp_redirect_err"), "?" out of range. */
const char *xl_mon_event_name(uint32_t event);

/**
 * xl_mon_action_name() - "ABORTED", "DROP", "PASS", "TX", "REDIRECT", "-"
 * for XL_MON_ACT_NONE, or "INVALID(n)" in @buf (>= 16 bytes) for any other
 * value (a program returning an action that does not exist). Return: the name.
 */
const char *xl_mon_action_name(uint32_t action, char *buf, int len);

/**
 * xl_errno_name() - the symbol of a positive errno ("ENETDOWN"), "-" for 0,
 * the kernel-internal ones too (ENOTSUPP 524); "E<n>" in a static buffer
 * (not thread-safe) for unknown values. A negative @err is negated first.
 */
const char *xl_errno_name(int err);

/**
 * xl_mon_add() - add @val (one CPU's, or a sum) to @key's row of @s,
 * appending the row if new. Return: 0, or -ENOSPC when @s is full.
 */
int xl_mon_add(struct xl_mon_snapshot *s, const struct xl_mon_key *key,
	       const struct xl_mon_val *val);

/** xl_mon_find() - @key's row in @s, or NULL. */
const struct xl_mon_row *xl_mon_find(const struct xl_mon_snapshot *s,
				     const struct xl_mon_key *key);

/** xl_mon_key_cmp() - order keys by event, action, ifindex, errno (qsort-like). */
int xl_mon_key_cmp(const struct xl_mon_key *a, const struct xl_mon_key *b);

/** xl_mon_sort() - sort @s's rows by xl_mon_key_cmp(). */
void xl_mon_sort(struct xl_mon_snapshot *s);

/**
 * xl_mon_delta() - @row's counts minus those of the same key in @prev (or
 * all of them when @prev has no such key) into @out.
 */
void xl_mon_delta(const struct xl_mon_snapshot *prev, const struct xl_mon_row *row,
		  struct xl_mon_val *out);

#endif /* XDPLAB_MONITOR_H */
