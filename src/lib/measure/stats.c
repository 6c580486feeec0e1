// SPDX-License-Identifier: BSD-2-Clause
/* Rate arithmetic and summaries of repetitions. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/stats.h"

double xl_rate(uint64_t delta, uint64_t ns)
{
	return ns ? (double)delta * 1e9 / (double)ns : 0.0;
}

double xl_ns_per_pkt(double pps)
{
	return pps > 0 ? 1e9 / pps : 0.0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct xl_summary xl_summarize(const double *vals, size_t n)
{
	struct xl_summary s = { 0 };
	double *v;

	if (!n)
		return s;
	v = malloc(n * sizeof(*v));
	if (!v)
		return s;
	memcpy(v, vals, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	s.n = n;
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return s;
}

double xl_choose(size_t n, size_t k)
{
	double c = 1;
	size_t i;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

double xl_binom_half_cdf(size_t n, size_t k)
{
	double p = 0;
	size_t i;

	if (k >= n)
		return 1.0;
	/* Each term C(n, i) / 2^n from logs: finite for any n (2^n is not). */
	for (i = 0; i <= k; i++)
		p += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * M_LN2);
	return p > 1 ? 1 : p;
}

int xl_median_ci(const double *vals, size_t n, double *lo, double *hi)
{
	double *v;
	size_t k = 0;

	if (n < 6)
		return -EDOM;
	/* The largest k with P(X < k) = P(X <= k - 1) <= 2.5%. */
	while (k < n && xl_binom_half_cdf(n, k) <= 0.025)
		k++;
	if (!k)
		return -EDOM;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, vals, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = v[k - 1];
	*hi = v[n - k];
	free(v);
	return 0;
}

double xl_disagreement(uint64_t a, uint64_t b)
{
	uint64_t hi = a > b ? a : b, lo = a > b ? b : a;

	return hi ? (double)(hi - lo) / (double)hi : 0.0;
}

char *xl_fmt_thousands(uint64_t v, char *buf, size_t len)
{
	char digits[24], out[32];
	size_t n, i, o = 0;

	n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	if (len)
		snprintf(buf, len, "%s", out); /* truncates, always terminated */
	return buf;
}
