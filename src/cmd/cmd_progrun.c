// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab prog-run: what one packet costs a user's XDP program, with
 * BPF_PROG_RUN over each frame of a capture or of generated frames: the
 * kernel's duration per run less the repeat loop's own (an empty program's),
 * the action, the bytes it would send; per frame and per packet class; and
 * --a/--b: two programs interleaved in rounds, compared per class.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>

#include <jansson.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "xdplab/abtest.h"
#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/log.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"
#include "xdplab/pkt_class.h"
#include "xdplab/progrun.h"
#include "xdplab/stats.h"
#include "xdplab/userprog.h"

enum { O_PACKETS };

#define MAX_SPECS 64
#define MAX_CLASSES 64

struct progrun_args {
	const struct xl_cmd_spec *spec;
	const char *pcap, *a, *b;
	const char *packets[MAX_SPECS];
	struct xl_userprog_opts uo; /* --sec, --func, --map (xl_cmd_userprog_opt()) */
	const char *maps[XL_USERPROG_MAX_FILLS];
	int npackets;
	uint64_t repeat, rounds;
	bool json;
};

#define A struct progrun_args
static const struct xl_opt progrun_opts[] = {
	{ "pcap", 'p', "FILE", "run over every frame of this Ethernet capture", XL_STR(A, pcap) },
	{ "packets", 0, "SPEC", "a generated frame: v4|v6[,size=BYTES][,src=ADDR][,dst=ADDR][,sport=N][,dport=N] (repeatable; default: v4 and v6 at 64 bytes)",
	  O_PACKETS, true },
	{ "repeat", 'r', "N", "runs per frame in one BPF_PROG_RUN call, {range} (default {default})",
	  XL_UINT(A, repeat, 1, 10000000) },
	{ "rounds", 0, "N", "calls per frame, interleaved over the frames (and A/B), {range} (default 5; 9 with --a/--b)",
	  XL_UINT(A, rounds, 1, XL_AB_MAX_ROUNDS) },
	XL_RUN(SEC, A, uo.sec),
	XL_RUN(FUNC, A, uo.func),
	XL_RUN(MAP, A, maps),
	{ "a", 0, "FILE.o", "program A of an A/B comparison (with --b, instead of FILE.o)", XL_STR(A, a) },
	{ "b", 0, "FILE.o", "program B of an A/B comparison", XL_STR(A, b) },
	{ "json", 'j', NULL, "print JSON instead of the tables", XL_FLAG(A, json) },
};
#undef A

/* --packets and --map: lists. */
static int on_opt(const struct xl_cmd_spec *spec, int id, const char *arg, void *ctx)
{
	struct progrun_args *a = ctx;

	if (id != O_PACKETS)
		return xl_cmd_userprog_opt(spec, id, arg, &a->uo, a->maps) ? -EINVAL : 0;
	if (a->npackets == MAX_SPECS)
		return xl_usage_error(spec, "--packets: at most %d frames", MAX_SPECS);
	a->packets[a->npackets++] = arg;
	return 0;
}

static const struct xl_cmd_spec progrun_spec;
static const struct progrun_args progrun_defaults = { .spec = &progrun_spec, .repeat = 10000 };
static const struct xl_cmd_spec progrun_spec = {
	"prog-run", "FILE.o",
	"Run an XDP program over frames with BPF_PROG_RUN: ns per run, action, bytes out, per frame and per packet class.",
	progrun_opts, sizeof(progrun_opts) / sizeof(progrun_opts[0]), &progrun_defaults,
	sizeof(progrun_defaults), on_opt,
};

/* One --packets SPEC into a frame; 0 or -EINVAL (message printed). */
static int build_spec(const struct xl_cmd_spec *spec, const char *s, uint8_t *buf, size_t cap)
{
	struct xl_pkt_spec p = { .src_mac = { 0x02, 0x58, 0x4c, 0, 0, 1 },
				 .dst_mac = { 0x02, 0x58, 0x4c, 0, 0, 2 },
				 .src_port = 1024, .dst_port = 9, .size = 64 };
	char copy[256], *tok, *save;
	bool first = true;
	uint64_t v;
	int n;

	if (strlen(s) >= sizeof(copy))
		return xl_usage_error(spec, "--packets '%s': too long", s);
	strcpy(copy, s);
	inet_pton(AF_INET, "198.18.0.1", &p.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &p.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &p.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &p.dst_ip6);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save), first = false) {
		char *eq = strchr(tok, '=');
		const char *val = eq ? eq + 1 : "";

		if (first) {
			if (strcmp(tok, "v4") && strcmp(tok, "v6"))
				return xl_usage_error(spec, "--packets '%s': starts with v4 or v6, not '%s'", s, tok);
			p.ipv6 = tok[1] == '6';
			continue;
		}
		if (eq)
			*eq = '\0';
		if (!strcmp(tok, "size") && eq) {
			if (xl_parse_u64(spec, "--packets size", val, XL_PKT_MIN_SIZE, XL_PKT_MAX_SIZE, &v))
				return -EINVAL;
			p.size = v;
		} else if ((!strcmp(tok, "sport") || !strcmp(tok, "dport")) && eq) {
			if (xl_parse_u64(spec, tok[0] == 's' ? "--packets sport" : "--packets dport",
					 val, 1, 65535, &v))
				return -EINVAL;
			*(tok[0] == 's' ? &p.src_port : &p.dst_port) = v;
		} else if ((!strcmp(tok, "src") || !strcmp(tok, "dst")) && eq) {
			void *dst4 = tok[0] == 's' ? (void *)&p.src_ip4 : (void *)&p.dst_ip4;
			void *dst6 = tok[0] == 's' ? (void *)&p.src_ip6 : (void *)&p.dst_ip6;

			if (inet_pton(p.ipv6 ? AF_INET6 : AF_INET, val, p.ipv6 ? dst6 : dst4) != 1)
				return xl_usage_error(spec, "--packets '%s': %s '%s' is not an IPv%c address",
						      s, tok, val, p.ipv6 ? '6' : '4');
		} else {
			return xl_usage_error(spec, "--packets '%s': unknown '%s' (accepted: size=, src=, dst=, sport=, dport=)",
					      s, tok);
		}
	}
	n = xl_pkt_build(&p, buf, cap);
	if (n < 0)
		return xl_usage_error(spec, "--packets '%s': size %u cannot hold the headers (accepted: %d..%d; IPv6 62..)",
				      s, p.size, XL_PKT_MIN_SIZE, XL_PKT_MAX_SIZE);
	return n;
}

