// SPDX-License-Identifier: BSD-2-Clause
/*
 * Capture at the XDP hook (dump.h, docs/dump.md): load bpf/dump.bpf.c as our
 * own XDP program or as fentry/fexit of the program already on the
 * interface, read its ring buffer in batches, filter in user space and
 * write a pcap file through pkt/pcapfile.c. Keeps the books that let the
 * command say exactly how many frames the hook saw and where each went.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "dump.skel.h"
#include "xdplab/dump.h"
#include "xdplab/escape.h"
#include "xdplab/log.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pcaplive.h"
#include "xdplab/time.h"

struct xl_dump;

/* One libpcap capture's interface: the callback's context. */
struct live_src {
	struct xl_dump *d;
	uint32_t iface; /* the index in d->ifindex[] */
};

struct xl_dump {
	struct dump *skel;
	struct ring_buffer *rb;
	struct xl_pcap_writer *w;
	struct xl_pcap_filter *filter;
	/* XL_DUMP_PCAP: a libpcap live capture per interface, of direction @dir */
	struct xl_pcap_live *live[XL_DUMP_MAX_IFACES];
	struct live_src src[XL_DUMP_MAX_IFACES];
	enum xl_live_dir dir;
	uint64_t live_bytes; /* the frames' lengths (len) libpcap gave */
	struct bpf_link *links[2]; /* fentry, fexit */
	int link_fd[XL_DUMP_MAX_IFACES]; /* own hook, per interface */
	int target_fd;
	unsigned int target_id;
	char target_name[128];
	enum xl_dump_where where;
	int ifindex[XL_DUMP_MAX_IFACES];
	unsigned int n_ifs;
	int ncpus;
	uint64_t count;
	int64_t realtime_off_ns; /* CLOCK_REALTIME - the kernel's CLOCK_MONOTONIC */
	void (*on_frame)(void *, const struct xl_dump_hdr *, const uint8_t *, uint32_t, uint64_t);
	void *frame_ctx;
	int write_err;
	/* The user-space half of the books (struct xl_dump_counts). */
	uint64_t records, written, written_bytes, filtered, after_count;
	uint64_t iface_written[XL_DUMP_MAX_IFACES];
};

/* The index in d->ifindex[] of @ifindex (0 when not found: one interface). */
static uint32_t iface_of(const struct xl_dump *d, uint32_t ifindex)
{
	uint32_t i;

	for (i = 1; i < d->n_ifs; i++)
		if ((uint32_t)d->ifindex[i] == ifindex)
			return i;
	return 0;
}

/* One record (a header and @caplen bytes at @frame) through --count, the filter, the file. */
static void deliver(struct xl_dump *d, const struct xl_dump_hdr *h, const uint8_t *frame,
		    uint32_t caplen)
{
	d->records++;
	if (d->count && d->written >= d->count) {
		d->after_count++;
		return;
	}
	if (d->filter && !xl_pcap_filter__match(d->filter, frame, caplen, h->len)) {
		d->filtered++;
		return;
	}
	{
		uint32_t ifi = iface_of(d, h->ifindex);
		/* pcapng keeps what the hook knew (ignored by the pcap writer). */
		static const char *const hook[XL_DUMP_HOOKS + 1] = { "xdp own", "xdp entry",
								     "xdp exit", "libpcap" };
		/* libpcap tells a frame's direction only by the one asked for. */
		struct xl_cap_meta meta = {
			.dir = h->hook != XL_DUMP_HOOK_PCAP || d->dir == XL_LIVE_IN ? XL_CAP_IN :
			       d->dir == XL_LIVE_OUT ? XL_CAP_OUT : XL_CAP_DIR_UNKNOWN,
			.queue = h->hook == XL_DUMP_HOOK_PCAP ? -1 : (int)h->rxq, /* libpcap: none */
			.xdp_action = h->action == 0xffff ? -1 : h->action,
			.comment = h->hook <= XL_DUMP_HOOK_PCAP ? hook[h->hook] : NULL,
			.iface = ifi,
		};

		d->iface_written[ifi]++;

		if (d->w)
			xl_pcap_writer__write_meta(d->w, h->ts_ns + d->realtime_off_ns, frame,
						   caplen, h->len, &meta);
	}
	if (d->on_frame)
		d->on_frame(d->frame_ctx, h, frame, caplen, h->ts_ns + d->realtime_off_ns);
	d->written++;
	d->written_bytes += caplen;
}

