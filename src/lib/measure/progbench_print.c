// SPDX-License-Identifier: BSD-2-Clause
/*
 * The results of a BPF_PROG_RUN bench (xdplab/progbench.h) as text and as
 * JSON: per frame, per packet class, A/B's comparison per class.
 */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include <jansson.h>

#include "progbench_priv.h"
#include "xdplab/escape.h"
#include "xdplab/gen.h"
#include "xdplab/pkt.h"

static bool sends(int action)
{
	return action == XDP_TX || action == XDP_REDIRECT;
}

static void act_str(const uint64_t *acts, char *buf, size_t len)
{
	size_t n = 0;
	int j;

	buf[0] = '\0';
	for (j = 0; j <= XL_XDP_ACTIONS && n < len; j++)
		if (acts[j])
			n += snprintf(buf + n, len - n, "%s%s %llu", n ? ", " : "",
				      j < XL_XDP_ACTIONS ? xl_xdp_action_name(j) : "other",
				      (unsigned long long)acts[j]);
}

/* The class's A/B comparison over the rounds (zeros without B). */
static void class_ab(const struct xl_progbench *pb, const struct pb_class *k,
		     struct xl_ab_result *ab)
{
	memset(ab, 0, sizeof(*ab));
	if (pb->ns == 2)
		xl_ab_compare(k->sum[0], k->sum[1], pb->rounds, false, 1.0, ab);
}

static void print_header(const struct xl_progbench *pb, FILE *out)
{
	const struct xl_pcap_frames *f = pb->f;
	const struct pb_side *sd = pb->sides;
	int ns = pb->ns;

	fprintf(out, "prog-run: %s (sec %s) of %s", XL_ESC(xl_userprog__name(sd[0].u)),
		XL_ESC(xl_userprog__sec(sd[0].u)), XL_ESC(sd[0].path));
	if (ns == 2)
		fprintf(out, " (A) vs %s of %s (B)", XL_ESC(xl_userprog__name(sd[1].u)),
			XL_ESC(sd[1].path));
	fprintf(out, ", %zu frames from %s, %llu runs per call x %llu rounds\n", f->n,
		XL_ESC(pb->o.source), (unsigned long long)pb->o.repeat,
		(unsigned long long)pb->rounds);
	if (f->runt || f->oversize)
		fprintf(out, "capture: %llu frames read, not run: %llu under 14 bytes, %llu over %d bytes (the frame numbers below are the capture's)\n",
			(unsigned long long)f->read, (unsigned long long)f->runt,
			(unsigned long long)f->oversize, XL_PKT_MAX_SIZE);
	fprintf(out, "timed: repeat = %llu runs per call, each on the frame as the run before left it (the program does not change it); "
		"fresh = %u calls of one run each on a fresh copy (the program changes the frame), less an empty program's measured the same way; "
		"actions and out bytes: one run on a fresh copy\n",
		(unsigned long long)pb->o.repeat, pb->calls);
	if (pb->nfresh < (int)f->n) {
		fprintf(out, "loop overhead: %.1f ns per run (an empty XDP program over the same frames, median)%s; subtracted from every ns/run below\n",
			pb->overhead[0][0], ns == 2 ? " for A" : "");
		if (ns == 2)
			fprintf(out, "loop overhead: %.1f ns per run for B\n", pb->overhead[1][0]);
	}
	if (pb->nfresh) {
		fprintf(out, "call overhead: %.1f ns per call of one run (the empty program timed fresh, median)%s; subtracted from the fresh frames' ns/run\n",
			pb->overhead[0][1], ns == 2 ? " for A" : "");
		if (ns == 2)
			fprintf(out, "call overhead: %.1f ns per call for B\n", pb->overhead[1][1]);
	}
	if (ns == 1)
		fprintf(out, "%5s  %-22s %6s  %-12s %8s %6s  %-9s  %s\n", "frame", "class", "bytes",
			"action", "ns/run", "raw", "out_bytes", "timed");
	else
		fprintf(out, "%5s  %-22s %6s  %-12s %8s  %-12s %8s  %s\n", "frame", "class", "bytes",
			"A action", "A ns/run", "B action", "B ns/run", "timed");
}

