// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_store.c - the results store on SQLite (src/lib/store/): a document
 * stored and read back byte for byte, its rows and repetitions, the same
 * bytes stored once, labels with quotes and SQL in them, the history's
 * series; bad input, one line each and the store unharmed: a document
 * that is not a results file, a corrupt file, a locked one, a store of a
 * newer schema, a missing file. tests/e2e/store.sh runs PostgreSQL and a
 * writer killed mid-run.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "xdplab/store.h"
#include "xdplab/trend.h"

#include "test_util.h"

static char dir[256], db[300];

static int setup(void **state)
{
	if (tmp_dir_make(dir, sizeof(dir), "store"))
		return -1;
	snprintf(db, sizeof(db), "%s/r.db", dir);
	return 0;
}

static int teardown(void **state)
{
	return tmp_dir_remove(dir);
}

/* A results document: one row, reps pps values @a and @b, CPU 50 and 60; @tag makes it unique. */
static char *doc(const char *date, double a, double b, const char *tag)
{
	char *t = NULL;

	assert_true(asprintf(&t,
			     "{\"schema\": \"xdplab.lab-results/1\", \"date\": \"%s\", \"git\": \"%s\","
			     " \"machine\": {\"kernel\": \"6.1\", \"arch\": \"x86_64\", \"cpus\": 2, \"host\": \"h\","
			     " \"vulnerabilities\": {\"meltdown\": \"Not affected\"}},"
			     " \"config\": {\"reps\": 2, \"seconds\": 1, \"warmup\": 0.25}, \"lab\": \"t\","
			     " \"rows\": [{\"name\": \"drop/no-touch\", \"packet_operation\": \"no-touch\", \"size\": 64,"
			     " \"mode\": \"native\", \"wiring\": \"threaded\", \"gen_engine\": \"live\","
			     " \"verdict\": \"valid\", \"note\": \"\", \"reps\": [{\"pps\": %.17g, \"cpu_ns_per_pkt\": 50},"
			     " {\"pps\": %.17g, \"cpu_ns_per_pkt\": 60}]}]}\n",
			     date, tag, a, b) > 0);
	return t;
}

static struct xl_store *open_ok(unsigned int flags)
{
	struct xl_store *s = NULL;
	char err[512] = "";

