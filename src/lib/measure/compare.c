// SPDX-License-Identifier: BSD-2-Clause
/*
 * Comparing two results files (xdplab/compare.h): pairing their rows by
 * identity, a verdict per row. Reading them is compare_read.c's, their
 * machines' differences compare_env.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"

#include "compare_priv.h"

/* ---- comparing ---- */

int xl_cmp_row_order(const struct xl_cmp_file *af, int i, const struct xl_cmp_file *bf, int j,
		     bool exact)
{
	const struct xl_cmp_rowdata *a = &af->rows[i], *b = &bf->rows[j];
	int d;

	if ((d = strcmp(a->name, b->name)) || (d = strcmp(a->op, b->op)))
		return d;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if ((d = strcmp(a->mode, b->mode)) || !exact)
		return d;
	if ((d = strcmp(a->wiring, b->wiring)))
		return d;
	return strcmp(a->engine, b->engine);
}

static double median_of(const double *v, int n)
{
	return xl_summarize(v, n).median;
}

void xl_cmp_row_compare(struct xl_cmp_row *r, const struct xl_cmp_opts *o)
{
	const struct xl_cmp_rowdata *b = r->base, *n = r->new;
	struct xl_cmp_rowdata bc, nc;
	double bv[XL_MAX_REPS], nv[XL_MAX_REPS];
	const double *bs, *ns;
	int i, zb, zn;

	r->verdict = XL_CMP_NONE;
	if (xl_cmp_not_measured(r->reason, sizeof(r->reason), b->nreps, b->note, n->nreps,
				n->note)) {
		r->status = XL_CMP_NOT_MEASURED;
		return;
	}
	r->status = XL_CMP_PAIRED;
	r->corrected = xl_cmp_wants_corrected(o, b, false) && xl_cmp_has_ctl(b) && xl_cmp_has_ctl(n);
	r->ctl_ref_ns = 0;
	if (r->corrected) {
		const struct xl_cmp_rowdata *both[2] = { b, n };

		/* The same figures, each repetition moved to one host speed. */
		r->ctl_ref_ns = xl_cmp_ctl_ref(both, 2);
		xl_cmp_correct(b, r->ctl_ref_ns, &bc);
		xl_cmp_correct(n, r->ctl_ref_ns, &nc);
		b = &bc;
		n = &nc;
	}
	r->prog = o->figure == XL_CMP_FIG_PROG && xl_cmp_has_prog(b) && xl_cmp_has_prog(n);
	if (r->prog) {
		/* One value a side: shown, never decided (too few). */
		xl_cmp_prog_figure(b, &bc);
		xl_cmp_prog_figure(n, &nc);
		b = &bc;
		n = &nc;
	}
	r->delta_mpps = n->mpps.median - b->mpps.median;
	r->delta_pct = b->mpps.median > 0 ? 100 * r->delta_mpps / b->mpps.median : 0;
	r->delta_ns = xl_delta_ns_per_pkt(b->mpps.median * 1e6, n->mpps.median * 1e6);
	r->base_cpu = median_of(b->cpu_ns, b->nreps);
	r->new_cpu = median_of(n->cpu_ns, n->nreps);
	r->delta_cpu_ns = r->new_cpu - r->base_cpu;
	/*
	 * A generator-bound row's rate is the generator's, not the DUT's;
	 * its DUT CPU time per packet is the DUT's cost either way.
	 */
	r->on_cpu = ((!strcmp(b->verdict, "generator-bound") ||
		      !strcmp(n->verdict, "generator-bound")) &&
		     xl_cmp_all_positive(b->cpu_ns, b->nreps) &&
		     xl_cmp_all_positive(n->cpu_ns, n->nreps)) ||
		    r->prog;
	if (r->on_cpu) {
		bs = b->cpu_ns;
		ns = n->cpu_ns;
		r->delta = r->delta_cpu_ns;
	} else {
		for (i = 0; i < b->nreps; i++)
			bv[i] = xl_cmp_test_ns(b->pps[i]);
		for (i = 0; i < n->nreps; i++)
			nv[i] = xl_cmp_test_ns(n->pps[i]);
		bs = bv;
		ns = nv;
		r->delta = r->delta_ns;
	}
	/* x = new, y = base: U near n1*n2 means new takes longer. */
	xl_mann_whitney(ns, n->nreps, bs, b->nreps, &r->test);
	r->too_few = xl_mann_whitney_min_p(n->nreps, b->nreps) >= o->alpha;
	r->verdict = r->too_few ? XL_CMP_TOO_FEW : xl_cmp_decide(r->test.p, r->delta, o);
	if (r->prog && r->too_few) /* more repetitions would not help: more runs would */
		snprintf(r->reason, sizeof(r->reason), "%s", XL_CMP_PROG_ONE_RUN);
	/*
	 * A rate of 0 is the row broken (or mended), not a statistic: it
	 * would otherwise read as 0 ns/packet and a delta of 0.
	 */
	/* The measured rates: --figure prog's stand-in rate is never 0. */
	zb = xl_cmp_zero_rates(r->base->pps, r->base->nreps);
	zn = xl_cmp_zero_rates(r->new->pps, r->new->nreps);
	if (zn && !zb) {
		r->verdict = XL_CMP_REGRESSION;
		snprintf(r->reason, sizeof(r->reason), "rate fell to 0 pps in %d of %d new repetitions",
			 zn, r->new->nreps);
	} else if (zb && !zn) {
		r->verdict = XL_CMP_IMPROVEMENT;
		snprintf(r->reason, sizeof(r->reason), "rate rose from 0 pps (0 in %d of %d base repetitions)",
			 zb, r->base->nreps);
	} else if (zb) {
		snprintf(r->reason, sizeof(r->reason), "rate 0 pps in %d of %d base and %d of %d new repetitions",
			 zb, r->base->nreps, zn, r->new->nreps);
	}
}