/* Frame @i's line: its figures, or why it was not run. */
static void print_frame(const struct xl_progbench *pb, size_t i, FILE *out)
{
	const struct xl_pcap_frames *f = pb->f;
	const struct pb_side *sd = pb->sides;
	const char *timed = pb->fresh[i] ? "fresh" : "repeat";
	char cname[XL_PKT_CLASS_LEN];
	double net[2] = { 0, 0 }, raw[2] = { 0, 0 }, emp[2] = { 0, 0 };
	int s;

	xl_pkt_class(f->data + f->off[i], f->len[i], cname, sizeof(cname));
	if (sd[0].err[i] || (pb->ns == 2 && sd[1].err[i])) {
		int err = sd[0].err[i] ? sd[0].err[i] : sd[1].err[i];
		const struct pb_side *es = sd[0].err[i] ? &sd[0] : &sd[1];

		if (err == -E2BIG)
			fprintf(out, "%5llu  %-22s %6u  not run: longer than the %u bytes %s sees without xdp.frags (BPF_PROG_RUN would run it on those only)\n",
				pb_frame_no(f, i), cname, f->len[i], es->linear[i],
				XL_ESC(xl_userprog__name(es->u)));
		else
			fprintf(out, "%5llu  %-22s %6u  not run: %s\n", pb_frame_no(f, i), cname,
				f->len[i], err == -EINVAL ? "BPF_PROG_RUN refused it (Invalid argument: its size, for this program?)" :
							   strerror(-err));
		return;
	}
	for (s = 0; s < pb->ns; s++)
		net[s] = pb_frame_net(pb, &sd[s], i, &raw[s], &emp[s]);
	if (pb->ns == 1) {
		char ob[16] = "-";

		if (sends(sd[0].action[i]))
			snprintf(ob, sizeof(ob), "%u", sd[0].out_len[i]);
		fprintf(out, "%5llu  %-22s %6u  %-12s %8.1f %6.0f  %-9s  %s\n", pb_frame_no(f, i),
			cname, f->len[i], xl_xdp_action_name(sd[0].action[i]), net[0], raw[0], ob,
			timed);
	} else {
		fprintf(out, "%5llu  %-22s %6u  %-12s %8.1f  %-12s %8.1f  %s\n", pb_frame_no(f, i),
			cname, f->len[i], xl_xdp_action_name(sd[0].action[i]), net[0],
			xl_xdp_action_name(sd[1].action[i]), net[1], timed);
	}
}

static void print_class(const struct xl_progbench *pb, const struct pb_class *k, FILE *out)
{
	struct xl_ab_result ab;
	char acts[160];
	double am = k->net_sum[0] / k->frames, bm = k->net_sum[1] / k->frames;

	class_ab(pb, k, &ab);
	act_str(k->actions[0], acts, sizeof(acts));
	if (pb->ns == 1) {
		fprintf(out, "%-22s %6zu %10.1f  %s", k->name, k->frames, am, acts);
		if (k->out_bytes[0])
			fprintf(out, " (%llu bytes out)", (unsigned long long)k->out_bytes[0]);
		fprintf(out, "\n");
	} else {
		char ci[40] = "-";

		if (ab.ci)
			snprintf(ci, sizeof(ci), "%.1f..%.1f", ab.diff_lo, ab.diff_hi);
		fprintf(out, "%-22s %6zu %10.1f %10.1f %+10.1f  %-18s %8.4f  %s\n", k->name,
			k->frames, am, bm, ab.diff_median, ci, ab.p, xl_ab_verdict_name(ab.verdict));
	}
}

