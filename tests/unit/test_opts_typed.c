// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_opts_typed.c - the typed option entries of src/cmd/opts.c (XL_UINT,
 * XL_ENUM, XL_FLAG, XL_SET, XL_STR, XL_SECONDS, XL_REAL, XL_SEEN, XL_LIKE):
 * the parser fills the args struct from the entry alone, starts from the
 * command's default struct, refuses a value out of range, a word not in the
 * enum table, an option given twice and a value given to a flag with the
 * exact one-line messages, and --help fills "{range}", "{choices}" and
 * "{default}" from the same entry. Beside test_opts.c (the untyped parser
 * and the value parsers), which is long enough.
 *
 * Run from the repository root; no root privileges needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "test_util.h"

/* An args struct with a field of every kind. */
struct t_args {
	uint32_t batch;
	uint8_t small;
	int mode;
	bool quiet, batch_seen;
	const char *json;
	uint64_t interval_ns;
	double alpha;
	int copy;
	int code_calls;
	uint32_t ring, queue;
	uint64_t count;
	struct in_addr ip;
	bool ip_seen;
};

/* A rule beyond the range, as xl_xsk_check_ring_size(): a power of two. */
static int t_pow2(const char *opt, uint64_t v, char *msg, size_t len)
{
	if (v && !(v & (v - 1)))
		return 0;
	snprintf(msg, len, "%s: %llu is not a power of two", opt, (unsigned long long)v);
	return -EINVAL;
}

static const char *const t_modes[] = { "native", "skb", "drv", NULL };
static const int t_mode_vals[] = { 0, 1, 0 }; /* drv is native */

/* A shared entry, as xl_run_opt_table[]'s are: name, range and help once. */
static const struct xl_opt t_shared_interval = {
	"interval", 'i', "SECONDS", "report period, {range} (default {default})",
	.type = XL_OT_SECONDS, .rmin = 0.1, .rmax = 60,
};

enum { T_CODE = 7 };

static const struct xl_opt t_opts[] = {
	{ "batch", 'b', "N", "descriptors per batch, {range} (default {default})",
	  XL_UINT(struct t_args, batch, 1, 2048), XL_SEEN(struct t_args, batch_seen) },
	{ "small", 0, "N", "a byte, {range}", XL_UINT(struct t_args, small, 0, 200) },
	{ "mode", 'm', "MODE", "{choices} (default {default})",
	  XL_ENUM(struct t_args, mode, t_modes, t_mode_vals), .alias = "xdp-mode" },
	{ "quiet", 'q', NULL, "no interval lines", XL_FLAG(struct t_args, quiet) },
	{ "json", 'j', "FILE", "also write JSON", XL_STR(struct t_args, json) },
	{ "alpha", 0, "P", "significance, {range}", XL_REAL(struct t_args, alpha, 0.0001, 0.5) },
	{ "copy", 'c', NULL, "copy mode", XL_SET(struct t_args, copy, 3) },
	XL_LIKE(t_shared_interval, struct t_args, interval_ns, .suffix = " here"),
	{ "code", 0, "X", "handled by code", T_CODE },
	{ "ring", 0, "N", "ring entries", XL_UINT(struct t_args, ring, 0, 65536), .check = t_pow2 },
	{ "queue", 0, "Q", "queue", XL_UINT(struct t_args, queue, 0, 63), .hint = "-q is elsewhere" },
	{ "qsize", 0, "N", "queue size", XL_UINT(struct t_args, queue, 1, 16),
	  .hint = "accepted: {range}; see -Q" },
	{ "ip", 0, "ADDR", "an address", XL_IPV4(struct t_args, ip), XL_SEEN(struct t_args, ip_seen) },
	{ "count", 0, "N", "frames", XL_UINT(struct t_args, count, 0, UINT64_MAX) },
};

static const struct t_args t_defaults = { .batch = 64, .mode = 1, .interval_ns = 1000000000ull,
					  .alpha = 0.05 };

