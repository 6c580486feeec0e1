// SPDX-License-Identifier: BSD-2-Clause
/*
 * The xdp tracepoint monitor. Which tracepoints exist differs by kernel
 * (xdp_redirect_map and xdp_redirect_map_err were folded into
 * xdp_redirect/xdp_redirect_err in 5.x and are gone on 6.x), so every
 * program is loaded only if its tracepoint is here: tp_btf programs are
 * checked against the btf_trace_<name> typedef in vmlinux BTF before load
 * (a missing one would fail the whole load), raw_tp programs at attach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "xdplab/abi/monitor.h" /* before the skeleton: its rodata has struct xl_mon_dev */
#include "monitor.skel.h"
#include "xdplab/log.h"
#include "xdplab/monitor.h"
#include "xdplab/time.h"

#define NTP XL_EV__COUNT

struct xl_monitor {
	struct monitor *skel;
	bool raw, floor;
	int ncpus;
	bool attached[NTP];
	bool skipped[NTP];
};

static const char *const event_names[NTP] = {
	[XL_EV_EXCEPTION] = "xdp_exception",
	[XL_EV_REDIRECT] = "xdp_redirect",
	[XL_EV_REDIRECT_ERR] = "xdp_redirect_err",
	[XL_EV_REDIRECT_MAP] = "xdp_redirect_map",
	[XL_EV_REDIRECT_MAP_ERR] = "xdp_redirect_map_err",
	[XL_EV_CPUMAP_ENQUEUE] = "xdp_cpumap_enqueue",
	[XL_EV_CPUMAP_KTHREAD] = "xdp_cpumap_kthread",
	[XL_EV_DEVMAP_XMIT] = "xdp_devmap_xmit",
};

const char *xl_mon_event_name(uint32_t event)
{
	return event < NTP ? event_names[event] : "?";
}

const char *xl_mon_action_name(uint32_t action, char *buf, int len)
{
	static const char *const n[] = { "ABORTED", "DROP", "PASS", "TX", "REDIRECT" };

	if (action < 5)
		return n[action];
	if (action == XL_MON_ACT_NONE)
		return "-";
	snprintf(buf, len, "INVALID(%u)", action);
	return buf;
}

const char *xl_errno_name(int err)
{
	static const struct {
		int e;
		const char *n;
	} t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
		{ E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" },
		{ EOVERFLOW, "EOVERFLOW" }, { EMSGSIZE, "EMSGSIZE" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ ENETDOWN, "ENETDOWN" }, { ENETUNREACH, "ENETUNREACH" },
		{ ENOBUFS, "ENOBUFS" }, { ENOTCONN, "ENOTCONN" }, { ECONNREFUSED, "ECONNREFUSED" },
		{ EHOSTUNREACH, "EHOSTUNREACH" }, { ENOLINK, "ENOLINK" }, { EBADMSG, "EBADMSG" },
		{ 524, "ENOTSUPP" }, /* kernel-internal (include/linux/errno.h) */
	};
	static char buf[16];
	size_t i;

	if (err < 0)
		err = -err;
	if (!err)
		return "-";
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == err)
			return t[i].n;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

int xl_mon_key_cmp(const struct xl_mon_key *a, const struct xl_mon_key *b)
{
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->action != b->action)
		return a->action < b->action ? -1 : 1;
	if (a->ifindex != b->ifindex)
		return a->ifindex < b->ifindex ? -1 : 1;
	if (a->err != b->err)
		return a->err < b->err ? -1 : 1;
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	return xl_mon_key_cmp(&((const struct xl_mon_row *)a)->key,
			      &((const struct xl_mon_row *)b)->key);
}

void xl_mon_sort(struct xl_mon_snapshot *s)
{
	qsort(s->rows, s->n, sizeof(s->rows[0]), row_cmp);
}

const struct xl_mon_row *xl_mon_find(const struct xl_mon_snapshot *s,
				     const struct xl_mon_key *key)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!xl_mon_key_cmp(&s->rows[i].key, key))
			return &s->rows[i];
	return NULL;
}

