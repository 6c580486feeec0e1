// SPDX-License-Identifier: BSD-2-Clause
/*
 * compare --format junit (xdplab/compare_out.h, XL_CMP_OUT_JUNIT): the
 * comparison as a JUnit XML report for a CI job (docs/ci.md): one testcase
 * per row, a regression a failure, a row that could not be judged skipped,
 * the rest passed. Two files, several runs a side and compare --db alike. Every text from a results
 * file (paths, row names, reasons) goes through the one XML escaper
 * (core/escape.c). A row's outcome in one line (struct xl_cmp_case) is
 * bisect-step's too, its lines written by xl_cmp_write_cases().
 *
 * The shape is the one Jenkins, GitLab and GitHub's test-report actions
 * read (testsuites > testsuite > properties, testcase > failure | skipped,
 * system-out); tests/e2e/junit.xsd states it and the e2e tests validate
 * the output against it with xmllint.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_out_priv.h"
#include "xdplab/escape.h"

/* The rows' classnames: throughput rows and latency rows. */
#define CLS_ROWS "xdplab.compare"
#define CLS_LAT "xdplab.compare.latency"

static void put_attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	xl_xml_escape(out, value);
	fputc('"', out);
}

static void put_prop(FILE *out, const char *name, const char *value)
{
	fprintf(out, "      <property");
	put_attr(out, "name", name);
	put_attr(out, "value", value);
	fprintf(out, "/>\n");
}

/*
 * The report: one suite of @n cases under @title, with the properties
 * @props (@nprops name/value pairs) before them.
 */
static void put_report(FILE *out, const char *title, const char *const (*props)[2], int nprops,
		       const struct xl_cmp_case *c, int n)
{
	int i, fails = 0, skips = 0;

	for (i = 0; i < n; i++) {
		fails += c[i].kind == XL_CASE_FAIL;
		skips += c[i].kind == XL_CASE_SKIP;
	}
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<testsuites name=\"xdplab compare\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
	       n, fails, skips);
	fprintf(out, "  <testsuite");
	put_attr(out, "name", title);
	fprintf(out, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", n, fails, skips);
	fprintf(out, "    <properties>\n");
	for (i = 0; i < nprops; i++)
		put_prop(out, props[i][0], props[i][1]);
	fprintf(out, "    </properties>\n");
	for (i = 0; i < n; i++) {
		fprintf(out, "    <testcase");
		put_attr(out, "classname", c[i].cls);
		put_attr(out, "name", c[i].name);
		if (c[i].kind == XL_CASE_PASS && !c[i].msg[0]) {
			fprintf(out, "/>\n");
			continue;
		}
		fprintf(out, ">\n");
		if (c[i].kind == XL_CASE_FAIL) {
			fprintf(out, "      <failure type=\"regression\"");
			put_attr(out, "message", c[i].msg);
			fprintf(out, ">");
			xl_xml_escape(out, c[i].msg);
			fprintf(out, "</failure>\n");
		} else if (c[i].kind == XL_CASE_SKIP) {
			fprintf(out, "      <skipped");
			put_attr(out, "message", c[i].msg);
			fprintf(out, "/>\n");
		} else {
			fprintf(out, "      <system-out>");
			xl_xml_escape(out, c[i].msg);
			fprintf(out, "</system-out>\n");
		}
		fprintf(out, "    </testcase>\n");
	}
	fprintf(out, "  </testsuite>\n</testsuites>\n");
}

static void row_name(struct xl_cmp_case *c, const struct xl_cmp_rowdata *d)
{
	snprintf(c->name, sizeof(c->name), "%s %u %s %s", d->name, d->size, d->mode,
		 d->wiring[0] ? d->wiring : "-");
	c->cls = CLS_ROWS;
}

/* A row not judged (not comparable, not measured, on one side only): skipped. */
static void skip_status(struct xl_cmp_case *c, enum xl_cmp_status s, const char *reason)
{
	c->kind = XL_CASE_SKIP;
	if (s == XL_CMP_NOT_MEASURED)
		snprintf(c->msg, sizeof(c->msg), "%s", reason);
	else
		snprintf(c->msg, sizeof(c->msg), "%s%s%s",
			 xl_cmp_status_word(s, XL_CMP_NONE, XL_CMP_WORDS_TEXT),
			 reason[0] ? ": " : "", reason);
}

