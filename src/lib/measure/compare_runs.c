// SPDX-License-Identifier: BSD-2-Clause
/*
 * Several runs a side (xdplab/compare_runs.h): the runs' set-up checked,
 * rows paired across every file, each run summarized by its median, the
 * run summaries tested by permutation (permtest.c).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare_runs.h"
#include "xdplab/stats.h"

#include "compare_priv.h"

/* One row of one file. */
struct entry {
	int f, r;
};

struct sort_ctx {
	const struct xl_cmp_file *files;
	bool exact;
};

/* By identity (loose or exact), then exact identity, then file, then row. */
static int by_ident(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct entry *x = a, *y = b;
	int d = xl_cmp_row_order(&c->files[x->f], x->r, &c->files[y->f], y->r, c->exact);

	if (!d && !c->exact)
		d = xl_cmp_row_order(&c->files[x->f], x->r, &c->files[y->f], y->r, true);
	if (!d)
		d = (x->f > y->f) - (x->f < y->f);
	return d ? d : (x->r > y->r) - (x->r < y->r);
}

/* Every row of every file, sorted; NULL on ENOMEM. */
static struct entry *sorted_entries(const struct xl_cmp_file *files, int n, bool exact, int *cnt)
{
	struct sort_ctx ctx = { .files = files, .exact = exact };
	struct entry *e;
	int f, r, k = 0;

	for (f = 0; f < n; f++)
		k += files[f].nrows;
	e = calloc(k + 1, sizeof(*e));
	if (!e)
		return NULL;
	k = 0;
	for (f = 0; f < n; f++)
		for (r = 0; r < files[f].nrows; r++)
			e[k++] = (struct entry){ f, r };
	qsort_r(e, k, sizeof(*e), by_ident, &ctx);
	*cnt = k;
	return e;
}

static const struct xl_cmp_rowdata *row_of(const struct xl_cmp_file *files, struct entry e)
{
	return &files[e.f].rows[e.r];
}

/* "drop/no-touch 64 B native" */
static void row_desc(char *buf, size_t len, const struct xl_cmp_rowdata *d)
{
	snprintf(buf, len, "%s %u B %s", d->name, d->size, d->mode[0] ? d->mode : "-");
}

static int file_setup(const struct xl_cmp_file *a, const struct xl_cmp_file *b, char *err,
		      size_t errlen)
{
	const char *tail = "every run on both sides needs the same set-up";

	if (a->reps != b->reps)
		snprintf(err, errlen, "%s and %s: repetitions per row differ between runs: %d vs %d; %s",
			 a->path, b->path, a->reps, b->reps, tail);
	else if (a->seconds != b->seconds)
		snprintf(err, errlen, "%s and %s: window differs between runs: %g s vs %g s; %s",
			 a->path, b->path, a->seconds, b->seconds, tail);
	else if (a->warmup != b->warmup)
		snprintf(err, errlen, "%s and %s: warm-up differs between runs: %g s vs %g s; %s",
			 a->path, b->path, a->warmup, b->warmup, tail);
	else if (strcmp(a->wiring, b->wiring))
		snprintf(err, errlen, "%s and %s: lab wiring differs between runs: %s vs %s; %s",
			 a->path, b->path, a->wiring[0] ? a->wiring : "-",
			 b->wiring[0] ? b->wiring : "-", tail);
	else
		return 0;
	return -EINVAL;
}

/*
 * Within one exact identity (@e[0..n)): the CPU source (of the runs that
 * say) and the repetitions (of the runs that have some) agree.
 */