int xl_mon_add(struct xl_mon_snapshot *s, const struct xl_mon_key *key,
	       const struct xl_mon_val *val)
{
	struct xl_mon_row *r = (struct xl_mon_row *)xl_mon_find(s, key);

	if (!r) {
		if (s->n >= XL_MON_MAX_KEYS)
			return -ENOSPC;
		r = &s->rows[s->n++];
		r->key = *key;
		memset(&r->val, 0, sizeof(r->val));
	}
	r->val.events += val->events;
	r->val.packets += val->packets;
	r->val.drops += val->drops;
	r->val.sched += val->sched;
	return 0;
}

void xl_mon_delta(const struct xl_mon_snapshot *prev, const struct xl_mon_row *row,
		  struct xl_mon_val *out)
{
	const struct xl_mon_row *p = prev ? xl_mon_find(prev, &row->key) : NULL;

	*out = row->val;
	if (p) {
		out->events -= p->val.events;
		out->packets -= p->val.packets;
		out->drops -= p->val.drops;
		out->sched -= p->val.sched;
	}
}

/* The programs of one tracepoint in both sets (xdp_devmap_xmit: the floor's with @m->floor). */
static void progs_of(struct xl_monitor *m, int ev, struct bpf_program **btf,
		     struct bpf_program **raw, struct bpf_link ***btf_link,
		     struct bpf_link ***raw_link)
{
	struct monitor *skel = m->skel;

	if (m->floor && ev == XL_EV_DEVMAP_XMIT) {
		*btf = skel->progs.xl_mon_floor;
		*raw = skel->progs.xl_mon_floor_raw;
		*btf_link = &skel->links.xl_mon_floor;
		*raw_link = &skel->links.xl_mon_floor_raw;
		return;
	}
#define P(e, b, r)                                   \
	case e:                                      \
		*btf = skel->progs.b;                \
		*raw = skel->progs.r;                \
		*btf_link = &skel->links.b;          \
		*raw_link = &skel->links.r;          \
		break
	switch (ev) {
	P(XL_EV_EXCEPTION, xl_mon_exc, xl_mon_exc_raw);
	P(XL_EV_REDIRECT, xl_mon_rdr, xl_mon_rdr_raw);
	P(XL_EV_REDIRECT_ERR, xl_mon_rerr, xl_mon_rerr_raw);
	P(XL_EV_REDIRECT_MAP, xl_mon_rmap, xl_mon_rmap_raw);
	P(XL_EV_REDIRECT_MAP_ERR, xl_mon_rme, xl_mon_rme_raw);
	P(XL_EV_CPUMAP_ENQUEUE, xl_mon_enq, xl_mon_enq_raw);
	P(XL_EV_CPUMAP_KTHREAD, xl_mon_kth, xl_mon_kth_raw);
	P(XL_EV_DEVMAP_XMIT, xl_mon_xmit, xl_mon_xmit_raw);
	}
#undef P
}

static bool success_path(int ev)
{
	return ev == XL_EV_REDIRECT || ev == XL_EV_REDIRECT_MAP;
}

struct xl_monitor *xl_monitor__create(const struct xl_monitor_opts *opts)
{
	struct bpf_program *bp, *rp, *p;
	struct bpf_link **bl, **rl;
	struct btf *vmlinux = NULL;
	struct xl_monitor *m;
	int ev, err, n = 0;

	if (opts->floor && opts->all) {
		xl_err("monitor: the floor (an empty xdp_devmap_xmit program) is loaded alone, not with --all");
		errno = EINVAL;
		return NULL;
	}

