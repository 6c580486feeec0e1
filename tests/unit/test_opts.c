// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_opts.c - unit tests of the option tables (src/lib/core/opts.c, opts_help.c, opts_value.c,
 * through src/cmd/opts.h's stdout/stderr binding, and once with FILE *s of its own): exact
 * long-option matching, duplicates, unknown options, missing values, --help,
 * the index of the first positional argument (also with GNU permutation),
 * repeated calls (getopt's global state), and the value parsers
 * xl_parse_u64(), xl_parse_seconds() and xl_parse_choice() with their exact
 * one-line messages on stderr.
 *
 * Run from the repository root; no root privileges needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <unistd.h>

#include "ndr_cli.h"
#include "opts.h"
#include "test_util.h"

enum { ID_COUNT = 11, ID_VERBOSE = 12, ID_SIZE = 13, ID_FORCE = 14 };

static const struct xl_opt gen_opts[] = {
	{ "count", 'c', "N", "frames to send (default: unlimited)", ID_COUNT, false },
	{ "louder", 'l', NULL, "more of it; repeat for more", ID_VERBOSE, true },
	{ "size", 0, "BYTES", "frame size, 60..9216 (default 60)", ID_SIZE, false },
	{ "force", 'f', NULL, "replace an attached program", ID_FORCE, false },
};

static const struct xl_cmd_spec gen_spec = {
	.name = "gen",
	.args = "IFACE",
	.summary = "Send frames.",
	.opts = gen_opts,
	.n_opts = sizeof(gen_opts) / sizeof(gen_opts[0]),
};

/* ---- a handler that records what it was given ---- */

#define MAX_CALLS 16

struct rec {
	int n;
	int ids[MAX_CALLS];
	bool has_arg[MAX_CALLS];
	char args[MAX_CALLS][32];
	int fail_id; /* return -EINVAL for this id (0: never) */
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct rec *r = ctx;

	assert_true(r->n < MAX_CALLS);
	r->ids[r->n] = id;
	r->has_arg[r->n] = arg != NULL;
	snprintf(r->args[r->n], sizeof(r->args[0]), "%s", arg ? arg : "");
	r->n++;
	return id == r->fail_id ? -EINVAL : 0;
}

/* Parse @argv (NULL-terminated) with stdout and stderr captured. */
struct result {
	int ret;
	char *out, *err;
	struct rec rec;
};

static void parse_argv(char **argv, struct result *res, int fail_id)
{
	struct capture co, ce;
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(res, 0, sizeof(*res));
	res->rec.fail_id = fail_id;
	cap_start(&co, STDOUT_FILENO);
	cap_start(&ce, STDERR_FILENO);
	res->ret = xl_opts_parse(&gen_spec, argc, argv, on_opt, &res->rec);
	res->err = cap_end(&ce);
	res->out = cap_end(&co);
}

static void result_free(struct result *res)
{
	free(res->out);
	free(res->err);
}

/* argv arrays must be writable: getopt_long permutes them. */
#define ARGV(...) ((char *[]){ "gen", __VA_ARGS__, NULL })

/* ---- xl_opts_parse ---- */

/*
 * Before each parser test: a full reset of glibc's getopt (optind = 0), so
 * that a test stopped inside a bundle cannot leak into the next one (see
 * test_parse_state_after_bundle for why xl_opts_parse() alone does not).
 */
static int reset_getopt(void **state)
{
	char *argv[] = { "reset", NULL };

	optind = 0;
	return getopt(1, argv, "") == -1 ? 0 : -1;
}

static void test_parse_long_short_and_values(void **state)
{
	char **argv = ARGV("--count", "5", "-l", "--size=60", "-f", "eth0");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 6);
	assert_string_equal(argv[r.ret], "eth0");
	assert_int_equal(r.rec.n, 4);
	assert_int_equal(r.rec.ids[0], ID_COUNT);
	assert_string_equal(r.rec.args[0], "5");
	assert_int_equal(r.rec.ids[1], ID_VERBOSE);
	assert_false(r.rec.has_arg[1]); /* a flag gets NULL */
	assert_int_equal(r.rec.ids[2], ID_SIZE);
	assert_string_equal(r.rec.args[2], "60");
	assert_int_equal(r.rec.ids[3], ID_FORCE);
	assert_false(r.rec.has_arg[3]);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out, "");
	result_free(&r);
}

static void test_parse_short_forms(void **state)
{
	char **argv = ARGV("-c7", "-lf", "eth0");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 3);
	assert_string_equal(argv[3], "eth0");
	assert_int_equal(r.rec.n, 3);
	assert_int_equal(r.rec.ids[0], ID_COUNT);
	assert_string_equal(r.rec.args[0], "7");
	assert_int_equal(r.rec.ids[1], ID_VERBOSE);
	assert_int_equal(r.rec.ids[2], ID_FORCE);
	result_free(&r);

	/* "-c" followed by a separate word takes it as the value. */
	argv = ARGV("-c", "9", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 3);
	assert_int_equal(r.rec.n, 1);
	assert_string_equal(r.rec.args[0], "9");
	result_free(&r);
}

