// SPDX-License-Identifier: BSD-2-Clause
/*
 * The corrected figure (issue 19 item 2; compare_priv.h, docs/compare.md
 * "Raw or corrected figure"), and the program's own time (--figure prog,
 * "The program's own time"): a repetition's ns/packet relative to the
 * host-speed control measured just before it (bpf/hostctl.bpf.c), scaled
 * to one reference for the whole comparison, and the per-row choice
 * between it and the raw figure, which an A/A calibration of the host
 * makes from the false alarms it counted on each.
 */
#include <string.h>

#include "xdplab/calib.h"
#include "xdplab/compare.h"
#include "xdplab/compare_runs.h"
#include "xdplab/stats.h"

#include "compare_priv.h"

const char *xl_cmp_figure_name(enum xl_cmp_figure f)
{
	switch (f) {
	case XL_CMP_FIG_AUTO:
		return "auto";
	case XL_CMP_FIG_RAW:
		return "raw";
	case XL_CMP_FIG_CORRECTED:
		return "corrected";
	case XL_CMP_FIG_PROG:
		return "prog";
	default:
		return "";
	}
}

bool xl_cmp_has_ctl(const struct xl_cmp_rowdata *r)
{
	return xl_cmp_all_positive(r->ctl_ns, r->nreps);
}

bool xl_cmp_wants_corrected(const struct xl_cmp_opts *o, const struct xl_cmp_rowdata *id,
			    bool runs)
{
	const struct xl_calib_row *c;

	if (o->figure == XL_CMP_FIG_CORRECTED)
		return true;
	if (o->figure != XL_CMP_FIG_AUTO || !o->calib || !id)
		return false;
	c = xl_calib_find(o->calib, id);
	return c && xl_calib_prefers_corrected(c, runs);
}

double xl_cmp_ctl_ref(const struct xl_cmp_rowdata *const *rows, int n)
{
	double v[2 * XL_CMP_MAX_RUNS * XL_MAX_REPS];
	int i, j, k = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < rows[i]->nreps && k < (int)(sizeof(v) / sizeof(v[0])); j++)
			if (rows[i]->ctl_ns[j] > 0)
				v[k++] = rows[i]->ctl_ns[j];
	return k ? xl_summarize(v, k).median : 0;
}

void xl_cmp_correct(const struct xl_cmp_rowdata *r, double ref_ns, struct xl_cmp_rowdata *out)
{
	double v[XL_MAX_REPS];
	int i;

	*out = *r;
	for (i = 0; i < r->nreps; i++) {
		double f;

		if (!(r->ctl_ns[i] > 0) || !(ref_ns > 0))
			continue;
		f = ref_ns / r->ctl_ns[i];
		out->pps[i] = r->pps[i] / f;
		out->cpu_ns[i] = r->cpu_ns[i] * f;
	}
	for (i = 0; i < out->nreps; i++)
		v[i] = out->pps[i] / 1e6;
	if (out->nreps)
		out->mpps = xl_summarize(v, out->nreps);
}

bool xl_cmp_has_prog(const struct xl_cmp_rowdata *r)
{
	return r->prog_ns > 0;
}

void xl_cmp_prog_figure(const struct xl_cmp_rowdata *r, struct xl_cmp_rowdata *out)
{
	*out = *r; /* @mpps stays the row's: the rate shown is the real one */
	out->nreps = 1;
	out->cpu_ns[0] = r->prog_ns;
	out->pps[0] = 1e9 / r->prog_ns;
	out->ctl_ns[0] = 0;
}
