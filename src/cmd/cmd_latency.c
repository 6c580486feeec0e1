// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab latency IFACE: the receiver of 'gen --stamp' frames; latency
 * percentiles from the stamp to the receiver (one-way on the DUT, a round
 * trip on the generator's side when the DUT sends the frames back), loss,
 * reordering and duplicates (docs/latency.md).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include <jansson.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "xdplab/bench.h"
#include "xdplab/latency.h"
#include "xdplab/log.h"
#include "xdplab/sampler.h"
#include "xdplab/stats.h"

struct lat_args {
	struct xl_latency_opts o;
	uint64_t interval_ns, duration_ns;
	bool quiet, json;
	const char *netns;
};

#define A struct lat_args
static const char *const actions[] = { "drop", "pass", NULL };
static const int action_vals[] = { XDP_DROP, XDP_PASS };

static const struct xl_opt lat_opts[] = {
	{ "action", 'a', "ACTION", "what the receiver returns: drop or pass (default drop)",
	  XL_ENUM(A, o.action, actions, action_vals) },
	{ "busy-wait", 0, "NS", "spin this long per frame before reading the clock, {range} (a known added delay; default 0)",
	  XL_UINT(A, o.busy_wait_ns, 0, 100000000) },
	{ "json", 'j', NULL, "the totals as one JSON object (with the histogram's buckets) instead of text",
	  XL_FLAG(A, json) },
	XL_RUN(MODE, A, o.mode),
	XL_RUN(INTERVAL, A, interval_ns),
	XL_RUN(DURATION, A, duration_ns),
	XL_RUN(NETNS, A, netns),
	XL_RUN(QUIET, A, quiet),
};
#undef A

static const struct lat_args lat_defaults = { .interval_ns = 1000000000ull,
					      .o = { .action = XDP_DROP } };

static const struct xl_cmd_spec lat_spec = {
	"latency", "IFACE",
	"Receive 'gen --stamp' frames on IFACE with an XDP program: latency percentiles (one-way on the DUT; a round trip on the generator's side when the DUT sends them back), loss, reordering, duplicates.",
	lat_opts, sizeof(lat_opts) / sizeof(lat_opts[0]), &lat_defaults, sizeof(lat_defaults),
};

static const double quantiles[] = { 0.5, 0.9, 0.99, 0.999 };
static const char *const qnames[] = { "p50", "p90", "p99", "p99.9" };

static void print_interval(double t, const struct xl_lat_totals *d, double secs)
{
	char b[2][32];

	/* The percentiles count the timed frames only (not negative or unset). */
	printf("%8.3f s  rx/s %s  stamped/s %s  p50 %.1f us  p99 %.1f us  max %.1f us\n", t,
	       xl_fmt_thousands((uint64_t)(d->frames / secs), b[0], 32),
	       xl_fmt_thousands((uint64_t)(d->stamped / secs), b[1], 32),
	       xl_lat_percentile(d->hist, d->timed, 0.5, d->max_ns) / 1e3,
	       xl_lat_percentile(d->hist, d->timed, 0.99, d->max_ns) / 1e3, d->max_ns / 1e3);
}

static void print_totals(const struct xl_lat_totals *t, double secs)
{
	char note[192];
	size_t i;

	printf("totals: %llu frames, %llu stamped, %llu without a stamp in %.3f s\n",
	       (unsigned long long)t->frames, (unsigned long long)t->stamped,
	       (unsigned long long)(t->frames - t->stamped), secs);
	if (!t->stamped) {
		printf("latency: no stamped frame (send with 'xdplab gen --stamp')\n");
		return;
	}
	if (!t->timed) {
		printf("latency: no stamp of this clock to time\n");
	} else {
		printf("latency ns: min %llu", (unsigned long long)t->min_ns);
		for (i = 0; i < 4; i++)
			printf(" %s %llu", qnames[i],
			       (unsigned long long)xl_lat_percentile(t->hist, t->timed,
								     quantiles[i], t->max_ns));
		printf(" max %llu mean %.0f (stamp to receiver, CLOCK_MONOTONIC; buckets of 3 significant bits, <= 12.5%% wide)\n",
		       (unsigned long long)t->max_ns, (double)t->sum_ns / t->timed);
	}
	if (xl_lat_notes(t, note, sizeof(note))[0])
		printf("note: %s\n", note);
	printf("sequence: first %llu last %llu, expected %llu, lost %llu, reordered %llu, duplicates %llu\n",
	       (unsigned long long)t->seq_first, (unsigned long long)t->seq_last,
	       (unsigned long long)t->expected, (unsigned long long)t->lost,
	       (unsigned long long)t->reordered, (unsigned long long)t->duplicates);
}

static int print_json(const struct xl_lat_totals *t, double secs)
{
	json_t *o = json_object(), *b = json_array(), *p = json_object();
	char note[192];
	uint64_t lo, hi;
	uint32_t i;
	int err = 0;

	if (!o || !b || !p) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < XL_LAT_BUCKETS; i++) {
		if (!t->hist[i])
			continue;
		xl_lat_bucket_bounds(i, &lo, &hi);
		json_array_append_new(b, json_pack("{s:I, s:I, s:I}", "lo_ns", (json_int_t)lo,
						   "hi_ns", (json_int_t)hi, "count",
						   (json_int_t)t->hist[i]));
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
	if (json_dumpf(o, stdout, JSON_COMPACT) || fputc('\n', stdout) == EOF)
		err = -EIO;
out:
	json_decref(o);
	json_decref(b);
	json_decref(p);
	return err;
}

/* What the sampler's callbacks need: three stamped readings, one difference. */
struct lat_run {
	struct xl_latency *l;
	const struct lat_args *a;
	struct xl_lat_totals *s, *d; /* XL_SAMPLER_SLOTS readings; their difference */
	uint64_t t[XL_SAMPLER_SLOTS];
};

static int lat_sample(void *ctx, int slot)
{
	struct lat_run *r = ctx;
	int err = xl_latency__read(r->l, &r->s[slot]);

	r->t[slot] = xl_now_ns();
	return err;
}

static int lat_alive(void *ctx)
{
	struct lat_run *r = ctx;

	if (!if_indextoname(xl_latency__ifindex(r->l), (char[IF_NAMESIZE]){ 0 })) {
		xl_err("interface %s vanished during the run", r->a->o.ifname);
		return -1;
	}
	return XL_SAMPLER_GO;
}

static void lat_interval(void *ctx, int from, int to, uint64_t t_ns, bool partial)
{
	struct lat_run *r = ctx;

	if (partial || r->a->quiet || r->a->json)
		return;
	xl_lat_totals_diff(&r->s[from], &r->s[to], r->d);
	print_interval(t_ns / 1e9, r->d, (r->t[to] - r->t[from]) / 1e9);
}

int cmd_latency(int argc, char **argv)
{
	struct lat_args a;
	static struct lat_run r;
	struct xl_sampler sm;
	struct xl_latency *l;
	int idx, ret = XL_EXIT_OK;

	idx = xl_cmd_parse_iface(&lat_spec, argc, argv, NULL, &a, &a.o.ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	if (a.netns && (ret = xl_cmd_enter_netns(&lat_spec, a.netns)))
		return ret;
	if (!if_nametoindex(a.o.ifname)) {
		xl_usage_error(&lat_spec, "interface '%s': no such interface", a.o.ifname);
		return XL_EXIT_USAGE;
	}
	/* The first window starts from nothing (zeroed): the counts since load. */
	r.s = calloc(XL_SAMPLER_SLOTS + 1, sizeof(*r.s));
	if (!r.s)
		return XL_EXIT_RUNTIME;
	r.d = r.s + XL_SAMPLER_SLOTS;
	l = xl_latency__create(&a.o);
	if (!l) {
		free(r.s);
		return XL_EXIT_RUNTIME;
	}
	fprintf(stderr, "xdplab: latency receiver on %s (%s mode, %s%s); Ctrl-C to stop\n",
		XL_ESC(a.o.ifname),
		xl_xdp_mode_name(a.o.mode), xl_xdp_action_name(a.o.action),
		a.o.busy_wait_ns ? ", busy wait per frame" : "");
	r.l = l;
	r.a = &a;
	r.t[0] = xl_now_ns();
	sm = (struct xl_sampler){ .interval_ns = a.interval_ns, .duration_ns = a.duration_ns,
				  .stop = &xl_stop_requested, .have_first = true,
				  .sample = lat_sample, .alive = lat_alive,
				  .interval = lat_interval, .ctx = &r };
	if (xl_sampler_run(&sm))
		ret = XL_EXIT_RUNTIME;
	/* The totals as of the last good read (slot 0 alone: nothing was read). */
	if (sm.last_slot > 0) {
		double secs = (r.t[sm.last_slot] - r.t[0]) / 1e9;

		if (a.json) {
			if (print_json(&r.s[sm.last_slot], secs))
				ret = XL_EXIT_RUNTIME;
		} else {
			print_totals(&r.s[sm.last_slot], secs);
		}
	} else {
		ret = XL_EXIT_RUNTIME;
	}
	xl_latency__destroy(l);
	free(r.s);
	return ret;
}