static void test_parse_no_positional(void **state)
{
	char **argv = ARGV("--count", "5");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 3); /* == argc: no positional argument */
	assert_int_equal(r.rec.n, 1);
	result_free(&r);

	argv = (char *[]){ "gen", NULL };
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 1);
	assert_int_equal(r.rec.n, 0);
	result_free(&r);
}

static void test_parse_empty_value(void **state)
{
	char **argv = ARGV("--count=", "eth0");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 2);
	assert_int_equal(r.rec.n, 1);
	assert_true(r.rec.has_arg[0]);
	assert_string_equal(r.rec.args[0], "");
	result_free(&r);
}

static void test_parse_abbreviation_rejected(void **state)
{
	char **argv = ARGV("--cou", "5", "eth0");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	assert_string_equal(r.err,
			    "xdplab gen: unknown option '--cou' (did you mean --count?)\n");
	result_free(&r);

	argv = ARGV("--cou=5", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	assert_string_equal(r.err,
			    "xdplab gen: unknown option '--cou=5' (did you mean --count?)\n");
	result_free(&r);

	/* A flag abbreviated: --loud for --louder. */
	argv = ARGV("--loud", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	result_free(&r);

	/* An abbreviation after another option (still before the positional). */
	argv = ARGV("-l", "--si", "60", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err,
			    "xdplab gen: unknown option '--si' (did you mean --size?)\n");
	result_free(&r);

	/* Longer than the name is no match either. */
	argv = ARGV("--counts", "5", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	result_free(&r);
}

static void test_parse_abbreviation_after_positional(void **state)
{
	char **argv = ARGV("eth0", "--cou", "5");
	struct result r;

	parse_argv(argv, &r, 0);
	/* Regression test for a bug found by review (fixed). */
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	result_free(&r);

	/* The same abbreviation before the positional is rejected. */
	argv = ARGV("--cou", "5", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	result_free(&r);
}

static void test_parse_given_twice(void **state)
{
	char **argv = ARGV("--count", "1", "--count", "2", "eth0");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 1); /* the first one was handled */
	assert_string_equal(r.err, "xdplab gen: option --count given twice\n");
	result_free(&r);

	/* Short and long spelling of the same option. */
	argv = ARGV("-c", "1", "--count=2", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err, "xdplab gen: option --count given twice\n");
	result_free(&r);

	/* A flag twice, bundled. */
	argv = ARGV("-ff", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err, "xdplab gen: option --force given twice\n");
	result_free(&r);

	/* A long-only option twice. */
	argv = ARGV("--size", "60", "eth0", "--size", "64");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err, "xdplab gen: option --size given twice\n");
	result_free(&r);
}

static void test_parse_repeatable(void **state)
{
	char **argv = ARGV("-ll", "--louder", "eth0", "-l");
	struct result r;
	int i;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 4);
	assert_string_equal(argv[4], "eth0");
	assert_int_equal(r.rec.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(r.rec.ids[i], ID_VERBOSE);
	assert_string_equal(r.err, "");
	result_free(&r);
}

static void test_parse_unknown(void **state)
{
	char **argv = ARGV("--bogus", "eth0");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	assert_string_equal(r.err,
			    "xdplab gen: unknown option '--bogus' (see 'xdplab gen --help')\n");
	result_free(&r);

	argv = ARGV("-x", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err,
			    "xdplab gen: unknown option '-x' (see 'xdplab gen --help')\n");
	result_free(&r);

	/* After the positional argument. */
	argv = ARGV("eth0", "--bogus");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err,
			    "xdplab gen: unknown option '--bogus' (see 'xdplab gen --help')\n");
	result_free(&r);

	/* A value given to a flag. */
	argv = ARGV("--force=yes", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	/* Issue 11 item 9: the option as written, not its id as a character. */
	assert_string_equal(r.err, "xdplab gen: option '--force=yes': --force takes no value\n");
	result_free(&r);
	argv = ARGV("eth0", "--louder=");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err, "xdplab gen: option '--louder=': --louder takes no value\n");
	result_free(&r);

	/* Unknown letter at the start of a bundle: rejected ... */
	argv = ARGV("-xv", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	/* Regression test for a bug found by review (fixed). */
	assert_non_null(strstr(r.err, "'-x'"));
	result_free(&r);
	/* Leave getopt's state clean for the next test (see test_parse_state_*). */
	argv = ARGV("eth0");
	parse_argv(argv, &r, 0);
	result_free(&r);
}

static void test_parse_missing_value(void **state)
{
	char **argv = ARGV("eth0", "--count");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 0);
	assert_string_equal(r.err, "xdplab gen: option '--count' needs a value\n");
	result_free(&r);

	argv = ARGV("eth0", "-c");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err, "xdplab gen: option '-c' needs a value\n");
	result_free(&r);

	argv = ARGV("--size");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.err, "xdplab gen: option '--size' needs a value\n");
	result_free(&r);
}

