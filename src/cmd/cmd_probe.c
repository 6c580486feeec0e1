// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab probe: pre-flight facts about an interface and this kernel, each
 * with a verdict; the facts are the library's (xdplab/probe.h), this file
 * parses, finds the interface and picks the exit status.
 */
#include <net/if.h>
#include <stdio.h>

#include "cmd.h"
#include "run_opts.h"
#include "xdplab/netlink.h"
#include "xdplab/probe.h"

enum { O_NETNS };

static const struct xl_opt probe_opts[] = {
	{ "netns", 0, "NAME", "look at IFACE in network namespace /run/netns/NAME", O_NETNS },
};

static const struct xl_cmd_spec probe_spec = {
	"probe", "IFACE",
	"Print the pre-flight facts (native XDP, ndo_xdp_xmit, zero-copy, MTU, queues, memlock, BTF, kernel) with a verdict each.",
	probe_opts, 1,
};

static int on_opt(int id, const char *arg, void *ctx)
{
	*(const char **)ctx = arg;
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	const char *netns = NULL, *ifname;
	struct xl_link_info li;
	int idx, ifindex, err;

	idx = xl_opts_parse(&probe_spec, argc, argv, on_opt, &netns);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc - 1) {
		xl_usage_error(&probe_spec, "one IFACE expected (see --help)");
		return XL_EXIT_USAGE;
	}
	ifname = argv[idx];
	if (netns && (err = xl_cmd_enter_netns(&probe_spec, netns)))
		return err;
	ifindex = if_nametoindex(ifname);
	if (!ifindex || xl_link_get(ifindex, -1, &li)) {
		xl_usage_error(&probe_spec, "interface '%s': no such interface", ifname);
		return XL_EXIT_USAGE;
	}
	return xl_probe_print(stdout, ifname, ifindex, &li) ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}
