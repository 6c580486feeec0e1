// SPDX-License-Identifier: BSD-2-Clause
/* Rate arithmetic and summaries of repetitions. */
#include <errno.h>
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

int xl_median_ci(const double *vals, size_t n, double *lo, double *hi)
{
	double *v, tail = 0, term;
	size_t k = 0, i;

	if (n < 6)
		return -EDOM;
	/* tail = P(X <= k) for X ~ Binomial(n, 1/2), by terms C(n,i)/2^n. */
	term = 1;
	for (i = 0; i < n; i++)
		term /= 2;
	for (i = 0; i < n; i++) {
		tail += term;
		if (tail > 0.025)
			break;
		k = i + 1; /* P(X < k) = P(X <= i) <= 2.5% */
		term = term * (n - i) / (i + 1);
	}
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
