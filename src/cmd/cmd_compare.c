// SPDX-License-Identifier: BSD-2-Clause
/* xdplab compare BASE.json NEW.json: is NEW slower than BASE, row by row? */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "xdplab/log.h"
#include "xdplab/compare.h"
#include "xdplab/report.h"
#include "xdplab/store.h"

enum { O_ALPHA, O_THRESHOLD, O_FORMAT, O_JSON };

struct compare_args {
	struct xl_cmp_opts o;
	bool markdown, json, format_given;
	const char *db, *label[2];
};

static const struct xl_opt compare_opts[] = {
	{ "alpha", 'a', "P", "significance level of the Mann-Whitney U test, 0.0001..0.5 (default " XL_CMP_ALPHA_DEFAULT_TEXT ")", O_ALPHA },
	{ "threshold-ns", 't', "NS", "a significant change must also exceed this many ns/packet (latency rows: ns of p50/p99), 0..1000000 (default 0)", O_THRESHOLD },
	{ "format", 'f', "FMT", "text (default) or markdown (a table to paste into a mail)", O_FORMAT },
	{ "json", 'j', NULL, "print the comparison as JSON (schema xdplab.compare/1) instead", O_JSON },
	{ "db", 0, "DB", "compare stored runs (docs/store.md) instead of files: an SQLite file or postgresql://...; with --base-label and --new-label", XL_STR(struct compare_args, db) },
	{ "base-label", 0, "LABEL", "with --db: BASE is the newest stored run of this label", XL_STR(struct compare_args, label[0]) },
	{ "new-label", 0, "LABEL", "with --db: NEW is the newest stored run of this label", XL_STR(struct compare_args, label[1]) },
};

static const struct xl_cmd_spec compare_spec = {
	"compare", "BASE.json NEW.json | --db DB --base-label A --new-label B",
	"Compare two results files row by row: deltas in Mpps, ns/packet and DUT CPU ns/packet, a Mann-Whitney U test over the repetitions, a verdict; latency rows (lab run --latency) by their p50 and p99 over the repetitions, and any loss, gap, reordering or duplicate that rose from 0. Exit 0: no regression, 1: a row regressed (a rate that fell to 0 pps too), 2: usage, bad input (a row twice in a file) or, with no regression, a row with too few repetitions to tell.",
	compare_opts, sizeof(compare_opts) / sizeof(compare_opts[0]),
};


static int on_opt(int id, const char *arg, void *ctx)
{
	static const char *const formats[] = { "text", "markdown", NULL };
	struct compare_args *a = ctx;
	int i;

	switch (id) {
	case O_ALPHA:
		return xl_parse_real(&compare_spec, "--alpha", arg, 0.0001, 0.5, &a->o.alpha);
	case O_THRESHOLD:
		return xl_parse_real(&compare_spec, "--threshold-ns", arg, 0, 1e6,
				     &a->o.threshold_ns);
	case O_FORMAT:
		i = xl_parse_choice(&compare_spec, "--format", arg, formats);
		if (i < 0)
			return i;
		a->markdown = i == 1;
		a->format_given = true;
		return 0;
	case O_JSON:
		a->json = true;
		return 0;
	}
	return -EINVAL;
}

/*
 * Side @i (0 base, 1 new) from the store: the newest run of its label (by
 * date, then id), named "store run N (label L)"; a note on stderr says
 * which when the label has several. Return: 0 or the exit status (one
 * line printed).
 */
static int load_stored(struct xl_store *s, const struct compare_args *a, int i,
		       struct xl_cmp_file *f)
{
	static const char *const side[] = { "--base-label", "--new-label" };
	struct xl_store_run *runs, run;
	char err[1024], name[320];
	json_t *doc = NULL;
	size_t len;
	char *text;
	int n, ret;

