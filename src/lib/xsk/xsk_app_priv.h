/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/xsk/xsk_app.c (building and tearing down an
 * application) and xsk_app_run.c (its socket threads): what an AF_XDP
 * application and each of its sockets hold.
 */
#ifndef XDPLAB_XSK_APP_PRIV_H
#define XDPLAB_XSK_APP_PRIV_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "xdplab/workers.h"
#include "xsk_priv.h"
#include "xsk_dump.h"

struct xsk_sock {
	struct xl_xsk_q q;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xl_umem *umem;
	struct xl_xsk_app *app;
	uint64_t burst;       /* txpush: this socket's frames per burst */
	uint32_t bursts_left; /* txpush: bursts still to start after this one */
	uint32_t queue;
	int cpu;
	struct xl_worker wk; /* its thread: tid, kernel tid, done */
} __attribute__((aligned(64)));

struct xl_xsk_app {
	struct xl_xsk_config c;
	int ifindex;
	struct xl_xsk_prog prog;
	bool have_prog;
	struct xl_umem *umems;
	int numems;
	struct xsk_sock *socks;
	int nsocks;
	bool zerocopy;
	struct xl_workers workers; /* over socks[] */
	bool bind_failed; /* the last build failed at bind, not before */
	/* Not pinned (--cpu): the CPUs away from a pinned NAPI kthread, which
	 * every socket thread is restricted to (have_away), and that kthread. */
	cpu_set_t away, napi_cpus;
	bool have_away;
	int napi_pid;
	int stop;
	struct xl_xsk_dump *dump;
};

#endif /* XDPLAB_XSK_APP_PRIV_H */