/* The verdict's kind: a regression fails, too few skips, the rest pass. */
static enum xl_cmp_case_kind verdict_kind(enum xl_cmp_verdict v)
{
	return v == XL_CMP_REGRESSION ? XL_CASE_FAIL : v == XL_CMP_TOO_FEW ? XL_CASE_SKIP : XL_CASE_PASS;
}

/* The unit of a row's figures: the program's own time, DUT CPU or ns/packet. */
static const char *metric_text(bool prog, bool on_cpu)
{
	return prog ? "ns per program run (the program's own time)" :
	       on_cpu ? "DUT CPU ns/packet (generator-bound)" : "ns/packet";
}

/* ---- two files ---- */

void xl_cmp_case_two(struct xl_cmp_case *c, const struct xl_cmp_row *r, double alpha)
{
	const struct xl_cmp_rowdata *d = r->base ? r->base : r->new;

	row_name(c, d);
	if (r->status != XL_CMP_PAIRED) {
		skip_status(c, r->status, r->reason);
		return;
	}
	c->kind = verdict_kind(r->verdict);
	if (r->verdict == XL_CMP_TOO_FEW && r->prog) {
		snprintf(c->msg, sizeof(c->msg), "too few reps: %s", r->reason);
		return;
	}
	if (r->verdict == XL_CMP_TOO_FEW) {
		snprintf(c->msg, sizeof(c->msg), "too few reps: %zu vs %zu repetitions can never reach p < %g (the smallest p they can give is %.3f)",
			 r->test.n2, r->test.n1, alpha,
			 xl_mann_whitney_min_p(r->test.n2, r->test.n1));
		return;
	}
	snprintf(c->msg, sizeof(c->msg), "%s: %+.2f %s (%.3f -> %.3f Mpps, %+.1f%%), p = %.3f, %zu vs %zu repetitions (Mann-Whitney U)%s%s",
		 xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_TEXT), r->delta,
		 metric_text(r->prog, r->on_cpu), r->base->mpps.median, r->new->mpps.median, r->delta_pct, r->test.p, r->test.n2,
		 r->test.n1, r->reason[0] ? ": " : "", r->reason);
}

static void lat_case(struct xl_cmp_case *c, const struct xl_cmp_latpair *p)
{
	const struct xl_lat_rowrec *d = p->base ? p->base : p->new;
	size_t n;

	snprintf(c->name, sizeof(c->name), "%s %u %s", d->name, d->size,
		 d->wiring[0] ? d->wiring : "-");
	c->cls = CLS_LAT;
	if (p->status != XL_CMP_PAIRED) {
		skip_status(c, p->status, p->reason);
	} else {
		c->kind = verdict_kind(p->verdict);
		snprintf(c->msg, sizeof(c->msg), "%s: p50 %+.1f%% (p = %.3f), p99 %+.1f%% (p = %.3f), %zu vs %zu repetitions (Mann-Whitney U)",
			 xl_cmp_status_word(p->status, p->verdict, XL_CMP_WORDS_TEXT), p->pct_p50,
			 p->test[XL_CMP_LAT_P50].p, p->pct_p99, p->test[XL_CMP_LAT_P99].p,
			 p->test[XL_CMP_LAT_P50].n2, p->test[XL_CMP_LAT_P50].n1);
	}
	n = strlen(c->msg);
	xl_cmp_lat_rose_append(c->msg + n, sizeof(c->msg) - n, p->rose);
}

int xl_cmp_out_junit_two(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			 const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
			 const struct xl_cmp_view *vw)
{
	struct xl_cmp_case *c = calloc(res->nrows + lr->npairs + 1, sizeof(*c));
	char title[600], alpha[32], thr[32];
	const char *const props[][2] = {
		{ "base", b->path }, { "base_commit", b->git }, { "base_date", b->date },
		{ "new", n->path }, { "new_commit", n->git }, { "new_date", n->date },
		{ "method", "mann-whitney-reps" }, { "alpha", alpha }, { "threshold_ns", thr },
	};
	int i;

	if (!c) {
		return -ENOMEM;
	}
	snprintf(alpha, sizeof(alpha), "%g", vw->o.alpha);
	snprintf(thr, sizeof(thr), "%g", vw->o.threshold_ns);
	snprintf(title, sizeof(title), "%s vs %s", b->path, n->path);
	for (i = 0; i < res->nrows; i++)
		xl_cmp_case_two(&c[i], &res->rows[i], vw->o.alpha);
	for (i = 0; i < lr->npairs; i++)
		lat_case(&c[res->nrows + i], &lr->pairs[i]);
	put_report(out, title, props, sizeof(props) / sizeof(props[0]), c, res->nrows + lr->npairs);
	free(c);
	return 0;
}

