// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab lab setup|teardown|run: the veth lab and the lab table. This file
 * owns `lab run` (its options, the rows, the table) and the subcommand
 * dispatch; `lab setup` and `lab teardown` are in cmd_lab_setup.c, the
 * --ab rows in cmd_lab_ab.c, --dut's rows in cmd_lab_dut.c.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "cmd.h"
#include "lab_cli.h"
#include "lab_dut.h"
#include "profile_cli.h"
#include "xdplab/bench.h"
#include "xdplab/genremote.h"
#include "xdplab/lab.h"
#include "xdplab/labrun.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/labrun_xsk.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/report.h"
#include "xdplab/userprog.h"
#include "xdplab/abtest.h"

#define MAX_ROWS 256

/* ---- lab run ---- */

enum { R_REPS, R_SECONDS, R_WARMUP, R_SIZES, R_ROWS, R_WIRING, R_JSON, R_MODE, R_GEN_CPU,
       R_NAPI_CPU, R_WITH_MONITOR, R_WITH_PERF, R_EXTRA_NS, R_SENSITIVITY, R_DUT, R_GEN_HOST,
       R_GEN_IFACE, R_GEN_XDPLAB, R_SSH_CONFIG, R_LATENCY, R_LAT_DELAY, R_PROFILE = XL_OPT_PROFILE,
       R_PROFILE_DIR = XL_OPT_PROFILE_DIR, R_PROG = 700, R_PROG_SEC, R_PROG_FUNC, R_PROG_MAP, R_AB };

