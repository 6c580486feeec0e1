// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab xsk selftest IFACE --peer PEER: the AF_XDP conformance suite
 * (src/lib/xsk/xsk_selftest*.c, the cases of the kernel's xskxceiver) on
 * a link: PEER sends, IFACE receives, each possibly in its own namespace.
 * Output: TAP version 13 as the kernel selftests print it (ok / not ok,
 * "# SKIP reason", a "# Totals" line), and --json. Exit 0 when every case
 * passed or was skipped, 1 when one failed (or the link takes no AF_XDP
 * frame at all, or SIGINT/SIGTERM stopped the run: "Bail out!"), 2 for a
 * usage error.
 * XDPLAB_XSKST_FAULT=no-refill|flip-byte plants a fault, for the suite's
 * own tests (tests/e2e/xsk.sh): the right cases must then fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "sig.h"
#include "json_cli.h"
#include "run_opts.h"
#include "xdplab/atomicfile.h"
#include "xdplab/escape.h"
#include "xdplab/xsk_selftest.h"

enum { O_MODE, O_CASE };

struct st_args {
	struct xl_cmd_spec spec;
	struct xl_xskst_config c;
	const char *netns, *peer_netns, *json;
	char ns_path[2][300];
	uint32_t modes;  /* bit per enum xl_xskst_mode */
	uint64_t cases;  /* bit per case */
	bool list, busy;
};

/* No default struct: @spec is in the args, the defaults set before the parse. */
#define A struct st_args
static const struct xl_opt selftest_opts[] = {
	{ "peer", 0, "IFACE", "the sending end: the other end of IFACE's link (required)", XL_STR(A, c.peer) },
	{ "netns", 0, "NAME", "IFACE is in network namespace /run/netns/NAME (default: this one)", XL_STR(A, netns) },
	{ "peer-netns", 0, "NAME", "PEER is in network namespace /run/netns/NAME (default: this one)", XL_STR(A, peer_netns) },
	{ "mode", 'm', "LIST", "modes to run, comma-separated: skb, drv, zc, skb_busy_poll, drv_busy_poll, zc_busy_poll (default: all six)", O_MODE },
	{ "busy-poll", 'b', NULL, "only the busy-polling modes (skb_busy_poll for skb...), as xskxceiver's -b", XL_FLAG(A, busy) },
	{ "case", 't', "LIST", "cases to run, comma-separated names or numbers (default: all; --list numbers and names them)", O_CASE, .alias = "test" },
	{ "list", 'l', NULL, "print the cases (number, name, what each checks), then exit", XL_FLAG(A, list) },
	{ "queue", 'q', "Q", "the queue of both sockets, {range} (default 0)", XL_UINT(A, c.queue, 0, 15) },
	XL_RUN(JSON, A, json, .help = "also write every case's verdict, frames and bytes as JSON (docs/afxdp.md)"),
};
#undef A

/* A comma-separated list of @names (@n of them) into bits of *@out. */
static int parse_list(struct st_args *a, const char *opt, const char *arg, const char *(*name)(int),
		      int n, uint64_t *out)
{
	char buf[512], *save = NULL, *tok;
	char accepted[1024];
	size_t o = 0;
	int i;

	snprintf(buf, sizeof(buf), "%s", arg);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n && strcmp(tok, name(i)); i++)
			;
		/* a number: the case's place in --list, as xskxceiver's -t takes it */
		if (i == n && name == xl_xskst_case_name && tok[0] && strspn(tok, "0123456789") == strlen(tok) &&
		    strlen(tok) < 4 && atoi(tok) < n)
			i = atoi(tok);
		if (i == n) {
			for (i = 0; i < n && o < sizeof(accepted); i++)
				o += snprintf(accepted + o, sizeof(accepted) - o, "%s%s", i ? ", " : "", name(i));
			return xl_usage_error(&a->spec, "%s: '%s' is not accepted (accepted: %s)", opt,
					      XL_ESC(tok), accepted);
		}
		*out |= 1ull << i;
	}
	if (!*out)
		return xl_usage_error(&a->spec, "%s: an empty list", opt);
	return 0;
}

static const char *mode_name(int i)
{
	return xl_xskst_mode_name(i);
}

