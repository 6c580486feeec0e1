// SPDX-License-Identifier: BSD-2-Clause
/*
 * Zero-loss throughput of a lab row (xdplab/labrun_ndr.h, docs/ndr.md):
 * the row's DUT made once for the search, each trial one repetition of
 * the planner (xdplab/plan.h) whose set-up makes the generator at the
 * asked rate and whose window is the generator's whole run, the DUT's
 * count read before its first frame and after its last one drained.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include <jansson.h>

#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/labrun_ndr.h"
#include "xdplab/log.h"
#include "xdplab/plan.h"
#include "xdplab/time.h"
#include "xdplab/xsk.h"
#include "labrun_priv.h"

/* After the generator ends, how long the frames in flight get to arrive. */
#define NDR_DRAIN_NS 50000000ull

/* A paced trial ends at its count, or at this many times its length when the pacer fell behind. */
#define NDR_TRIAL_CAP 1.5

bool xl_labrun_ndr_applies(const struct xl_labrow *r)
{
	return (r->flags & XL_LABROW_DROP) ||
	       (!strcmp(r->kind, "xsk") && r->app == XL_XSK_RXDROP);
}

/*
 * The search's context: the row's DUT (a drop benchmark or an rxdrop
 * application, made once) and, per trial, its generator and the counts.
 */
struct ndr_run {
	struct xl_lab *lab;
	const struct xl_labrun_opts *o;
	uint32_t size;
	uint64_t trial_ns;
	struct xl_ndr_row *row;
	struct xl_bench *bench;
	struct xl_xsk_app *app;
	/* The trial in progress. */
	uint64_t rate;
	struct xl_ndr_trial *t;
	struct xl_gen *gen;
	uint64_t c0;
};

/* Frames the DUT counted so far at the row's counting point. */
static int dut_count(const struct ndr_run *x, uint64_t *n)
{
	struct xl_xsk_sock_stats s;
	struct xl_bench_rec rec;
	int err;

	if (x->app) {
		xl_xsk_app__read(x->app, &s);
		*n = s.c.rx_packets;
		return 0;
	}
	err = xl_bench__read(x->bench, &rec, NULL);
	*n = err ? 0 : rec.rx_packets;
	return err;
}

static int trial_setup(void *ctx, const struct xl_plan_step *st)
{
	struct ndr_run *x = ctx;
	uint64_t count = 0, dur = x->trial_ns;

	if (x->rate) {
		count = (uint64_t)(x->rate * (x->trial_ns / 1e9) + 0.5);
		dur = (uint64_t)(x->trial_ns * NDR_TRIAL_CAP);
	}
	x->gen = xl_labrun_gen_paced(x->lab, x->o, x->size, x->rate, count, dur);
	if (!x->gen) {
		int err = -errno;

		snprintf(x->row->note, sizeof(x->row->note), "generator failed: %s",
			 strerror(-err));
		return err;
	}
	x->row->engine = xl_gen_engine_name(xl_gen__engine(x->gen));
	return 0;
}

static int trial_open(void *ctx, const struct xl_plan_step *st)
{
	struct ndr_run *x = ctx;
	int err = dut_count(x, &x->c0);

	return err ? err : xl_gen__start(x->gen);
}

/* The window is the generator's run: until it ends by itself, or the stop. */
static int trial_wait(void *ctx, const struct xl_plan_step *st, uint64_t ns)
{
	struct ndr_run *x = ctx;

	while (!xl_gen__done(x->gen)) {
		if (x->o->stop && *x->o->stop) {
			xl_gen__stop(x->gen);
			break;
		}
		xl_sleep_ns(10000000ull, NULL);
	}
	return xl_gen__join(x->gen);
}

static int trial_close(void *ctx, const struct xl_plan_step *st)
{
	struct ndr_run *x = ctx;
	struct xl_gen_stats gs;
	uint64_t c1;
	int err;

	xl_sleep_ns(NDR_DRAIN_NS, NULL);
	err = dut_count(x, &c1);
	if (err)
		return err;
	xl_gen__read(x->gen, &gs);
	x->t->sent = gs.sent;
	x->t->received = c1 - x->c0;
	x->t->ns = gs.elapsed_ns ? gs.elapsed_ns : 1;
	return 0;
}

static int trial_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct ndr_run *x = ctx;

	xl_gen__destroy(x->gen);
	x->gen = NULL;
	return err;
}

static const struct xl_plan_ops trial_ops = { .setup = trial_setup, .teardown = trial_teardown,
					      .open = trial_open, .wait = trial_wait,
					      .close = trial_close };