static int exact_group(const struct xl_cmp_file *files, const struct entry *e, int n, char *err,
		       size_t errlen)
{
	const struct xl_cmp_rowdata *b;
	int k, src = -1, reps = -1;
	char d[96];

	row_desc(d, sizeof(d), row_of(files, e[0]));
	for (k = 0; k < n; k++) {
		b = row_of(files, e[k]);
		if (b->cpu_source[0] && src < 0)
			src = k;
		if (b->nreps && reps < 0)
			reps = k;
		if (b->cpu_source[0] && strcmp(row_of(files, e[src])->cpu_source, b->cpu_source)) {
			snprintf(err, errlen, "%s and %s: row %s: DUT CPU time source differs between runs: %s vs %s; every run on both sides needs the same set-up",
				 files[e[src].f].path, files[e[k].f].path, d,
				 row_of(files, e[src])->cpu_source, b->cpu_source);
			return -EINVAL;
		}
		if (b->nreps && row_of(files, e[reps])->nreps != b->nreps) {
			snprintf(err, errlen, "%s and %s: row %s: repetitions differ between runs: %d vs %d; every run on both sides needs the same set-up",
				 files[e[reps].f].path, files[e[k].f].path, d,
				 row_of(files, e[reps])->nreps, b->nreps);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Within one loose identity: the runs that have it must have the same
 * exact identities (wiring, engine); a run with threaded where another
 * has softirq measured something else.
 */
static int loose_group(const struct xl_cmp_file *files, const struct entry *e, int n, char *err,
		       size_t errlen)
{
	const struct xl_cmp_rowdata *a, *b;
	uint64_t mask0 = 0, mask = 0;
	int k, start = 0, other = -1, sub = 0, fa, fb;
	bool wiring;
	char d[96];

	/*
	 * Each exact identity's runs (a bit per file) against the first
	 * one's: a run with only one variant and another with only the other.
	 */
	for (k = 0; k <= n; k++) {
		if (k == n || (k && xl_cmp_row_order(&files[e[k].f], e[k].r, &files[e[k - 1].f],
						     e[k - 1].r, true))) {
			if (!sub++) {
				mask0 = mask;
			} else if ((mask0 & ~mask) && (mask & ~mask0)) {
				other = start;
				break;
			}
			if (k == n)
				break;
			mask = 0;
			start = k;
		}
		mask |= 1ULL << e[k].f;
	}
	if (other < 0)
		return 0;
	fa = __builtin_ctzll(mask0 & ~mask);
	fb = __builtin_ctzll(mask & ~mask0);
	a = row_of(files, e[0]);
	b = row_of(files, e[other]);
	wiring = strcmp(a->wiring, b->wiring);
	row_desc(d, sizeof(d), a);
	snprintf(err, errlen, "%s and %s: row %s: %s differs between runs: %s vs %s; every run on both sides needs the same set-up",
		 files[fa].path, files[fb].path, d, wiring ? "wiring" : "generator engine",
		 wiring ? (a->wiring[0] ? a->wiring : "-") : (a->engine[0] ? a->engine : "-"),
		 wiring ? (b->wiring[0] ? b->wiring : "-") : (b->engine[0] ? b->engine : "-"));
	return -EINVAL;
}

int xl_cmp_runs_check(const struct xl_cmp_file *files, int n, char *err, size_t errlen)
{
	struct entry *e;
	int i, j, cnt, ret = 0;

	if (n > 2 * XL_CMP_MAX_RUNS) {
		snprintf(err, errlen, "%d runs: at most %d a side", n, XL_CMP_MAX_RUNS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (!files[i].nrows) {
			snprintf(err, errlen, "%s: a run with no rows (lab run --json writes one per benchmark; every run needs its rows)",
				 files[i].path);
			return -EINVAL;
		}
	for (i = 1; i < n; i++)
		if (file_setup(&files[0], &files[i], err, errlen))
			return -EINVAL;
	/* Loose groups, each sorted by exact identity then file. */
	e = sorted_entries(files, n, false, &cnt);
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < cnt && !ret; i = j) {
		for (j = i + 1; j < cnt && !xl_cmp_row_order(&files[e[i].f], e[i].r, &files[e[j].f],
							     e[j].r, false); j++)
			;
		ret = loose_group(files, e + i, j - i, err, errlen);
	}
	for (i = 0; i < cnt && !ret; i = j) {
		for (j = i + 1; j < cnt && !xl_cmp_row_order(&files[e[i].f], e[i].r, &files[e[j].f],
							     e[j].r, true); j++)
			;
		ret = exact_group(files, e + i, j - i, err, errlen);
	}
	free(e);
	return ret;
}

/* ---- the comparison ---- */

static double median_of(const double *v, int n)
{
	return xl_summarize(v, n).median;
}

struct xl_summary xl_cmp_run_summary(const double *pps, const double *cpu_ns, int n, bool on_cpu)
{
	double v[XL_MAX_REPS];
	int i;

	if (n > XL_MAX_REPS)
		n = XL_MAX_REPS;
	for (i = 0; i < n; i++)
		v[i] = on_cpu ? cpu_ns[i] : xl_cmp_test_ns(pps[i]);
	return xl_summarize(v, n);
}

static void mrow_compare(const struct xl_cmp_file *files, int nbase, const struct entry *e, int n,
			 const struct xl_cmp_opts *o, struct xl_cmp_mrow *m)
{
	const struct xl_cmp_rowdata *d, *bnote = NULL, *nnote = NULL, *rows[2 * XL_CMP_MAX_RUNS];
	struct xl_cmp_rowdata cv[2 * XL_CMP_MAX_RUNS];
	double reps[2 * XL_CMP_MAX_RUNS * XL_MAX_REPS], v[XL_MAX_REPS], bm[XL_CMP_MAX_RUNS],
		nm[XL_CMP_MAX_RUNS];
	size_t off[2 * XL_CMP_MAX_RUNS + 1];
	int k, i, zb = 0, zn = 0, rb = 0, rn = 0, nrep_b = 0, nrep_n = 0, in_b = 0, in_n = 0;
	size_t ng = 0;
	bool gb = false, cpu_all = true;

	m->id = row_of(files, e[0]);
	for (k = 0; k < n; k++)
		rows[k] = row_of(files, e[k]);
	/*
	 * The corrected figure where asked for and every measured run has the
	 * control on every repetition: each run's rows moved to one host
	 * speed, the median control of the row over both sides.
	 */
	m->corrected = xl_cmp_wants_corrected(o, m->id, true);
	for (k = 0; k < n && m->corrected; k++)
		m->corrected = !rows[k]->nreps || xl_cmp_has_ctl(rows[k]);
	m->ctl_ref_ns = m->corrected ? xl_cmp_ctl_ref(rows, n) : 0;
	for (k = 0; k < n && m->corrected; k++) {
		xl_cmp_correct(rows[k], m->ctl_ref_ns, &cv[k]);
		rows[k] = &cv[k];
	}
	/* The program's own time where asked for and every measured run has it: one value a run. */
	m->prog = o->figure == XL_CMP_FIG_PROG;
	for (k = 0; k < n && m->prog; k++)
		m->prog = !rows[k]->nreps || xl_cmp_has_prog(rows[k]);
	for (k = 0; k < n && m->prog; k++) {
		if (!rows[k]->nreps)
			continue;
		xl_cmp_prog_figure(rows[k], &cv[k]);
		rows[k] = &cv[k];
	}
	for (k = 0; k < n; k++) {
		d = rows[k];
		if (e[k].f < nbase) {
			in_b++;
			bnote = bnote ? bnote : d;
		} else {
			in_n++;
			nnote = nnote ? nnote : d;
		}
		if (!d->nreps)
			continue;
		gb |= !strcmp(d->verdict, "generator-bound");
		cpu_all &= xl_cmp_all_positive(d->cpu_ns, d->nreps);
		if (e[k].f < nbase)
			rb++;
		else
			rn++;
	}
	if (!in_b || !in_n) {
		m->status = in_b ? XL_CMP_BASE_ONLY : XL_CMP_NEW_ONLY;
		return;
	}
	if (xl_cmp_not_measured(m->reason, sizeof(m->reason), rb, bnote->note, rn, nnote->note)) {
		m->status = XL_CMP_NOT_MEASURED;
		return;
	}
	m->status = XL_CMP_PAIRED;
	m->on_cpu = (gb && cpu_all) || m->prog;
	off[0] = 0;
	for (k = 0; k < n; k++) {
		bool base;

		d = rows[k];
		if (!d->nreps)
			continue;
		base = e[k].f < nbase;
		for (i = 0; i < d->nreps; i++) {
			v[i] = m->on_cpu ? d->cpu_ns[i] : xl_cmp_test_ns(d->pps[i]);
			reps[off[ng] + i] = v[i];
		}
		off[ng + 1] = off[ng] + d->nreps;
		ng++;
		/* The zeros from the measured rates: --figure prog's stand-in is never 0. */
		if (base) {
			m->bsum[m->nb] = xl_cmp_run_summary(d->pps, d->cpu_ns, d->nreps, m->on_cpu).median;
			bm[m->nb++] = d->mpps.median;
			zb += xl_cmp_zero_rates(row_of(files, e[k])->pps, row_of(files, e[k])->nreps);
			nrep_b += row_of(files, e[k])->nreps;
		} else {
			m->nsum[m->nn] = xl_cmp_run_summary(d->pps, d->cpu_ns, d->nreps, m->on_cpu).median;
			nm[m->nn++] = d->mpps.median;
			zn += xl_cmp_zero_rates(row_of(files, e[k])->pps, row_of(files, e[k])->nreps);
			nrep_n += row_of(files, e[k])->nreps;
		}
	}
	m->base_mpps = median_of(bm, m->nb);
	m->new_mpps = median_of(nm, m->nn);
	for (i = 0; i < m->nb; i++)
		m->base_ns += m->bsum[i] / m->nb;
	for (i = 0; i < m->nn; i++)
		m->new_ns += m->nsum[i] / m->nn;
	m->sd_within = xl_pooled_sd(reps, off, ng);
	{
		double s[2 * XL_CMP_MAX_RUNS];
		size_t so[3] = { 0, (size_t)m->nb, (size_t)(m->nb + m->nn) };

		memcpy(s, m->bsum, m->nb * sizeof(*s));
		memcpy(s + m->nb, m->nsum, m->nn * sizeof(*s));
		m->sd_between = m->nb + m->nn >= 3 ? xl_pooled_sd(s, so, 2) : NAN;
	}
	m->mdd = xl_min_detectable(m->sd_between, m->nb, m->nn, o->alpha);
	m->too_few = xl_perm_min_p(m->nb, m->nn) >= o->alpha;
	m->tested = !(o->no_interval ? xl_perm_p : xl_perm_test)(m->bsum, m->nb, m->nsum, m->nn,
								   &m->test);
	if (!m->tested) {
		/* A run's summary is infinite (its rate 0): no test; the zeros decide. */
		m->test.nb = m->nb;
		m->test.nn = m->nn;
		m->test.p = NAN;
		m->test.estimate = NAN;
		m->test.min_p = xl_perm_min_p(m->nb, m->nn);
		m->test.ci_lo = -INFINITY;
		m->test.ci_hi = INFINITY;
	}
	m->verdict = m->too_few ? XL_CMP_TOO_FEW :
		     m->tested	 ? xl_cmp_decide(m->test.p, m->test.estimate, o) :
				   XL_CMP_SAME;
	if (zn && !zb) {
		m->verdict = XL_CMP_REGRESSION;
		snprintf(m->reason, sizeof(m->reason), "rate fell to 0 pps in %d of %d new repetitions",
			 zn, nrep_n);
	} else if (zb && !zn) {
		m->verdict = XL_CMP_IMPROVEMENT;
		snprintf(m->reason, sizeof(m->reason), "rate rose from 0 pps (0 in %d of %d base repetitions)",
			 zb, nrep_b);
	} else if (zb) {
		snprintf(m->reason, sizeof(m->reason), "rate 0 pps in %d of %d base and %d of %d new repetitions",
			 zb, nrep_b, zn, nrep_n);
	}
}

/* Groups in order of first appearance: by (file, row) of their first entry. */
static int by_first(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->f != y->f)
		return (x->f > y->f) - (x->f < y->f);
	return (x->r > y->r) - (x->r < y->r);
}

struct group {
	struct entry first;
	int start, n;
};

static int by_group_first(const void *a, const void *b)
{
	return by_first(&((const struct group *)a)->first, &((const struct group *)b)->first);
}

static bool same_machine(const struct xl_env *a, const struct xl_env *b)
{
	return !((a->host[0] && b->host[0] && strcmp(a->host, b->host)) ||
		 (a->cpu_model[0] && b->cpu_model[0] && strcmp(a->cpu_model, b->cpu_model)) ||
		 (a->cpus && b->cpus && a->cpus != b->cpus));
}

int xl_cmp_runs(const struct xl_cmp_file *files, int nbase, int nnew, const struct xl_cmp_opts *o,
		struct xl_cmp_mresult *out)
{
	struct entry *e;
	struct group *g;
	int i, j, cnt, ng = 0;

	memset(out, 0, sizeof(*out));
	if (nbase < 1 || nnew < 1 || nbase > XL_CMP_MAX_RUNS || nnew > XL_CMP_MAX_RUNS)
		return -EINVAL;
	e = sorted_entries(files, nbase + nnew, true, &cnt);
	if (!e)
		return -ENOMEM;
	g = calloc(cnt + 1, sizeof(*g));
	out->rows = calloc(cnt + 1, sizeof(*out->rows));
	if (!g || !out->rows) {
		free(e);
		free(g);
		free(out->rows);
		out->rows = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < cnt; i = j) {
		for (j = i + 1; j < cnt && !xl_cmp_row_order(&files[e[i].f], e[i].r, &files[e[j].f],
							     e[j].r, true); j++)
			;
		g[ng++] = (struct group){ .first = e[i], .start = i, .n = j - i };
	}
	qsort(g, ng, sizeof(*g), by_group_first);
	for (i = 0; i < ng; i++) {
		struct xl_cmp_mrow *m = &out->rows[out->nrows++];

		mrow_compare(files, nbase, e + g[i].start, g[i].n, o, m);
		if (m->status == XL_CMP_BASE_ONLY || m->status == XL_CMP_NEW_ONLY)
			continue;
		out->paired++;
		if (m->status != XL_CMP_PAIRED)
			continue;
		out->compared++;
		out->regressions += m->verdict == XL_CMP_REGRESSION;
		out->improvements += m->verdict == XL_CMP_IMPROVEMENT;
		out->too_few += m->verdict == XL_CMP_TOO_FEW;
		if (!strcmp(m->id->name, "gen-ceiling") &&
		    (m->verdict == XL_CMP_REGRESSION || m->verdict == XL_CMP_IMPROVEMENT) &&
		    m->base_mpps > 0) {
			double pct = 100 * (m->new_mpps - m->base_mpps) / m->base_mpps;

			if (fabs(pct) >= fabs(out->ceiling_pct)) {
				out->ceiling_moved = true;
				out->ceiling_pct = pct;
			}
		}
	}
	for (i = 0; i < nbase + nnew; i++)
		for (j = i + 1; j < nbase + nnew; j++)
			out->cross_machine |= !same_machine(&files[i].env, &files[j].env);
	free(g);
	free(e);
	return 0;
}

void xl_cmp_mresult_free(struct xl_cmp_mresult *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
