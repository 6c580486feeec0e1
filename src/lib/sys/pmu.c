// SPDX-License-Identifier: BSD-2-Clause
/* Hardware counters of one CPU in counting mode (xdplab/pmu.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "xdplab/pmu.h"

static const uint64_t events[XL_PMU_NEVENTS] = {
	[XL_PMU_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
	[XL_PMU_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
	[XL_PMU_CACHE_MISSES] = PERF_COUNT_HW_CACHE_MISSES,
	[XL_PMU_BRANCH_MISSES] = PERF_COUNT_HW_BRANCH_MISSES,
};

const char *xl_pmu_event_name(int ev)
{
#define NAME(id, name) [XL_PMU_##id] = #name,
	static const char *const names[XL_PMU_NEVENTS] = { XL_PMU_EVENTS(NAME) };
#undef NAME

	return ev >= 0 && ev < XL_PMU_NEVENTS ? names[ev] : NULL;
}

/* One counting event @ev on @cpu, enabled at once; its fd or -errno. */
static int open_event(int ev, int cpu)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = events[ev];
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int xl_pmu__open(struct xl_pmu *p, int cpu)
{
	int ev, first = 0;

	p->cpu = cpu;
	p->nopen = 0;
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		p->fd[ev] = open_event(ev, cpu);
		if (p->fd[ev] >= 0) {
			p->nopen++;
		} else {
			if (!first)
				first = p->fd[ev];
			p->fd[ev] = -1;
		}
	}
	return p->nopen ? 0 : first;
}

void xl_pmu__read(const struct xl_pmu *p, struct xl_pmu_read *r)
{
	uint64_t v[3];
	int ev;

	memset(r, 0, sizeof(*r));
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		if (p->fd[ev] < 0 || read(p->fd[ev], v, sizeof(v)) != sizeof(v))
			continue;
		r->c[ev] = (struct xl_pmu_count){ .value = v[0], .enabled = v[1], .running = v[2],
						  .ok = true };
	}
}

void xl_pmu__close(struct xl_pmu *p)
{
	int ev;

	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		if (p->fd[ev] >= 0)
			close(p->fd[ev]);
		p->fd[ev] = -1;
	}
	p->nopen = 0;
}

int xl_pmu_probe(void)
{
	int fd = open_event(XL_PMU_INSTRUCTIONS, 0);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

double xl_pmu_delta(const struct xl_pmu_count *a, const struct xl_pmu_count *b, bool *ok)
{
	uint64_t run, en;

	*ok = a->ok && b->ok && b->value >= a->value && b->enabled >= a->enabled &&
	      b->running > a->running;
	if (!*ok)
		return 0;
	run = b->running - a->running;
	en = b->enabled - a->enabled;
	return (double)(b->value - a->value) * ((double)en / run);
}

void xl_pmu_per_pkt(const struct xl_pmu_read *a, const struct xl_pmu_read *b, uint64_t packets,
		    struct xl_pmu_pkt *out)
{
	double n[XL_PMU_NEVENTS];
	int ev;

	memset(out, 0, sizeof(*out));
	if (!packets)
		return;
	for (ev = 0; ev < XL_PMU_NEVENTS; ev++) {
		n[ev] = xl_pmu_delta(&a->c[ev], &b->c[ev], &out->ok[ev]);
		out->per_pkt[ev] = out->ok[ev] ? n[ev] / packets : 0;
	}
	out->ipc_ok = out->ok[XL_PMU_INSTRUCTIONS] && out->ok[XL_PMU_CYCLES] && n[XL_PMU_CYCLES] > 0;
	out->ipc = out->ipc_ok ? n[XL_PMU_INSTRUCTIONS] / n[XL_PMU_CYCLES] : 0;
}
