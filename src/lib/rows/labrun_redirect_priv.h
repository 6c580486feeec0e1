/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the redirect rows: what labrun_redirect.c (the redirect run,
 * its set-up and slices) gives labrun_watch.c (the watch-cost rows, the
 * price of watching the redirect path).
 */
#ifndef XDPLAB_LABRUN_REDIRECT_PRIV_H
#define XDPLAB_LABRUN_REDIRECT_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/labrun_redirect.h"
#include "watch_lazy.h"

/*
 * What the kernel had attached in the floor level's slices: @slices
 * counted, @alone of them with the floor program as the only link of any
 * program of the set's monitors (and that link on xdp_devmap_xmit),
 * @xmit_max the most links on xdp_devmap_xmit seen, anyone's.
 */
struct watch_census {
	int slices, alone, xmit_max;
};

/**
 * xl_labrun_redir_set() - measure @rows, one per level of @levels
 * (@nlevels of them, at most 5), in @nslices slices per level and
 * repetition, the levels interleaved by the planner.
 * @kind: devmap or cpumap; @size: frame bytes; @cpu: the cpumap target CPU.
 * @per_rep: a traffic set-up per repetition (a plain row, with the profiled
 *   repetition when there is a profiler), else one for all (the watch-cost sets).
 * @wc: the floor level's census (NULL: not counted); @lazy: the lazy
 *   level's gate (NULL: no lazy level), closed here.
 * Return: as xl_plan_run(); *@failed_profiled: the error came from the
 * profiled repetition.
 */
int xl_labrun_redir_set(struct xl_lab *lab, const struct xl_labrun_opts *o,
			enum xl_redir_kind kind, const enum xl_watch *levels, int nlevels,
			uint32_t size, int cpu, struct xl_row_result **rows, int nslices,
			bool per_rep, struct watch_census *wc, struct xl_watch_lazy *lazy,
			bool *failed_profiled);

/**
 * xl_labrun_redir_row() - fill @row's description (name from @kind and
 * @watch, action, op, the lab's base fields at @size bytes).
 * Return: the cpumap target CPU (also @row's judged CPU for cpumap).
 */
int xl_labrun_redir_row(struct xl_lab *lab, const struct xl_labrun_opts *o,
			enum xl_redir_kind kind, enum xl_watch watch, uint32_t size,
			struct xl_row_result *row);

#endif /* XDPLAB_LABRUN_REDIRECT_PRIV_H */
