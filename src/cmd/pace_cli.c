// SPDX-License-Identifier: BSD-2-Clause
/* A sender's pacing in its totals and --json (pace_cli.h). */
#include <stdio.h>

#include <jansson.h>

#include "pace_cli.h"

void xl_cmd_print_pace(const struct xl_pace_stats *st, bool counted, const char *cap)
{
	if (!st->stalls)
		return;
	printf("pacing: fell behind %llu times; %llu frames' worth of the schedule skipped (catch-up capped at %llu frames: %s; the largest %llu): %s\n",
	       (unsigned long long)st->stalls, (unsigned long long)st->skipped,
	       (unsigned long long)st->depth, cap, (unsigned long long)st->max_due,
	       counted ? "every --count frame was still sent, that much later" :
			 "those frames were not sent");
}

char *xl_cmd_pace_json(const struct xl_pace_stats *st, uint64_t rate_pps)
{
	json_t *o = json_pack("{s:{s:I,s:I,s:I,s:I,s:I}}", "pacing", "rate_pps",
			      (json_int_t)rate_pps, "stalls", (json_int_t)st->stalls, "skipped",
			      (json_int_t)st->skipped, "depth", (json_int_t)st->depth,
			      "largest_catchup", (json_int_t)st->max_due);
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return text;
}
