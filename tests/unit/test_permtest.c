// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_permtest.c - the permutation test over run summaries
 * (src/lib/measure/permtest.c) against a brute-force permutation written
 * here on its own (recursion over subsets, integer arithmetic, so ties are
 * exact), its interval, Student's t and the pooled spreads; and the runs'
 * comparison (src/lib/measure/compare_runs.c) on hand-made files.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/calib.h"
#include "xdplab/compare_runs.h"
#include "xdplab/permtest.h"

#include "test_util.h"

/* ---- the brute force ---- */

/*
 * Over every way to choose which @nn of the @n pooled values are "new":
 * T = mean(new) - mean(base), compared as the integer nb * sum(new) - nn *
 * sum(base) (T times nb * nn), so equal statistics are equal exactly.
 */
struct brute {
	const long *pool;
	int n, nb, nn;
	long total, obs;
	long long hits, all;
};

static void brute_rec(struct brute *b, int i, int chosen, long sum)
{
	if (chosen == b->nn) {
		long t = b->nb * sum - b->nn * (b->total - sum);

		b->all++;
		b->hits += labs(t) >= labs(b->obs);
		return;
	}
	if (b->n - i < b->nn - chosen)
		return;
	brute_rec(b, i + 1, chosen + 1, sum + b->pool[i]);
	brute_rec(b, i + 1, chosen, sum);
}