/* One trial (struct xl_ndr_opts.trial): one repetition of the planner. */
static int trial(void *ctx, uint64_t rate_pps, struct xl_ndr_trial *t)
{
	struct ndr_run *x = ctx;
	struct xl_plan p = { .reps = 1, .scope = XL_PLAN_PER_REP, .window_ns = x->trial_ns,
			     .stop = x->o->stop, .cpu = -1, .ops = &trial_ops, .ctx = x };

	x->rate = rate_pps;
	x->t = t;
	return xl_plan_run(&p);
}

static void *app_create(const void *c)
{
	return xl_xsk_app__create(c);
}

/* The row's DUT at the DUT end: its drop benchmark, or the rxdrop application started. */
static int dut_create(struct ndr_run *x, const struct xl_labrow *r)
{
	struct xl_lab *lab = x->lab;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct xl_bench_opts bo = { .action = XDP_DROP, .op = r->op,
				    .ifname = lab->ifname[XL_LAB_DUT], .mode = XL_MODE_NATIVE };
	struct xl_xsk_config c;
	int err;

	if (r->flags & XL_LABROW_DROP) {
		/* --extra-ns: calibrated before the attach, as lab run's rows are. */
		if (x->o->extra) {
			bo.extra = true;
			bo.extra_ns = x->o->extra_ns;
			bo.extra_cal = &x->row->cal;
		}
		x->bench = xl_labrun_bench(lab, XL_LAB_DUT, &bo);
		if (!x->bench) {
			err = -errno;
			if (x->o->extra && x->row->cal.err)
				snprintf(x->row->note, sizeof(x->row->note),
					 "--extra-ns calibration failed: %s", strerror(-x->row->cal.err));
			else
				snprintf(x->row->note, sizeof(x->row->note), "attach failed: %s",
					 strerror(-err));
			return err;
		}
		x->row->extra = x->o->extra;
		return 0;
	}
	xl_labrun_xsk_config(lab, XL_XSK_RXDROP, r->xsk_mode, r->zerocopy, x->size,
			     ncpu > 1 ? (x->o->gen_cpu + 1) % ncpu : 0, &c);
	x->app = xl_lab__create_in(lab, XL_LAB_DUT, app_create, &c);
	if (!x->app) {
		err = -errno;
		if (err == -EOPNOTSUPP)
			snprintf(x->row->note, sizeof(x->row->note),
				 "%s: AF_XDP %s is not supported by %s", r->name,
				 r->zerocopy ? "zero-copy" : "in this mode",
				 lab->ifname[XL_LAB_DUT]);
		else
			snprintf(x->row->note, sizeof(x->row->note), "AF_XDP bind failed: %s",
				 strerror(-err));
		return err;
	}
	err = xl_xsk_app__start(x->app);
	if (err)
		snprintf(x->row->note, sizeof(x->row->note), "AF_XDP application failed: %s",
			 strerror(-err));
	return err;
}

static void dut_destroy(struct ndr_run *x)
{
	xl_bench__destroy(x->bench);
	xl_xsk_app__destroy(x->app);
	x->bench = NULL;
	x->app = NULL;
}

/* The stamped latency at XL_NDR_LAT_POINTS of the NDR (the DUT's program is gone). */
static int ndr_latency(struct xl_lab *lab, const struct xl_labrun_opts *o, uint64_t trial_ns,
		       struct xl_ndr_row *row)
{
	static const int pct[XL_NDR_NLAT] = XL_NDR_LAT_POINTS;
	struct xl_labrun_opts lo = *o;
	int i, err = 0;

	if (!row->res.ndr_pps) {
		snprintf(row->lat_note, sizeof(row->lat_note), "no NDR to measure below");
		return 0;
	}
	if (row->size < 62) {
		snprintf(row->lat_note, sizeof(row->lat_note),
			 "the stamp needs frames of 62 bytes or more");
		return 0;
	}
	lo.reps = 1;
	lo.seconds_ns = trial_ns;
	for (i = 0; i < XL_NDR_NLAT; i++) {
		row->lat_pps[i] = row->res.ndr_pps * pct[i] / 100;
		if (!row->lat_pps[i])
			row->lat_pps[i] = 1;
		err = xl_labrun_latency(lab, &lo, XL_LAT_ONEWAY, row->lat_pps[i], 0, row->size,
					&row->lat[i]);
		row->nlat = i + 1;
		if (err == -EINTR)
			return err;
		if (err) {
			/* Every point would fail alike (the same generator and receiver). */
			snprintf(row->lat_note, sizeof(row->lat_note), "not measured: %s",
				 row->lat[i].rec.note);
			return 0;
		}
	}
	return 0;
}

