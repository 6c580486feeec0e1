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
#include "xdplab/abtest.h"
#include "xdplab/bench.h"
#include "xdplab/log.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"
#include "xdplab/pkt_class.h"
#include "xdplab/progrun.h"
#include "xdplab/stats.h"
#include "xdplab/userprog.h"

enum { O_PCAP, O_PACKETS, O_REPEAT, O_ROUNDS, O_A, O_B, O_JSON };

static const struct xl_opt progrun_opts[] = {
	{ "pcap", 'p', "FILE", "run over every frame of this Ethernet capture", O_PCAP },
	{ "packets", 0, "SPEC", "a generated frame: v4|v6[,size=BYTES][,src=ADDR][,dst=ADDR][,sport=N][,dport=N] (repeatable; default: v4 and v6 at 64 bytes)",
	  O_PACKETS, true },
	{ "repeat", 'r', "N", "runs per frame in one BPF_PROG_RUN call, 1..10000000 (default 10000)", O_REPEAT },
	{ "rounds", 0, "N", "calls per frame, interleaved over the frames (and A/B), 1..1024 (default 5; 9 with --a/--b)", O_ROUNDS },
	{ "sec", 0, "NAME", "the XDP program in this ELF section", XL_OPT_SEC },
	{ "func", 0, "NAME", "the XDP program with this function name", XL_OPT_FUNC },
	{ "map", 0, "NAME=FILE", "fill map NAME from FILE (docs/own-program.md; repeatable)", XL_OPT_MAP, true },
	{ "a", 0, "FILE.o", "program A of an A/B comparison (with --b, instead of FILE.o)", O_A },
	{ "b", 0, "FILE.o", "program B of an A/B comparison", O_B },
	{ "json", 'j', NULL, "print JSON instead of the tables", O_JSON },
};

#define MAX_SPECS 64
#define MAX_CLASSES 64

struct progrun_args {
	struct xl_cmd_spec spec;
	const char *pcap, *a, *b;
	const char *packets[MAX_SPECS];
	struct xl_userprog_opts uo; /* --sec, --func, --map (xl_cmd_userprog_opt()) */
	const char *maps[XL_USERPROG_MAX_FILLS];
	int npackets;
	uint64_t repeat, rounds;
	bool json;
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct progrun_args *a = ctx;
	int r = xl_cmd_userprog_opt(&a->spec, id, arg, &a->uo, a->maps);

	if (r <= 0)
		return r;
	switch (id) {
	case O_PCAP:
		a->pcap = arg;
		return 0;
	case O_PACKETS:
		if (a->npackets == MAX_SPECS)
			return xl_usage_error(&a->spec, "--packets: at most %d frames", MAX_SPECS);
		a->packets[a->npackets++] = arg;
		return 0;
	case O_REPEAT:
		return xl_parse_u64(&a->spec, "--repeat", arg, 1, 10000000, &a->repeat);
	case O_ROUNDS:
		return xl_parse_u64(&a->spec, "--rounds", arg, 1, XL_AB_MAX_ROUNDS, &a->rounds);
	case O_A:
		a->a = arg;
		return 0;
	case O_B:
		a->b = arg;
		return 0;
	case O_JSON:
		a->json = true;
		return 0;
	}
	return -EINVAL;
}

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
			xl_usage_error(&a->spec, "--pcap %s: no frame of 14 bytes or more in it", a->pcap);
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
		len = build_spec(&a->spec, specs[i], f->data + used, XL_PKT_MAX_SIZE);
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

/* One program's runs: raw[round][frame] ns, and each frame's action and out bytes. */
struct side {
	const char *path;
	struct xl_userprog *u;
	int empty_fd;
	double *raw, *empty; /* rounds x frames */
	int *action;         /* per frame; -1: not runnable (error in err) */
	int *err;
	uint32_t *out_len;
};

/*
 * Frame @i of round @r, on @s: 0, or the run's -errno (kept per frame).
 * @half: this call is one of two in the round (A/B: A B B A), so each adds
 * half its duration.
 */