	if (opts->ndevs < 0 || opts->ndevs > XL_MON_MAX_DEVS) {
		xl_err("monitor device filter: %d devices (accepted: 0..%d)", opts->ndevs,
		       XL_MON_MAX_DEVS);
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->ncpus = libbpf_num_possible_cpus();
	m->floor = opts->floor;
	m->raw = opts->attach == XL_MON_RAW ||
		 (opts->attach == XL_MON_AUTO && access("/sys/kernel/btf/vmlinux", R_OK));
	if (m->raw && opts->ndevs && !m->floor) {
		xl_err("monitor device filter: needs tp_btf (kernel BTF); raw_tp has no device fields");
		err = -EOPNOTSUPP;
		goto out_free;
	}
	if (!m->raw) {
		vmlinux = btf__load_vmlinux_btf();
		if (!vmlinux) {
			err = -errno;
			xl_err("cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): %s (try --attach raw)",
			       strerror(-err));
			goto out_free;
		}
	}
	m->skel = monitor__open();
	if (!m->skel) {
		err = -errno;
		goto out_free_btf;
	}
	m->skel->rodata->count_all = opts->all;
	m->skel->rodata->ndevs = opts->ndevs;
	for (n = 0; n < opts->ndevs; n++) {
		m->skel->rodata->devs[n].netns = opts->devs[n].netns;
		m->skel->rodata->devs[n].ifindex = opts->devs[n].ifindex;
	}
	n = 0;
	/* Nothing loads unless chosen below (the floor's programs included). */
	bpf_object__for_each_program(p, m->skel->obj)
		bpf_program__set_autoload(p, false);
	for (ev = 0; ev < NTP; ev++) {
		bool want = m->floor ? ev == XL_EV_DEVMAP_XMIT : opts->all || !success_path(ev);
		char tname[64];

		progs_of(m, ev, &bp, &rp, &bl, &rl);
		if (!want)
			continue;
		if (!m->raw) {
			snprintf(tname, sizeof(tname), "btf_trace_%s", event_names[ev]);
			if (btf__find_by_name_kind(vmlinux, tname, BTF_KIND_TYPEDEF) < 0) {
				m->skipped[ev] = true;
				continue;
			}
		}
		bpf_program__set_autoload(m->raw ? rp : bp, true);
	}
	err = monitor__load(m->skel);
	if (err) {
		xl_err("cannot load the monitor's tracepoint programs: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_PERFMON)" : "");
		goto out_destroy_skel;
	}
	for (ev = 0; ev < NTP; ev++) {
		struct bpf_link *link;

		progs_of(m, ev, &bp, &rp, &bl, &rl);
		if (!bpf_program__autoload(m->raw ? rp : bp))
			continue;
		link = bpf_program__attach(m->raw ? rp : bp);
		if (!link) {
			err = -errno;
			if (m->raw && err == -ENOENT) {
				m->skipped[ev] = true;
				continue;
			}
			xl_err("cannot attach to the %s tracepoint: %s", event_names[ev],
			       strerror(-err));
			goto out_destroy_skel;
		}
		*(m->raw ? rl : bl) = link;
		m->attached[ev] = true;
		n++;
	}
	for (ev = 0; ev < NTP; ev++)
		if (m->skipped[ev])
			xl_info("tracepoint %s is not in this kernel: skipped", event_names[ev]);
	if (!n) {
		err = -ENOENT;
		xl_err("none of the xdp tracepoints exists in this kernel");
		goto out_destroy_skel;
	}
	btf__free(vmlinux);
	return m;
out_destroy_skel:
	monitor__destroy(m->skel);
out_free_btf:
	btf__free(vmlinux);
out_free:
	free(m);
	errno = -err;
	return NULL;
}

/* The fast slots: each CPU's slot is a row of its own key (a slot may hold
 * a different key on each CPU), added to what the hash had for it. */
/* Add CPU @cpu's @val to @cpus[@cpu] when asked (@cpus, @cpu < @ncpus). */
static int add_cpu(struct xl_mon_snapshot *cpus, int ncpus, int cpu,
		   const struct xl_mon_key *key, const struct xl_mon_val *val)
{
	if (!cpus || cpu >= ncpus || !val->events)
		return 0;
	return xl_mon_add(&cpus[cpu], key, val);
}

static int read_fast(struct xl_monitor *m, struct xl_mon_snapshot *s,
		     struct xl_mon_snapshot *cpus, int ncpus)
{
	static __thread struct xl_mon_slot slots[512];
	int fd = bpf_map__fd(m->skel->maps.mon_fast), i, err;
	__u32 idx;