	assert_int_equal(xl_store_open(db, flags, &s, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	return s;
}

static int nruns(void)
{
	struct xl_store *s = open_ok(0);
	struct xl_store_run *runs;
	char err[512];
	int n;

	assert_int_equal(xl_store_list(s, NULL, &runs, &n, err, sizeof(err)), 0);
	free(runs);
	xl_store_close(s);
	return n;
}

static void test_roundtrip(void **state)
{
	static const char label[] = "v6.1'); DROP TABLE runs; -- \"x\"";
	struct xl_store *s = open_ok(XL_STORE_CREATE);
	struct xl_store_series *ser;
	struct xl_store_run run, *runs;
	char *t = doc("2026-12-01T00:00:00Z", 1234567.891234567, 2e6, "a"), *back, err[512];
	long long id = 0;
	size_t len;
	bool dup;
	int n;

	assert_int_equal(xl_store_add(s, t, strlen(t), label, "a.json", &id, &dup, err,
				      sizeof(err)), 0);
	assert_int_equal(id, 1);
	assert_false(dup);
	/* The same bytes again: the same run, nothing added. */
	assert_int_equal(xl_store_add(s, t, strlen(t), "other", "again.json", &id, &dup, err,
				      sizeof(err)), 0);
	assert_int_equal(id, 1);
	assert_true(dup);
	assert_int_equal(xl_store_doc(s, 1, &back, &len, &run, err, sizeof(err)), 0);
	assert_int_equal(len, strlen(t));
	assert_memory_equal(back, t, len);
	assert_string_equal(run.label, label);
	assert_string_equal(run.source, "a.json");
	assert_string_equal(run.host, "h");
	assert_string_equal(run.git, "a");
	assert_int_equal(run.nrows, 1);
	free(back);
	assert_int_equal(xl_store_list(s, label, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	free(runs);
	assert_int_equal(xl_store_list(s, "v6.1", &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	free(runs);
	assert_int_equal(xl_store_history(s, "drop/no-touch", NULL, NULL, &ser, &n, err,
					  sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ser[0].npts, 1);
	assert_int_equal(ser[0].size, 64);
	assert_string_equal(ser[0].wiring, "threaded");
	assert_int_equal(ser[0].pts[0].nreps, 2);
	assert_dbl_equal(ser[0].pts[0].pps[0], 1234567.891234567); /* exact: %.17g both ways */
	assert_dbl_equal(ser[0].pts[0].cpu_ns[1], 60);
	xl_store_series_free(ser, n);
	assert_int_equal(xl_store_doc(s, 2, &back, &len, NULL, err, sizeof(err)), -ENOENT);
	{
		char want[512];

		snprintf(want, sizeof(want), "%s: no run 2 (store list shows the runs)", db);
		assert_string_equal(err, want);
	}
	free(t);
	xl_store_close(s);
}

static void test_history_order(void **state)
{
	struct xl_store *s = open_ok(XL_STORE_CREATE);
	struct xl_store_series *ser;
	char *t, err[512];
	long long id;
	bool dup;
	int n, i;

	/* Stored out of date order: the history is by date. */
	for (i = 3; i >= 1; i--) {
		char date[32], tag[8];

		snprintf(date, sizeof(date), "2026-12-0%dT00:00:00Z", i);
		snprintf(tag, sizeof(tag), "r%d", i);
		t = doc(date, i * 1e6, i * 1e6, tag);
		assert_int_equal(xl_store_add(s, t, strlen(t), i == 2 ? "B" : "A", tag, &id, &dup,
					      err, sizeof(err)), 0);
		free(t);
	}
	assert_int_equal(xl_store_history(s, NULL, NULL, NULL, &ser, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ser[0].npts, 3);
	assert_string_equal(ser[0].pts[0].run.git, "r1");
	assert_string_equal(ser[0].pts[2].run.git, "r3");
	xl_store_series_free(ser, n);
	assert_int_equal(xl_store_history(s, NULL, "A", "2026-12-02", &ser, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ser[0].npts, 1);
	assert_string_equal(ser[0].pts[0].run.git, "r3");
	xl_store_series_free(ser, n);
	assert_int_equal(xl_store_history(s, "pass", NULL, NULL, &ser, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	xl_store_series_free(ser, n);
	xl_store_close(s);
}

static void test_bad_document(void **state)
{
	struct xl_store *s = open_ok(XL_STORE_CREATE);
	char err[512];
	long long id;
	bool dup;

	assert_int_equal(xl_store_add(s, "not json", 8, "", "x.json", &id, &dup, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "x.json: not JSON (line 1: '[' or '{' expected near 'not'); expected an xdplab results file (lab run --json)");
	assert_int_equal(xl_store_add(s, "{\"schema\": \"xdplab.lab-results/2\", \"rows\": []}", 46,
				      "", "v2.json", &id, &dup, err, sizeof(err)),
			 -EPROTO);
	assert_string_equal(err, "v2.json: schema xdplab.lab-results/2 is not supported (accepted: version 1, e.g. xdplab.lab-results/1)");
	xl_store_close(s);
	assert_int_equal(nruns(), 0);
}

static void test_newer_schema(void **state)
{
	struct xl_store *s = open_ok(XL_STORE_CREATE);
	char *t = doc("2026-12-01T00:00:00Z", 1e6, 1e6, "a"), err[512], want[512];
	sqlite3 *h;
	long long id;
	bool dup;

	assert_int_equal(xl_store_add(s, t, strlen(t), "", "a", &id, &dup, err, sizeof(err)), 0);
	xl_store_close(s);
	free(t);
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "UPDATE schema_version SET version = 2", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(xl_store_open(db, 0, &s, err, sizeof(err)), -EPROTO);
	snprintf(want, sizeof(want), "%s: store schema version 2 is newer than this xdplab's (1): use a newer xdplab", db);
	assert_string_equal(err, want);
	/* Unharmed: set back, the run is there. */
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "UPDATE schema_version SET version = 1", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(nruns(), 1);
}

static void test_corrupt_and_missing(void **state)
{
	struct xl_store *s;
	char err[512], want[512];
	int fd;

	assert_int_equal(xl_store_open(db, 0, &s, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: cannot open: No such file or directory (store import or lab run --store makes a store)", db);
	assert_string_equal(err, want);
	fd = open(db, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	{
		char junk[512];

		memset(junk, 'x', sizeof(junk)); /* longer than SQLite's 100-byte header */
		assert_int_equal(write(fd, junk, sizeof(junk)), sizeof(junk));
	}
	close(fd);
	assert_int_equal(xl_store_open(db, XL_STORE_CREATE, &s, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not an SQLite database, or a damaged one (file is not a database)", db);
	assert_string_equal(err, want);
}

static void test_locked(void **state)
{
	struct xl_store *s = open_ok(XL_STORE_CREATE);
	char *t = doc("2026-12-01T00:00:00Z", 1e6, 1e6, "a"), err[512], want[512];
	sqlite3 *h;
	long long id;
	bool dup;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
	setenv("XDPLAB_STORE_BUSY_MS", "20", 1);
	xl_store_close(s);
	assert_int_equal(xl_store_open(db, 0, &s, err, sizeof(err)), -EBUSY);
	snprintf(want, sizeof(want), "%s: locked by another process (still after waiting 20 ms: XDPLAB_STORE_BUSY_MS)", db);
	assert_string_equal(err, want);
	unsetenv("XDPLAB_STORE_BUSY_MS");
	assert_int_equal(sqlite3_exec(h, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	/* A writer's lock: the reader opens, the writer waits and gives up. */
	assert_int_equal(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	setenv("XDPLAB_STORE_BUSY_MS", "20", 1);
	s = open_ok(0);
	assert_int_equal(xl_store_add(s, t, strlen(t), "", "a.json", &id, &dup, err, sizeof(err)),
			 -EBUSY);
	snprintf(want, sizeof(want), "%s: cannot store a.json: locked by another process (still after waiting 20 ms: XDPLAB_STORE_BUSY_MS)", db);
	assert_string_equal(err, want);
	unsetenv("XDPLAB_STORE_BUSY_MS");
	assert_int_equal(sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	/* Unlocked, it stores. */
	assert_int_equal(xl_store_add(s, t, strlen(t), "", "a.json", &id, &dup, err, sizeof(err)), 0);
	xl_store_close(s);
	free(t);
	assert_int_equal(nruns(), 1);
}

static void test_default_path(void **state)
{
	char p[256];

	setenv("XDG_DATA_HOME", "/x/data", 1);
	assert_int_equal(xl_store_default_path(p, sizeof(p)), 0);
	assert_string_equal(p, "/x/data/xdplab/results.db");
	setenv("XDG_DATA_HOME", "", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(xl_store_default_path(p, sizeof(p)), 0);
	assert_string_equal(p, "/home/u/.local/share/xdplab/results.db");
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(xl_store_default_path(p, 10), -ENAMETOOLONG);
}

/*
 * The trend takes compare's run summary: a repetition at 0 pps is
 * infinitely slow (the median moves, the range is open), a run whose
 * median is 0 pps has no figure and is left out of the series tested.
 */
static void test_trend_run_summary(void **state)
{
	struct xl_store_point pts[3] = {
		{ .nreps = 3, .pps = { 1e7, 1e7, 1e7 }, .verdict = "valid" },
		{ .nreps = 3, .pps = { 1e7, 5e6, 0 }, .verdict = "valid" },
		{ .nreps = 3, .pps = { 0, 0, 1e7 }, .verdict = "valid" },
	};
	struct xl_store_series x = { .pts = pts, .npts = 3 };
	struct xl_cp_opts o = { .alpha = 0.01, .permutations = 199, .min_size = 2 };
	struct xl_trend t;

	assert_int_equal(xl_trend_of(&x, &o, &t), 0);
	assert_false(t.on_cpu);
	assert_dbl_equal(t.value[0], 100);
	assert_dbl_equal(t.value[1], 200); /* {100, 200, inf}: the median */
	assert_dbl_equal(t.lo[1], 100);
	assert_true(isinf(t.hi[1]));
	assert_true(isnan(t.value[2]));
	assert_int_equal(t.nvalues, 2);
	assert_int_equal(t.ncp, 0);
	assert_int_equal(t.last_point, -1); /* 2 runs: too few to test */
	xl_trend_free(&t);
	/* Generator-bound with CPU figures everywhere: judged on CPU ns/packet. */
	snprintf(pts[0].verdict, sizeof(pts[0].verdict), "generator-bound");
	pts[0].cpu_ns[0] = pts[0].cpu_ns[1] = pts[0].cpu_ns[2] = 50;
	pts[1].cpu_ns[0] = pts[1].cpu_ns[1] = pts[1].cpu_ns[2] = 60;
	pts[2].cpu_ns[0] = pts[2].cpu_ns[1] = pts[2].cpu_ns[2] = 70;
	assert_int_equal(xl_trend_of(&x, &o, &t), 0);
	assert_true(t.on_cpu);
	assert_dbl_equal(t.value[2], 70);
	assert_int_equal(t.nvalues, 3);
	xl_trend_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_history_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_document, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_and_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked, setup, teardown),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_trend_run_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