int xl_progbench__print(struct xl_progbench *pb, FILE *out)
{
	const struct xl_pcap_frames *f = pb->f;
	uint32_t lmax = xl_gen_live_frame_max();
	int c, over = 0;
	size_t i;

	pb_classes(pb);
	print_header(pb, out);
	for (i = 0; i < f->n; i++)
		print_frame(pb, i, out);
	if (pb->ns == 1)
		fprintf(out, "%-22s %6s %10s  %s\n", "class", "frames", "ns/run",
			"actions (out bytes for XDP_TX/REDIRECT)");
	else
		fprintf(out, "%-22s %6s %10s %10s %10s  %-18s %8s  %s\n", "class", "frames",
			"A ns/run", "B ns/run", "B-A ns", "95% CI", "p", "verdict");
	for (c = 0; c < pb->nc; c++)
		print_class(pb, &pb->cls[c], out);
	if (pb->skipped)
		fprintf(out, "not run: %d frames (see above)\n", pb->skipped);
	for (i = 0; lmax && i < f->n; i++)
		over += f->len[i] > lmax;
	/* What `gen` can send of these (issue 21 item 7: the limit was never named). */
	if (over)
		fprintf(out, "note: %d frame%s longer than %u bytes, the most the live engine (gen --engine live, BPF_PROG_RUN live frames) sends here: gen sends %s with --engine packet\n",
			over, over == 1 ? " is" : "s are", lmax, over == 1 ? "it" : "them");
	if (pb->ns == 2) {
		fprintf(out, "B-A: the median over %llu rounds of the paired difference of the class's mean ns/run; 95%% CI distribution-free (sign test); a verdict when p < 0.05 and |B-A| > 1 ns (the kernel's resolution)\n",
			(unsigned long long)pb->rounds);
		if (pb->disagree)
			fprintf(out, "note: A and B returned different actions on %d frames\n",
				pb->disagree);
	}
	return 0;
}

static json_t *frame_json(const struct xl_progbench *pb, size_t i)
{
	const struct xl_pcap_frames *f = pb->f;
	const struct pb_side *sd = pb->sides;
	char cname[XL_PKT_CLASS_LEN];
	double net[2] = { 0, 0 }, raw[2] = { 0, 0 }, emp[2] = { 0, 0 };
	json_t *jf;
	int s;

	xl_pkt_class(f->data + f->off[i], f->len[i], cname, sizeof(cname));
	for (s = 0; s < pb->ns; s++)
		net[s] = pb_frame_net(pb, &sd[s], i, &raw[s], &emp[s]);
	jf = json_pack("{s:I, s:s, s:I, s:s, s:f, s:f}", "frame", (json_int_t)pb_frame_no(f, i),
		       "class", cname, "bytes", (json_int_t)f->len[i], "action",
		       xl_xdp_action_name(sd[0].action[i]), "ns_per_run", net[0], "raw_ns_per_run",
		       raw[0]);
	json_object_set_new(jf, "empty_ns_per_run", json_real(emp[0]));
	json_object_set_new(jf, "timed", json_string(pb->fresh[i] ? "fresh" : "repeat"));
	if (sends(sd[0].action[i]))
		json_object_set_new(jf, "out_bytes", json_integer(sd[0].out_len[i]));
	if (pb->ns == 2) {
		json_object_set_new(jf, "b_action", json_string(xl_xdp_action_name(sd[1].action[i])));
		json_object_set_new(jf, "b_ns_per_run", json_real(net[1]));
		json_object_set_new(jf, "b_raw_ns_per_run", json_real(raw[1]));
	}
	return jf;
}

