// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_compare_out.c - unit tests of the comparison's library API around
 * the statistics: a side's files read from paths and directories
 * (xl_cmp_load_side(), compare_load.c), bisect-step's row filter
 * (xl_cmp_file_keep()) and its lines (xl_cmp_write_cases()), the writers' contract (xdplab/compare_out.h: the
 * FILE * given, -EINVAL for CSV of several runs), and the store's
 * listings and file reading (xdplab/store_io.h). The outputs themselves
 * are held byte for byte by the e2e compare and store tests.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "xdplab/compare.h"
#include "xdplab/compare_out.h"
#include "xdplab/compare_runs.h"
#include "xdplab/store_io.h"

#include "test_util.h"

static char dir[256];

static int setup_dir(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "compare-out");
}

static int teardown_dir(void **state)
{
	return tmp_dir_remove(dir);
}

/* @dir/@name with the results document of rows @names (comma-separated), 3 repetitions each. */
static void write_run(const char *name, const char *names, double pps)
{
	char path[512], list[256], *save, *n;
	FILE *f;
	int first = 1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\": \"xdplab.lab-results/1\", \"date\": \"2026-12-01T00:00:00Z\", \"git\": \"abc\","
		   " \"machine\": {\"kernel\": \"6.18\", \"cpus\": 2, \"host\": \"h\"},"
		   " \"config\": {\"reps\": 3, \"seconds\": 1, \"warmup\": 0.25}, \"rows\": [");
	snprintf(list, sizeof(list), "%s", names);
	for (n = strtok_r(list, ",", &save); n; n = strtok_r(NULL, ",", &save), first = 0)
		fprintf(f, "%s{\"name\": \"%s\", \"packet_operation\": \"no-touch\", \"size\": 64,"
			   " \"mode\": \"native\", \"wiring\": \"threaded\", \"gen_engine\": \"live\","
			   " \"verdict\": \"valid\", \"reps\": [{\"pps\": %g, \"cpu_ns_per_pkt\": 0},"
			   " {\"pps\": %g, \"cpu_ns_per_pkt\": 0}, {\"pps\": %g, \"cpu_ns_per_pkt\": 0}]}",
			first ? "" : ", ", n, pps, pps + 1, pps + 2);
	fprintf(f, "]}\n");
	fclose(f);
}

static void free_files(struct xl_cmp_file *f, int n)
{
	int i;

	for (i = 0; i < n; i++)
		xl_cmp_file_free(&f[i]);
}

