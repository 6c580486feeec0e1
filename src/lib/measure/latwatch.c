// SPDX-License-Identifier: BSD-2-Clause
/*
 * Watching a latency receiver (xdplab/latwatch.h): its readings on the
 * sampler, the interval lines, the totals as text and JSON.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "xdplab/latwatch.h"
#include "xdplab/log.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"
#include "xdplab/time.h"

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9" };

static void print_interval(FILE *out, double t, const struct xl_lat_totals *d, double secs)
{
	char b[2][32];

	/* The percentiles count the timed frames only (not negative or unset). */
	fprintf(out, "%8.3f s  rx/s %s  stamped/s %s  p50 %.1f us  p99 %.1f us  max %.1f us\n", t,
	       xl_fmt_thousands((uint64_t)(d->frames / secs), b[0], 32),
	       xl_fmt_thousands((uint64_t)(d->stamped / secs), b[1], 32),
	       xl_lat_percentile(d->hist, d->timed, 0.5, d->max_ns) / 1e3,
	       xl_lat_percentile(d->hist, d->timed, 0.99, d->max_ns) / 1e3, d->max_ns / 1e3);
}

void xl_lat_totals_print(FILE *out, const struct xl_lat_totals *t, double secs)
{
	char note[192];
	size_t i;

	fprintf(out, "totals: %llu frames, %llu stamped, %llu without a stamp in %.3f s\n",
	       (unsigned long long)t->frames, (unsigned long long)t->stamped,
	       (unsigned long long)(t->frames - t->stamped), secs);
	if (!t->stamped) {
		fprintf(out, "latency: no stamped frame (send with 'xdplab gen --stamp')\n");
		return;
	}
	if (!t->timed) {
		fprintf(out, "latency: no stamp of this clock to time\n");
	} else {
		fprintf(out, "latency ns: min %llu", (unsigned long long)t->min_ns);
		for (i = 0; i < 4; i++)
			fprintf(out, " %s %llu", qnames[i],
			       (unsigned long long)xl_lat_percentile(t->hist, t->timed,
								     quantiles[i], t->max_ns));
		fprintf(out, " max %llu mean %.0f (stamp to receiver, CLOCK_MONOTONIC; buckets of 3 significant bits, <= 12.5%% wide)\n",
		       (unsigned long long)t->max_ns, (double)t->sum_ns / t->timed);
	}
	if (xl_lat_notes(t, note, sizeof(note))[0])
		fprintf(out, "note: %s\n", note);
	fprintf(out, "sequence: first %llu last %llu, expected %llu, lost %llu, reordered %llu, duplicates %llu\n",
	       (unsigned long long)t->seq_first, (unsigned long long)t->seq_last,
	       (unsigned long long)t->expected, (unsigned long long)t->lost,
	       (unsigned long long)t->reordered, (unsigned long long)t->duplicates);
}

json_t *xl_lat_buckets_json(const uint64_t *hist)
{
	json_t *b = json_array();
	uint64_t lo, hi;
	uint32_t i;

	for (i = 0; b && i < XL_LAT_BUCKETS; i++) {
		if (!hist[i])
			continue;
		xl_lat_bucket_bounds(i, &lo, &hi);
		if (json_array_append_new(b, json_pack("{s:I,s:I,s:I}", "lo_ns", (json_int_t)lo,
						       "hi_ns", (json_int_t)hi, "count",
						       (json_int_t)hist[i]))) {
			json_decref(b);
			return NULL;
		}
	}
	return b;
}