/* The brute-force p of integer samples @x (base, @nb) and @y (new, @nn). */
static double brute_p(const long *x, int nb, const long *y, int nn)
{
	long pool[2 * XL_PERM_MAX], sx = 0, sy = 0;
	struct brute b = { .pool = pool, .n = nb + nn, .nb = nb, .nn = nn };
	int i;

	for (i = 0; i < nb; i++) {
		pool[i] = x[i];
		sx += x[i];
	}
	for (i = 0; i < nn; i++) {
		pool[nb + i] = y[i];
		sy += y[i];
	}
	b.total = sx + sy;
	b.obs = (long)nb * sy - (long)nn * sx;
	brute_rec(&b, 0, 0, 0);
	return (double)b.hits / (double)b.all;
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/*
 * 2..6 runs a side, equal and unequal, values from a small range (ties
 * everywhere, also across the sides) and from a wide one, some shifted:
 * the library's p equals the brute force's, and so does its count.
 */
static void test_perm_brute(void **state)
{
	uint32_t seed = 19;
	int nb, nn, rep, i, range;

	(void)state;
	for (nb = 2; nb <= 6; nb++)
		for (nn = 2; nn <= 6; nn++)
			for (rep = 0; rep < 12; rep++) {
				long x[6], y[6];
				double xd[6], yd[6];
				struct xl_perm_result r;

				range = rep < 6 ? 4 : 1000;
				for (i = 0; i < nb; i++)
					xd[i] = x[i] = 70 + lcg(&seed) % range;
				for (i = 0; i < nn; i++)
					yd[i] = y[i] = 70 + lcg(&seed) % range + (rep % 3) * range / 2;
				assert_int_equal(xl_perm_test(xd, nb, yd, nn, &r), 0);
				assert_true(r.exact);
				assert_int_equal(r.relabelings,
						 (uint64_t)llround(xl_choose(nb + nn, nb)));
				assert_near(r.p, brute_p(x, nb, y, nn), 1e-12);
			}
}

/* All ties: every relabeling is as extreme as the observed one. */
static void test_perm_all_equal(void **state)
{
	const double a[] = { 5, 5, 5 }, b[] = { 5, 5, 5, 5 };
	struct xl_perm_result r;

	(void)state;
	assert_int_equal(xl_perm_test(a, 3, b, 4, &r), 0);
	assert_dbl_equal(r.p, 1.0);
	assert_dbl_equal(r.estimate, 0.0);
}

/* Complete separation: the smallest p each design can give. */
static void test_perm_min_p(void **state)
{
	const double lo[] = { 1, 2, 3, 4, 5, 6 }, hi[] = { 11, 12, 13, 14, 15, 16 };
	struct xl_perm_result r;

	(void)state;
	assert_near(xl_perm_min_p(3, 3), 0.1, 1e-15);
	assert_near(xl_perm_min_p(4, 4), 2.0 / 70, 1e-15);
	assert_near(xl_perm_min_p(3, 4), 1.0 / 35, 1e-15);
	assert_near(xl_perm_min_p(2, 2), 1.0 / 3, 1e-15);
	assert_dbl_equal(xl_perm_min_p(1, 1), 1.0);
	assert_int_equal(xl_perm_n_needed(0.05), 4);
	assert_int_equal(xl_perm_n_needed(0.01), 5);
	assert_int_equal(xl_perm_test(lo, 3, hi, 3, &r), 0);
	assert_near(r.p, 0.1, 1e-15);
	assert_near(r.min_p, 0.1, 1e-15);
	/* 3 vs 3 cannot reach 0.05: no 95% interval exists. */
	assert_true(isinf(r.ci_lo) && r.ci_lo < 0 && isinf(r.ci_hi) && r.ci_hi > 0);
	assert_int_equal(xl_perm_test(lo, 4, hi, 4, &r), 0);
	assert_near(r.p, 2.0 / 70, 1e-15);
	assert_near(r.estimate, 10, 1e-12);
	assert_int_equal(xl_perm_test(lo, 3, hi, 4, &r), 0);
	assert_near(r.p, 1.0 / 35, 1e-15);
}

/*
 * The interval is the test inverted: just inside its ends the shifted
 * data are not significant at 0.05, just outside they are.
 */
static void test_perm_ci(void **state)
{
	const double b[] = { 100, 103, 98, 101, 99 }, n[] = { 110, 108, 113, 109, 111 };
	double s[5];
	struct xl_perm_result r, t;
	int i;

	(void)state;
	assert_int_equal(xl_perm_test(b, 5, n, 5, &r), 0);
	assert_near(r.estimate, 10, 1e-12);
	assert_true(r.ci_lo < r.estimate && r.estimate < r.ci_hi);
	assert_true(isfinite(r.ci_lo) && isfinite(r.ci_hi));
	for (i = 0; i < 5; i++)
		s[i] = n[i] - (r.ci_lo + 1e-4);
	assert_int_equal(xl_perm_test(b, 5, s, 5, &t), 0);
	assert_true(t.p > 0.05);
	for (i = 0; i < 5; i++)
		s[i] = n[i] - (r.ci_lo - 1e-4);
	assert_int_equal(xl_perm_test(b, 5, s, 5, &t), 0);
	assert_true(t.p <= 0.05);
	for (i = 0; i < 5; i++)
		s[i] = n[i] - (r.ci_hi - 1e-4);
	assert_int_equal(xl_perm_test(b, 5, s, 5, &t), 0);
	assert_true(t.p > 0.05);
	for (i = 0; i < 5; i++)
		s[i] = n[i] - (r.ci_hi + 1e-4);
	assert_int_equal(xl_perm_test(b, 5, s, 5, &t), 0);
	assert_true(t.p <= 0.05);
}

/* Past XL_PERM_EXACT_MAX relabelings: random ones, from the fixed seed. */
static void test_perm_random(void **state)
{
	double b[12], n[12];
	struct xl_perm_result r, r2;
	int i;

	(void)state;
	for (i = 0; i < 12; i++) {
		b[i] = 100 + i;
		n[i] = 200 + i;
	}
	assert_int_equal(xl_perm_test(b, 12, n, 12, &r), 0);
	assert_false(r.exact);
	assert_int_equal(r.relabelings, XL_PERM_DRAWS);
	assert_near(r.min_p, 1.0 / XL_PERM_DRAWS, 1e-15);
	assert_true(r.p >= 1.0 / XL_PERM_DRAWS && r.p <= 2.0 / XL_PERM_DRAWS);
	assert_int_equal(xl_perm_test(b, 12, n, 12, &r2), 0);
	assert_dbl_equal(r2.p, r.p);
}

static void test_perm_bad(void **state)
{
	const double v[] = { 1, 2, NAN };
	struct xl_perm_result r;
	double big[XL_PERM_MAX + 1] = { 0 };

	(void)state;
	assert_int_equal(xl_perm_test(v, 0, v, 2, &r), -EINVAL);
	assert_int_equal(xl_perm_test(v, 2, v, 3, &r), -EINVAL);
	assert_int_equal(xl_perm_test(big, XL_PERM_MAX + 1, v, 2, &r), -EINVAL);
	assert_int_equal(xl_perm_test(v, 2, &(double){ INFINITY }, 1, &r), -EINVAL);
}

/* R: qt(c(.975, .8, .975, .975, .975), c(6, 6, 1, 2, 30)). */
static void test_t_quantile(void **state)
{
	(void)state;
	assert_near(xl_t_quantile(0.975, 6), 2.446911851, 1e-8);
	assert_near(xl_t_quantile(0.8, 6), 0.9057032, 1e-7);
	assert_near(xl_t_quantile(0.975, 1), 12.70620474, 1e-7);
	assert_near(xl_t_quantile(0.975, 2), 4.30265273, 1e-7);
	assert_near(xl_t_quantile(0.975, 30), 2.04227246, 1e-7);
	assert_near(xl_t_cdf(0, 5), 0.5, 1e-15);
	assert_near(xl_t_cdf(-2.570582, 5), 0.025, 1e-7);
	assert_true(isnan(xl_t_quantile(0.975, 0)));
	assert_true(isnan(xl_t_quantile(1, 3)));
}

static void test_pooled_sd(void **state)
{
	/* Groups {1,3} and {4,6,8}: SS 2 + 8 over df 1 + 2. */
	const double v[] = { 1, 3, 4, 6, 8 };
	const size_t off[] = { 0, 2, 5 }, one[] = { 0, 1, 2 };

	(void)state;
	assert_near(xl_pooled_sd(v, off, 2), sqrt(10.0 / 3), 1e-12);
	assert_true(isnan(xl_pooled_sd(v, one, 2)));
	assert_near(xl_min_detectable(2, 4, 4, 0.05),
		    (2.446911851 + 0.9057032) * 2 * sqrt(0.5), 1e-6);
	assert_true(isnan(xl_min_detectable(2, 1, 1, 0.05)));
}

/* ---- several runs a side ---- */

static void mkrow(struct xl_cmp_rowdata *r, const char *name, const char *verdict,
		  const double *pps, const double *cpu, int n)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->op, sizeof(r->op), "no-touch");
	snprintf(r->mode, sizeof(r->mode), "native");
	snprintf(r->wiring, sizeof(r->wiring), "threaded");
	snprintf(r->engine, sizeof(r->engine), "live");
	snprintf(r->verdict, sizeof(r->verdict), "%s", verdict);
	r->size = 64;
	r->nreps = n;
	memcpy(r->pps, pps, n * sizeof(*pps));
	memcpy(r->cpu_ns, cpu, n * sizeof(*cpu));
	r->mpps = xl_summarize(pps, n);
	r->mpps.median /= 1e6;
}

