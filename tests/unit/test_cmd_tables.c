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

/* A command family's subcommand: index, help, missing, unknown (exact text, exit status). */
static void test_subcommand(void **state)
{
	static const char *const subs[] = { "setup", "teardown", "run", NULL };
	char *a0[] = { "lab", NULL }, *a1[] = { "lab", "run", NULL }, *a2[] = { "lab", "--help", NULL },
	     *a3[] = { "lab", "bogus", NULL };
	struct capture c;
	char *out;
	int st = -7;

	(void)state;
	assert_int_equal(xl_cmd_subcommand(2, a1, "lab", "subcommand", subs, "U\n", &st), 2);
	assert_int_equal(st, -7); /* untouched */
	cap_start(&c, STDOUT_FILENO);
	assert_int_equal(xl_cmd_subcommand(2, a2, "lab", "subcommand", subs, "Usage: x\n", &st), -1);
	out = cap_end(&c);
	assert_string_equal(out, "Usage: x\n");
	assert_int_equal(st, XL_EXIT_OK);
	free(out);
	cap_start(&c, STDERR_FILENO);
	assert_int_equal(xl_cmd_subcommand(1, a0, "lab", "subcommand", subs, "Usage: x\n", &st), -1);
	out = cap_end(&c);
	assert_string_equal(out, "Usage: x\n");
	assert_int_equal(st, XL_EXIT_USAGE);
	free(out);
	cap_start(&c, STDERR_FILENO);
	assert_int_equal(xl_cmd_subcommand(2, a3, "lab", "subcommand", subs, "Usage: x\n", &st), -1);
	out = cap_end(&c);
	assert_string_equal(out, "xdplab lab: unknown subcommand 'bogus' (accepted: setup, teardown, run)\n");
	assert_int_equal(st, XL_EXIT_USAGE);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_table),
		cmocka_unit_test(test_subcommand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