static int on_record(void *ctx, void *data, size_t size)
{
	const struct xl_dump_hdr *h = data;
	uint32_t caplen;

	if (size < sizeof(*h))
		return 0;
	caplen = h->caplen;
	if (caplen > size - sizeof(*h))
		caplen = size - sizeof(*h);
	deliver(ctx, h, (const uint8_t *)(h + 1), caplen);
	return 0;
}

/* A frame from libpcap, as the hook's record would be (no queue, no action). */
static void on_live(void *ctx, uint64_t realtime_ns, uint32_t len, uint32_t caplen,
		    const uint8_t *frame)
{
	const struct live_src *src = ctx;
	struct xl_dump *d = src->d;
	/* Records carry the kernel's monotonic clock; deliver() adds the offset back. */
	struct xl_dump_hdr h = {
		.ts_ns = realtime_ns - (uint64_t)d->realtime_off_ns, .len = len, .caplen = caplen,
		.hook = XL_DUMP_HOOK_PCAP, .action = 0xffff,
		.ifindex = (uint32_t)d->ifindex[src->iface],
	};

	d->live_bytes += len;
	deliver(d, &h, frame, caplen);
}

/* The name of the main function of program @fd, from its BTF func_info. */
static int prog_func_name(int fd, char *name, size_t len)
{
	struct bpf_prog_info info = {};
	struct bpf_func_info fi[1] = {};
	__u32 ilen = sizeof(info);
	const struct btf_type *t;
	struct btf *btf;
	int err;

	if (bpf_obj_get_info_by_fd(fd, &info, &ilen))
		return -errno;
	if (!info.btf_id || !info.nr_func_info)
		return -ENOTSUP;
	memset(&info, 0, sizeof(info));
	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(fi[0]);
	info.func_info = (__u64)(unsigned long)fi;
	ilen = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &ilen))
		return -errno;
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf)
		return -errno;
	t = btf__type_by_id(btf, fi[0].type_id);
	err = t ? 0 : -ENOENT;
	if (t)
		snprintf(name, len, "%s", btf__name_by_offset(btf, t->name_off));
	btf__free(btf);
	return err;
}

/* -p (xdpdump's): does @want name program @name, id @id? NAME, NAME@ID or all. */
static bool prog_named(const char *want, const char *name, unsigned int id)
{
	size_t n = strlen(name);
	char idbuf[16];

	if (!strcmp(want, "all") || !strcmp(want, name))
		return true;
	snprintf(idbuf, sizeof(idbuf), "%u", id);
	return !strncmp(want, name, n) && want[n] == '@' && !strcmp(want + n + 1, idbuf);
}