/* --mode and --case: lists of names. */
static int on_opt(int id, const char *arg, void *ctx)
{
	struct st_args *a = ctx;
	uint64_t v;
	int r;

	if (id == O_CASE)
		return parse_list(a, "--case", arg, xl_xskst_case_name, xl_xskst_ncases(), &a->cases);
	r = parse_list(a, "--mode", arg, mode_name, XL_XSKST_NMODES, &v);
	a->modes = v;
	return r;
}

/* NAME of --netns as the path ip netns makes; a name with a slash is refused. */
static int ns_path(struct st_args *a, const char *opt, const char *name, char *buf, size_t len,
		   const char **out)
{
	if (!name) {
		*out = NULL;
		return 0;
	}
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return xl_usage_error(&a->spec, "%s: '%s' is not a namespace name (one of ip netns list)",
				      opt, XL_ESC(name));
	snprintf(buf, len, "/run/netns/%s", name);
	*out = buf;
	return 0;
}

static const char *status_word(enum xl_xskst_status s)
{
	return s == XL_XSKST_PASS ? "pass" : s == XL_XSKST_FAIL ? "fail" :
	       s == XL_XSKST_XFAIL ? "xfail" : "skip";
}

static int list_cases(void)
{
	int i;

	for (i = 0; i < xl_xskst_ncases(); i++)
		printf("%2d  %-30s %s\n", i, xl_xskst_case_name(i), xl_xskst_case_what(i));
	return XL_EXIT_OK;
}