static json_t *class_json(const struct xl_progbench *pb, const struct pb_class *k)
{
	struct xl_ab_result ab;
	char acts[160];
	json_t *jc;

	class_ab(pb, k, &ab);
	act_str(k->actions[0], acts, sizeof(acts));
	jc = json_pack("{s:s, s:I, s:f, s:s}", "class", k->name, "frames", (json_int_t)k->frames,
		       "ns_per_run", k->net_sum[0] / k->frames, "actions", acts);
	if (k->out_bytes[0])
		json_object_set_new(jc, "out_bytes", json_integer(k->out_bytes[0]));
	if (pb->ns == 2) {
		char bacts[160];

		act_str(k->actions[1], bacts, sizeof(bacts));
		json_object_set_new(jc, "b_ns_per_run", json_real(k->net_sum[1] / k->frames));
		json_object_set_new(jc, "b_actions", json_string(bacts));
		json_object_set_new(jc, "diff_ns_median", json_real(ab.diff_median));
		json_object_set_new(jc, "diff_ci95", ab.ci ? json_pack("[f, f]", ab.diff_lo, ab.diff_hi) :
							  json_null());
		json_object_set_new(jc, "p", json_real(ab.p));
		json_object_set_new(jc, "verdict", json_string(xl_ab_verdict_name(ab.verdict)));
	}
	return jc;
}

int xl_progbench__json(struct xl_progbench *pb, FILE *out)
{
	const struct xl_pcap_frames *f = pb->f;
	const struct pb_side *sd = pb->sides;
	json_t *jo = json_object(), *jframes = json_array(), *jclasses = json_array();
	int c, ns = pb->ns;
	size_t i;

	if (!jo || !jframes || !jclasses) {
		json_decref(jo);
		json_decref(jframes);
		json_decref(jclasses);
		return -ENOMEM;
	}
	pb_classes(pb);
	json_object_set_new(jo, "command", json_string("prog-run"));
	json_object_set_new(jo, ns == 2 ? "a" : "object", json_string(sd[0].path));
	if (ns == 2)
		json_object_set_new(jo, "b", json_string(sd[1].path));
	json_object_set_new(jo, "program", json_string(xl_userprog__name(sd[0].u)));
	json_object_set_new(jo, "source", json_string(pb->o.source));
	json_object_set_new(jo, "repeat", json_integer(pb->o.repeat));
	json_object_set_new(jo, "rounds", json_integer(pb->rounds));
	json_object_set_new(jo, "overhead_ns", json_real(pb->overhead[0][0]));
	json_object_set_new(jo, "overhead_subtracted", json_true());
	json_object_set_new(jo, "fresh_calls", json_integer(pb->calls));
	json_object_set_new(jo, "fresh_frames", json_integer(pb->nfresh));
	if (pb->nfresh)
		json_object_set_new(jo, "fresh_overhead_ns", json_real(pb->overhead[0][1]));
	if (pb->done < (int)pb->o.rounds)
		json_object_set_new(jo, "rounds_asked", json_integer(pb->o.rounds));
	if (f->num)
		json_object_set_new(jo, "capture", json_pack("{s:I, s:I, s:I, s:i}", "read",
			(json_int_t)f->read, "runt", (json_int_t)f->runt, "oversize",
			(json_int_t)f->oversize, "max_bytes", XL_PKT_MAX_SIZE));
	for (i = 0; i < f->n; i++)
		if (!sd[0].err[i] && !(ns == 2 && sd[1].err[i]))
			json_array_append_new(jframes, frame_json(pb, i));
	for (c = 0; c < pb->nc; c++)
		json_array_append_new(jclasses, class_json(pb, &pb->cls[c]));
	json_object_set_new(jo, "frames", jframes);
	json_object_set_new(jo, "classes", jclasses);
	json_object_set_new(jo, "skipped", json_integer(pb->skipped));
	if (ns == 2) {
		json_object_set_new(jo, "b_overhead_ns", json_real(pb->overhead[1][0]));
		if (pb->nfresh)
			json_object_set_new(jo, "b_fresh_overhead_ns", json_real(pb->overhead[1][1]));
		json_object_set_new(jo, "action_disagreements", json_integer(pb->disagree));
	}
	json_dumpf(jo, out, JSON_INDENT(1));
	fprintf(out, "\n");
	json_decref(jo);
	return 0;
}