static void test_parse_help(void **state)
{
	char **argv = ARGV("--help");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, XL_OPTS_HELP);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "Usage: xdplab gen [options] IFACE\nSend frames.\n"));
	assert_non_null(strstr(r.out, "\n  -c, --count N                frames to send"));
	assert_non_null(strstr(r.out, "\n      --size BYTES             frame size"));
	assert_non_null(strstr(r.out, "\n  -h, --help                   show this help\n"));
	result_free(&r);

	/* -h stops parsing: later options are not handled, even bad ones. */
	argv = ARGV("-h", "--count", "1", "--bogus");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, XL_OPTS_HELP);
	assert_int_equal(r.rec.n, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "Usage: xdplab gen"));
	result_free(&r);

	/* After a positional argument too. */
	argv = ARGV("eth0", "--help");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, XL_OPTS_HELP);
	result_free(&r);

	/* An error before --help wins. */
	argv = ARGV("--bogus", "--help");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	assert_string_equal(r.out, "");
	result_free(&r);
}

static void test_parse_handler_error(void **state)
{
	char **argv = ARGV("-l", "--size", "59", "--count", "1", "eth0");
	struct result r;

	parse_argv(argv, &r, ID_SIZE);
	assert_int_equal(r.ret, -EINVAL);
	assert_int_equal(r.rec.n, 2); /* stopped at --size: --count never seen */
	assert_int_equal(r.rec.ids[1], ID_SIZE);
	result_free(&r);
}

static void test_parse_permutation(void **state)
{
	char **argv = ARGV("eth0", "--count", "5");
	struct result r;

	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 3);
	assert_string_equal(argv[3], "eth0");
	assert_int_equal(r.rec.n, 1);
	assert_int_equal(r.rec.ids[0], ID_COUNT);
	assert_string_equal(r.rec.args[0], "5");
	result_free(&r);

	/* Options on both sides of two positionals, which keep their order. */
	argv = ARGV("eth0", "-l", "eth1", "--size", "60", "-c3");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 5);
	assert_string_equal(argv[5], "eth0");
	assert_string_equal(argv[6], "eth1");
	assert_int_equal(r.rec.n, 3);
	assert_int_equal(r.rec.ids[0], ID_VERBOSE);
	assert_int_equal(r.rec.ids[1], ID_SIZE);
	assert_string_equal(r.rec.args[1], "60");
	assert_int_equal(r.rec.ids[2], ID_COUNT);
	assert_string_equal(r.rec.args[2], "3");
	result_free(&r);

	/* "--" ends the options: what follows is positional. */
	argv = ARGV("-l", "--", "--count", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 3);
	assert_string_equal(argv[3], "--count");
	assert_int_equal(r.rec.n, 1);
	result_free(&r);
}

/* optind is global: every call must start from argv[1] again. */
static void test_parse_state_repeated_calls(void **state)
{
	struct result r;
	char **argv;
	int i;

	for (i = 0; i < 3; i++) {
		argv = ARGV("eth0", "-l", "--count", "2", "eth1");
		parse_argv(argv, &r, 0);
		assert_int_equal(r.ret, 4);
		assert_string_equal(argv[4], "eth0");
		assert_int_equal(r.rec.n, 2);
		result_free(&r);

		/* A shorter argv after a longer one. */
		argv = ARGV("-f");
		parse_argv(argv, &r, 0);
		assert_int_equal(r.ret, 2);
		assert_int_equal(r.rec.n, 1);
		assert_int_equal(r.rec.ids[0], ID_FORCE);
		result_free(&r);

		/* "Given twice" is counted per call, not across calls. */
		argv = ARGV("--count", "1", "eth0");
		parse_argv(argv, &r, 0);
		assert_int_equal(r.ret, 3);
		result_free(&r);
	}

	/* After an error in the middle, the next call is unaffected. */
	argv = ARGV("--count", "1", "--count", "2", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, -EINVAL);
	result_free(&r);
	argv = ARGV("--count", "3", "eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 3);
	assert_int_equal(r.rec.n, 1);
	assert_string_equal(r.rec.args[0], "3");
	result_free(&r);
}

static void test_parse_state_after_bundle(void **state)
{
	struct result r;
	char **argv;

	/* A call that stops inside a bundle ("-l" of "-hl" is never read) ... */
	argv = ARGV("-hl");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, XL_OPTS_HELP);
	result_free(&r);
	/* ... then a fresh argv. */
	argv = ARGV("eth0");
	parse_argv(argv, &r, 0);
	/* Regression test for a bug found by review (fixed). */
	assert_int_equal(r.ret, 1);
	assert_int_equal(r.rec.n, 0);
	result_free(&r);
	/* The bundle is used up now, so a third call is clean. */
	argv = ARGV("eth0");
	parse_argv(argv, &r, 0);
	assert_int_equal(r.ret, 1);
	assert_int_equal(r.rec.n, 0);
	result_free(&r);
}

static void test_parse_too_many_options(void **state)
{
	static struct xl_opt many[65];
	static char names[65][8];
	struct xl_cmd_spec spec = { "many", "", "Too many options.", many, 65 };
	char *argv[] = { "many", NULL };
	struct rec rec = { 0 };
	int i;

	for (i = 0; i < 65; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		many[i] = (struct xl_opt){ names[i], 0, NULL, "x", i, false };
	}
	assert_int_equal(xl_opts_parse(&spec, 1, argv, on_opt, &rec), -E2BIG);
	spec.n_opts = 64; /* the most accepted */
	assert_int_equal(xl_opts_parse(&spec, 1, argv, on_opt, &rec), 1);
	assert_int_equal(rec.n, 0);
}

