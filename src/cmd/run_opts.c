// SPDX-License-Identifier: BSD-2-Clause
/*
 * The shared options of the commands that run and report, and the parse
 * helpers every command uses (run_opts.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run_opts.h"
#include "xdplab/escape.h"
#include "xdplab/log.h"
#include "xdplab/netns.h"
#include "xdplab/userprog.h"
#include "xdplab/attach.h"
#include "xdplab/pkt.h"
#include "xdplab/report.h"

static const char *const pkt_ops[] = { "no-touch", "read-data", "parse-ip", "swap-macs", NULL };
static const char *const xdp_modes[] = { "native", "skb", "drv", NULL };
static const int xdp_mode_vals[] = { XL_MODE_NATIVE, XL_MODE_SKB, XL_MODE_NATIVE };

/* The field of each entry is the command's (XL_LIKE()): .off and .size stay 0 here. */
const struct xl_opt xl_run_opt_table[XL_RUN_N] = {
	[XL_RUN_INTERVAL] = { "interval", 'i', "SECONDS", "report period, {range} (default 1)",
			      .type = XL_OT_SECONDS, .rmin = 0.1, .rmax = 60 },
	[XL_RUN_DURATION] = { "duration", 'd', "SECONDS", "stop after this long, 0 = no time limit (default 0)",
			      .type = XL_OT_SECONDS, .rmin = 0, .rmax = 86400 * 365 },
	[XL_RUN_EXTENDED] = { "extended", 'e', NULL, "also print a row per CPU", .type = XL_OT_FLAG },
	[XL_RUN_NETNS] = { "netns", 0, "NAME", "run in network namespace /run/netns/NAME",
			   .type = XL_OT_STR },
	/* -q, except where a peer gives -q to something else (xdp-bench's
	 * redirect-cpu -q qsize, xdpsock's -q queue): there .short_name = 'Q'. */
	[XL_RUN_QUIET] = { "quiet", 'q', NULL, "no per-interval lines, only the totals",
			   .type = XL_OT_FLAG },
	[XL_RUN_PACKET_OP] = { "packet-operation", 'p', "OP", "{choices} (default {default})",
			       .type = XL_OT_ENUM, .choices = pkt_ops },
	[XL_RUN_MODE] = { "mode", 'm', "MODE", "native or drv (XDP_DRV, default), or skb (XDP_SKB)",
			  .alias = "xdp-mode", .type = XL_OT_ENUM, .choices = xdp_modes,
			  .values = xdp_mode_vals },
	[XL_RUN_FRAGS] = { "frags", 0, NULL, "load the program multi-buffer (xdp.frags): needed in native mode for an MTU above one buffer (veth: ~3.5 KB)",
			   .type = XL_OT_FLAG },
	[XL_RUN_REPS] = { "reps", 0, "N", "N windows of --duration back to back, {range} (default 1): the summary's repetitions",
			  .type = XL_OT_UINT, .min = 1, .max = XL_MAX_REPS },
	[XL_RUN_JSON] = { "json", 'j', "FILE", "also write each interval and the summary as JSON (docs/results.md)",
			  .type = XL_OT_STR },
	[XL_RUN_PROMETHEUS] = { "prometheus", 0, "FILE", "write the counters to FILE each interval in Prometheus' text format, the file replaced whole (node_exporter's textfile collector: a *.prom file in its directory; docs/monitor.md)",
				.type = XL_OT_STR },
	[XL_RUN_PROFILE] = { "profile", 0, NULL, "also record the judged CPUs with perf: folded stacks, a flame graph, top symbols",
			     .type = XL_OT_FLAG },
	[XL_RUN_PROFILE_DIR] = { "profile-dir", 0, "DIR", "where --profile writes (default ./xdplab-profile; implies --profile)",
				 .type = XL_OT_STR },
	[XL_RUN_SEC] = { "sec", 0, "NAME", "the XDP program in this ELF section", .type = XL_OT_STR },
	[XL_RUN_FUNC] = { "func", 0, "NAME", "the XDP program with this function name",
			  .type = XL_OT_STR },
	/* A list: the command's handler gives it to xl_cmd_userprog_opt(). */
	[XL_RUN_MAP] = { "map", 0, "NAME=FILE", "fill map NAME from FILE (docs/own-program.md; repeatable)",
			 XL_OPT_MAP, true },
};