int xl_lat_totals_json(FILE *out, const struct xl_lat_totals *t, double secs)
{
	json_t *o = json_object(), *b = xl_lat_buckets_json(t->hist), *p = json_object();
	char note[192];
	uint32_t i;
	int err = 0;

	if (!o || !b || !p) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < 4; i++)
		json_object_set_new(p, qnames[i], json_integer(xl_lat_percentile(t->hist,
						  t->timed, quantiles[i], t->max_ns)));
	json_object_set_new(o, "seconds", json_real(secs));
	json_object_set_new(o, "frames", json_integer(t->frames));
	json_object_set_new(o, "stamped", json_integer(t->stamped));
	json_object_set_new(o, "clock", json_string("CLOCK_MONOTONIC (bpf_ktime_get_ns), one host"));
	json_object_set_new(o, "timed", json_integer(t->timed));
	json_object_set_new(o, "min_ns", t->timed ? json_integer(t->min_ns) : json_null());
	json_object_set_new(o, "max_ns", t->timed ? json_integer(t->max_ns) : json_null());
	json_object_set_new(o, "mean_ns", t->timed ? json_real((double)t->sum_ns / t->timed) : json_null());
	json_object_set_new(o, "percentiles_ns", p);
	p = NULL;
	json_object_set_new(o, "bucket_resolution", json_string("3 significant bits: each power of two in 8 buckets, width <= 12.5% of the lower bound; percentiles are a bucket's upper bound"));
	json_object_set_new(o, "buckets", b);
	b = NULL;
	json_object_set_new(o, "seq_first", json_integer(t->seq_first));
	json_object_set_new(o, "seq_last", json_integer(t->seq_last));
	json_object_set_new(o, "expected", json_integer(t->expected));
	json_object_set_new(o, "lost", json_integer(t->lost));
	json_object_set_new(o, "reordered", json_integer(t->reordered));
	json_object_set_new(o, "duplicates", json_integer(t->duplicates));
	json_object_set_new(o, "negative", json_integer(t->negative));
	json_object_set_new(o, "unset", json_integer(t->unset));
	json_object_set_new(o, "note", json_string(xl_lat_notes(t, note, sizeof(note))));
	if (json_dumpf(o, out, JSON_COMPACT) || fputc('\n', out) == EOF)
		err = -EIO;
out:
	json_decref(o);
	json_decref(b);
	json_decref(p);
	return err;
}

/* What the sampler's callbacks need: three stamped readings, one difference. */
struct lat_run {
	struct xl_lat_watch *w;
	struct xl_lat_totals *s, *d; /* XL_SAMPLER_SLOTS readings; their difference */
	uint64_t t[XL_SAMPLER_SLOTS];
	bool vanished;
};

static int lat_sample(void *ctx, int slot)
{
	struct lat_run *r = ctx;
	int err = xl_latency__read(r->w->l, &r->s[slot]);

	r->t[slot] = xl_now_ns();
	return err;
}

static int lat_alive(void *ctx)
{
	struct lat_run *r = ctx;

	if (!if_indextoname(xl_latency__ifindex(r->w->l), (char[IF_NAMESIZE]){ 0 })) {
		xl_err("interface %s vanished during the run", r->w->ifname);
		r->vanished = true;
		return -1;
	}
	return XL_SAMPLER_GO;
}

static void lat_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct lat_run *r = ctx;

	if (partial || !r->w->lines)
		return;
	xl_lat_totals_diff(&r->s[from], &r->s[to], r->d);
	print_interval(r->w->lines, t_ns / 1e9, r->d, (r->t[to] - r->t[from]) / 1e9);
}

int xl_lat_watch_run(struct xl_lat_watch *w)
{
	struct lat_run r = { .w = w };
	struct xl_sampler sm;
	int err;

	w->have = false;
	/* The first window starts from nothing (zeroed): the counts since load. */
	r.s = calloc(XL_SAMPLER_SLOTS + 1, sizeof(*r.s));
	if (!r.s)
		return -ENOMEM;
	r.d = r.s + XL_SAMPLER_SLOTS;
	r.t[0] = xl_now_ns();
	sm = (struct xl_sampler){ .interval_ns = w->interval_ns, .duration_ns = w->duration_ns,
				  .stop = w->stop, .have_first = true, .sample = lat_sample,
				  .alive = lat_alive, .interval = lat_interval, .ctx = &r };
	err = xl_sampler_run(&sm);
	/* The totals as of the last good read (slot 0 alone: nothing was read). */
	if (sm.last_slot > 0) {
		w->total = r.s[sm.last_slot];
		w->secs = (r.t[sm.last_slot] - r.t[0]) / 1e9;
		w->have = true;
	}
	free(r.s);
	if (r.vanished)
		return -ENODEV;
	return err;
}