/* Issue 11 item 8: a table with a letter or a name twice fails on every call. */
static void check_bad_table(const struct xl_opt *opts, size_t n, const char *want)
{
	struct xl_cmd_spec spec = { "bad", "", "A bad table.", opts, n };
	char *argv[] = { "bad", NULL };
	struct rec rec = { 0 };
	struct capture ce;
	char *err;

	cap_start(&ce, STDERR_FILENO);
	assert_int_equal(xl_opts_check(&spec), -EINVAL);
	assert_int_equal(xl_opts_parse(&spec, 1, argv, on_opt, &rec), -EINVAL);
	err = cap_end(&ce);
	assert_int_equal(rec.n, 0);
	/* The same line twice: once from the check, once from the parse. */
	assert_int_equal(strlen(err), 2 * strlen(want));
	assert_memory_equal(err, want, strlen(want));
	assert_string_equal(err + strlen(want), want);
	free(err);
}

static void test_check_duplicates(void **state)
{
	static const struct xl_opt dup_letter[] = {
		{ "quiet", 'q', NULL, "x", 1, false },
		{ "cpu", 'c', "CPU", "x", 2, false },
		{ "qsize", 'q', "N", "x", 3, false },
	};
	static const struct xl_opt dup_name[] = {
		{ "count", 'c', "N", "x", 1, false },
		{ "count", 'n', "N", "x", 2, false },
	};
	static const struct xl_opt takes_help[] = { { "size", 'h', "N", "x", 1, false } };
	static const struct xl_opt named_help[] = { { "help", 0, NULL, "x", 1, false } };
	static const struct xl_opt empty_name[] = { { "", 'e', NULL, "x", 1, false } };
	static const struct xl_opt bad_letter[] = { { "colon", ':', NULL, "x", 1, false } };

	check_bad_table(dup_letter, 3, "xdplab bad: internal error: -q is both --quiet and --qsize\n");
	check_bad_table(dup_name, 2, "xdplab bad: internal error: option --count is in the table twice\n");
	check_bad_table(takes_help, 1,
			"xdplab bad: internal error: option 0 ('--size', '-h') is not a usable name\n");
	check_bad_table(named_help, 1,
			"xdplab bad: internal error: option 0 ('--help') is not a usable name\n");
	check_bad_table(empty_name, 1,
			"xdplab bad: internal error: option 0 ('--', '-e') is not a usable name\n");
	check_bad_table(bad_letter, 1,
			"xdplab bad: internal error: option 0 ('--colon', '-:') is not a usable name\n");
	assert_int_equal(xl_opts_check(&gen_spec), 0);
}

/* ---- xl_usage_error ---- */

static void test_usage_error(void **state)
{
	struct capture ce;
	char *err;
	int r;

	cap_start(&ce, STDERR_FILENO);
	r = xl_usage_error(&gen_spec, "%s: %d things", "--size", 3);
	err = cap_end(&ce);
	assert_int_equal(r, -EINVAL);
	assert_string_equal(err, "xdplab gen: --size: 3 things\n");
	free(err);
}

/* An option's value with ESC and a newline: escaped, still one line. */
static void test_usage_error_escapes(void **state)
{
	struct capture ce;
	char *err;

	cap_start(&ce, STDERR_FILENO);
	xl_usage_error(&gen_spec, "--sec '%s': no such section", "x\x1b[2J\nxdplab gen: ok\r");
	err = cap_end(&ce);
	assert_string_equal(err, "xdplab gen: --sec 'x\\x1b[2J\\x0axdplab gen: ok\\x0d': no such section\n");
	free(err);
}

/* ---- xl_parse_u64 ---- */

#define SENTINEL 0xdeadbeefULL

/* Parse @arg into [min, max]; return the result, *out and the message. */
static int u64(const char *arg, uint64_t min, uint64_t max, uint64_t *out, char **msg)
{
	struct capture ce;
	int r;

	*out = SENTINEL;
	cap_start(&ce, STDERR_FILENO);
	r = xl_parse_u64(&gen_spec, "--size", arg, min, max, out);
	*msg = cap_end(&ce);
	return r;
}

static void u64_ok(const char *arg, uint64_t min, uint64_t max, uint64_t want)
{
	uint64_t v;
	char *msg, *msg2;

	if (u64(arg, min, max, &v, &msg) || v != want)
		print_error("xl_parse_u64('%s', %ju..%ju) failed: %s\n", arg, (uintmax_t)min,
			    (uintmax_t)max, msg);
	assert_int_equal(u64(arg, min, max, &v, &msg2), 0);
	free(msg2);
	assert_int_equal(v, want);
	assert_string_equal(msg, "");
	free(msg);
}

static void u64_bad(const char *arg, uint64_t min, uint64_t max, const char *what)
{
	uint64_t v;
	char *msg;

	if (u64(arg, min, max, &v, &msg) != -EINVAL || !strstr(msg, what))
		print_error("xl_parse_u64('%s'): want '%s', got '%s'\n", arg, what, msg);
	free(msg);
	assert_int_equal(u64(arg, min, max, &v, &msg), -EINVAL);
	assert_int_equal(v, SENTINEL); /* *out untouched on error */
	assert_non_null(strstr(msg, what));
	assert_true(strncmp(msg, "xdplab gen: --size: '", 21) == 0);
	free(msg);
}

