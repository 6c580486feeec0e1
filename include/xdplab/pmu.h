/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pmu.h
 * The CPU's hardware counters on one CPU, in counting mode
 * (perf_event_open(2), no sampling: nothing runs per event): instructions,
 * cycles, cache misses and branch misses of everything that ran on that CPU
 * between two reads. Counts, unlike times, do not move with the host's
 * clock speed or with another guest's share of the core (issue 19). A
 * machine without a PMU (a VM that exposes none, as the one xdplab is
 * developed on) opens none: the figures are then unknown, never 0.
 */
#ifndef XDPLAB_PMU_H
#define XDPLAB_PMU_H

#include <stdbool.h>
#include <stdint.h>

/**
 * XL_PMU_EVENTS() - the counters, X(ID, name) each: the enum's XL_PMU_ID
 * and the name (xl_pmu_event_name(), the results file's "name_per_pkt",
 * the hardware counts' field table, src/lib/measure/rowfields.c) written once.
 */
#define XL_PMU_EVENTS(X)              \
	X(INSTRUCTIONS, instructions) \
	X(CYCLES, cycles)             \
	X(CACHE_MISSES, cache_misses) \
	X(BRANCH_MISSES, branch_misses)

/** The counters opened, in this order (struct xl_pmu_read.c[]). */
enum xl_pmu_event {
#define XL_PMU_ENUM(id, name) XL_PMU_##id,
	XL_PMU_EVENTS(XL_PMU_ENUM)
#undef XL_PMU_ENUM
	XL_PMU_NEVENTS
};

/** xl_pmu_event_name() - "instructions", "cycles", "cache_misses", "branch_misses"; NULL out of range. */
const char *xl_pmu_event_name(int ev);

/**
 * struct xl_pmu - the counters of one CPU. @fd: each event's perf fd, -1
 * when it did not open; @cpu: the CPU; @nopen: how many opened.
 */
struct xl_pmu {
	int fd[XL_PMU_NEVENTS];
	int cpu;
	int nopen;
};

/**
 * struct xl_pmu_count - one counter read (PERF_FORMAT_TOTAL_TIME_ENABLED |
 * PERF_FORMAT_TOTAL_TIME_RUNNING). @value: events; @enabled/@running: ns
 * the event was enabled and actually on the PMU (less than @enabled when
 * the kernel multiplexed more events than the PMU has counters); @ok: read.
 */
struct xl_pmu_count {
	uint64_t value, enabled, running;
	bool ok;
};

/** struct xl_pmu_read - every counter of one read, by enum xl_pmu_event. */
struct xl_pmu_read {
	struct xl_pmu_count c[XL_PMU_NEVENTS];
};

/**
 * struct xl_pmu_pkt - a window's counts per packet. @per_pkt[ev]: scaled
 * events per packet, valid when @ok[ev]; @ipc: instructions per cycle,
 * valid when @ipc_ok (both counters were).
 */
struct xl_pmu_pkt {
	double per_pkt[XL_PMU_NEVENTS];
	bool ok[XL_PMU_NEVENTS];
	double ipc;
	bool ipc_ok;
};

/**
 * xl_pmu__open() - open the counters on @cpu (pid -1: every task on it,
 * kernel and user; root or CAP_PERFMON), counting from now. A counter that
 * does not open stays -1 (a PMU may lack one event).
 * Return: 0 when at least one opened, else the first open's -errno
 * (-ENOENT or -EOPNOTSUPP: no such hardware event, the CPU has no PMU; -EACCES;
 * -EINVAL for a bad @cpu); @p is then closed (safe to xl_pmu__close()).
 */
int xl_pmu__open(struct xl_pmu *p, int cpu);

/** xl_pmu__read() - read every open counter into @r (the others not ok). One read(2) each. */
void xl_pmu__read(const struct xl_pmu *p, struct xl_pmu_read *r);

/** xl_pmu__close() - close @p's counters; safe twice and on a @p that failed to open. */
void xl_pmu__close(struct xl_pmu *p);

/**
 * xl_pmu_probe() - whether this machine counts hardware events: opens and
 * closes the instruction counter on CPU 0. Return: 0 yes, or the open's
 * -errno (the reason to say once per run).
 */
int xl_pmu_probe(void);

/**
 * xl_pmu_delta() - a counter's events between reads @a and @b, scaled for
 * multiplexing: delta value x delta enabled / delta running, the kernel's
 * own estimate (tools/perf/util/stat.c, perf_counts_values__scale()).
 * *@ok: false when either read failed, a value or a time ran backwards, or
 * the counter never ran in between (delta running 0: no estimate).
 * Return: the scaled count (0 when !*@ok).
 */
double xl_pmu_delta(const struct xl_pmu_count *a, const struct xl_pmu_count *b, bool *ok);

/**
 * xl_pmu_per_pkt() - the counts between @a and @b per packet of @packets
 * into @out: each counter xl_pmu_delta() / @packets, IPC instructions /
 * cycles. Nothing is ok when @packets is 0; IPC not when cycles are 0.
 */
void xl_pmu_per_pkt(const struct xl_pmu_read *a, const struct xl_pmu_read *b, uint64_t packets,
		    struct xl_pmu_pkt *out);

#endif /* XDPLAB_PMU_H */