static const struct xl_cmd_spec t_spec = {
	"xsk rxdrop", "IFACE", "Receive.", t_opts, sizeof(t_opts) / sizeof(t_opts[0]),
	&t_defaults, sizeof(t_defaults),
};

static int t_code(int id, const char *arg, void *ctx)
{
	struct t_args *a = ctx;

	assert_int_equal(id, T_CODE);
	a->code_calls++;
	return 0;
}

struct t_result {
	int ret;
	char *out, *err;
	struct t_args a;
};

/* Parse NULL-terminated @argv (argv[0] the command) with stdout and stderr captured. */
static void t_parse(char **argv, struct t_result *r)
{
	struct capture co, ce;
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(r, 0, sizeof(*r));
	memset(&r->a, 0x5a, sizeof(r->a)); /* the defaults must replace it all */
	optind = 0;
	cap_start(&co, STDOUT_FILENO);
	cap_start(&ce, STDERR_FILENO);
	r->ret = xl_opts_parse(&t_spec, argc, argv, t_code, &r->a);
	r->err = cap_end(&ce);
	r->out = cap_end(&co);
}

static void t_free(struct t_result *r)
{
	free(r->out);
	free(r->err);
}

#define TARGV(...) ((char *[]){ "rxdrop", __VA_ARGS__, NULL })

/* Every field from its entry; the rest from the default struct. */
static void test_typed_values(void **state)
{
	struct t_result r;

	(void)state;
	t_parse(TARGV("-b", "2048", "--small=200", "--xdp-mode", "drv", "-q", "--json", "x.json",
		      "--alpha", "0.5", "-c", "--interval", "0.25", "--code", "y", "veth0"),
		&r);
	assert_string_equal(r.err, "");
	assert_int_equal(r.ret, 16); /* veth0 */
	assert_int_equal(r.a.batch, 2048);
	assert_true(r.a.batch_seen);
	assert_int_equal(r.a.small, 200);
	assert_int_equal(r.a.mode, 0);
	assert_true(r.a.quiet);
	assert_string_equal(r.a.json, "x.json");
	assert_true(r.a.alpha == 0.5);
	assert_int_equal(r.a.copy, 3);
	assert_int_equal(r.a.interval_ns, 250000000ull);
	assert_int_equal(r.a.code_calls, 1);
	t_free(&r);

	t_parse(TARGV("--ring", "4096", "--ip", "198.18.0.2", "--queue", "7", "veth0"), &r);
	assert_string_equal(r.err, "");
	assert_int_equal(r.a.ring, 4096);
	assert_int_equal(r.a.queue, 7);
	assert_int_equal(ntohl(r.a.ip.s_addr), 0xc6120002);
	assert_true(r.a.ip_seen);
	t_free(&r);

	t_parse(TARGV("veth0"), &r);
	assert_int_equal(r.ret, 1);
	assert_memory_equal(&r.a, &t_defaults, sizeof(r.a));
	t_free(&r);
}