	if (xl_store_list(s, a->label[i], &runs, &n, err, sizeof(err))) {
		xl_usage_error(&compare_spec, "%s", err);
		return XL_EXIT_RUNTIME;
	}
	if (!n) {
		xl_usage_error(&compare_spec, "%s '%s': no stored run has this label in %s (store list shows them)",
			       side[i], a->label[i], xl_store_name(s));
		free(runs);
		return XL_EXIT_USAGE;
	}
	run = runs[n - 1];
	free(runs);
	if (n > 1)
		fprintf(stderr, "xdplab compare: label %s has %d stored runs: the newest, run %lld (%s), is compared (one run a side)\n",
			XL_ESC(a->label[i]), n, run.id, XL_ESC(run.date));
	if (xl_store_doc(s, run.id, &text, &len, NULL, err, sizeof(err))) {
		xl_usage_error(&compare_spec, "%s", err);
		return XL_EXIT_RUNTIME;
	}
	snprintf(name, sizeof(name), "store run %lld (label %s)", run.id, a->label[i]);
	doc = json_loadb(text, len, 0, NULL);
	ret = doc ? xl_cmp_from_doc(name, doc, f, err, sizeof(err)) : -EINVAL;
	if (ret)
		xl_usage_error(&compare_spec, "%s", doc ? err : "stored document is not JSON");
	json_decref(doc);
	free(text);
	return ret ? XL_EXIT_USAGE : 0;
}

/* Both sides, from the files or the store. Return: 0 or the exit status. */
static int load_sides(const struct compare_args *a, char **files, struct xl_cmp_file *f)
{
	struct xl_store *s = NULL;
	char err[512];
	int i, ret = 0;

	if (a->db && !(s = xl_cmd_store_open(&compare_spec, a->db, false, &ret)))
		return ret;
	for (i = 0; i < 2 && !ret; i++) {
		if (s) {
			ret = load_stored(s, a, i, &f[i]);
		} else if (xl_cmp_load(files[i], &f[i], err, sizeof(err))) {
			xl_usage_error(&compare_spec, "%s", err);
			ret = XL_EXIT_USAGE;
		}
		if (ret && i)
			xl_cmp_file_free(&f[0]);
	}
	xl_store_close(s);
	return ret;
}

/* ---- text and markdown ---- */

/*
 * A results file's text (host, kernel, row names, reasons, paths) as a
 * terminal may show it, and in markdown as one table cell: controls as
 * \xNN, '|' and '\' with a backslash (a name cannot forge a line or a column).
 */
#define TXT(md, s) ((md) ? XL_ESC_MD(s) : XL_ESC(s))

static const char *status_text(const struct xl_cmp_row *r)
{
	return xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_TEXT);
}

static const struct xl_cmp_rowdata *ident(const struct xl_cmp_row *r)
{
	return r->base ? r->base : r->new;
}

static void fmt_side(char *buf, size_t len, const struct xl_cmp_rowdata *d)
{
	if (!d || !d->nreps)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f (%.3f-%.3f)", d->mpps.median, d->mpps.min, d->mpps.max);
}

/* The verdict's column: "regression (CPU)" and what it rests on. */
static void fmt_verdict(char *buf, size_t len, const struct xl_cmp_row *r)
{
	if (r->status == XL_CMP_NOT_MEASURED) { /* the reason says it */
		snprintf(buf, len, "%s", r->reason);
		return;
	}
	snprintf(buf, len, "%s", status_text(r));
	if (r->status == XL_CMP_PAIRED && r->on_cpu)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " (generator-bound: on DUT CPU ns/packet)");
	if (r->reason[0])
		snprintf(buf + strlen(buf), len - strlen(buf), ": %s", r->reason);
}

static void print_env(const struct xl_cmp_file *b, const struct xl_cmp_file *n, bool md)
{
	struct xl_cmp_env_row e[64];
	int i, ne = xl_cmp_env(b, n, e, 64);

	if (md)
		printf("| environment | base | new |\n|---|---|---|\n");
	else
		printf("  %-22s %-36s %s\n", "environment", "base", "new");
	for (i = 0; i < ne; i++)
		if (md)
			printf("| %s%s | %s | %s |\n", e[i].differs ? "**differs:** " : "",
			       TXT(md, e[i].field), TXT(md, e[i].base), TXT(md, e[i].new));
		else
			printf("%c %-22s %-36s %s\n", e[i].differs ? '*' : ' ', TXT(md, e[i].field),
			       TXT(md, e[i].base), TXT(md, e[i].new));
	if (!md)
		printf("  (* = differs)\n");
}