static const struct xl_opt run_opts[] = {
	{ "reps", 'r', "N", "repetitions per row, 1..32 (default 3; medians are reported)", R_REPS },
	{ "seconds", 's', "SECONDS", "measured window per repetition, 0.2..60 (default 1; make bench uses 3)", R_SECONDS },
	{ "warmup", 'w', "SECONDS", "traffic before each window, 0..10 (default 0.25)", R_WARMUP },
	{ "sizes", 'z', "LIST", "frame sizes in bytes, comma-separated, 60..1514 (default 64,1500)", R_SIZES },
	{ "rows", 0, "LIST", "rows, comma-separated (default all: gen-ceiling, drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs, pass, tx, redirect, redirect-cpu, xsk-rxdrop|xsk-txpush|xsk-l2fwd with /skb, /drv or /zc; only when named: stack-drop (nftables raw prerouting drop, no XDP), tc-drop (BPF at clsact ingress))", R_ROWS },
	{ "with-monitor", 0, NULL, "after the first size's redirect row, measure it again without, under 'monitor' and under 'monitor --all' (softirq wiring, at least 9 repetitions of at most 0.3 s per level, interleaved in 50 ms slices; also at generator batch 1) and show the ns/packet they cost", R_WITH_MONITOR },
	{ "with-perf", 0, NULL, "with --with-monitor: a fourth level in the first cost set, 'perf record' (linux-perf) on xdp:xdp_redirect with a --filter that matches nothing, enabled for its slices only (row redirect+perf; about 4 s more)", R_WITH_PERF },
	{ "extra-ns", 0, "NS", "drop rows run with a busy loop of NS ns of CPU per packet, 0..1000, calibrated with BPF_PROG_RUN (docs/compare.md)", R_EXTRA_NS },
	{ "sensitivity", 0, NULL, "after the rows, for each drop row: the smallest extra ns/packet (1, 2, 3, 5, 8, 13...) that a compare of --reps windows with it against --reps without flags (2 x reps x seconds per cost tried)", R_SENSITIVITY },
	{ "latency", 0, NULL, "after the rows: latency rows of stamped frames, one-way (gen -> DUT) and round trips back to the generator side (rt-tx, rt-redirect, rt-l2fwd), at 10 kpps and unpaced, at each size: p50..max, loss, reorder, duplicates (docs/latency.md; about 8 x reps x (seconds + 0.3 s) per size: 32 s at the defaults)", R_LATENCY },
	{ "latency-delay", 0, "NS", "with --latency: the receiver spins NS ns per frame before reading the clock, 0..100000000 (a known added delay; default 0)", R_LAT_DELAY },
	{ "wiring", 0, "WIRING", "NAPI placement for XDP rows: threaded (default with 2+ CPUs) or softirq", R_WIRING },
	{ "mode", 'm', "MODE", "XDP attach mode for XDP rows: native (default; drv is the same) or skb", R_MODE, .alias = "xdp-mode" },
	{ "gen-cpu", 0, "CPU", "CPU of the generator thread (default 0)", R_GEN_CPU },
	{ "napi-cpu", 0, "CPU", "CPU of the DUT's threaded NAPI (default: the last CPU)", R_NAPI_CPU },
	{ "json", 'j', "FILE", "also write the results as JSON (docs/results.md)", R_JSON },
	{ "dut", 0, "IFACE", "measure the DUT rows on this real interface (this netns) instead of a veth lab; rows that need the lab say why they are skipped", R_DUT },
	{ "gen-host", 0, "HOST", "with --dut: run the generator on HOST through ssh (your ssh config, BatchMode: keys, no passwords), started and stopped per repetition; without it, run any generator yourself: xdplab measures what arrives", R_GEN_HOST },
	{ "gen-iface", 0, "IFACE", "with --gen-host: the generator's interface on HOST", R_GEN_IFACE },
	{ "gen-xdplab", 0, "PATH", "with --gen-host: xdplab's path on HOST (default: xdplab on its PATH)", R_GEN_XDPLAB },
	{ "ssh-config", 0, "FILE", "with --gen-host: ssh -F FILE instead of ~/.ssh/config", R_SSH_CONFIG },
	{ "prog", 0, "FILE.o", "also a row prog/FUNC of your XDP program at each size, after the rows (docs/own-program.md)", R_PROG },
	{ "sec", 0, "NAME", "with --prog: the XDP program in this ELF section", R_PROG_SEC },
	{ "func", 0, "NAME", "with --prog: the XDP program with this function name", R_PROG_FUNC },
	{ "map", 0, "NAME=FILE", "with --prog or --ab: fill map NAME from FILE (repeatable)", R_PROG_MAP, true },
	{ "ab", 0, "A.o,B.o", "also rows ab-a/FUNC and ab-b/FUNC at each size: two programs in alternating repetitions (A B, B A...), B's note the paired CPU ns/packet difference, CI, verdict", R_AB },
	XL_OPT_ENTRY_PROFILE,
	XL_OPT_ENTRY_PROFILE_DIR,
};
static const struct xl_cmd_spec run_spec = {
	"lab run", "", "Set up a lab, measure every row with repetitions, print the table, tear down.",
	run_opts, sizeof(run_opts) / sizeof(run_opts[0]),
};

static const char *const all_rows[] = { "gen-ceiling", "drop/no-touch", "drop/read-data",
					"drop/parse-ip", "drop/swap-macs", "pass", "tx",
					"redirect", "redirect-cpu",
					"xsk-rxdrop/skb", "xsk-rxdrop/drv", "xsk-rxdrop/zc",
					"xsk-txpush/skb", "xsk-txpush/drv", "xsk-txpush/zc",
					"xsk-l2fwd/skb", "xsk-l2fwd/drv", "xsk-l2fwd/zc",
					"stack-drop", "tc-drop", NULL };
/* Rows measured only when --rows names them (not in make demo's time). */
static bool named_only(const char *row)
{
	return !strcmp(row, "stack-drop") || !strcmp(row, "tc-drop");
}

/* Comma lists: "64,,100", a leading or a trailing comma are errors. */
static int check_list(const char *opt, const char *arg)
{
	size_t n = strlen(arg);

	if (!n || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"))
		return xl_usage_error(&run_spec, "%s: '%s' has an empty item (accepted: a comma-separated list)",
				      opt, arg);
	return 0;
}

static int parse_sizes(struct run_args *a, const char *arg)
{
	char buf[256], *tok, *save;
	uint64_t v;

	if (check_list("--sizes", arg))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", arg);
	a->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->nsizes == MAX_SIZES)
			return xl_usage_error(&run_spec, "--sizes: at most %d sizes", MAX_SIZES);
		if (xl_parse_u64(&run_spec, "--sizes", tok, XL_PKT_MIN_SIZE, 1514, &v))
			return -EINVAL;
		a->sizes[a->nsizes++] = v;
	}
	return a->nsizes ? 0 : xl_usage_error(&run_spec, "--sizes: empty list");
}