/* The fixed-rate runs at the NDR and XL_NDR_VERIFY_ABOVE_PCT% above it. */
static int ndr_verify(struct ndr_run *x, const struct xl_ndr_row_opts *no)
{
	struct xl_ndr_row *row = x->row;
	uint64_t rates[2] = { row->res.ndr_pps,
			      row->res.ndr_pps * (100 + XL_NDR_VERIFY_ABOVE_PCT) / 100 };
	int i, err;

	x->trial_ns = no->verify_ns;
	for (i = 0; i < 2 && rates[0]; i++) {
		struct xl_ndr_trial *t = &row->verify[i];

		memset(t, 0, sizeof(*t));
		err = trial(x, rates[i], t);
		t->rate_pps = rates[i];
		if (err)
			return err;
		xl_ndr_trial_judge(&no->search, t);
		row->nverify = i + 1;
	}
	return 0;
}

/* The search's outcome said in @row->note when it has no figure. */
static void search_note(struct xl_ndr_row *row, int err)
{
	const struct xl_ndr_result *res = &row->res;

	if (err == -ERANGE && res->ntrials)
		snprintf(row->note, sizeof(row->note),
			 "the search cannot converge: the generator (engine %s) reached %.0f pps, not above the lower bound %llu pps",
			 row->engine ? row->engine : "?", res->trials[res->ntrials - 1].sent_pps,
			 (unsigned long long)res->lo_pps);
	else if (err && err != -EINTR && !row->note[0])
		snprintf(row->note, sizeof(row->note), "trial failed: %s", strerror(-err));
}

int xl_labrun_ndr(struct xl_lab *lab, const struct xl_labrun_opts *o,
		  const struct xl_ndr_row_opts *no, const struct xl_labrow *r, uint32_t size,
		  struct xl_ndr_row *row)
{
	enum xl_wiring old_wiring = lab->wiring;
	int old_napi = lab->napi_cpu, err, e;
	bool xsk = !(r->flags & XL_LABROW_DROP);
	bool gro = xsk && r->xsk_mode == XL_MODE_SKB;
	struct ndr_run x = { .lab = lab, .o = o, .size = size, .trial_ns = no->trial_ns,
			     .row = row };
	struct xl_ndr_opts so = no->search;
	char msg[160];

	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "%s", r->name);
	row->size = size;
	row->trial_s = no->trial_ns / 1e9;
	so.trial = trial;
	so.ctx = &x;
	so.stop = o->stop;
	if (!xl_labrun_ndr_applies(r) || lab->wiring == XL_WIRING_DEVICE) {
		snprintf(row->note, sizeof(row->note), "%s: no zero-loss search (%s)", r->name,
			 lab->wiring == XL_WIRING_DEVICE ? "needs the veth lab" :
							   "the drop rows and xsk-rxdrop only");
		return -EINVAL;
	}
	err = xl_ndr_opts_check(&so, msg, sizeof(msg));
	if (err) {
		snprintf(row->note, sizeof(row->note), "%s", msg);
		return err;
	}
	if (xsk && lab->wiring != XL_WIRING_SOFTIRQ) {
		err = xl_lab__wire(lab, XL_WIRING_SOFTIRQ, -1);
		if (err) {
			snprintf(row->note, sizeof(row->note),
				 "softirq wiring for AF_XDP failed: %s", strerror(-err));
			return err;
		}
	}
	row->wiring = xl_wiring_name(lab->wiring);
	if (gro)
		xl_labrun_set_gro(lab, true);
	err = dut_create(&x, r);
	if (!err) {
		err = xl_ndr_search(&so, &row->res);
		search_note(row, err);
		xl_dbg("%s %uB: NDR %llu pps (%d trials, engine %s)", row->name, size,
		       (unsigned long long)row->res.ndr_pps, row->res.ntrials, row->engine);
	}
	if (!err && no->verify_ns)
		err = ndr_verify(&x, no);
	dut_destroy(&x);
	if (!err && no->latency)
		err = ndr_latency(lab, o, no->trial_ns, row);
	if (gro)
		xl_labrun_set_gro(lab, false);
	if (xsk && old_wiring != XL_WIRING_SOFTIRQ) {
		e = xl_lab__wire(lab, old_wiring, old_napi);
		if (e) {
			xl_err("lab: restoring %s wiring after %s failed: %s",
			       xl_wiring_name(old_wiring), row->name, strerror(-e));
			if (!err)
				err = e;
		}
	}
	return err;
}

/* ---- JSON (docs/results.md "ndr's file") ---- */

