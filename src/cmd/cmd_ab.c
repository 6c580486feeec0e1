// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab ab IFACE --a A --b B: two XDP programs on one interface in one run,
 * interleaved in short slices (xdplab/abslice.h: the slices, the meter, the
 * comparison and its lines). A and B are BPF objects (FILE.o, the loading
 * rules of `run`) or built-in benchmarks: drop|pass|tx:OP[:extra-ns=N];
 * this file parses them, loads them, and writes --json's files.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "cmd.h"
#include "sig.h"
#include "report_cli.h"
#include "json_cli.h"
#include "run_opts.h"
#include "xdplab/abslice.h"
#include "xdplab/abtest.h"
#include "xdplab/bench.h"
#include "xdplab/log.h"
#include "xdplab/userprog.h"

struct ab_args {
	const struct xl_cmd_spec *spec;
	const char *spec_of[2];
	struct xl_userprog_opts uo;
	const char *maps[XL_USERPROG_MAX_FILLS];
	enum xl_xdp_mode mode;
	uint64_t slice_ns, reps;
	bool quiet;
	const char *netns, *json;
};

#define A struct ab_args
static const struct xl_opt ab_opts[] = {
	{ "a", 0, "PROG", "program A: FILE.o, or a built-in drop|pass|tx:OP[:extra-ns=N] (e.g. drop:no-touch)",
	  XL_STR(A, spec_of[0]) },
	{ "b", 0, "PROG", "program B, as --a", XL_STR(A, spec_of[1]) },
	XL_RUN(SEC, A, uo.sec, .help = "in each FILE.o, the XDP program in this ELF section"),
	XL_RUN(FUNC, A, uo.func, .help = "in each FILE.o, the XDP program with this function name"),
	XL_RUN(MAP, A, maps, .help = "fill map NAME of each FILE.o from FILE (repeatable)"),
	{ "slice", 's', "SECONDS", "each program's measured slice per repetition, {range} (default {default})",
	  XL_SECONDS(A, slice_ns, 0.05, 10) },
	{ "reps", 'r', "N", "repetitions, each an A and a B slice, {range} (default {default})",
	  XL_UINT(A, reps, 6, XL_AB_MAX_ROUNDS) },
	XL_RUN(MODE, A, mode),
	XL_RUN(NETNS, A, netns),
	XL_RUN(QUIET, A, quiet),
	XL_RUN(JSON, A, json, .help = "also write the comparison as JSON to FILE, and each side as a run-results file (FILE.json: FILE.a.json, FILE.b.json) for xdplab compare"),
};
#undef A

/* --map: a list (xl_cmd_userprog_opt()). */
static int on_opt(const struct xl_cmd_spec *spec, int id, const char *arg, void *ctx)
{
	struct ab_args *a = ctx;

	return xl_cmd_userprog_opt(spec, id, arg, &a->uo, a->maps) ? -EINVAL : 0;
}

static const struct xl_cmd_spec ab_spec;
static const struct ab_args ab_defaults = { .spec = &ab_spec, .slice_ns = 200000000ull,
					    .reps = 10 };
static const struct xl_cmd_spec ab_spec = {
	"ab", "IFACE",
	"Compare two XDP programs on IFACE, interleaved in short slices: rate, CPU ns/packet, paired median difference, 95% CI, verdict.",
	ab_opts, sizeof(ab_opts) / sizeof(ab_opts[0]), &ab_defaults, sizeof(ab_defaults), on_opt,
};

/* One side: a user object or a built-in benchmark, loaded. */
struct ab_side {
	const char *spec;
	char name[96];
	struct xl_userprog *u;
	struct xl_bench *b;
	int prog_fd;
};

/*
 * A built-in "ACTION:OP[:extra-ns=N]": 1 and @o filled, 0 when @s is not
 * one (a file), -EINVAL (usage error printed).
 */
