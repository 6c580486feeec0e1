// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_report_hostile.c - `xdplab report` on results files made to attack
 * whoever opens the page (issue 21, security item 1; docs/report.md
 * "Untrusted results files"). Markup in every string field of a run (and
 * of BASE, the same file) comes out as text in every place it reaches:
 * the tables, the charts' labels, long labels cut to their box, notes of
 * unmeasured rows and latency rows in SVG <title>s, group headings, the
 * environment. A row's "profile" never brings a file into the page: the
 * flame graph is drawn from the folded stacks, read only as a regular
 * file beneath the results file's directory (no absolute path elsewhere,
 * no "..", no symbolic link, no device or FIFO, no file over 64 MiB);
 * "svg" is never read; a refusal is a note on the page and one warning on
 * stderr, and the report still succeeds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xdplab/htmlreport.h"
#include "xdplab/log.h"

#include "test_util.h"

/* Every way out of a text node or an attribute, and a control character. */
#define P "<script>document.title='XL-PWNED'</script>\"><img src=x onerror=\"document.title='XL-PWNED'\">" \
	  "]]></title><script>xl_pwn()</script>&amp;\x01"
#define SHORT "<i>x</i>"

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	return buf;
}

/* The page of @run (with BASE @base, NULL: none) and what went to stderr in *@err_out. */
static char *report(const char *run, const char *base, char **err_out)
{
	char odir[128], out[160], err[512] = "", *page, *e;
	struct capture c;
	int rc;

	assert_int_equal(tmp_dir_make(odir, sizeof(odir), "hostile-out"), 0);
	snprintf(out, sizeof(out), "%s/page.html", odir);
	cap_start(&c, 2);
	rc = xl_html_report(run, base, out, err, sizeof(err));
	e = cap_end(&c);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
	page = slurp_file(out);
	assert_int_equal(tmp_dir_remove(odir), 0);
	if (err_out)
		*err_out = e;
	else
		free(e);
	return page;
}

/* No markup of the payload outside text: the tags, the attribute break-out, the CDATA end. */
static void assert_inert(const char *s)
{
	assert_null(strstr(s, "<script"));
	assert_null(strstr(s, "<img"));
	assert_null(strstr(s, "<i>"));
	assert_null(strstr(s, "onerror=\""));
	assert_null(strstr(s, "]]>"));
	assert_null(strstr(s, "</title><script"));
	assert_null(strchr(s, '\x01'));
}