/* The frames to run: the capture's or the generated ones. */
static int get_frames(struct progrun_args *a, struct xl_pcap_frames *f)
{
	static const char *const defaults[] = { "v4", "v6" };
	const char *const *specs = a->npackets ? a->packets : defaults;
	int i, n = a->npackets ? a->npackets : 2, len;
	size_t used = 0;

	if (a->pcap) {
		int err = xl_frames_load_pcap(a->pcap, XL_PKT_MAX_SIZE, f);

		if (err)
			return err == -ENOMEM ? XL_EXIT_RUNTIME : XL_EXIT_USAGE;
		if (!f->n) {
			xl_usage_error(a->spec, "--pcap %s: no frame of 14 bytes or more in it", a->pcap);
			return XL_EXIT_USAGE;
		}
		return XL_EXIT_OK;
	}
	memset(f, 0, sizeof(*f));
	f->data = malloc((size_t)n * XL_PKT_MAX_SIZE);
	f->off = calloc(n, sizeof(*f->off));
	f->len = calloc(n, sizeof(*f->len));
	if (!f->data || !f->off || !f->len)
		return XL_EXIT_RUNTIME;
	for (i = 0; i < n; i++) {
		len = build_spec(a->spec, specs[i], f->data + used, XL_PKT_MAX_SIZE);
		if (len < 0)
			return XL_EXIT_USAGE;
		f->off[i] = used;
		f->len[i] = len;
		used += len;
	}
	f->n = n;
	f->read = n;
	return XL_EXIT_OK;
}