static int parse_builtin(const struct xl_cmd_spec *spec, const char *s, struct xl_bench_opts *o,
			 uint64_t *extra_ns)
{
	static const char *const acts[] = { "drop", "pass", "tx" };
	static const int act_val[] = { XDP_DROP, XDP_PASS, XDP_TX };
	char copy[128], *op, *extra;
	size_t i;
	int c;

	if (strchr(s, '/') || strstr(s, ".o") || strlen(s) >= sizeof(copy))
		return 0;
	strcpy(copy, s);
	op = strchr(copy, ':');
	if (op)
		*op++ = '\0';
	for (i = 0; i < 3; i++)
		if (!strcmp(copy, acts[i]))
			break;
	if (i == 3)
		return 0;
	o->action = act_val[i];
	o->op = XL_OP_NO_TOUCH;
	extra = op ? strchr(op, ':') : NULL;
	if (extra)
		*extra++ = '\0';
	if (op) {
		c = xl_pkt_op_parse(op);
		if (c < 0)
			return xl_usage_error(spec, "'%s': packet operation '%s' is not accepted (accepted: no-touch, read-data, parse-ip, swap-macs)",
					      s, op);
		o->op = c;
	}
	if (extra) {
		if (strncmp(extra, "extra-ns=", 9))
			return xl_usage_error(spec, "'%s': '%s' is not accepted (accepted: extra-ns=N)", s, extra);
		if (xl_parse_u64(spec, "extra-ns", extra + 9, 0, XL_EXTRA_NS_MAX, extra_ns))
			return -EINVAL;
		o->extra = true;
	}
	return 1;
}

/* Load @s (detached). Return: XL_EXIT_OK or the exit status (message printed). */
static int side_load(struct ab_args *a, struct ab_side *s, const char *ifname)
{
	struct xl_bench_opts o = { .ifname = ifname, .mode = a->mode };
	uint64_t extra_ns = 0;
	int r = parse_builtin(a->spec, s->spec, &o, &extra_ns);

	if (r < 0)
		return XL_EXIT_USAGE;
	if (r) {
		struct xl_extra_cal cal = { 0 };

		/* Calibrated before the attach: struct xl_bench_opts.extra_cal. */
		o.extra_cal = o.extra ? &cal : NULL;
		o.extra_ns = extra_ns;
		s->b = xl_bench__create(&o);
		if (!s->b) /* a failed calibration said so itself */
			return errno == ENODEV && !cal.err ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		xl_bench__detach(s->b);
		if (o.extra)
			xl_extra_cal_print(stderr, &cal);
		s->prog_fd = xl_bench__prog_fd(s->b);
		snprintf(s->name, sizeof(s->name), "%s", s->spec);
		return XL_EXIT_OK;
	}
	a->uo.path = s->spec;
	s->u = xl_userprog__load(&a->uo);
	if (!s->u)
		return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	s->prog_fd = xl_userprog__fd(s->u);
	snprintf(s->name, sizeof(s->name), "%s (%s)", xl_userprog__name(s->u), s->spec);
	return XL_EXIT_OK;
}

/* A side's run-results file: FILE.json -> FILE.a.json; another name gets .a.json appended. */
static void side_path(char *path, size_t len, const char *json, const char *suffix)
{
	size_t n_base = strlen(json);

	if (n_base > 5 && !strcmp(json + n_base - 5, ".json"))
		n_base -= 5;
	snprintf(path, len, "%.*s.%s.json", (int)n_base, json, suffix);
}

/* --json's three files opened before the measurement (a bad path fails first). */
static int open_outputs(const char *json)
{
	char path[PATH_MAX];

	if (!xl_cmd_out_open(json))
		return -1;
	side_path(path, sizeof(path), json, "a");
	if (!xl_cmd_out_open(path))
		return -1;
	side_path(path, sizeof(path), json, "b");
	return xl_cmd_out_open(path) ? 0 : -1;
}