int xl_cmd_enter_netns(const struct xl_cmd_spec *spec, const char *name)
{
	char path[300];
	int err;

	if (strchr(name, '/') || !*name) {
		xl_usage_error(spec, "--netns: '%s' is not a namespace name (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	err = xl_netns_enter_path(path, NULL); /* for good: the whole run is there */
	if (err == -ENOENT || err == -EACCES) {
		xl_usage_error(spec, "--netns: no namespace '%s' (see 'ip netns')", name);
		return XL_EXIT_USAGE;
	}
	if (err) {
		xl_err("cannot enter namespace %s: %s", name, strerror(-err));
		return XL_EXIT_RUNTIME;
	}
	return XL_EXIT_OK;
}

int xl_cmd_userprog_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
			struct xl_userprog_opts *uo, const char **maps)
{
	if (id != XL_OPT_MAP)
		return 1;
	if (uo->nfills == XL_USERPROG_MAX_FILLS)
		return xl_usage_error(spec, "--map: at most %d maps", XL_USERPROG_MAX_FILLS);
	maps[uo->nfills++] = arg;
	return 0;
}

int xl_cmd_parse_none(const struct xl_cmd_spec *spec, int argc, char **argv,
		      xl_opt_handler handler, void *ctx)
{
	int idx = xl_opts_parse(spec, argc, argv, handler, ctx);

	if (idx == XL_OPTS_HELP || idx < 0)
		return idx == XL_OPTS_HELP ? XL_OPTS_HELP : -EINVAL;
	if (idx != argc)
		return xl_usage_error(spec, "unexpected argument '%s'", argv[idx]);
	return 0;
}

int xl_cmd_parse_iface(const struct xl_cmd_spec *spec, int argc, char **argv,
		       xl_opt_handler handler, void *ctx, const char **ifname)
{
	int idx = xl_opts_parse(spec, argc, argv, handler, ctx);

	if (idx == XL_OPTS_HELP || idx < 0)
		return idx == XL_OPTS_HELP ? XL_OPTS_HELP : -EINVAL;
	if (idx != argc - 1)
		return xl_usage_error(spec, idx >= argc ? "missing IFACE (see --help)" :
							  "one IFACE expected, got '%s' too", argv[argc - 1]);
	*ifname = argv[idx];
	return 0;
}

int xl_cmd_find_dash(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return i;
	return -1;
}

int xl_cmd_check_reps(const struct xl_cmd_spec *spec, int reps, uint64_t duration_ns)
{
	if (reps > 1 && !duration_ns) {
		xl_usage_error(spec, "--reps %d needs --duration SECONDS (each repetition is one window of --duration)",
			       reps);
		return -EINVAL;
	}
	return 0;
}

int xl_cmd_verbose_word(const char *w)
{
	size_t n;

	if (!strcmp(w, "--verbose"))
		return 1;
	if (w[0] != '-' || w[1] != 'v')
		return 0;
	n = strspn(w + 1, "v");
	return w[1 + n] ? 0 : (int)n;
}

int xl_cmd_subcommand(int argc, char **argv, const char *family, const char *what,
		      const char *const *subs, const char *usage, int *exit_status)
{
	int i, k = 0;

	/* "lab -v setup" is "lab setup -v": the subcommand's parser counts them. */
	while (1 + k < argc && xl_cmd_verbose_word(argv[1 + k]))
		k++;
	if (k && 1 + k < argc) {
		char *sub = argv[1 + k];

		memmove(&argv[2], &argv[1], (size_t)k * sizeof(*argv));
		argv[1] = sub;
	} else if (k) {
		argc = 1; /* only -v: as no subcommand */
	}

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		*exit_status = argc < 2 ? XL_EXIT_USAGE : XL_EXIT_OK;
		return -1;
	}
	for (i = 0; subs[i]; i++)
		if (!strcmp(subs[i], argv[1]))
			return i;
	fprintf(stderr, "xdplab %s: unknown %s '%s' (accepted: ", family, what, XL_ESC(argv[1]));
	for (i = 0; subs[i]; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", subs[i]);
	fprintf(stderr, ")\n");
	*exit_status = XL_EXIT_USAGE;
	return -1;
}
