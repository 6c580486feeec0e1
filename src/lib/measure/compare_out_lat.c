// SPDX-License-Identifier: BSD-2-Clause
/*
 * The latency rows (lab run --latency) of two files compared, written out
 * (xdplab/compare_out.h): the table, the notes of counts that rose from 0,
 * and their JSON. docs/compare.md "Latency rows".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "compare_out_priv.h"

static const struct xl_lat_rowrec *lat_ident(const struct xl_cmp_latpair *p)
{
	return p->base ? p->base : p->new;
}

/* "0.0" style microseconds of a median, "-" without it. */
static void fmt_us(char *buf, size_t len, const struct xl_lat_rowrec *d, uint64_t ns)
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

void xl_cmp_out_lat_table(FILE *out, const struct xl_cmp_latresult *lr,
			  const struct xl_cmp_view *vw)
{
	static const char *const fig[] = { "p50", "p99", "p99.9", "max" };
	bool md = XL_CMP_MD(vw);
	char c[4][3][24], bl[24], nl[24], nn[16], pp[2][16], v[320];
	int i, f;

	fprintf(out, "\nlatency rows (lab run --latency): medians over the repetitions in us, d%% = new vs base;"
	       " Mann-Whitney U, two-sided, exact, over the repetitions' p50 and p99; alpha %g, threshold %g ns;"
	       " lost = sent - distinct received (median)\n\n", vw->o.alpha, vw->o.threshold_ns);
	if (md) {
		fprintf(out, "| latency row | size | wiring |");
		for (f = 0; f < 4; f++)
			fprintf(out, " base %s | new %s | d%% |", fig[f], fig[f]);
		fprintf(out, " base lost | new lost | n | p p50 | p p99 | verdict |\n|---|---:|---|");
		for (f = 0; f < 4 * 3 + 5; f++)
			fprintf(out, "---:|");
		fprintf(out, "---|\n");
	} else {
		fprintf(out, "%-20s %5s %-8s %8s %8s %7s %8s %8s %7s %8s %8s %7s %8s %8s %7s %9s %9s %5s %6s %6s  %s\n",
		       "latency row", "size", "wiring", "b p50", "n p50", "d%", "b p99", "n p99", "d%",
		       "b p99.9", "n p99.9", "d%", "b max", "n max", "d%", "b lost", "n lost", "n",
		       "p p50", "p p99", "verdict");
	}
	for (i = 0; i < lr->npairs; i++) {
		const struct xl_cmp_latpair *p = &lr->pairs[i];
		const struct xl_lat_rowrec *d = lat_ident(p);
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
			fprintf(out, "| %s | %u | %s |", TXT(md, d->name), d->size,
			       TXT(md, d->wiring[0] ? d->wiring : "-"));
			for (f = 0; f < 4; f++)
				fprintf(out, " %s | %s | %s |", c[f][0], c[f][1], c[f][2]);
			fprintf(out, " %s | %s | %s | %s | %s | %s |\n", bl, nl, nn, pp[0], pp[1],
			       TXT(md, v));
		} else {
			fprintf(out, "%-20s %5u %-8s", TXT(md, d->name), d->size,
			       TXT(md, d->wiring[0] ? d->wiring : "-"));
			for (f = 0; f < 4; f++)
				fprintf(out, " %8s %8s %7s", c[f][0], c[f][1], c[f][2]);
			fprintf(out, " %9s %9s %5s %6s %6s  %s\n", bl, nl, nn, pp[0], pp[1], TXT(md, v));
		}
	}
}

/* Every count that rose from 0, with its repetitions; the latency summary. */
void xl_cmp_out_lat_notes(FILE *out, const struct xl_cmp_file *b, const struct xl_cmp_file *n,
			  const struct xl_cmp_latresult *lr, const struct xl_cmp_view *vw)
{
	const struct xl_cmp_latpair *few = NULL;
	int i, k, first = 1;

	for (i = 0; i < lr->npairs; i++) {
		const struct xl_cmp_latpair *p = &lr->pairs[i];

		if (p->status == XL_CMP_PAIRED && p->verdict == XL_CMP_TOO_FEW && !few)
			few = p;
		if (!p->rose)
			continue;
		fprintf(out, "%snote: %s %u B:", first ? "\n" : "", TXT(XL_CMP_MD(vw), p->base->name),
		       p->base->size);
		first = 0;
		for (k = 0; k < 4; k++)
			if (p->rose & (1u << k))
				fprintf(out, "%s %s rose from 0 (%llu in %d of %d new repetitions, 0 in %d base ones)",
				       k && (p->rose & ((1u << k) - 1)) ? ";" : "",
				       xl_cmp_lat_book_name(k), p->new_sum[k], p->new_reps_with[k],
				       p->new->nreps, p->base->nreps);
		fprintf(out, "\n");
	}
	if (few)
		fprintf(out, "\nnote: latency rows with %zu vs %zu repetitions can never reach p < %g: 'too few reps' there means 'cannot tell', not 'no change' (lab run --latency --reps %zu)\n",
		       few->test[0].n1, few->test[0].n2, vw->o.alpha,
		       xl_mann_whitney_n_needed(vw->o.alpha));
	fprintf(out, "latency: %d rows in base, %d in new: %d paired, %d compared; %d regression(s), %d improvement(s), %d ~, %s%d not comparable or not measured, %d in one file only; %d with a count risen from 0\n",
	       b->nlat, n->nlat, lr->paired, lr->compared, lr->regressions, lr->improvements,
	       lr->compared - lr->regressions - lr->improvements - lr->too_few,
	       xl_cmp_out_too_few((char[32]){ 0 }, 32, lr->too_few), lr->paired - lr->compared, lr->npairs - lr->paired,
	       lr->rose);
}

static json_t *lat_side_json(const struct xl_lat_rowrec *d, const unsigned long long *sum)
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

json_t *xl_cmp_out_lat_json(const struct xl_cmp_latresult *lr)
{
	static const char *const mname[] = { "p50", "p99" };
	json_t *arr = json_array();
	int i, k, m;

	for (i = 0; i < lr->npairs; i++) {
		const struct xl_cmp_latpair *p = &lr->pairs[i];
		const struct xl_lat_rowrec *d = lat_ident(p);
		json_t *rose = json_array();
		json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:f,s:s,s:s,s:o,s:o}", "name", d->name,
				      "path", d->path, "size", d->size, "wiring", d->wiring,
				      "rate_pps", (double)d->rate_pps, "status", xl_cmp_status_word(p->status, p->verdict, XL_CMP_WORDS_JSON),
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
