// SPDX-License-Identifier: BSD-2-Clause
/* The single-DUT commands' set-up and run, once (dut_cli.h). */
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dut_cli.h"
#include "sig.h"
#include "run_opts.h"
#include "report_cli.h"
#include "json_cli.h"
#include "prom_cli.h"
#include "xdplab/sysstat.h"

int xl_cmd_dut_enter(const struct xl_cmd_spec *spec, struct xl_cmd_dut *d, const char *ifname,
		     int (*check)(void *ctx), void *ctx)
{
	int ret = XL_EXIT_OK;

	xl_cmd_prof_open(&d->prof);
	if (d->netns && (ret = xl_cmd_enter_netns(spec, d->netns)))
		goto out_prof;
	ret = XL_EXIT_USAGE;
	if (ifname && !if_nametoindex(ifname)) {
		xl_usage_error(spec, "interface '%s': no such interface", ifname);
		goto out_prof;
	}
	if (check && check(ctx))
		goto out_prof;
	ret = XL_EXIT_RUNTIME;
	if ((d->json && !xl_cmd_out_open(d->json)) || (d->prom && xl_cmd_prom_check(d->prom)))
		goto out_prof;
	return XL_EXIT_OK;
out_prof:
	xl_cmd_prof_close(&d->prof);
	return ret;
}

bool xl_cmd_dut_meter(struct xl_cmd_dut *d, struct xl_meter *m, const char *ifname, int queues,
		      int sock, cpu_set_t *away)
{
	m->ifname = ifname;
	if (queues > 0)
		m->queues = queues;
	d->own_sock = sock < 0;
	m->eth_sock = sock >= 0 ? sock : socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	m->napi_pid = xl_napi_kthread_pid(ifname);
	return xl_keep_off_napi_of(m->napi_pid, ifname, away);
}

int xl_cmd_dut_loop(struct xl_cmd_dut *d, struct xl_cmd_loop *l, const char *name,
		    struct xl_meter_window *w, struct xl_profile *pr)
{
	bool profiling = pr && xl_cmd_prof_run_start(&d->prof, name, -1);
	int ret;

	l->interval_ns = d->interval_ns;
	l->duration_ns = d->duration_ns;
	l->reps = d->reps;
	l->quiet = d->quiet;
	l->extended = d->extended;
	l->poll_ns = XL_CMD_POLL_NS;
	l->wait = xl_cmd_wait;
	l->rec = d->json ? &d->rec : NULL;
	l->prom = d->prom;
	l->cmd = name;
	ret = xl_cmd_report_loop(l, w);
	if (profiling)
		xl_cmd_prof_run_stop(&d->prof, w->ns ? w->napi_cpu : -1, pr);
	return ret;
}

int xl_cmd_dut_finish(struct xl_cmd_dut *d, const char *command, const struct xl_cmd_loop *l,
		      struct xl_row_result *row, struct xl_profile *pr, struct xl_meter *m, int ret)
{
	ret = pr ? xl_cmd_profiled_finish(d->json, command, l, row, pr, ret) :
		   xl_cmd_json_finish(d->json, command, l, row, ret);
	if (d->own_sock && m->eth_sock >= 0)
		close(m->eth_sock);
	if (d->own_sock)
		m->eth_sock = -1;
	return ret;
}