int cmd_xsk_selftest(int argc, char **argv)
{
	struct st_args a = { 0 };
	int counts[4] = { 0 }, n = 0, total, idx, m, i;
	struct xl_afile *out = NULL;
	json_t *root = NULL, *rows = NULL;
	const char *fault = getenv("XDPLAB_XSKST_FAULT");
	char msg[512];

	a.spec = (struct xl_cmd_spec){ "xsk selftest", "IFACE",
		"The AF_XDP selftest (the kernel's xskxceiver cases): PEER sends, IFACE receives; TAP output.",
		selftest_opts, sizeof(selftest_opts) / sizeof(selftest_opts[0]) };
	a.cases = (1ull << xl_xskst_ncases()) - 1;
	/* --list needs no IFACE. */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "-l"))
			return argc == 2 ? list_cases() :
					   (xl_usage_error(&a.spec, "--list takes nothing else"), XL_EXIT_USAGE);
	idx = xl_cmd_parse_iface(&a.spec, argc, argv, on_opt, &a, &a.c.ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	/* -b: the busy-polling variants of the modes given (of all three without --mode). */
	if (!a.modes)
		a.modes = a.busy ? 7u << XL_XSKST_SKB_BUSY : (1u << XL_XSKST_NMODES) - 1;
	else if (a.busy)
		a.modes = ((a.modes | a.modes >> XL_XSKST_SKB_BUSY) & 7u) << XL_XSKST_SKB_BUSY;
	if (!a.c.peer) {
		xl_usage_error(&a.spec, "needs --peer IFACE: the other end of %s's link, where the frames are sent from",
			       XL_ESC(a.c.ifname));
		return XL_EXIT_USAGE;
	}
	if (fault && !strcmp(fault, "no-refill"))
		a.c.fault = XL_XSKST_FAULT_NO_REFILL;
	else if (fault && !strcmp(fault, "flip-byte"))
		a.c.fault = XL_XSKST_FAULT_FLIP_BYTE;
	else if (fault && fault[0]) {
		xl_usage_error(&a.spec, "XDPLAB_XSKST_FAULT: '%s' is not accepted (accepted: no-refill, flip-byte)",
			       XL_ESC(fault));
		return XL_EXIT_USAGE;
	}
	if (ns_path(&a, "--netns", a.netns, a.ns_path[0], sizeof(a.ns_path[0]), &a.c.netns_path) ||
	    ns_path(&a, "--peer-netns", a.peer_netns, a.ns_path[1], sizeof(a.ns_path[1]),
		    &a.c.peer_netns_path))
		return XL_EXIT_USAGE;
	if (!strcmp(a.c.ifname, a.c.peer) && (a.netns ? a.peer_netns && !strcmp(a.netns, a.peer_netns) :
							 !a.peer_netns)) {
		xl_usage_error(&a.spec, "--peer %s is IFACE itself: give the other end of its link",
			       XL_ESC(a.c.peer));
		return XL_EXIT_USAGE;
	}
	a.c.stop = &xl_stop_requested;
	if (a.json && !(out = xl_cmd_out_open(a.json)))
		return XL_EXIT_RUNTIME;
	switch (xl_xskst_check(&a.c, msg, sizeof(msg))) {
	case 0:
		break;
	case -ENODEV:
	case -ENOENT:
		xl_usage_error(&a.spec, "%s", XL_ESC(msg));
		return XL_EXIT_USAGE;
	default:
		fprintf(stderr, "xdplab xsk selftest: %s\n", XL_ESC(msg));
		return XL_EXIT_RUNTIME;
	}
	total = __builtin_popcount(a.modes) * __builtin_popcountll(a.cases);
	if (out) {
		root = json_object();
		rows = json_array();
		json_object_set_new(root, "schema", json_string("xdplab-xsk-selftest/1"));
		json_object_set_new(root, "iface", json_string(a.c.ifname));
		json_object_set_new(root, "peer", json_string(a.c.peer));
		json_object_set_new(root, "cases", rows);
	}
	printf("TAP version 13\n1..%d\n", total);
	fflush(stdout);
	for (m = 0; m < XL_XSKST_NMODES && !xl_stop_requested; m++) {
		if (!(a.modes & (1u << m)))
			continue;
		for (i = 0; i < xl_xskst_ncases() && !xl_stop_requested; i++) {
			struct xl_xskst_result r;

			if (!(a.cases & (1ull << i)))
				continue;
			xl_xskst_run(&a.c, m, i, &r);
			n++;
			counts[r.status]++;
			if (r.status == XL_XSKST_SKIP)
				printf("ok %d - %s %s # SKIP %s\n", n, xl_xskst_mode_name(m),
				       xl_xskst_case_name(i), XL_ESC(r.reason));
			else if (r.status == XL_XSKST_PASS)
				printf("ok %d - %s %s\n", n, xl_xskst_mode_name(m), xl_xskst_case_name(i));
			else if (r.status == XL_XSKST_XFAIL)
				printf("not ok %d - %s %s # TODO %s\n", n, xl_xskst_mode_name(m),
				       xl_xskst_case_name(i), XL_ESC(r.reason));
			else
				printf("not ok %d - %s %s\n# %s\n", n, xl_xskst_mode_name(m),
				       xl_xskst_case_name(i), XL_ESC(r.reason));
			fflush(stdout);
			if (rows)
				json_array_append_new(rows, json_pack("{s:i s:s s:s s:s s:s s:I s:I s:I s:f}",
					"n", n, "mode", xl_xskst_mode_name(m), "case", xl_xskst_case_name(i),
					"status", status_word(r.status), "reason", r.reason,
					"sent", (json_int_t)r.sent, "received", (json_int_t)r.received,
					"bytes", (json_int_t)r.bytes, "seconds", r.elapsed_ns / 1e9));
		}
	}
	/* A stop: what ran is reported, and TAP's bail-out says the rest did not. */
	if (xl_stop_requested)
		printf("Bail out! interrupted after %d of %d cases\n", n, total);
	printf("# Totals: pass:%d fail:%d xfail:%d xpass:0 skip:%d error:0\n", counts[XL_XSKST_PASS],
	       counts[XL_XSKST_FAIL], counts[XL_XSKST_XFAIL], counts[XL_XSKST_SKIP]);
	if (out) {
		json_object_set_new(root, "totals", json_pack("{s:i s:i s:i s:i}", "pass",
			counts[XL_XSKST_PASS], "fail", counts[XL_XSKST_FAIL], "xfail", counts[XL_XSKST_XFAIL],
			"skip", counts[XL_XSKST_SKIP]));
		if (json_dumpf(root, out->f, JSON_INDENT(1)) || fputc('\n', out->f) == EOF ||
		    xl_cmd_out_commit(out)) {
			json_decref(root);
			return XL_EXIT_RUNTIME;
		}
		json_decref(root);
	}
	return counts[XL_XSKST_FAIL] || xl_stop_requested ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}