static void print_table(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct compare_args *a)
{
	bool md = a->markdown;
	char bs[48], ns[48], v[256], delta[40], dns[16], bc[16], nc[16], dc[16], p[24], pv[16];
	int i, w = XL_TABLE_NAME_MIN;

	/*
	 * The name column fits the longest name as shown (redirect/b1+mon-floor:
	 * 21), as the lab's table.
	 */
	for (i = 0; i < res->nrows; i++)
		if ((int)strlen(XL_ESC(ident(&res->rows[i])->name)) > w)
			w = strlen(XL_ESC(ident(&res->rows[i])->name));

	/* Markdown: the closing ** on the same line, or CommonMark shows them. */
	printf("%sxdplab compare: base %s (commit %s, %s) vs new %s (commit %s, %s)%s\n",
	       md ? "**" : "", TXT(md, b->path), TXT(md, b->git[0] ? b->git : "?"),
	       TXT(md, b->date[0] ? b->date : "?"), TXT(md, n->path),
	       TXT(md, n->git[0] ? n->git : "?"), TXT(md, n->date[0] ? n->date : "?"),
	       md ? "**" : "");
	if (res->cross_machine)
		printf("%sWARNING: the two runs were made on different machines (host, CPU model or CPU count differ): the deltas mix machine and change\n",
		       md ? "\n" : "");
	if (res->ceiling_moved)
		printf("%sWARNING: the generator ceiling (gen-ceiling: the generator alone, nothing under test) moved %+.1f%% between the runs: the host changed, and the other rows' verdicts carry that change too\n",
		       md ? "\n" : "", res->ceiling_pct);
	printf("%s", md ? "\n" : "");
	print_env(b, n, md);
	printf("\nMann-Whitney U, two-sided, exact, over the repetitions' ns/packet (1e9/pps; DUT CPU ns/packet for generator-bound rows); alpha %g, threshold %g ns/packet\n",
	       a->o.alpha, a->o.threshold_ns);
	printf("d ns/p = 1e9/new - 1e9/base of the median rates; d CPU = new - base median DUT CPU ns/packet; positive = slower\n\n");
	if (md)
		printf("| benchmark | size | mode | wiring | base Mpps (min-max) | new Mpps (min-max) | delta Mpps | d ns/p | base CPU ns/p | new CPU ns/p | d CPU | n | p | verdict |\n"
		       "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	else
		printf("%-*s %5s %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n", w, "benchmark",
		       "size", "mode", "wiring", "base Mpps (min-max)", "new Mpps (min-max)",
		       "delta Mpps", "d ns/p", "base CPU", "new CPU", "d CPU", "n", "p", "verdict");
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = ident(r);
		bool num = r->status == XL_CMP_PAIRED;

		fmt_side(bs, sizeof(bs), r->base);
		fmt_side(ns, sizeof(ns), r->new);
		fmt_verdict(v, sizeof(v), r);
		snprintf(delta, sizeof(delta), num ? "%+.3f (%+.1f%%)" : "-", r->delta_mpps,
			 r->delta_pct);
		snprintf(dns, sizeof(dns), num ? "%+.2f" : "-", r->delta_ns);
		snprintf(bc, sizeof(bc), num && r->base_cpu > 0 ? "%.1f" : "-", r->base_cpu);
		snprintf(nc, sizeof(nc), num && r->new_cpu > 0 ? "%.1f" : "-", r->new_cpu);
		snprintf(dc, sizeof(dc), num && r->base_cpu > 0 && r->new_cpu > 0 ? "%+.2f" : "-",
			 r->delta_cpu_ns);
		snprintf(p, sizeof(p), num ? "%zu/%zu" : "-", r->test.n2, r->test.n1);
		snprintf(pv, sizeof(pv), num ? "%.3f" : "-", r->test.p);
		if (md)
			printf("| %s | %u | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			       TXT(md, d->name), d->size, TXT(md, d->mode),
			       TXT(md, d->wiring[0] ? d->wiring : "-"), bs, ns, delta, dns, bc, nc,
			       dc, p, pv, TXT(md, v));
		else
			printf("%-*s %5u %-7s %-9s %22s %22s %16s %8s %8s %8s %8s %5s %6s  %s\n",
			       w, TXT(md, d->name), d->size, TXT(md, d->mode),
			       TXT(md, d->wiring[0] ? d->wiring : "-"), bs, ns, delta, dns, bc, nc,
			       dc, p, pv, TXT(md, v));
	}
}

