// SPDX-License-Identifier: BSD-2-Clause
/*
 * A profile's summary lines (xdplab/profile.h): its files, what was not
 * complete, the top symbols by self share per label.
 */
#include <stdio.h>
#include <string.h>

#include "xdplab/escape.h"
#include "xdplab/profile.h"

void xl_profile_print(FILE *out, const struct xl_profile *pr, const char *indent, int max)
{
	const char *last = "";
	int i, k = 0;

	fprintf(out, "%sprofile: %llu samples; folded stacks %s; flame graph %s\n", indent,
		(unsigned long long)pr->samples, XL_ESC(pr->folded), XL_ESC(pr->svg));
	if (strcmp(pr->event, "cpu-clock"))
		fprintf(out, "%s  (event %s)\n", indent, XL_ESC(pr->event));
	if (pr->incomplete[0])
		fprintf(out, "%s  (incomplete: %s)\n", indent, XL_ESC(pr->incomplete));
	if (pr->unparsed)
		fprintf(out, "%s  (%lu lines of perf script not parsed)\n", indent, pr->unparsed);
	for (i = 0; i < pr->ntop; i++) {
		const struct xl_top_sym *t = &pr->top[i];

		if (strcmp(last, t->label)) {
			fprintf(out, "%s  %-7s %-16s %-24s %s   (top symbols by self share of %s)\n",
				indent, "share", "command", "dso", "symbol", XL_ESC(t->label));
			last = t->label;
			k = 0;
		}
		if (k++ >= max)
			continue;
		/* A command's name is any process's to choose, symbols the ELF's. */
		fprintf(out, "%s  %6.2f%% %-16.16s %-24.24s %s\n", indent, t->share * 100,
			XL_ESC(t->comm), XL_ESC(t->dso), XL_ESC(t->sym));
	}
}
