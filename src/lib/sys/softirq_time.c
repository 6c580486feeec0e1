// SPDX-License-Identifier: BSD-2-Clause
/*
 * Exact NET_RX softirq time per CPU from irq:softirq_entry/exit (see
 * xdplab/softirq_time.h). One instance per process: every meter reads the
 * same cumulative counters, so samples of different meters and runs need
 * no coordination, and the programs' cost is paid once whatever measures.
 * Its lifetime is its holders': a reference per meter that reads it
 * (xl_sirq_get()/xl_sirq_put()), loaded by the first, detached by the last,
 * so no command or row has to remember to close it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdplab/escape.h"
#include "xdplab/log.h"
#include "xdplab/softirq_time.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"
#include "softirq_time.skel.h"
#include "softirq_time_priv.h"

static int bpf_load(void **h)
{
	struct softirq_time *skel = softirq_time__open_and_load();
	int err;

	if (!skel)
		return -errno;
	err = softirq_time__attach(skel);
	if (err) {
		softirq_time__destroy(skel);
		return err;
	}
	*h = skel;
	return 0;
}

static int bpf_read(void *h, struct xl_sirq_rec *recs, int ncpus)
{
	struct softirq_time *skel = h;
	__u32 key = 0;

	(void)ncpus; /* a per-CPU array's lookup copies every possible CPU */
	return bpf_map_lookup_elem(bpf_map__fd(skel->maps.sirq_time), &key, recs) ? -errno : 0;
}

static void bpf_unload(void *h)
{
	softirq_time__destroy(h);
}

static const struct xl_sirq_ops bpf_ops = { bpf_load, bpf_read, bpf_unload };

static const struct xl_sirq_ops *ops = &bpf_ops;
static void *inst;               /* the loaded instance while @users > 0 */
static struct xl_sirq_rec *recs; /* one per possible CPU, while loaded */
static int ncpus, users;
static int load_err;             /* the first failed load, kept; 0: none */
static uint64_t generation;      /* loads so far: the current instance's */
static enum xl_sirq_src chosen_src; /* xl_sirq_source()'s, once @chosen */
static bool chosen;              /* forgotten by xl_sirq__set_ops() */

uint64_t xl_sirq_cpu_ns(const struct xl_sirq_rec *r, uint64_t now_ns)
{
	uint64_t ns = r->ns;

	if (r->entry_ns && r->entry_ns <= now_ns)
		ns += now_ns - r->entry_ns;
	return ns;
}

int xl_sirq__set_ops(const struct xl_sirq_ops *o)
{
	if (users)
		return -EBUSY;
	ops = o ? o : &bpf_ops;
	load_err = 0;
	chosen = false;
	return 0;
}

int xl_sirq_choose(const char *env, int irqtime, enum xl_sirq_src *src)
{
	enum xl_sirq_src procstat = irqtime == 1 ? XL_SIRQ_SRC_PROCSTAT_IRQTIME :
						   XL_SIRQ_SRC_PROCSTAT;

	/* auto: no program per NET_RX run where the kernel's own count is exact */
	*src = irqtime == 1 ? XL_SIRQ_SRC_PROCSTAT_IRQTIME : XL_SIRQ_SRC_TRACEPOINT;
	if (!env || !*env || !strcmp(env, "auto"))
		return 0;
	if (!strcmp(env, "tracepoint"))
		*src = XL_SIRQ_SRC_TRACEPOINT;
	else if (!strcmp(env, "proc-stat"))
		*src = procstat;
	else
		return -EINVAL;
	return 0;
}

enum xl_sirq_src xl_sirq_source(void)
{
	const char *env;

	if (chosen)
		return chosen_src;
	env = getenv(XL_SIRQ_ENV);
	if (xl_sirq_choose(env, xl_irq_time_accounting(), &chosen_src))
		xl_warn("%s=%s: not auto, tracepoint or proc-stat; read as auto", XL_SIRQ_ENV,
			XL_ESC(env));
	chosen = true;
	xl_dbg("DUT softirq time from %s",
	       chosen_src == XL_SIRQ_SRC_TRACEPOINT ? "the softirq tracepoints" :
	       chosen_src == XL_SIRQ_SRC_PROCSTAT_IRQTIME ? "/proc/stat (IRQ time accounting)" :
						      "/proc/stat (tick-sampled)");
	return chosen_src;
}

int xl_sirq_get(void)
{
	int err;

	if (load_err)
		return load_err;
	if (users) {
		users++;
		return 0;
	}
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0)
		return load_err = ncpus < 0 ? ncpus : -ENODEV;
	recs = calloc(ncpus, sizeof(*recs));
	if (!recs)
		return -ENOMEM; /* not kept: memory may come back */
	err = ops->load(&inst);
	if (err) {
		xl_info("softirq tracepoints unavailable (%s): DUT softirq time from /proc/stat",
			strerror(-err));
		free(recs);
		recs = NULL;
		return load_err = err;
	}
	generation++;
	users = 1;
	xl_dbg("softirq tracepoints loaded (generation %llu)", (unsigned long long)generation);
	return 0;
}

void xl_sirq_put(void)
{
	if (!users) {
		xl_dbg("xl_sirq_put() without a reference: ignored");
		return;
	}
	if (--users)
		return;
	ops->unload(inst);
	inst = NULL;
	free(recs);
	recs = NULL;
	xl_dbg("softirq tracepoints detached (generation %llu)", (unsigned long long)generation);
}

int xl_sirq_users(void)
{
	return users;
}

int xl_sirq_read(uint64_t *ns, uint64_t *runs, int n, uint64_t *t_ns, uint64_t *gen)
{
	uint64_t now;
	int i, err;

	if (!users)
		return -ENODEV;
	/*
	 * The stamp before the copy: a run in progress counts up to a time
	 * it had reached when copied, so a reading never overshoots the next
	 * one (a stamp after the copy added the syscall's return and any
	 * preemption, and the next window then went backwards and was lost).
	 * A run that starts between the stamp and the copy counts 0.
	 */
	now = xl_now_ns();
	err = ops->read(inst, recs, ncpus);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		ns[i] = i < ncpus ? xl_sirq_cpu_ns(&recs[i], now) : 0;
		if (runs)
			runs[i] = i < ncpus ? recs[i].runs : 0;
	}
	*t_ns = now;
	*gen = generation;
	return 0;
}