/* The attached program to trace: its fd and name; *where resolved for auto. */
static int find_target(struct xl_dump *d, const struct xl_dump_opts *o, int ifindex,
		       const char *ifname)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	unsigned int id;
	int err;

	err = bpf_xdp_query(ifindex, 0, &q);
	if (err) {
		xl_err("%s: cannot query its XDP programs: %s", ifname, strerror(-err));
		return err;
	}
	id = o->mode == XL_MODE_SKB ? q.skb_prog_id : (q.drv_prog_id ?: q.skb_prog_id);
	if (d->where == XL_DUMP_AUTO && o->prog_name)
		d->where = XL_DUMP_ENTRY; /* -p names a program to trace */
	if (d->where == XL_DUMP_AUTO)
		d->where = id ? XL_DUMP_ENTRY : XL_DUMP_OWN;
	if (d->where == XL_DUMP_OWN && o->prog_name) {
		xl_err("-p names the attached program to trace at its entry or exit: not with --hook own");
		return -EINVAL;
	}
	if (d->where == XL_DUMP_OWN) {
		if (q.drv_prog_id || q.skb_prog_id) {
			xl_err("%s: an XDP program (id %u) is attached: --hook own needs the interface free; capture at its entry or exit instead (--hook entry|exit|both)",
			       ifname, q.drv_prog_id ?: q.skb_prog_id);
			return -EBUSY;
		}
		return 0;
	}
	if (!id) {
		xl_err("%s: no XDP program attached%s for --hook %s to trace: attach one first, or capture with xdplab's own program, --hook own (accepted: own, entry, exit, both)",
		       ifname, o->mode == XL_MODE_SKB ? " in skb mode" : "",
		       d->where == XL_DUMP_EXIT ? "exit" : d->where == XL_DUMP_BOTH ? "both" : "entry");
		return -ENOENT;
	}
	d->target_id = id;
	d->target_fd = bpf_prog_get_fd_by_id(id);
	if (d->target_fd < 0) {
		err = -errno;
		xl_err("%s: cannot open XDP program id %u: %s", ifname, id, strerror(-err));
		return err;
	}
	err = prog_func_name(d->target_fd, d->target_name, sizeof(d->target_name));
	if (err) {
		xl_err("%s: XDP program id %u %s (fentry/fexit need the program's BTF)", ifname,
		       id, err == -ENOTSUP ? "has no BTF" : "has no readable BTF function name");
		return err == -ENOTSUP ? -ENOTSUP : err;
	}
	if (o->prog_name && !prog_named(o->prog_name, d->target_name, id)) {
		xl_err("%s: -p %s: the XDP program attached is %s (id %u), not that one (accepted: %s, %s@%u, all)",
		       ifname, XL_ESC(o->prog_name), d->target_name, id, d->target_name,
		       d->target_name, id);
		return -ENOENT;
	}
	return 0;
}

static int load(struct xl_dump *d, const struct xl_dump_opts *o)
{
	struct dump *s = d->skel;
	bool entry = d->where == XL_DUMP_ENTRY || d->where == XL_DUMP_BOTH;
	bool exit_ = d->where == XL_DUMP_EXIT || d->where == XL_DUMP_BOTH;
	int err;

	s->rodata->snaplen = o->snaplen;
	s->rodata->own_action = o->own_action;
	/* Wake the reader each time an eighth of the ring fills. */
	s->rodata->wakeup_bytes = o->ring_bytes / 8;
	bpf_map__set_max_entries(s->maps.dump_ring, o->ring_bytes);
	bpf_program__set_autoload(s->progs.xdp_dump, d->where == XL_DUMP_OWN);
	bpf_program__set_autoload(s->progs.dump_entry, entry);
	bpf_program__set_autoload(s->progs.dump_exit, exit_);
	if (entry)
		bpf_program__set_attach_target(s->progs.dump_entry, d->target_fd, d->target_name);
	if (exit_)
		bpf_program__set_attach_target(s->progs.dump_exit, d->target_fd, d->target_name);
	err = dump__load(s);
	if (err == -EPERM && d->where != XL_DUMP_OWN && o->where == XL_DUMP_AUTO && !o->prog_name) {
		xl_warn("%s: the kernel refused the fentry program that traces %s (id %u): %s; capturing with libpcap instead (AF_PACKET, after XDP: frames the program drops or redirects are not seen)",
			o->ifname, d->target_name, d->target_id, strerror(-err));
		return 1; /* the caller falls back to XL_DUMP_PCAP */
	}
	if (err == -EPERM && d->where != XL_DUMP_OWN) {
		xl_err("%s: the kernel refused the fentry/fexit program that traces %s (id %u): %s (some machines forbid tracing programs on functions or programs; detach it and use --hook own)",
		       o->ifname, d->target_name, d->target_id, strerror(-err));
		return err;
	}
	if (err) {
		xl_err("cannot load the capture program: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_PERFMON+CAP_NET_ADMIN)" : "");
		return err;
	}
	if (d->where == XL_DUMP_OWN) {
		unsigned int i;

		for (i = 0; i < d->n_ifs; i++) {
			err = xl_xdp_attach(bpf_program__fd(s->progs.xdp_dump), d->ifindex[i],
					    d->n_ifs > 1 ? o->ifnames[i] : o->ifname, o->mode);
			if (err < 0)
				return err; /* the ones attached: detach() */
			d->link_fd[i] = err;
		}
		return 0;
	}
	if (entry) {
		d->links[0] = bpf_program__attach_trace(s->progs.dump_entry);
		if (!d->links[0])
			goto out_trace;
	}
	if (exit_) {
		d->links[1] = bpf_program__attach_trace(s->progs.dump_exit);
		if (!d->links[1])
			goto out_trace;
	}
	return 0;
out_trace:
	err = -errno;
	xl_err("%s: cannot attach fentry/fexit to %s (id %u): %s", o->ifname, d->target_name,
	       d->target_id, strerror(-err));
	return err;
}

