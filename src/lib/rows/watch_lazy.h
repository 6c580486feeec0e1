/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the redirect rows (labrun_redirect.c, labrun_watch.c): the
 * watch-cost level "redirect+mon-lazy", the errors-only monitor behind the
 * lab's veths' error counters (xdplab/errgate.h), as `monitor --lazy` runs it.
 */
#ifndef XDPLAB_WATCH_LAZY_H
#define XDPLAB_WATCH_LAZY_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/errgate.h"
#include "xdplab/lab.h"
#include "xdplab/monitor.h"
#include "xdplab/report.h"

/** Most programs of the lazy monitor whose links are counted. */
#define XL_LAZY_MAX_PROGS 16

/**
 * struct xl_watch_lazy - the level's gate over one set's slices.
 * @devs/@ndevs: the lab's veths (both ends of the DUT pair and of each out
 *   pair), each with a socket in its namespace (owned: xl_watch_lazy_close()).
 * @ids/@nids: the kernel's ids of the monitor's programs (@nids < 0: not read).
 * @before/@before_ok: the counters read as the current slice opened.
 * @tripped: a counter moved: the monitor is attached for the level's
 *   later slices; @trip_dev/@trip_ctr/@trip_delta: the first that moved,
 *   @trip_slice: in the level's how-manieth slice (0-based).
 * @slices: the level's slices opened while not tripped; @clean: of those,
 *   the ones in which the kernel had no link of the monitor's programs;
 *   @uncounted: the ones whose link list could not be walked.
 */
struct xl_watch_lazy {
	struct xl_errgate_dev devs[XL_ERRGATE_MAX_DEVS];
	int ndevs;
	uint32_t ids[XL_LAZY_MAX_PROGS];
	int nids;
	struct xl_errgate_snap before;
	bool before_ok, tripped;
	int trip_dev, trip_ctr, trip_slice;
	uint64_t trip_delta;
	int slices, clean, uncounted;
};

/**
 * xl_watch_lazy_open() - empty @z, then a socket in each of @lab's two
 * namespaces for its veths and the ids of @mon's programs. Return: 0 or
 * -errno (nothing left open).
 */
int xl_watch_lazy_open(struct xl_watch_lazy *z, const struct xl_lab *lab,
		       struct xl_monitor *mon);

/** xl_watch_lazy_close() - close @z's sockets (again: nothing); the names and @z->ndevs stay for the note. */
void xl_watch_lazy_close(struct xl_watch_lazy *z);

/**
 * xl_watch_lazy_begin() - a slice of the level opens, not tripped: the
 * kernel's links of the monitor's programs counted, then the counters
 * read (both before the slice's first sample).
 */
void xl_watch_lazy_begin(struct xl_watch_lazy *z);

/**
 * xl_watch_lazy_end() - the slice closed (after its last sample): the
 * counters read again; a move trips @z. Return: true when it tripped now.
 */
bool xl_watch_lazy_end(struct xl_watch_lazy *z);

/**
 * xl_watch_lazy_note() - @row's note: whether a counter moved, the
 * slices without a link, and the cost against @without (CPU ns/packet
 * with its 95% CI, per hop over @hops hops).
 */
void xl_watch_lazy_note(const struct xl_watch_lazy *z, const struct xl_row_result *without,
			struct xl_row_result *row, int hops);

#endif /* XDPLAB_WATCH_LAZY_H */