/* A rate, or null when 0 stands for none. */
static json_t *pps_or_null(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

/* One trial or fixed-rate run: what was asked, measured and judged. */
static json_t *trial_json(const struct xl_ndr_trial *t)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:f,s:f,s:b,s:b,s:b}", "rate_pps",
			 (json_int_t)t->rate_pps, "sent", (json_int_t)t->sent, "received",
			 (json_int_t)t->received, "ns", (json_int_t)t->ns, "sent_pps", t->sent_pps,
			 "loss", t->loss, "short_of_rate", t->short_of_rate, "pass_ndr",
			 t->pass_ndr, "pass_pdr", t->pass_pdr);
}

static json_t *row_json(const struct xl_ndr_row *r)
{
	static const int pct[XL_NDR_NLAT] = XL_NDR_LAT_POINTS;
	static const char *const verify_at[2] = { "ndr", "ndr+5%" };
	const struct xl_ndr_result *s = &r->res;
	json_t *trials = json_array(), *verify = json_array(), *lat = json_array(), *v;
	int i;

	for (i = 0; i < s->ntrials; i++)
		json_array_append_new(trials, trial_json(&s->trials[i]));
	for (i = 0; i < r->nverify; i++) {
		v = trial_json(&r->verify[i]);
		json_object_set_new(v, "at", json_string(verify_at[i]));
		json_array_append_new(verify, v);
	}
	for (i = 0; i < r->nlat; i++)
		json_array_append_new(lat, json_pack("{s:i,s:I,s:o}", "pct", pct[i], "rate_pps",
						     (json_int_t)r->lat_pps[i], "row",
						     xl_lat_row_json(&r->lat[i])));
	return json_pack("{s:s,s:i,s:s,s:s,s:s,s:f,s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:b,s:b,s:b,s:b,s:o,s:o,s:o,s:s,s:o}",
			 "name", r->name, "size", (int)r->size, "engine",
			 r->engine ? r->engine : "", "wiring", r->wiring ? r->wiring : "", "note",
			 r->note, "trial_s", r->trial_s, "lo_pps", (json_int_t)s->lo_pps, "hi_pps",
			 (json_int_t)s->hi_pps, "resolution_pps", (json_int_t)s->resolution_pps,
			 "ndr_pps", pps_or_null(s->ndr_pps), "ndr_fail_pps",
			 pps_or_null(s->ndr_fail_pps), "pdr_pps", pps_or_null(s->pdr_pps),
			 "pdr_fail_pps", pps_or_null(s->pdr_fail_pps), "gen_limited",
			 s->gen_limited, "pdr_gen_limited", s->pdr_gen_limited, "converged",
			 s->converged, "below_min", s->below_min, "trials", trials, "verify",
			 verify, "latency", lat, "latency_note", r->lat_note, "extra_ns",
			 r->extra ? json_pack("{s:f,s:i,s:f,s:f,s:f,s:i}", "target", r->cal.target_ns,
					      "iters", (int)r->cal.iters, "ns_per_iter",
					      r->cal.ns_per_iter, "set", r->cal.set_ns, "check",
					      r->cal.check_ns, "steps", r->cal.steps) :
				    json_null());
}

char *xl_ndr_rows_json(const struct xl_ndr_row *rows, int n, const struct xl_ndr_row_opts *no,
		       double extra_ns, const char *command)
{
	static const int pct[XL_NDR_NLAT] = XL_NDR_LAT_POINTS;
	json_t *doc = json_object(), *arr = json_array(), *pts = json_array(), *cfg;
	char *text;
	int i;

	for (i = 0; i < XL_NDR_NLAT; i++)
		json_array_append_new(pts, json_integer(pct[i]));
	cfg = json_pack("{s:f,s:f,s:f,s:f,s:I,s:I,s:f,s:f,s:i,s:b,s:o}", "trial_s",
			no->trial_ns / 1e9, "ndr_loss", no->search.ndr_loss, "pdr_loss",
			no->search.pdr_loss, "resolution", no->search.resolution, "min_pps",
			(json_int_t)no->search.min_pps, "max_pps", (json_int_t)no->search.max_pps,
			"verify_s", no->verify_ns / 1e9, "gen_reach", XL_NDR_GEN_REACH,
			"verify_above_pct", XL_NDR_VERIFY_ABOVE_PCT, "latency", no->latency,
			"latency_points_pct", pts);
	if (extra_ns >= 0)
		json_object_set_new(cfg, "extra_ns", json_real(extra_ns));
	for (i = 0; i < n; i++)
		json_array_append_new(arr, row_json(&rows[i]));
	if (command)
		json_object_set_new(doc, "command", json_string(command));
	json_object_set_new(doc, "ndr_config", cfg);
	json_object_set_new(doc, "ndr", arr);
	xl_lat_clock_json(doc);
	text = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	if (!text)
		errno = ENOMEM;
	return text;
}
