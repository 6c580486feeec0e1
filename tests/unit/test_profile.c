// SPDX-License-Identifier: BSD-2-Clause
/*
 * Profiles: folding `perf script` text (tests/unit/data/perf-script.txt,
 * written by hand in the format of perf-script(1) with -F
 * comm,tid,cpu,period,ip,sym,dso: a sample on a CPU we do not record, a
 * comm with a space, pid/tid and tid-only headers), the top-symbols table,
 * and the flame graph's layout and SVG.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"
#include "xdplab/profile.h"

#define BPF_SYM "bpf_prog_c38132485c1667b0_xdp_bench_action"

static const struct xl_prof_cpu cpus[] = { { 1, "dut" }, { 0, "gen" } };

static struct xl_folded *load_fixture(void)
{
	char path[512], *slash;
	struct xl_folded *f = xl_folded__new();
	struct xl_perf_script_stats st = { 0 };
	FILE *in;

	snprintf(path, sizeof(path), "%s", __FILE__);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, sizeof(path) - (slash ? slash + 1 - path : 0),
		 "data/perf-script.txt");
	in = fopen(path, "r");
	assert_non_null(in);
	assert_non_null(f);
	assert_int_equal(xl_folded__parse_perf_script(f, in, cpus, 2, &st), 0);
	assert_int_equal(st.unparsed, 0);
	fclose(in);
	return f;
}

static char *folded_text(struct xl_folded *f)
{
	struct memout m;

	assert_int_equal(xl_folded__write(f, mem_start(&m)), 0);
	return mem_end(&m);
}

static void test_fold_fixture(void **state)
{
	struct xl_folded *f = load_fixture();
	char *text = folded_text(f);

	assert_string_equal(text,
		"cpu0 gen;Web Content;[unknown];memcpy 1\n"
		"cpu1 dut;ksoftirqd/1;veth_poll;veth_xdp_rcv 1\n"
		"cpu1 dut;xdplab;veth_poll;veth_xdp_rcv;veth_xdp_rcv_one 1\n"
		"cpu1 dut;xdplab;veth_poll;veth_xdp_rcv;veth_xdp_rcv_one;" BPF_SYM " 2\n");
	assert_int_equal(xl_folded__samples(f, NULL), 5);
	assert_int_equal(xl_folded__samples(f, "cpu1 dut"), 4);
	assert_int_equal(xl_folded__samples(f, "cpu0 gen"), 1);
	assert_int_equal(xl_folded__samples(f, "cpu1"), 0); /* a root frame, not a prefix */
	free(text);
	xl_folded__free(f);
}

static void test_fold_all_cpus(void **state)
{
	char path[512], *slash, *text;
	struct xl_folded *f = xl_folded__new();
	FILE *in;

	snprintf(path, sizeof(path), "%s", __FILE__);
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "data/perf-script.txt");
	in = fopen(path, "r");
	assert_non_null(in);
	assert_int_equal(xl_folded__parse_perf_script(f, in, NULL, 0, NULL), 0);
	fclose(in);
	assert_int_equal(xl_folded__samples(f, NULL), 6);
	assert_int_equal(xl_folded__samples(f, "cpu2"), 1);
	text = folded_text(f);
	assert_non_null(strstr(text, "cpu2;swapper;default_idle 1\n"));
	free(text);
	xl_folded__free(f);
}

/* Open tests/unit/data/@name. */
static FILE *open_data(const char *name)
{
	char path[512], *slash;
	FILE *in;

	snprintf(path, sizeof(path), "%s", __FILE__);
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, sizeof(path) - (slash ? slash + 1 - path : 0), "data/%s",
		 name);
	in = fopen(path, "r");
	assert_non_null(in);
	return in;
}

/*
 * Lines of neither shape are skipped and counted; the rest of the text
 * is folded. (Each of these returned -EBADMSG and gave no profile.)
 */
