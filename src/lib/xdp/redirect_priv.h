/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/xdp/redirect*.c: the redirect benchmark's state, shared
 * by redirect.c (create, read, destroy) and redirect_steer.c (redirect-cpu's
 * steering reads and --stress-mode).
 */
#ifndef XDPLAB_REDIRECT_PRIV_H
#define XDPLAB_REDIRECT_PRIV_H

#include <pthread.h>
#include <stdatomic.h>

#include "redirect.skel.h"
#include "xdplab/redirect.h"

struct xl_redirect {
	struct redirect *skel;
	struct xl_redirect_opts o;
	int in_ifindex;
	int out_ifindex[XL_REDIR_MAX_OUT];
	int link_fd;
	int ncpus;
	/* the steering list (cpumap only) */
	int steer_cpus[XL_STEER_MAX_CPUS];
	int nsteer;
	struct xl_steer_rec *steer_recs; /* ncpus: one lookup's values */
	/* --stress-mode */
	pthread_t stress_thread;
	bool stress_running;
	atomic_bool stress_stop;
	atomic_uint_least64_t stress_replaced;
	/* ncpus each: one lookup's values of bench_stats and cpu_stats */
	struct xl_bench_rec *in_recs;
	struct xl_redir_cpu_rec *cpu_recs;
	int sock;
	/* what the last xl_redirect__read() returned (xl_redirect__last()) */
	struct xl_redirect_stats last;
	bool have_last;
	/* ethtool baselines at create time */
	uint64_t base_drops;
	uint64_t base_xmit[XL_REDIR_MAX_OUT], base_xmit_err[XL_REDIR_MAX_OUT];
	/* last values read, kept when an OUT vanishes mid-run */
	uint64_t last_xmit[XL_REDIR_MAX_OUT], last_xmit_err[XL_REDIR_MAX_OUT];
};

/* Put (or replace) CPU @cpu's cpumap entry with the configured program.
 * Return: 0 or -errno (logged). */
int xl_redirect_cpumap_put(struct xl_redirect *r, int cpu);

/*
 * Per target CPU, in list order, into @t (r->nsteer entries); @read_cpu:
 * look the cpumap records up now, else use those of the last read (in
 * r->cpu_recs). Return: 0 or -errno.
 */
int xl_redirect_steer_targets(struct xl_redirect *r, struct xl_steer_target *t, bool read_cpu);

/* The --stress-mode thread (@arg: the struct xl_redirect). */
void *xl_redirect_stress_main(void *arg);

#endif
