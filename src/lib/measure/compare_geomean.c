// SPDX-License-Identifier: BSD-2-Clause
/*
 * compare's geomean row (xdplab/compare.h, xl_cmp_geomean()): the
 * geometric means of the compared rows' median rates and DUT CPU costs,
 * summed as logarithms (no overflow or underflow whatever the row count).
 * The row is benchstat's (golang.org/x/perf/cmd/benchstat): one figure for
 * a whole table, each row weighing the same.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "xdplab/compare.h"

int xl_cmp_geomean(const struct xl_cmp_result *res, struct xl_cmp_geomean *g)
{
	double lb = 0, ln = 0, cb = 0, cn = 0;
	int i, ncpu = 0;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < res->nrows; i++) {
		const struct xl_cmp_row *r = &res->rows[i];

		if (r->status != XL_CMP_PAIRED || !r->base || !r->new ||
		    !(r->base->mpps.median > 0) || !(r->new->mpps.median > 0))
			continue;
		g->n++;
		lb += log(r->base->mpps.median);
		ln += log(r->new->mpps.median);
		/* A row on the program's own time holds that in base_cpu/new_cpu. */
		if (!r->prog && r->base_cpu > 0 && r->new_cpu > 0) {
			ncpu++;
			cb += log(r->base_cpu);
			cn += log(r->new_cpu);
		}
	}
	if (!g->n)
		return -ENODATA;
	g->base_mpps = exp(lb / g->n);
	g->new_mpps = exp(ln / g->n);
	g->delta_pct = 100 * (exp((ln - lb) / g->n) - 1);
	if (ncpu == g->n) {
		g->base_cpu = exp(cb / g->n);
		g->new_cpu = exp(cn / g->n);
	}
	return 0;
}
