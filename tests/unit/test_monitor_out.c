// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_monitor_out.c - `xdplab monitor`'s output (src/cmd/cmd_monitor_out.c)
 * byte for byte from fixed counts: the interval rows, the totals and the
 * JSON records, with -e (a row per CPU, pkts/event, the cpumap kthread's
 * sched count and rate) and without (no sched anywhere, as before -e
 * carried it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "../../src/cmd/monitor_cli.h"

#define NCPUS 2

/*
 * Two reads 1 s apart on two CPUs: the cpumap kthread on CPU 1 (300
 * events, 320 frames, 285 of its loops had slept) and, new in the window,
 * 4 events on CPU 0 (10 frames, 1 slept); a redirect error on CPU 0
 * (30 events). Sums: @prev from the per-CPU snapshots, as
 * xl_monitor__read_cpus() makes them.
 */
static struct xl_mon_snapshot prev, cur, pcpu[NCPUS], ccpu[NCPUS];
static struct xl_mon_val d[NCPUS];
static const struct xl_mon_key kth = { XL_EV_CPUMAP_KTHREAD, XL_MON_ACT_NONE, 0, 0 };
static const struct xl_mon_key rerr = { XL_EV_REDIRECT_ERR, 4, 7, 100 /* ENETDOWN */ };

static int setup(void **state)
{
	const struct xl_mon_val k1p = { 100, 100, 0, 95 }, k1c = { 400, 420, 0, 380 },
				k0c = { 4, 10, 0, 1 }, r0p = { 20, 20, 20, 0 }, r0c = { 50, 50, 50, 0 };
	int c;

	memset(&prev, 0, sizeof(prev));
	memset(&cur, 0, sizeof(cur));
	memset(pcpu, 0, sizeof(pcpu));
	memset(ccpu, 0, sizeof(ccpu));
	xl_mon_add(&pcpu[1], &kth, &k1p);
	xl_mon_add(&pcpu[0], &rerr, &r0p);
	xl_mon_add(&ccpu[1], &kth, &k1c);
	xl_mon_add(&ccpu[0], &kth, &k0c);
	xl_mon_add(&ccpu[0], &rerr, &r0c);
	for (c = 0; c < NCPUS; c++) {
		int i;

		for (i = 0; i < pcpu[c].n; i++)
			xl_mon_add(&prev, &pcpu[c].rows[i].key, &pcpu[c].rows[i].val);
		for (i = 0; i < ccpu[c].n; i++)
			xl_mon_add(&cur, &ccpu[c].rows[i].key, &ccpu[c].rows[i].val);
		xl_mon_sort(&pcpu[c]);
		xl_mon_sort(&ccpu[c]);
	}
	xl_mon_sort(&prev);
	xl_mon_sort(&cur);
	return 0;
}

static char *print_rows(bool ext)
{
	struct xl_mon_cpus pc = { pcpu, ccpu, ext ? NCPUS : 0, d };
	struct capture cap;

	cap_start(&cap, 1);
	xl_mon_cli_print(2.0, &prev, &cur, 1000000000ull, &pc);
	return cap_end(&cap);
}

static char *print_totals(bool ext)
{
	struct xl_mon_cpus pc = { NULL, ccpu, ext ? NCPUS : 0, d };
	struct capture cap;

	cap_start(&cap, 1);
	xl_mon_cli_totals(&cur, 2.0, &pc);
	return cap_end(&cap);
}

static char *json_text(bool ext, bool totals)
{
	struct xl_mon_cpus pc = { totals ? NULL : pcpu, ccpu, ext ? NCPUS : 0, d };
	json_t *j = xl_mon_cli_json(totals ? "totals" : "interval", 2.0, totals ? NULL : &prev,
				    &cur, 1000000000ull, &pc);
	char *s;

	assert_non_null(j);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	assert_non_null(s);
	return s;
}

/* -e: the kthread's rows end with its sched/s, the other key's with "-". */
static void test_rows_extended(void **state)
{
	char *out = print_rows(true);

	assert_string_equal(out,
		"   2.000 s  xdp_redirect_err      REDIRECT         7  ENETDOWN              30           30           30             50       1.00          -\n"
		"              cpu 0                                                         30           30           30             50       1.00          -\n"
		"   2.000 s  xdp_cpumap_kthread    -                0  -                    304          330            0            404       1.09        286\n"
		"              cpu 0                                                          4           10            0              4       2.50          1\n"
		"              cpu 1                                                        300          320            0            400       1.07        285\n");
	free(out);
}

/* Without -e: the columns before -e existed, no sched. */
static void test_rows_plain(void **state)
{
	char *out = print_rows(false);

	assert_string_equal(out,
		"   2.000 s  xdp_redirect_err      REDIRECT         7  ENETDOWN              30           30           30             50\n"
		"   2.000 s  xdp_cpumap_kthread    -                0  -                    304          330            0            404\n");
	free(out);
}

static void test_totals(void **state)
{
	char *ext = print_totals(true), *plain = print_totals(false);

	assert_string_equal(plain,
		"totals in 2.000 s: 2 key(s)\n"
		"  xdp_redirect_err      REDIRECT   ifindex 7    ENETDOWN    events 50 packets 50 drops 50\n"
		"  xdp_cpumap_kthread    -          ifindex 0    -           events 404 packets 430 drops 0\n");
	assert_string_equal(ext,
		"totals in 2.000 s: 2 key(s)\n"
		"  xdp_redirect_err      REDIRECT   ifindex 7    ENETDOWN    events 50 packets 50 drops 50\n"
		"    cpu 0   events 50 packets 50 drops 50 packets/event 1.00\n"
		"  xdp_cpumap_kthread    -          ifindex 0    -           events 404 packets 430 drops 0 sched 381\n"
		"    cpu 0   events 4 packets 10 drops 0 packets/event 2.50 sched 1\n"
		"    cpu 1   events 400 packets 420 drops 0 packets/event 1.05 sched 380\n");
	free(ext);
	free(plain);
}

/* JSON: "sched" on the kthread's row and its per_cpu entries with -e only. */
static void test_json(void **state)
{
	char *iv = json_text(true, false), *tot = json_text(true, true), *plain = json_text(false, false);

	assert_string_equal(plain,
		"{\"rows\":[{\"action\":\"REDIRECT\",\"drops\":30,\"drops_per_s\":30.0,\"errno\":100,"
		"\"errno_name\":\"ENETDOWN\",\"event\":\"xdp_redirect_err\",\"events\":30,"
		"\"events_per_s\":30.0,\"ifindex\":7,\"packets\":30,\"packets_per_s\":30.0},"
		"{\"action\":\"-\",\"drops\":0,\"drops_per_s\":0.0,\"errno\":0,\"errno_name\":\"-\","
		"\"event\":\"xdp_cpumap_kthread\",\"events\":304,\"events_per_s\":304.0,\"ifindex\":0,"
		"\"packets\":330,\"packets_per_s\":330.0}],\"t\":2.0,\"type\":\"interval\"}");
	assert_string_equal(iv,
		"{\"rows\":[{\"action\":\"REDIRECT\",\"drops\":30,\"drops_per_s\":30.0,\"errno\":100,"
		"\"errno_name\":\"ENETDOWN\",\"event\":\"xdp_redirect_err\",\"events\":30,"
		"\"events_per_s\":30.0,\"ifindex\":7,\"packets\":30,\"packets_per_s\":30.0,"
		"\"per_cpu\":[{\"cpu\":0,\"drops\":30,\"events\":30,\"packets\":30}]},"
		"{\"action\":\"-\",\"drops\":0,\"drops_per_s\":0.0,\"errno\":0,\"errno_name\":\"-\","
		"\"event\":\"xdp_cpumap_kthread\",\"events\":304,\"events_per_s\":304.0,\"ifindex\":0,"
		"\"packets\":330,\"packets_per_s\":330.0,"
		"\"per_cpu\":[{\"cpu\":0,\"drops\":0,\"events\":4,\"packets\":10,\"sched\":1},"
		"{\"cpu\":1,\"drops\":0,\"events\":300,\"packets\":320,\"sched\":285}],"
		"\"sched\":286,\"sched_per_s\":286.0}],\"t\":2.0,\"type\":\"interval\"}");
	assert_string_equal(tot,
		"{\"rows\":[{\"action\":\"REDIRECT\",\"drops\":50,\"errno\":100,"
		"\"errno_name\":\"ENETDOWN\",\"event\":\"xdp_redirect_err\",\"events\":50,\"ifindex\":7,"
		"\"packets\":50,\"per_cpu\":[{\"cpu\":0,\"drops\":50,\"events\":50,\"packets\":50}]},"
		"{\"action\":\"-\",\"drops\":0,\"errno\":0,\"errno_name\":\"-\","
		"\"event\":\"xdp_cpumap_kthread\",\"events\":404,\"ifindex\":0,\"packets\":430,"
		"\"per_cpu\":[{\"cpu\":0,\"drops\":0,\"events\":4,\"packets\":10,\"sched\":1},"
		"{\"cpu\":1,\"drops\":0,\"events\":400,\"packets\":420,\"sched\":380}],"
		"\"sched\":381}],\"t\":2.0,\"type\":\"totals\"}");
	free(iv);
	free(tot);
	free(plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_rows_extended, setup),
		cmocka_unit_test_setup(test_rows_plain, setup),
		cmocka_unit_test_setup(test_totals, setup),
		cmocka_unit_test_setup(test_json, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