/*
 * A frame the program changes is timed in calls of one run on a fresh
 * copy each, at most this many a round (each a syscall: ~2 us).
 */
#define FRESH_MAX_CALLS 1000

/* Below this many runs per call, the figure is mostly the timer's. */
#define REPEAT_WARN 100

/* One program's runs: raw[round][frame] ns, and each frame's action and out bytes. */
struct side {
	const char *path;
	struct xl_userprog *u;
	int empty_fd;
	double *raw, *empty; /* rounds x frames */
	int *action;         /* per frame, of one run on a fresh copy; -1: not runnable (error in err) */
	int *err;            /* -E2BIG: longer than the linear part a program without frags sees */
	uint32_t *out_len, *linear;
};

/* How a frame is timed: the same for both sides of an A/B comparison. */
struct timing {
	bool *fresh;   /* per frame: a side changed it, so calls of one run each */
	uint32_t calls; /* calls a round for a fresh frame: min(--repeat, FRESH_MAX_CALLS) */
};

/*
 * Frame @i of round @r, on @s: 0, or the run's -errno (kept per frame).
 * @half: this call is one of two in the round (A/B: A B B A), so each adds
 * half its duration.
 */
static int run_one(struct side *s, const struct xl_pcap_frames *f, size_t i, int r, uint64_t repeat,
		   const struct timing *t, uint8_t *out, bool half)
{
	const uint8_t *frame = f->data + f->off[i];
	struct xl_run_result res, e;
	size_t idx = (size_t)r * f->n + i;
	double w = half ? 0.5 : 1, raw, empty;
	int err;

	if (s->err[i])
		return s->err[i];
	if (t->fresh[i]) {
		/* The empty program measured the same way, interleaved: its per-call cost. */
		err = xl_prog_run_fresh(xl_userprog__fd(s->u), s->empty_fd, frame, f->len[i],
					t->calls, &raw, &empty, &res);
	} else {
		err = xl_prog_run_frame(s->empty_fd, frame, f->len[i], repeat, NULL, 0, &e);
		if (!err)
			err = xl_prog_run_frame(xl_userprog__fd(s->u), frame, f->len[i], repeat, out,
						XL_PKT_MAX_SIZE + 256, &res);
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
static int probe_one(struct side *s, const struct xl_pcap_frames *f, size_t i, uint8_t *out,
		     bool *modified)
{
	const uint8_t *frame = f->data + f->off[i];
	struct xl_run_result res, e;
	bool changed;
	int err;

	*modified = false;
	/* The empty program leaves the frame as it is: its linear part is the frame's. */
	err = xl_prog_run_probe(s->empty_fd, frame, f->len[i], out, XL_PKT_MAX_SIZE + 256, &e,
				&changed);
	if (!err)
		err = xl_prog_run_probe(xl_userprog__fd(s->u), frame, f->len[i], out,
					XL_PKT_MAX_SIZE + 256, &res, modified);
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

/* Net ns of frame @i: the median of its rounds' raw minus the median of the empty's. */
static double frame_net(const struct side *s, const struct xl_pcap_frames *f, size_t i, int rounds,
			double *raw, double *empty)
{
	*raw = median_of(s->raw + i, f->n, rounds);
	*empty = median_of(s->empty + i, f->n, rounds);
	return *raw > *empty ? *raw - *empty : 0;
}

struct klass {
	char name[XL_PKT_CLASS_LEN];
	size_t frames;
	uint64_t actions[2][XL_XDP_ACTIONS + 1]; /* per side; [5]: other */
	uint64_t out_bytes[2];
	double sum[2][XL_AB_MAX_ROUNDS]; /* per side, per round: sum of net ns */
	double net_sum[2];
};

static int class_index(struct klass *c, int *nc, const char *name)
{
	int i;

	for (i = 0; i < *nc; i++)
		if (!strcmp(c[i].name, name))
			return i;
	if (*nc == MAX_CLASSES)
		return MAX_CLASSES - 1; /* the last class takes the rest */
	snprintf(c[*nc].name, sizeof(c[*nc].name), "%s", name);
	return (*nc)++;
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

static int load_side(struct progrun_args *a, struct side *s, size_t nframes)
{
	struct xl_userprog_opts uo = a->uo;

	uo.path = s->path;
	s->empty_fd = -1;
	s->u = xl_userprog__load(&uo);
	if (!s->u)
		return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	s->empty_fd = xl_empty_prog_load(xl_userprog__frags(s->u));
	if (s->empty_fd < 0) {
		xl_err("cannot load the empty XDP program: %s", strerror(-s->empty_fd));
		return XL_EXIT_RUNTIME;
	}
	s->raw = calloc(a->rounds * nframes, sizeof(double));
	s->empty = calloc(a->rounds * nframes, sizeof(double));
	s->action = calloc(nframes, sizeof(int));
	s->err = calloc(nframes, sizeof(int));
	s->out_len = calloc(nframes, sizeof(uint32_t));
	s->linear = calloc(nframes, sizeof(uint32_t));
	return s->raw && s->empty && s->action && s->err && s->out_len && s->linear ?
		       XL_EXIT_OK :
		       XL_EXIT_RUNTIME;
}

static void free_side(struct side *s)
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

/* Frame @i's number: the capture's (skipped frames leave gaps), else from 1. */
static unsigned long long frame_no(const struct xl_pcap_frames *f, size_t i)
{
	return f->num ? f->num[i] : i + 1;
}

static bool sends(int action)
{
	return action == XDP_TX || action == XDP_REDIRECT;
}

int cmd_progrun(int argc, char **argv)
{
	struct progrun_args a;
	struct side sides[2] = { { .empty_fd = -1 }, { .empty_fd = -1 } };
	static struct klass cls[MAX_CLASSES];
	struct xl_pcap_frames f = { 0 };
	char cname[XL_PKT_CLASS_LEN], acts[160];
	int idx, ns, nc = 0, r, s, ret, skipped = 0, disagree = 0, nfresh = 0, done = 0;
	uint64_t rounds_asked;
	struct timing t = { 0 };
	bool cut = false; /* a call returned EINTR: a signal came */
	double overhead[2][2] = { { 0, 0 }, { 0, 0 } }; /* [side][fresh] */
	uint8_t *out = NULL;
	json_t *jo = NULL, *jframes = NULL, *jclasses = NULL;
	size_t i;

	idx = xl_opts_parse(&progrun_spec, argc, argv, NULL, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	a.uo.fills = a.maps;
	if (!!a.a != !!a.b) {
		xl_usage_error(a.spec, "--a and --b go together (an A/B comparison)");
		return XL_EXIT_USAGE;
	}
	if (a.a && idx < argc) {
		xl_usage_error(a.spec, "FILE.o '%s' with --a/--b: give either", argv[idx]);
		return XL_EXIT_USAGE;
	}
	if (!a.a && idx != argc - 1) {
		xl_usage_error(a.spec, idx >= argc ? "missing FILE.o (see --help)" :
						      "one FILE.o expected, got '%s' too", argv[argc - 1]);
		return XL_EXIT_USAGE;
	}
	if (a.pcap && a.npackets) {
		xl_usage_error(a.spec, "--pcap and --packets: give either");
		return XL_EXIT_USAGE;
	}
	if (!a.rounds)
		a.rounds = a.a ? 9 : 5;
	ns = a.a ? 2 : 1;
	sides[0].path = a.a ? a.a : argv[idx];
	sides[1].path = a.b;
	ret = get_frames(&a, &f);
	if (ret)
		goto out;
	for (s = 0; s < ns; s++) {
		ret = load_side(&a, &sides[s], f.n);
		if (ret)
			goto out;
	}
	out = malloc(XL_PKT_MAX_SIZE + 256);
	t.fresh = calloc(f.n + 1, sizeof(*t.fresh));
	if (!out || !t.fresh) {
		ret = XL_EXIT_RUNTIME;
		goto out;
	}
	t.calls = a.repeat < FRESH_MAX_CALLS ? a.repeat : FRESH_MAX_CALLS;
	if (a.repeat < REPEAT_WARN)
		xl_warn("--repeat %llu: a call's figure is the mean of %llu run(s) timed together by the kernel (ktime, whole ns) with the timer's own cost in it: below %d runs that is most of a small program's figure (default 10000)",
			(unsigned long long)a.repeat, (unsigned long long)a.repeat, REPEAT_WARN);
	/*
	 * Each frame once on a fresh copy: the action reported, and whether
	 * the program changes it. --repeat runs the program over one buffer,
	 * each run on what the last left: a frame that changes is timed in
	 * calls of one run each instead, every call copying it in anew.
	 */
	for (i = 0; i < f.n; i++)
		for (s = 0; s < ns; s++) {
			bool modified;
			int err = probe_one(&sides[s], &f, i, out, &modified);

			if (err && err != -EINVAL && err != -ENOSPC && err != -E2BIG) {
				xl_err("BPF_PROG_RUN of %s on frame %llu: %s%s", sides[s].path,
				       frame_no(&f, i), strerror(-err), err == -EPERM ? " (needs CAP_BPF)" : "");
				ret = XL_EXIT_RUNTIME;
				goto out;
			}
			t.fresh[i] |= !err && modified;
		}
	for (i = 0; i < f.n; i++)
		nfresh += t.fresh[i];
	/*
	 * Rounds over all frames. A/B: A B B A per frame and round, each side
	 * the mean of its two calls, so neither gains from going first.
	 */
	for (r = 0; r < (int)a.rounds && !xl_stop_requested && !cut; r++) {
		for (i = 0; i < f.n && !xl_stop_requested && !cut; i++)
			for (s = 0; s < (ns == 2 ? 4 : 1); s++) {
				int side = ns == 1 ? 0 : (s == 0 || s == 3) ? 0 : 1;
				int err = run_one(&sides[side], &f, i, r, a.repeat, &t, out, ns == 2);

				if (err == -EINTR) {
					cut = true;
					break;
				}
				if (err && err != -EINVAL && err != -ENOSPC && err != -E2BIG) {
					xl_err("BPF_PROG_RUN of %s on frame %llu: %s%s", sides[side].path,
					       frame_no(&f, i), strerror(-err),
					       err == -EPERM ? " (needs CAP_BPF)" : "");
					ret = XL_EXIT_RUNTIME;
					goto out;
				}
			}
		done += i == f.n && !cut;
	}
	/* Interrupted: the rounds completed are reported, the one cut short is not. */
	rounds_asked = a.rounds;
	if (done < (int)a.rounds) {
		if (!done) {
			xl_err("interrupted before a round over the %zu frames was complete: nothing to report",
			       f.n);
			ret = XL_EXIT_RUNTIME;
			goto out;
		}
		a.rounds = done;
		xl_err("interrupted after %d of %llu rounds; the results of those follow", done,
		       (unsigned long long)rounds_asked);
	}
	for (s = 0; s < ns; s++)
		for (int m = 0; m < 2; m++) {
			double e[XL_AB_MAX_ROUNDS];
			size_t k = 0;

			/* The overhead reported: the median of the frames' empty-program figures, per method. */
			for (i = 0; i < f.n && k < XL_AB_MAX_ROUNDS; i++)
				if (!sides[s].err[i] && t.fresh[i] == m)
					e[k++] = median_of(sides[s].empty + i, f.n, a.rounds);
			overhead[s][m] = xl_summarize(e, k).median;
		}
	if (a.json) {
		jo = json_object();
		jframes = json_array();
		jclasses = json_array();
		json_object_set_new(jo, "command", json_string("prog-run"));
		json_object_set_new(jo, ns == 2 ? "a" : "object", json_string(sides[0].path));
		if (ns == 2)
			json_object_set_new(jo, "b", json_string(sides[1].path));
		json_object_set_new(jo, "program", json_string(xl_userprog__name(sides[0].u)));
		json_object_set_new(jo, "source", json_string(a.pcap ? a.pcap : "--packets"));
		json_object_set_new(jo, "repeat", json_integer(a.repeat));
		json_object_set_new(jo, "rounds", json_integer(a.rounds));
		json_object_set_new(jo, "overhead_ns", json_real(overhead[0][0]));
		json_object_set_new(jo, "overhead_subtracted", json_true());
		json_object_set_new(jo, "fresh_calls", json_integer(t.calls));
		json_object_set_new(jo, "fresh_frames", json_integer(nfresh));
		if (nfresh)
			json_object_set_new(jo, "fresh_overhead_ns", json_real(overhead[0][1]));
		if (done < (int)rounds_asked)
			json_object_set_new(jo, "rounds_asked", json_integer(rounds_asked));
		if (f.num)
			json_object_set_new(jo, "capture", json_pack("{s:I, s:I, s:I, s:i}", "read",
				(json_int_t)f.read, "runt", (json_int_t)f.runt, "oversize",
				(json_int_t)f.oversize, "max_bytes", XL_PKT_MAX_SIZE));
	} else {
		printf("prog-run: %s (sec %s) of %s", XL_ESC(xl_userprog__name(sides[0].u)),
		       XL_ESC(xl_userprog__sec(sides[0].u)), XL_ESC(sides[0].path));
		if (ns == 2)
			printf(" (A) vs %s of %s (B)", XL_ESC(xl_userprog__name(sides[1].u)),
			       XL_ESC(sides[1].path));
		printf(", %zu frames from %s, %llu runs per call x %llu rounds\n", f.n,
		       a.pcap ? XL_ESC(a.pcap) : "--packets", (unsigned long long)a.repeat,
		       (unsigned long long)a.rounds);
		if (f.runt || f.oversize)
			printf("capture: %llu frames read, not run: %llu under 14 bytes, %llu over %d bytes (the frame numbers below are the capture's)\n",
			       (unsigned long long)f.read, (unsigned long long)f.runt,
			       (unsigned long long)f.oversize, XL_PKT_MAX_SIZE);
		printf("timed: repeat = %llu runs per call, each on the frame as the run before left it (the program does not change it); "
		       "fresh = %u calls of one run each on a fresh copy (the program changes the frame), less an empty program's measured the same way; "
		       "actions and out bytes: one run on a fresh copy\n",
		       (unsigned long long)a.repeat, t.calls);
		if (nfresh < (int)f.n) {
			printf("loop overhead: %.1f ns per run (an empty XDP program over the same frames, median)%s; subtracted from every ns/run below\n",
			       overhead[0][0], ns == 2 ? " for A" : "");
			if (ns == 2)
				printf("loop overhead: %.1f ns per run for B\n", overhead[1][0]);
		}
		if (nfresh) {
			printf("call overhead: %.1f ns per call of one run (the empty program timed fresh, median)%s; subtracted from the fresh frames' ns/run\n",
			       overhead[0][1], ns == 2 ? " for A" : "");
			if (ns == 2)
				printf("call overhead: %.1f ns per call for B\n", overhead[1][1]);
		}
		if (ns == 1)
			printf("%5s  %-22s %6s  %-12s %8s %6s  %-9s  %s\n", "frame", "class", "bytes",
			       "action", "ns/run", "raw", "out_bytes", "timed");
		else
			printf("%5s  %-22s %6s  %-12s %8s  %-12s %8s  %s\n", "frame", "class", "bytes",
			       "A action", "A ns/run", "B action", "B ns/run", "timed");
	}
	for (i = 0; i < f.n; i++) {
		int c;
		double net[2] = { 0, 0 }, raw[2] = { 0, 0 }, emp[2] = { 0, 0 };
		json_t *jf = NULL;

		xl_pkt_class(f.data + f.off[i], f.len[i], cname, sizeof(cname));
		if (sides[0].err[i] || (ns == 2 && sides[1].err[i])) {
			int err = sides[0].err[i] ? sides[0].err[i] : sides[1].err[i];
			const struct side *es = sides[0].err[i] ? &sides[0] : &sides[1];

			skipped++;
			if (a.json)
				continue;
			if (err == -E2BIG)
				printf("%5llu  %-22s %6u  not run: longer than the %u bytes %s sees without xdp.frags (BPF_PROG_RUN would run it on those only)\n",
				       frame_no(&f, i), cname, f.len[i], es->linear[i],
				       XL_ESC(xl_userprog__name(es->u)));
			else
				printf("%5llu  %-22s %6u  not run: %s\n", frame_no(&f, i), cname, f.len[i],
				       err == -EINVAL ? "BPF_PROG_RUN refused it (Invalid argument: its size, for this program?)" :
						       strerror(-err));
			continue;
		}
		c = class_index(cls, &nc, cname);
		cls[c].frames++;
		for (s = 0; s < ns; s++) {
			int act = sides[s].action[i];

			net[s] = frame_net(&sides[s], &f, i, a.rounds, &raw[s], &emp[s]);
			cls[c].actions[s][act >= 0 && act < XL_XDP_ACTIONS ? act : XL_XDP_ACTIONS]++;
			if (sends(act))
				cls[c].out_bytes[s] += sides[s].out_len[i];
			cls[c].net_sum[s] += net[s];
			for (r = 0; r < (int)a.rounds; r++) {
				double v = sides[s].raw[(size_t)r * f.n + i] -
					   sides[s].empty[(size_t)r * f.n + i];

				cls[c].sum[s][r] += v;
			}
		}
		if (ns == 2 && sides[0].action[i] != sides[1].action[i])
			disagree++;
		if (a.json) {
			jf = json_pack("{s:I, s:s, s:I, s:s, s:f, s:f}", "frame", (json_int_t)frame_no(&f, i),
				       "class", cname, "bytes", (json_int_t)f.len[i], "action",
				       xl_xdp_action_name(sides[0].action[i]), "ns_per_run", net[0],
				       "raw_ns_per_run", raw[0]);
			json_object_set_new(jf, "empty_ns_per_run", json_real(emp[0]));
			json_object_set_new(jf, "timed", json_string(t.fresh[i] ? "fresh" : "repeat"));
			if (sends(sides[0].action[i]))
				json_object_set_new(jf, "out_bytes", json_integer(sides[0].out_len[i]));
			if (ns == 2) {
				json_object_set_new(jf, "b_action",
						    json_string(xl_xdp_action_name(sides[1].action[i])));
				json_object_set_new(jf, "b_ns_per_run", json_real(net[1]));
				json_object_set_new(jf, "b_raw_ns_per_run", json_real(raw[1]));
			}
			json_array_append_new(jframes, jf);
		} else if (ns == 1) {
			char ob[16] = "-";

			if (sends(sides[0].action[i]))
				snprintf(ob, sizeof(ob), "%u", sides[0].out_len[i]);
			printf("%5llu  %-22s %6u  %-12s %8.1f %6.0f  %-9s  %s\n", frame_no(&f, i), cname,
			       f.len[i], xl_xdp_action_name(sides[0].action[i]), net[0], raw[0], ob,
			       t.fresh[i] ? "fresh" : "repeat");
		} else {
			printf("%5llu  %-22s %6u  %-12s %8.1f  %-12s %8.1f  %s\n", frame_no(&f, i), cname,
			       f.len[i], xl_xdp_action_name(sides[0].action[i]), net[0],
			       xl_xdp_action_name(sides[1].action[i]), net[1],
			       t.fresh[i] ? "fresh" : "repeat");
		}
	}
	if (!a.json && ns == 1)
		printf("%-22s %6s %10s  %s\n", "class", "frames", "ns/run", "actions (out bytes for XDP_TX/REDIRECT)");
	if (!a.json && ns == 2)
		printf("%-22s %6s %10s %10s %10s  %-18s %8s  %s\n", "class", "frames", "A ns/run",
		       "B ns/run", "B-A ns", "95% CI", "p", "verdict");
	for (int c = 0; c < nc; c++) {
		struct klass *k = &cls[c];
		struct xl_ab_result ab = { 0 };
		double am, bm;

		for (r = 0; r < (int)a.rounds; r++) {
			k->sum[0][r] /= k->frames;
			k->sum[1][r] /= k->frames;
		}
		am = k->net_sum[0] / k->frames;
		bm = k->net_sum[1] / k->frames;
		if (ns == 2)
			xl_ab_compare(k->sum[0], k->sum[1], a.rounds, false, 1.0, &ab);
		act_str(k->actions[0], acts, sizeof(acts));
		if (a.json) {
			json_t *jc = json_pack("{s:s, s:I, s:f, s:s}", "class", k->name, "frames",
					       (json_int_t)k->frames, "ns_per_run", am, "actions", acts);

			if (k->out_bytes[0])
				json_object_set_new(jc, "out_bytes", json_integer(k->out_bytes[0]));
			if (ns == 2) {
				char bacts[160];

				act_str(k->actions[1], bacts, sizeof(bacts));
				json_object_set_new(jc, "b_ns_per_run", json_real(bm));
				json_object_set_new(jc, "b_actions", json_string(bacts));
				json_object_set_new(jc, "diff_ns_median", json_real(ab.diff_median));
				json_object_set_new(jc, "diff_ci95", ab.ci ? json_pack("[f, f]", ab.diff_lo, ab.diff_hi) :
									  json_null());
				json_object_set_new(jc, "p", json_real(ab.p));
				json_object_set_new(jc, "verdict", json_string(xl_ab_verdict_name(ab.verdict)));
			}
			json_array_append_new(jclasses, jc);
		} else if (ns == 1) {
			printf("%-22s %6zu %10.1f  %s", k->name, k->frames, am, acts);
			if (k->out_bytes[0])
				printf(" (%llu bytes out)", (unsigned long long)k->out_bytes[0]);
			printf("\n");
		} else {
			char ci[40] = "-";

			if (ab.ci)
				snprintf(ci, sizeof(ci), "%.1f..%.1f", ab.diff_lo, ab.diff_hi);
			printf("%-22s %6zu %10.1f %10.1f %+10.1f  %-18s %8.4f  %s\n", k->name, k->frames,
			       am, bm, ab.diff_median, ci, ab.p, xl_ab_verdict_name(ab.verdict));
		}
	}
	if (a.json) {
		json_object_set_new(jo, "frames", jframes);
		json_object_set_new(jo, "classes", jclasses);
		json_object_set_new(jo, "skipped", json_integer(skipped));
		if (ns == 2) {
			json_object_set_new(jo, "b_overhead_ns", json_real(overhead[1][0]));
			if (nfresh)
				json_object_set_new(jo, "b_fresh_overhead_ns", json_real(overhead[1][1]));
			json_object_set_new(jo, "action_disagreements", json_integer(disagree));
		}
		json_dumpf(jo, stdout, JSON_INDENT(1));
		printf("\n");
		json_decref(jo);
	} else {
		uint32_t lmax = xl_gen_live_frame_max();
		int over = 0;

		if (skipped)
			printf("not run: %d frames (see above)\n", skipped);
		for (i = 0; lmax && (size_t)i < f.n; i++)
			over += f.len[i] > lmax;
		/* What `gen` can send of these (issue 21 item 7: the limit was never named). */
		if (over)
			printf("note: %d frame%s longer than %u bytes, the most the live engine (gen --engine live, BPF_PROG_RUN live frames) sends here: gen sends %s with --engine packet\n",
			       over, over == 1 ? " is" : "s are", lmax, over == 1 ? "it" : "them");
		if (ns == 2) {
			printf("B-A: the median over %llu rounds of the paired difference of the class's mean ns/run; 95%% CI distribution-free (sign test); a verdict when p < 0.05 and |B-A| > 1 ns (the kernel's resolution)\n",
			       (unsigned long long)a.rounds);
			if (disagree)
				printf("note: A and B returned different actions on %d frames\n", disagree);
		}
	}
	ret = done < (int)rounds_asked ? XL_EXIT_RUNTIME : XL_EXIT_OK;
out:
	free(out);
	free(t.fresh);
	for (s = 0; s < 2; s++)
		free_side(&sides[s]);
	xl_frames_free(&f);
	return ret;
}
