// SPDX-License-Identifier: BSD-2-Clause
/*
 * redirect-cpu's steering: the policy names (xdp-bench's --program-mode
 * words, so its users type what they know), the CPU list syntax "0,2-3" of
 * --cpu, the per-target reads and the --stress-mode thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "redirect_priv.h"
#include "xdplab/attach.h"

_Static_assert(XL_ROW_STEER_MAX == XL_STEER_MAX_CPUS, "a row holds every steering target");

static const char *const steer_names[XL_STEER__COUNT] = {
	[XL_STEER_DEFAULT] = "default",	 [XL_STEER_NO_TOUCH] = "no-touch",
	[XL_STEER_TOUCH] = "touch",	 [XL_STEER_ROUND_ROBIN] = "round-robin",
	[XL_STEER_L4_PROTO] = "l4-proto", [XL_STEER_L4_FILTER] = "l4-filter",
	[XL_STEER_L4_SPORT] = "l4-sport", [XL_STEER_L4_DPORT] = "l4-dport",
	[XL_STEER_L4_HASH] = "l4-hash",
};

const char *xl_steer_name(enum xl_steer s)
{
	return (unsigned)s < XL_STEER__COUNT ? steer_names[s] : "?";
}

/* b - a, or 0 when b is behind a. */
static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void xl_steer_row_add(struct xl_row_steer *rs, enum xl_steer policy,
		      const struct xl_steer_target *t0, const struct xl_steer_miss *miss0,
		      const struct xl_steer_target *t, const struct xl_steer_miss *miss, int nt)
{
	static const struct xl_steer_miss none;
	int i;

	if (nt > XL_ROW_STEER_MAX)
		nt = XL_ROW_STEER_MAX;
	if (!miss0)
		miss0 = &none;
	rs->on = true;
	rs->policy = xl_steer_name(policy);
	rs->ntargets = nt;
	for (i = 0; i < nt; i++) {
		rs->targets[i].cpu = t[i].cpu;
		rs->targets[i].steered += delta(t0 ? t0[i].steered : 0, t[i].steered);
		rs->targets[i].processed += delta(t0 ? t0[i].processed : 0, t[i].processed);
		rs->targets[i].enqueue_drops +=
			delta(t0 ? t0[i].enqueue_drops : 0, t[i].enqueue_drops);
	}
	if (!miss)
		return;
	rs->not_ip += delta(miss0->not_ip, miss->not_ip);
	rs->malformed += delta(miss0->malformed, miss->malformed);
	rs->no_ports += delta(miss0->no_ports, miss->no_ports);
	rs->filtered += delta(miss0->filtered, miss->filtered);
	rs->redirect_errors += delta(miss0->redirect_errors, miss->redirect_errors);
}

int xl_steer_parse(const char *name)
{
	int i;

	for (i = XL_STEER_NO_TOUCH; i < XL_STEER__COUNT; i++)
		if (!strcmp(name, steer_names[i]))
			return i;
	return -EINVAL;
}

int xl_cpu_list_parse(const char *list, int *cpus, int max, int *n)
{
	const char *p = list;

	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		long lo, hi, c;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtol(p, &end, 10);
		}
		if (hi < lo || hi > 65535)
			return -EINVAL;
		for (c = lo; c <= hi; c++) {
			if (*n >= max)
				return -E2BIG;
			cpus[(*n)++] = (int)c;
		}
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

/* --stress-mode: replace every entry (a new kthread each time) until told
 * to stop; the traffic keeps flowing into whichever entry is current. */
void *xl_redirect_stress_main(void *arg)
{
	struct xl_redirect *r = arg;
	struct timespec ts = { 0, XL_STEER_STRESS_US * 1000L };
	int i;

	while (!atomic_load(&r->stress_stop)) {
		for (i = 0; i < r->nsteer; i++)
			if (!xl_redirect_cpumap_put(r, r->steer_cpus[i]))
				atomic_fetch_add(&r->stress_replaced, 1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int xl_redirect__steer_count(const struct xl_redirect *r)
{
	return r->o.kind == XL_REDIR_CPUMAP ? r->nsteer : 0;
}

int xl_redirect_steer_targets(struct xl_redirect *r, struct xl_steer_target *t, bool read_cpu)
{
	__u32 key = 0;
	int i, c;

	if (read_cpu &&
	    bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.cpu_stats), &key, r->cpu_recs))
		return -errno;
	for (i = 0; i < r->nsteer; i++) {
		__u32 k = r->steer_cpus[i];

		memset(&t[i], 0, sizeof(t[i]));
		t[i].cpu = k;
		if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.steer_stats), &k, r->steer_recs))
			return -errno;
		for (c = 0; c < r->ncpus; c++) {
			t[i].steered += r->steer_recs[c].steered;
			t[i].enqueued += r->steer_recs[c].enqueued;
			t[i].enqueue_drops += r->steer_recs[c].enqueue_drops;
			if (r->o.cpu_action == XL_CPU_ACT_DISABLED)
				t[i].processed += r->steer_recs[c].kthread_processed;
		}
		/* The entry program runs on the target CPU: its own record. */
		if (r->o.cpu_action != XL_CPU_ACT_DISABLED)
			t[i].processed = r->cpu_recs[k].processed;
	}
	return 0;
}

int xl_redirect__quiesce(struct xl_redirect *r, int timeout_ms)
{
	struct xl_steer_target t[XL_STEER_MAX_CPUS];
	const struct timespec step = { 0, 2 * 1000 * 1000 };
	int waited, i, err;

	if (r->stress_running) {
		atomic_store(&r->stress_stop, true);
		pthread_join(r->stress_thread, NULL);
		r->stress_running = false;
	}
	xl_xdp_link_close(r->link_fd); /* -1: nothing */
	r->link_fd = -1;
	if (r->o.kind != XL_REDIR_CPUMAP)
		return 0;
	for (waited = 0;; waited += 2) {
		uint64_t pending = 0;

		err = xl_redirect_steer_targets(r, t, true);
		if (err)
			return err;
		for (i = 0; i < r->nsteer; i++)
			if (t[i].steered > t[i].processed + t[i].enqueue_drops)
				pending += t[i].steered - t[i].processed - t[i].enqueue_drops;
		if (!pending)
			return 0;
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		nanosleep(&step, NULL);
	}
}

int xl_redirect__read_steer(struct xl_redirect *r, struct xl_steer_target *t,
			    struct xl_steer_miss *miss, uint64_t *stress_replaced)
{
	struct xl_steer_miss *mv = (struct xl_steer_miss *)r->steer_recs; /* same size */
	__u32 key = 0;
	int c, err;

	if (r->o.kind != XL_REDIR_CPUMAP)
		return -EINVAL;
	err = xl_redirect_steer_targets(r, t, true);
	if (err)
		return err;
	if (miss) {
		memset(miss, 0, sizeof(*miss));
		if (bpf_map_lookup_elem(bpf_map__fd(r->skel->maps.steer_miss), &key, mv))
			return -errno;
		for (c = 0; c < r->ncpus; c++) {
			miss->not_ip += mv[c].not_ip;
			miss->malformed += mv[c].malformed;
			miss->no_ports += mv[c].no_ports;
			miss->filtered += mv[c].filtered;
			miss->redirect_errors += mv[c].redirect_errors;
		}
	}
	if (stress_replaced)
		*stress_replaced = atomic_load(&r->stress_replaced);
	return 0;
}
