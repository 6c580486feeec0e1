// SPDX-License-Identifier: BSD-2-Clause
/* xdplab: the command table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "xdplab/log.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "lab", cmd_lab, "veth lab: setup, teardown, run (the lab table)" },
	{ "gen", cmd_gen, "traffic generator (live frames or AF_PACKET, pcap replay)" },
	{ "drop", cmd_bench, "XDP_DROP benchmark with a packet operation" },
	{ "pass", cmd_bench, "XDP_PASS benchmark with a packet operation" },
	{ "tx", cmd_bench, "XDP_TX benchmark with a packet operation" },
	{ "redirect", cmd_redirect, "XDP_REDIRECT IN -> OUT through a devmap" },
	{ "redirect-cpu", cmd_redirect, "XDP_REDIRECT into a cpumap, program on the target CPU" },
	{ "redirect-multi", cmd_redirect, "XDP_REDIRECT broadcast IN -> OUT... (devmap_hash)" },
	{ "monitor", cmd_monitor, "count xdp tracepoint events: errors (default) or all" },
	{ "xsk", cmd_xsk, "AF_XDP applications: rxdrop, txpush, l2fwd" },
	{ "probe", cmd_probe, "pre-flight facts about an interface and this kernel" },
	{ "cleanup", cmd_cleanup, "remove xdplab programs from an interface, and stale labs" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: xdplab [-v|-vv] COMMAND [options] [ARGS]\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-14s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'xdplab COMMAND --help' for a command's options.\n"
		   "Exit status: 0 success, 1 runtime failure, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	int level = XL_LOG_WARN;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	argc--;
	argv++;
	while (argc && (!strcmp(argv[0], "-v") || !strcmp(argv[0], "-vv"))) {
		level += argv[0][2] ? 2 : 1;
		argc--;
		argv++;
	}
	xl_log_set_level(level > XL_LOG_DEBUG ? XL_LOG_DEBUG : level);
	if (!argc) {
		usage(stderr);
		return XL_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h") ||
	    !strcmp(argv[0], "help")) {
		usage(stdout);
		return XL_EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[0], commands[i].name)) {
			xl_sig_install();
			return commands[i].fn(argc, argv);
		}
	fprintf(stderr, "xdplab: unknown command '%s' (accepted: lab, gen, drop, pass, tx, redirect, redirect-cpu, redirect-multi, monitor, xsk, probe, cleanup)\n",
		argv[0]);
	return XL_EXIT_USAGE;
}
