// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab ndr: zero-loss throughput (RFC 2544 style) of lab rows on a veth
 * lab of its own (docs/ndr.md): the search is xdplab/ndr.h's, the trials
 * xl_ndr_rows_search()'s, the table xl_ndr_rows_print()'s; this file
 * parses, writes --json and picks the exit status. The loss-share options
 * are shared with `lab run --ndr` (ndr_cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "json_cli.h"
#include "ndr_cli.h"
#include "xdplab/bench.h"
#include "xdplab/escape.h"
#include "xdplab/lab.h"
#include "xdplab/labrows.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/report.h"

#define NDR_MAX_ROWS 16

struct ndr_args {
	struct xl_labrun_opts o;
	struct xl_ndr_row_opts no;
	bool rows[XL_LABROWS_MAX];
	bool rows_set, no_latency;
	const char *json;
	uint64_t extra_ns;
	uint32_t size;
	int wiring;
	struct xl_cmd_ndr_pcts pct;
};

enum { O_ROWS };

static const char *const wirings[] = { "softirq", "threaded", NULL };

static const struct xl_opt ndr_opts[] = {
	{ "rows", 0, "LIST", "rows to search, comma-separated: the drop rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs) and xsk-rxdrop/skb, /drv or /zc (default drop/no-touch)", O_ROWS },
	{ "size", 'z', "BYTES", "frame size, {range} (default {default}; latency needs 62 or more)", XL_UINT(struct ndr_args, size, XL_PKT_MIN_SIZE, 1514), .alias = "pkt-size" },
	{ "trial", 't', "SECONDS", "each trial's length, {range} s (default 1; RFC 2544 asks 60)", XL_SECONDS(struct ndr_args, no.trial_ns, 0.2, 60) },
	XL_NDR_OPT(LOSS, struct ndr_args, pct),
	XL_NDR_OPT(PDR, struct ndr_args, pct),
	XL_NDR_OPT(RES, struct ndr_args, pct),
	{ "min", 0, "PPS", "the lower bound, frames/s, {range} (default 0)", XL_UINT(struct ndr_args, no.search.min_pps, 0, 1000000000) },
	{ "max", 0, "PPS", "the upper bound and first trial, frames/s, {range} (default 0: the generator's fastest, unpaced)", XL_UINT(struct ndr_args, no.search.max_pps, 0, 1000000000) },
	{ "verify", 0, "SECONDS", "after the search, a fixed-rate run of this length at the NDR and one 5% above it, {range} s (default 0: none)", XL_SECONDS(struct ndr_args, no.verify_ns, 0, 60) },
	{ "extra-ns", 0, "NS", "the drop rows run with a busy loop of NS ns of CPU per packet, {range}, calibrated with BPF_PROG_RUN before the search (as lab run --extra-ns: a slower DUT, docs/compare.md)", XL_UINT(struct ndr_args, extra_ns, 0, XL_EXTRA_NS_MAX), XL_SEEN(struct ndr_args, o.extra) },
	{ "no-latency", 0, NULL, "skip the stamped latency at 10, 50, 90 and 100% of the NDR", XL_FLAG(struct ndr_args, no_latency) },
	{ "wiring", 0, "WIRING", "NAPI placement of the drop rows: {choices} (default threaded with 2+ CPUs; xsk rows run softirq)", XL_ENUM(struct ndr_args, wiring, wirings, NULL) },
	{ "gen-cpu", 0, "CPU", "CPU of the generator thread (default 0)", XL_UINT(struct ndr_args, o.gen_cpu, 0, XL_OPT_MAX_CPU) },
	{ "napi-cpu", 0, "CPU", "CPU of the DUT's threaded NAPI (default: the last CPU)", XL_UINT(struct ndr_args, o.napi_cpu, 0, XL_OPT_MAX_CPU) },
	{ "json", 'j', "FILE", "also write every row's trials, NDR, PDR, bounds, resolution, fixed-rate runs and latency points as JSON (schema xdplab.ndr-results/1, docs/results.md)", XL_STR(struct ndr_args, json) },
};

static const struct ndr_args ndr_defaults = {
	.o = { .reps = 1, .gen_cpu = 0, .napi_cpu = -1 },
	.no = { .trial_ns = 1000000000ull },
	.size = 64, .wiring = -1, .pct = XL_CMD_NDR_PCTS_DEFAULT,
};

static const struct xl_cmd_spec ndr_spec = {
	"ndr", "",
	"Zero-loss throughput (RFC 2544 style) on a veth lab of its own: the highest offered rate at which a row loses at most --loss (NDR) and --pdr (PDR), by binary search over trials of --trial s; then the stamped latency at 10, 50, 90 and 100% of the NDR. Exit 0, 1: a row could not be searched (the generator too slow for --min, a DUT that cannot run, a failure), 2: usage.",
	ndr_opts, sizeof(ndr_opts) / sizeof(ndr_opts[0]),
	&ndr_defaults, sizeof(ndr_defaults),
};

int xl_cmd_parse_pct(const struct xl_cmd_spec *spec, const char *opt, const char *arg,
		     double min, double max, double *out)
{
	char buf[64];
	size_t n = strlen(arg);

	if (n && n < sizeof(buf) && arg[n - 1] == '%') {
		memcpy(buf, arg, n - 1);
		buf[n - 1] = '\0';
		return xl_parse_real_as(spec, opt, buf, arg, min, max, out);
	}
	return xl_parse_real(spec, opt, arg, min, max, out);
}

const struct xl_opt xl_ndr_opt_table[XL_NDR_OPT_N] = {
	[XL_NDR_OPT_LOSS] = { "loss", 0, "PCT", "the loss the NDR allows, a percentage, {range} (default {default}: no frame lost; e.g. 0.001%)",
			      XL_OPT_NDR_LOSS, .alias = "max-loss", .rmin = 0, .rmax = XL_NDR_LOSS_MAX * 100 },
	[XL_NDR_OPT_PDR] = { "pdr", 0, "PCT", "the loss the PDR allows, a percentage, --loss..{max} (default {default}%, as TRex's)",
			     XL_OPT_NDR_PDR, .rmin = 0, .rmax = XL_NDR_LOSS_MAX * 100 },
	/* Its lower bound excluded: 0 is refused by xl_cmd_ndr_opt(). */
	[XL_NDR_OPT_RES] = { "resolution", 0, "PCT", "the search ends when each interval is this share of the upper bound wide, a percentage, above {range} (default {default}%)",
			     XL_OPT_NDR_RES, .rmin = 0, .rmax = 50 },
};

/* The percentage @arg of entry @k of xl_ndr_opt_table[] into *@out, in the entry's range. */
static int ndr_pct(const struct xl_cmd_spec *spec, enum xl_ndr_opt k, const char *arg, double *out)
{
	const struct xl_opt *o = &xl_ndr_opt_table[k];
	char opt[32];

	snprintf(opt, sizeof(opt), "--%s", o->name);
	return xl_cmd_parse_pct(spec, opt, arg, o->rmin, o->rmax, out);
}

int xl_cmd_ndr_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
		   struct xl_cmd_ndr_pcts *p)
{
	switch (id) {
	case XL_OPT_NDR_LOSS:
		p->set = true;
		return ndr_pct(spec, XL_NDR_OPT_LOSS, arg, &p->loss);
	case XL_OPT_NDR_PDR:
		p->set = true;
		return ndr_pct(spec, XL_NDR_OPT_PDR, arg, &p->pdr);
	case XL_OPT_NDR_RES:
		p->set = true;
		if (ndr_pct(spec, XL_NDR_OPT_RES, arg, &p->res))
			return -EINVAL;
		if (p->res <= xl_ndr_opt_table[XL_NDR_OPT_RES].rmin)
			return xl_usage_error(spec, "--%s: '%s' is out of range (accepted: above %.10g..%.10g)",
					      xl_ndr_opt_table[XL_NDR_OPT_RES].name, XL_ESC(arg),
					      xl_ndr_opt_table[XL_NDR_OPT_RES].rmin,
					      xl_ndr_opt_table[XL_NDR_OPT_RES].rmax);
		return 0;
	}
	return 1;
}