/* One bad word each: the exact line, exit -EINVAL, and nothing stored after it. */
static void test_typed_errors(void **state)
{
	static const struct {
		char *argv[5];
		const char *err;
	} cases[] = {
		{ { "rxdrop", "--batch", "2049" },
		  "xdplab xsk rxdrop: --batch: '2049' is out of range (accepted: 1..2048)\n" },
		{ { "rxdrop", "-b", "0" },
		  "xdplab xsk rxdrop: --batch: '0' is out of range (accepted: 1..2048)\n" },
		{ { "rxdrop", "--small", "256" },
		  "xdplab xsk rxdrop: --small: '256' is out of range (accepted: 0..200)\n" },
		{ { "rxdrop", "--batch", "x" },
		  "xdplab xsk rxdrop: --batch: 'x' is not a whole number (accepted: 1..2048)\n" },
		{ { "rxdrop", "--mode", "zc" },
		  "xdplab xsk rxdrop: --mode: 'zc' is not accepted (accepted: native, skb, drv)\n" },
		{ { "rxdrop", "--xdp-mode", "Native" },
		  "xdplab xsk rxdrop: --mode: 'Native' is not accepted (accepted: native, skb, drv)\n" },
		{ { "rxdrop", "--batch", "1", "--batch", "2" },
		  "xdplab xsk rxdrop: option --batch given twice\n" },
		{ { "rxdrop", "--mode", "skb", "--xdp-mode", "skb" },
		  "xdplab xsk rxdrop: option --mode given twice\n" },
		{ { "rxdrop", "-q", "--quiet" }, "xdplab xsk rxdrop: option --quiet given twice\n" },
		{ { "rxdrop", "--quiet=1" },
		  "xdplab xsk rxdrop: option '--quiet=1': --quiet takes no value\n" },
		{ { "rxdrop", "--copy=yes" },
		  "xdplab xsk rxdrop: option '--copy=yes': --copy takes no value\n" },
		{ { "rxdrop", "--alpha", "0.6" },
		  "xdplab xsk rxdrop: --alpha: '0.6' is out of range (accepted: 0.0001..0.5)\n" },
		{ { "rxdrop", "--interval", "0.05" },
		  "xdplab xsk rxdrop: --interval: '0.05' is out of range (accepted: 0.1..60 seconds)\n" },
		{ { "rxdrop", "-i", "soon" },
		  "xdplab xsk rxdrop: --interval: 'soon' is not a number of seconds (accepted: 0.1..60)\n" },
		/* .check's line; .hint's text instead of the range, or with it */
		{ { "rxdrop", "--ring", "1000" }, "xdplab xsk rxdrop: --ring: 1000 is not a power of two\n" },
		{ { "rxdrop", "--ring", "65537" },
		  "xdplab xsk rxdrop: --ring: '65537' is out of range (accepted: 0..65536)\n" },
		{ { "rxdrop", "--queue", "lo" },
		  "xdplab xsk rxdrop: --queue: 'lo' is not a whole number (-q is elsewhere)\n" },
		{ { "rxdrop", "--queue", "64" },
		  "xdplab xsk rxdrop: --queue: '64' is out of range (accepted: 0..63)\n" },
		{ { "rxdrop", "--qsize", "-1" },
		  "xdplab xsk rxdrop: --qsize: '-1' is not a whole number (accepted: 1..16; see -Q)\n" },
		/* UINT64_MAX is a bound, not the CPU count read at parse time */
		{ { "rxdrop", "--count", "-1" },
		  "xdplab xsk rxdrop: --count: '-1' is not a whole number (accepted: 0..18446744073709551615)\n" },
		{ { "rxdrop", "--ip", "198.18.0" },
		  "xdplab xsk rxdrop: --ip: '198.18.0' is not an IPv4 address\n" },
	};
	struct t_result r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t_parse((char **)cases[i].argv, &r);
		if (strcmp(r.err, cases[i].err))
			print_error("case %zu: got '%s'\n", i, r.err);
		assert_string_equal(r.err, cases[i].err);
		assert_int_equal(r.ret, -EINVAL);
		assert_string_equal(r.out, "");
		t_free(&r);
	}
	/* A refused value leaves the default in place and the option not seen. */
	t_parse(TARGV("--batch", "4096"), &r);
	assert_int_equal(r.a.batch, 64);
	assert_false(r.a.batch_seen);
	t_free(&r);
	t_parse(TARGV("--ring", "3"), &r);
	assert_int_equal(r.a.ring, 0);
	t_free(&r);
	t_parse(TARGV("--ip", "x"), &r);
	assert_false(r.a.ip_seen);
	t_free(&r);
}