	for (idx = 0; idx < XL_MON_FAST_SLOTS; idx++) {
		if (bpf_map_lookup_elem(fd, &idx, slots))
			return -errno;
		for (i = 0; i < m->ncpus; i++) {
			if (!slots[i].used)
				continue;
			err = xl_mon_add(s, &slots[i].key, &slots[i].val) ?:
			      add_cpu(cpus, ncpus, i, &slots[i].key, &slots[i].val);
			if (err)
				return err;
		}
	}
	return 0;
}

int xl_monitor__ncpus(const struct xl_monitor *m)
{
	return m->ncpus;
}

int xl_monitor__read(struct xl_monitor *m, struct xl_mon_snapshot *s)
{
	return xl_monitor__read_cpus(m, s, NULL, 0);
}

int xl_monitor__read_cpus(struct xl_monitor *m, struct xl_mon_snapshot *s,
			  struct xl_mon_snapshot *cpus, int ncpus)
{
	static __thread struct xl_mon_val vals[512];
	int fd = bpf_map__fd(m->skel->maps.mon_counts), i, err;
	struct xl_mon_key key, next, *cur = NULL;

	if (m->ncpus > 512)
		return -E2BIG;
	s->n = 0;
	for (i = 0; cpus && i < ncpus; i++)
		cpus[i].n = 0;
	while (!bpf_map_get_next_key(fd, cur, &next)) {
		struct xl_mon_val sum = { 0 };

		key = next;
		cur = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue; /* deleted meanwhile: never here, we do not delete */
		for (i = 0; i < m->ncpus; i++) {
			sum.events += vals[i].events;
			sum.packets += vals[i].packets;
			sum.drops += vals[i].drops;
			sum.sched += vals[i].sched;
			err = add_cpu(cpus, ncpus, i, &key, &vals[i]);
			if (err)
				return err;
		}
		err = xl_mon_add(s, &key, &sum);
		if (err)
			return err;
	}
	err = read_fast(m, s, cpus, ncpus);
	if (err)
		return err;
	xl_mon_sort(s);
	for (i = 0; cpus && i < ncpus; i++)
		xl_mon_sort(&cpus[i]);
	return 0;
}

static int list(const bool *which, const char **names, int max)
{
	int ev, n = 0;

	for (ev = 0; ev < NTP; ev++)
		if (which[ev] && n < max)
			names[n++] = event_names[ev];
	return n;
}

int xl_monitor__skipped(const struct xl_monitor *m, const char **names, int max)
{
	return list(m->skipped, names, max);
}

int xl_monitor__attached(const struct xl_monitor *m, const char **names, int max)
{
	return list(m->attached, names, max);
}

int xl_monitor__prog_ids(struct xl_monitor *m, uint32_t *ids, int max)
{
	struct bpf_prog_info info;
	struct bpf_program *p;
	__u32 len;
	int n = 0;

	bpf_object__for_each_program(p, m->skel->obj) {
		if (bpf_program__fd(p) < 0)
			continue; /* not loaded */
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
			return -errno;
		if (n < max)
			ids[n] = info.id;
		n++;
	}
	return n;
}

int xl_mon_link_census(const uint32_t *ids, int nids, struct xl_mon_census *c)
{
	struct bpf_link_info info;
	char tp[64];
	__u32 id = 0, len;
	int fd, i;

	memset(c, 0, sizeof(*c));
	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0) {
			if (errno == ENOENT)
				continue; /* gone meanwhile */
			return -errno;
		}
		/*
		 * The type first, with no buffer: the union's fields are other
		 * links' pointers and counts (a kprobe_multi link's addrs would
		 * be written into tp[]); the name only for a raw tracepoint's.
		 */
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
		    info.type != BPF_LINK_TYPE_RAW_TRACEPOINT) {
			close(fd);
			continue; /* another kind, or detached meanwhile */
		}
		memset(&info, 0, sizeof(info));
		memset(tp, 0, sizeof(tp));
		info.raw_tracepoint.tp_name = (__u64)(unsigned long)tp;
		info.raw_tracepoint.tp_name_len = sizeof(tp) - 1;
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			close(fd);
			continue;
		}
		close(fd);
		/* tp_btf links carry the tracepoint's name as raw_tp ones do */
		if (!strcmp(tp, "xdp_devmap_xmit"))
			c->xmit_total++;
		for (i = 0; i < nids; i++)
			if (ids[i] == info.prog_id)
				break;
		if (i == nids)
			continue;
		if (!c->links)
			c->first_prog_id = info.prog_id;
		c->links++;
		c->on_xmit += !strcmp(tp, "xdp_devmap_xmit");
	}
	return errno == ENOENT ? 0 : -errno;
}

