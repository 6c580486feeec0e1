// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab lab setup and lab teardown (moved from cmd_lab.c): a lab that
 * stays until it is torn down, its tag and names printed; removing one by
 * tag, or every lab with --all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "run_opts.h"
#include "lab_cli.h"
#include "xdplab/lab.h"
#include "xdplab/log.h"

enum { O_QUEUES, O_ALL, O_OUT_PAIRS };

static const struct xl_opt setup_opts[] = {
	{ "queues", 'q', "N", "RX/TX queues per veth end, 1..64 (default 1)", O_QUEUES },
	{ "out-pairs", 0, "N", "extra veth pairs to redirect to, 0..4 (default 0)", O_OUT_PAIRS },
};
static const struct xl_cmd_spec setup_spec = {
	"lab setup", "", "Create a lab that stays until 'xdplab lab teardown TAG' and print its names.",
	setup_opts, 2,
};
static const struct xl_opt teardown_opts[] = {
	{ "all", 'a', NULL, "remove every xdplab lab", O_ALL },
};
static const struct xl_cmd_spec teardown_spec = {
	"lab teardown", "TAG|--all", "Remove a lab made by 'xdplab lab setup' (its namespaces and veths).",
	teardown_opts, 1,
};

static int on_setup_opt(int id, const char *arg, void *ctx)
{
	struct xl_lab_opts *lo = ctx;

	if (id == O_OUT_PAIRS) {
		return XL_PARSE_INTO(&setup_spec, "--out-pairs", arg, 0,
				     XL_LAB_MAX_OUT, lo->out_pairs);
	}
	return XL_PARSE_INTO(&setup_spec, "--queues", arg, 1, 64, lo->queues);
}

int xl_cmd_lab_setup(int argc, char **argv)
{
	struct xl_lab_opts lo = { .queues = 1, .manual = true };
	struct xl_lab lab;
	int idx;

	idx = xl_cmd_parse_none(&setup_spec, argc, argv, on_setup_opt, &lo);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (xl_lab__create(&lab, &lo))
		return XL_EXIT_RUNTIME;
	xl_lab__print(stdout, &lab);
	xl_lab__release(&lab);
	return XL_EXIT_OK;
}

static int on_teardown_opt(int id, const char *arg, void *ctx)
{
	*(bool *)ctx = true;
	return 0;
}

int xl_cmd_lab_teardown(int argc, char **argv)
{
	char tags[512];
	bool all = false;
	int idx;

	idx = xl_opts_parse(&teardown_spec, argc, argv, on_teardown_opt, &all);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (all) {
		printf("removed %d lab namespace(s)\n", xl_lab_remove_all());
		return XL_EXIT_OK;
	}
	if (idx != argc - 1) {
		xl_usage_error(&teardown_spec, "one TAG expected (as printed by 'xdplab lab setup'), or --all");
		return XL_EXIT_USAGE;
	}
	if (xl_lab_remove(argv[idx]) < 0) {
		xl_usage_error(&teardown_spec, "no lab '%s' (labs here: %s)", argv[idx],
			       xl_lab_tags(tags, sizeof(tags)));
		return XL_EXIT_USAGE;
	}
	printf("removed lab %s\n", argv[idx]);
	return XL_EXIT_OK;
}