/* --help from the entries: the range, the choices and the defaults filled in. */
static void test_typed_help(void **state)
{
	static const char want[] =
		"Usage: xdplab xsk rxdrop [options] IFACE\n"
		"Receive.\n\n"
		"Options:\n"
		"  -b, --batch N                descriptors per batch, 1..2048 (default 64)\n"
		"      --small N                a byte, 0..200\n"
		"  -m, --mode MODE              native, skb or drv (default skb) (also --xdp-mode)\n"
		"  -q, --quiet                  no interval lines\n"
		"  -j, --json FILE              also write JSON\n"
		"      --alpha P                significance, 0.0001..0.5\n"
		"  -c, --copy                   copy mode\n"
		"  -i, --interval SECONDS       report period, 0.1..60 (default 1) here\n"
		"      --code X                 handled by code\n"
		"      --ring N                 ring entries\n"
		"      --queue Q                queue\n"
		"      --qsize N                queue size\n"
		"      --ip ADDR                an address\n"
		"      --count N                frames\n"
		"  -v, --verbose                more diagnostics on stderr; twice for debug\n"
		"  -h, --help                   show this help\n";
	struct t_result r;

	(void)state;
	t_parse(TARGV("--help"), &r);
	assert_int_equal(r.ret, XL_OPTS_HELP);
	assert_string_equal(r.out, want);
	assert_string_equal(r.err, "");
	t_free(&r);
}

/* A typed field that its type cannot store, or outside the struct: refused at once. */
static void test_typed_bad_field(void **state)
{
	static const struct xl_opt wide_flag[] = {
		{ "quiet", 'q', NULL, "x", XL_FLAG(struct t_args, batch) },
	};
	static const struct xl_opt no_choices[] = {
		{ "mode", 'm', "M", "x", .type = XL_OT_ENUM, XL_FIELD(struct t_args, mode) },
	};
	static const struct xl_opt outside[] = {
		{ "far", 0, "N", "x", .type = XL_OT_UINT, .off = sizeof(struct t_args), .size = 4,
		  .max = 9 }, /* sizeof(struct t_args): 72 */
	};
	const struct {
		const struct xl_opt *o;
		const char *err;
	} cases[] = {
		{ wide_flag, "xdplab t: internal error: option --quiet: its field (offset 0, 4 bytes) does not fit its type\n" },
		{ no_choices, "xdplab t: internal error: option --mode: its field (offset 8, 4 bytes) does not fit its type\n" },
		{ outside, "xdplab t: internal error: option --far: its field (offset 72, 4 bytes) does not fit its type\n" },
	};
	struct capture ce;
	size_t i;
	char *err;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xl_cmd_spec spec = { "t", "", "T.", cases[i].o, 1, NULL, sizeof(struct t_args) };

		cap_start(&ce, STDERR_FILENO);
		assert_int_equal(xl_opts_check(&spec), -EINVAL);
		err = cap_end(&ce);
		assert_string_equal(err, cases[i].err);
		free(err);
	}
	assert_int_equal(xl_opts_check(&t_spec), 0);
}

/* XL_LIKE(): the shared entry's name and range, this entry's field and overrides. */
static void test_typed_like(void **state)
{
	struct xl_opt o = xl_opt_resolve(&t_opts[7]);
	char buf[128];

	(void)state;
	assert_string_equal(o.name, "interval");
	assert_int_equal(o.short_name, 'i');
	assert_int_equal(o.type, XL_OT_SECONDS);
	assert_int_equal(o.off, offsetof(struct t_args, interval_ns));
	assert_null(o.like);
	assert_string_equal(xl_opt_help_text(&t_opts[7], &t_defaults, buf, sizeof(buf)),
			    "report period, 0.1..60 (default 1) here");
	/* No default struct: "{default}" is empty; a short buffer is cut, terminated. */
	assert_string_equal(xl_opt_help_text(&t_opts[0], NULL, buf, sizeof(buf)),
			    "descriptors per batch, 1..2048 (default )");
	assert_string_equal(xl_opt_help_text(&t_opts[0], NULL, buf, 12), "descriptors");
	/* .no_short: the shared entry without its letter (xsk's --mode, -m taken) */
	{
		const struct xl_opt e = XL_LIKE(t_shared_interval, struct t_args, interval_ns,
						.no_short = true);

		o = xl_opt_resolve(&e);
		assert_int_equal(o.short_name, 0);
		assert_string_equal(o.name, "interval");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_typed_errors),
		cmocka_unit_test(test_typed_help),
		cmocka_unit_test(test_typed_bad_field),
		cmocka_unit_test(test_typed_like),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
