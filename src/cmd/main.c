// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab: main(): the global options (-v/--verbose, --version), then the
 * command from the table in commands.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sig.h"
#include "json_cli.h"
#include "run_opts.h"
#include "xdplab/log.h"

/* `xdplab help`: a line per command. */
static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: xdplab [-v|--verbose]... COMMAND [options] [ARGS]\n\nCommands:\n");
	for (i = 0; i < xl_n_commands; i++)
		fprintf(f, "  %-14s %s\n", xl_commands[i].name, xl_commands[i].summary);
	fprintf(f, "\n'xdplab COMMAND --help' for a command's options; 'xdplab --version' the commit\n"
		   "it was built from (git describe).\n"
		   "Exit status: 0 success, 1 runtime failure, 2 usage error.\n");
}

/*
 * No command: a short usage on stderr, as git does: the synopsis, the
 * command names wrapped, and where the long help is.
 */
static void short_usage(void)
{
	size_t i, col;

	fprintf(stderr, "usage: xdplab [-v|--verbose]... COMMAND [options] [ARGS]\ncommands:");
	col = strlen("commands:");
	for (i = 0; i < xl_n_commands; i++) {
		size_t w = strlen(xl_commands[i].name) + 1 + (i + 1 < xl_n_commands);

		if (col + w > 78) {
			fprintf(stderr, "\n ");
			col = 1;
		}
		fprintf(stderr, " %s%s", xl_commands[i].name, i + 1 < xl_n_commands ? "," : "");
		col += w;
	}
	fprintf(stderr, "\n'xdplab help' says what each does; 'xdplab COMMAND --help' gives its options.\n");
}

int main(int argc, char **argv)
{
	int level = XL_LOG_WARN;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	argc--;
	argv++;
	while (argc && xl_cmd_verbose_word(argv[0])) {
		level += xl_cmd_verbose_word(argv[0]);
		argc--;
		argv++;
	}
	xl_log_set_level(level > XL_LOG_DEBUG ? XL_LOG_DEBUG : level);
	if (argc && !strcmp(argv[0], "--version")) {
		if (argc > 1) {
			fprintf(stderr, "xdplab: --version takes nothing after it (got '%s')\n",
				XL_ESC(argv[1]));
			return XL_EXIT_USAGE;
		}
		printf("xdplab %s\n", xl_cmd_version());
		return XL_EXIT_OK;
	}
	if (!argc) {
		short_usage();
		return XL_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h") ||
	    !strcmp(argv[0], "help")) {
		usage(stdout);
		return XL_EXIT_OK;
	}
	for (i = 0; i < xl_n_commands; i++)
		if (!strcmp(argv[0], xl_commands[i].name)) {
			int ret;

			xl_sig_install();
			ret = xl_commands[i].fn(argc, argv);
			xl_cmd_outs_abort(); /* the temporaries of outputs not written */
			return ret;
		}
	fprintf(stderr, "xdplab: unknown command '%s' (accepted:", XL_ESC(argv[0]));
	for (i = 0; i < xl_n_commands; i++)
		fprintf(stderr, "%s %s", i ? "," : "", xl_commands[i].name);
	fprintf(stderr, ")\n");
	return XL_EXIT_USAGE;
}