struct xl_dump *xl_dump__create(const struct xl_dump_opts *o)
{
	struct xl_dump *d;
	char ferr[256];
	int err;

	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	unsigned int i;

	for (i = 0; i < XL_DUMP_MAX_IFACES; i++)
		d->link_fd[i] = -1;
	d->target_fd = -1;
	d->where = o->where;
	d->count = o->count;
	d->ncpus = libbpf_num_possible_cpus();
	d->n_ifs = o->n_ifnames > 1 ? o->n_ifnames : 1;
	d->dir = o->dir;
	if (d->n_ifs > XL_DUMP_MAX_IFACES) {
		xl_err("%u interfaces: at most %d in one capture", d->n_ifs, XL_DUMP_MAX_IFACES);
		err = -EINVAL;
		goto out_free;
	}
	if (d->dir != XL_LIVE_IN) {
		/* Only libpcap sees what an interface sends (tcpdump -Q). */
		if (o->prog_name || (d->where != XL_DUMP_AUTO && d->where != XL_DUMP_PCAP)) {
			xl_err("-Q out|inout captures with libpcap: not with --hook own|entry|exit|both or -p (accepted: -Q in with any hook; -Q out|inout alone or with --hook pcap)");
			err = -EINVAL;
			goto out_free;
		}
		d->where = XL_DUMP_PCAP;
	}
	if (d->n_ifs > 1 && (o->prog_name || (d->where != XL_DUMP_AUTO && d->where != XL_DUMP_OWN &&
					      d->where != XL_DUMP_PCAP))) {
		xl_err("several interfaces are captured with xdplab's own program or libpcap only (--hook own|pcap): not with --hook entry|exit|both or -p");
		err = -EINVAL;
		goto out_free;
	}
	if (d->n_ifs > 1 && d->where == XL_DUMP_AUTO)
		d->where = XL_DUMP_OWN; /* each interface must be free of XDP */
	for (i = 0; i < d->n_ifs; i++) {
		const char *name = d->n_ifs > 1 ? o->ifnames[i] : o->ifname;

		d->ifindex[i] = if_nametoindex(name);
		if (!d->ifindex[i]) {
			xl_err("interface %s: no such interface", name);
			err = -ENODEV;
			goto out_free;
		}
		for (unsigned int j = 0; j < i; j++)
			if (d->ifindex[j] == d->ifindex[i]) {
				xl_err("interface %s named twice (each interface once)", name);
				err = -EINVAL;
				goto out_free;
			}
	}
	if (o->filter) {
		d->filter = xl_pcap_filter__compile(o->filter, o->snaplen, ferr, sizeof(ferr));
		if (!d->filter) {
			xl_err("--filter '%s': %s", o->filter, ferr);
			err = -EINVAL;
			goto out_free;
		}
	}
	for (i = 0; i < d->n_ifs && d->where != XL_DUMP_PCAP; i++) {
		err = find_target(d, o, d->ifindex[i], d->n_ifs > 1 ? o->ifnames[i] : o->ifname);
		if (err)
			goto out_destroy;
	}
	d->skel = dump__open();
	if (!d->skel) {
		err = -errno;
		goto out_destroy;
	}
	d->on_frame = o->on_frame;
	d->frame_ctx = o->frame_ctx;
	if (!o->path && !o->on_frame) {
		err = -EINVAL;
		goto out_destroy;
	}
	if (o->path)
		d->w = o->pcapng ? xl_pcap_writer__open_ng_ifs(o->path, o->snaplen, true, 1 << 20,
							       d->n_ifs > 1 ? o->ifnames : &o->ifname,
							       d->n_ifs) :
				   xl_pcap_writer__open(o->path, o->snaplen, true, 1 << 20);
	if (o->path && !d->w) {
		err = -errno;
		goto out_destroy;
	}
	/* Not namespaced, as bpf_ktime_get_ns() is not (a time namespace's offset undone). */
	d->realtime_off_ns = xl_ktime_realtime_off_ns();
	err = d->where == XL_DUMP_PCAP ? 1 : load(d, o);
	if (err == 1) {
		/* No XDP hook: libpcap (asked for, or the fentry program refused). */
		dump__destroy(d->skel);
		d->skel = NULL;
		d->where = XL_DUMP_PCAP;
		for (i = 0; i < d->n_ifs; i++) {
			d->src[i] = (struct live_src){ .d = d, .iface = i };
			d->live[i] = xl_pcap_live__open(d->n_ifs > 1 ? o->ifnames[i] : o->ifname,
							o->snaplen, d->dir, on_live, &d->src[i]);
			if (!d->live[i]) {
				err = -errno;
				goto out_destroy;
			}
		}
		return d;
	}
	if (err)
		goto out_destroy;
	d->rb = ring_buffer__new(bpf_map__fd(d->skel->maps.dump_ring), on_record, d, NULL);
	if (!d->rb) {
		err = -errno;
		xl_err("cannot open the capture ring buffer: %s", strerror(-err));
		goto out_destroy;
	}
	return d;
out_destroy:
	xl_dump__destroy(d);
	errno = -err;
	return NULL;
out_free:
	free(d);
	errno = -err;
	return NULL;
}