static int parse_rows(struct run_args *a, const char *arg)
{
	char buf[512], *tok, *save;
	int i;

	if (check_list("--rows", arg))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", arg);
	memset(a->rows, 0, sizeof(a->rows));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		i = xl_parse_choice(&run_spec, "--rows", tok, all_rows);
		if (i < 0)
			return i;
		a->rows[i] = true;
	}
	return 0;
}

static int on_run_opt(int id, const char *arg, void *ctx)
{
	static const char *const wirings[] = { "softirq", "threaded", NULL };
	static const char *const modes[] = { "native", "skb", "drv", NULL };
	struct run_args *a = ctx;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t v;
	int r;

	switch (id) {
	case R_REPS:
		r = xl_parse_u64(&run_spec, "--reps", arg, 1, XL_MAX_REPS, &v);
		a->o.reps = v;
		return r;
	case R_SECONDS:
		return xl_parse_seconds(&run_spec, "--seconds", arg, 0.2, 60, &a->o.seconds_ns);
	case R_WARMUP:
		return xl_parse_seconds(&run_spec, "--warmup", arg, 0, 10, &a->o.warmup_ns);
	case R_SIZES:
		return parse_sizes(a, arg);
	case R_ROWS:
		return parse_rows(a, arg);
	case R_PROG:
		a->uo.path = arg;
		return 0;
	case R_PROG_SEC:
		a->uo.sec = arg;
		return 0;
	case R_PROG_FUNC:
		a->uo.func = arg;
		return 0;
	case R_AB: {
		char *comma;

		snprintf(a->ab_buf, sizeof(a->ab_buf), "%s", arg);
		comma = strchr(a->ab_buf, ',');
		if (!comma || comma == a->ab_buf || !comma[1] || strchr(comma + 1, ','))
			return xl_usage_error(&run_spec, "--ab: '%s' is not two objects (accepted: A.o,B.o)", arg);
		*comma = '\0';
		a->ab[0] = a->ab_buf;
		a->ab[1] = comma + 1;
		return 0;
	}
	case R_PROG_MAP:
		if (a->uo.nfills == XL_USERPROG_MAX_FILLS)
			return xl_usage_error(&run_spec, "--map: at most %d maps", XL_USERPROG_MAX_FILLS);
		a->maps[a->uo.nfills++] = arg;
		a->uo.fills = a->maps;
		return 0;
	case R_WIRING:
		a->d.wiring_set = true;
		a->wiring = xl_parse_choice(&run_spec, "--wiring", arg, wirings);
		return a->wiring < 0 ? a->wiring : 0;
	case R_MODE:
		a->mode = xl_parse_choice(&run_spec, "--mode", arg, modes);
		if (a->mode == 2)
			a->mode = 0; /* drv: native */
		return a->mode < 0 ? a->mode : 0;
	case R_GEN_CPU:
		a->d.cpus_set = true;
		r = xl_parse_u64(&run_spec, "--gen-cpu", arg, 0, ncpu - 1, &v);
		a->o.gen_cpu = v;
		return r;
	case R_NAPI_CPU:
		a->d.cpus_set = true;
		r = xl_parse_u64(&run_spec, "--napi-cpu", arg, 0, ncpu - 1, &v);
		a->o.napi_cpu = v;
		return r;
	case R_JSON: {
		/* Fail now, not after minutes of measuring. */
		FILE *f = fopen(arg, "a");

		if (!f)
			return xl_usage_error(&run_spec, "--json: cannot write '%s': %s", arg,
					      strerror(errno));
		fclose(f);
		a->json = arg;
		return 0;
	}
	case R_WITH_MONITOR:
		a->with_monitor = true;
		return 0;
	case R_WITH_PERF:
		a->o.with_perf = true;
		return 0;
	case R_EXTRA_NS:
		a->extra = true;
		return xl_parse_u64(&run_spec, "--extra-ns", arg, 0, XL_EXTRA_NS_MAX, &a->extra_ns);
	case R_SENSITIVITY:
		a->sensitivity = true;
		return 0;
	case R_LATENCY:
		a->latency = true;
		return 0;
	case R_LAT_DELAY:
		return xl_parse_u64(&run_spec, "--latency-delay", arg, 0, 100000000, &a->lat_delay_ns);
	case R_DUT:
		a->d.dut = arg;
		return 0;
	case R_GEN_HOST:
		a->d.gen_host = arg;
		return 0;
	case R_GEN_IFACE:
		a->d.gen_iface = arg;
		return 0;
	case R_GEN_XDPLAB:
		a->d.gen_xdplab = arg;
		return 0;
	case R_SSH_CONFIG:
		if (access(arg, R_OK))
			return xl_usage_error(&run_spec, "--ssh-config: cannot read '%s': %s", arg,
					      strerror(errno));
		a->d.ssh_config = arg;
		return 0;
	}
	if (!xl_cmd_prof_opt(&a->prof, id, arg))
		return 0;
	return -EINVAL;
}