static void test_u64_valid_and_bounds(void **state)
{
	u64_ok("60", 60, 9216, 60);   /* min inclusive */
	u64_ok("9216", 60, 9216, 9216); /* max inclusive */
	u64_ok("1514", 60, 9216, 1514);
	u64_ok("0", 0, 10, 0);
	u64_ok("007", 0, 10, 7); /* leading zeros are decimal, not octal */
	u64_ok("010", 0, 100, 10);
	u64_ok("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
	u64_ok("4294967296", 0, UINT64_MAX, 4294967296ULL);
	u64_bad("59", 60, 9216, "is out of range");
	u64_bad("9217", 60, 9216, "is out of range");
	u64_bad("0", 1, 65535, "is out of range");
}

static void test_u64_rejects(void **state)
{
	const char *const nan[] = { "-1", "abc", "", "12x", " 5", "+5", "5 ", "0x10",
				    "1.5", "1e3", "-0", NULL };
	uint64_t v;
	char *msg;
	int i;

	for (i = 0; nan[i]; i++)
		u64_bad(nan[i], 0, UINT64_MAX, "is not a whole number");
	/* Overflow of uint64_t is "out of range", not wrapped. */
	u64_bad("99999999999999999999999", 0, UINT64_MAX, "is out of range");
	u64_bad("18446744073709551616", 0, UINT64_MAX, "is out of range");
	/* NULL is a missing value, reported with an empty word. */
	assert_int_equal(u64(NULL, 0, 10, &v, &msg), -EINVAL);
	assert_int_equal(v, SENTINEL);
	assert_string_equal(msg, "xdplab gen: --size: '' is not a whole number (accepted: 0..10)\n");
	free(msg);
}

static void test_u64_messages(void **state)
{
	uint64_t v;
	char *msg;

	assert_int_equal(u64("59", 60, 9216, &v, &msg), -EINVAL);
	assert_string_equal(msg, "xdplab gen: --size: '59' is out of range (accepted: 60..9216)\n");
	free(msg);
	assert_int_equal(u64("abc", 60, 9216, &v, &msg), -EINVAL);
	assert_string_equal(msg,
			    "xdplab gen: --size: 'abc' is not a whole number (accepted: 60..9216)\n");
	free(msg);
	assert_int_equal(u64("99999999999999999999999", 0, UINT64_MAX, &v, &msg), -EINVAL);
	assert_string_equal(msg, "xdplab gen: --size: '99999999999999999999999' is out of "
				 "range (accepted: 0..18446744073709551615)\n");
	free(msg);
}

/* ---- xl_parse_seconds ---- */

static const struct xl_cmd_spec bench_spec = { .name = "drop", .args = "IFACE" };

static int secs(const char *arg, double min, double max, uint64_t *ns, char **msg)
{
	struct capture ce;
	int r;

	*ns = SENTINEL;
	cap_start(&ce, STDERR_FILENO);
	r = xl_parse_seconds(&bench_spec, "--interval", arg, min, max, ns);
	*msg = cap_end(&ce);
	return r;
}

static void secs_ok(const char *arg, double min, double max, uint64_t want_ns)
{
	uint64_t ns;
	char *msg;

	if (secs(arg, min, max, &ns, &msg) || ns != want_ns)
		print_error("xl_parse_seconds('%s') -> %ju ns, want %ju: %s\n", arg,
			    (uintmax_t)ns, (uintmax_t)want_ns, msg);
	free(msg);
	assert_int_equal(secs(arg, min, max, &ns, &msg), 0);
	assert_int_equal(ns, want_ns);
	assert_string_equal(msg, "");
	free(msg);
}

static void secs_bad(const char *arg, double min, double max, const char *what)
{
	uint64_t ns;
	char *msg;

	if (secs(arg, min, max, &ns, &msg) != -EINVAL || !strstr(msg, what))
		print_error("xl_parse_seconds('%s'): want '%s', got '%s'\n", arg, what, msg);
	free(msg);
	assert_int_equal(secs(arg, min, max, &ns, &msg), -EINVAL);
	assert_int_equal(ns, SENTINEL);
	assert_non_null(strstr(msg, what));
	free(msg);
}

static void test_seconds_valid(void **state)
{
	secs_ok("0.5", 0, 60, 500000000ULL);
	secs_ok(".5", 0, 60, 500000000ULL);
	secs_ok("5.", 0, 60, 5000000000ULL);
	secs_ok("2", 0, 60, 2000000000ULL);
	secs_ok("0", 0, 60, 0);
	secs_ok("0.000000001", 0, 60, 1);
	secs_ok("0.0000000016", 0, 60, 2); /* rounded to the nearest ns */
	secs_ok("0.0000000014", 0, 60, 1);
	secs_ok("0.1", 0.1, 60, 100000000ULL); /* min inclusive */
	secs_ok("60", 0.1, 60, 60000000000ULL); /* max inclusive */
	/* strtod() syntax: an exponent is accepted. */
	secs_ok("1e3", 0, 86400, 1000000000000ULL);
	secs_ok("2.5e-1", 0, 60, 250000000ULL);
	secs_ok("31536000", 0, 86400 * 365, 31536000000000000ULL);
}

static void test_seconds_rejects(void **state)
{
	const char *const nan[] = { "-1", "nan", "NAN", "inf", "infinity", "", "abc", "1s",
				    " 1", "+1", ".", "1e", "0.5 ", "-0.5", NULL };
	uint64_t ns;
	char *msg;
	int i;

	for (i = 0; nan[i]; i++)
		secs_bad(nan[i], 0, 1e9, "is not a number of seconds");
	secs_bad("0.05", 0.1, 60, "is out of range");
	secs_bad("1e999", 0, 1e9, "is out of range"); /* overflows a double */
	secs_bad("60.001", 0.1, 60, "is out of range");
	secs_bad("0", 0.1, 60, "is out of range");
	secs_bad("1e3", 0.1, 60, "is out of range");
	/* Regression test for a bug found by review (fixed). */
	secs_bad("0x10", 0, 60, "is not a number of seconds");
	assert_int_equal(secs(NULL, 0, 60, &ns, &msg), -EINVAL);
	assert_int_equal(ns, SENTINEL);
	free(msg);
}

static void test_seconds_messages(void **state)
{
	uint64_t ns;
	char *msg;

	assert_int_equal(secs("0.05", 0.1, 60, &ns, &msg), -EINVAL);
	assert_string_equal(msg, "xdplab drop: --interval: '0.05' is out of range "
				 "(accepted: 0.1..60 seconds)\n");
	free(msg);
	assert_int_equal(secs("nan", 0.1, 60, &ns, &msg), -EINVAL);
	assert_string_equal(msg, "xdplab drop: --interval: 'nan' is not a number of "
				 "seconds (accepted: 0.1..60)\n");
	free(msg);
}

/* ---- xl_parse_real ---- */

static const struct xl_cmd_spec cmp_spec = { .name = "compare", .args = "BASE.json NEW.json" };

/* xl_parse_real(@arg) for --alpha in [@min, @max]: its return, *@v, the message. */
static int real(const char *arg, double min, double max, double *v, char **msg)
{
	struct capture ce;
	int r;

	*v = -42;
	cap_start(&ce, STDERR_FILENO);
	r = xl_parse_real(&cmp_spec, "--alpha", arg, min, max, v);
	*msg = cap_end(&ce);
	return r;
}

/*
 * A percentage ("0.001%" or "0.001") for --loss in 0..50: the value, and a
 * refusal that shows the argument as given, its '%' included.
 */
static void test_parse_pct(void **state)
{
	static const struct ndr_spec_case {
		const char *arg, *msg;
	} bad[] = {
		{ "60%", "xdplab ndr: --loss: '60%' is out of range (accepted: 0..50)\n" },
		{ "60", "xdplab ndr: --loss: '60' is out of range (accepted: 0..50)\n" },
		{ "-1%", "xdplab ndr: --loss: '-1%' is out of range (accepted: 0..50)\n" },
		{ "x%", "xdplab ndr: --loss: 'x%' is not a number (accepted: 0..50)\n" },
		{ "%", "xdplab ndr: --loss: '%' is not a number (accepted: 0..50)\n" },
		{ "1%%", "xdplab ndr: --loss: '1%%' is not a number (accepted: 0..50)\n" },
	};
	static const struct xl_cmd_spec ndr_spec = { .name = "ndr", .args = "" };
	struct capture ce;
	double v;
	char *msg;
	int i, r;

	(void)state;
	cap_start(&ce, STDERR_FILENO);
	r = xl_cmd_parse_pct(&ndr_spec, "--loss", "0.001%", 0, 50, &v);
	msg = cap_end(&ce);
	assert_int_equal(r, 0);
	assert_dbl_equal(v, 0.001);
	assert_string_equal(msg, "");
	free(msg);
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		v = -42;
		cap_start(&ce, STDERR_FILENO);
		r = xl_cmd_parse_pct(&ndr_spec, "--loss", bad[i].arg, 0, 50, &v);
		msg = cap_end(&ce);
		assert_int_equal(r, -EINVAL);
		assert_dbl_equal(v, -42);
		assert_string_equal(msg, bad[i].msg);
		free(msg);
	}
}

