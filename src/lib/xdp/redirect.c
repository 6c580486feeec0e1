// SPDX-License-Identifier: BSD-2-Clause
/*
 * XDP_REDIRECT benchmarks: one skeleton, the ingress program chosen by the
 * kind, maps filled before attach, counters summed per CPU. What the kernel
 * drops after the program returned XDP_REDIRECT is read from the veth's own
 * per-queue counters (ethtool -S), so "err/s" covers the whole path.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <net/if_arp.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "redirect.skel.h"
#include "redirect_priv.h"
#include "xdplab/log.h"
#include "xdplab/redirect.h"
#include "xdplab/sysstat.h"


const char *xl_cpu_action_name(enum xl_cpu_action a)
{
	static const char *const n[] = { "drop", "pass", "redirect", "disabled" };

	return a < XL_CPU_ACT__COUNT ? n[a] : "?";
}

int xl_cpulist_has(const char *list, int cpu)
{
	const char *p = list;

	while (*p && *p != '\n') {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtol(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtol(p, &end, 10);
			if (hi < lo)
				return -EINVAL;
		}
		if (cpu >= lo && cpu <= hi)
			return 1;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int xl_cpu_online(int cpu)
{
	char buf[1024];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int ret;

	if (!f)
		return -errno;
	ret = fgets(buf, sizeof(buf), f) ? xl_cpulist_has(buf, cpu) : -EIO;
	fclose(f);
	return ret;
}

/* Sum the counter "<dir>_queue_N_<name>" over the queues that have it. */
static bool eth_sum(int sock, const char *ifname, const char *dir, const char *name,
		    uint64_t *out)
{
	return sock >= 0 && !xl_ethtool_queue_sum(sock, ifname, dir, name, 0, out, NULL);
}

/* Read the veth counters; false if IN's cannot be read. An OUT that cannot
 * be read (deleted mid-run) keeps its last values. One ethtool read per
 * device: OUT's two counters come in the same one. */
static bool eth_read(struct xl_redirect *r, uint64_t *drops, uint64_t *xmit,
		     uint64_t *xmit_err, bool *out_ok)
{
	static const char *const out_names[2] = { "xdp_xmit", "xdp_xmit_errors" };
	int i;

	if (!eth_sum(r->sock, r->o.in, "rx", "drops", drops))
		return false;
	for (i = 0; i < r->o.nout; i++) {
		uint64_t v[2];

		out_ok[i] = r->sock >= 0 && !xl_ethtool_queue_sums(r->sock, r->o.out[i], "tx",
								   out_names, 2, 0, v, NULL);
		if (out_ok[i]) {
			r->last_xmit[i] = v[0];
			r->last_xmit_err[i] = v[1];
		}
		xmit[i] = r->last_xmit[i];
		xmit_err[i] = r->last_xmit_err[i];
	}
	return true;
}

/* OUT's MAC address, for the egress program (SIOCGIFHWADDR on a socket of
 * the current netns: sysfs shows the namespace it was mounted in). */
static int out_mac(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr)) {
		err = -errno;
		xl_err("cannot read the MAC of %s for --load-egress: %s", ifname, strerror(-err));
	} else if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		err = -EINVAL;
		xl_err("%s has no Ethernet MAC for --load-egress", ifname);
	} else {
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	}
	if (fd >= 0)
		close(fd);
	return err;
}