static int on_opt(int id, const char *arg, void *ctx)
{
	struct ndr_args *a = ctx;
	char buf[256], *tok, *save;
	const char *const *names = xl_labrow_names();
	int i;

	if (id != O_ROWS)
		return xl_cmd_ndr_opt(&ndr_spec, id, arg, &a->pct) ? -EINVAL : 0;
	switch (id) {
	case O_ROWS:
		snprintf(buf, sizeof(buf), "%s", arg);
		memset(a->rows, 0, sizeof(a->rows));
		a->rows_set = true;
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; names[i] && strcmp(names[i], tok); i++)
				;
			if (!names[i] || !xl_labrun_ndr_applies(xl_labrow(i)))
				return xl_usage_error(&ndr_spec, "--rows: '%s' is not accepted (accepted: drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs, xsk-rxdrop/skb, xsk-rxdrop/drv, xsk-rxdrop/zc)",
						      XL_ESC(tok));
			a->rows[i] = true;
		}
		return 0;
	}
	return -EINVAL;
}

int xl_cmd_ndr_search_opts(const struct xl_cmd_spec *spec, const struct xl_cmd_ndr_pcts *p,
			   struct xl_ndr_row_opts *no)
{
	char msg[160];

	if (p->pdr < p->loss) {
		xl_usage_error(spec, "--pdr %g%% is below --loss %g%% (accepted: --loss..%.10g)", p->pdr,
			       p->loss, xl_ndr_opt_table[XL_NDR_OPT_PDR].rmax);
		return -EINVAL;
	}
	no->search.ndr_loss = p->loss / 100;
	no->search.pdr_loss = p->pdr / 100;
	no->search.resolution = p->res / 100;
	if (xl_ndr_opts_check(&no->search, msg, sizeof(msg))) {
		xl_usage_error(spec, "%s", msg);
		return -EINVAL;
	}
	return 0;
}