/* Why two paired rows cannot be compared; "" when they can. */
static void set_up_differs(const struct xl_cmp_file *bf, const struct xl_cmp_file *nf,
			   const struct xl_cmp_rowdata *b, const struct xl_cmp_rowdata *n,
			   char *buf, size_t len)
{
	buf[0] = '\0';
	if (xl_cmp_text_differs(buf, len, "wiring", b->wiring, n->wiring))
		return;
	/* A file from before the field says nothing: not a difference. */
	if (b->cpu_source[0] && n->cpu_source[0] && strcmp(b->cpu_source, n->cpu_source)) {
		snprintf(buf, len, "DUT CPU time source differs: %s vs %s", b->cpu_source,
			 n->cpu_source);
		return;
	}
	if (xl_cmp_text_differs(buf, len, "generator engine", b->engine, n->engine))
		return;
	if (bf->reps != nf->reps)
		snprintf(buf, len, "repetitions differ: %d vs %d per row", bf->reps, nf->reps);
	else if (bf->seconds != nf->seconds)
		snprintf(buf, len, "window differs: %g s vs %g s", bf->seconds, nf->seconds);
	else if (bf->warmup != nf->warmup)
		snprintf(buf, len, "warm-up differs: %g s vs %g s", bf->warmup, nf->warmup);
	else
		xl_cmp_row_reps_differ(buf, len, b->nreps, n->nreps);
}

int xl_cmp_run(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
	       const struct xl_cmp_opts *o, struct xl_cmp_result *out)
{
	struct xl_cmp_pairing *pairs;
	int k, n;

	memset(out, 0, sizeof(*out));
	n = xl_cmp_pair(base, base->nrows, new, new->nrows, xl_cmp_row_order, &pairs);
	if (n < 0)
		return n;
	out->rows = calloc(n + 1, sizeof(*out->rows));
	if (!out->rows) {
		free(pairs);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		struct xl_cmp_row *r = &out->rows[out->nrows++];

		r->base = pairs[k].base < 0 ? NULL : &base->rows[pairs[k].base];
		r->new = pairs[k].new < 0 ? NULL : &new->rows[pairs[k].new];
		if (!r->base || !r->new) {
			r->status = r->base ? XL_CMP_BASE_ONLY : XL_CMP_NEW_ONLY;
			continue;
		}
		out->paired++;
		set_up_differs(base, new, r->base, r->new, r->reason, sizeof(r->reason));
		if (r->reason[0]) {
			r->status = XL_CMP_NOT_COMPARABLE;
			continue;
		}
		xl_cmp_row_compare(r, o);
		if (r->status != XL_CMP_PAIRED)
			continue;
		out->compared++;
		out->regressions += r->verdict == XL_CMP_REGRESSION;
		out->improvements += r->verdict == XL_CMP_IMPROVEMENT;
		out->too_few += r->verdict == XL_CMP_TOO_FEW;
		if (!strcmp(r->base->name, "gen-ceiling") &&
		    (r->verdict == XL_CMP_REGRESSION || r->verdict == XL_CMP_IMPROVEMENT) &&
		    fabs(r->delta_pct) >= fabs(out->ceiling_pct)) {
			out->ceiling_moved = true;
			out->ceiling_pct = r->delta_pct;
		}
	}
	free(pairs);
	out->cross_machine =
		(base->env.host[0] && new->env.host[0] && strcmp(base->env.host, new->env.host)) ||
		(base->env.cpu_model[0] && new->env.cpu_model[0] &&
		 strcmp(base->env.cpu_model, new->env.cpu_model)) ||
		(base->env.cpus && new->env.cpus && base->env.cpus != new->env.cpus);
	return 0;
}

void xl_cmp_result_free(struct xl_cmp_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