static void mkfile(struct xl_cmp_file *f, const char *path, struct xl_cmp_rowdata *rows, int n)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	snprintf(f->wiring, sizeof(f->wiring), "threaded");
	f->reps = 3;
	f->seconds = 1;
	f->warmup = 0.25;
	f->rows = rows;
	f->nrows = n;
}

/*
 * 4 vs 4 runs: drop's run medians 100.. vs 110.. ns/packet (1e7 pps is 100
 * ns): a regression at the smallest p 4 vs 4 can give; tx generator-bound
 * in one run, so judged on CPU ns/packet in all, unchanged.
 */
static void test_runs_regression(void **state)
{
	struct xl_cmp_rowdata rows[8][2];
	struct xl_cmp_file f[8];
	struct xl_cmp_mresult res;
	struct xl_cmp_opts o = { .alpha = 0.05 };
	char path[8][16], err[256];
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		double ns = (i < 4 ? 100 : 110) + i % 4;
		double pps[3] = { 1e9 / ns, 1e9 / (ns + 0.5), 1e9 / (ns - 0.5) };
		double cpu[3] = { 300 + i % 2, 300, 301 };
		double tpps[3] = { 3e6, 3e6, 3e6 };

		mkrow(&rows[i][0], "drop/no-touch", "valid", pps, cpu, 3);
		mkrow(&rows[i][1], "tx", i == 5 ? "generator-bound" : "valid", tpps, cpu, 3);
		snprintf(path[i], sizeof(path[i]), "r%d.json", i);
		mkfile(&f[i], path[i], rows[i], 2);
	}
	assert_int_equal(xl_cmp_runs_check(f, 8, err, sizeof(err)), 0);
	assert_int_equal(xl_cmp_runs(f, 4, 4, &o, &res), 0);
	assert_int_equal(res.nrows, 2);
	assert_int_equal(res.compared, 2);
	assert_int_equal(res.regressions, 1);
	assert_int_equal(res.rows[0].verdict, XL_CMP_REGRESSION);
	assert_int_equal(res.rows[0].nb, 4);
	assert_int_equal(res.rows[0].nn, 4);
	assert_false(res.rows[0].on_cpu);
	assert_near(res.rows[0].test.p, 2.0 / 70, 1e-12);
	assert_near(res.rows[0].test.estimate, 10, 1e-6);
	assert_near(res.rows[0].sd_within, 0.5, 1e-6);
	assert_true(res.rows[1].on_cpu);
	assert_int_equal(res.rows[1].verdict, XL_CMP_SAME);
	xl_cmp_mresult_free(&res);
	/* The first three a side: cannot reach 0.05, whatever the data. */
	memmove(&f[3], &f[4], 3 * sizeof(f[0]));
	assert_int_equal(xl_cmp_runs(f, 3, 3, &o, &res), 0);
	assert_int_equal(res.rows[0].verdict, XL_CMP_TOO_FEW);
	assert_int_equal(res.too_few, 2);
	xl_cmp_mresult_free(&res);
}