enum xl_dump_where xl_dump__where(const struct xl_dump *d)
{
	return d->where;
}

const char *xl_dump__target(const struct xl_dump *d, unsigned int *prog_id)
{
	if (prog_id)
		*prog_id = d->target_id;
	return d->target_name;
}

int xl_dump__ifindex(const struct xl_dump *d)
{
	return d->ifindex[0];
}

/* XL_DUMP_PCAP: wait up to @timeout_ms on every interface's socket, then drain each. */
static int live_poll(struct xl_dump *d, int timeout_ms)
{
	struct pollfd pfd[XL_DUMP_MAX_IFACES];
	unsigned int i;
	int n, total = 0;

	for (i = 0; i < d->n_ifs; i++)
		pfd[i] = (struct pollfd){ .fd = xl_pcap_live__fd(d->live[i]), .events = POLLIN };
	if (timeout_ms > 0 && poll(pfd, d->n_ifs, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	for (i = 0; i < d->n_ifs; i++) {
		n = xl_pcap_live__drain(d->live[i], 0);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

int xl_dump__poll(struct xl_dump *d, int timeout_ms)
{
	int n;

	if (d->live[0])
		return live_poll(d, timeout_ms);
	n = ring_buffer__poll(d->rb, timeout_ms);

	if (n == -EINTR)
		n = 0;
	if (n < 0)
		return n;
	/* Below the wake-up threshold nothing wakes us: read what is there. */
	if (!n) {
		n = ring_buffer__consume(d->rb);
		if (n < 0)
			return n;
	}
	return n;
}

bool xl_dump__done(const struct xl_dump *d)
{
	return d->count && d->written >= d->count;
}

int xl_dump__flush(struct xl_dump *d)
{
	int err = d->w ? xl_pcap_writer__flush(d->w) : d->write_err;

	if (err)
		d->write_err = err;
	return err;
}

int xl_dump__read(struct xl_dump *d, struct xl_dump_counts *c)
{
	struct xl_dump_stats *v;
	__u32 key;
	int i, j, err = 0;

	memset(c, 0, sizeof(*c));
	if (d->live[0]) {
		/* Every frame libpcap had was read or dropped by the socket. */
		for (key = 0; key < d->n_ifs; key++)
			c->ring_full += xl_pcap_live__dropped(d->live[key]);
		c->seen = d->records + c->ring_full;
		c->seen_bytes = d->live_bytes;
		goto user_books;
	}
	v = calloc(d->ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (key = 0; key < XL_DUMP_HOOKS; key++) {
		if (bpf_map_lookup_elem(bpf_map__fd(d->skel->maps.dump_stats), &key, v)) {
			err = -errno;
			break;
		}
		for (i = 0; i < d->ncpus; i++) {
			c->hook_seen[key] += v[i].seen;
			c->seen += v[i].seen;
			c->seen_bytes += v[i].seen_bytes;
			c->ring_full += v[i].ring_full;
			c->truncated += v[i].truncated;
			c->wakeups += v[i].wakeups;
			for (j = 0; j < 5; j++)
				c->actions[j] += v[i].actions[j];
		}
	}
	free(v);
user_books:
	c->records = d->records;
	/* After a failed write nothing reaches the file (it is not renamed into place). */
	c->write_err = d->write_err;
	c->written = d->write_err ? 0 : d->written;
	c->written_bytes = d->write_err ? 0 : d->written_bytes;
	c->filtered = d->filtered;
	c->after_count = d->after_count;
	for (i = 0; i < XL_DUMP_MAX_IFACES; i++)
		c->iface_written[i] = d->write_err ? 0 : d->iface_written[i];
	return err;
}

static void detach(struct xl_dump *d)
{
	int i;

	for (i = 0; i < XL_DUMP_MAX_IFACES; i++) {
		xl_xdp_link_close(d->link_fd[i]); /* -1: nothing */
		d->link_fd[i] = -1;
	}
	for (i = 0; i < 2; i++) {
		bpf_link__destroy(d->links[i]);
		d->links[i] = NULL;
	}
}

int xl_dump__stop(struct xl_dump *d, struct xl_dump_counts *c)
{
	int i, err = 0;

	detach(d);
	if (d->live[0]) {
		/* What the sockets still hold, then the books. */
		live_poll(d, 0); /* a failure is logged */
		goto close_file;
	}
	/* A CPU may still be inside the program (it runs under RCU): wait
	 * until every frame counted is read or counted as not captured. */
	for (i = 0; i < 200; i++) {
		ring_buffer__consume(d->rb);
		err = xl_dump__read(d, c);
		if (err)
			return err;
		if (c->seen == c->records + c->ring_full)
			break;
		xl_sleep_ns(5000000, NULL);
	}
	ring_buffer__consume(d->rb);
close_file:
	/* The file renamed into place (or, after a failed write, removed). */
	err = xl_pcap_writer__close(d->w);
	d->w = NULL;
	if (err && !d->write_err)
		d->write_err = err;
	xl_dump__read(d, c);
	if (d->write_err)
		return d->write_err;
	return c->seen == c->records + c->ring_full ? 0 : -EPROTO;
}

void xl_dump__destroy(struct xl_dump *d)
{
	if (!d)
		return;
	detach(d);
	ring_buffer__free(d->rb);
	dump__destroy(d->skel);
	for (unsigned int i = 0; i < d->n_ifs; i++)
		xl_pcap_live__close(d->live[i]);
	if (d->target_fd >= 0)
		close(d->target_fd);
	xl_pcap_writer__abort(d->w); /* not stopped: no capture saved */
	xl_pcap_filter__free(d->filter);
	free(d);
}
