// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the ns/packet rows (compare.c) and the latency rows (compare_lat.c)
 * are judged and named by, once (compare_priv.h, docs/compare.md
 * "Verdict"): the verdict rule, the reasons a pair is not measured or not
 * comparable, the exact-then-loose pairing of rows, and the words for a
 * verdict and a status (compare.h) that compare's output and the report use.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/compare.h"

#include "compare_priv.h"

const char *xl_cmp_verdict_name(enum xl_cmp_verdict v)
{
	switch (v) {
	case XL_CMP_SAME:
		return "~";
	case XL_CMP_REGRESSION:
		return "regression";
	case XL_CMP_IMPROVEMENT:
		return "improvement";
	default:
		return "";
	}
}

const char *xl_cmp_status_word(enum xl_cmp_status s, enum xl_cmp_verdict v, enum xl_cmp_words w)
{
	/* Indexed by status, then by enum xl_cmp_words; NULL: the verdict's name. */
	static const char *const words[][3] = {
		[XL_CMP_PAIRED] = { "compared", NULL, NULL },
		[XL_CMP_NOT_COMPARABLE] = { "not-comparable", "not comparable", "not comparable" },
		[XL_CMP_NOT_MEASURED] = { "not-measured", "not measured", "not measured" },
		[XL_CMP_BASE_ONLY] = { "base-only", "only in base", "only in BASE" },
		[XL_CMP_NEW_ONLY] = { "new-only", "only in new", "only in this run" },
	};

	if ((unsigned int)s >= sizeof(words) / sizeof(words[0]) || (unsigned int)w >= 3)
		return "";
	return words[s][w] ? words[s][w] : xl_cmp_verdict_name(v);
}

enum xl_cmp_verdict xl_cmp_decide(double p, double delta, const struct xl_cmp_opts *o)
{
	if (p < o->alpha && delta > o->threshold_ns)
		return XL_CMP_REGRESSION;
	if (p < o->alpha && delta < -o->threshold_ns)
		return XL_CMP_IMPROVEMENT;
	return XL_CMP_SAME;
}

bool xl_cmp_not_measured(char *buf, size_t len, int base_reps, const char *base_note,
			 int new_reps, const char *new_note)
{
	const char *note = !base_reps ? base_note : new_note;

	if (base_reps && new_reps)
		return false;
	snprintf(buf, len, "not measured in %s%s%.120s",
		 !base_reps && !new_reps ? "either file" : !base_reps ? "base" : "new",
		 note[0] ? ": " : "", note);
	return true;
}

bool xl_cmp_text_differs(char *buf, size_t len, const char *what, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return false;
	snprintf(buf, len, "%s differs: %s vs %s", what, a[0] ? a : "-", b[0] ? b : "-");
	return true;
}

bool xl_cmp_row_reps_differ(char *buf, size_t len, int base_reps, int new_reps)
{
	if (base_reps == new_reps || !base_reps || !new_reps)
		return false;
	snprintf(buf, len, "repetitions differ: %d vs %d in this row", base_reps, new_reps);
	return true;
}

int xl_cmp_pair(const struct xl_cmp_file *base, int nbase, const struct xl_cmp_file *new,
		int nnew, xl_cmp_same_fn *same, struct xl_cmp_pairing **out)
{
	struct xl_cmp_pairing *p;
	bool *used;
	int i, j, pass, n;

	*out = NULL;
	p = calloc(nbase + nnew + 1, sizeof(*p));
	used = calloc(nnew + 1, sizeof(*used));
	if (!p || !used) {
		free(p);
		free(used);
		return -ENOMEM;
	}
	for (i = 0; i < nbase; i++)
		p[i] = (struct xl_cmp_pairing){ .base = i, .new = -1 };
	/* Exact identity first, then the loose one (set-up differs). */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < nbase; i++)
			for (j = 0; p[i].new < 0 && j < nnew; j++)
				if (!used[j] && same(base, i, new, j, !pass)) {
					used[j] = true;
					p[i].new = j;
				}
	n = nbase;
	for (j = 0; j < nnew; j++)
		if (!used[j])
			p[n++] = (struct xl_cmp_pairing){ .base = -1, .new = j };
	free(used);
	*out = p;
	return n;
}