/* "3 too few reps, " for the summaries; "" when there are none. */
static const char *too_few_text(int n)
{
	static char buf[32];

	if (!n)
		return "";
	snprintf(buf, sizeof(buf), "%d too few reps, ", n);
	return buf;
}

static void print_notes(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			const struct xl_cmp_result *res, const struct compare_args *a)
{
	size_t seen[XL_MAX_REPS + 1][XL_MAX_REPS + 1] = { { 0 } };
	size_t need = xl_mann_whitney_n_needed(a->o.alpha);
	int i;

	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];

		if (r->status != XL_CMP_PAIRED || r->verdict != XL_CMP_TOO_FEW ||
		    seen[r->test.n2][r->test.n1]++)
			continue;
		printf("\nnote: %zu vs %zu repetitions can never reach p < %g (the smallest two-sided p they can give is %.3f):"
		       " 'too few reps' there means 'cannot tell', not 'no change'; %s\n",
		       r->test.n2, r->test.n1, a->o.alpha,
		       xl_mann_whitney_min_p(r->test.n2, r->test.n1),
		       need ? "" : "no repetition count up to 32 can reach it");
		if (need)
			printf("      it needs at least %zu vs %zu (lab run --reps %zu)\n", need, need, need);
	}
	printf("\n%d rows in base, %d in new: %d paired, %d compared; %d regression(s), %d improvement(s), %d ~, %s%d not comparable or not measured, %d in one file only\n",
	       b->nrows, n->nrows, res->paired, res->compared, res->regressions,
	       res->improvements, res->compared - res->regressions - res->improvements - res->too_few,
	       too_few_text(res->too_few), res->paired - res->compared, res->nrows - res->paired);
}

/* ---- latency rows ---- */

static const struct xl_cmp_latrow *lat_ident(const struct xl_cmp_latpair *p)
{
	return p->base ? p->base : p->new;
}

/* "0.0" style microseconds of a median, "-" without it. */
static void fmt_us(char *buf, size_t len, const struct xl_cmp_latrow *d, uint64_t ns)
{
	if (!d || !d->nreps)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", ns / 1e3);
}

static void fmt_lat_verdict(char *buf, size_t len, const struct xl_cmp_latpair *p)
{
	static const char *const mname[] = { "p50", "p99" };
	size_t n;
	int m, k = 0;

	if (p->status == XL_CMP_PAIRED) {
		snprintf(buf, len, "%s", xl_cmp_status_word(p->status, p->verdict, XL_CMP_WORDS_TEXT));
		for (m = 0; m < XL_CMP_LAT_NTESTS; m++)
			if (p->verdict != XL_CMP_SAME && p->mverdict[m] == p->verdict) {
				n = strlen(buf);
				snprintf(buf + n, len - n, "%s%s", k++ ? ", " : " (", mname[m]);
			}
		n = strlen(buf);
		if (k)
			snprintf(buf + n, len - n, ")");
	} else if (p->status == XL_CMP_NOT_MEASURED) {
		snprintf(buf, len, "%s", p->reason);
	} else {
		snprintf(buf, len, "%s%s%s",
			 xl_cmp_status_word(p->status, p->verdict, XL_CMP_WORDS_TEXT),
			 p->reason[0] ? ": " : "", p->reason);
	}
	xl_cmp_lat_rose_append(buf, len, p->rose);
}