/* A results file with @p in every string field a page shows. */
static json_t *hostile_doc(const char *p)
{
	char xsk[512], cost[512];
	json_t *reps = json_pack("[{s:f,s:f},{s:f,s:f}]", "pps", 1e6, "cpu_ns_per_pkt", 100.0, "pps",
				 1.1e6, "cpu_ns_per_pkt", 110.0);
	json_t *lrep = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "sent", 100, "received",
				 100, "lost", 0, "gaps", 0, "reordered", 0, "duplicates", 0, "p50_ns", 10000,
				 "p90_ns", 20000, "p99_ns", 30000, "p999_ns", 40000, "max_ns", 50000);

	json_t *doc;

	snprintf(xsk, sizeof(xsk), "xsk-%s", p);
	snprintf(cost, sizeof(cost), "redirect+no-mon%s", p);
	doc = json_pack(
		"{s:s,s:s,s:s,s:s,"
		"s:{s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:{s:s,s:s}},"
		"s:{s:i,s:f,s:f,s:s},"
		"s:[{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:{s:f,s:f,s:f},s:O,s:f,s:f,s:f,s:f,s:f},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:{s:f,s:f,s:f},s:O,s:f,s:{s:f,s:f,s:f}},"
		"{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:{s:f,s:f,s:f},s:O}],"
		"s:[{s:s,s:s,s:b,s:i,s:i,s:s,s:i,s:s,s:o,s:[O,O]},"
		"{s:s,s:s,s:b,s:i,s:i,s:s,s:i,s:s,s:o,s:[]}]}",
		"schema", "xdplab.lab-results/1", "date", p, "git", p, "lab", p,
		"machine", "kernel", p, "arch", p, "cpu_model", p, "host", p, "cmdline_mitigations", p,
		"cpus", 2, "bpf_jit_enable", 1, "bpf_jit_harden", 0, "vulnerabilities", p, p, "meltdown", p,
		"config", "reps", 2, "seconds", 1.0, "warmup", 0.25, "wiring", p,
		"rows",
		/* measured: its long label cut in the charts, the table's cells */
		"name", p, "kind", "xdp", "size", 64, "mode", p, "wiring", p, "verdict", p, "note", p,
		"mpps", "median", 1.0, "min", 1.0, "max", 1.1, "reps", reps, "ns_per_pkt", 1000.0,
		"cpu_busy", 1.0, "cpu_ns_per_pkt", 100.0, "gen_mpps", 2.0, "chain_ns_per_pkt", 200.0,
		/* not measured: the note in the chart's row and <title> */
		"name", p, "kind", "xdp", "size", 1500, "mode", "native", "wiring", "softirq", "verdict",
		"na", "note", p,
		/* AF_XDP: the group heading */
		"name", xsk, "kind", "xsk", "size", 64, "mode", "skb", "wiring", p, "verdict", p, "note", p,
		/* the watch-cost chart, with its estimate */
		"name", cost, "kind", "redirect", "size", 64, "mode", "native", "wiring", p, "verdict", "valid",
		"note", p, "mpps", "median", 1.0, "min", 1.0, "max", 1.1, "reps", reps,
		"cpu_ns_per_pkt", 100.0, "monitor_cost", "cpu_ns_per_pkt", 1.0, "ns_per_event", 2.0,
		"estimate_ns_per_pkt", 3.0,
		/* a short label, shown whole */
		"name", SHORT, "kind", "xdp", "size", 64, "mode", "native", "wiring", SHORT, "verdict", "valid",
		"note", SHORT, "mpps", "median", 1.0, "min", 1.0, "max", 1.1, "reps", reps,
		"latency",
		"name", p, "path", p, "round_trip", 0, "size", 64, "rate_pps", 0, "wiring", p, "nreps", 2,
		"note", p, "median", json_deep_copy(lrep), "reps", lrep, lrep,
		"name", p, "path", p, "round_trip", 1, "size", 1500, "rate_pps", 1000, "wiring", p, "nreps", 0,
		"note", p, "median", json_deep_copy(lrep), "reps");
	json_decref(reps);
	json_decref(lrep);
	return doc;
}

static void write_doc(json_t *doc, const char *path)
{
	assert_non_null(doc);
	assert_int_equal(json_dump_file(doc, path, 0), 0);
	json_decref(doc);
}

/* Markup in every field: text everywhere, with and without BASE. */
static void test_markup_is_text(void **state)
{
	char rdir[128], path[160], *s, *err;
	json_t *doc = hostile_doc(P);

	assert_int_equal(tmp_dir_make(rdir, sizeof(rdir), "hostile-run"), 0);
	snprintf(path, sizeof(path), "%s/run.json", rdir);
	write_doc(doc, path);
	s = report(path, NULL, &err);
	assert_inert(s);
	assert_string_equal(err, "");
	/* The fields are on the page, as text. */
	assert_true(count_of(s, "&lt;script&gt;document.title=") > 20);
	assert_non_null(strstr(s, "<td>&lt;i&gt;x&lt;/i&gt;</td>"));
	/* A long label cut in its chart row: cut before escaping, so no entity is broken. */
	assert_non_null(strstr(s, "text-anchor=\"end\">&lt;script&gt;document.title='XL-PWNE..</text>"));
	/* An unmeasured row's note in the chart row's <title>. */
	assert_non_null(strstr(s, " 1500 B: &lt;script&gt;document.title='XL-PWNED'&lt;/script&gt;&quot;&gt;"
				  "&lt;img src=x onerror=&quot;document.title='XL-PWNED'&quot;&gt;"));
	/* A latency row's note too (cut to 63 bytes). */
	assert_non_null(strstr(s, "<title>not measured: &lt;script&gt;document.title='XL-PWNED'&lt;/script&gt;"
				  "&quot;&gt;&lt;img src=x onerror=</title>"));
	assert_non_null(strstr(s, "]]&gt;&lt;/title&gt;&lt;script&gt;xl_pwn()&lt;/script&gt;&amp;amp;</title>"));
	free(s);
	free(err);
	s = report(path, path, NULL);
	assert_inert(s);
	assert_non_null(strstr(s, "data-chart=\"compare\""));
	assert_non_null(strstr(s, "data-table=\"latency-compare\""));
	free(s);
	assert_int_equal(tmp_dir_remove(rdir), 0);
}

