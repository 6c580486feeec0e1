// SPDX-License-Identifier: BSD-2-Clause
/*
 * What one packet costs a user's XDP program, with BPF_PROG_RUN
 * (xdplab/progbench.h): the programs and their empty companions loaded,
 * each frame probed once on a fresh copy, then timed in rounds (A/B:
 * A B B A), the overheads, and the packet classes' sums.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "progbench_priv.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/progrun.h"
#include "xdplab/stats.h"

/* Room for the frame after a run. */
#define PB_OUT_CAP (XL_PKT_MAX_SIZE + 256)

static bool stopped(const struct xl_progbench *pb)
{
	return pb->o.stop && *pb->o.stop;
}

/* A call's error that ends the frame, not the run: refused by BPF_PROG_RUN. */
static bool frame_refused(int err)
{
	return err == -EINVAL || err == -ENOSPC || err == -E2BIG;
}

/*
 * Frame @i of round @r, on @s: 0, or the run's -errno (kept per frame).
 * @half: this call is one of two in the round (A/B: A B B A), so each adds
 * half its duration.
 */
static int run_one(struct xl_progbench *pb, struct pb_side *s, size_t i, int r, bool half)
{
	const struct xl_pcap_frames *f = pb->f;
	const uint8_t *frame = f->data + f->off[i];
	struct xl_run_result res, e;
	size_t idx = (size_t)r * f->n + i;
	double w = half ? 0.5 : 1, raw, empty;
	int err;

	if (s->err[i])
		return s->err[i];
	if (pb->fresh[i]) {
		/* The empty program measured the same way, interleaved: its per-call cost. */
		err = xl_prog_run_fresh(xl_userprog__fd(s->u), s->empty_fd, frame, f->len[i],
					pb->calls, &raw, &empty, &res);
	} else {
		err = xl_prog_run_frame(s->empty_fd, frame, f->len[i], pb->o.repeat, NULL, 0, &e);
		if (!err)
			err = xl_prog_run_frame(xl_userprog__fd(s->u), frame, f->len[i],
						pb->o.repeat, pb->out, PB_OUT_CAP, &res);
		raw = res.duration_ns;
		empty = e.duration_ns;
	}
	if (err == -EINTR) /* a signal: the round is cut short, not the frame */
		return err;
	if (err) {
		s->err[i] = err;
		s->action[i] = -1;
		return err;
	}
	s->raw[idx] += w * raw;
	s->empty[idx] += w * empty;
	return 0;
}

/*
 * Frame @i on @s once, on a fresh copy: its action and out bytes (those
 * reported), whether the program changed it (*@modified), and whether a
 * program without frags would see all of it. 0 or the run's -errno (kept).
 */
static int probe_one(struct xl_progbench *pb, struct pb_side *s, size_t i, bool *modified)
{
	const struct xl_pcap_frames *f = pb->f;
	const uint8_t *frame = f->data + f->off[i];
	struct xl_run_result res, e;
	bool changed;
	int err;

	*modified = false;
	/* The empty program leaves the frame as it is: its linear part is the frame's. */
	err = xl_prog_run_probe(s->empty_fd, frame, f->len[i], pb->out, PB_OUT_CAP, &e, &changed);
	if (!err)
		err = xl_prog_run_probe(xl_userprog__fd(s->u), frame, f->len[i], pb->out,
					PB_OUT_CAP, &res, modified);
	if (!err && !xl_userprog__frags(s->u) && e.linear_len < f->len[i]) {
		s->linear[i] = e.linear_len;
		err = -E2BIG;
	}
	if (err) {
		s->err[i] = err;
		s->action[i] = -1;
		return err;
	}
	s->action[i] = res.action;
	s->out_len[i] = res.out_len;
	return 0;
}

static double median_of(const double *v, size_t stride, size_t n)
{
	double tmp[XL_AB_MAX_ROUNDS];
	size_t i;

	for (i = 0; i < n && i < XL_AB_MAX_ROUNDS; i++)
		tmp[i] = v[i * stride];
	return xl_summarize(tmp, i).median;
}

double pb_frame_net(const struct xl_progbench *pb, const struct pb_side *s, size_t i,
		    double *raw, double *empty)
{
	*raw = median_of(s->raw + i, pb->f->n, pb->rounds);
	*empty = median_of(s->empty + i, pb->f->n, pb->rounds);
	return *raw > *empty ? *raw - *empty : 0;
}

