// SPDX-License-Identifier: BSD-2-Clause
/*
 * `lab run --latency`'s rows (labrun_lat.h, docs/latency.md): per
 * repetition, the DUT's program for the path (none for one-way), the
 * latency receiver where the path ends, and one stamped generator run of
 * a fresh sequence; the receiver's books and histogram against the
 * generator's count. The rows' JSON for the results file.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include <jansson.h>

#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/latwatch.h"
#include "xdplab/log.h"
#include "xdplab/plan.h"
#include "xdplab/redirect.h"
#include "xdplab/stats.h"
#include "xdplab/time.h"
#include "xdplab/xsk.h"

/* After the generator ends, how long the frames in flight get to arrive. */
#define LAT_DRAIN_NS 50000000ull

static const char *const path_names[XL_LAT_NPATHS] = { "one-way", "rt-tx", "rt-redirect",
							"rt-l2fwd" };

const char *xl_lat_path_name(enum xl_lat_path p)
{
	return p < XL_LAT_NPATHS ? path_names[p] : "?";
}

void xl_lat_rep_from(const struct xl_lat_totals *t, uint64_t sent, uint64_t xmit_errors,
		     struct xl_lat_rep *r)
{
	uint64_t uniq = t->stamped - t->duplicates;

	memset(r, 0, sizeof(*r));
	r->sent = sent;
	r->xmit_errors = xmit_errors;
	r->received = t->stamped;
	r->lost = sent > uniq ? sent - uniq : 0;
	r->gaps = t->lost;
	r->reordered = t->reordered;
	r->duplicates = t->duplicates;
	r->negative = t->negative;
	r->unset = t->unset;
	if (!t->timed)
		return;
	r->min_ns = t->min_ns;
	r->max_ns = t->max_ns;
	r->p50_ns = xl_lat_percentile(t->hist, t->timed, 0.5, t->max_ns);
	r->p90_ns = xl_lat_percentile(t->hist, t->timed, 0.9, t->max_ns);
	r->p99_ns = xl_lat_percentile(t->hist, t->timed, 0.99, t->max_ns);
	r->p999_ns = xl_lat_percentile(t->hist, t->timed, 0.999, t->max_ns);
	r->mean_ns = (double)t->sum_ns / t->timed;
}

/* The median of member @f (a U64 or REAL of xl_lat_rep_fields[]) over @n repetitions. */
static void med_field(struct xl_lat_rep *med, const struct xl_lat_rep *reps, int n,
		      const struct xl_field *f)
{
	double v[XL_MAX_REPS];
	int i;

	for (i = 0; i < n; i++) {
		const char *at = (const char *)&reps[i] + f->off;

		v[i] = f->type == XL_FT_U64 ? (double)*(const uint64_t *)at : *(const double *)at;
	}
	if (f->type == XL_FT_U64)
		*(uint64_t *)((char *)med + f->off) = (uint64_t)xl_summarize(v, n).median;
	else
		*(double *)((char *)med + f->off) = xl_summarize(v, n).median;
}

/* Each member of the repetition's field table: every figure has its median. */
void xl_lat_row_finish(struct xl_lat_row *row)
{
	size_t k;

	memset(&row->rec.med, 0, sizeof(row->rec.med));
	if (row->rec.nreps <= 0)
		return;
	for (k = 0; k < xl_lat_rep_nfields; k++)
		med_field(&row->rec.med, row->rec.reps, row->rec.nreps, &xl_lat_rep_fields[k]);
}

/* ---- one repetition ---- */

static void *lat_create(const void *arg)
{
	return xl_latency__create(arg);
}

static void *bench_create(const void *arg)
{
	return xl_bench__create(arg);
}

static void *redir_create(const void *arg)
{
	return xl_redirect__create(arg);
}

static void *xsk_create(const void *arg)
{
	return xl_xsk_app__create(arg);
}

/* What a repetition made; every member NULL when not made. */
struct lat_rig {
	struct xl_latency *rx;
	struct xl_bench *tx;
	struct xl_redirect *redir;
	struct xl_xsk_app *xsk;
	struct xl_gen *gen;
};

