// SPDX-License-Identifier: BSD-2-Clause
/*
 * The lazy watch level of the watch-cost rows: what `monitor --lazy` costs
 * when nothing fails. Its monitor is loaded with the others and attached
 * only after one of the lab's veths' error counters moved; until then the
 * counters are read around each of its slices (outside the window: the
 * reads cost the datapath nothing) and the kernel's links of its programs
 * are counted, so the note can say that none was attached.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "xdplab/log.h"
#include "xdplab/watch_cost.h"
#include "watch_lazy.h"

void xl_watch_lazy_close(struct xl_watch_lazy *z)
{
	int i, j;

	for (i = 0; i < z->ndevs; i++) {
		if (z->devs[i].sock < 0)
			continue;
		for (j = i + 1; j < z->ndevs; j++) /* a namespace's socket serves its devices */
			if (z->devs[j].sock == z->devs[i].sock)
				z->devs[j].sock = -1;
		close(z->devs[i].sock);
		z->devs[i].sock = -1;
	}
}

int xl_watch_lazy_open(struct xl_watch_lazy *z, const struct xl_lab *lab,
		       struct xl_monitor *mon)
{
	int s, i, fd, n;

	memset(z, 0, sizeof(*z));
	for (s = 0; s < 2; s++) {
		fd = xl_lab__socket(lab, s, AF_INET, SOCK_DGRAM);
		if (fd < 0) {
			n = fd;
			xl_watch_lazy_close(z);
			return n;
		}
		for (i = -1; i < lab->nout && z->ndevs < XL_ERRGATE_MAX_DEVS; i++) {
			const char *name = i < 0 ? lab->ifname[s] : lab->out_ifname[i][s];

			if (!name[0])
				continue;
			z->devs[z->ndevs].sock = fd;
			snprintf(z->devs[z->ndevs].ifname, sizeof(z->devs[0].ifname), "%s", name);
			z->ndevs++;
		}
		if (!z->ndevs || z->devs[z->ndevs - 1].sock != fd)
			close(fd); /* no device of this side */
	}
	n = xl_monitor__prog_ids(mon, z->ids, XL_LAZY_MAX_PROGS);
	z->nids = n > XL_LAZY_MAX_PROGS ? XL_LAZY_MAX_PROGS : n;
	return 0;
}

void xl_watch_lazy_begin(struct xl_watch_lazy *z)
{
	struct xl_mon_census c;
	int err;

	z->slices++;
	err = z->nids >= 0 ? xl_mon_link_census(z->ids, z->nids, &c) : z->nids;
	if (err) {
		z->uncounted++;
		xl_dbg("lazy slice: the kernel's links not counted: %s", strerror(-err));
	} else if (!c.links) {
		z->clean++;
	} else {
		xl_warn("lazy slice: %d link(s) of its %d programs attached", c.links, z->nids);
	}
	z->before_ok = xl_errgate_read(z->devs, z->ndevs, &z->before) == z->ndevs;
}

bool xl_watch_lazy_end(struct xl_watch_lazy *z)
{
	struct xl_errgate_snap after;
	struct xl_errgate_move mv;

	if (!z->before_ok || z->tripped)
		return false;
	z->before_ok = false;
	xl_errgate_read(z->devs, z->ndevs, &after);
	if (!xl_errgate_moved(&z->before, &after, z->ndevs, &mv, 1))
		return false;
	z->tripped = true;
	z->trip_dev = mv.dev;
	z->trip_ctr = mv.ctr;
	z->trip_delta = mv.delta;
	z->trip_slice = z->slices - 1;
	xl_warn("lazy monitor: %s %s moved by %llu: attached for its later slices",
		z->devs[mv.dev].ifname, xl_errgate_ctr_name(mv.ctr),
		(unsigned long long)mv.delta);
	return true;
}

void xl_watch_lazy_note(const struct xl_watch_lazy *z, const struct xl_row_result *without,
			struct xl_row_result *row, int hops)
{
	size_t len = sizeof(row->note);
	double lo, hi, d = xl_watch_cpu_cost_ns(without, row);
	int n;

	if (z->tripped)
		n = snprintf(row->note, len,
			     "lazy: %s %s moved by %llu in its slice %d: attached from then on; ",
			     z->devs[z->trip_dev].ifname, xl_errgate_ctr_name(z->trip_ctr),
			     (unsigned long long)z->trip_delta, z->trip_slice + 1);
	else
		n = snprintf(row->note, len,
			     "lazy: no error counter of the %d veths moved, no link of its programs in %d of %d slices%s; ",
			     z->ndevs, z->clean, z->slices - z->uncounted,
			     z->uncounted ? " counted (the others' link list unreadable)" : "");
	if (n < 0 || (size_t)n >= len)
		return;
	n += snprintf(row->note + n, len - n, "%+.1f CPU ns/packet vs %s, %+.2f per redirect hop",
		      d, without->name, d / hops);
	if (n > 0 && (size_t)n < len && !xl_watch_cpu_cost_ci(without, row, &lo, &hi))
		snprintf(row->note + n, len - n, " (95%% CI %.2f..%.2f)", lo / hops, hi / hops);
}