/* A directory: its *.json by name, calibration.json and dot files aside; the cap; errors. */
static void test_load_side(void **state)
{
	struct xl_cmp_file f[3] = { 0 };
	char sub[300], path[400], calib[400] = "", err[512], want[600];
	char *paths[2] = { sub, path };
	int nf = 0;

	snprintf(sub, sizeof(sub), "%s/runs", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_run("runs/b.json", "drop/no-touch", 2e6);
	write_run("runs/a.json", "drop/no-touch", 1e6);
	write_run("runs/calibration.json", "drop/no-touch", 1e6);
	write_run("runs/.hidden.json", "drop/no-touch", 1e6);
	write_run("runs/notes.txt", "drop/no-touch", 1e6);
	write_run("c.json", "pass", 3e6);
	snprintf(path, sizeof(path), "%s/c.json", dir);
	assert_int_equal(xl_cmp_load_side(paths, 2, f, 3, &nf, calib, sizeof(calib), err,
					  sizeof(err)), 0);
	assert_int_equal(nf, 3);
	snprintf(want, sizeof(want), "%s/a.json", sub);
	assert_string_equal(f[0].path, want);
	snprintf(want, sizeof(want), "%s/b.json", sub);
	assert_string_equal(f[1].path, want);
	assert_string_equal(f[2].path, path);
	assert_string_equal(f[2].rows[0].name, "pass");
	snprintf(want, sizeof(want), "%s/calibration.json", sub);
	assert_string_equal(calib, want);
	free_files(f, nf);

	/* One more than the cap: the message names the path, the files before it are kept. */
	nf = 0;
	assert_int_equal(xl_cmp_load_side(paths, 2, f, 2, &nf, NULL, 0, err, sizeof(err)), -E2BIG);
	assert_int_equal(nf, 2);
	snprintf(want, sizeof(want), "%s: more than %d runs a side", path, XL_CMP_MAX_RUNS);
	assert_string_equal(err, want);
	free_files(f, nf);

	/* A directory without a results file. */
	snprintf(sub, sizeof(sub), "%s/empty", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	nf = 0;
	assert_int_equal(xl_cmp_load_side(paths, 1, f, 3, &nf, NULL, 0, err, sizeof(err)), -ENODATA);
	snprintf(want, sizeof(want), "%s: no results file (*.json) in the directory", sub);
	assert_string_equal(err, want);
	assert_int_equal(nf, 0);

	/* A missing file: the reader's error. */
	snprintf(sub, sizeof(sub), "%s/none.json", dir);
	assert_int_equal(xl_cmp_load_side(paths, 1, f, 3, &nf, NULL, 0, err, sizeof(err)), -ENOENT);
	assert_int_equal(nf, 0);
}

/* bisect-step's --row: exact names, in order; none left is 0. */
static void test_file_keep(void **state)
{
	struct xl_cmp_file f;
	char path[400], err[512];

	write_run("keep.json", "drop/no-touch,pass,tx,pass2", 1e6);
	snprintf(path, sizeof(path), "%s/keep.json", dir);
	assert_int_equal(xl_cmp_load(path, &f, err, sizeof(err)), 0);
	assert_int_equal(xl_cmp_file_keep(&f, "tx,pass"), 2);
	assert_int_equal(f.nrows, 2);
	assert_string_equal(f.rows[0].name, "pass");
	assert_string_equal(f.rows[1].name, "tx");
	assert_int_equal(xl_cmp_file_keep(&f, "pas,t"), 0);
	assert_int_equal(f.nrows, 0);
	xl_cmp_file_free(&f);
}

/* The writers write to the FILE * given: JSON of two files; CSV refused for several runs. */
static void test_writers(void **state)
{
	struct xl_cmp_file f[2];
	struct xl_cmp_result res;
	struct xl_cmp_latresult lr = { 0 };
	struct xl_cmp_mresult mres;
	struct xl_cmp_tally t;
	struct xl_cmp_view v = { .format = XL_CMP_OUT_JSON, .o = { .alpha = 0.05 } };
	struct memout m;
	char path[2][400], err[512], *text;
	json_t *doc;

	write_run("base.json", "drop/no-touch", 1e6);
	write_run("new.json", "drop/no-touch", 2e6);
	snprintf(path[0], sizeof(path[0]), "%s/base.json", dir);
	snprintf(path[1], sizeof(path[1]), "%s/new.json", dir);
	assert_int_equal(xl_cmp_load(path[0], &f[0], err, sizeof(err)), 0);
	assert_int_equal(xl_cmp_load(path[1], &f[1], err, sizeof(err)), 0);
	assert_int_equal(xl_cmp_run(&f[0], &f[1], &v.o, &res), 0);
	assert_int_equal(xl_cmp_write_two(mem_start(&m), &f[0], &f[1], &res, &lr, &v), 0);
	text = mem_end(&m);
	doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "xdplab.compare/1");
	/* 3 vs 3 repetitions cannot reach p < 0.05. */
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(doc, "rows"), 0), "verdict")),
			    "too-few-reps");
	json_decref(doc);
	free(text);
	/* bisect-step's lines: a row's outcome in one line, counted. */
	assert_int_equal(xl_cmp_write_cases(mem_start(&m), &res, NULL, 0.05, &t), 0);
	text = mem_end(&m);
	assert_string_equal(text, "drop/no-touch 64 native threaded: too few reps: 3 vs 3 repetitions"
				  " can never reach p < 0.05 (the smallest p they can give is 0.100)\n");
	assert_int_equal(t.skip, 1);
	assert_int_equal(t.pass + t.fail, 0);
	assert_string_equal(t.first_fail, "");
	free(text);
	xl_cmp_result_free(&res);

	assert_int_equal(xl_cmp_runs(f, 1, 1, &v.o, &mres), 0);
	v.format = XL_CMP_OUT_CSV;
	assert_int_equal(xl_cmp_write_runs(mem_start(&m), f, 1, 1, &mres, &v), -EINVAL);
	text = mem_end(&m);
	assert_string_equal(text, "");
	free(text);
	v.format = XL_CMP_OUT_TEXT;
	assert_int_equal(xl_cmp_write_runs(mem_start(&m), f, 1, 1, &mres, &v), 0);
	text = mem_end(&m);
	assert_true(!strncmp(text, "xdplab compare: 1 base runs vs 1 new runs\n", 42));
	free(text);
	xl_cmp_mresult_free(&mres);
	free_files(f, 2);
}

/* store list's lines, text from the store escaped; a results file read for import. */
static void test_store_io(void **state)
{
	struct xl_store_run runs[2] = {
		{ .id = 1, .date = "2026-12-01T00:00:00Z", .label = "v6.18", .git = "abc",
		  .host = "h", .kernel = "6.18", .nrows = 3, .source = "a.json" },
		{ .id = 12, .date = "2026-12-02T00:00:00Z", .git = "def", .kernel = "6.19",
		  .nrows = 1, .source = "b\033.json" },
	};
	struct memout m;
	char err[512], want[600], *text;
	size_t len;

	assert_int_equal(xl_store_write_list(mem_start(&m), runs, 2, "s.db"), 0);
	text = mem_end(&m);
	assert_string_equal(text,
		"    id  date                  label                     commit        host              kernel                    rows  source\n"
		"     1  2026-12-01T00:00:00Z  v6.18                     abc           h                 6.18                         3  a.json\n"
		"    12  2026-12-02T00:00:00Z  -                         def           ?                 6.19                         1  b\\x1b.json\n"
		"2 run(s) in s.db\n");
	free(text);

	write_run("doc.json", "pass", 1e6);
	snprintf(want, sizeof(want), "%s/doc.json", dir);
	assert_int_equal(xl_store_read_file(want, &text, &len, err, sizeof(err)), 0);
	assert_int_equal(len, strlen(text));
	assert_true(!strncmp(text, "{\"schema\": \"xdplab.lab-results/1\"", 33));
	free(text);
	assert_int_equal(xl_store_read_file(dir, &text, &len, err, sizeof(err)), -EISDIR);
	snprintf(want, sizeof(want), "%s: Is a directory", dir);
	assert_string_equal(err, want);
	snprintf(want, sizeof(want), "%s/none.json", dir);
	assert_int_equal(xl_store_read_file(want, &text, &len, err, sizeof(err)), -ENOENT);
	assert_int_equal(xl_store_read_file("/dev/null", &text, &len, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "/dev/null: not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_side),
		cmocka_unit_test(test_file_keep),
		cmocka_unit_test(test_writers),
		cmocka_unit_test(test_store_io),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
