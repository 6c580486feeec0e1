// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab prog-run: what one packet costs a user's XDP program, with
 * BPF_PROG_RUN over each frame of a capture or of generated frames, and
 * --a/--b: two programs interleaved in rounds, compared per class. The
 * measurement and its results are xdplab/progbench.h's; this file parses
 * the options, makes the frames and picks the exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "xdplab/abtest.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"
#include "xdplab/progbench.h"
#include "xdplab/userprog.h"

enum { O_PACKETS };

#define MAX_SPECS 64

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

int cmd_progrun(int argc, char **argv)
{
	struct progrun_args a;
	struct xl_pcap_frames f = { 0 };
	struct xl_progbench *pb = NULL;
	bool bad_object;
	int idx, ret, err;

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
	ret = get_frames(&a, &f);
	if (ret)
		goto out;
	pb = xl_progbench__create(&(struct xl_progbench_opts){
			.path = a.a ? a.a : argv[idx], .b_path = a.b, .uo = &a.uo, .frames = &f,
			.source = a.pcap ? a.pcap : "--packets", .repeat = a.repeat,
			.rounds = a.rounds, .stop = &xl_stop_requested }, &bad_object);
	if (!pb) {
		ret = bad_object ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		goto out;
	}
	err = xl_progbench__run(pb);
	if (err && (err != -EINTR || !xl_progbench__rounds_done(pb))) {
		ret = XL_EXIT_RUNTIME;
		goto out;
	}
	if (a.json)
		xl_progbench__json(pb, stdout);
	else
		xl_progbench__print(pb, stdout);
	/* Interrupted: the complete rounds were reported, and the exit says so. */
	ret = err ? XL_EXIT_RUNTIME : XL_EXIT_OK;
out:
	xl_progbench__destroy(pb);
	xl_frames_free(&f);
	return ret;
}
