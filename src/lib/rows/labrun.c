// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the lab rows share (labrun_priv.h): the benchmark created in a
 * namespace, the generator, a row's base description, the profiler around
 * a repetition, a sample at an edge of the count check, and starting and
 * stopping the traffic. The XDP rows' measured run is in labrun_xdp.c.
 */
#include <stdlib.h>
#include <string.h>
#include <net/if.h>

#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/labrun.h"
#include "labrun_priv.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/netlink.h"

/*
 * The largest MTU a single-buffer XDP program is attached at on a veth with
 * 4 KiB pages (veth_xdp_set(): a page less XDP_PACKET_HEADROOM and
 * skb_shared_info, less the Ethernet header: 4096 - 256 - 320 - 14); most
 * drivers' limit is about the same (one page per frame).
 */
#define SINGLE_BUF_MTU 3506

/*
 * In the interface's namespace: an XDP benchmark, multi-buffer (xdp.frags)
 * when the interface's MTU is above one buffer (lab run --dut on a jumbo
 * interface: MTU 9000 refuses a single-buffer program with ERANGE), said
 * once per run on stderr. The lab's own veths have MTU 1500.
 */
void *xl_labrun_bench_create(const void *arg)
{
	static bool said;
	struct xl_bench_opts bo = *(const struct xl_bench_opts *)arg;
	struct xl_link_info li;
	int ifindex = if_nametoindex(bo.ifname);

	if (!bo.tc && !bo.frags && bo.mode == XL_MODE_NATIVE && ifindex &&
	    !xl_link_get(ifindex, -1, &li) && li.mtu > SINGLE_BUF_MTU) {
		bo.frags = true;
		if (!said)
			xl_warn("%s: MTU %u is above one buffer (%u): the XDP rows load multi-buffer (xdp.frags) programs",
				bo.ifname, li.mtu, SINGLE_BUF_MTU);
		said = true;
	}
	return xl_bench__create(&bo);
}

struct xl_bench *xl_labrun_bench(struct xl_lab *lab, enum xl_lab_side side,
				 const struct xl_bench_opts *bo)
{
	return xl_lab__create_in(lab, side, xl_labrun_bench_create, bo);
}

struct xl_gen *xl_labrun_gen(struct xl_lab *lab, const struct xl_labrun_opts *o, uint32_t size)
{
	return xl_labrun_gen_paced(lab, o, size, 0, 0, 0);
}

struct xl_gen *xl_labrun_gen_paced(struct xl_lab *lab, const struct xl_labrun_opts *o,
				   uint32_t size, uint64_t rate_pps, uint64_t count,
				   uint64_t duration_ns)
{
	struct xl_gen_opts go = {
		.rate_pps = rate_pps, .count = count, .duration_ns = duration_ns,
		.engine = XL_ENGINE_LIVE, .engine_forced = false,
		.ifname = lab->ifname[XL_LAB_GEN], .netns_fd = lab->ns_fd[XL_LAB_GEN],
		.flows = 1, .threads = 1, .first_cpu = o->gen_cpu, .batch = o->gen_batch,
		.spec = { .size = size, .src_port = 1024, .dst_port = XL_LABRUN_UDP_DPORT,
			  .src_ip4 = lab->ip4[XL_LAB_GEN], .dst_ip4 = lab->ip4[XL_LAB_DUT] },
	};

	memcpy(go.spec.src_mac, lab->mac[XL_LAB_GEN], 6);
	memcpy(go.spec.dst_mac, lab->mac[XL_LAB_DUT], 6);
	return xl_gen__create(&go);
}

void xl_labrun_row_base(struct xl_row_result *row, const struct xl_lab *lab,
			const struct xl_labrun_opts *o, uint32_t size, enum xl_xdp_mode mode)
{
	memset(row, 0, sizeof(*row));
	row->kind = "xdp";
	row->size = size;
	row->mode = xl_xdp_mode_name(mode);
	row->wiring = xl_wiring_name(lab->wiring);
	row->napi_cpu = lab->wiring == XL_WIRING_THREADED ? lab->napi_cpu : o->gen_cpu;
	row->gen_cpu = o->gen_cpu;
	row->engine = "live";
	row->judged = "dut-cpu";
}

bool xl_labrun_prof_begin(const struct xl_labrun_opts *o, const struct xl_row_result *row,
			  const struct xl_prof_cpu *cpus, int n)
{
	struct xl_prof_cpu u[XL_PROF_MAX_CPUS];
	char name[64], *c;
	int i, j, k = 0;

	if (!o->profiler)
		return false;
	for (i = 0; i < n && i < XL_PROF_MAX_CPUS; i++) {
		for (j = 0; j < k && u[j].cpu != cpus[i].cpu; j++)
			;
		if (j < k) {
			size_t l = strlen(u[j].role);

			snprintf(u[j].role + l, sizeof(u[j].role) - l, "+%s", cpus[i].role);
		} else {
			u[k++] = cpus[i];
		}
	}
	snprintf(name, sizeof(name), "%s-%u", row->name, row->size);
	for (c = name; *c; c++)
		if (*c == '/' || *c == '+' || *c == ' ')
			*c = '-';
	return xl_profiler__start(o->profiler, u, k, name) == 0;
}

void xl_labrun_prof_end(const struct xl_labrun_opts *o, struct xl_row_result *row)
{
	struct xl_profile *p = malloc(sizeof(*p)), *rp;

	if (!p || xl_profiler__stop(o->profiler, p)) {
		free(p);
		return;
	}
	p->extra = true;
	rp = xl_row_part_get(row, &xl_row_part_profile);
	if (rp)
		*rp = *p;
	free(p);
}

void xl_labrun_prof_window(struct xl_row_result *row, double pps, double cpu_ns_per_pkt)
{
	struct xl_profile *p = xl_row_part(row, &xl_row_part_profile);

	if (!p)
		return;
	p->have_window = true;
	p->pps = pps;
	p->cpu_ns_per_pkt = cpu_ns_per_pkt;
}

/*
 * A sample at an edge of the count check. With the user's own traffic
 * flowing through it, ours and the kernel's counts are read back to back
 * (xl_meter_sample()), but a preemption between the two would count as a
 * disagreement: retried (5 times at most) while more than 1 ms passed
 * between them.
 */
int xl_labrun_sample_edge(struct xl_meter *m, struct xl_meter_sample *s, bool flowing)
{
	int i, err = 0;

	for (i = 0; i < 5; i++) {
		err = xl_meter_sample(m, s);
		if (err || !flowing || !s->eth.ok || s->eth.t_ns - s->t_ns < 1000000ull)
			break;
	}
	return err;
}

int xl_labrun_traffic_start(const struct xl_labrun_opts *o, struct xl_gen *gen, uint32_t size)
{
	if (!o->src)
		return xl_gen__start(gen);
	return o->src->start ? o->src->start(o->src->ctx, size,
					     XL_LABRUN_ARRIVE_NS + o->warmup_ns + o->seconds_ns) :
			       0;
}

int xl_labrun_traffic_stop(const struct xl_labrun_opts *o, struct xl_gen *gen)
{
	if (!o->src) {
		xl_gen__stop(gen);
		return xl_gen__join(gen);
	}
	return o->src->stop ? o->src->stop(o->src->ctx) : 0;
}