static void test_real(void **state)
{
	static const struct {
		const char *arg;
		double v;
	} ok[] = { { "0.05", 0.05 }, { ".5", 0.5 }, { "0.5", 0.5 }, { "1e-3", 0.001 },
		   { "5E-2", 0.05 }, { "0.0001", 0.0001 }, { "5.e-2", 0.05 } };
	/* Hex floats, "-0", signs, blanks, inf and nan: strtod takes them all. */
	static const char *const nan[] = { "0x1p-4", "0X.1", "+0.1", " 0.1", "0.1 ", "inf", "-inf",
					   "nan", "", ".", "1e", "1e+", ".e1", "0.1x", "--1", "- 1",
					   NULL };
	static const char *const range[] = { "-0", "-0.0", "-.0", "-1", "0", "0.6", "1e999",
					     "1e-400", "0.00009", NULL };
	double v;
	char *msg;
	int i;

	for (i = 0; i < (int)(sizeof(ok) / sizeof(ok[0])); i++) {
		assert_int_equal(real(ok[i].arg, 0.0001, 0.5, &v, &msg), 0);
		assert_dbl_equal(v, ok[i].v);
		assert_string_equal(msg, "");
		free(msg);
	}
	for (i = 0; nan[i]; i++) {
		char want[160];

		snprintf(want, sizeof(want),
			 "xdplab compare: --alpha: '%s' is not a number (accepted: 0.0001..0.5)\n", nan[i]);
		assert_int_equal(real(nan[i], 0.0001, 0.5, &v, &msg), -EINVAL);
		assert_dbl_equal(v, -42);
		assert_string_equal(msg, want);
		free(msg);
	}
	for (i = 0; range[i]; i++) {
		char want[160];

		snprintf(want, sizeof(want),
			 "xdplab compare: --alpha: '%s' is out of range (accepted: 0.0001..0.5)\n", range[i]);
		assert_int_equal(real(range[i], 0.0001, 0.5, &v, &msg), -EINVAL);
		assert_dbl_equal(v, -42);
		assert_string_equal(msg, want);
		free(msg);
	}
	/* 0 is in 0..1000000 and "-0" is not; the range as the help writes it. */
	assert_int_equal(real("0", 0, 1e6, &v, &msg), 0);
	free(msg);
	assert_int_equal(real("-0", 0, 1e6, &v, &msg), -EINVAL);
	assert_string_equal(msg, "xdplab compare: --alpha: '-0' is out of range (accepted: 0..1000000)\n");
	free(msg);
}

