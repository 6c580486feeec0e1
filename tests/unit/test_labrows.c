// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_labrows.c - the table of lab run's rows (xdplab/labrows.h): the
 * names in table order (what --rows accepts), which rows run only when
 * named, need the veth lab or an out pair, are drop rows or have their
 * watch-cost rows, how many rows each makes, and the skipped row a --dut
 * interface gets (name, kind, mode, note), exactly as the command made
 * them by matching names before the table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "xdplab/labrows.h"

static const char *const names[] = {
	"gen-ceiling", "drop/no-touch", "drop/read-data", "drop/parse-ip", "drop/swap-macs",
	"pass", "tx", "redirect", "redirect-cpu",
	"xsk-rxdrop/skb", "xsk-rxdrop/drv", "xsk-rxdrop/zc",
	"xsk-txpush/skb", "xsk-txpush/drv", "xsk-txpush/zc",
	"xsk-l2fwd/skb", "xsk-l2fwd/drv", "xsk-l2fwd/zc",
	"stack-drop", "tc-drop", "tx/swap-macs", "meter-cost", NULL,
};

static void test_names(void **state)
{
	const char *const *n = xl_labrow_names();
	int i;

	for (i = 0; names[i]; i++) {
		assert_non_null(xl_labrow(i));
		assert_string_equal(xl_labrow(i)->name, names[i]);
		assert_string_equal(n[i], names[i]);
		assert_non_null(xl_labrow(i)->measure);
	}
	assert_null(n[i]);
	assert_null(xl_labrow(i));
	assert_null(xl_labrow(-1));
}

/* The names of the rows with @flag, comma-joined. */
static const char *with(unsigned int flag)
{
	static char buf[512];
	const struct xl_labrow *r;
	int i;

	buf[0] = 0;
	for (i = 0; (r = xl_labrow(i)); i++)
		if (r->flags & flag)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 buf[0] ? "," : "", r->name);
	return buf;
}

static void test_flags(void **state)
{
	assert_string_equal(with(XL_LABROW_NAMED_ONLY), "stack-drop,tc-drop,tx/swap-macs,meter-cost");
	assert_string_equal(with(XL_LABROW_NEEDS_VETH),
			    "gen-ceiling,redirect,redirect-cpu,xsk-txpush/skb,xsk-txpush/drv,"
			    "xsk-txpush/zc,xsk-l2fwd/skb,xsk-l2fwd/drv,xsk-l2fwd/zc,meter-cost");
	assert_string_equal(with(XL_LABROW_OUT_PAIR), "redirect,redirect-cpu");
	assert_string_equal(with(XL_LABROW_DROP),
			    "drop/no-touch,drop/read-data,drop/parse-ip,drop/swap-macs");
	assert_string_equal(with(XL_LABROW_WATCH), "redirect");
	assert_int_equal(xl_labrow(1)->op, XL_OP_NO_TOUCH);
	assert_int_equal(xl_labrow(3)->op, XL_OP_PARSE_IP);
}

/* --rows' help names the rows run only when named, from the table; cut to fit. */
static void test_named_help(void **state)
{
	char buf[400], small[12];

	assert_string_equal(xl_labrow_named_help(buf, sizeof(buf)),
			    "stack-drop (nftables raw prerouting drop, no XDP), tc-drop (BPF at clsact ingress), "
			    "tx/swap-macs (XDP_TX after swapping the MACs, xdp-bench tx's default), "
			    "meter-cost (drop/no-touch with the softirq-time hook and without, interleaved)");
	assert_string_equal(xl_labrow_named_help(small, sizeof(small)), "stack-drop ");
}

static void test_nrows(void **state)
{
	struct xl_labrun_opts o = { 0 };

	assert_int_equal(xl_labrow_nrows(xl_labrow(7), &o, false), 1);
	assert_int_equal(xl_labrow_nrows(xl_labrow(7), &o, true), 8);
	o.with_perf = o.with_floor = true;
	assert_int_equal(xl_labrow_nrows(xl_labrow(7), &o, true), 10);
	assert_int_equal(xl_labrow_nrows(xl_labrow(8), &o, true), 1);
	assert_int_equal(xl_labrow_nrows(xl_labrow(1), &o, true), 1);
	/* meter-cost: its two arms' rows, watching or not */
	assert_int_equal(xl_labrow_nrows(xl_labrow(21), &o, false), 2);
	assert_int_equal(xl_labrow_nrows(xl_labrow(21), &o, true), 2);
}

static void test_skip(void **state)
{
	struct xl_lab lab = { .wiring = XL_WIRING_SOFTIRQ };
	struct xl_row_result row;

	memset(&row, 0x5a, sizeof(row));
	assert_false(xl_labrow_skip(xl_labrow(1), &lab, 64, &row)); /* drop/no-touch runs */
	assert_int_equal(row.size, 0x5a5a5a5a);
	assert_false(xl_labrow_skip(xl_labrow(10), &lab, 64, &row)); /* xsk-rxdrop/drv runs */
	assert_true(xl_labrow_skip(xl_labrow(14), &lab, 1500, &row)); /* xsk-txpush/zc */
	assert_string_equal(row.name, "xsk-txpush");
	assert_string_equal(row.kind, "xsk");
	assert_string_equal(row.mode, "zc");
	assert_int_equal(row.size, 1500);
	assert_string_equal(row.wiring, "softirq");
	assert_int_equal(row.napi_cpu, -1);
	assert_int_equal(row.gen_cpu, -1);
	assert_int_equal(row.nreps, 0);
	assert_string_equal(row.note,
			    "skipped: needs the veth lab: AF_XDP txpush is counted at the veth peer");
	assert_true(xl_labrow_skip(xl_labrow(15), &lab, 64, &row)); /* xsk-l2fwd/skb */
	assert_string_equal(row.name, "xsk-l2fwd");
	assert_string_equal(row.mode, "skb");
	assert_true(xl_labrow_skip(xl_labrow(0), &lab, 64, &row));
	assert_string_equal(row.name, "gen-ceiling");
	assert_string_equal(row.kind, "gen");
	assert_string_equal(row.mode, "native");
	assert_string_equal(row.note,
			    "skipped: needs the veth lab: the ceiling is the lab's own generator's rate");
	assert_true(xl_labrow_skip(xl_labrow(8), &lab, 64, &row));
	assert_string_equal(row.name, "redirect-cpu");
	assert_string_equal(row.kind, "xdp");
	assert_string_equal(row.note, "skipped: needs the veth lab: its out pair is the redirect "
				      "target whose far end counts the frames");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_named_help),
		cmocka_unit_test(test_nrows),
		cmocka_unit_test(test_skip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