static int run_one(struct side *s, const struct xl_pcap_frames *f, size_t i, int r, uint64_t repeat,
		   uint8_t *out, bool half)
{
	struct xl_run_result res, e;
	size_t idx = (size_t)r * f->n + i;
	double w = half ? 0.5 : 1;
	int err;

	if (s->err[i])
		return s->err[i];
	err = xl_prog_run_frame(s->empty_fd, f->data + f->off[i], f->len[i], repeat, NULL, 0, &e);
	if (!err)
		err = xl_prog_run_frame(xl_userprog__fd(s->u), f->data + f->off[i], f->len[i],
					repeat, out, XL_PKT_MAX_SIZE + 256, &res);
	if (err) {
		s->err[i] = err;
		s->action[i] = -1;
		return err;
	}
	s->raw[idx] += w * res.duration_ns;
	s->empty[idx] += w * e.duration_ns;
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
	return s->raw && s->empty && s->action && s->err && s->out_len ? XL_EXIT_OK :
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
}

static bool sends(int action)
{
	return action == XDP_TX || action == XDP_REDIRECT;
}

int cmd_progrun(int argc, char **argv)
{
	struct progrun_args a = { .repeat = 10000 };
	struct side sides[2] = { { .empty_fd = -1 }, { .empty_fd = -1 } };
	static struct klass cls[MAX_CLASSES];
	struct xl_pcap_frames f = { 0 };
	char cname[XL_PKT_CLASS_LEN], acts[160];
	int idx, ns, nc = 0, r, s, ret, skipped = 0, disagree = 0;
	double overhead[2] = { 0, 0 };
	uint8_t *out = NULL;
	json_t *jo = NULL, *jframes = NULL, *jclasses = NULL;
	size_t i;

	a.uo.fills = a.maps;
	a.spec = (struct xl_cmd_spec){ "prog-run", "FILE.o",
				       "Run an XDP program over frames with BPF_PROG_RUN: ns per run, action, bytes out, per frame and per packet class.",
				       progrun_opts, sizeof(progrun_opts) / sizeof(progrun_opts[0]) };
	idx = xl_opts_parse(&a.spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (!!a.a != !!a.b) {
		xl_usage_error(&a.spec, "--a and --b go together (an A/B comparison)");
		return XL_EXIT_USAGE;
	}
	if (a.a && idx < argc) {
		xl_usage_error(&a.spec, "FILE.o '%s' with --a/--b: give either", argv[idx]);
		return XL_EXIT_USAGE;
	}
	if (!a.a && idx != argc - 1) {
		xl_usage_error(&a.spec, idx >= argc ? "missing FILE.o (see --help)" :
						      "one FILE.o expected, got '%s' too", argv[argc - 1]);
		return XL_EXIT_USAGE;
	}
	if (a.pcap && a.npackets) {
		xl_usage_error(&a.spec, "--pcap and --packets: give either");
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
	if (!out) {
		ret = XL_EXIT_RUNTIME;
		goto out;
	}
	/*
	 * Rounds over all frames. A/B: A B B A per frame and round, each side
	 * the mean of its two calls, so neither gains from going first.
	 */
	for (r = 0; r < (int)a.rounds && !xl_stop_requested; r++)
		for (i = 0; i < f.n; i++)
			for (s = 0; s < (ns == 2 ? 4 : 1); s++) {
				int side = ns == 1 ? 0 : (s == 0 || s == 3) ? 0 : 1;
				int err = run_one(&sides[side], &f, i, r, a.repeat, out, ns == 2);

				if (err && err != -EINVAL && err != -ENOSPC) {
					xl_err("BPF_PROG_RUN of %s on frame %zu: %s%s", sides[side].path, i + 1,
					       strerror(-err), err == -EPERM ? " (needs CAP_BPF)" : "");
					ret = XL_EXIT_RUNTIME;
					goto out;
				}
			}
	if (xl_stop_requested) {
		ret = XL_EXIT_RUNTIME;
		goto out;
	}
	for (s = 0; s < ns; s++) {
		double e[XL_AB_MAX_ROUNDS];
		size_t k = 0;

		/* The overhead reported: the median of every frame's empty-program figure. */
		for (i = 0; i < f.n && k < XL_AB_MAX_ROUNDS; i++)
			if (!sides[s].err[i])
				e[k++] = median_of(sides[s].empty + i, f.n, a.rounds);
		overhead[s] = xl_summarize(e, k).median;
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
		json_object_set_new(jo, "overhead_ns", json_real(overhead[0]));
		json_object_set_new(jo, "overhead_subtracted", json_true());
	} else {
		printf("prog-run: %s (sec %s) of %s", xl_userprog__name(sides[0].u),
		       xl_userprog__sec(sides[0].u), sides[0].path);
		if (ns == 2)
			printf(" (A) vs %s of %s (B)", xl_userprog__name(sides[1].u), sides[1].path);
		printf(", %zu frames from %s, %llu runs per call x %llu rounds\n", f.n,
		       a.pcap ? a.pcap : "--packets", (unsigned long long)a.repeat,
		       (unsigned long long)a.rounds);
		printf("loop overhead: %.1f ns per run (an empty XDP program over the same frames, median)%s; subtracted from every ns/run below\n",
		       overhead[0], ns == 2 ? " for A" : "");
		if (ns == 2)
			printf("loop overhead: %.1f ns per run for B\n", overhead[1]);
		if (ns == 1)
			printf("%5s  %-22s %6s  %-12s %8s %6s  %s\n", "frame", "class", "bytes", "action",
			       "ns/run", "raw", "out_bytes");
		else
			printf("%5s  %-22s %6s  %-12s %8s  %-12s %8s\n", "frame", "class", "bytes",
			       "A action", "A ns/run", "B action", "B ns/run");
	}
	for (i = 0; i < f.n; i++) {
		int c;
		double net[2] = { 0, 0 }, raw[2] = { 0, 0 }, emp[2] = { 0, 0 };
		json_t *jf = NULL;

		xl_pkt_class(f.data + f.off[i], f.len[i], cname, sizeof(cname));
		if (sides[0].err[i] || (ns == 2 && sides[1].err[i])) {
			int err = sides[0].err[i] ? sides[0].err[i] : sides[1].err[i];

			skipped++;
			if (!a.json)
				printf("%5zu  %-22s %6u  not run: %s\n", i + 1, cname, f.len[i],
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
			jf = json_pack("{s:I, s:s, s:I, s:s, s:f, s:f}", "frame", (json_int_t)(i + 1),
				       "class", cname, "bytes", (json_int_t)f.len[i], "action",
				       xl_xdp_action_name(sides[0].action[i]), "ns_per_run", net[0],
				       "raw_ns_per_run", raw[0]);
			json_object_set_new(jf, "empty_ns_per_run", json_real(emp[0]));
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
			printf("%5zu  %-22s %6u  %-12s %8.1f %6.0f  %s\n", i + 1, cname, f.len[i],
			       xl_xdp_action_name(sides[0].action[i]), net[0], raw[0], ob);
		} else {
			printf("%5zu  %-22s %6u  %-12s %8.1f  %-12s %8.1f\n", i + 1, cname, f.len[i],
			       xl_xdp_action_name(sides[0].action[i]), net[0],
			       xl_xdp_action_name(sides[1].action[i]), net[1]);
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
			json_object_set_new(jo, "b_overhead_ns", json_real(overhead[1]));
			json_object_set_new(jo, "action_disagreements", json_integer(disagree));
		}
		json_dumpf(jo, stdout, JSON_INDENT(1));
		printf("\n");
		json_decref(jo);
	} else {
		if (skipped)
			printf("not run: %d frames (see above)\n", skipped);
		if (ns == 2) {
			printf("B-A: the median over %llu rounds of the paired difference of the class's mean ns/run; 95%% CI distribution-free (sign test); a verdict when p < 0.05 and |B-A| > 1 ns (the kernel's resolution)\n",
			       (unsigned long long)a.rounds);
			if (disagree)
				printf("note: A and B returned different actions on %d frames\n", disagree);
		}
	}
	ret = XL_EXIT_OK;
out:
	free(out);
	for (s = 0; s < 2; s++)
		free_side(&sides[s]);
	xl_frames_free(&f);
	return ret;
}
