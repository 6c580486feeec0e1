// SPDX-License-Identifier: BSD-2-Clause
/*
 * The two-sample permutation test over run summaries, its interval by
 * inversion, pooled spreads and Student's t (xdplab/permtest.h). Method:
 * docs/compare.md "Several runs a side".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/permtest.h"
#include "xdplab/stats.h"

/* The 95% interval's level, whatever compare's --alpha. */
#define CI_ALPHA 0.05

double xl_perm_min_p(size_t nb, size_t nn)
{
	double c;

	if (!nb || !nn)
		return 1;
	c = xl_choose(nb + nn, nb);
	if (c > XL_PERM_EXACT_MAX)
		return 1.0 / XL_PERM_DRAWS;
	return (nb == nn ? 2 : 1) / c > 1 ? 1 : (nb == nn ? 2 : 1) / c;
}

size_t xl_perm_n_needed(double alpha)
{
	size_t n;

	for (n = 1; n <= XL_PERM_MAX; n++)
		if (xl_perm_min_p(n, n) < alpha)
			return n;
	return 0;
}

/*
 * Every relabeling as (s0, k): s0 the sum of the values it puts on the new
 * side, k how many of them were new's. Shifting new's values by -d then
 * moves that sum to s0 - d * k, so the relabelings are listed once and
 * each shift tried costs one pass.
 */
struct relabel {
	double *s0;
	unsigned char *k;
	size_t n;
};

uint64_t xl_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* pool[0..nb) base, pool[nb..nb+nn) new. */
static int relabel_all(const double *pool, size_t nb, size_t nn, struct relabel *r, bool *exact)
{
	size_t n = nb + nn, cnt, i, j;
	double c = xl_choose(n, nn);

	*exact = c <= XL_PERM_EXACT_MAX;
	cnt = *exact ? (size_t)c : XL_PERM_DRAWS;
	r->s0 = calloc(cnt, sizeof(*r->s0));
	r->k = calloc(cnt, sizeof(*r->k));
	if (!r->s0 || !r->k) {
		free(r->s0);
		free(r->k);
		return -ENOMEM;
	}
	r->n = cnt;
	if (*exact) {
		/* Every nn-subset of n bits, in Gosper's order (HAKMEM 175). */
		uint64_t m = (nn == 64 ? ~0ULL : (1ULL << nn) - 1), end = n == 64 ? 0 : 1ULL << n;

		for (j = 0; j < cnt; j++) {
			uint64_t lo, ripple;

			for (i = 0; i < n; i++)
				if (m >> i & 1) {
					r->s0[j] += pool[i];
					r->k[j] += i >= nb;
				}
			lo = m & -m;
			ripple = m + lo;
			if (!ripple || (end && ripple >= end))
				break;
			m = (((ripple ^ m) >> 2) / lo) | ripple;
		}
		return 0;
	}
	{
		uint64_t seed = XL_PERM_SEED;
		size_t idx[2 * XL_PERM_MAX];

		/* The observed labels first, then partial Fisher-Yates draws. */
		for (i = 0; i < nn; i++)
			r->s0[0] += pool[nb + i];
		r->k[0] = nn;
		for (j = 1; j < cnt; j++) {
			for (i = 0; i < n; i++)
				idx[i] = i;
			for (i = 0; i < nn; i++) {
				size_t pick = i + xl_splitmix64(&seed) % (n - i), t = idx[i];

				idx[i] = idx[pick];
				idx[pick] = t;
				r->s0[j] += pool[idx[i]];
				r->k[j] += idx[i] >= nb;
			}
		}
	}
	return 0;
}

/* The two-sided p of the shift @d: new's values taken as new - d. */
static double p_at(const struct relabel *r, double tot0, size_t nb, size_t nn, double obs0,
		   double d, double eps)
{
	double tot = tot0 - nn * d, obs = fabs(obs0 - d);
	size_t j, hit = 0;

	for (j = 0; j < r->n; j++) {
		double s = r->s0[j] - d * r->k[j];
		double t = s / nn - (tot - s) / nb;

		hit += fabs(t) >= obs - eps;
	}
	return (double)hit / r->n;
}

/* Bisect between @in (p > CI_ALPHA) and @out (p <= CI_ALPHA) to the edge. */
static double edge(const struct relabel *r, double tot0, size_t nb, size_t nn, double obs0,
		   double in, double out, double eps)
{
	int i;

	for (i = 0; i < 100 && fabs(out - in) > eps; i++) {
		double mid = in + (out - in) / 2;

		if (p_at(r, tot0, nb, nn, obs0, mid, eps) > CI_ALPHA)
			in = mid;
		else
			out = mid;
	}
	return in + (out - in) / 2;
}

static int perm_test(const double *base, size_t nb, const double *new, size_t nn,
		     struct xl_perm_result *out, bool interval)
{
	double pool[2 * XL_PERM_MAX], tot0 = 0, mb = 0, mn = 0, scale = 0, lo, hi, w, eps;
	struct relabel r;
	size_t i;
	int k;