static int lab_run(int argc, char **argv)
{
	static struct xl_row_result rows[MAX_ROWS];
	static char prog_func[24], ab_func[2][24];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct run_args a = {
		.o = { .reps = 3, .seconds_ns = 1000000000ull, .warmup_ns = 250000000ull,
		       .gen_cpu = 0, .napi_cpu = (int)ncpu - 1, .stop = &xl_stop_requested },
		.sizes = { 64, 1500 }, .nsizes = 2, .wiring = ncpu > 1 ? XL_WIRING_THREADED :
									 XL_WIRING_SOFTIRQ,
	};
	static struct xl_sens_result sens[MAX_SIZES * 4];
	static struct xl_lat_row lat[MAX_SIZES * 2 * XL_LAT_NPATHS];
	char *lat_json = NULL;
	bool lat_failed = false;
	int nlat = 0;
	struct xl_lab_opts lo = { .queues = 1 };
	struct xl_report_meta meta;
	struct xl_labrun_source src;
	struct xl_gen_remote *remote = NULL;
	char lab_tag[48];
	struct xl_lab lab;
	char header[3072];
	int idx, i, k, s, n = 0, cal = 0, drops = 0, nsens = 0, err = 0, ret = XL_EXIT_OK;

	for (i = 0; all_rows[i]; i++)
		a.rows[i] = !named_only(all_rows[i]);
	idx = xl_opts_parse(&run_spec, argc, argv, on_run_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx != argc) {
		xl_usage_error(&run_spec, "unexpected argument '%s'", argv[idx]);
		return XL_EXIT_USAGE;
	}
	if (xl_lab_dut_usage(&run_spec, &a.d, a.with_monitor))
		return XL_EXIT_USAGE;
	if (!a.d.dut && a.wiring == XL_WIRING_THREADED && a.o.napi_cpu == a.o.gen_cpu) {
		xl_usage_error(&run_spec, "--napi-cpu %d equals --gen-cpu: threaded wiring needs two CPUs (or --wiring softirq)",
			       a.o.napi_cpu);
		return XL_EXIT_USAGE;
	}
	for (i = 0, n = 0; all_rows[i]; i++) {
		if (!a.rows[i])
			continue;
		n++;
		if (!strcmp(all_rows[i], "redirect") && a.with_monitor)
			cal = xl_labrun_watch_rows(&a.o); /* the cost rows, once (first size) */
		if (!strncmp(all_rows[i], "redirect", 8)) /* they need somewhere to go */
			lo.out_pairs = 1;
		drops += !strncmp(all_rows[i], "drop/", 5);
	}
	if (a.o.with_perf && !a.with_monitor) {
		xl_usage_error(&run_spec, "--with-perf adds a level to the --with-monitor cost rows: add --with-monitor");
		return XL_EXIT_USAGE;
	}
	if (a.extra && a.sensitivity) {
		xl_usage_error(&run_spec, "--extra-ns and --sensitivity exclude each other (--sensitivity sets the extra cost itself)");
		return XL_EXIT_USAGE;
	}
	if (a.sensitivity && a.d.dut) {
		xl_usage_error(&run_spec, "--sensitivity switches the veth lab's generator and the DUT's cost between windows: not with --dut");
		return XL_EXIT_USAGE;
	}
	if ((a.extra || a.sensitivity) && !drops) {
		xl_usage_error(&run_spec, "%s applies to the drop rows: add one to --rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs)",
			       a.extra ? "--extra-ns" : "--sensitivity");
		return XL_EXIT_USAGE;
	}
	if ((a.latency || a.lat_delay_ns) && a.d.dut) {
		xl_usage_error(&run_spec, "--latency measures on the veth lab (the receiver reads the generator's stamps): not with --dut");
		return XL_EXIT_USAGE;
	}
	if (a.lat_delay_ns && !a.latency) {
		xl_usage_error(&run_spec, "--latency-delay goes with --latency");
		return XL_EXIT_USAGE;
	}
	if (a.latency) {
		for (s = 0; s < a.nsizes; s++)
			if (a.sizes[s] < 62) {
				xl_usage_error(&run_spec, "--latency needs --sizes >= 62 (the stamp is 20 bytes of UDP payload): %u",
					       a.sizes[s]);
				return XL_EXIT_USAGE;
			}
		lo.out_pairs = 1; /* rt-redirect's way back to the generator side */
	}
	a.o.extra = a.extra;
	a.o.extra_ns = a.extra_ns;
	if (a.with_monitor && !cal) {
		xl_usage_error(&run_spec, "--with-monitor measures the redirect row under the monitor: add redirect to --rows");
		return XL_EXIT_USAGE;
	}
	if (a.uo.path) {
		/* Load it once here, so a bad object is one line and exit 2 before any lab. */
		struct xl_userprog *u;

		if (a.d.dut) {
			xl_usage_error(&run_spec, "--prog measures on the veth lab: not with --dut (use xdplab run --prog there)");
			return XL_EXIT_USAGE;
		}
		u = xl_userprog__load(&a.uo);
		if (!u)
			return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		snprintf(prog_func, sizeof(prog_func), "%s", xl_userprog__name(u));
		xl_userprog__destroy(u);
		n++;
	}
	for (k = 0; a.ab[0] && k < 2; k++) {
		struct xl_userprog_opts uo = a.uo;
		struct xl_userprog *u;

		if (a.d.dut) {
			xl_usage_error(&run_spec, "--ab measures on the veth lab: not with --dut (use xdplab ab there)");
			return XL_EXIT_USAGE;
		}
		uo.path = a.ab[k];
		u = xl_userprog__load(&uo);
		if (!u)
			return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		snprintf(ab_func[k], sizeof(ab_func[k]), "%s", xl_userprog__name(u));
		xl_userprog__destroy(u);
		n++;
	}
	if (!a.uo.path && !a.ab[0] && (a.uo.sec || a.uo.func || a.uo.nfills)) {
		xl_usage_error(&run_spec, "--sec, --func and --map go with --prog FILE.o or --ab A.o,B.o");
		return XL_EXIT_USAGE;
	}
	if (n * a.nsizes + cal > MAX_ROWS) {
		xl_usage_error(&run_spec, "--rows x --sizes: %d rows (accepted: at most %d)",
			       n * a.nsizes + cal, MAX_ROWS);
		return XL_EXIT_USAGE;
	}
	n = 0;
	xl_cmd_prof_open(&a.prof);
	a.o.profiler = a.prof.p;
	if (a.d.dut) {
		if (xl_lab_dut_open(&a.d, &a.o, &lab, &src, &remote, header, sizeof(header))) {
			xl_cmd_prof_close(&a.prof);
			return XL_EXIT_RUNTIME;
		}
		a.o.src = &src;
		goto measure;
	}
	if (xl_lab__create(&lab, &lo)) {
		xl_cmd_prof_close(&a.prof);
		return XL_EXIT_RUNTIME;
	}
	if (xl_lab__wire(&lab, a.wiring, a.o.napi_cpu)) {
		/* Not err: the rows below run while err is 0. */
		xl_warn("threaded NAPI unavailable; measuring with softirq wiring");
		xl_lab__wire(&lab, XL_WIRING_SOFTIRQ, -1);
	}
	snprintf(header, sizeof(header),
		 "xdplab lab run: lab %s, %ld CPUs; wiring %s (%s), generator: live frames, 1 thread on CPU%d;\n"
		 "%d reps x %.2g s after %.2g s warm-up, medians; 'valid' needs the judged CPU >= %.0f%% busy; "
		 "check = our count vs the veth's rx_queue_0_xdp_packets",
		 lab.tag, ncpu, xl_wiring_name(lab.wiring),
		 lab.wiring == XL_WIRING_THREADED ? "DUT NAPI kthread pinned away from the generator" :
						    "DUT NAPI in softirq on the generator's CPU",
		 a.o.gen_cpu, a.o.reps, a.o.seconds_ns / 1e9, a.o.warmup_ns / 1e9,
		 XL_SATURATED_SHARE * 100);
	if (a.with_monitor)
		snprintf(header + strlen(header), sizeof(header) - strlen(header),
			 ";\nredirect+... cost rows: softirq wiring, one traffic set-up, %d reps of %.2g s per level interleaved in %.0f ms slices; "
			 "costs are medians of the paired differences (positive: slower with the monitor), with 95%% CIs",
			 a.o.reps > XL_WATCH_MIN_REPS ? a.o.reps : XL_WATCH_MIN_REPS,
			 (a.o.seconds_ns < XL_WATCH_MAX_WINDOW_NS ? a.o.seconds_ns :
								   XL_WATCH_MAX_WINDOW_NS) / 1e9,
			 XL_WATCH_SLICE_NS / 1e6);
	if (a.o.with_perf)
		snprintf(header + strlen(header), sizeof(header) - strlen(header),
			 ";\nredirect+perf: perf record on %s --filter '%s' (matches nothing), open for the first set, enabled in its slices only",
			 XL_WATCH_PERF_EVENT, XL_WATCH_PERF_FILTER);
measure:
	if (a.extra)
		snprintf(header + strlen(header), sizeof(header) - strlen(header),
			 ";\ndrop rows with --extra-ns %llu: a busy loop of that many CPU ns per packet, calibrated with BPF_PROG_RUN (the note gives iterations x ns)",
			 (unsigned long long)a.extra_ns);
	fprintf(stderr, "%s\n", header);
	for (s = 0; s < a.nsizes && !err; s++) {
		for (i = 0; all_rows[i] && n < MAX_ROWS; i++) {
			const char *r = all_rows[i];

			if (!a.rows[i])
				continue;
			if (a.d.dut && xl_lab_dut_skip(&lab, r, a.sizes[s], &rows[n])) {
				n++;
				continue;
			}
			fprintf(stderr, "xdplab: measuring %s at %u bytes...\n", r, a.sizes[s]);
			if (!strcmp(r, "gen-ceiling"))
				err = xl_labrun_ceiling(&lab, &a.o, a.sizes[s], &rows[n]);
			else if (!strncmp(r, "xsk-", 4))
				err = xl_labrun_xsk(&lab, &a.o, !strncmp(r, "xsk-rxdrop", 10) ? XL_XSK_RXDROP :
							!strncmp(r, "xsk-txpush", 10) ? XL_XSK_TXPUSH : XL_XSK_L2FWD,
						    strstr(r, "/skb") ? XL_MODE_SKB : XL_MODE_NATIVE,
						    strstr(r, "/zc") != NULL, a.sizes[s], &rows[n]);
			else if (!strcmp(r, "stack-drop") || !strcmp(r, "tc-drop"))
				err = xl_labrun_stack(&lab, &a.o, r[0] == 's' ? XL_BASE_NFT : XL_BASE_TC,
						      a.sizes[s], &rows[n]);
			else if (!strncmp(r, "drop/", 5))
				err = xl_labrun_xdp(&lab, &a.o, XDP_DROP, xl_pkt_op_parse(r + 5),
						    a.mode, a.sizes[s], &rows[n]);
			else if (!strcmp(r, "redirect") && a.with_monitor && s == 0 &&
				 n + 1 + xl_labrun_watch_rows(&a.o) <= MAX_ROWS) {
				/* The row, then what watching costs (first size only): no
				 * monitor, errors, all, interleaved; and at batch 1. */
				err = xl_labrun_redirect(&lab, &a.o, XL_REDIR_DEVMAP, XL_WATCH_NONE,
							 a.sizes[s], &rows[n]);
				if (!err) {
					n++;
					err = xl_labrun_watch_cost(&lab, &a.o, a.sizes[s], &rows[n]);
					n += xl_labrun_watch_rows(&a.o) - 1;
				}
			} else if (!strncmp(r, "redirect", 8))
				err = xl_labrun_redirect(&lab, &a.o, r[8] ? XL_REDIR_CPUMAP : XL_REDIR_DEVMAP,
							 XL_WATCH_NONE, a.sizes[s], &rows[n]);
			else
				err = xl_labrun_xdp(&lab, &a.o, !strcmp(r, "pass") ? XDP_PASS : XDP_TX,
						    XL_OP_NO_TOUCH, a.mode, a.sizes[s], &rows[n]);
			n++;
			if (err == -EINTR) {
				/* The cost rows name their own cut-short rows. */
				if (!rows[n - 1].note[0])
					snprintf(rows[n - 1].note, sizeof(rows[n - 1].note),
						 "interrupted after %d of %d repetitions",
						 rows[n - 1].nreps, a.o.reps);
				break;
			}
			if (err) {
				xl_err("row %s at %u bytes failed: %s", r, a.sizes[s], rows[n - 1].note);
				ret = XL_EXIT_RUNTIME;
				err = 0;
			}
		}
		/* --ab: two programs, repetitions alternating A B / B A. */
		if (a.ab[0] && !err && n + 2 <= MAX_ROWS) {
			err = xl_cmd_lab_ab(&lab, &a, ab_func, a.sizes[s], &rows[n]);
			n += 2;
			if (err && err != -EINTR) {
				ret = XL_EXIT_RUNTIME;
				err = 0;
			}
		}
		/* --prog: the user's program after the built-in rows of this size. */
		if (a.uo.path && !err && n < MAX_ROWS) {
			fprintf(stderr, "xdplab: measuring prog/%s at %u bytes...\n", prog_func, a.sizes[s]);
			err = xl_labrun_prog(&lab, &a.o, &a.uo, prog_func, a.mode, a.sizes[s], &rows[n]);
			n++;
			if (err && err != -EINTR) {
				xl_err("row prog/%s at %u bytes failed: %s", prog_func, a.sizes[s],
				       rows[n - 1].note);
				ret = XL_EXIT_RUNTIME;
				err = 0;
			}
		}
	}
	/* --sensitivity: after the rows, each drop row's smallest detected cost. */
	for (s = 0; a.sensitivity && s < a.nsizes && err != -EINTR; s++)
		for (i = 0; all_rows[i] && err != -EINTR; i++) {
			char line[256];

			if (!a.rows[i] || strncmp(all_rows[i], "drop/", 5))
				continue;
			fprintf(stderr, "xdplab: sensitivity of %s at %u bytes...\n", all_rows[i],
				a.sizes[s]);
			err = xl_labrun_sensitivity(&lab, &a.o, xl_pkt_op_parse(all_rows[i] + 5),
						    a.mode, a.sizes[s], &sens[nsens]);
			if (err && err != -EINTR) {
				xl_err("sensitivity of %s at %u bytes failed: %s", all_rows[i],
				       a.sizes[s], sens[nsens].note);
				ret = XL_EXIT_RUNTIME;
				err = 0;
			}
			if (err != -EINTR)
				fprintf(stderr, "xdplab: %s\n", xl_sens_line(&sens[nsens++], line,
									     sizeof(line)));
		}
	/* --latency: after the rows, the latency rows (their own table). */
	if (a.latency && err != -EINTR) {
		err = xl_cmd_lab_lat(&lab, &a, lat, sizeof(lat) / sizeof(lat[0]), &nlat, &lat_failed);
		if (lat_failed)
			ret = XL_EXIT_RUNTIME;
	}
	if (a.sensitivity) {
		snprintf(header + strlen(header), sizeof(header) - strlen(header),
			 ";\nsensitivity: extra CPU ns/packet 1, 2, 3, 5, 8, 13... until compare (Mann-Whitney, p < 0.05) flags %d windows with it against %d interleaved without, twice in a row",
			 a.o.reps, a.o.reps);
		for (i = 0; i < nsens; i++) {
			char line[256];

			snprintf(header + strlen(header), sizeof(header) - strlen(header),
				 "\n  %s", xl_sens_line(&sens[i], line, sizeof(line)));
		}
	}
	if (err == -EINTR) {
		xl_err("interrupted; partial results follow");
		ret = XL_EXIT_RUNTIME;
	}
	/* An interrupted row keeps the repetitions it completed, summarised. */
	for (i = 0; i < n; i++)
		xl_row_finish(&rows[i]);
	xl_report_table(stdout, rows, n, header);
	xl_cmd_lab_lat_print(stdout, lat, nlat, a.o.reps);
	for (i = 0; i < n; i++) {
		if (!rows[i].profile)
			continue;
		printf("%s %uB, an extra repetition recorded by perf (not among the figures above):\n",
		       rows[i].name, rows[i].size);
		if (rows[i].profile->have_window && rows[i].nreps && rows[i].mpps.median > 0)
			printf("  with perf recording: %.2f Mpps (%+.1f%% of the median), CPU ns/packet %.1f (median %.1f)\n",
			       rows[i].profile->pps / 1e6,
			       (rows[i].profile->pps / 1e6 / rows[i].mpps.median - 1) * 100,
			       rows[i].profile->cpu_ns_per_pkt, rows[i].cpu_ns_per_pkt);
		xl_cmd_prof_print(stdout, rows[i].profile, "  ", 5);
	}
	snprintf(lab_tag, sizeof(lab_tag), "%s%s", a.d.dut ? "dut:" : "",
		 a.d.dut ? lab.ifname[XL_LAB_DUT] : lab.tag);
	if (a.json) {
		meta = (struct xl_report_meta){ .reps = a.o.reps, .seconds = a.o.seconds_ns / 1e9,
						.warmup = a.o.warmup_ns / 1e9, .git = xl_cmd_git_commit(),
						.lab_tag = lab_tag,
						.wiring = xl_wiring_name(lab.wiring),
						.extra = a.extra, .extra_ns = a.extra_ns,
						.sens = a.sensitivity ? sens : NULL,
						.nsens = nsens };
		if (a.latency)
			meta.extra_json = lat_json = xl_lat_rows_json(lat, nlat);
		if ((a.latency && !lat_json) || xl_report_json(a.json, &meta, rows, n)) {
			xl_err("cannot write --json %s", a.json);
			ret = XL_EXIT_RUNTIME;
		} else {
			fprintf(stderr, "xdplab: results written to %s\n", a.json);
		}
	}
	free(lat_json);
	xl_lab__destroy(&lab);
	xl_gen_remote__free(remote);
	xl_cmd_prof_close(&a.prof);
	for (i = 0; i < n; i++)
		xl_row_free_profile(&rows[i]);
	return ret;
}

int cmd_lab(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *f = argc < 2 ? stderr : stdout;

		fprintf(f, "Usage: xdplab lab setup|teardown|run [options]\n"
			   "  setup      create a lab that stays (prints its tag and names)\n"
			   "  teardown   remove a lab: TAG, or --all\n"
			   "  run        the lab table: every XDP row at each size, repetitions, medians\n"
			   "'xdplab lab SUB --help' for options.\n");
		return argc < 2 ? XL_EXIT_USAGE : XL_EXIT_OK;
	}
	if (!strcmp(argv[1], "setup"))
		return xl_cmd_lab_setup(argc - 1, argv + 1);
	if (!strcmp(argv[1], "teardown"))
		return xl_cmd_lab_teardown(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return lab_run(argc - 1, argv + 1);
	fprintf(stderr, "xdplab lab: unknown subcommand '%s' (accepted: setup, teardown, run)\n",
		argv[1]);
	return XL_EXIT_USAGE;
}
