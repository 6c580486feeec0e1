// SPDX-License-Identifier: BSD-2-Clause
/*
 * Exact NET_RX softirq time per CPU from irq:softirq_entry/exit (see
 * xdplab/softirq_time.h). One instance per process: every meter reads the
 * same cumulative counters, so samples of different meters and runs need
 * no coordination, and the programs' cost is paid once whatever measures.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdplab/log.h"
#include "xdplab/softirq_time.h"
#include "xdplab/time.h"
#include "softirq_time.skel.h"

static struct softirq_time *skel;
static struct xl_sirq_rec *recs; /* one per possible CPU */
static int ncpus, open_err = 1;  /* 1: not tried yet */

uint64_t xl_sirq_cpu_ns(const struct xl_sirq_rec *r, uint64_t now_ns)
{
	uint64_t ns = r->ns;

	if (r->entry_ns && r->entry_ns <= now_ns)
		ns += now_ns - r->entry_ns;
	return ns;
}

int xl_sirq_open(void)
{
	const char *env = getenv(XL_SIRQ_ENV);
	int err;

	if (open_err <= 0)
		return open_err;
	if (env && !strcmp(env, "proc-stat")) {
		xl_info("%s=proc-stat: DUT softirq time from /proc/stat", XL_SIRQ_ENV);
		return open_err = -ECANCELED;
	}
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0)
		return open_err = ncpus < 0 ? ncpus : -ENODEV;
	recs = calloc(ncpus, sizeof(*recs));
	if (!recs)
		return open_err = -ENOMEM;
	skel = softirq_time__open_and_load();
	err = skel ? softirq_time__attach(skel) : -errno;
	if (err) {
		xl_info("softirq tracepoints unavailable (%s): DUT softirq time from /proc/stat",
			strerror(-err));
		xl_sirq_close();
		return open_err = err;
	}
	return open_err = 0;
}

void xl_sirq_close(void)
{
	if (open_err < 0)
		return; /* a failed open stays failed: not retried, not said again */
	softirq_time__destroy(skel);
	skel = NULL;
	free(recs);
	recs = NULL;
	open_err = 1;
}

int xl_sirq_read(uint64_t *ns, uint64_t *runs, int n, uint64_t *t_ns)
{
	__u32 key = 0;
	uint64_t now;
	int i;

	if (!skel)
		return -ENODEV;
	/*
	 * The stamp before the copy: a run in progress counts up to a time
	 * it had reached when copied, so a reading never overshoots the next
	 * one (a stamp after the copy added the syscall's return and any
	 * preemption, and the next window then went backwards and was lost).
	 * A run that starts between the stamp and the copy counts 0.
	 */
	now = xl_now_ns();
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.sirq_time), &key, recs))
		return -errno;
	for (i = 0; i < n; i++) {
		ns[i] = i < ncpus ? xl_sirq_cpu_ns(&recs[i], now) : 0;
		if (runs)
			runs[i] = i < ncpus ? recs[i].runs : 0;
	}
	*t_ns = now;
	return 0;
}
