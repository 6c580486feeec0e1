// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xdplab lab run`'s arguments: the option table, the rows it knows, and
 * the checks that refuse a run before any lab is made
 * (xl_cmd_lab_run_args()). The run itself is in cmd_lab.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "lab_cli.h"
#include "lab_dut.h"
#include "ndr_cli.h"
#include "profile_cli.h"
#include "xdplab/compare_runs.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/userprog.h"

enum { R_SIZES, R_ROWS, R_SSH_CONFIG, R_AB };

#define A struct run_args
static const char *const wirings[] = { "softirq", "threaded", NULL };

static const char *const lab_counters[] = { "ethtool", "program", NULL };

/* --rows' help: the rows run only when named come from the row table (rows_help_fill()). */
static char rows_help[640];

static void rows_help_fill(void)
{
	char named[400];

	if (!rows_help[0])
		snprintf(rows_help, sizeof(rows_help),
			 "rows, comma-separated (default all: gen-ceiling, drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs, pass, tx, redirect, redirect-cpu, xsk-rxdrop|xsk-txpush|xsk-l2fwd with /skb, /drv or /zc; only when named: %s)",
			 xl_labrow_named_help(named, sizeof(named)));
}

static const struct xl_opt run_opts[] = {
	XL_RUN(REPS, A, o.reps, .short_name = 'r', .help = "repetitions per row, {range} (default {default}; medians are reported)"),
	{ "seconds", 's', "SECONDS", "measured window per repetition, {range} (default {default}; make bench uses 3)",
	  XL_SECONDS(A, o.seconds_ns, 0.2, 60) },
	{ "warmup", 'w', "SECONDS", "traffic before each window, {range} (default {default})",
	  XL_SECONDS(A, o.warmup_ns, 0, 10) },
	{ "sizes", 'z', "LIST", "frame sizes in bytes, comma-separated, 60..1514 (default 64,1500)", R_SIZES },
	{ "rows", 0, "LIST", rows_help, R_ROWS },
	{ "with-monitor", 0, NULL, "after the first size's redirect row, measure it again without, under 'monitor' and under 'monitor --all' (softirq wiring, at least 9 repetitions of at most 0.3 s per level, interleaved in 50 ms slices; also at generator batch 1) and show the ns/packet they cost",
	  XL_FLAG(A, with_monitor) },
	{ "with-perf", 0, NULL, "with --with-monitor: a fourth level in the first cost set, 'perf record' (linux-perf) on xdp:xdp_redirect with a --filter that matches nothing, enabled for its slices only (row redirect+perf; about 4 s more)",
	  XL_FLAG(A, o.with_perf) },
	{ "with-monitor-floor", 0, NULL, "--with-monitor and a fourth level in its batch-1 set: an empty program on xdp_devmap_xmit, the kernel's dispatch without our program (row redirect/b1+mon-floor: the floor per event and the monitor's own part above it, with 95% CIs; about 3 s more)",
	  XL_FLAG(A, o.with_floor), XL_SEEN(A, with_monitor) },
	{ "count", 0, "METHOD", "how the drop, pass and tx rows' frames are counted: ethtool (default: the driver's per-queue XDP counters where it has them, veth's; the program then counts nothing, no-touch only returns its action) or program (our per-CPU map, as before; elsewhere always)",
	  XL_ENUM(A, o.program_counts, lab_counters, NULL) },
	{ "extra-ns", 0, "NS", "drop rows run with a busy loop of NS ns of CPU per packet, {range}, calibrated with BPF_PROG_RUN (docs/compare.md)",
	  XL_UINT(A, extra_ns, 0, XL_EXTRA_NS_MAX), XL_SEEN(A, extra) },
	{ "prog-time", 0, NULL, "the drop, pass, tx, tc-drop, --prog and --ab rows run one more repetition, not counted, with the kernel's BPF run-time stats on, and keeps the program's own ns per run (prog_ns_per_run; compare --figure prog decides on it across runs, docs/compare.md)",
	  XL_FLAG(A, o.prog_time) },
	{ "sensitivity", 0, NULL, "after the rows, for each drop row: the smallest extra ns/packet (1, 2, 3, 5, 8, 13...) that a compare of --reps windows with it against --reps without flags (2 x reps x seconds per cost tried)",
	  XL_FLAG(A, sensitivity) },
	{ "latency", 0, NULL, "after the rows: latency rows of stamped frames, one-way (gen -> DUT) and round trips back to the generator side (rt-tx, rt-redirect, rt-l2fwd), at 10 kpps and unpaced, at each size: p50..max, loss, reorder, duplicates (docs/latency.md; about 8 x reps x (seconds + 0.3 s) per size: 32 s at the defaults)",
	  XL_FLAG(A, latency) },
	{ "ndr", 0, NULL, "after the rows: the zero-loss throughput search of 'xdplab ndr' on each drop and xsk-rxdrop row asked, at each size, trials of --seconds, then its latency points (docs/ndr.md; about 8 trials and 4 latency points a row)", XL_FLAG(A, ndr) },
	XL_NDR_OPT(LOSS, A, pct, .help = "with --ndr: the loss the NDR allows, a percentage, {range} (default {default})"),
	XL_NDR_OPT(PDR, A, pct, .help = "with --ndr: the loss the PDR allows, a percentage, --loss..{max} (default {default}%)"),
	XL_NDR_OPT(RES, A, pct, .help = "with --ndr: the search's resolution, a percentage of the upper bound, above {range} (default {default}%)"),
	{ "latency-delay", 0, "NS", "with --latency: the receiver spins NS ns per frame before reading the clock, {range} (a known added delay; default 0)",
	  XL_UINT(A, lat_delay_ns, 0, 100000000) },
	{ "wiring", 0, "WIRING", "NAPI placement for XDP rows: threaded (default with 2+ CPUs) or softirq",
	  XL_ENUM(A, wiring, wirings, NULL), XL_SEEN(A, d.wiring_set) },
	XL_RUN(MODE, A, mode, .help = "XDP attach mode for XDP rows: native (default; drv is the same) or skb"),
	{ "gen-cpu", 0, "CPU", "CPU of the generator thread (default 0)",
	  XL_UINT(A, o.gen_cpu, 0, XL_OPT_MAX_CPU), XL_SEEN(A, d.cpus_set) },
	{ "napi-cpu", 0, "CPU", "CPU of the DUT's threaded NAPI (default: the last CPU)",
	  XL_UINT(A, o.napi_cpu, 0, XL_OPT_MAX_CPU), XL_SEEN(A, d.cpus_set) },
	/* A file, or --aa's directory: checked after the options. */
	XL_RUN(JSON, A, json, .help = "also write the results as JSON (docs/results.md)"),
	{ "store", 0, NULL, "also append the run to the results store (docs/store.md; an interrupted run is not stored)", XL_FLAG(A, store) },
	{ "db", 0, "DB", "with --store: the store, an SQLite file or postgresql://... (default $XDG_DATA_HOME/xdplab/results.db)", XL_STR(A, db) },
	{ "label", 0, "LABEL", "with --store: the run's label, e.g. the kernel's 'git describe' (default none)", XL_STR(A, label) },
	{ "aa", 0, "N", "A/A calibration: N separate runs of the same code, {range}, each a full lab run in its own process, written to the directory --json DIR (run-1.json...) with calibration.json: each row's false-alarm rate, every pair compared one run a side and (N >= 6) the balanced splits compared as several runs a side (docs/compare.md)",
	  XL_UINT(A, aa, 2, XL_CMP_MAX_RUNS) },
	{ "dut", 0, "IFACE", "measure the DUT rows on this real interface (this netns) instead of a veth lab; rows that need the lab say why they are skipped",
	  XL_STR(A, d.dut) },
	{ "gen-host", 0, "HOST", "with --dut: run the generator on HOST through ssh (your ssh config, BatchMode: keys, no passwords), started and stopped per repetition; without it, run any generator yourself: xdplab measures what arrives",
	  XL_STR(A, d.gen_host) },
	{ "gen-iface", 0, "IFACE", "with --gen-host: the generator's interface on HOST", XL_STR(A, d.gen_iface) },
	{ "gen-xdplab", 0, "PATH", "with --gen-host: xdplab's path on HOST (default: xdplab on its PATH)",
	  XL_STR(A, d.gen_xdplab) },
	{ "ssh-config", 0, "FILE", "with --gen-host: ssh -F FILE instead of ~/.ssh/config", R_SSH_CONFIG },
	{ "prog", 0, "FILE.o", "also a row prog/FUNC of your XDP program at each size, after the rows (docs/own-program.md)",
	  XL_STR(A, uo.path) },
	XL_RUN(SEC, A, uo.sec, .help = "with --prog: the XDP program in this ELF section"),
	XL_RUN(FUNC, A, uo.func, .help = "with --prog: the XDP program with this function name"),
	XL_RUN(MAP, A, maps, .help = "with --prog or --ab: fill map NAME from FILE (repeatable)"),
	{ "ab", 0, "A.o,B.o", "also rows ab-a/FUNC and ab-b/FUNC at each size: two programs in alternating repetitions (A B, B A...), B's note the paired CPU ns/packet difference, CI, verdict", R_AB },
	XL_RUN(PROFILE, A, prof.on),
	XL_RUN(PROFILE_DIR, A, prof.dir),
};
#undef A

