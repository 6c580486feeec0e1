// SPDX-License-Identifier: BSD-2-Clause
/*
 * The zero-loss searches of a set of rows (`xdplab ndr`, `lab run --ndr`;
 * xdplab/labrun_ndr.h): each row that has one, at each size, one
 * xl_labrun_ndr() each; and their table with each row's trials.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/escape.h"
#include "xdplab/labrun_ndr.h"
#include "xdplab/log.h"

int xl_ndr_rows_count(const bool *rows)
{
	const struct xl_labrow *r;
	int i, n = 0;

	for (i = 0; (r = xl_labrow(i)); i++)
		n += rows[i] && xl_labrun_ndr_applies(r);
	return n;
}

int xl_ndr_rows_search(struct xl_lab *lab, const struct xl_labrun_opts *o,
		       const struct xl_ndr_row_opts *no, const bool *rows, const uint32_t *sizes,
		       int nsizes, const struct xl_labrow_progress *progress,
		       bool unsupported_fails, struct xl_ndr_row *out, int max, int *n,
		       bool *failed)
{
	const struct xl_labrow *r;
	char what[96];
	int s, i, err;

	*n = 0;
	for (s = 0; s < nsizes; s++)
		for (i = 0; (r = xl_labrow(i)) && *n < max; i++) {
			if (!rows[i] || !xl_labrun_ndr_applies(r))
				continue;
			if (progress && progress->step) {
				snprintf(what, sizeof(what), "zero-loss search of %s at %u bytes",
					 r->name, sizes[s]);
				progress->step(progress->ctx, what);
			}
			err = xl_labrun_ndr(lab, o, no, r, sizes[s], &out[*n]);
			(*n)++;
			if (err == -EINTR)
				return err;
			if (!err || (err == -EOPNOTSUPP && !unsupported_fails))
				continue;
			/* Zero-copy's refusal is already one line from the bind, naming the driver. */
			if (err != -EOPNOTSUPP)
				xl_err("%s %uB: %s", r->name, sizes[s], out[*n - 1].note);
			*failed = true;
		}
	return 0;
}

/* @v into @buf, or @none when 0. */
static const char *pps(char *buf, size_t len, uint64_t v, const char *none)
{
	if (!v)
		return none;
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

void xl_ndr_rows_print(FILE *out, const struct xl_ndr_row *rows, int n,
		       const struct xl_ndr_row_opts *no)
{
	static const int pct[XL_NDR_NLAT] = XL_NDR_LAT_POINTS;
	char b[6][32];
	int i, k;

	fprintf(out, "zero-loss throughput: trials of %.3g s; NDR: loss <= %g%%, PDR: loss <= %g%%; a trial reached its rate when the generator sent >= %.0f%% of it\n",
		no->trial_ns / 1e9, no->search.ndr_loss * 100, no->search.pdr_loss * 100,
		XL_NDR_GEN_REACH * 100);
	fprintf(out, "%-16s %5s %7s %10s %10s %9s %10s %10s %10s %10s %-7s %s\n", "row", "size",
		"engine", "lo pps", "hi pps", "res pps", "NDR pps", "NDR fails", "PDR pps",
		"PDR fails", "trials", "note");
	for (i = 0; i < n; i++) {
		const struct xl_ndr_row *r = &rows[i];
		const struct xl_ndr_result *s = &r->res;
		char note[256] = "";

		if (r->note[0])
			snprintf(note, sizeof(note), "%s", r->note);
		else if (s->gen_limited)
			snprintf(note, sizeof(note), "limited by the generator: the DUT's NDR is at least this");
		else if (s->below_min)
			snprintf(note, sizeof(note), "loses at the lower bound: the NDR is below it");
		else if (!s->ndr_fail_pps)
			snprintf(note, sizeof(note), "no loss up to the upper bound --max");
		else if (!s->converged)
			snprintf(note, sizeof(note), "not converged to the resolution");
		fprintf(out, "%-16s %5u %7s %10s %10s %9llu %10s %10s %10s %10s %-7d %s\n", r->name,
			r->size, r->engine ? r->engine : "-", pps(b[0], 32, s->lo_pps, "0"),
			pps(b[1], 32, s->hi_pps, "-"), (unsigned long long)s->resolution_pps,
			pps(b[2], 32, s->ndr_pps, "0"), pps(b[3], 32, s->ndr_fail_pps, "-"),
			pps(b[4], 32, s->pdr_pps, "0"), pps(b[5], 32, s->pdr_fail_pps, "-"),
			s->ntrials, XL_ESC(note));
	}
	for (i = 0; i < n; i++) {
		const struct xl_ndr_row *r = &rows[i];

		for (k = 0; k < r->res.ntrials; k++) {
			const struct xl_ndr_trial *t = &r->res.trials[k];

			if (t->rate_pps)
				snprintf(b[0], 32, "%llu", (unsigned long long)t->rate_pps);
			else
				snprintf(b[0], 32, "unpaced");
			fprintf(out, "  %s %uB trial %d: asked %s pps, sent %llu (%llu pps%s), received %llu, lost %.4f%%: %s\n",
				r->name, r->size, k + 1, b[0], (unsigned long long)t->sent,
				(unsigned long long)t->sent_pps, t->short_of_rate ? ", short of the rate" : "",
				(unsigned long long)t->received, t->loss * 100,
				t->pass_ndr ? "pass" : t->pass_pdr ? "pass PDR only" : "fail");
		}
		if (r->extra)
			fprintf(out, "  %s %uB --extra-ns %.0f: %u busy-loop iterations, BPF_PROG_RUN check %+.1f ns per packet (a long loop's slope %.3f ns each: %.1f ns), in every trial\n",
				r->name, r->size, r->cal.target_ns, r->cal.iters, r->cal.check_ns,
				r->cal.ns_per_iter, r->cal.set_ns);
		for (k = 0; k < r->nverify; k++) {
			const struct xl_ndr_trial *t = &r->verify[k];

			fprintf(out, "  %s %uB fixed rate %s %llu pps for %.3g s: sent %llu (%llu pps%s), received %llu, lost %llu (%.4f%%)\n",
				r->name, r->size, k ? "NDR+5%" : "NDR", (unsigned long long)t->rate_pps,
				no->verify_ns / 1e9, (unsigned long long)t->sent,
				(unsigned long long)t->sent_pps,
				t->short_of_rate ? ", short of the rate" : "",
				(unsigned long long)t->received,
				(unsigned long long)(t->sent > t->received ? t->sent - t->received : 0),
				t->loss * 100);
		}
		for (k = 0; k < r->nlat; k++) {
			const struct xl_lat_row *l = &r->lat[k];

			if (l->rec.nreps)
				fprintf(out, "  %s %uB latency at %d%% of NDR (%llu pps, one-way): p50 %llu ns, p90 %llu ns, p99 %llu ns, max %llu ns; lost %llu\n",
					r->name, r->size, pct[k], (unsigned long long)r->lat_pps[k],
					(unsigned long long)l->rec.med.p50_ns,
					(unsigned long long)l->rec.med.p90_ns,
					(unsigned long long)l->rec.med.p99_ns,
					(unsigned long long)l->rec.med.max_ns,
					(unsigned long long)l->rec.med.lost);
		}
		if (r->lat_note[0])
			fprintf(out, "  %s %uB latency: %s\n", r->name, r->size, XL_ESC(r->lat_note));
	}
}