static void rig_destroy(struct lat_rig *g)
{
	xl_gen__destroy(g->gen);
	xl_latency__destroy(g->rx);
	xl_bench__destroy(g->tx);
	xl_redirect__destroy(g->redir);
	xl_xsk_app__destroy(g->xsk);
	memset(g, 0, sizeof(*g));
}

/* The DUT's program for @path, created in the DUT's namespace. */
static int dut_create(struct xl_lab *lab, enum xl_lat_path path, int app_cpu, uint32_t size,
		      struct lat_rig *g)
{
	struct xl_bench_opts bo = { .action = XDP_TX, .op = XL_OP_SWAP_MACS,
				    .ifname = lab->ifname[XL_LAB_DUT], .mode = XL_MODE_NATIVE };
	struct xl_redirect_opts ro = { .kind = XL_REDIR_DEVMAP, .op = XL_OP_SWAP_MACS,
				       .mode = XL_MODE_NATIVE, .in = lab->ifname[XL_LAB_DUT],
				       .nout = 1 };
	struct xl_xsk_config c;

	switch (path) {
	case XL_LAT_ONEWAY:
		return 0;
	case XL_LAT_TX:
		g->tx = xl_lab__create_in(lab, XL_LAB_DUT, bench_create, &bo);
		return g->tx ? 0 : -errno;
	case XL_LAT_REDIRECT:
		ro.out[0] = lab->out_ifname[0][XL_LAB_DUT];
		g->redir = xl_lab__create_in(lab, XL_LAB_DUT, redir_create, &ro);
		return g->redir ? 0 : -errno;
	case XL_LAT_L2FWD:
		/* As the xsk-l2fwd/drv row (labrun_xsk.c): copy mode, deep rings. */
		xl_xsk_config_defaults(&c);
		c.ifname = lab->ifname[XL_LAB_DUT];
		c.app = XL_XSK_L2FWD;
		c.mode = XL_MODE_NATIVE;
		c.copy = XL_XSK_COPY;
		c.first_cpu = app_cpu;
		xl_xsk_config_wait_default(&c);
		c.fill_size = c.rx_size = 4096;
		c.frames = 8192;
		c.spec.size = size;
		g->xsk = xl_lab__create_in(lab, XL_LAB_DUT, xsk_create, &c);
		if (!g->xsk)
			return -errno;
		return xl_xsk_app__start(g->xsk);
	default:
		return -EINVAL;
	}
}

/*
 * The stamped generator of one repetition: @rate_pps (0: unpaced) for
 * @o->seconds_ns. With a receiver that spins @delay_ns per frame, an
 * unpaced run sends at most a window's worth at 1/@delay_ns: the live
 * engine's calls are sized for ~1 Mpps and each frame's NAPI (softirq
 * wiring) runs inside the call, so one call would last minutes.
 */
static struct xl_gen *lat_gen(struct xl_lab *lab, const struct xl_labrun_opts *o,
			      uint64_t rate_pps, uint64_t delay_ns, uint32_t size)
{
	struct xl_gen_opts go = {
		.engine = XL_ENGINE_LIVE, .engine_forced = false,
		.ifname = lab->ifname[XL_LAB_GEN], .netns_fd = lab->ns_fd[XL_LAB_GEN],
		.flows = 1, .threads = 1, .first_cpu = o->gen_cpu, .batch = o->gen_batch,
		.stamp = true,
		.spec = { .size = size, .src_port = 1024, .dst_port = XL_LABRUN_UDP_DPORT,
			  .src_ip4 = lab->ip4[XL_LAB_GEN], .dst_ip4 = lab->ip4[XL_LAB_DUT] },
	};

	/* Paced: an exact count (the window's worth); unpaced: the window. */
	go.rate_pps = rate_pps;
	if (rate_pps)
		go.count = (uint64_t)(rate_pps * (o->seconds_ns / 1e9) + 0.5);
	else
		go.duration_ns = o->seconds_ns;
	if (!rate_pps && delay_ns)
		go.count = o->seconds_ns / delay_ns + XL_GEN_DEFAULT_BATCH;
	memcpy(go.spec.src_mac, lab->mac[XL_LAB_GEN], 6);
	memcpy(go.spec.dst_mac, lab->mac[XL_LAB_DUT], 6);
	return xl_gen__create(&go);
}