/* 0, or -errno with the cause logged; *@bad_object: the user's object's. */
static int load_side(struct xl_progbench *pb, struct pb_side *s, bool *bad_object)
{
	struct xl_userprog_opts uo = *pb->o.uo;
	size_t nframes = pb->f->n;
	int err;

	uo.path = s->path;
	s->u = xl_userprog__load(&uo);
	if (!s->u) {
		err = -errno;
		*bad_object = xl_userprog_usage_error(err);
		return err;
	}
	s->empty_fd = xl_empty_prog_load(xl_userprog__frags(s->u));
	if (s->empty_fd < 0) {
		xl_err("cannot load the empty XDP program: %s", strerror(-s->empty_fd));
		return s->empty_fd;
	}
	s->raw = calloc(pb->o.rounds * nframes, sizeof(double));
	s->empty = calloc(pb->o.rounds * nframes, sizeof(double));
	s->action = calloc(nframes, sizeof(int));
	s->err = calloc(nframes, sizeof(int));
	s->out_len = calloc(nframes, sizeof(uint32_t));
	s->linear = calloc(nframes, sizeof(uint32_t));
	return s->raw && s->empty && s->action && s->err && s->out_len && s->linear ? 0 : -ENOMEM;
}

static void free_side(struct pb_side *s)
{
	if (s->empty_fd >= 0)
		close(s->empty_fd);
	xl_userprog__destroy(s->u);
	free(s->raw);
	free(s->empty);
	free(s->action);
	free(s->err);
	free(s->out_len);
	free(s->linear);
}

struct xl_progbench *xl_progbench__create(const struct xl_progbench_opts *o, bool *bad_object)
{
	struct xl_progbench *pb = calloc(1, sizeof(*pb));
	int s, err = -ENOMEM;

	*bad_object = false;
	if (!pb)
		goto out_errno;
	pb->o = *o;
	pb->f = o->frames;
	pb->ns = o->b_path ? 2 : 1;
	pb->rounds = o->rounds;
	pb->sides[0] = (struct pb_side){ .path = o->path, .empty_fd = -1 };
	pb->sides[1] = (struct pb_side){ .path = o->b_path, .empty_fd = -1 };
	for (s = 0; s < pb->ns; s++) {
		err = load_side(pb, &pb->sides[s], bad_object);
		if (err)
			goto out_destroy;
	}
	err = -ENOMEM;
	pb->out = malloc(PB_OUT_CAP);
	pb->fresh = calloc(pb->f->n + 1, sizeof(*pb->fresh));
	pb->cls = calloc(PB_MAX_CLASSES, sizeof(*pb->cls));
	if (!pb->out || !pb->fresh || !pb->cls)
		goto out_destroy;
	pb->calls = o->repeat < XL_PROGBENCH_FRESH_MAX_CALLS ? o->repeat :
							       XL_PROGBENCH_FRESH_MAX_CALLS;
	return pb;

out_destroy:
	xl_progbench__destroy(pb);
out_errno:
	errno = -err;
	return NULL;
}

void xl_progbench__destroy(struct xl_progbench *pb)
{
	int s;

	if (!pb)
		return;
	free(pb->out);
	free(pb->fresh);
	free(pb->cls);
	for (s = 0; s < 2; s++)
		free_side(&pb->sides[s]);
	free(pb);
}

int xl_progbench__rounds_done(const struct xl_progbench *pb)
{
	return pb->done;
}

/* A call's failure that ends the run, logged. */
static int call_failed(const struct xl_progbench *pb, const struct pb_side *s, size_t i, int err)
{
	xl_err("BPF_PROG_RUN of %s on frame %llu: %s%s", s->path, pb_frame_no(pb->f, i),
	       strerror(-err), err == -EPERM ? " (needs CAP_BPF)" : "");
	return err;
}

