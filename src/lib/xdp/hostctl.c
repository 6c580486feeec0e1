// SPDX-License-Identifier: BSD-2-Clause
/* The host-speed control: a fixed program timed with BPF_PROG_RUN (xdplab/hostctl.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hostctl.skel.h"
#include "xdplab/hostctl.h"
#include "xdplab/progrun.h"
#include "xdplab/time.h"

struct xl_hostctl {
	struct hostctl *skel;
};

struct xl_hostctl *xl_hostctl__create(void)
{
	struct xl_hostctl *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	c->skel = hostctl__open_and_load();
	if (!c->skel) {
		err = errno ? errno : EINVAL;
		free(c);
		errno = err;
		return NULL;
	}
	return c;
}

void xl_hostctl__destroy(struct xl_hostctl *c)
{
	if (!c)
		return;
	hostctl__destroy(c->skel);
	free(c);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int xl_hostctl_reduce(const double *ns, uint32_t n, struct xl_hostctl_result *r)
{
	double s[XL_HOSTCTL_MAX_BURSTS];

	if (!n || n > XL_HOSTCTL_MAX_BURSTS)
		return -EINVAL;
	memcpy(s, ns, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	r->ns = s[0];
	r->median_ns = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	return 0;
}

int xl_hostctl__measure(struct xl_hostctl *c, int cpu, uint32_t bursts, uint32_t calls,
			struct xl_hostctl_result *r)
{
	/* The smallest frame the kernel takes: an Ethernet header and a little. */
	static const uint8_t frame[64];
	double ns[XL_HOSTCTL_MAX_BURSTS];
	uint32_t i, k;
	struct xl_run_result rr;
	cpu_set_t mine, one;
	uint64_t t0 = xl_now_ns();
	int err = 0, fd = bpf_program__fd(c->skel->progs.xdp_hostctl_fixed_work);

	memset(r, 0, sizeof(*r));
	if (!bursts || bursts > XL_HOSTCTL_MAX_BURSTS || !calls || cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	if (sched_getaffinity(0, sizeof(mine), &mine))
		return -errno;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -errno;
	for (i = 0; i < bursts && !err; i++) {
		uint64_t sum = 0;

		for (k = 0; k < calls && !err; k++) {
			err = xl_prog_run_frame(fd, frame, sizeof(frame), 1, NULL, 0, &rr);
			sum += rr.duration_ns;
		}
		ns[i] = (double)sum / calls;
	}
	/* Back where the thread was allowed to run, whatever happened. */
	if (sched_setaffinity(0, sizeof(mine), &mine) && !err)
		err = -errno;
	if (err)
		return err;
	xl_hostctl_reduce(ns, bursts, r);
	r->cpu = cpu;
	r->bursts = bursts;
	r->calls = calls;
	r->took_ns = xl_now_ns() - t0;
	return 0;
}