static int check_opts(const struct xl_redirect_opts *o, struct xl_redirect *r)
{
	int i, j, want_min, want_max, online;

	want_min = want_max = 1;
	if (o->kind == XL_REDIR_CPUMAP)
		want_min = want_max = o->cpu_action == XL_CPU_ACT_REDIRECT;
	else if (o->kind == XL_REDIR_MULTI)
		want_max = XL_REDIR_MAX_OUT;
	if (o->nout < want_min || o->nout > want_max) {
		xl_err("%d OUT interface(s) given, %d..%d accepted here", o->nout, want_min, want_max);
		return -EINVAL;
	}
	r->in_ifindex = if_nametoindex(o->in);
	if (!r->in_ifindex) {
		xl_err("interface %s: no such interface", o->in);
		return -ENODEV;
	}
	for (i = 0; i < o->nout; i++) {
		r->out_ifindex[i] = if_nametoindex(o->out[i]);
		if (!r->out_ifindex[i]) {
			xl_err("interface %s: no such interface", o->out[i]);
			return -ENODEV;
		}
		if (r->out_ifindex[i] == r->in_ifindex) {
			xl_err("OUT %s is IN: redirecting a frame back where it came from is XDP_TX (use 'xdplab tx %s')",
			       o->out[i], o->in);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (r->out_ifindex[j] == r->out_ifindex[i]) {
				xl_err("OUT %s is given twice", o->out[i]);
				return -EINVAL;
			}
	}
	if (o->kind == XL_REDIR_CPUMAP) {
		r->nsteer = o->ncpu ? o->ncpu : 1;
		if (o->ncpu < 0 || o->ncpu > XL_STEER_MAX_CPUS) {
			xl_err("%d target CPUs given, 1..%d accepted", o->ncpu, XL_STEER_MAX_CPUS);
			return -EINVAL;
		}
		if ((unsigned)o->steer >= XL_STEER__COUNT) {
			xl_err("steering policy %d is unknown", o->steer);
			return -EINVAL;
		}
		if ((unsigned)o->cpu_action >= XL_CPU_ACT__COUNT) {
			xl_err("cpumap entry action %d is unknown", o->cpu_action);
			return -EINVAL;
		}
		for (i = 0; i < r->nsteer; i++) {
			int cpu = o->ncpu ? o->cpus[i] : o->cpu;

			r->steer_cpus[i] = cpu;
			if (cpu < 0 || cpu >= r->ncpus) {
				xl_err("--cpu %d is out of range (accepted: 0..%d)", cpu, r->ncpus - 1);
				return -ERANGE;
			}
			online = xl_cpu_online(cpu);
			if (online == 0) {
				xl_err("--cpu %d is offline", cpu);
				return -ERANGE;
			}
			for (j = 0; j < i; j++)
				if (r->steer_cpus[j] == cpu) {
					xl_err("--cpu %d is given twice", cpu);
					return -EINVAL;
				}
		}
		if (o->qsize > XL_CPUMAP_QSIZE_MAX) {
			xl_err("--qsize %u is out of range (accepted: 1..%d)", o->qsize,
			       XL_CPUMAP_QSIZE_MAX);
			return -EINVAL;
		}
	}
	return 0;
}

int xl_redirect_cpumap_put(struct xl_redirect *r, int cpu)
{
	struct bpf_cpumap_val v = {
		.qsize = r->o.qsize ? r->o.qsize : XL_CPUMAP_QSIZE_DEFAULT,
		.bpf_prog.fd = r->o.cpu_action == XL_CPU_ACT_DISABLED ? 0 :
			       bpf_program__fd(r->skel->progs.xdp_redir_cpu_prog),
	};
	__u32 key = cpu;
	int err;

	if (bpf_map_update_elem(bpf_map__fd(r->skel->maps.cpu_map), &key, &v, 0)) {
		err = -errno;
		xl_err("cannot add CPU %d to the cpumap (qsize %u): %s", cpu, v.qsize,
		       strerror(-err));
		return err;
	}
	return 0;
}

static int fill_maps(struct xl_redirect *r)
{
	const struct xl_redirect_opts *o = &r->o;
	__u32 key = 0;
	int i, err = 0;

	if (o->nout && (o->kind == XL_REDIR_DEVMAP || o->kind == XL_REDIR_CPUMAP)) {
		struct bpf_devmap_val v = { .ifindex = r->out_ifindex[0] };

		if (o->load_egress && o->kind == XL_REDIR_DEVMAP)
			v.bpf_prog.fd = bpf_program__fd(r->skel->progs.xdp_redir_egress);

		if (bpf_map_update_elem(bpf_map__fd(r->skel->maps.tx_port), &key, &v, 0)) {
			err = -errno;
			xl_err("cannot put %s in the devmap: %s", o->out[0], strerror(-err));
			return err;
		}
	}
	if (o->kind == XL_REDIR_MULTI) {
		/* IN is in the map too, so BPF_F_EXCLUDE_INGRESS has work to do. */
		for (i = -1; i < o->nout; i++) {
			__u32 k = i < 0 ? (__u32)r->in_ifindex : (__u32)r->out_ifindex[i];
			struct bpf_devmap_val v = { .ifindex = k };

			if (bpf_map_update_elem(bpf_map__fd(r->skel->maps.tx_multi), &k, &v, 0)) {
				err = -errno;
				xl_err("cannot put %s in the devmap_hash: %s",
				       i < 0 ? o->in : o->out[i], strerror(-err));
				return err;
			}
		}
	}
	if (o->kind == XL_REDIR_CPUMAP) {
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);

		for (i = 0; i < r->nsteer; i++) {
			err = xl_redirect_cpumap_put(r, r->steer_cpus[i]);
			if (err)
				return err;
		}
		if (bpf_obj_get_info_by_fd(bpf_map__fd(r->skel->maps.cpu_map), &info, &len))
			return -errno;
		r->skel->bss->cpumap_id = info.id;
	}
	return 0;
}