int xl_progbench__run(struct xl_progbench *pb)
{
	const struct xl_pcap_frames *f = pb->f;
	bool cut = false; /* a call returned EINTR: a signal came */
	int r, s, ns = pb->ns;
	size_t i;

	if (pb->o.repeat < XL_PROGBENCH_REPEAT_WARN)
		xl_warn("--repeat %llu: a call's figure is the mean of %llu run(s) timed together by the kernel (ktime, whole ns) with the timer's own cost in it: below %d runs that is most of a small program's figure (default 10000)",
			(unsigned long long)pb->o.repeat, (unsigned long long)pb->o.repeat,
			XL_PROGBENCH_REPEAT_WARN);
	/*
	 * Each frame once on a fresh copy: the action reported, and whether
	 * the program changes it. --repeat runs the program over one buffer,
	 * each run on what the last left: a frame that changes is timed in
	 * calls of one run each instead, every call copying it in anew.
	 */
	for (i = 0; i < f->n; i++)
		for (s = 0; s < ns; s++) {
			bool modified;
			int err = probe_one(pb, &pb->sides[s], i, &modified);

			if (err && !frame_refused(err))
				return call_failed(pb, &pb->sides[s], i, err);
			pb->fresh[i] |= !err && modified;
		}
	for (i = 0; i < f->n; i++)
		pb->nfresh += pb->fresh[i];
	/*
	 * Rounds over all frames. A/B: A B B A per frame and round, each side
	 * the mean of its two calls, so neither gains from going first.
	 */
	for (r = 0; r < (int)pb->o.rounds && !stopped(pb) && !cut; r++) {
		for (i = 0; i < f->n && !stopped(pb) && !cut; i++)
			for (s = 0; s < (ns == 2 ? 4 : 1); s++) {
				int side = ns == 1 ? 0 : (s == 0 || s == 3) ? 0 : 1;
				int err = run_one(pb, &pb->sides[side], i, r, ns == 2);

				if (err == -EINTR) {
					cut = true;
					break;
				}
				if (err && !frame_refused(err))
					return call_failed(pb, &pb->sides[side], i, err);
			}
		pb->done += i == f->n && !cut;
	}
	/* Interrupted: the rounds completed are reported, the one cut short is not. */
	if (pb->done < (int)pb->o.rounds) {
		if (!pb->done) {
			xl_err("interrupted before a round over the %zu frames was complete: nothing to report",
			       f->n);
			return -EINTR;
		}
		pb->rounds = pb->done;
		xl_err("interrupted after %d of %llu rounds; the results of those follow", pb->done,
		       (unsigned long long)pb->o.rounds);
	}
	for (s = 0; s < ns; s++)
		for (int m = 0; m < 2; m++) {
			double e[XL_AB_MAX_ROUNDS];
			size_t k = 0;

			/* The overhead reported: the median of the frames' empty-program figures, per method. */
			for (i = 0; i < f->n && k < XL_AB_MAX_ROUNDS; i++)
				if (!pb->sides[s].err[i] && pb->fresh[i] == m)
					e[k++] = median_of(pb->sides[s].empty + i, f->n, pb->rounds);
			pb->overhead[s][m] = xl_summarize(e, k).median;
		}
	return pb->done < (int)pb->o.rounds ? -EINTR : 0;
}

static int class_index(struct xl_progbench *pb, const char *name)
{
	int i;

	for (i = 0; i < pb->nc; i++)
		if (!strcmp(pb->cls[i].name, name))
			return i;
	if (pb->nc == PB_MAX_CLASSES)
		return PB_MAX_CLASSES - 1; /* the last class takes the rest */
	snprintf(pb->cls[pb->nc].name, sizeof(pb->cls[pb->nc].name), "%s", name);
	return pb->nc++;
}

static bool sends(int action)
{
	return action == XDP_TX || action == XDP_REDIRECT;
}

void pb_classes(struct xl_progbench *pb)
{
	const struct xl_pcap_frames *f = pb->f;
	char cname[XL_PKT_CLASS_LEN];
	int c, r, s;
	size_t i;

	if (pb->summed)
		return;
	pb->summed = true;
	for (i = 0; i < f->n; i++) {
		if (pb->sides[0].err[i] || (pb->ns == 2 && pb->sides[1].err[i])) {
			pb->skipped++;
			continue;
		}
		xl_pkt_class(f->data + f->off[i], f->len[i], cname, sizeof(cname));
		c = class_index(pb, cname);
		pb->cls[c].frames++;
		for (s = 0; s < pb->ns; s++) {
			const struct pb_side *sd = &pb->sides[s];
			int act = sd->action[i];
			double raw, emp;

			pb->cls[c].actions[s][act >= 0 && act < XL_XDP_ACTIONS ? act : XL_XDP_ACTIONS]++;
			if (sends(act))
				pb->cls[c].out_bytes[s] += sd->out_len[i];
			pb->cls[c].net_sum[s] += pb_frame_net(pb, sd, i, &raw, &emp);
			for (r = 0; r < (int)pb->rounds; r++)
				pb->cls[c].sum[s][r] += sd->raw[(size_t)r * f->n + i] -
							sd->empty[(size_t)r * f->n + i];
		}
		if (pb->ns == 2 && pb->sides[0].action[i] != pb->sides[1].action[i])
			pb->disagree++;
	}
	/* Each round's sum into the class's mean over its frames. */
	for (c = 0; c < pb->nc; c++)
		for (r = 0; r < (int)pb->rounds; r++) {
			pb->cls[c].sum[0][r] /= pb->cls[c].frames;
			pb->cls[c].sum[1][r] /= pb->cls[c].frames;
		}
}