/* Built by xl_cmd_lab_run_args(): the last CPU and the wiring are the host's. */
static struct run_args run_defaults;

static const struct xl_cmd_spec run_spec = {
	"lab run", "", "Set up a lab, measure every row with repetitions, print the table, tear down.",
	run_opts, sizeof(run_opts) / sizeof(run_opts[0]), &run_defaults, sizeof(run_defaults),
};

const struct xl_cmd_spec *xl_cmd_lab_run_spec(void)
{
	rows_help_fill();
	return &run_spec;
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
		i = xl_parse_choice(&run_spec, "--rows", tok, xl_labrow_names());
		if (i < 0)
			return i;
		a->rows[i] = true;
	}
	return 0;
}

/* The lists, --ab's pair, --ssh-config's file (read at once) and --map. */
static int on_run_opt(int id, const char *arg, void *ctx)
{
	struct run_args *a = ctx;
	char *comma;

	switch (id) {
	case R_SIZES:
		return parse_sizes(a, arg);
	case R_ROWS:
		return parse_rows(a, arg);
	case R_AB:
		snprintf(a->ab_buf, sizeof(a->ab_buf), "%s", arg);
		comma = strchr(a->ab_buf, ',');
		if (!comma || comma == a->ab_buf || !comma[1] || strchr(comma + 1, ','))
			return xl_usage_error(&run_spec, "--ab: '%s' is not two objects (accepted: A.o,B.o)", arg);
		*comma = '\0';
		a->ab[0] = a->ab_buf;
		a->ab[1] = comma + 1;
		return 0;
	case XL_OPT_NDR_LOSS:
	case XL_OPT_NDR_PDR:
	case XL_OPT_NDR_RES:
		return xl_cmd_ndr_opt(&run_spec, id, arg, &a->pct);
	case R_SSH_CONFIG:
		if (access(arg, R_OK))
			return xl_usage_error(&run_spec, "--ssh-config: cannot read '%s': %s", arg,
					      strerror(errno));
		a->d.ssh_config = arg;
		return 0;
	}
	return xl_cmd_userprog_opt(&run_spec, id, arg, &a->uo, a->maps) ? -EINVAL : 0;
}