int xl_redirect_check(const struct xl_redirect_opts *opts)
{
	struct xl_redirect r = { .ncpus = xl_bench_ncpus() };

	return check_opts(opts, &r);
}

struct xl_redirect *xl_redirect__create(const struct xl_redirect_opts *opts)
{
	struct bpf_program *prog;
	struct xl_redirect *r;
	int err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->o = *opts;
	r->link_fd = -1;
	r->sock = -1;
	r->ncpus = xl_bench_ncpus();
	r->in_recs = calloc(r->ncpus, sizeof(*r->in_recs));
	r->cpu_recs = calloc(r->ncpus, sizeof(*r->cpu_recs));
	r->steer_recs = calloc(r->ncpus, sizeof(*r->steer_recs));
	if (!r->in_recs || !r->cpu_recs || !r->steer_recs) {
		err = -ENOMEM;
		goto out_free;
	}
	err = check_opts(opts, r);
	if (err)
		goto out_free;
	r->skel = redirect__open();
	if (!r->skel) {
		err = -errno;
		goto out_free;
	}
	r->skel->rodata->pkt_op = opts->op;
	if (opts->kind == XL_REDIR_CPUMAP) {
		enum xl_steer st = opts->steer;
		int i;

		if (st == XL_STEER_DEFAULT)
			st = r->nsteer > 1 ? XL_STEER_L4_HASH : XL_STEER_NO_TOUCH;
		r->o.steer = st;
		r->skel->rodata->steer = st;
		r->skel->rodata->steer_count = r->nsteer;
		for (i = 0; i < r->nsteer; i++)
			r->skel->rodata->steer_cpus[i] = r->steer_cpus[i];
	}
	r->skel->rodata->cpu_action = opts->cpu_action;
	r->skel->rodata->frags = opts->frags;
	r->skel->rodata->out_ifindex = opts->kind == XL_REDIR_IFINDEX ? r->out_ifindex[0] : 0;
	r->skel->rodata->egress_drop = opts->egress_drop;
	if (opts->load_egress) {
		uint8_t mac[6];

		err = out_mac(opts->out[0], mac);
		if (err)
			goto out_destroy_skel;
		memcpy((void *)r->skel->rodata->out_mac, mac, 6);
	}
	if (opts->frags) {
		/* Every XDP program a multi-buffer frame meets must take frags. */
		xl_xdp_prog_set_frags(r->skel->progs.xdp_redir_devmap);
		xl_xdp_prog_set_frags(r->skel->progs.xdp_redir_ifindex);
		xl_xdp_prog_set_frags(r->skel->progs.xdp_redir_egress);
		xl_xdp_prog_set_frags(r->skel->progs.xdp_redir_multi);
		xl_xdp_prog_set_frags(r->skel->progs.xdp_redir_cpumap);
		xl_xdp_prog_set_frags(r->skel->progs.xdp_redir_cpu_prog);
	}
	bpf_map__set_max_entries(r->skel->maps.cpu_map, r->ncpus);
	bpf_map__set_max_entries(r->skel->maps.steer_stats, r->ncpus);
	/* Only the programs this kind needs are loaded. */
	bpf_program__set_autoload(r->skel->progs.xdp_redir_devmap, opts->kind == XL_REDIR_DEVMAP);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_multi, opts->kind == XL_REDIR_MULTI);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_ifindex, opts->kind == XL_REDIR_IFINDEX);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_egress,
				  opts->kind == XL_REDIR_DEVMAP && opts->load_egress);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_cpumap, opts->kind == XL_REDIR_CPUMAP);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_cpu_prog, opts->kind == XL_REDIR_CPUMAP &&
				  opts->cpu_action != XL_CPU_ACT_DISABLED);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_kthread_tp,
				  opts->kind == XL_REDIR_CPUMAP);
	bpf_program__set_autoload(r->skel->progs.xdp_redir_enqueue_tp,
				  opts->kind == XL_REDIR_CPUMAP);
	err = redirect__load(r->skel);
	if (err) {
		xl_err("cannot load the redirect programs: %s%s", strerror(-err),
		       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		goto out_destroy_skel;
	}
	err = fill_maps(r);
	if (err)
		goto out_destroy_skel;
	if (opts->kind == XL_REDIR_CPUMAP) {
		r->skel->links.xdp_redir_enqueue_tp =
			bpf_program__attach(r->skel->progs.xdp_redir_enqueue_tp);
		if (!r->skel->links.xdp_redir_enqueue_tp) {
			err = -errno;
			xl_err("cannot attach to the xdp_cpumap_enqueue tracepoint: %s",
			       strerror(-err));
			goto out_destroy_skel;
		}
		r->skel->links.xdp_redir_kthread_tp =
			bpf_program__attach(r->skel->progs.xdp_redir_kthread_tp);
		if (!r->skel->links.xdp_redir_kthread_tp) {
			err = -errno;
			xl_err("cannot attach to the xdp_cpumap_kthread tracepoint: %s",
			       strerror(-err));
			goto out_destroy_skel;
		}
	}
	r->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	{
		bool ok[XL_REDIR_MAX_OUT];

		eth_read(r, &r->base_drops, r->base_xmit, r->base_xmit_err, ok);
		memcpy(r->last_xmit, r->base_xmit, sizeof(r->last_xmit));
		memcpy(r->last_xmit_err, r->base_xmit_err, sizeof(r->last_xmit_err));
	}
	prog = opts->kind == XL_REDIR_DEVMAP ? r->skel->progs.xdp_redir_devmap :
	       opts->kind == XL_REDIR_IFINDEX ? r->skel->progs.xdp_redir_ifindex :
	       opts->kind == XL_REDIR_MULTI  ? r->skel->progs.xdp_redir_multi :
					       r->skel->progs.xdp_redir_cpumap;
	err = xl_xdp_attach_frags(bpf_program__fd(prog), r->in_ifindex, opts->in, opts->mode,
				  opts->frags);
	if (err < 0)
		goto out_close_sock;
	r->link_fd = err;
	if (opts->kind == XL_REDIR_CPUMAP && opts->stress) {
		err = -pthread_create(&r->stress_thread, NULL, xl_redirect_stress_main, r);
		if (err) {
			xl_err("cannot start the --stress-mode thread: %s", strerror(-err));
			xl_xdp_link_close(r->link_fd);
			goto out_close_sock;
		}
		r->stress_running = true;
	}
	return r;
out_close_sock:
	if (r->sock >= 0)
		close(r->sock);
out_destroy_skel:
	redirect__destroy(r->skel);
out_free:
	free(r->in_recs);
	free(r->cpu_recs);
	free(r->steer_recs);
	free(r);
	errno = -err;
	return NULL;
}