static void print_lat_table(const struct xl_cmp_latresult *lr, const struct compare_args *a)
{
	static const char *const fig[] = { "p50", "p99", "p99.9", "max" };
	bool md = a->markdown;
	char c[4][3][24], bl[24], nl[24], nn[16], pp[2][16], v[320];
	int i, f;

	printf("\nlatency rows (lab run --latency): medians over the repetitions in us, d%% = new vs base;"
	       " Mann-Whitney U, two-sided, exact, over the repetitions' p50 and p99; alpha %g, threshold %g ns;"
	       " lost = sent - distinct received (median)\n\n", a->o.alpha, a->o.threshold_ns);
	if (md) {
		printf("| latency row | size | wiring |");
		for (f = 0; f < 4; f++)
			printf(" base %s | new %s | d%% |", fig[f], fig[f]);
		printf(" base lost | new lost | n | p p50 | p p99 | verdict |\n|---|---:|---|");
		for (f = 0; f < 4 * 3 + 5; f++)
			printf("---:|");
		printf("---|\n");
	} else {
		printf("%-20s %5s %-8s %8s %8s %7s %8s %8s %7s %8s %8s %7s %8s %8s %7s %9s %9s %5s %6s %6s  %s\n",
		       "latency row", "size", "wiring", "b p50", "n p50", "d%", "b p99", "n p99", "d%",
		       "b p99.9", "n p99.9", "d%", "b max", "n max", "d%", "b lost", "n lost", "n",
		       "p p50", "p p99", "verdict");
	}
	for (i = 0; i < lr->npairs; i++) {
		const struct xl_cmp_latpair *p = &lr->pairs[i];
		const struct xl_cmp_latrow *d = lat_ident(p);
		const struct xl_lat_rep *bm = p->base ? &p->base->med : NULL;
		const struct xl_lat_rep *nm = p->new ? &p->new->med : NULL;
		bool num = p->status == XL_CMP_PAIRED;
		const double dp[4] = { p->pct_p50, p->pct_p99, p->pct_p999, p->pct_max };

		for (f = 0; f < 4; f++) {
			uint64_t bv = !bm ? 0 : f == 0 ? bm->p50_ns : f == 1 ? bm->p99_ns :
					  f == 2 ? bm->p999_ns : bm->max_ns;
			uint64_t nv = !nm ? 0 : f == 0 ? nm->p50_ns : f == 1 ? nm->p99_ns :
					  f == 2 ? nm->p999_ns : nm->max_ns;

			fmt_us(c[f][0], sizeof(c[f][0]), p->base, bv);
			fmt_us(c[f][1], sizeof(c[f][1]), p->new, nv);
			snprintf(c[f][2], sizeof(c[f][2]), num ? "%+.1f%%" : "-", dp[f]);
		}
		snprintf(bl, sizeof(bl), p->base && p->base->nreps ? "%llu" : "-",
			 bm ? (unsigned long long)bm->lost : 0ULL);
		snprintf(nl, sizeof(nl), p->new && p->new->nreps ? "%llu" : "-",
			 nm ? (unsigned long long)nm->lost : 0ULL);
		snprintf(nn, sizeof(nn), num ? "%zu/%zu" : "-", p->test[0].n1, p->test[0].n2);
		snprintf(pp[0], sizeof(pp[0]), num ? "%.3f" : "-", p->test[0].p);
		snprintf(pp[1], sizeof(pp[1]), num ? "%.3f" : "-", p->test[1].p);
		fmt_lat_verdict(v, sizeof(v), p);
		if (md) {
			printf("| %s | %u | %s |", TXT(md, d->name), d->size,
			       TXT(md, d->wiring[0] ? d->wiring : "-"));
			for (f = 0; f < 4; f++)
				printf(" %s | %s | %s |", c[f][0], c[f][1], c[f][2]);
			printf(" %s | %s | %s | %s | %s | %s |\n", bl, nl, nn, pp[0], pp[1],
			       TXT(md, v));
		} else {
			printf("%-20s %5u %-8s", TXT(md, d->name), d->size,
			       TXT(md, d->wiring[0] ? d->wiring : "-"));
			for (f = 0; f < 4; f++)
				printf(" %8s %8s %7s", c[f][0], c[f][1], c[f][2]);
			printf(" %9s %9s %5s %6s %6s  %s\n", bl, nl, nn, pp[0], pp[1], TXT(md, v));
		}
	}
}

