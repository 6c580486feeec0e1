// SPDX-License-Identifier: BSD-2-Clause
/*
 * The lab row of a user's own XDP program (lab run --prog FILE.o): loaded
 * and attached per repetition in the DUT's netns, counted by the DUT veth's
 * own XDP counters (no code of ours near the program), measured as the
 * built-in XDP rows are (xl_labrun_custom()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>

#include "xdplab/ethxdp.h"
#include "xdplab/labrun.h"
#include "xdplab/log.h"
#include "xdplab/userprog.h"

struct prog_arg {
	const struct xl_userprog_opts *uo;
	const char *ifname;
	enum xl_xdp_mode mode;
};

struct prog_dut {
	struct xl_userprog *u;
	int link_fd;
	struct xl_eth_xdp eth;
};

static void prog_destroy(void *h)
{
	struct prog_dut *d = h;

	if (!d)
		return;
	if (d->link_fd >= 0)
		close(d->link_fd);
	if (d->eth.sock >= 0)
		close(d->eth.sock);
	xl_userprog__destroy(d->u);
	free(d);
}

static int prog_read(void *h, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	return xl_eth_xdp_meter_read(&((struct prog_dut *)h)->eth, total, per_cpu);
}

/* In the DUT's netns: load, attach, open the counters. */
static void *prog_create(const void *arg)
{
	const struct prog_arg *pa = arg;
	struct prog_dut *d = calloc(1, sizeof(*d));
	int ifindex = if_nametoindex(pa->ifname), err;

	if (!d)
		return NULL;
	d->link_fd = -1;
	d->eth.queues = 16;
	snprintf(d->eth.ifname, sizeof(d->eth.ifname), "%s", pa->ifname);
	d->eth.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	d->u = xl_userprog__load(pa->uo);
	if (!d->u) {
		err = -errno;
		goto out;
	}
	err = d->eth.sock < 0 ? -errno : xl_eth_xdp_probe(&d->eth);
	if (err)
		goto out;
	err = xl_xdp_attach(xl_userprog__fd(d->u), ifindex, pa->ifname, pa->mode);
	if (err < 0)
		goto out;
	d->link_fd = err;
	return d;
out:
	prog_destroy(d);
	errno = -err;
	return NULL;
}

int xl_labrun_prog(struct xl_lab *lab, const struct xl_labrun_opts *o,
		   const struct xl_userprog_opts *uo, const char *func, enum xl_xdp_mode mode,
		   uint32_t size, struct xl_row_result *row)
{
	static char name[32];
	struct prog_arg pa = { uo, lab->ifname[XL_LAB_DUT], mode };
	struct xl_labrun_dut dut = { prog_create, prog_read, prog_destroy, &pa };

	snprintf(name, sizeof(name), "prog/%s", func);
	return xl_labrun_custom(lab, o, &dut, name, "user program", mode, size, row);
}