int xl_redirect__read(struct xl_redirect *r, struct xl_redirect_stats *st,
		      struct xl_bench_rec *per_cpu_in,
		      struct xl_redir_cpu_rec *per_cpu_cpu)
{
	struct xl_bench_rec *in = r->in_recs;
	struct xl_redir_cpu_rec *cpu = r->cpu_recs;
	uint64_t drops, xmit[XL_REDIR_MAX_OUT], xmit_err[XL_REDIR_MAX_OUT];
	__u32 key = 0;
	int i;

	if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.bench_stats), &key, in) ||
	    bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.cpu_stats), &key, cpu))
		return -errno;
	memset(st, 0, sizeof(*st));
	xl_bench_rec_sum(in, r->ncpus, &st->in);
	if (r->o.load_egress) {
		struct xl_egress_rec *e = (struct xl_egress_rec *)r->steer_recs; /* same size */

		if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.egress_stats), &key, e))
			return -errno;
		for (i = 0; i < r->ncpus; i++) {
			st->egress.processed += e[i].processed;
			st->egress.forwarded += e[i].forwarded;
			st->egress.dropped += e[i].dropped;
		}
	}
	for (i = 0; i < r->ncpus; i++) {
		st->cpu.processed += cpu[i].processed;
		st->cpu.dropped += cpu[i].dropped;
		st->cpu.passed += cpu[i].passed;
		st->cpu.redirected += cpu[i].redirected;
		st->cpu.errors += cpu[i].errors;
		st->cpu.enqueued += cpu[i].enqueued;
		st->cpu.enqueue_drops += cpu[i].enqueue_drops;
	}
	if (r->o.kind == XL_REDIR_CPUMAP && r->o.cpu_action == XL_CPU_ACT_DISABLED) {
		/* No program on the entry: the kthreads' own counts; each frame
		 * becomes an skb for the stack. */
		uint64_t k = 0;
		int t;

		/* Only the targets have a cpumap entry, so only they a kthread. */
		for (t = 0; t < r->nsteer; t++) {
			__u32 c = r->steer_cpus[t];

			if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.steer_stats), &c,
						r->steer_recs))
				return -errno;
			for (i = 0; i < r->ncpus; i++)
				k += r->steer_recs[i].kthread_processed;
		}
		st->cpu.processed = st->cpu.passed = k;
	}
	st->eth_ok = eth_read(r, &drops, xmit, xmit_err, st->out_ok);
	if (st->eth_ok) {
		st->kernel_drops = drops - r->base_drops;
		for (i = 0; i < r->o.nout; i++) {
			st->out_xmit[i] = xmit[i] - r->base_xmit[i];
			st->out_xmit_errors[i] = xmit_err[i] - r->base_xmit_err[i];
		}
	}
	if (per_cpu_in)
		memcpy(per_cpu_in, in, xl_bench_detail_ncpus() * sizeof(in[0]));
	if (per_cpu_cpu)
		memcpy(per_cpu_cpu, cpu, xl_bench_detail_ncpus() * sizeof(cpu[0]));
	r->last = *st;
	r->have_last = true;
	return 0;
}

