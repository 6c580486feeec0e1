// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xdplab lab run --ab A.o,B.o`'s rows (moved from cmd_lab.c): two user
 * programs measured in turn, repetition by repetition, in one lab, and B's
 * paired difference from A.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lab_cli.h"
#include "xdplab/abtest.h"
#include "xdplab/labrun.h"
#include "xdplab/log.h"
#include "xdplab/report.h"
#include "xdplab/userprog.h"

/*
 * lab run --ab: rows @rows[0] (A) and @rows[1] (B) at @size: each
 * repetition measures one window of each (xl_labrun_prog() with one
 * repetition), A first in even repetitions, B first in odd; B's note gets
 * the paired difference of the CPU ns per packet (xl_ab_compare()).
 */
int xl_cmd_lab_ab(struct xl_lab *lab, struct run_args *a, char func[2][24], uint32_t size,
		  struct xl_row_result *rows)
{
	static struct xl_row_result one;
	struct xl_labrun_opts o1 = a->o;
	double cpu[2][XL_MAX_REPS];
	struct xl_ab_result r;
	int rep, k, err = 0;

	o1.reps = 1;
	for (rep = 0; rep < a->o.reps && !err; rep++)
		for (k = 0; k < 2 && !err; k++) {
			int side = rep % 2 ? 1 - k : k;
			struct xl_userprog_opts uo = a->uo;
			struct xl_row_result *row = &rows[side];
			char what[96];

			uo.path = a->ab[side];
			snprintf(what, sizeof(what), "measuring ab-%c/%s at %u bytes, repetition %d",
				 'a' + side, func[side], size, rep + 1);
			xl_cmd_progress_step(a->progress, what);
			err = xl_labrun_prog(lab, &o1, &uo, func[side], a->mode, size, &one);
			xl_hostrec__take(&a->host, &one);
			if (err) {
				xl_err("row ab-%c/%s at %u bytes failed: %s", 'a' + side, func[side], size,
				       one.note);
				*row = one;
				break;
			}
			if (!rep) {
				*row = one;
				snprintf(row->name, sizeof(row->name), "ab-%c/%s", 'a' + side, func[side]);
			} else {
				row->reps[rep] = one.reps[0];
				row->nreps = rep + 1;
			}
			cpu[side][rep] = one.reps[0].cpu_ns_per_pkt;
		}
	for (k = 0; k < 2; k++) {
		rows[k].note[0] = '\0';
		xl_row_finish(&rows[k]);
	}
	if (rep && !err && !xl_ab_compare(cpu[0], cpu[1], rep, false, 0, &r)) {
		char ci[48] = "n/a (< 6 reps)";

		if (r.ci)
			snprintf(ci, sizeof(ci), "%.1f..%.1f", r.diff_lo, r.diff_hi);
		snprintf(rows[1].note, sizeof(rows[1].note),
			 "vs ab-a: CPU ns/packet %+.1f (paired median of %d, 95%% CI %s, p %.3f): %s",
			 r.diff_median, rep, ci, r.p, xl_ab_verdict_name(r.verdict));
	}
	return err;
}