/*
 * One latency row's measured run, a set-up per repetition (xl_plan_run(),
 * XL_PLAN_PER_REP): the DUT program, the receiver and a generator that
 * ends by itself (a count or a duration), whose end is the window's.
 */
struct lat_run {
	struct xl_lab *lab;
	const struct xl_labrun_opts *o;
	struct xl_lat_row *row;
	int app_cpu;
	struct xl_lat_totals *t;
	struct lat_rig g;
	struct xl_lat_rep rep; /* the repetition just measured */
	uint64_t wait0, run0, t0; /* rt-l2fwd's socket thread at the window's start */
};

static int lat_setup(void *ctx, const struct xl_plan_step *st)
{
	struct lat_run *x = ctx;
	struct xl_lat_row *row = x->row;
	struct xl_lab *lab = x->lab;
	struct xl_latency_opts lo = { .mode = XL_MODE_NATIVE, .action = XDP_DROP,
				      .busy_wait_ns = row->rec.delay_ns };
	enum xl_lab_side side = row->rec.round_trip ? XL_LAB_GEN : XL_LAB_DUT;
	int err;

	lo.ifname = row->path == XL_LAT_ONEWAY ? lab->ifname[XL_LAB_DUT] :
		    row->path == XL_LAT_REDIRECT ? lab->out_ifname[0][XL_LAB_GEN] :
						   lab->ifname[XL_LAB_GEN];
	err = dut_create(lab, row->path, x->app_cpu, row->rec.size, &x->g);
	if (err) {
		snprintf(row->rec.note, sizeof(row->rec.note), "DUT program failed: %s", strerror(-err));
		return err;
	}
	x->g.rx = xl_lab__create_in(lab, side, lat_create, &lo);
	if (!x->g.rx) {
		err = -errno;
		snprintf(row->rec.note, sizeof(row->rec.note), "latency receiver failed: %s",
			 strerror(-err));
		return err;
	}
	x->g.gen = lat_gen(lab, x->o, row->rec.rate_pps, row->rec.delay_ns, row->rec.size);
	if (!x->g.gen) {
		err = -errno;
		snprintf(row->rec.note, sizeof(row->rec.note), "generator failed: %s", strerror(-err));
		return err;
	}
	/* Where frames wait on rt-l2fwd: its socket thread's run delay, from here to the drain's end. */
	x->wait0 = x->run0 = 0;
	if (x->g.xsk && xl_xsk_app__wait_ns(x->g.xsk, &x->wait0, &x->run0))
		x->run0 = 0; /* unread: this repetition adds nothing to the sums */
	x->t0 = xl_now_ns();
	err = xl_gen__start(x->g.gen);
	if (err)
		snprintf(row->rec.note, sizeof(row->rec.note), "generator failed: %s", strerror(-err));
	return err;
}

/* The window: until the generator is done (or stopped). */
static int lat_wait(void *ctx, const struct xl_plan_step *st, uint64_t ns)
{
	struct lat_run *x = ctx;

	while (!xl_gen__done(x->g.gen)) {
		if (x->o->stop && *x->o->stop) {
			xl_gen__stop(x->g.gen);
			break;
		}
		xl_sleep_ns(10000000ull, NULL);
	}
	return 0;
}

static int lat_close(void *ctx, const struct xl_plan_step *st)
{
	struct lat_run *x = ctx;
	struct xl_lat_row *row = x->row;
	struct xl_gen_stats gs;
	uint64_t wait1, run1;
	int err = xl_gen__join(x->g.gen);

	if (!err && x->o->stop && *x->o->stop)
		return 0; /* the plan ends with -EINTR */
	if (err) {
		if (err != -EINTR)
			snprintf(row->rec.note, sizeof(row->rec.note), "generator failed: %s",
				 strerror(-err));
		return err;
	}
	/* The frames in flight: up to two rings' (2 x 256) worth, each spinning. */
	xl_sleep_ns(LAT_DRAIN_NS + 512 * row->rec.delay_ns, NULL);
	xl_gen__read(x->g.gen, &gs);
	err = xl_latency__read(x->g.rx, x->t);
	if (err) {
		snprintf(row->rec.note, sizeof(row->rec.note), "reading the receiver failed: %s",
			 strerror(-err));
		return err;
	}
	xl_lat_rep_from(x->t, gs.sent, gs.xmit_errors, &x->rep);
	if (x->g.xsk && x->run0 && !xl_xsk_app__wait_ns(x->g.xsk, &wait1, &run1) && run1) {
		row->app_wait_ns += wait1 - x->wait0;
		row->app_window_ns += xl_now_ns() - x->t0;
	}
	return 0;
}

