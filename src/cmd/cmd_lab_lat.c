// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xdplab lab run --latency`'s rows: after the table's rows, each latency
 * path (one-way, and the round trips through XDP_TX, a devmap redirect
 * and AF_XDP l2fwd) at a low rate and unpaced, at each size; their table
 * (docs/latency.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lab_cli.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/log.h"

int xl_cmd_lab_lat(struct xl_lab *lab, const struct run_args *a, struct xl_lat_row *rows,
		   int max, int *n, bool *failed)
{
	static const uint64_t rates[] = { XL_LAT_LOW_PPS, 0 };
	int s, p, k, err = 0;

	*n = 0;
	for (s = 0; s < a->nsizes; s++)
		for (p = 0; p < XL_LAT_NPATHS; p++)
			for (k = 0; k < 2; k++) {
				if (*n >= max) {
					xl_err("lab run --latency: more than %d latency rows: the rest (from lat/%s/%s at %u bytes) not measured",
					       max, xl_lat_path_name(p), rates[k] ? "low" : "load",
					       a->sizes[s]);
					return 0;
				}
				char what[96];

				snprintf(what, sizeof(what), "measuring lat/%s/%s at %u bytes",
					 xl_lat_path_name(p), rates[k] ? "low" : "load", a->sizes[s]);
				xl_cmd_progress_step(a->progress, what);
				err = xl_labrun_latency(lab, &a->o, p, rates[k], a->lat_delay_ns,
							a->sizes[s], &rows[*n]);
				(*n)++;
				if (err == -EINTR)
					return err;
				if (err) {
					xl_err("row %s at %u bytes failed: %s", rows[*n - 1].name,
					       a->sizes[s], rows[*n - 1].note);
					*failed = true;
				}
			}
	return 0;
}

void xl_cmd_lab_lat_print(FILE *out, const struct xl_lat_row *rows, int n, int reps)
{
	char rate[32];
	int i;

	if (!n)
		return;
	fprintf(out, "\nlatency rows: 'gen --stamp' frames, CLOCK_MONOTONIC at both ends (one host); one-way = gen -> DUT end,\n"
		     "rt- = gen -> DUT -> back at the generator side; no warm-up; buckets of 3 significant bits (<= 12.5%%);\n"
		     "medians over %d reps; lost = sent - distinct received; us\n", reps);
	fprintf(out, "%-22s %5s %9s %9s %8s %6s %5s %8s %8s %8s %8s %8s  %s\n", "row", "size", "rate",
		"sent", "lost", "reord", "dup", "p50", "p90", "p99", "p99.9", "max", "note");
	for (i = 0; i < n; i++) {
		const struct xl_lat_row *r = &rows[i];
		const struct xl_lat_rep *m = &r->med;

		if (r->rate_pps)
			snprintf(rate, sizeof(rate), "%llu kpps", (unsigned long long)r->rate_pps / 1000);
		else
			snprintf(rate, sizeof(rate), "unpaced");
		fprintf(out, "%-22s %5u %9s %9llu %8llu %6llu %5llu %8.1f %8.1f %8.1f %8.1f %8.1f  %s%s%s%s\n",
			r->name, r->size, rate, (unsigned long long)m->sent,
			(unsigned long long)m->lost, (unsigned long long)m->reordered,
			(unsigned long long)m->duplicates, m->p50_ns / 1e3, m->p90_ns / 1e3,
			m->p99_ns / 1e3, m->p999_ns / 1e3, m->max_ns / 1e3, r->wiring ? r->wiring : "",
			r->delay_ns ? ", receiver busy wait" : "", r->note[0] ? "; " : "", r->note);
	}
}