/* Every count that rose from 0, with its repetitions; the latency summary. */
static void print_lat_notes(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			    const struct xl_cmp_latresult *lr, const struct compare_args *a)
{
	const struct xl_cmp_latpair *few = NULL;
	int i, k, first = 1;

	for (i = 0; i < lr->npairs; i++) {
		const struct xl_cmp_latpair *p = &lr->pairs[i];

		if (p->status == XL_CMP_PAIRED && p->verdict == XL_CMP_TOO_FEW && !few)
			few = p;
		if (!p->rose)
			continue;
		printf("%snote: %s %u B:", first ? "\n" : "", TXT(a->markdown, p->base->name),
		       p->base->size);
		first = 0;
		for (k = 0; k < 4; k++)
			if (p->rose & (1u << k))
				printf("%s %s rose from 0 (%llu in %d of %d new repetitions, 0 in %d base ones)",
				       k && (p->rose & ((1u << k) - 1)) ? ";" : "",
				       xl_cmp_lat_book_name(k), p->new_sum[k], p->new_reps_with[k],
				       p->new->nreps, p->base->nreps);
		printf("\n");
	}
	if (few)
		printf("\nnote: latency rows with %zu vs %zu repetitions can never reach p < %g: 'too few reps' there means 'cannot tell', not 'no change' (lab run --latency --reps %zu)\n",
		       few->test[0].n1, few->test[0].n2, a->o.alpha,
		       xl_mann_whitney_n_needed(a->o.alpha));
	printf("latency: %d rows in base, %d in new: %d paired, %d compared; %d regression(s), %d improvement(s), %d ~, %s%d not comparable or not measured, %d in one file only; %d with a count risen from 0\n",
	       b->nlat, n->nlat, lr->paired, lr->compared, lr->regressions, lr->improvements,
	       lr->compared - lr->regressions - lr->improvements - lr->too_few,
	       too_few_text(lr->too_few), lr->paired - lr->compared, lr->npairs - lr->paired,
	       lr->rose);
}

/* ---- JSON ---- */

static json_t *side_json(const struct xl_cmp_rowdata *d, double cpu)
{
	if (!d)
		return json_null();
	return json_pack("{s:i,s:o,s:s,s:o}", "n", d->nreps, "mpps",
			 d->nreps ? json_pack("{s:f,s:f,s:f}", "median", d->mpps.median, "min",
					      d->mpps.min, "max", d->mpps.max) : json_null(),
			 "verdict", d->verdict,
			 "cpu_ns_per_pkt", cpu > 0 ? json_real(cpu) : json_null());
}

static json_t *lat_side_json(const struct xl_cmp_latrow *d, const unsigned long long *sum)
{
	const struct xl_lat_rep *m;

	if (!d)
		return json_null();
	m = &d->med;
	return json_pack("{s:i,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:{s:I,s:I,s:I,s:I}}",
			 "n", d->nreps, "median", "sent", (json_int_t)m->sent, "received",
			 (json_int_t)m->received, "lost", (json_int_t)m->lost, "gaps",
			 (json_int_t)m->gaps, "reordered", (json_int_t)m->reordered, "duplicates",
			 (json_int_t)m->duplicates, "p50_ns", (json_int_t)m->p50_ns, "p90_ns",
			 (json_int_t)m->p90_ns, "p99_ns", (json_int_t)m->p99_ns, "p999_ns",
			 (json_int_t)m->p999_ns, "max_ns", (json_int_t)m->max_ns, "sum", "lost",
			 (json_int_t)sum[0], "gaps", (json_int_t)sum[1], "reordered",
			 (json_int_t)sum[2], "duplicates", (json_int_t)sum[3]);
}