static int lat_teardown(void *ctx, const struct xl_plan_step *st, int err)
{
	struct lat_run *x = ctx;

	rig_destroy(&x->g);
	return err;
}

/* The repetition's record, and its stamps added to the row's totals. */
static int lat_rep_done(void *ctx, const struct xl_plan_step *st)
{
	struct lat_run *x = ctx;
	struct xl_lat_row *row = x->row;
	const struct xl_lat_totals *t = x->t;
	int i, rep = st->rep;

	row->rec.reps[rep] = x->rep;
	for (i = 0; i < XL_LAT_BUCKETS; i++)
		row->all.hist[i] += t->hist[i];
	if (t->timed && (!row->all.timed || t->min_ns < row->all.min_ns))
		row->all.min_ns = t->min_ns;
	if (t->timed && t->max_ns > row->all.max_ns)
		row->all.max_ns = t->max_ns;
	row->all.stamped += t->stamped;
	row->all.timed += t->timed;
	row->all.negative += t->negative;
	row->all.unset += t->unset;
	row->all.frames += t->frames;
	row->all.sum_ns += t->sum_ns;
	row->rec.nreps = rep + 1;
	xl_dbg("%s %uB rep %d: sent %llu received %llu p50 %llu ns p99 %llu ns", row->rec.name,
	       row->rec.size, rep, (unsigned long long)row->rec.reps[rep].sent,
	       (unsigned long long)row->rec.reps[rep].received,
	       (unsigned long long)row->rec.reps[rep].p50_ns,
	       (unsigned long long)row->rec.reps[rep].p99_ns);
	return 0;
}

static const struct xl_plan_ops lat_ops = { .setup = lat_setup, .teardown = lat_teardown,
					    .wait = lat_wait, .close = lat_close,
					    .rep_done = lat_rep_done };

/*
 * rt-l2fwd's socket thread busy-polls on its own CPU; while it waits for
 * that CPU (other runnable tasks there: the scheduler's run delay, whole
 * time slices of milliseconds), the frames wait in its RX ring. That is
 * where its milliseconds at 10 kpps come from (issue 21 item 14,
 * docs/latency.md): said in the note, so the figure carries its cause.
 */
void xl_lat_row_notes(struct xl_lat_row *row, int app_cpu)
{
	size_t n = strlen(row->rec.note);
	char untimed[160];

	if (row->path == XL_LAT_L2FWD && row->app_window_ns) {
		snprintf(row->rec.note + n, sizeof(row->rec.note) - n,
			 "%ssocket thread waited %.0f%% of %.2f s for CPU %d (run delay: frames wait in its RX ring meanwhile)",
			 n ? "; " : "", 100.0 * row->app_wait_ns / row->app_window_ns,
			 row->app_window_ns / 1e9, app_cpu);
		n = strlen(row->rec.note);
	}
	if (xl_lat_notes(&row->all, untimed, sizeof(untimed))[0])
		snprintf(row->rec.note + n, sizeof(row->rec.note) - n, "%s%s", n ? "; " : "", untimed);
}

