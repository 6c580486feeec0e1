// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_cmd_tables.c - every command's real option table, through the real
 * entry points of the command table (src/cmd/commands.c): `CMD --help`
 * (and `CMD SUB --help` for lab and xsk) must print the command's help and
 * exit 0. xl_opts_parse() checks the table first (xl_opts_check()), so a
 * letter or a name given twice in any table fails here (issue 11 item 8:
 * redirect-cpu had -q as both --quiet and --qsize).
 *
 * Run from the repository root; no root privileges needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "run_opts.h"
#include "test_util.h"

/* Commands that take a subcommand before their options, and its names. */
static const struct {
	const char *cmd;
	const char *subs[4];
} subcommands[] = {
	{ "lab", { "setup", "teardown", "run" } },
	{ "xsk", { "rxdrop", "txpush", "l2fwd" } },
};

/* Run @fn with argv {@a, [@b,] "--help"}; its help must start with "Usage: xdplab @want". */
static void help_ok(int (*fn)(int, char **), const char *a, const char *b, const char *want)
{
	char *argv[4] = { (char *)a, (char *)(b ? b : "--help"), b ? "--help" : NULL, NULL };
	struct capture co, ce;
	char *out, *err, usage[64];
	int ret;

	cap_start(&co, STDOUT_FILENO);
	cap_start(&ce, STDERR_FILENO);
	ret = fn(b ? 3 : 2, argv);
	err = cap_end(&ce);
	out = cap_end(&co);
	if (ret != XL_EXIT_OK || *err)
		print_error("xdplab %s%s%s --help: exit %d, stderr '%s'\n", a, b ? " " : "",
			    b ? b : "", ret, err);
	assert_int_equal(ret, XL_EXIT_OK);
	assert_string_equal(err, "");
	snprintf(usage, sizeof(usage), "Usage: xdplab %s", want);
	assert_memory_equal(out, usage, strlen(usage));
	free(out);
	free(err);
}

static void test_every_table(void **state)
{
	size_t i, j, k, checked = 0;
	char name[64];

	for (i = 0; i < xl_n_commands; i++) {
		for (j = 0; j < sizeof(subcommands) / sizeof(subcommands[0]); j++)
			if (!strcmp(subcommands[j].cmd, xl_commands[i].name))
				break;
		if (j == sizeof(subcommands) / sizeof(subcommands[0])) {
			help_ok(xl_commands[i].fn, xl_commands[i].name, NULL, xl_commands[i].name);
			checked++;
			continue;
		}
		for (k = 0; subcommands[j].subs[k]; k++) {
			snprintf(name, sizeof(name), "%s %s ", xl_commands[i].name,
				 subcommands[j].subs[k]);
			help_ok(xl_commands[i].fn, xl_commands[i].name, subcommands[j].subs[k], name);
			checked++;
		}
	}
	/* 10 commands with one table each, lab and xsk with three. */
	assert_true(checked >= xl_n_commands + 4);
}

/* xl_cmd_subcommand() on @argv, what it wrote to @fd, into *@idx and *@st. */
static char *subcommand_text(int argc, char **argv, int fd, int *idx, int *st)
{
	static const char *const subs[] = { "setup", "teardown", "run", NULL };
	struct capture c;

	cap_start(&c, fd);
	*idx = xl_cmd_subcommand(argc, argv, "lab", "subcommand", subs, "Usage: x\n", st);
	return cap_end(&c);
}

/* A command family's subcommand: index, help, missing, unknown (exact text, exit status). */
static void test_subcommand(void **state)
{
	char *a0[] = { "lab", NULL }, *a1[] = { "lab", "run", NULL }, *a2[] = { "lab", "--help", NULL },
	     *a3[] = { "lab", "bogus", NULL };
	const struct {
		int argc;
		char **argv;
		int fd, idx, st;
		const char *out;
	} cases[] = {
		{ 2, a1, STDERR_FILENO, 2, -7, "" },
		{ 2, a2, STDOUT_FILENO, -1, XL_EXIT_OK, "Usage: x\n" },
		{ 1, a0, STDERR_FILENO, -1, XL_EXIT_USAGE, "Usage: x\n" },
		{ 2, a3, STDERR_FILENO, -1, XL_EXIT_USAGE,
		  "xdplab lab: unknown subcommand 'bogus' (accepted: setup, teardown, run)\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int idx, st = -7; /* -7: untouched */
		char *out = subcommand_text(cases[i].argc, cases[i].argv, cases[i].fd, &idx, &st);

		assert_string_equal(out, cases[i].out);
		assert_int_equal(idx, cases[i].idx);
		assert_int_equal(st, cases[i].st);
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_table),
		cmocka_unit_test(test_subcommand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