static void test_fold_bad_input(void **state)
{
	static const struct {
		const char *text, *folded;
		unsigned long lines, unparsed, first;
	} cases[] = {
		{ "no cpu field here\nx 1 [000] 1\n\tffffffff81000000 default_idle ([kernel.kallsyms])\n",
		  "cpu0;x;default_idle 1\n", 3, 1, 1 },
		/* a frame before any sample */
		{ "\tffffffff81000000 default_idle ([kernel.kallsyms])\n", "", 1, 1, 1 },
		/* a frame that is not one inside a sample: the stack keeps its depth */
		{ "x 1 [000] 1\n\tnot-hex frame (dso)\n\tffffffff81000000 f ([kernel.kallsyms])\n",
		  "cpu0;x;f;[unparsed] 1\n", 3, 1, 2 },
		/* a perf killed while writing: the last header cut short */
		{ "x 1 [000] 1\n\tffffffff81000000 f ([kernel.kallsyms])\n\nxdplab 31", "cpu0;x;f 1\n", 4,
		  1, 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xl_perf_script_stats st = { 99, 99, 99 };
		struct xl_folded *f = xl_folded__new();
		FILE *in = fmemopen((void *)cases[i].text, strlen(cases[i].text), "r");
		char *text;

		assert_int_equal(xl_folded__parse_perf_script(f, in, NULL, 0, &st), 0);
		text = folded_text(f);
		assert_string_equal(text, cases[i].folded);
		assert_int_equal(st.lines, cases[i].lines);
		assert_int_equal(st.unparsed, cases[i].unparsed);
		assert_int_equal(st.first_unparsed, cases[i].first);
		free(text);
		fclose(in);
		xl_folded__free(f);
	}
}

/*
 * tests/unit/data/perf-script-hostile.txt: samples recorded by perf 6.1
 * (-F comm,tid,cpu,period,ip,sym,symoff,dso) of a task named " sp ace
 * [007] 5" (a leading space, brackets, a number) running a library under
 * "/tmp/h6p/my lib/", with "+0x" offsets, and a thread perf knew nothing
 * of (":-1    -1", recorded during drop); then, by hand, a dso path with
 * parentheses and " (deleted)", a line that is no frame inside a sample,
 * a line before any sample, a comm holding a newline ("evil\nname"), an
 * empty comm, and a header cut short at the end (a perf killed while
 * writing). Before: -EBADMSG at line 1, no profile at all.
 */
static void test_fold_hostile(void **state)
{
	struct xl_perf_script_stats st = { 0 };
	struct xl_folded *f = xl_folded__new();
	FILE *in = open_data("perf-script-hostile.txt");
	struct xl_top_sym top[4];
	char *text;

	assert_int_equal(xl_folded__parse_perf_script(f, in, cpus, 2, &st), 0);
	fclose(in);
	text = folded_text(f);
	assert_string_equal(text,
		"cpu0 gen;Web Content;[unknown];[unparsed];memcpy;render 1\n"
		"cpu0 gen;cc1;[unknown];get_addr 1\n"
		"cpu1 dut; sp ace [007] 5;main;hot_in_lib 2\n"
		"cpu1 dut;:-1;do_exit;exit_rcu 1\n"
		"cpu1 dut;[unknown];veth_poll 1\n"
		"cpu1 dut;name;veth_poll 1\n");
	assert_int_equal(st.lines, 31);
	assert_int_equal(st.unparsed, 4);
	assert_int_equal(st.first_unparsed, 1);
	/* the dso is the parenthesis that balances the last one */
	assert_int_equal(xl_folded__top(f, "cpu0 gen", top, 4), 2);
	assert_string_equal(top[1].sym, "render");
	assert_string_equal(top[1].dso, "/opt/my app (2)/libx.so (deleted)");
	assert_string_equal(top[1].comm, "Web Content");
	/* one entry per (comm, dso, symbol): veth_poll of "name" and of the empty comm */
	assert_int_equal(xl_folded__top(f, "cpu1 dut", top, 4), 4);
	assert_string_equal(top[0].sym, "hot_in_lib");
	assert_int_equal(top[0].samples, 2);
	assert_string_equal(top[0].dso, "/tmp/h6p/my lib/libhot.so");
	assert_string_equal(top[0].comm, " sp ace [007] 5");
	assert_string_equal(top[1].sym, "exit_rcu"); /* ties by name */
	assert_string_equal(top[1].comm, ":-1");
	assert_string_equal(top[2].sym, "veth_poll");
	assert_string_equal(top[3].sym, "veth_poll");
	free(text);
	xl_folded__free(f);
}

/*
 * Every "+0x<hex>" at a symbol's end is cut, not only the last (found by
 * fuzz/fuzz_folded.c: "do_idle+0xe+0x1a" was the frame "do_idle+0xe"); a
 * "+0x" with no hex after it, or a symbol that is only an offset, stays.
 */
static void test_fold_offsets_cut(void **state)
{
	static const char text[] = "a 1 [000] 1\n"
				   "\tffffffff81000000 +0x10 ([kernel.kallsyms])\n"
				   "\tffffffff81000001 g+0x ([kernel.kallsyms])\n"
				   "\tffffffff81000002 do_idle+0xe+0x1a ([kernel.kallsyms])\n";
	struct xl_folded *f = xl_folded__new();
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	char *out;

	assert_int_equal(xl_folded__parse_perf_script(f, in, NULL, 0, NULL), 0);
	fclose(in);
	out = folded_text(f);
	assert_string_equal(out, "cpu0;a;do_idle;g+0x;+0x10 1\n");
	free(out);
	xl_folded__free(f);
}

/* A control character in a comm or symbol is ':' (\x1f would split the self-count keys). */
static void test_fold_control_chars(void **state)
{
	static const char text[] = "a\x1f;b 1 [000] 1\n\tffffffff81000000 f\x1bx ([kernel.kallsyms])\n";
	struct xl_folded *f = xl_folded__new();
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct xl_top_sym top[2];
	char *out;

	assert_int_equal(xl_folded__parse_perf_script(f, in, NULL, 0, NULL), 0);
	out = folded_text(f);
	assert_string_equal(out, "cpu0;a::b;f:x 1\n");
	assert_int_equal(xl_folded__top(f, "cpu0", top, 2), 1);
	assert_string_equal(top[0].comm, "a::b");
	assert_string_equal(top[0].dso, "[kernel.kallsyms]");
	assert_string_equal(top[0].sym, "f:x");
	free(out);
	fclose(in);
	xl_folded__free(f);
}

static void test_top_symbols(void **state)
{
	struct xl_folded *f = load_fixture();
	struct xl_top_sym top[XL_PROF_TOP];
	int n = xl_folded__top(f, "cpu1 dut", top, XL_PROF_TOP);

	assert_int_equal(n, 3);
	assert_string_equal(top[0].sym, BPF_SYM);
	assert_string_equal(top[0].dso, BPF_SYM);
	assert_string_equal(top[0].comm, "xdplab");
	assert_string_equal(top[0].label, "cpu1 dut");
	assert_int_equal(top[0].samples, 2);
	assert_dbl_equal(top[0].share, 0.5);
	/* Ties: by symbol name. */
	assert_string_equal(top[1].sym, "veth_xdp_rcv");
	assert_string_equal(top[1].comm, "ksoftirqd/1");
	assert_string_equal(top[1].dso, "[kernel.kallsyms]");
	assert_dbl_equal(top[1].share, 0.25);
	assert_string_equal(top[2].sym, "veth_xdp_rcv_one");
	assert_string_equal(top[2].comm, "xdplab");
	assert_dbl_equal(top[2].share, 0.25);
	/* max caps the table; the other CPU has its own. */
	assert_int_equal(xl_folded__top(f, "cpu1 dut", top, 1), 1);
	assert_int_equal(xl_folded__top(f, "cpu0 gen", top, XL_PROF_TOP), 1);
	assert_string_equal(top[0].sym, "memcpy");
	assert_string_equal(top[0].dso, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(top[0].comm, "Web Content");
	assert_dbl_equal(top[0].share, 1.0);
	assert_int_equal(xl_folded__top(f, "cpu7 none", top, XL_PROF_TOP), 0);
	xl_folded__free(f);
}

static const struct xl_flame_rect *find_rect(const struct xl_flame *fl, const char *name, int depth)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		if (fl->rects[i].depth == depth && !strcmp(fl->rects[i].name, name))
			return &fl->rects[i];
	return NULL;
}

static void test_flame_layout(void **state)
{
	struct xl_folded *f = load_fixture();
	const struct xl_flame_rect *r;
	struct xl_flame fl;
	double roots = 0, kids = 0;
	size_t i;

	assert_int_equal(xl_flame_layout(f, 1000, &fl), 0);
	assert_int_equal(fl.total, 5);
	assert_int_equal(fl.depth, 6);
	/* 2 roots, 2 comms under cpu1 + 1 under cpu0, and the frames below. */
	assert_int_equal(fl.n, 2 + 3 + 3 + 3 + 1 + 1);
	for (i = 0; i < fl.n; i++) {
		if (fl.rects[i].depth == 0)
			roots += fl.rects[i].w;
		if (fl.rects[i].depth == 1)
			kids += fl.rects[i].w;
	}
	assert_dbl_equal(roots, 1000);
	assert_dbl_equal(kids, 1000); /* no stack ends at its root frame */
	r = find_rect(&fl, "cpu0 gen", 0);
	assert_non_null(r);
	assert_dbl_equal(r->x, 0);
	assert_dbl_equal(r->w, 200);
	r = find_rect(&fl, "cpu1 dut", 0);
	assert_dbl_equal(r->x, 200);
	assert_dbl_equal(r->w, 800);
	assert_int_equal(r->samples, 4);
	r = find_rect(&fl, "xdplab", 1);
	assert_dbl_equal(r->x, 400);
	assert_dbl_equal(r->w, 600);
	r = find_rect(&fl, "veth_xdp_rcv_one", 4);
	assert_dbl_equal(r->x, 400);
	assert_dbl_equal(r->w, 600);
	r = find_rect(&fl, BPF_SYM, 5);
	assert_dbl_equal(r->x, 600);
	assert_dbl_equal(r->w, 400);
	assert_int_equal(r->samples, 2);
	xl_flame_free(&fl);
	xl_folded__free(f);
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static void test_flame_svg(void **state)
{
	struct xl_folded *f = load_fixture();
	struct memout m;
	char *buf;

	assert_int_equal(xl_flame_svg(f, mem_start(&m), "drop <no-touch>", 1000), 0);
	buf = mem_end(&m);
	assert_int_equal(count_of(buf, "<g class=\"f\""), 13);
	assert_non_null(strstr(buf, "data-total=\"5\""));
	assert_non_null(strstr(buf, "<title>" BPF_SYM " (2 samples, 40.00%)</title>"));
	assert_non_null(strstr(buf, "drop &lt;no-touch&gt; (5 samples)"));
	assert_int_equal(count_of(buf, "<script>"), 1);
	/* Our program is green (a BPF program), the kernel's bpf_prog_test_run_xdp would not be. */
	{
		const char *want = BPF_SYM " (2 samples, 40.00%)</title><rect x=\"600.000\" y=\"34\" "
				   "width=\"400.000\" height=\"15\" rx=\"2\" fill=\"rgb(";
		const char *at = strstr(buf, want);
		unsigned int r, g, b;

		assert_non_null(at);
		assert_int_equal(sscanf(at + strlen(want), "%u,%u,%u", &r, &g, &b), 3);
		assert_true(g > r && g > b);
		at = strstr(buf, "veth_xdp_rcv_one (2 samples");
		at = at ? at : strstr(buf, "veth_xdp_rcv_one (3 samples");
		assert_non_null(at);
		at = strstr(at, "fill=\"rgb(");
		assert_int_equal(sscanf(at + 10, "%u,%u,%u", &r, &g, &b), 3);
		assert_true(r > g);
	}
	assert_int_equal(strncmp(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39), 0);
	assert_non_null(strstr(buf, "</svg>\n"));
	free(buf);
	xl_folded__free(f);
}

static void test_flame_svg_cuts_deep_narrow(void **state)
{
	struct xl_folded *f = xl_folded__new();
	struct memout m;
	char *buf;

	assert_int_equal(xl_folded__add(f, "a;b", 999, NULL, NULL, NULL), 0);
	assert_int_equal(xl_folded__add(f, "a;c;d;e;f;g", 1, NULL, NULL, NULL), 0);
	assert_int_equal(xl_flame_svg(f, mem_start(&m), "t", 1000), 0);
	buf = mem_end(&m);
	/* c is 1 px (drawn), d..g below it are deeper than any 0.25% stack (cut). */
	assert_int_equal(count_of(buf, "<g class=\"f\""), 3);
	assert_non_null(strstr(buf, "<title>c (1 samples, 0.10%)</title>"));
	assert_null(strstr(buf, "<title>d ("));
	assert_non_null(strstr(buf, "t (1000 samples; frames deeper than the stacks of 0.25% not drawn)"));
	/* Two levels: 34 + 2 x 16 + 24. */
	assert_non_null(strstr(buf, "height=\"90\""));
	free(buf);
	xl_folded__free(f);
}

static void test_folded_add_merges(void **state)
{
	struct xl_folded *f = xl_folded__new();
	uint64_t c;

	assert_int_equal(xl_folded__add(f, "b;c", 3, NULL, NULL, NULL), 0);
	assert_int_equal(xl_folded__add(f, "a", 1, NULL, NULL, NULL), 0);
	assert_int_equal(xl_folded__add(f, "b;c", 2, NULL, NULL, NULL), 0);
	assert_int_equal(xl_folded__add(f, "", 2, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(xl_folded__nstacks(f), 2);
	assert_string_equal(xl_folded__stack(f, 1, &c), "b;c");
	assert_int_equal(c, 5);
	assert_null(xl_folded__stack(f, 2, &c));
	xl_folded__free(f);
}

/* xl_folded__read(): what xl_folded__write() wrote comes back the same; anything else is refused. */
#define BAD(text, line) { text, sizeof(text) - 1, line }
static void test_folded_read(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		unsigned long line;
	} bad[] = {
		BAD("a;b 1\nno-count\n", 2), BAD("a;b 1\n 2\n", 2), BAD("a;b x1\n", 1),
		BAD("a;b 1x\n", 1), BAD("a;b -1\n", 1), BAD("a 99999999999999999999\n", 1),
		BAD("a 9223372036854775807\nb 1\n", 2), BAD("a 1\nb\0 1\n", 2),
	};
	struct xl_folded *f = load_fixture(), *g = xl_folded__new();
	char *text = folded_text(f), *back;
	unsigned long line;
	size_t i;
	FILE *in;

	in = fmemopen(text, strlen(text), "r");
	assert_int_equal(xl_folded__read(g, in, NULL), 0);
	fclose(in);
	back = folded_text(g);
	assert_string_equal(back, text);
	assert_int_equal(xl_folded__samples(g, "cpu1 dut"), 4);
	free(back);
	xl_folded__free(g);
	/* Blank lines and CRLF are fine; a space inside a frame too (the count is after the last). */
	g = xl_folded__new();
	in = fmemopen("\nroot;Web Content;x 2\r\n\n", 24, "r");
	assert_int_equal(xl_folded__read(g, in, NULL), 0);
	fclose(in);
	assert_int_equal(xl_folded__nstacks(g), 1);
	assert_string_equal(xl_folded__stack(g, 0, NULL), "root;Web Content;x");
	assert_int_equal(xl_folded__samples(g, NULL), 2);
	xl_folded__free(g);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		g = xl_folded__new();
		line = 0;
		in = fmemopen((void *)bad[i].text, bad[i].len, "r");
		assert_int_equal(xl_folded__read(g, in, &line), -EBADMSG);
		fclose(in);
		assert_int_equal(line, bad[i].line);
		xl_folded__free(g);
	}
	free(text);
	xl_folded__free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_fixture),   cmocka_unit_test(test_fold_all_cpus),
		cmocka_unit_test(test_fold_bad_input), cmocka_unit_test(test_top_symbols),
		cmocka_unit_test(test_fold_hostile),   cmocka_unit_test(test_fold_control_chars),
		cmocka_unit_test(test_flame_layout),   cmocka_unit_test(test_flame_svg),
		cmocka_unit_test(test_folded_add_merges), cmocka_unit_test(test_flame_svg_cuts_deep_narrow),
		cmocka_unit_test(test_folded_read),	cmocka_unit_test(test_fold_offsets_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