/* Each side's figures as a run-results file (one row, the same identity). */
static int write_side(const char *json, const char *suffix, struct xl_row_result *row, int n,
		      double slice_s)
{
	char path[PATH_MAX];
	/* No interval records; the interval is the slice (the schema wants one > 0). */
	struct xl_report_meta meta = { .reps = n < XL_MAX_REPS ? n : XL_MAX_REPS, .git = xl_cmd_git_commit(), .command = "ab",
				       .seconds = slice_s, .interval = slice_s };

	side_path(path, sizeof(path), json, suffix);
	xl_row_finish(row);
	return xl_cmd_report_json(path, &meta, row, 1) ? XL_EXIT_RUNTIME : XL_EXIT_OK;
}

int cmd_ab(int argc, char **argv)
{
	static struct xl_row_result rows[2];
	struct ab_args a;
	struct ab_side sides[2] = { { 0 } };
	struct xl_abslice *ab = NULL;
	const char *ifname;
	int idx, ifindex, ret = XL_EXIT_RUNTIME, r, k, done;

	idx = xl_cmd_parse_iface(&ab_spec, argc, argv, NULL, &a, &ifname);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	a.uo.fills = a.maps;
	if (!a.spec_of[0] || !a.spec_of[1]) {
		xl_usage_error(a.spec, "--a PROG and --b PROG are both required");
		return XL_EXIT_USAGE;
	}
	if (a.netns && (ret = xl_cmd_enter_netns(a.spec, a.netns)))
		return ret;
	ret = XL_EXIT_RUNTIME;
	ifindex = if_nametoindex(ifname);
	if (!ifindex) {
		xl_usage_error(a.spec, "interface '%s': no such interface", ifname);
		return XL_EXIT_USAGE;
	}
	if (a.json && open_outputs(a.json))
		return XL_EXIT_RUNTIME;
	ab = xl_abslice__open(&(struct xl_abslice_opts){
			.ifname = ifname, .ifindex = ifindex, .mode = a.mode, .slice_ns = a.slice_ns,
			.reps = (int)a.reps, .lines = a.quiet ? NULL : stdout,
			.stop = &xl_stop_requested });
	if (!ab) {
		ret = errno == EOPNOTSUPP ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		goto out;
	}
	for (k = 0; k < 2; k++) {
		sides[k].spec = a.spec_of[k];
		r = side_load(&a, &sides[k], ifname);
		if (r) {
			ret = r;
			goto out;
		}
		/* The same identity on both rows, so xdplab compare pairs them (wiring, size below). */
		xl_row_init_single(&rows[k], "ab", NULL, "xdp", "ab", NULL, xl_xdp_mode_name(a.mode),
				NULL);
		if (xl_abslice__arm(ab, k, sides[k].spec, sides[k].name, sides[k].prog_fd, &rows[k]))
			goto out;
	}
	fprintf(stderr, "xdplab: ab on %s (%s mode): A = %s, B = %s; %llu repetitions of an A and a B slice of %.2f s (A first in even repetitions, B in odd), counted by the device's ethtool counters\n",
		XL_ESC(ifname), xl_xdp_mode_name(a.mode), XL_ESC(sides[0].name), XL_ESC(sides[1].name),
		(unsigned long long)a.reps, a.slice_ns / 1e9);
	if (xl_abslice__run(ab))
		goto out;
	done = xl_abslice__done(ab);
	xl_abslice__print(ab, stdout);
	ret = XL_EXIT_OK;
	if (a.json) {
		struct xl_afile *out = xl_cmd_out_open(a.json);

		if (!out || (xl_abslice__json(ab, out->f), xl_cmd_out_commit(out)))
			ret = XL_EXIT_RUNTIME;
		if (write_side(a.json, "a", &rows[0], done, a.slice_ns / 1e9) ||
		    write_side(a.json, "b", &rows[1], done, a.slice_ns / 1e9))
			ret = XL_EXIT_RUNTIME;
		else
			fprintf(stderr, "xdplab: results written to %s and, per side, to its .a.json and .b.json (xdplab compare reads them)\n",
				XL_ESC(a.json));
	}
out:
	xl_abslice__close(ab);
	for (k = 0; k < 2; k++) {
		xl_bench__destroy(sides[k].b);
		xl_userprog__destroy(sides[k].u);
	}
	return ret;
}