	if (!nb || !nn || nb > XL_PERM_MAX || nn > XL_PERM_MAX)
		return -EINVAL;
	for (i = 0; i < nb + nn; i++) {
		pool[i] = i < nb ? base[i] : new[i - nb];
		if (!isfinite(pool[i]))
			return -EINVAL;
		tot0 += pool[i];
		scale = fmax(scale, fabs(pool[i]));
	}
	for (i = 0; i < nb; i++)
		mb += base[i] / nb;
	for (i = 0; i < nn; i++)
		mn += new[i] / nn;
	memset(out, 0, sizeof(*out));
	out->nb = nb;
	out->nn = nn;
	out->estimate = mn - mb;
	if (relabel_all(pool, nb, nn, &r, &out->exact))
		return -ENOMEM;
	out->relabelings = r.n;
	out->min_p = xl_perm_min_p(nb, nn);
	eps = 1e-9 * (scale > 0 ? scale : 1);
	out->p = p_at(&r, tot0, nb, nn, out->estimate, 0, eps);
	out->ci_lo = -INFINITY;
	out->ci_hi = INFINITY;
	if (interval && out->min_p <= CI_ALPHA) {
		/* Far enough out the sides separate and p falls to min_p. */
		lo = pool[0];
		hi = pool[0];
		for (i = 1; i < nb + nn; i++) {
			lo = fmin(lo, pool[i]);
			hi = fmax(hi, pool[i]);
		}
		w = 2 * (hi - lo) + eps;
		for (k = 0; k < 60 && p_at(&r, tot0, nb, nn, out->estimate, out->estimate - w, eps) >
				      CI_ALPHA; k++)
			w *= 2;
		if (k < 60)
			out->ci_lo = edge(&r, tot0, nb, nn, out->estimate, out->estimate,
					  out->estimate - w, eps);
		w = 2 * (hi - lo) + eps;
		for (k = 0; k < 60 && p_at(&r, tot0, nb, nn, out->estimate, out->estimate + w, eps) >
				      CI_ALPHA; k++)
			w *= 2;
		if (k < 60)
			out->ci_hi = edge(&r, tot0, nb, nn, out->estimate, out->estimate,
					  out->estimate + w, eps);
	}
	free(r.s0);
	free(r.k);
	return 0;
}

int xl_perm_test(const double *base, size_t nb, const double *new, size_t nn,
		 struct xl_perm_result *out)
{
	return perm_test(base, nb, new, nn, out, true);
}

int xl_perm_p(const double *base, size_t nb, const double *new, size_t nn,
	      struct xl_perm_result *out)
{
	return perm_test(base, nb, new, nn, out, false);
}

double xl_pooled_sd(const double *vals, const size_t *off, size_t ngroups)
{
	double ss = 0;
	size_t g, i, df = 0;

	for (g = 0; g < ngroups; g++) {
		size_t n = off[g + 1] - off[g];
		double m = 0;

		if (n < 2)
			continue;
		for (i = off[g]; i < off[g + 1]; i++)
			m += vals[i] / n;
		for (i = off[g]; i < off[g + 1]; i++)
			ss += (vals[i] - m) * (vals[i] - m);
		df += n - 1;
	}
	return df ? sqrt(ss / df) : NAN;
}

double xl_t_cdf(double t, unsigned int df)
{
	double th, s, c, term, a;
	unsigned int k;

	if (!df)
		return NAN;
	th = atan(fabs(t) / sqrt(df));
	s = sin(th);
	c = cos(th);
	/* A(t|df) = P(|T| <= t): A&S 26.7.3 (odd df), 26.7.4 (even df). */
	if (df % 2) {
		a = th;
		if (df > 1) {
			term = c;
			a += s * term;
			for (k = 3; k <= df - 2; k += 2) {
				term *= c * c * (k - 1) / k;
				a += s * term;
			}
		}
		a *= 2 / M_PI;
	} else {
		term = 1;
		a = 1;
		for (k = 2; k <= df - 2; k += 2) {
			term *= c * c * (k - 1) / k;
			a += term;
		}
		a *= s;
	}
	return t >= 0 ? (1 + a) / 2 : (1 - a) / 2;
}

double xl_t_quantile(double p, unsigned int df)
{
	double lo = -1e7, hi = 1e7, mid;
	int i;

	if (!df || !(p > 0 && p < 1))
		return NAN;
	for (i = 0; i < 200 && hi - lo > 1e-10; i++) {
		mid = lo + (hi - lo) / 2;
		if (xl_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

double xl_min_detectable(double sd, size_t nb, size_t nn, double alpha)
{
	unsigned int df;

	if (nb + nn < 3 || isnan(sd))
		return NAN;
	df = nb + nn - 2;
	return (xl_t_quantile(1 - alpha / 2, df) + xl_t_quantile(0.8, df)) * sd *
	       sqrt(1.0 / nb + 1.0 / nn);
}
