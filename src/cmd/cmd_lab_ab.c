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
#include "xdplab/labrun.h"
#include "xdplab/log.h"
#include "xdplab/report.h"
#include "xdplab/userprog.h"

/* What a window's progress line names. */
struct ab_progress {
	const struct run_args *a;
	char (*func)[24];
	uint32_t size;
};

/* Before each window: its progress line (the profiled repetition's windows have none). */
static void ab_window(void *ctx, int side, int rep)
{
	const struct ab_progress *p = ctx;
	char what[96];

	if (rep >= p->a->o.reps)
		return;
	snprintf(what, sizeof(what), "measuring ab-%c/%s at %u bytes, repetition %d", 'a' + side,
		 p->func[side], p->size, rep + 1);
	xl_cmd_progress_step(p->a->progress, what);
}

/*
 * lab run --ab: rows @rows[0] (A) and @rows[1] (B) at @size, measured in
 * turn by xl_labrun_prog_ab(), a progress line per window; what @a->host
 * recorded beside the repetitions goes into both rows. A failure is said
 * here, its note then cleared.
 */
int xl_cmd_lab_ab(struct xl_lab *lab, struct run_args *a, char func[2][24], uint32_t size,
		  struct xl_row_result *rows)
{
	const char *const path[2] = { a->ab[0], a->ab[1] };
	const char *const fn[2] = { func[0], func[1] };
	struct ab_progress p = { a, func, size };
	int k, err;

	err = xl_labrun_prog_ab(lab, &a->o, &a->uo, path, fn, a->mode, size, rows, ab_window, &p);
	{
		/*
		 * One plan for both rows: what its companion recorded before
		 * each repetition (A's and B's windows) goes into both; the
		 * copy is only read (xl_hostrec__take() forgets its records).
		 */
		static struct xl_hostrec h0;

		h0 = a->host;
		xl_hostrec__take(&h0, &rows[0]);
		xl_hostrec__take(&a->host, &rows[1]);
	}
	if (!err)
		return 0;
	for (k = 0; k < 2; k++) {
		if (err != -EINTR && rows[k].note[0])
			xl_err("row %s at %u bytes failed: %s", rows[k].name, size, rows[k].note);
		rows[k].note[0] = '\0';
		xl_row_finish(&rows[k]);
	}
	return err;
}