/* ---- xl_parse_choice ---- */

static const char *const modes[] = { "native", "skb", NULL };

static int choice(const char *arg, const char *const *choices, char **msg)
{
	struct capture ce;
	int r;

	cap_start(&ce, STDERR_FILENO);
	r = xl_parse_choice(&bench_spec, "--mode", arg, choices);
	*msg = cap_end(&ce);
	return r;
}

static void test_choice(void **state)
{
	const char *const bad[] = { "Native", "nat", "natives", "", "skb ", " skb", NULL };
	char *msg;
	int i;

	assert_int_equal(choice("native", modes, &msg), 0);
	assert_string_equal(msg, "");
	free(msg);
	assert_int_equal(choice("skb", modes, &msg), 1);
	assert_string_equal(msg, "");
	free(msg);
	for (i = 0; bad[i]; i++) {
		if (choice(bad[i], modes, &msg) != -EINVAL)
			print_error("xl_parse_choice('%s') accepted\n", bad[i]);
		free(msg);
		assert_int_equal(choice(bad[i], modes, &msg), -EINVAL);
		assert_non_null(strstr(msg, "is not accepted (accepted: native, skb)\n"));
		free(msg);
	}
	assert_int_equal(choice("x", modes, &msg), -EINVAL);
	assert_string_equal(msg,
			    "xdplab drop: --mode: 'x' is not accepted (accepted: native, skb)\n");
	free(msg);
}

static void test_choice_long_list(void **state)
{
	static const char head[] = "xdplab drop: --mode: 'nope' is not accepted (accepted: ";
	static char words[40][16];
	const char *list[41];
	char *msg;
	int i;

	for (i = 0; i < 40; i++) {
		snprintf(words[i], sizeof(words[i]), "choice-%02d", i);
		list[i] = words[i];
	}
	list[40] = NULL;
	assert_int_equal(choice("choice-39", list, &msg), 39);
	free(msg);
	/* 40 x "choice-NN, " is 438 bytes: the whole list, not cut at 255 (--rows' list). */
	assert_int_equal(choice("nope", list, &msg), -EINVAL);
	assert_true(strncmp(msg, head, strlen(head)) == 0);
	assert_true(strncmp(msg + strlen(head), "choice-00, choice-01, choice-02, ", 33) == 0);
	assert_string_equal(msg + strlen(msg) - strlen("choice-38, choice-39)\n"),
			    "choice-38, choice-39)\n");
	assert_int_equal(strlen(msg), strlen(head) + 40 * 11 - 2 + strlen(")\n"));
	free(msg);

	/* No choices at all. */
	list[0] = NULL;
	assert_int_equal(choice("a", list, &msg), -EINVAL);
	assert_string_equal(msg, "xdplab drop: --mode: 'a' is not accepted (accepted: )\n");
	free(msg);
}

/*
 * A help line's "{range}" and "{max}": a whole number's, a real's, and an
 * XL_OT_CODE entry's when it has a range (ndr's percentages: written once,
 * in xl_ndr_opt_table[], for their help and their parser); none without.
 */