/* ---- several runs a side ---- */

void xl_cmp_case_runs(struct xl_cmp_case *c, const struct xl_cmp_mrow *m, double alpha)
{
	char ci[64] = "";

	row_name(c, m->id);
	if (m->status != XL_CMP_PAIRED) {
		skip_status(c, m->status, m->reason);
		return;
	}
	c->kind = verdict_kind(m->verdict);
	if (m->verdict == XL_CMP_TOO_FEW) {
		snprintf(c->msg, sizeof(c->msg), "too few runs: %d vs %d runs can never reach p < %g (the smallest p they can give is %.3f)",
			 m->nb, m->nn, alpha, m->test.min_p);
		return;
	}
	if (m->tested && isfinite(m->test.ci_lo) && isfinite(m->test.ci_hi))
		snprintf(ci, sizeof(ci), ", 95%% CI [%+.2f, %+.2f]", m->test.ci_lo, m->test.ci_hi);
	if (m->tested)
		snprintf(c->msg, sizeof(c->msg), "%s: %+.2f %s (%.2f -> %.2f)%s, p = %.3f, %d vs %d runs (permutation test over the runs)%s%s",
			 xl_cmp_status_word(m->status, m->verdict, XL_CMP_WORDS_TEXT),
			 m->test.estimate,
			 metric_text(m->prog, m->on_cpu), m->base_ns,
			 m->new_ns, ci, m->test.p, m->nb, m->nn, m->reason[0] ? ": " : "", m->reason);
	else
		snprintf(c->msg, sizeof(c->msg), "%s: %s, %d vs %d runs",
			 xl_cmp_status_word(m->status, m->verdict, XL_CMP_WORDS_TEXT), m->reason,
			 m->nb, m->nn);
}

int xl_cmp_out_junit_runs(FILE *out, const struct xl_cmp_file *files, int nbase, int nnew,
			  const struct xl_cmp_mresult *res, const struct xl_cmp_view *vw)
{
	struct xl_cmp_case *c = calloc(res->nrows + 1, sizeof(*c));
	char title[64], alpha[32], thr[32], nb[16], nn[16];
	const char *const props[][2] = {
		{ "base_runs", nb }, { "new_runs", nn }, { "method", "permutation-runs" },
		{ "alpha", alpha }, { "threshold_ns", thr },
	};
	const char *(*all)[2];
	int i, np = sizeof(props) / sizeof(props[0]);

	all = calloc(np + nbase + nnew, sizeof(*all));
	if (!c || !all) {
		free(c);
		free(all);
		return -ENOMEM;
	}
	snprintf(alpha, sizeof(alpha), "%g", vw->o.alpha);
	snprintf(thr, sizeof(thr), "%g", vw->o.threshold_ns);
	snprintf(nb, sizeof(nb), "%d", nbase);
	snprintf(nn, sizeof(nn), "%d", nnew);
	snprintf(title, sizeof(title), "%d base runs vs %d new runs", nbase, nnew);
	memcpy(all, props, sizeof(props));
	for (i = 0; i < nbase + nnew; i++) {
		all[np + i][0] = i < nbase ? "base" : "new";
		all[np + i][1] = files[i].path;
	}
	for (i = 0; i < res->nrows; i++)
		xl_cmp_case_runs(&c[i], &res->rows[i], vw->o.alpha);
	put_report(out, title, (const char *const(*)[2])all, np + nbase + nnew, c, res->nrows);
	free(all);
	free(c);
	return 0;
}

/* ---- a row's outcome per line ---- */

int xl_cmp_write_cases(FILE *out, const struct xl_cmp_result *res,
		       const struct xl_cmp_mresult *mres, double alpha, struct xl_cmp_tally *t)
{
	int i, n = res ? res->nrows : mres->nrows;
	struct xl_cmp_case c;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		if (res)
			xl_cmp_case_two(&c, &res->rows[i], alpha);
		else
			xl_cmp_case_runs(&c, &mres->rows[i], alpha);
		fprintf(out, "%s: %s\n", XL_ESC(c.name), XL_ESC(c.msg));
		t->fail += c.kind == XL_CASE_FAIL;
		t->skip += c.kind == XL_CASE_SKIP;
		t->pass += c.kind == XL_CASE_PASS;
		if (c.kind == XL_CASE_FAIL && !t->first_fail[0])
			snprintf(t->first_fail, sizeof(t->first_fail), "%s", c.name);
	}
	return ferror(out) ? -EIO : 0;
}
