/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file hostctl.h
 * The host-speed control (issue 19 item 2): a fixed XDP program
 * (bpf/hostctl.bpf.c: XL_HOSTCTL_ITERS dependent multiply-adds per run, no
 * memory, no immediates) timed with BPF_PROG_RUN on one CPU, in ns per run
 * from the kernel's own duration. Measured between a row's windows, never
 * inside one, it says how fast the host was around each repetition, so that
 * figures of separate runs can be set against the host's speed in each.
 *
 * Each measurement is @bursts bursts of @calls BPF_PROG_RUN calls of one
 * run each; a burst's figure is its runs' mean ns, the measurement's the
 * fastest burst's. One run per call: with a repeat above 1 the kernel puts
 * the program into the XDP dispatcher for the call and takes it out after
 * (bpf_prog_change_xdp() in bpf_prog_test_run_xdp(), net/bpf/test_run.c),
 * each an RCU grace period: about 25 ms per call on this VM, against
 * about 2 us for a call of one run. Disturbances only add time (an interrupt on
 * that CPU, a softirq, another guest's steal; a reschedule is not counted:
 * the kernel stops its timer for it, net/bpf/test_run.c
 * bpf_test_timer_continue()), so the minimum is the least disturbed burst:
 * the host's speed, not the traffic's preemption. A low quantile would keep
 * part of the disturbance; the median is reported beside it as the spread.
 */
#ifndef XDPLAB_HOSTCTL_H
#define XDPLAB_HOSTCTL_H

#include <stdint.h>

#include "xdplab/abi/hostctl.h"

/** Default bursts per measurement and calls (one run each) per burst. */
#define XL_HOSTCTL_BURSTS 15
#define XL_HOSTCTL_CALLS 20
/** Most bursts of one measurement. */
#define XL_HOSTCTL_MAX_BURSTS 64

struct xl_hostctl;

/**
 * struct xl_hostctl_result - one measurement.
 * @ns: the fastest burst's ns per run (the control's figure).
 * @median_ns: the bursts' median ns per run.
 * @cpu: where it ran; @bursts x @calls: the runs.
 * @took_ns: wall time the measurement took, ns (its cost per repetition).
 */
struct xl_hostctl_result {
	double ns, median_ns;
	int cpu;
	uint32_t bursts, calls;
	uint64_t took_ns;
};

/**
 * xl_hostctl__create() - load the control's program (root or CAP_BPF).
 * Return: the control (xl_hostctl__destroy()), or NULL with errno.
 */
struct xl_hostctl *xl_hostctl__create(void);

/** xl_hostctl__destroy() - unload; NULL is a no-op. */
void xl_hostctl__destroy(struct xl_hostctl *c);

/**
 * xl_hostctl__measure() - @bursts (1..XL_HOSTCTL_MAX_BURSTS) bursts of
 * @calls (1..) BPF_PROG_RUN calls of one run each on CPU @cpu: the calling thread is moved
 * there for the measurement and back to its own CPUs after (the kernel runs
 * an XDP program's test run on the caller's CPU). Not thread-safe per @c.
 * Return: 0 and @r, -EINVAL (@bursts or @calls out of range, @cpu < 0),
 * or -errno of the move (the CPU is offline or not ours) or of a run.
 */
int xl_hostctl__measure(struct xl_hostctl *c, int cpu, uint32_t bursts, uint32_t calls,
			struct xl_hostctl_result *r);

/**
 * xl_hostctl_reduce() - the minimum and the median of @n (1..) bursts'
 * mean ns per run @ns into @r->ns / @r->median_ns (@ns is left unsorted).
 * Return: 0, -EINVAL when @n is 0 or above XL_HOSTCTL_MAX_BURSTS.
 */
int xl_hostctl_reduce(const double *ns, uint32_t n, struct xl_hostctl_result *r);

#endif /* XDPLAB_HOSTCTL_H */