/* ---- profiles ---- */

static char dir_[128], in_[160];

/* A directory D with D/in/ for the results file, D/out.* outside it. */
static void mkdirs(void)
{
	assert_int_equal(tmp_dir_make(dir_, sizeof(dir_), "hostile"), 0);
	snprintf(in_, sizeof(in_), "%s/in", dir_);
	assert_int_equal(mkdir(in_, 0755), 0);
}

static void rmdirs(void)
{
	assert_int_equal(tmp_dir_remove(dir_), 0); /* the symlinks inside not followed */
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* D/in/run.json: one measured row "drop" whose profile names @folded and @svg (NULL: absent). */
static void run_with_profile(char *path, size_t len, const char *folded, const char *svg)
{
	json_t *prof = json_object();

	if (folded)
		json_object_set_new(prof, "folded", json_string(folded));
	if (svg)
		json_object_set_new(prof, "svg", json_string(svg));
	snprintf(path, len, "%s/run.json", in_);
	write_doc(json_pack("{s:s,s:{s:i},s:[{s:s,s:s,s:i,s:s,s:s,s:{s:f,s:f,s:f},s:[{s:f}],s:o}]}",
			    "schema", "xdplab.lab-results/1", "config", "reps", 1, "rows", "name",
			    "drop", "kind", "xdp", "size", 64, "mode", "native", "verdict", "valid", "mpps",
			    "median", 1.0, "min", 1.0, "max", 1.0, "reps", "pps", 1e6, "profile", prof),
		  path);
}

/*
 * The page for a profile naming @folded and @svg: no graph, a note that
 * ends in @reason, the stderr line naming the row and the reason, and
 * nothing of the named files on the page (@marker: text in them).
 */
/* @s with '"' as the page writes it (the only character of the reasons escaped). */
static const char *quot(const char *s)
{
	static char buf[4][512];
	static int k;
	char *b = buf[k++ % 4], *o = b;

	for (; *s; s++)
		o += *s == '"' ? sprintf(o, "&quot;") : sprintf(o, "%c", *s);
	return b;
}

static void expect_refused(const char *folded, const char *svg, const char *reason, const char *marker)
{
	char run[256], note[1024], line[1024], *s, *err;

	run_with_profile(run, sizeof(run), folded, svg);
	s = report(run, NULL, &err);
	assert_null(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"xl-flame\""));
	assert_null(strstr(s, "<script"));
	if (marker)
		assert_null(strstr(s, marker));
	snprintf(note, sizeof(note), "<p class=\"muted\" data-flame-refused=\"1\">flame graph not drawn: %s%s%s</p>",
		 folded ? quot(folded) : "", folded ? ": " : "", quot(reason));
	if (!strstr(s, note))
		print_error("want %s\nin %s\n", note, strstr(s, "<details") ? strstr(s, "<details") : s);
	assert_non_null(strstr(s, note));
	snprintf(line, sizeof(line), "xdplab: report: drop 64 B: flame graph not drawn: %s%s%s\n",
		 folded ? folded : "", folded ? ": " : "", reason);
	assert_string_equal(err, line);
	free(s);
	free(err);
}

#define OUTSIDE "\"..\" component (only files beneath the results file's directory are read)"
#define ABS "an absolute path outside the results file's directory (only files beneath it are read)"

static const char folded_ok[] = "cpu1 dut;xdplab;main;work 30\ncpu1 dut;xdplab;main 10\ncpu0 gen;ksoftirqd 20\n";

