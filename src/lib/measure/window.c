// SPDX-License-Identifier: BSD-2-Clause
/*
 * The measurement window (see xdplab/window.h). A figure divides a count by
 * the time between the two reads of that count, not by the time a loop
 * meant to wait: a late wake-up, a slow /proc read or an ethtool round trip
 * between the reads and the clock would otherwise bias every rate.
 */
#include "xdplab/stats.h"
#include "xdplab/time.h"
#include "xdplab/window.h"

struct xl_read xl_read_now(uint64_t v, bool ok)
{
	return (struct xl_read){ .v = ok ? v : 0, .t_ns = xl_now_ns(), .ok = ok };
}

struct xl_delta xl_delta_of(const struct xl_read *a, const struct xl_read *b)
{
	if (!a->ok || !b->ok || b->t_ns < a->t_ns)
		return (struct xl_delta){ 0 };
	return (struct xl_delta){ .n = b->v - a->v, .ns = b->t_ns - a->t_ns, .ok = true };
}

bool xl_delta_valid(const struct xl_delta *d)
{
	return d->ok && d->ns > 0;
}

double xl_delta_rate(const struct xl_delta *d)
{
	return xl_delta_valid(d) ? xl_rate(d->n, d->ns) : 0;
}

double xl_delta_ratio(const struct xl_delta *num, const struct xl_delta *den)
{
	return num->ok && den->ok && den->n ? (double)num->n / den->n : 0;
}

void xl_delta_add(struct xl_delta *sum, const struct xl_delta *d)
{
	sum->n += d->n;
	sum->ns += d->ns;
	sum->ok = sum->ok && d->ok;
}