/* Set-up that differs between runs, and a run without rows: one line each. */
static void test_runs_check(void **state)
{
	const double pps[3] = { 1e6, 1e6, 1e6 }, cpu[3] = { 1, 1, 1 };
	struct xl_cmp_rowdata r[3];
	struct xl_cmp_file f[3];
	char err[256];

	(void)state;
	mkrow(&r[0], "pass", "valid", pps, cpu, 3);
	mkrow(&r[1], "pass", "valid", pps, cpu, 3);
	mkrow(&r[2], "pass", "valid", pps, cpu, 3);
	mkfile(&f[0], "a.json", &r[0], 1);
	mkfile(&f[1], "b.json", &r[1], 1);
	mkfile(&f[2], "c.json", &r[2], 1);
	if (xl_cmp_runs_check(f, 3, err, sizeof(err)))
		fail_msg("%s", err);
	f[2].seconds = 3;
	assert_int_equal(xl_cmp_runs_check(f, 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "a.json and c.json: window differs between runs: 1 s vs 3 s; every run on both sides needs the same set-up");
	f[2].seconds = 1;
	snprintf(r[1].wiring, sizeof(r[1].wiring), "softirq");
	assert_int_equal(xl_cmp_runs_check(f, 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "b.json and a.json: row pass 64 B native: wiring differs between runs: softirq vs threaded; every run on both sides needs the same set-up");
	snprintf(r[1].wiring, sizeof(r[1].wiring), "threaded");
	snprintf(r[1].cpu_source, sizeof(r[1].cpu_source), "proc-stat");
	snprintf(r[2].cpu_source, sizeof(r[2].cpu_source), "softirq-tracepoint");
	assert_int_equal(xl_cmp_runs_check(f, 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "b.json and c.json: row pass 64 B native: DUT CPU time source differs between runs: proc-stat vs softirq-tracepoint; every run on both sides needs the same set-up");
	r[2].cpu_source[0] = '\0';
	r[2].nreps = 2;
	assert_int_equal(xl_cmp_runs_check(f, 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "a.json and c.json: row pass 64 B native: repetitions differ between runs: 3 vs 2; every run on both sides needs the same set-up");
	r[2].nreps = 3;
	f[1].nrows = 0;
	assert_int_equal(xl_cmp_runs_check(f, 3, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "b.json: a run with no rows (lab run --json writes one per benchmark; every run needs its rows)");
}

/*
 * 8 runs of one drop row drifting with the host: run i at 100 + 3i
 * ns/packet, 5 tight repetitions (+-0.2 ns); with @ctl0 > 0 each
 * repetition's host-speed control drifted alike (@ctl0 * (100 + 3i) / 100
 * ns per run), else none.
 */
static void drift_runs(struct xl_cmp_rowdata rows[8], struct xl_cmp_file f[8], char path[8][16],
		       double ctl0)
{
	int i, j;

	for (i = 0; i < 8; i++) {
		double ns = 100 + 3 * i;
		double pps[5] = { 1e9 / ns, 1e9 / (ns + 0.2), 1e9 / (ns - 0.2), 1e9 / (ns + 0.1),
				  1e9 / (ns - 0.1) };
		double cpu[5] = { 1, 1, 1, 1, 1 };

		mkrow(&rows[i], "drop/no-touch", "valid", pps, cpu, 5);
		for (j = 0; j < 5; j++)
			rows[i].ctl_ns[j] = ctl0 * ns / 100;
		snprintf(path[i], sizeof(path[i]), "r%d.json", i);
		mkfile(&f[i], path[i], &rows[i], 1);
		f[i].reps = 5;
	}
}

/*
 * The A/A calibration of 8 runs: 28 pairs one run a side, C(8, 4) / 2 = 35
 * balanced splits; drop's runs drift (run i at 100 + 3i ns/packet, tight
 * repetitions), so pairs far apart are flagged one run a side, and the
 * splits flag those that put the early runs on one side. Counted here by
 * hand: a pair (i, j) at 5 reps is flagged when |i - j| >= 1 (the reps do
 * not overlap); a split is flagged when the permutation test of its sides'
 * run medians gives p < 0.05, i.e. only {0,1,2,3} vs {4,5,6,7}: 1 of 35.
 */
static void test_calib(void **state)
{
	struct xl_cmp_rowdata rows[8];
	struct xl_cmp_file f[8];
	struct xl_calib c;
	char path[8][16];
	int i;

	(void)state;
	drift_runs(rows, f, path, 0);
	assert_int_equal(xl_calib_compute(f, 8, 0.05, &c), 0);
	assert_int_equal(c.nruns, 8);
	assert_int_equal(c.split_base, 4);
	assert_int_equal(c.split_new, 4);
	assert_int_equal(c.nrows, 1);
	assert_int_equal(c.rows[0].pairs, 28);
	assert_int_equal(c.rows[0].pair_flags, 28);
	assert_false(c.rows[0].pair_too_few);
	assert_int_equal(c.rows[0].splits, 35);
	assert_int_equal(c.rows[0].split_flags, 1);
	assert_false(c.rows[0].split_too_few);
	/* Saved and read back, it is the same; and it applies to its own runs. */
	{
		char dir[256], file[300], err[512], why[128];
		struct xl_calib back;

		assert_int_equal(tmp_dir_make(dir, sizeof(dir), "calib"), 0);
		snprintf(file, sizeof(file), "%s/calibration.json", dir);
		snprintf(c.host, sizeof(c.host), "vm");
		assert_int_equal(xl_calib_save(&c, file), 0);
		assert_int_equal(xl_calib_load(file, &back, err, sizeof(err)), 0);
		assert_int_equal(back.nruns, 8);
		assert_int_equal(back.reps, 5);
		assert_int_equal(back.nrows, 1);
		assert_memory_equal(&back.rows[0], &c.rows[0], sizeof(back.rows[0]));
		assert_non_null(xl_calib_find(&back, &rows[0]));
		assert_false(xl_calib_matches(&back, &f[0], why, sizeof(why)));
		assert_string_equal(why, "host differs: vm vs ");
		snprintf(f[0].env.host, sizeof(f[0].env.host), "vm");
		assert_true(xl_calib_matches(&back, &f[0], why, sizeof(why)));
		f[0].seconds = 3;
		assert_false(xl_calib_matches(&back, &f[0], why, sizeof(why)));
		assert_string_equal(why, "window differs: 1 s vs 3 s");
		f[0].seconds = 1;
		xl_calib_free(&back);
		assert_int_equal(unlink(file), 0);
		assert_int_equal(xl_calib_load(file, &back, err, sizeof(err)), -ENOENT);
		assert_int_equal(tmp_dir_remove(dir), 0);
	}
	xl_calib_free(&c);
	/* 5 runs: pairs only; 3 repetitions: too few to flag. */
	for (i = 0; i < 5; i++) {
		rows[i].nreps = 3;
		f[i].reps = 3;
	}
	assert_int_equal(xl_calib_compute(f, 5, 0.05, &c), 0);
	assert_int_equal(c.rows[0].pairs, 10);
	assert_int_equal(c.rows[0].pair_flags, 0);
	assert_true(c.rows[0].pair_too_few);
	assert_int_equal(c.rows[0].splits, 0);
	assert_int_equal(c.split_base, 0);
	xl_calib_free(&c);
}

/*
 * The corrected figure (issue 19 item 2): the same drifting runs as
 * test_calib (run i at 100 + 3i ns/packet), but each repetition's
 * host-speed control drifted with it (600 * (100 + 3i) / 100 ns per run):
 * relative to it every run is alike. The calibration counts no false alarm
 * on the corrected figure (0 of 28 pairs, 0 of 35 splits) against 28 and 1
 * raw, so it prefers it; compare's auto figure then uses it for the split
 * that raw flags, and a row without controls stays raw.
 */
static void test_calib_corrected(void **state)
{
	struct xl_cmp_rowdata rows[8];
	struct xl_cmp_file f[8];
	struct xl_cmp_mresult res;
	struct xl_calib c;
	char path[8][16];

	(void)state;
	drift_runs(rows, f, path, 600);
	assert_int_equal(xl_calib_compute(f, 8, 0.05, &c), 0);
	assert_int_equal(c.rows[0].pairs, 28);
	assert_int_equal(c.rows[0].pair_flags, 28);
	assert_int_equal(c.rows[0].cpairs, 28);
	assert_int_equal(c.rows[0].cpair_flags, 0);
	assert_int_equal(c.rows[0].splits, 35);
	assert_int_equal(c.rows[0].split_flags, 1);
	assert_int_equal(c.rows[0].csplits, 35);
	assert_int_equal(c.rows[0].csplit_flags, 0);
	assert_true(xl_calib_prefers_corrected(&c.rows[0], true));
	assert_true(xl_calib_prefers_corrected(&c.rows[0], false));
	/* Saved and read back with its corrected counts. */
	{
		char dir[4096], file[4200], err[256];
		struct xl_calib back;

		snprintf(dir, sizeof(dir), "%s/xdplab-test-calibc-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		assert_non_null(mkdtemp(dir));
		snprintf(file, sizeof(file), "%s/calibration.json", dir);
		assert_int_equal(xl_calib_save(&c, file), 0);
		assert_int_equal(xl_calib_load(file, &back, err, sizeof(err)), 0);
		assert_memory_equal(&back.rows[0], &c.rows[0], sizeof(back.rows[0]));
		xl_calib_free(&back);
		assert_int_equal(unlink(file), 0);
		assert_int_equal(rmdir(dir), 0);
	}
	/* Runs 0-3 against 4-7: raw flags it (p = 2/70, +12 ns), auto with the calibration does not. */
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05 }, &res), 0);
	assert_int_equal(res.rows[0].verdict, XL_CMP_REGRESSION);
	assert_false(res.rows[0].corrected);
	assert_near(res.rows[0].test.estimate, 12, 1e-6);
	xl_cmp_mresult_free(&res);
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05, .calib = &c }, &res), 0);
	assert_true(res.rows[0].corrected);
	/* The reference: the median control, between runs 3 and 4 (654 and 672 ns per run). */
	assert_near(res.rows[0].ctl_ref_ns, (654.0 + 672.0) / 2, 1e-9);
	assert_int_equal(res.rows[0].verdict, XL_CMP_SAME);
	assert_near(res.rows[0].test.estimate, 0, 1e-6);
	xl_cmp_mresult_free(&res);
	/* --figure raw wins over the calibration; a run without controls keeps a row raw. */
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05, .calib = &c, .figure = XL_CMP_FIG_RAW }, &res), 0);
	assert_false(res.rows[0].corrected);
	xl_cmp_mresult_free(&res);
	rows[6].ctl_ns[2] = 0;
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_CORRECTED }, &res), 0);
	assert_false(res.rows[0].corrected);
	assert_int_equal(res.rows[0].verdict, XL_CMP_REGRESSION);
	xl_cmp_mresult_free(&res);
	/* Without a calibration that prefers it, auto is raw. */
	c.rows[0].csplit_flags = 1;
	assert_false(xl_calib_prefers_corrected(&c.rows[0], true));
	assert_true(xl_calib_prefers_corrected(&c.rows[0], false));
	c.rows[0].pair_too_few = true;
	assert_false(xl_calib_prefers_corrected(&c.rows[0], false));
	c.rows[0].cpairs = 0;
	c.rows[0].pair_too_few = false;
	assert_false(xl_calib_prefers_corrected(&c.rows[0], false));
	xl_calib_free(&c);
}