/*
 * `lab run`'s arguments into @a: the defaults, the options, and every check
 * that can refuse the run before a lab is made (a bad --prog or --ab object
 * included: loaded once here, so it is one line and exit 2). Fills the
 * derived fields of struct run_args.
 */
int xl_cmd_lab_run_args(int argc, char **argv, struct run_args *a)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const struct xl_labrow *r;
	int idx, i, k, s, n, drops = 0;

	run_defaults = (struct run_args){
		.o = { .reps = 3, .seconds_ns = 1000000000ull, .warmup_ns = 250000000ull,
		       .gen_cpu = 0, .napi_cpu = (int)ncpu - 1, .stop = &xl_stop_requested },
		.sizes = { 64, 1500 }, .nsizes = 2, .wiring = ncpu > 1 ? XL_WIRING_THREADED :
									 XL_WIRING_SOFTIRQ,
		.lab_opts = { .queues = 1 }, .pct = XL_CMD_NDR_PCTS_DEFAULT,
	};
	for (i = 0; (r = xl_labrow(i)); i++)
		run_defaults.rows[i] = !(r->flags & XL_LABROW_NAMED_ONLY);
	rows_help_fill();
	idx = xl_cmd_parse_none(&run_spec, argc, argv, on_run_opt, a);
	if (idx)
		return idx == XL_OPTS_HELP ? XL_EXIT_OK : XL_EXIT_USAGE;
	a->uo.fills = a->maps; /* --map's arguments (xl_cmd_userprog_opt()) */
	if (xl_lab_dut_usage(&run_spec, &a->d, a->with_monitor))
		return XL_EXIT_USAGE;
	if (a->aa && !a->json) {
		xl_usage_error(&run_spec, "--aa writes its runs and calibration.json into a directory: name it with --json DIR");
		return XL_EXIT_USAGE;
	}
	if (a->json && !a->aa) {
		/* Fail now, not after minutes of measuring. */
		FILE *f = fopen(a->json, "a");

		if (!f) {
			xl_usage_error(&run_spec, "--json: cannot write '%s': %s", a->json,
				       strerror(errno));
			return XL_EXIT_USAGE;
		}
		fclose(f);
	}
	if (!a->d.dut && a->wiring == XL_WIRING_THREADED && a->o.napi_cpu == a->o.gen_cpu) {
		xl_usage_error(&run_spec, "--napi-cpu %d equals --gen-cpu: threaded wiring needs two CPUs (or --wiring softirq)",
			       a->o.napi_cpu);
		return XL_EXIT_USAGE;
	}
	for (i = 0, n = 0; (r = xl_labrow(i)); i++) {
		if (!a->rows[i])
			continue;
		n += xl_labrow_nrows(r, &a->o, false);
		if (a->with_monitor) /* the cost rows, once (first size) */
			a->cal += xl_labrow_nrows(r, &a->o, true) - 1;
		if (r->flags & XL_LABROW_OUT_PAIR) /* they need somewhere to go */
			a->lab_opts.out_pairs = 1;
		drops += !!(r->flags & XL_LABROW_DROP);
	}
	if (a->o.with_perf && !a->with_monitor) {
		xl_usage_error(&run_spec, "--with-perf adds a level to the --with-monitor cost rows: add --with-monitor");
		return XL_EXIT_USAGE;
	}
	if (a->extra && a->sensitivity) {
		xl_usage_error(&run_spec, "--extra-ns and --sensitivity exclude each other (--sensitivity sets the extra cost itself)");
		return XL_EXIT_USAGE;
	}
	if (a->sensitivity && a->d.dut) {
		xl_usage_error(&run_spec, "--sensitivity switches the veth lab's generator and the DUT's cost between windows: not with --dut");
		return XL_EXIT_USAGE;
	}
	if ((a->extra || a->sensitivity) && !drops) {
		xl_usage_error(&run_spec, "%s applies to the drop rows: add one to --rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs)",
			       a->extra ? "--extra-ns" : "--sensitivity");
		return XL_EXIT_USAGE;
	}
	if ((a->latency || a->lat_delay_ns) && a->d.dut) {
		xl_usage_error(&run_spec, "--latency measures on the veth lab (the receiver reads the generator's stamps): not with --dut");
		return XL_EXIT_USAGE;
	}
	if (a->lat_delay_ns && !a->latency) {
		xl_usage_error(&run_spec, "--latency-delay goes with --latency");
		return XL_EXIT_USAGE;
	}
	if (a->latency) {
		for (s = 0; s < a->nsizes; s++)
			if (a->sizes[s] < 62) {
				xl_usage_error(&run_spec, "--latency needs --sizes >= 62 (the stamp is 20 bytes of UDP payload): %u",
					       a->sizes[s]);
				return XL_EXIT_USAGE;
			}
		a->lab_opts.out_pairs = 1; /* rt-redirect's way back to the generator side */
	}
	if (a->pct.set && !a->ndr) {
		xl_usage_error(&run_spec, "--%s, --%s and --%s go with --ndr",
			       xl_ndr_opt_table[XL_NDR_OPT_LOSS].name,
			       xl_ndr_opt_table[XL_NDR_OPT_PDR].name,
			       xl_ndr_opt_table[XL_NDR_OPT_RES].name);
		return XL_EXIT_USAGE;
	}
	if (a->ndr) {
		if (a->d.dut) {
			xl_usage_error(&run_spec, "--ndr searches on the veth lab (its generator paces each trial): not with --dut");
			return XL_EXIT_USAGE;
		}
		if (!xl_ndr_rows_count(a->rows)) {
			xl_usage_error(&run_spec, "--ndr searches the drop rows and xsk-rxdrop: add one to --rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs, xsk-rxdrop/skb, xsk-rxdrop/drv, xsk-rxdrop/zc)");
			return XL_EXIT_USAGE;
		}
		if (xl_cmd_ndr_search_opts(&run_spec, &a->pct, &a->no))
			return XL_EXIT_USAGE;
		a->no.trial_ns = a->o.seconds_ns;
		a->no.latency = true;
	}
	a->o.extra = a->extra;
	a->o.extra_ns = a->extra_ns;
	if (a->with_monitor && !a->cal) {
		xl_usage_error(&run_spec, "%s measures the redirect row under the monitor: add redirect to --rows",
			       a->o.with_floor ? "--with-monitor-floor" : "--with-monitor");
		return XL_EXIT_USAGE;
	}
	if (a->uo.path) {
		/* Load it once here, so a bad object is one line and exit 2 before any lab. */
		struct xl_userprog *u;

		if (a->d.dut) {
			xl_usage_error(&run_spec, "--prog measures on the veth lab: not with --dut (use xdplab run --prog there)");
			return XL_EXIT_USAGE;
		}
		u = xl_userprog__load(&a->uo);
		if (!u)
			return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		snprintf(a->prog_func, sizeof(a->prog_func), "%s", xl_userprog__name(u));
		xl_userprog__destroy(u);
		n++;
	}
	for (k = 0; a->ab[0] && k < 2; k++) {
		struct xl_userprog_opts uo = a->uo;
		struct xl_userprog *u;

		if (a->d.dut) {
			xl_usage_error(&run_spec, "--ab measures on the veth lab: not with --dut (use xdplab ab there)");
			return XL_EXIT_USAGE;
		}
		uo.path = a->ab[k];
		u = xl_userprog__load(&uo);
		if (!u)
			return xl_userprog_usage_error(-errno) ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
		snprintf(a->ab_func[k], sizeof(a->ab_func[k]), "%s", xl_userprog__name(u));
		xl_userprog__destroy(u);
		n++;
	}
	if (!a->uo.path && !a->ab[0] && (a->uo.sec || a->uo.func || a->uo.nfills)) {
		xl_usage_error(&run_spec, "--sec, --func and --map go with --prog FILE.o or --ab A.o,B.o");
		return XL_EXIT_USAGE;
	}
	if (!a->store && (a->db || a->label)) {
		xl_usage_error(&run_spec, "--db and --label go with --store");
		return XL_EXIT_USAGE;
	}
	if (n * a->nsizes + a->cal > MAX_ROWS) {
		xl_usage_error(&run_spec, "--rows x --sizes: %d rows (accepted: at most %d)",
			       n * a->nsizes + a->cal, MAX_ROWS);
		return XL_EXIT_USAGE;
	}
	return XL_CMD_LAB_GO;
}