const char *xl_monitor__attach_kind(const struct xl_monitor *m)
{
	return m->raw ? "raw_tp" : "tp_btf";
}

/* bpftool link list holds each link for microseconds, a census or
 * hold_links.py (tests/e2e) for milliseconds; a pin holds it for good. */
#define DETACH_WAIT_NS (XL_MON_DETACH_WAIT_MS * 1000 * 1000ULL)

/*
 * Wait until the links @ids[0..@n) are gone from the kernel. Each lookup
 * takes a reference of its own and closes it: if the other holder let go
 * meanwhile, our close is the last one and releases the link at once.
 * A link being freed (its id already released, BPF_LINK_GET_FD_BY_ID says
 * ENOENT) may fire for microseconds more: the lab's settle time covers that.
 */
static int wait_links_gone(const uint32_t *ids, int n)
{
	const struct timespec nap = { 0, 1000 * 1000 };
	uint64_t deadline = xl_now_ns() + DETACH_WAIT_NS;
	int i, fd;

	for (i = 0; i < n; i++) {
		for (;;) {
			fd = bpf_link_get_fd_by_id(ids[i]);
			if (fd < 0)
				break;
			close(fd);
			if (xl_now_ns() > deadline)
				return -EBUSY;
			nanosleep(&nap, NULL);
		}
		if (errno != ENOENT)
			return -errno;
	}
	return 0;
}

int xl_monitor__detach(struct xl_monitor *m)
{
	struct bpf_program *bp, *rp;
	struct bpf_link **bl, **rl, **l;
	uint32_t ids[NTP];
	int ev, n = 0, err = 0, e;

	for (ev = 0; ev < NTP; ev++) {
		if (!m->attached[ev])
			continue;
		progs_of(m, ev, &bp, &rp, &bl, &rl);
		l = m->raw ? rl : bl;
		if (*l) {
			struct bpf_link_info info;
			__u32 len = sizeof(info);

			memset(&info, 0, sizeof(info));
			/* Without its id the wait cannot tell when it is gone. */
			if (!bpf_obj_get_info_by_fd(bpf_link__fd(*l), &info, &len))
				ids[n++] = info.id;
			else if (!err)
				err = -errno;
		}
		bpf_link__destroy(*l);
		*l = NULL;
	}
	e = wait_links_gone(ids, n);
	return err ? err : e;
}

int xl_monitor__attach(struct xl_monitor *m)
{
	struct bpf_program *bp, *rp;
	struct bpf_link **bl, **rl, *link;
	int ev, err;

	for (ev = 0; ev < NTP; ev++) {
		if (!m->attached[ev])
			continue;
		progs_of(m, ev, &bp, &rp, &bl, &rl);
		if (*(m->raw ? rl : bl))
			continue;
		link = bpf_program__attach(m->raw ? rp : bp);
		if (!link) {
			err = -errno;
			xl_monitor__detach(m);
			return err;
		}
		*(m->raw ? rl : bl) = link;
	}
	return 0;
}

void xl_monitor__destroy(struct xl_monitor *m)
{
	if (!m)
		return;
	monitor__destroy(m->skel);
	free(m);
}