/*
 * --figure prog: 4 vs 4 runs whose ns/packet moves with the host (no
 * change) while the program's own time per run goes 26.0.. -> 36.0..: raw
 * says ~ (p 1), prog flags +10 at 2/70 with sd_within NAN (one value a run);
 * a run without the time keeps the row raw; two files: too few.
 */
static void test_runs_prog(void **state)
{
	struct xl_cmp_rowdata rows[8];
	struct xl_cmp_file f[8];
	struct xl_cmp_mresult res;
	struct xl_cmp_result r2;
	char path[8][16];
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		double ns = 600 + 40 * (i % 2);
		double pps[3] = { 1e9 / ns, 1e9 / ns, 1e9 / ns }, cpu[3] = { 500, 500, 500 };

		mkrow(&rows[i], "drop/no-touch", "generator-bound", pps, cpu, 3);
		rows[i].prog_ns = (i < 4 ? 26 : 36) + 0.25 * (i % 4);
		snprintf(path[i], sizeof(path[i]), "r%d.json", i);
		mkfile(&f[i], path[i], &rows[i], 1);
	}
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05 }, &res), 0);
	assert_false(res.rows[0].prog);
	assert_int_equal(res.rows[0].verdict, XL_CMP_SAME);
	xl_cmp_mresult_free(&res);
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_PROG }, &res), 0);
	assert_true(res.rows[0].prog);
	assert_true(res.rows[0].on_cpu);
	assert_int_equal(res.rows[0].verdict, XL_CMP_REGRESSION);
	assert_near(res.rows[0].test.p, 2.0 / 70, 1e-12);
	assert_near(res.rows[0].test.estimate, 10, 1e-9);
	assert_near(res.rows[0].base_ns, 26.375, 1e-9);
	assert_true(isnan(res.rows[0].sd_within));
	/* the rate shown stays the row's */
	assert_near(res.rows[0].base_mpps, (1e3 / 600 + 1e3 / 640) / 2, 1e-9);
	xl_cmp_mresult_free(&res);
	rows[5].prog_ns = 0;
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_PROG }, &res), 0);
	assert_false(res.rows[0].prog);
	assert_int_equal(res.rows[0].verdict, XL_CMP_SAME);
	xl_cmp_mresult_free(&res);
	/* Two files: one value a side, shown, never decided. */
	memset(&r2, 0, sizeof(r2));
	r2.rows = calloc(1, sizeof(*r2.rows));
	assert_non_null(r2.rows);
	r2.rows[0].base = &rows[0];
	r2.rows[0].new = &rows[4];
	xl_cmp_row_compare(&r2.rows[0], &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_PROG });
	assert_true(r2.rows[0].prog);
	assert_int_equal(r2.rows[0].verdict, XL_CMP_TOO_FEW);
	assert_near(r2.rows[0].delta, 10, 1e-9);
	/* A new side whose measured rate fell to 0: a regression on either figure. */
	for (i = 4; i < 8; i++)
		memset(rows[i].pps, 0, sizeof(rows[i].pps));
	memset(&r2.rows[0], 0, sizeof(r2.rows[0]));
	r2.rows[0].base = &rows[0];
	r2.rows[0].new = &rows[4];
	xl_cmp_row_compare(&r2.rows[0], &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_PROG });
	assert_int_equal(r2.rows[0].verdict, XL_CMP_REGRESSION);
	assert_string_equal(r2.rows[0].reason, "rate fell to 0 pps in 3 of 3 new repetitions");
	free(r2.rows);
	rows[5].prog_ns = 36.25;
	assert_int_equal(xl_cmp_runs(f, 4, 4, &(struct xl_cmp_opts){ .alpha = 0.05, .figure = XL_CMP_FIG_PROG }, &res), 0);
	assert_true(res.rows[0].prog);
	assert_int_equal(res.rows[0].verdict, XL_CMP_REGRESSION);
	assert_string_equal(res.rows[0].reason, "rate fell to 0 pps in 12 of 12 new repetitions");
	xl_cmp_mresult_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perm_brute),
		cmocka_unit_test(test_perm_all_equal),
		cmocka_unit_test(test_perm_min_p),
		cmocka_unit_test(test_perm_ci),
		cmocka_unit_test(test_perm_random),
		cmocka_unit_test(test_perm_bad),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_pooled_sd),
		cmocka_unit_test(test_runs_regression),
		cmocka_unit_test(test_runs_check),
		cmocka_unit_test(test_calib),
		cmocka_unit_test(test_calib_corrected),
		cmocka_unit_test(test_runs_prog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