int xl_redirect__last(struct xl_redirect *r, struct xl_redirect_stats *st,
		      struct xl_steer_target *t)
{
	if (!r->have_last)
		return -ENODATA;
	*st = r->last;
	return t && r->o.kind == XL_REDIR_CPUMAP ? xl_redirect_steer_targets(r, t, false) : 0;
}

int xl_redirect__read_bench(void *ctx, struct xl_bench_rec *total,
			    struct xl_bench_rec *per_cpu)
{
	struct xl_redirect *r = ctx;
	struct xl_redirect_stats st;
	int i, err;

	err = xl_redirect__read(r, &st, per_cpu, NULL);
	if (err)
		return err;
	*total = st.in;
	total->errors += st.kernel_drops + st.cpu.enqueue_drops + st.cpu.errors;
	for (i = 0; i < r->o.nout; i++)
		total->errors += st.out_xmit_errors[i];
	return 0;
}

int xl_redirect__read_cpu(void *ctx, struct xl_bench_rec *total,
			  struct xl_bench_rec *per_cpu)
{
	static __thread struct xl_redir_cpu_rec cpu[XL_MAX_CPUS];
	struct xl_redirect *r = ctx;
	struct xl_redirect_stats st;
	int i, err;

	err = xl_redirect__read(r, &st, NULL, cpu);
	if (err)
		return err;
	memset(total, 0, sizeof(*total));
	total->rx_packets = st.cpu.processed;
	total->rx_bytes = st.in.rx_bytes;
	total->errors = st.cpu.enqueue_drops + st.cpu.errors;
	total->actions[XDP_DROP] = st.cpu.dropped;
	total->actions[XDP_PASS] = st.cpu.passed;
	total->actions[XDP_REDIRECT] = st.cpu.redirected;
	for (i = 0; per_cpu && i < xl_bench_detail_ncpus(); i++) {
		memset(&per_cpu[i], 0, sizeof(per_cpu[i]));
		per_cpu[i].rx_packets = cpu[i].processed;
		per_cpu[i].errors = cpu[i].errors;
	}
	return 0;
}

int xl_redirect__cpumap_kthread_pid(const struct xl_redirect *r)
{
	char want[32];

	if (r->o.kind != XL_REDIR_CPUMAP)
		return 0;
	/* The kernel names it "cpumap/<cpu>/map:<id>". */
	snprintf(want, sizeof(want), "cpumap/%d/map:%u", r->steer_cpus[0], r->skel->bss->cpumap_id);
	return xl_kthread_pid(want);
}

int xl_redirect__ifindex(const struct xl_redirect *r)
{
	return r->in_ifindex;
}

int xl_redirect__link_alive(const struct xl_redirect *r)
{
	return r->link_fd < 0 ? -EOPNOTSUPP : xl_xdp_link_alive(r->link_fd);
}

int xl_redirect__out_ifindex(const struct xl_redirect *r, int i)
{
	return i >= 0 && i < r->o.nout ? r->out_ifindex[i] : 0;
}

int xl_redirect__stress_affinity(struct xl_redirect *r, const cpu_set_t *set)
{
	if (!r->stress_running)
		return 0;
	return -pthread_setaffinity_np(r->stress_thread, sizeof(*set), set);
}

void xl_redirect__destroy(struct xl_redirect *r)
{
	if (!r)
		return;
	if (r->stress_running) {
		atomic_store(&r->stress_stop, true);
		pthread_join(r->stress_thread, NULL);
	}
	xl_xdp_link_close(r->link_fd); /* -1: nothing */
	if (r->sock >= 0)
		close(r->sock);
	redirect__destroy(r->skel);
	free(r->in_recs);
	free(r->cpu_recs);
	free(r->steer_recs);
	free(r);
}