static json_t *lat_json(const struct xl_cmp_latresult *lr)
{
	static const char *const mname[] = { "p50", "p99" };
	json_t *arr = json_array();
	int i, k, m;

	for (i = 0; i < lr->npairs; i++) {
		const struct xl_cmp_latpair *p = &lr->pairs[i];
		const struct xl_cmp_latrow *d = lat_ident(p);
		json_t *rose = json_array();
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:f,s:s,s:s,s:o,s:o}", "name", d->name,
				      "path", d->path, "size", d->size, "wiring", d->wiring,
				      "rate_pps", d->rate_pps, "status", xl_cmp_status_word(p->status, p->verdict, XL_CMP_WORDS_JSON),
				      "reason", p->reason, "base", lat_side_json(p->base, p->base_sum),
				      "new", lat_side_json(p->new, p->new_sum));

		for (k = 0; k < 4; k++)
			if (p->rose & (1u << k))
				json_array_append_new(rose, json_string(xl_cmp_lat_book_name(k)));
		json_object_set_new(o, "rose_from_zero", rose);
		if (p->status == XL_CMP_PAIRED) {
			json_t *tests = json_object();

			json_object_set_new(o, "delta_pct", json_pack("{s:f,s:f,s:f,s:f}", "p50",
				p->pct_p50, "p99", p->pct_p99, "p999", p->pct_p999, "max", p->pct_max));
			for (m = 0; m < XL_CMP_LAT_NTESTS; m++)
				json_object_set_new(tests, mname[m], json_pack("{s:f,s:f,s:s}", "u",
					p->test[m].u, "p", p->test[m].p, "verdict",
					xl_cmp_verdict_name(p->mverdict[m])));
			json_object_set_new(o, "tests", tests);
			json_object_set_new(o, "n_base", json_integer(p->test[0].n2));
			json_object_set_new(o, "n_new", json_integer(p->test[0].n1));
			json_object_set_new(o, "min_p", json_real(xl_mann_whitney_min_p(p->test[0].n1,
										       p->test[0].n2)));
			json_object_set_new(o, "too_few", json_boolean(p->too_few));
			json_object_set_new(o, "verdict", json_string(xl_cmp_verdict_name(p->verdict)));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

static void print_json(const struct xl_cmp_file *b, const struct xl_cmp_file *n,
		       const struct xl_cmp_result *res, const struct xl_cmp_latresult *lr,
		       const struct compare_args *a)
{
	struct xl_cmp_env_row e[64];
	json_t *doc = json_object(), *env = json_array(), *rows = json_array(), *sum;
	int i, ne = xl_cmp_env(b, n, e, 64);

	json_object_set_new(doc, "schema", json_string("xdplab.compare/1"));
	json_object_set_new(doc, "base", json_pack("{s:s,s:s,s:s}", "path", b->path, "git",
						    b->git, "date", b->date));
	json_object_set_new(doc, "new", json_pack("{s:s,s:s,s:s}", "path", n->path, "git",
						   n->git, "date", n->date));
	for (i = 0; i < ne; i++)
		json_array_append_new(env, json_pack("{s:s,s:s,s:s,s:b}", "field", e[i].field,
						     "base", e[i].base, "new", e[i].new,
						     "differs", e[i].differs));
	json_object_set_new(doc, "environment", env);
	json_object_set_new(doc, "cross_machine", json_boolean(res->cross_machine));
	json_object_set_new(doc, "ceiling_moved", json_boolean(res->ceiling_moved));
	json_object_set_new(doc, "ceiling_pct", res->ceiling_moved ? json_real(res->ceiling_pct) :
								      json_null());
	json_object_set_new(doc, "alpha", json_real(a->o.alpha));
	json_object_set_new(doc, "threshold_ns", json_real(a->o.threshold_ns));
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];
		const struct xl_cmp_rowdata *d = ident(r);
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:s,s:o,s:o}", "name", d->name,
				      "packet_operation", d->op, "size", d->size, "mode", d->mode,
				      "wiring", d->wiring, "gen_engine", d->engine,
				      "status", xl_cmp_status_word(r->status, r->verdict, XL_CMP_WORDS_JSON), "reason", r->reason,
				      "base", side_json(r->base, r->base_cpu),
				      "new", side_json(r->new, r->new_cpu));

		if (r->status == XL_CMP_PAIRED) {
			json_object_set_new(o, "delta_mpps", json_real(r->delta_mpps));
			json_object_set_new(o, "delta_pct", json_real(r->delta_pct));
			json_object_set_new(o, "delta_ns_per_pkt", json_real(r->delta_ns));
			json_object_set_new(o, "delta_cpu_ns_per_pkt",
					    r->base_cpu > 0 && r->new_cpu > 0 ?
					    json_real(r->delta_cpu_ns) : json_null());
			json_object_set_new(o, "metric", json_string(r->on_cpu ? "cpu_ns_per_pkt" :
									       "ns_per_pkt"));
			json_object_set_new(o, "u", json_real(r->test.u));
			json_object_set_new(o, "p", json_real(r->test.p));
			json_object_set_new(o, "n_base", json_integer(r->test.n2));
			json_object_set_new(o, "n_new", json_integer(r->test.n1));
			json_object_set_new(o, "min_p", json_real(xl_mann_whitney_min_p(r->test.n1,
										       r->test.n2)));
			json_object_set_new(o, "too_few", json_boolean(r->too_few));
			json_object_set_new(o, "verdict", json_string(xl_cmp_verdict_name(r->verdict)));
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(doc, "rows", rows);
	sum = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "base_rows", b->nrows, "new_rows", n->nrows,
			"paired", res->paired, "compared", res->compared, "regressions",
			res->regressions, "improvements", res->improvements);
	/* Only when there are any: the files of before it read the same. */
	if (res->too_few)
		json_object_set_new(sum, "too_few", json_integer(res->too_few));
	json_object_set_new(doc, "summary", sum);
	json_object_set_new(doc, "latency", lat_json(lr));
	sum = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "base_rows", b->nlat, "new_rows", n->nlat,
			"paired", lr->paired, "compared", lr->compared, "regressions",
			lr->regressions, "improvements", lr->improvements, "rose_from_zero",
			lr->rose);
	if (lr->too_few)
		json_object_set_new(sum, "too_few", json_integer(lr->too_few));
	json_object_set_new(doc, "latency_summary", sum);
	json_dumpf(doc, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(doc);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .o = { .alpha = XL_CMP_ALPHA_DEFAULT, .threshold_ns = 0 } };
	struct xl_cmp_file f[2];
	struct xl_cmp_result res;
	struct xl_cmp_latresult lr = { 0 };
	int idx, ret;

	idx = xl_opts_parse(&compare_spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (a.db && argc != idx) {
		xl_usage_error(&compare_spec, "--db compares stored runs: no file expected (got %d)",
			       argc - idx);
		return XL_EXIT_USAGE;
	}
	if (a.db && (!a.label[0] || !a.label[1])) {
		xl_usage_error(&compare_spec, "--db needs --base-label and --new-label");
		return XL_EXIT_USAGE;
	}
	if (!a.db && (a.label[0] || a.label[1])) {
		xl_usage_error(&compare_spec, "--base-label and --new-label need --db (the store to read)");
		return XL_EXIT_USAGE;
	}
	if (!a.db && argc - idx != 2) {
		xl_usage_error(&compare_spec, "two files expected: BASE.json NEW.json (got %d)",
			       argc - idx);
		return XL_EXIT_USAGE;
	}
	if (a.json && a.format_given) {
		xl_usage_error(&compare_spec, "--json and --format exclude each other (choose one output)");
		return XL_EXIT_USAGE;
	}
	ret = load_sides(&a, argv + idx, f);
	if (ret)
		return ret;
	ret = XL_EXIT_USAGE;
	if (xl_cmp_run(&f[0], &f[1], &a.o, &res)) {
		xl_err("compare: out of memory");
		ret = XL_EXIT_RUNTIME;
		goto out_files;
	}
	if (xl_cmp_lat_run(&f[0], &f[1], &a.o, &lr)) {
		xl_err("compare: out of memory");
		ret = XL_EXIT_RUNTIME;
		goto out_result;
	}
	if (!res.paired && !lr.paired) {
		xl_usage_error(&compare_spec, "%s and %s have no row in common (%d and %d rows; rows pair by name, packet operation, size and mode)",
			       f[0].path, f[1].path, f[0].nrows, f[1].nrows);
		goto out_result;
	}
	if (a.json) {
		print_json(&f[0], &f[1], &res, &lr, &a);
	} else {
		print_table(&f[0], &f[1], &res, &a);
		if (lr.npairs)
			print_lat_table(&lr, &a);
		print_notes(&f[0], &f[1], &res, &a);
		if (lr.npairs)
			print_lat_notes(&f[0], &f[1], &lr, &a);
	}
	/* Cannot tell is no pass: 2 unless a row regressed. */
	if (res.regressions || lr.regressions)
		ret = XL_EXIT_RUNTIME;
	else if (res.too_few || lr.too_few)
		ret = XL_EXIT_USAGE;
	else
		ret = XL_EXIT_OK;
out_result:
	xl_cmp_latresult_free(&lr);
	xl_cmp_result_free(&res);
out_files:
	xl_cmp_file_free(&f[0]);
	xl_cmp_file_free(&f[1]);
	return ret;
}