static void test_help_range_and_max(void **state)
{
	struct ho {
		unsigned int n;
		double d, pct;
	};
	static const struct xl_opt ents[] = {
		{ "n", 0, "N", "n in {range}, at most {max}", .type = XL_OT_UINT,
		  XL_FIELD(struct ho, n), .min = 2, .max = 9 },
		{ "d", 0, "D", "d in {range}, at most {max}", XL_REAL(struct ho, d, 0.5, 60) },
		{ "p", 0, "PCT", "p in {range}, at most {max}", 1, .rmin = 0, .rmax = 12.5 },
		{ "q", 0, "PCT", "q in '{range}', '{max}'", 2 },
	};
	char buf[256];

	(void)state;
	assert_string_equal(xl_opt_help_text(&ents[0], NULL, buf, sizeof(buf)),
			    "n in 2..9, at most 9");
	assert_string_equal(xl_opt_help_text(&ents[1], NULL, buf, sizeof(buf)),
			    "d in 0.5..60, at most 60");
	assert_string_equal(xl_opt_help_text(&ents[2], NULL, buf, sizeof(buf)),
			    "p in 0..12.5, at most 12.5");
	assert_string_equal(xl_opt_help_text(&ents[3], NULL, buf, sizeof(buf)), "q in '', ''");
	{
		/* ndr's percentages: the default from the command's default struct, written once. */
		struct nd {
			int x;
			struct xl_cmd_ndr_pcts pct;
		} defs = { .pct = XL_CMD_NDR_PCTS_DEFAULT };
		const struct xl_opt pdr = XL_NDR_OPT(PDR, struct nd, pct),
				    res = XL_NDR_OPT(RES, struct nd, pct),
				    loss = XL_NDR_OPT(LOSS, struct nd, pct);

		assert_string_equal(xl_opt_help_text(&pdr, &defs, buf, sizeof(buf)),
				    "the loss the PDR allows, a percentage, --loss..50 (default 0.1%, as TRex's)");
		assert_string_equal(xl_opt_help_text(&res, &defs, buf, sizeof(buf)),
				    "the search ends when each interval is this share of the upper bound wide, a percentage, above 0..50 (default 1%)");
		defs.pct.loss = 0.25;
		assert_string_equal(xl_opt_help_text(&loss, &defs, buf, sizeof(buf)),
				    "the loss the NDR allows, a percentage, 0..50 (default 0.25: no frame lost; e.g. 0.001%)");
	}
}

/*
 * The library's parser writes only to the FILE * it is given: its help to
 * @out, its message to @errf; nothing reaches stdout or stderr.
 */
#define HELP_HEAD "Usage: xdplab gen [options] IFACE\nSend frames.\n\nOptions:\n  -c, --count N"
static void test_parse_to_files(void **state)
{
	char *argv1[] = { "gen", "--count", "7", "--nope", "eth0", NULL };
	char *argv2[] = { "gen", "--help", NULL };
	struct memout mo, me;
	struct capture co, ce;
	struct rec r = { 0 };
	char *out, *err, *so, *se;
	FILE *fo, *fe;

	cap_start(&co, STDOUT_FILENO);
	cap_start(&ce, STDERR_FILENO);
	fo = mem_start(&mo);
	fe = mem_start(&me);
	assert_int_equal(xl_opts_parse_to(fo, fe, &gen_spec, 5, argv1, on_opt, &r), -EINVAL);
	assert_int_equal(r.n, 0); /* the names are checked before any value is taken */
	assert_int_equal(xl_opts_parse_to(fo, fe, &gen_spec, 2, argv2, on_opt, &r), XL_OPTS_HELP);
	out = mem_end(&mo);
	err = mem_end(&me);
	so = cap_end(&co);
	se = cap_end(&ce);
	assert_string_equal(err, "xdplab gen: unknown option '--nope' (see 'xdplab gen --help')\n");
	assert_true(!strncmp(out, HELP_HEAD, strlen(HELP_HEAD)));
	assert_string_equal(so, "");
	assert_string_equal(se, "");
	free(out);
	free(err);
	free(so);
	free(se);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_parse_long_short_and_values, reset_getopt),
		cmocka_unit_test_setup(test_parse_short_forms, reset_getopt),
		cmocka_unit_test_setup(test_parse_no_positional, reset_getopt),
		cmocka_unit_test_setup(test_parse_empty_value, reset_getopt),
		cmocka_unit_test_setup(test_parse_abbreviation_rejected, reset_getopt),
		cmocka_unit_test_setup(test_parse_abbreviation_after_positional, reset_getopt),
		cmocka_unit_test_setup(test_parse_given_twice, reset_getopt),
		cmocka_unit_test_setup(test_parse_repeatable, reset_getopt),
		cmocka_unit_test_setup(test_parse_unknown, reset_getopt),
		cmocka_unit_test_setup(test_parse_missing_value, reset_getopt),
		cmocka_unit_test_setup(test_parse_help, reset_getopt),
		cmocka_unit_test_setup(test_parse_handler_error, reset_getopt),
		cmocka_unit_test_setup(test_parse_permutation, reset_getopt),
		cmocka_unit_test_setup(test_parse_state_repeated_calls, reset_getopt),
		cmocka_unit_test_setup(test_parse_state_after_bundle, reset_getopt),
		cmocka_unit_test_setup(test_parse_too_many_options, reset_getopt),
		cmocka_unit_test_setup(test_check_duplicates, reset_getopt),
		cmocka_unit_test(test_usage_error),
		cmocka_unit_test(test_usage_error_escapes),
		cmocka_unit_test(test_u64_valid_and_bounds),
		cmocka_unit_test(test_u64_rejects),
		cmocka_unit_test(test_u64_messages),
		cmocka_unit_test(test_seconds_valid),
		cmocka_unit_test(test_seconds_rejects),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_parse_pct),
		cmocka_unit_test(test_seconds_messages),
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_choice_long_list),
		cmocka_unit_test(test_parse_to_files),
		cmocka_unit_test(test_help_range_and_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
