// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_prom.c - the Prometheus text exposition (src/lib/core/prom.c, the
 * escaper in core/escape.c) and the files --prometheus writes
 * (src/cmd/prom_cli.c): byte for byte, from fixed counts; label values
 * with quotes, backslashes, newlines and broken UTF-8 escaped; the file
 * replaced whole (no temporary left beside it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/cmd/prom_cli.h"
#include "xdplab/escape.h"
#include "xdplab/prom.h"
#include "xdplab/tmpdir.h"

/* @fill(@ctx) into a string (static buffer). */
static const char *text(void (*fill)(FILE *f, const void *ctx), const void *ctx)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	fill(f, ctx);
	fclose(f);
	return buf;
}

struct sample {
	const char *v;
	double d;
};

static void fill_values(FILE *f, const void *ctx)
{
	const struct xl_prom_label l[] = {
		{ "dev", "a\"b\\c\nd\x01" },
		{ "name", "x\xe2\x82" }, /* cut inside a character */
	};

	(void)ctx;
	xl_prom_family(f, "t_total", "counter", "say \"a\\b\"\nnext");
	xl_prom_sample(f, "t_total", l, 2, 3);
	xl_prom_sample(f, "t_total", NULL, 0, 0.25);
	xl_prom_sample(f, "t_total", NULL, 0, 1e300 * 1e300);
	xl_prom_sample(f, "t_total", NULL, 0, 0.0 / 0.0 * 0);
	xl_prom_sample_u64(f, "t_total", NULL, 0, UINT64_MAX);
}

static void test_escape_and_values(void **state)
{
	assert_string_equal(text(fill_values, NULL),
			    "# HELP t_total say \"a\\\\b\"\\nnext\n"
			    "# TYPE t_total counter\n"
			    "t_total{dev=\"a\\\"b\\\\c\\nd\",name=\"x\xef\xbf\xbd\xef\xbf\xbd\"} 3\n"
			    "t_total 0.25\n"
			    "t_total +Inf\n"
			    "t_total NaN\n"
			    "t_total 18446744073709551615\n");
}

static void test_bench_file(void **state)
{
	struct xl_meter_window total = { .packets = 1000, .bytes = 64000, .errors = 2,
					 .ns = 2500000000ull, .actions = { 0, 998, 0, 0, 0 } };
	struct xl_meter_window last = { .pps = 400.5, .cpu_busy = 0.5, .cpu_ns_per_pkt = 123.25 };
	struct xl_cmd_prom_bench b = { "drop", "veth\"0", &total, &last };

	total.actions[0] = 2;
	assert_string_equal(text(xl_cmd_prom_bench_fill, &b),
		"# HELP xdplab_packets_total Frames the XDP program counted since the start.\n"
		"# TYPE xdplab_packets_total counter\n"
		"xdplab_packets_total{command=\"drop\",iface=\"veth\\\"0\"} 1000\n"
		"# HELP xdplab_bytes_total Bytes of the frames the XDP program counted since the start (no FCS).\n"
		"# TYPE xdplab_bytes_total counter\n"
		"xdplab_bytes_total{command=\"drop\",iface=\"veth\\\"0\"} 64000\n"
		"# HELP xdplab_errors_total Frames the XDP program counted as errors since the start.\n"
		"# TYPE xdplab_errors_total counter\n"
		"xdplab_errors_total{command=\"drop\",iface=\"veth\\\"0\"} 2\n"
		"# HELP xdplab_xdp_actions_total Frames by the XDP action the program returned, since the start.\n"
		"# TYPE xdplab_xdp_actions_total counter\n"
		"xdplab_xdp_actions_total{command=\"drop\",iface=\"veth\\\"0\",action=\"XDP_ABORTED\"} 2\n"
		"xdplab_xdp_actions_total{command=\"drop\",iface=\"veth\\\"0\",action=\"XDP_DROP\"} 998\n"
		"xdplab_xdp_actions_total{command=\"drop\",iface=\"veth\\\"0\",action=\"XDP_PASS\"} 0\n"
		"xdplab_xdp_actions_total{command=\"drop\",iface=\"veth\\\"0\",action=\"XDP_TX\"} 0\n"
		"xdplab_xdp_actions_total{command=\"drop\",iface=\"veth\\\"0\",action=\"XDP_REDIRECT\"} 0\n"
		"# HELP xdplab_measured_seconds_total Seconds of the windows the counters cover.\n"
		"# TYPE xdplab_measured_seconds_total counter\n"
		"xdplab_measured_seconds_total{command=\"drop\",iface=\"veth\\\"0\"} 2.5\n"
		"# HELP xdplab_packets_per_second Frames per second the XDP program counted in the last interval.\n"
		"# TYPE xdplab_packets_per_second gauge\n"
		"xdplab_packets_per_second{command=\"drop\",iface=\"veth\\\"0\"} 400.5\n"
		"# HELP xdplab_dut_cpu_busy_ratio Busy share of the judged DUT CPU in the last interval (0..1).\n"
		"# TYPE xdplab_dut_cpu_busy_ratio gauge\n"
		"xdplab_dut_cpu_busy_ratio{command=\"drop\",iface=\"veth\\\"0\"} 0.5\n"
		"# HELP xdplab_dut_cpu_seconds_per_packet DUT CPU time per frame in the last interval, seconds (0: not measured).\n"
		"# TYPE xdplab_dut_cpu_seconds_per_packet gauge\n"
		"xdplab_dut_cpu_seconds_per_packet{command=\"drop\",iface=\"veth\\\"0\"} 1.2325e-07\n");
}