/* profile.svg naming /etc/passwd (the old code pasted it): never read. */
static void test_svg_etc_passwd(void **state)
{
	mkdirs();
	expect_refused(NULL, "/etc/passwd", "the profile names no folded stacks (\"folded\"), which the graph is drawn from",
		       "root:");
	rmdirs();
}

/* A crafted SVG with a script beside the results file: not pasted, the graph is drawn from the stacks. */
static void test_svg_crafted(void **state)
{
	char p[256], run[256], *s;

	mkdirs();
	snprintf(p, sizeof(p), "%s/evil.svg", in_);
	put(p, "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>xl_evil()</script></svg>\n");
	snprintf(p, sizeof(p), "%s/good.folded", in_);
	put(p, folded_ok);
	run_with_profile(run, sizeof(run), "good.folded", "evil.svg");
	s = report(run, NULL, NULL);
	assert_null(strstr(s, "xl_evil"));
	assert_int_equal(count_of(s, "class=\"xl-flame\""), 1);
	/* The only script is the flame writer's own. */
	assert_int_equal(count_of(s, "<script"), 1);
	assert_non_null(strstr(s, "<script><![CDATA[\n(function(svg){"));
	assert_non_null(strstr(s, ">good (60 samples)</text>"));
	assert_non_null(strstr(s, "data-n=\"cpu1 dut\"><title>cpu1 dut (40 samples, 66.67%)</title>"));
	free(s);
	expect_refused(NULL, "evil.svg", "the profile names no folded stacks (\"folded\"), which the graph is drawn from",
		       "xl_evil");
	rmdirs();
}

/* Paths out of the directory: absolute elsewhere, "..", /dev/zero. */
static void test_paths_outside(void **state)
{
	char p[256];
	struct rlimit old, cap;

	mkdirs();
	snprintf(p, sizeof(p), "%s/x.svg", dir_);
	put(p, "<svg><script>xl_outside()</script></svg>\n");
	snprintf(p, sizeof(p), "%s/x.folded", dir_);
	put(p, "cpu0 xl_outside_folded 1\n");
	expect_refused("/etc/passwd", "/etc/passwd", ABS, "root:");
	expect_refused("../x.folded", "../x.svg", "a " OUTSIDE, "xl_outside");
	expect_refused("sub/../../x.folded", NULL, "a " OUTSIDE, "xl_outside");
	snprintf(p, sizeof(p), "%s/x.folded", dir_);
	expect_refused(p, NULL, ABS, "xl_outside");
	/* The old code copied /dev/zero until the disk filled: a 64 MiB file limit ends such a test. */
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	cap = (struct rlimit){ 64 << 20, old.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &cap), 0);
	expect_refused("/dev/zero", "/dev/zero", ABS, NULL);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	rmdirs();
}

/* Inside the directory but not a regular file reached without a link. */
static void test_links_and_devices(void **state)
{
	char p[256], q[256];
	struct rlimit old, cap;

	mkdirs();
	snprintf(p, sizeof(p), "%s/secret.folded", dir_);
	put(p, "cpu0 xl_secret 1\n");
	snprintf(q, sizeof(q), "%s/link.folded", in_);
	assert_int_equal(symlink(p, q), 0);
	snprintf(q, sizeof(q), "%s/passwd.svg", in_);
	assert_int_equal(symlink("/etc/passwd", q), 0);
	expect_refused("link.folded", "passwd.svg", "a symbolic link (links are not followed)", "xl_secret");
	/* A link to a directory on the way. */
	snprintf(q, sizeof(q), "%s/ldir", in_);
	assert_int_equal(symlink(dir_, q), 0);
	expect_refused("ldir/secret.folded", NULL, "a symbolic link (links are not followed)", "xl_secret");
	/* /dev/zero through a link in the directory. */
	snprintf(q, sizeof(q), "%s/zero.folded", in_);
	assert_int_equal(symlink("/dev/zero", q), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	cap = (struct rlimit){ 64 << 20, old.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &cap), 0);
	expect_refused("zero.folded", "zero.folded", "a symbolic link (links are not followed)", NULL);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	/* A FIFO nobody writes: refused, and the open does not wait for a writer. */
	snprintf(q, sizeof(q), "%s/fifo.folded", in_);
	assert_int_equal(mkfifo(q, 0600), 0);
	expect_refused("fifo.folded", NULL, "not a regular file", NULL);
	snprintf(q, sizeof(q), "%s/dir.folded", in_);
	assert_int_equal(mkdir(q, 0755), 0);
	expect_refused("dir.folded", NULL, "not a regular file", NULL);
	expect_refused("none.folded", NULL, "cannot open: No such file or directory", NULL);
	rmdirs();
}