int xl_labrun_latency(struct xl_lab *lab, const struct xl_labrun_opts *o, enum xl_lat_path path,
		      uint64_t rate_pps, uint64_t delay_ns, uint32_t size, struct xl_lat_row *row)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int app_cpu = ncpu > 1 ? (o->gen_cpu + 1) % ncpu : 0;
	enum xl_wiring old_wiring = lab->wiring;
	int old_napi = lab->napi_cpu, err = 0;
	struct xl_lat_totals *t;

	memset(row, 0, sizeof(*row));
	snprintf(row->rec.name, sizeof(row->rec.name), "lat/%s/%s", xl_lat_path_name(path),
		 rate_pps ? "low" : "load");
	row->path = path;
	snprintf(row->rec.path, sizeof(row->rec.path), "%s", xl_lat_path_name(path));
	row->rec.round_trip = path != XL_LAT_ONEWAY;
	row->rec.size = size;
	row->rec.rate_pps = rate_pps;
	row->rec.seconds = o->seconds_ns / 1e9;
	row->rec.batch = o->gen_batch ? o->gen_batch : XL_GEN_DEFAULT_BATCH;
	row->rec.delay_ns = delay_ns;
	if (path >= XL_LAT_NPATHS || (path == XL_LAT_REDIRECT && lab->nout < 1) ||
	    lab->wiring == XL_WIRING_DEVICE) {
		snprintf(row->rec.note, sizeof(row->rec.note), "needs the veth lab%s",
			 path == XL_LAT_REDIRECT ? " with an out pair" : "");
		return -EINVAL;
	}
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	if (path == XL_LAT_L2FWD && lab->wiring != XL_WIRING_SOFTIRQ) {
		err = xl_lab__wire(lab, XL_WIRING_SOFTIRQ, -1);
		if (err) {
			snprintf(row->rec.note, sizeof(row->rec.note), "softirq wiring for AF_XDP failed: %s",
				 strerror(-err));
			free(t);
			return err;
		}
	}
	snprintf(row->rec.wiring, sizeof(row->rec.wiring), "%s", xl_wiring_name(lab->wiring));
	{
		struct lat_run x = { .lab = lab, .o = o, .row = row, .app_cpu = app_cpu, .t = t };
		struct xl_plan p = { .reps = o->reps < XL_MAX_REPS ? o->reps : XL_MAX_REPS,
				     .scope = XL_PLAN_PER_REP, .window_ns = o->seconds_ns,
				     .stop = o->stop, .cpu = app_cpu, .ops = &lat_ops, .ctx = &x,
				     .companion = o->companion };

		err = xl_plan_run(&p);
	}
	if (err == -EINTR && !row->rec.note[0])
		snprintf(row->rec.note, sizeof(row->rec.note), "interrupted after %d of %d repetitions",
			 row->rec.nreps, o->reps);
	xl_lat_row_notes(row, app_cpu);
	if (path == XL_LAT_L2FWD && old_wiring != XL_WIRING_SOFTIRQ) {
		int werr = xl_lab__wire(lab, old_wiring, old_napi);

		if (werr) {
			/* The rows after this one would run in the wrong wiring. */
			xl_err("lab: restoring %s wiring after %s failed: %s",
			       xl_wiring_name(old_wiring), row->rec.name, strerror(-werr));
			if (!err)
				err = werr;
		}
	}
	free(t);
	xl_lat_row_finish(row);
	return err;
}

/* ---- JSON ---- */

/*
 * The row's members by its field table (xl_lat_row_fields[]), then, by
 * hand, its "buckets": the non-empty buckets of the summed histogram with
 * their bounds, which the record does not hold and no reader reads back.
 */
json_t *xl_lat_row_json(const struct xl_lat_row *row)
{
	json_t *o = json_object(), *b;

	if (!o || xl_fields_to_json(o, xl_lat_row_fields, xl_lat_row_nfields, &row->rec))
		goto out_free;
	b = xl_lat_buckets_json(row->all.hist);
	if (!b || json_object_set_new(o, "buckets", b))
		goto out_free;
	return o;

out_free:
	json_decref(o);
	return NULL;
}

void xl_lat_clock_json(json_t *doc)
{
	json_object_set_new(doc, "latency_clock",
			    json_string("CLOCK_MONOTONIC (bpf_ktime_get_ns) at both ends, one host"));
	json_object_set_new(doc, "latency_resolution",
			    json_string("3 significant bits: each power of two in 8 buckets, a bucket at most 12.5% of its lower bound wide, 0-7 ns exact; percentiles are a bucket's upper bound capped at the exact max"));
}

char *xl_lat_rows_json(const struct xl_lat_row *rows, int n)
{
	json_t *doc = json_object(), *arr = json_array();
	char *s;
	int i;

	if (!doc || !arr) {
		json_decref(doc);
		json_decref(arr);
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		json_array_append_new(arr, xl_lat_row_json(&rows[i]));
	json_object_set_new(doc, "latency", arr);
	xl_lat_clock_json(doc);
	s = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	if (!s)
		errno = ENOMEM;
	return s;
}