static void test_monitor_file(void **state)
{
	static struct xl_mon_snapshot s;
	struct xl_cmd_prom_mon m = { &s, 1.5 };

	s.n = 2;
	s.rows[0] = (struct xl_mon_row){ { .event = XL_EV_EXCEPTION, .action = 0, .ifindex = 3 },
					 { .events = 5, .packets = 5, .drops = 0 } };
	s.rows[1] = (struct xl_mon_row){ { .event = XL_EV_REDIRECT_ERR, .action = 4, .ifindex = 7,
					   .err = ENETDOWN },
					 { .events = 2, .packets = 2, .drops = 2 } };
	assert_string_equal(text(xl_cmd_prom_mon_fill, &m),
		"# HELP xdplab_monitor_events_total xdp tracepoint events since the start, by event, action, ifindex and errno.\n"
		"# TYPE xdplab_monitor_events_total counter\n"
		"xdplab_monitor_events_total{event=\"xdp_exception\",action=\"ABORTED\",ifindex=\"3\",errno=\"-\"} 5\n"
		"xdplab_monitor_events_total{event=\"xdp_redirect_err\",action=\"REDIRECT\",ifindex=\"7\",errno=\"ENETDOWN\"} 2\n"
		"# HELP xdplab_monitor_packets_total Frames the events carried since the start (a bulk event carries several).\n"
		"# TYPE xdplab_monitor_packets_total counter\n"
		"xdplab_monitor_packets_total{event=\"xdp_exception\",action=\"ABORTED\",ifindex=\"3\",errno=\"-\"} 5\n"
		"xdplab_monitor_packets_total{event=\"xdp_redirect_err\",action=\"REDIRECT\",ifindex=\"7\",errno=\"ENETDOWN\"} 2\n"
		"# HELP xdplab_monitor_drops_total Frames the events reported dropped since the start.\n"
		"# TYPE xdplab_monitor_drops_total counter\n"
		"xdplab_monitor_drops_total{event=\"xdp_exception\",action=\"ABORTED\",ifindex=\"3\",errno=\"-\"} 0\n"
		"xdplab_monitor_drops_total{event=\"xdp_redirect_err\",action=\"REDIRECT\",ifindex=\"7\",errno=\"ENETDOWN\"} 2\n"
		"# HELP xdplab_monitor_seconds_total Seconds since monitor's first sample.\n"
		"# TYPE xdplab_monitor_seconds_total counter\n"
		"xdplab_monitor_seconds_total 1.5\n");
}

static void fill_one(FILE *f, const void *ctx)
{
	fprintf(f, "x_total %s\n", (const char *)ctx);
}

/* Written whole, replaced each time, nothing else left in the directory. */
static void test_write_replaces(void **state)
{
	char dir[4096], path[4200], buf[64];
	FILE *f;
	size_t n;

	assert_int_equal(xl_run_mkdtemp(dir, sizeof(dir), "xdplab-test-prom"), 0);
	snprintf(path, sizeof(path), "%s/x.prom", dir);
	assert_int_equal(xl_cmd_prom_check(path), 0);
	assert_int_equal(access(path, F_OK), -1); /* the check leaves nothing */
	assert_int_equal(xl_cmd_prom_write(path, fill_one, "1"), 0);
	assert_int_equal(xl_cmd_prom_write(path, fill_one, "2"), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	assert_string_equal(buf, "x_total 2\n");
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* empty: no temporary left */
	snprintf(path, sizeof(path), "%s/none/x.prom", dir);
	assert_int_equal(xl_cmd_prom_check(path), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_and_values),
		cmocka_unit_test(test_bench_file),
		cmocka_unit_test(test_monitor_file),
		cmocka_unit_test(test_write_replaces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
