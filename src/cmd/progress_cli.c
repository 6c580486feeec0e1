// SPDX-License-Identifier: BSD-2-Clause
/* The progress lines of a long run (progress_cli.h). */
#include <stdio.h>
#include <unistd.h>

#include "progress_cli.h"
#include "xdplab/log.h"
#include "xdplab/time.h"

void xl_cmd_progress_init(struct xl_cmd_progress *p, int total)
{
	*p = (struct xl_cmd_progress){ .total = total, .start_ns = xl_now_ns(),
				       .eta = isatty(STDERR_FILENO) == 1 };
}

char *xl_cmd_progress_left(int done, int total, uint64_t elapsed_ns, char *buf, size_t len)
{
	uint64_t s;
	int left = total - done;

	buf[0] = '\0';
	if (done <= 0 || left <= 0)
		return buf;
	s = (elapsed_ns / (uint64_t)done * (uint64_t)left + 500000000ull) / 1000000000ull;
	if (s < 60)
		snprintf(buf, len, "%llu s", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%llu min %llu s", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%llu h %llu min", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60));
	return buf;
}

void xl_cmd_progress_skip(struct xl_cmd_progress *p)
{
	if (p) {
		p->done++;
		p->skipped++;
	}
}

char *xl_cmd_progress_eta(const struct xl_cmd_progress *p, uint64_t now_ns, char *buf, size_t len)
{
	return xl_cmd_progress_left(p->done - p->skipped, p->total - p->skipped,
				    now_ns - p->start_ns, buf, len);
}

void xl_cmd_progress_step(struct xl_cmd_progress *p, const char *what)
{
	char left[32] = "";

	if (!p) {
		fprintf(stderr, "xdplab: %s...\n", XL_ESC(what)); /* --func in a row's name */
		return;
	}
	if (p->eta)
		xl_cmd_progress_eta(p, xl_now_ns(), left, sizeof(left));
	p->done++;
	fprintf(stderr, "xdplab: %s (row %d of %d%s%s%s)...\n", XL_ESC(what), p->done, p->total,
		left[0] ? ", about " : "", left, left[0] ? " left" : "");
}

static void rows_step(void *ctx, const char *what)
{
	xl_cmd_progress_step(ctx, what);
}

static void rows_skip(void *ctx)
{
	xl_cmd_progress_skip(ctx);
}

struct xl_labrow_progress xl_cmd_progress_rows(struct xl_cmd_progress *p)
{
	return (struct xl_labrow_progress){ .step = rows_step, .skip = rows_skip, .ctx = p };
}