/*
 * --json FILE: the lab's document (schema XL_NDR_RESULTS_SCHEMA, no
 * benchmark row) with the searches. Return: 0 or -errno (logged).
 */
static int write_json(const struct ndr_args *a, const struct xl_lab *lab,
		      const struct xl_ndr_row *rows, int n)
{
	char *text = xl_ndr_rows_json(rows, n, &a->no, a->o.extra ? a->o.extra_ns : -1, "ndr");
	int err;

	if (!text) {
		xl_err("cannot write %s: %s", XL_ESC(a->json), strerror(ENOMEM));
		return -ENOMEM;
	}
	err = xl_cmd_report_json(a->json, &(struct xl_report_meta){
			.reps = 1, .seconds = a->no.trial_ns / 1e9, .git = xl_cmd_git_commit(),
			.lab_tag = lab->tag, .wiring = xl_wiring_name(lab->wiring),
			.schema = XL_NDR_RESULTS_SCHEMA, .extra_json = text },
			NULL, 0);
	free(text);
	if (!err)
		fprintf(stderr, "xdplab: results written to %s\n", XL_ESC(a->json));
	return err;
}

int cmd_ndr(int argc, char **argv)
{
	static struct xl_ndr_row rows[NDR_MAX_ROWS];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct ndr_args a;
	const struct xl_labrow *r;
	struct xl_lab lab;
	bool failed = false;
	int idx, i, n = 0, err, ret = XL_EXIT_OK;

	idx = xl_cmd_parse_none(&ndr_spec, argc, argv, on_opt, &a);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	a.o.stop = &xl_stop_requested;
	if (a.o.napi_cpu < 0)
		a.o.napi_cpu = (int)ncpu - 1;
	if (a.wiring < 0)
		a.wiring = ncpu > 1 ? XL_WIRING_THREADED : XL_WIRING_SOFTIRQ;
	if (!a.rows_set)
		for (i = 0; (r = xl_labrow(i)); i++)
			a.rows[i] = !strcmp(r->name, "drop/no-touch");
	if (xl_cmd_ndr_search_opts(&ndr_spec, &a.pct, &a.no))
		return XL_EXIT_USAGE;
	if (a.wiring == XL_WIRING_THREADED && a.o.napi_cpu == a.o.gen_cpu) {
		xl_usage_error(&ndr_spec, "--napi-cpu %d equals --gen-cpu: threaded wiring needs two CPUs (or --wiring softirq)",
			       a.o.napi_cpu);
		return XL_EXIT_USAGE;
	}
	a.no.latency = !a.no_latency;
	a.o.extra_ns = (double)a.extra_ns;
	if (a.o.extra) {
		for (i = 0; (r = xl_labrow(i)) && !(a.rows[i] && (r->flags & XL_LABROW_DROP)); i++)
			;
		if (!r) {
			xl_usage_error(&ndr_spec, "--extra-ns applies to the drop rows: add one to --rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs)");
			return XL_EXIT_USAGE;
		}
	}
	if (a.json && !xl_cmd_out_open(a.json)) /* a bad path fails before the search */
		return XL_EXIT_RUNTIME;
	if (xl_lab__create(&lab, &(struct xl_lab_opts){ .queues = 1 }))
		return XL_EXIT_RUNTIME;
	if (xl_lab__wire(&lab, a.wiring, a.o.napi_cpu)) {
		xl_warn("threaded NAPI unavailable; searching with softirq wiring");
		xl_lab__wire(&lab, XL_WIRING_SOFTIRQ, -1);
	}
	fprintf(stderr, "xdplab ndr: lab %s, %ld CPUs; wiring %s; generator: 1 thread on CPU%d (live frames, AF_PACKET when refused)\n",
		lab.tag, ncpu, xl_wiring_name(lab.wiring), a.o.gen_cpu);
	err = xl_ndr_rows_search(&lab, &a.o, &a.no, a.rows, &a.size, 1, NULL, true, rows,
				 NDR_MAX_ROWS, &n, &failed);
	if (failed)
		ret = XL_EXIT_RUNTIME;
	if (err == -EINTR) {
		xl_err("interrupted; partial results follow");
		ret = XL_EXIT_RUNTIME;
	}
	xl_ndr_rows_print(stdout, rows, n, &a.no);
	if (a.json && write_json(&a, &lab, rows, n))
		ret = XL_EXIT_RUNTIME;
	xl_lab__destroy(&lab);
	return ret;
}