/* Regular files that are not what the graph needs: too large, not folded stacks. */
static void test_bad_content(void **state)
{
	char p[256];
	int fd;

	mkdirs();
	snprintf(p, sizeof(p), "%s/big.folded", in_);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (64 << 20) + 1), 0);
	close(fd);
	expect_refused("big.folded", NULL, "larger than 64 MiB", NULL);
	snprintf(p, sizeof(p), "%s/svg.folded", in_);
	put(p, "<svg><script>xl_svg_as_folded()</script></svg>\n");
	expect_refused("svg.folded", NULL, "not folded stacks (line 1)", "xl_svg_as_folded");
	snprintf(p, sizeof(p), "%s/wrap.folded", in_);
	put(p, "a 9223372036854775807\nb 9223372036854775807\n");
	expect_refused("wrap.folded", NULL, "not folded stacks (line 2)", NULL);
	rmdirs();
}

/* Folded stacks whose frames are markup: drawn, every name as text. */
static void test_folded_markup(void **state)
{
	char p[256], run[256], *s;

	mkdirs();
	snprintf(p, sizeof(p), "%s/m.folded", in_);
	put(p, "cpu1 dut;" P ";\"><img src=x onerror=xl()> 5\ncpu1 dut;</title><script>xl()</script> 5\n");
	run_with_profile(run, sizeof(run), "m.folded", NULL);
	s = report(run, NULL, NULL);
	assert_int_equal(count_of(s, "class=\"xl-flame\""), 1);
	assert_int_equal(count_of(s, "<script"), 1);
	assert_null(strstr(s, "<img"));
	assert_null(strstr(s, "</title><script"));
	assert_int_equal(count_of(s, "]]>"), 1); /* the flame script's own CDATA end */
	assert_non_null(strstr(s, "data-n=\"&quot;&gt;&lt;img src=x onerror=xl()&gt;\""));
	free(s);
	rmdirs();
}

/* What lab run writes: a path relative to the results file, or absolute inside its directory. */
static void test_paths_inside(void **state)
{
	char p[256], run[256], *s, *err;

	mkdirs();
	snprintf(p, sizeof(p), "%s/lp", in_);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/lp/drop-64.folded", in_);
	put(p, folded_ok);
	run_with_profile(run, sizeof(run), "lp/drop-64.folded", "lp/drop-64.svg");
	s = report(run, NULL, &err);
	assert_string_equal(err, "");
	assert_int_equal(count_of(s, "class=\"xl-flame\""), 1);
	assert_non_null(strstr(s, ">drop-64 (60 samples)</text>"));
	free(s);
	free(err);
	run_with_profile(run, sizeof(run), "./lp//drop-64.folded", NULL);
	s = report(run, NULL, &err);
	assert_string_equal(err, "");
	assert_int_equal(count_of(s, "class=\"xl-flame\""), 1);
	free(s);
	free(err);
	run_with_profile(run, sizeof(run), p, NULL);
	s = report(run, NULL, &err);
	assert_string_equal(err, "");
	assert_int_equal(count_of(s, "class=\"xl-flame\""), 1);
	free(s);
	free(err);
	rmdirs();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markup_is_text),
		cmocka_unit_test(test_svg_etc_passwd),
		cmocka_unit_test(test_svg_crafted),
		cmocka_unit_test(test_paths_outside),
		cmocka_unit_test(test_links_and_devices),
		cmocka_unit_test(test_bad_content),
		cmocka_unit_test(test_folded_markup),
		cmocka_unit_test(test_paths_inside),
	};

	xl_log_set_level(XL_LOG_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
