// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_aliases.c - the peers' spellings (docs/cli.md), one case per alias,
 * through the real command table and option tables: an alias and the
 * option's own name given together must be "given twice" (they are one
 * option), a changed short letter must reach its new option, `drv` is a
 * mode everywhere, tx defaults to swap-macs, and -v works after the
 * command. Every case stops at the option parse, so no root is needed.
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
#include "xdplab/log.h"

static int (*find(const char *name))(int, char **)
{
	size_t i;

	for (i = 0; i < xl_n_commands; i++)
		if (!strcmp(xl_commands[i].name, name))
			return xl_commands[i].fn;
	fail_msg("no command %s", name);
	return NULL;
}

/* Run `xdplab ARGV...` (argv[0] the command); exit status and stderr. */
static int run(char **argv, char **err, char **out)
{
	struct capture ce, co;
	int argc = 0, ret;

	while (argv[argc])
		argc++;
	cap_start(&co, STDOUT_FILENO);
	cap_start(&ce, STDERR_FILENO);
	ret = find(argv[0])(argc, argv);
	*err = cap_end(&ce);
	*out = cap_end(&co);
	return ret;
}

static void expect(char **argv, int want_rc, const char *want_err)
{
	char *err, *out;
	int rc = run(argv, &err, &out);

	if (rc != want_rc || strcmp(err, want_err))
		print_error("xdplab %s %s %s ...: exit %d, stderr '%s'\n", argv[0], argv[1],
			    argv[2] ? argv[2] : "", rc, err);
	assert_int_equal(rc, want_rc);
	assert_string_equal(err, want_err);
	free(err);
	free(out);
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static void test_long_aliases(void **state)
{
	/* xdp-bench: --xdp-mode */
	expect(ARGV("drop", "--mode", "native", "--xdp-mode", "skb", "lo"), 2,
	       "xdplab drop: option --mode given twice\n");
	expect(ARGV("redirect", "--xdp-mode", "skb", "--mode", "skb", "lo", "lo"), 2,
	       "xdplab redirect: option --mode given twice\n");
	expect(ARGV("lab", "run", "--xdp-mode", "skb", "-m", "skb"), 2,
	       "xdplab lab run: option --mode given twice\n");
	/* lab run and lab setup take no argument after their options. */
	expect(ARGV("lab", "run", "--reps", "1", "extra"), 2,
	       "xdplab lab run: unexpected argument 'extra'\n");
	expect(ARGV("lab", "setup", "extra"), 2, "xdplab lab setup: unexpected argument 'extra'\n");
	expect(ARGV("xsk", "rxdrop", "--xdp-mode", "skb", "--mode", "drv", "lo"), 2,
	       "xdplab xsk rxdrop: option --mode given twice\n");
	/* xdpsock / xdp-bench xsk: --batch-size, --frame-size, --copy-mode */
	expect(ARGV("xsk", "rxdrop", "--batch-size", "32", "-b", "32", "lo"), 2,
	       "xdplab xsk rxdrop: option --batch given twice\n");
	expect(ARGV("xsk", "rxdrop", "--copy-mode", "copy", "--zero-copy", "lo"), 2,
	       "xdplab xsk rxdrop: --copy-mode and --copy/--zero-copy conflict\n");
	expect(ARGV("xsk", "rxdrop", "--copy-mode", "zero-copy", "--mode", "skb", "lo"), 2,
	       "xdplab xsk rxdrop: --zero-copy needs --mode drv: XDP_SKB (generic XDP) always copies\n");
	expect(ARGV("xsk", "rxdrop", "--copy-mode", "bogus", "lo"), 2,
	       "xdplab xsk rxdrop: --copy-mode: 'bogus' is not accepted (accepted: auto, copy, zero-copy)\n");
	/* xdp-trafficgen: --pkt-size, --num-packets */
	expect(ARGV("gen", "--pkt-size", "64", "--size", "64", "lo"), 2,
	       "xdplab gen: option --size given twice\n");
	expect(ARGV("gen", "--num-packets", "5", "-n", "5", "lo"), 2,
	       "xdplab gen: option --count given twice\n");
	/* xdp-monitor: --stats, the success path */
	expect(ARGV("monitor", "--stats", "--all"), 2, "xdplab monitor: option --all given twice\n");
}

static void test_short_letters(void **state)
{
	/* xdpsock's letters in xsk: -q queue, -f frame size, -B busy-poll, -m no-need-wakeup, -Q quiet; -C copy mode. */
	expect(ARGV("xsk", "rxdrop", "-q", "1", "--queue", "1", "lo"), 2,
	       "xdplab xsk rxdrop: option --queue given twice\n");
	expect(ARGV("xsk", "rxdrop", "-f", "2048", "--frame-size", "2048", "lo"), 2,
	       "xdplab xsk rxdrop: option --frame-size given twice\n");
	expect(ARGV("xsk", "rxdrop", "-B", "--busy-poll", "lo"), 2,
	       "xdplab xsk rxdrop: option --busy-poll given twice\n");
	expect(ARGV("xsk", "rxdrop", "-m", "--no-need-wakeup", "lo"), 2,
	       "xdplab xsk rxdrop: option --no-need-wakeup given twice\n");
	expect(ARGV("xsk", "rxdrop", "-Q", "--quiet", "lo"), 2,
	       "xdplab xsk rxdrop: option --quiet given twice\n");
	expect(ARGV("xsk", "rxdrop", "-C", "copy", "--copy-mode", "copy", "lo"), 2,
	       "xdplab xsk rxdrop: option --copy-mode given twice\n");
	/* xdpsock's txonly options: -y/--tstamp, -V/--tx-vlan. */
	expect(ARGV("xsk", "txpush", "-y", "--tstamp", "lo"), 2,
	       "xdplab xsk txpush: option --tstamp given twice\n");
	expect(ARGV("xsk", "txpush", "--tx-vlan", "-V", "lo"), 2,
	       "xdplab xsk txpush: option --vlan-tag given twice\n");
	/* The old letters say where they went. */
	expect(ARGV("xsk", "rxdrop", "-q", "lo"), 2,
	       "xdplab xsk rxdrop: --queue: 'lo' is not a whole number (-q is --queue, as in xdpsock; quiet is -Q)\n");
	expect(ARGV("xsk", "txpush", "-f", "x16", "lo"), 2,
	       "xdplab xsk txpush: --frame-size: 'x16' is not a whole number (-f is --frame-size, as in xdpsock; the UDP flows of txpush are --flows)\n");
	/* xdpdump's -p. */
	expect(ARGV("dump", "-p", "all", "--program-names", "all", "lo"), 2,
	       "xdplab dump: option --program-names given twice\n");
	/* xdpdump's --rx-capture is --hook (its entry,exit is both). */
	expect(ARGV("dump", "--hook", "both", "--rx-capture", "entry,exit", "lo"), 2,
	       "xdplab dump: option --hook given twice\n");
	/* tcpdump's -Q: out and inout with libpcap only. */
	expect(ARGV("dump", "-Q", "out", "--direction", "inout", "lo"), 2,
	       "xdplab dump: option --direction given twice\n");
	expect(ARGV("dump", "-Q", "sideways", "lo"), 2,
	       "xdplab dump: --direction: 'sideways' is not accepted (accepted: in, out, inout)\n");
	expect(ARGV("dump", "-w", "/dev/null", "-Q", "out", "--hook", "exit", "lo"), 2,
	       "xdplab dump: -Q out captures with libpcap: not with --hook own|entry|exit|both (accepted: -Q in with any hook; -Q out|inout alone or with --hook pcap)\n");
	expect(ARGV("dump", "-w", "/dev/null", "-Q", "inout", "-p", "all", "lo"), 2,
	       "xdplab dump: -Q inout captures with libpcap: not with -p (accepted: -Q in with any hook; -Q out|inout alone or with --hook pcap)\n");
	/* xdp-monitor's -e. */
	expect(ARGV("monitor", "-e", "--extended"), 2, "xdplab monitor: option --extended given twice\n");
	/* redirect-cpu: -q is --qsize as in xdp-bench, quiet is -Q. */
	expect(ARGV("redirect-cpu", "-q", "64", "--qsize", "64", "lo"), 2,
	       "xdplab redirect-cpu: option --qsize given twice\n");
}

static void test_modes(void **state)
{
	/* drv is native everywhere (a value that is not accepted stops first). */
	expect(ARGV("drop", "--mode", "drv", "-m", "drv", "lo"), 2,
	       "xdplab drop: option --mode given twice\n");
	expect(ARGV("redirect-multi", "-m", "drv", "--mode", "native", "lo", "lo"), 2,
	       "xdplab redirect-multi: option --mode given twice\n");
	expect(ARGV("lab", "run", "--mode", "drv", "--mode", "drv"), 2,
	       "xdplab lab run: option --mode given twice\n");
	expect(ARGV("xsk", "l2fwd", "--mode", "native", "--mode", "native", "lo"), 2,
	       "xdplab xsk l2fwd: option --mode given twice\n");
	expect(ARGV("drop", "--mode", "generic", "lo"), 2,
	       "xdplab drop: --mode: 'generic' is not accepted (accepted: native, skb, drv)\n");
}

static void test_tx_default_and_verbose(void **state)
{
	enum xl_log_level before = xl_log_get_level();
	char *err, *out;

	assert_int_equal(run(ARGV("tx", "--help"), &err, &out), 0);
	assert_non_null(strstr(out, "-p, --packet-operation OP    no-touch, read-data, parse-ip or swap-macs (default swap-macs)\n"));
	free(err);
	free(out);
	assert_int_equal(run(ARGV("drop", "--help"), &err, &out), 0);
	assert_non_null(strstr(out, "(default no-touch)\n"));
	free(err);
	free(out);
	/* -v / -vv after the command: one level each. */
	xl_log_set_level(XL_LOG_WARN);
	assert_int_equal(run(ARGV("gen", "-v", "--help"), &err, &out), 0);
	assert_int_equal(xl_log_get_level(), XL_LOG_INFO);
	free(err);
	free(out);
	xl_log_set_level(XL_LOG_WARN);
	assert_int_equal(run(ARGV("xsk", "rxdrop", "-vv", "--help"), &err, &out), 0);
	assert_int_equal(xl_log_get_level(), XL_LOG_DEBUG);
	free(err);
	free(out);
	xl_log_set_level(before);
}

/*
 * -v between a family and its subcommand ("lab -v setup"): the
 * subcommand's options, counted as after it; -vx there, --version there
 * and -v alone: the family's one line (or its usage), exit 2.
 */
static void test_verbose_before_subcommand(void **state)
{
	enum xl_log_level before = xl_log_get_level();
	char *err, *out;

	xl_log_set_level(XL_LOG_WARN);
	expect(ARGV("lab", "-v", "teardown", "--bogus"), 2,
	       "xdplab lab teardown: unknown option '--bogus' (see 'xdplab lab teardown --help')\n");
	assert_int_equal(run(ARGV("lab", "-v", "teardown", "--help"), &err, &out), 0);
	assert_int_equal(xl_log_get_level(), XL_LOG_INFO);
	assert_non_null(strstr(out, "Usage: xdplab lab teardown"));
	free(err);
	free(out);
	xl_log_set_level(XL_LOG_WARN);
	assert_int_equal(run(ARGV("xsk", "-v", "--verbose", "rxdrop", "--help"), &err, &out), 0);
	assert_int_equal(xl_log_get_level(), XL_LOG_DEBUG);
	assert_non_null(strstr(out, "Usage: xdplab xsk rxdrop [options] IFACE\n"));
	free(err);
	free(out);
	xl_log_set_level(XL_LOG_WARN);
	expect(ARGV("store", "-vv", "list", "--bogus"), 2,
	       "xdplab store list: unknown option '--bogus' (see 'xdplab store list --help')\n");
	assert_int_equal(run(ARGV("store", "-vv", "list", "--help"), &err, &out), 0);
	assert_int_equal(xl_log_get_level(), XL_LOG_DEBUG);
	free(err);
	free(out);
	xl_log_set_level(XL_LOG_WARN);
	expect(ARGV("lab", "-vx", "setup"), 2,
	       "xdplab lab: unknown subcommand '-vx' (accepted: setup, teardown, run)\n");
	expect(ARGV("lab", "--version", "setup"), 2,
	       "xdplab lab: unknown subcommand '--version' (accepted: setup, teardown, run)\n");
	assert_int_equal(xl_log_get_level(), XL_LOG_WARN);
	assert_int_equal(run(ARGV("lab", "-v"), &err, &out), 2);
	assert_non_null(strstr(err, "Usage: xdplab lab setup|teardown|run [options]\n"));
	assert_string_equal(out, "");
	free(err);
	free(out);
	xl_log_set_level(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_aliases),
		cmocka_unit_test(test_short_letters),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_tx_default_and_verbose),
		cmocka_unit_test(test_verbose_before_subcommand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
