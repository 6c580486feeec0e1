// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab lab setup|teardown|run: the veth lab and the lab table. This file
 * owns `lab run` (the lab, the table and the JSON) and the subcommand
 * dispatch; what it measures, in order, is the library's plan
 * (xdplab/labplan.h: the rows at each size, --ab's, --prog's,
 * --sensitivity's and --latency's; --ndr's searches are
 * xl_ndr_rows_search()); `lab run`'s options and checks are in
 * cmd_lab_opts.c, `lab setup` and `lab teardown` in cmd_lab_setup.c,
 * --dut's set-up in cmd_lab_dut.c.
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
#include "run_opts.h"
#include "json_cli.h"
#include "lab_cli.h"
#include "lab_dut.h"
#include "ndr_cli.h"
#include "profile_cli.h"
#include "xdplab/gen.h"
#include "xdplab/compare.h"
#include "xdplab/bench.h"
#include "xdplab/genremote.h"
#include "xdplab/hostrec.h"
#include "xdplab/env.h"
#include "xdplab/lab.h"
#include "xdplab/labplan.h"
#include "xdplab/labrun.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/labrun_xsk.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/pmu.h"
#include "xdplab/report.h"
#include "xdplab/softirq_time.h"
#include "xdplab/store.h"
#include "xdplab/userprog.h"
#include "xdplab/abtest.h"

/* ---- lab run ---- */

/*
 * The veth lab the rows run in, wired as asked, and the table's header
 * into @header (@len bytes). Return: 0, or -1 (logged).
 */
static int lab_open(struct run_args *a, const struct xl_labplan *p, struct xl_lab *lab,
		    char *header, size_t len)
{
	if (xl_lab__create(lab, &a->lab_opts))
		return -1;
	if (xl_lab__wire(lab, a->wiring, a->o.napi_cpu)) {
		xl_warn("threaded NAPI unavailable; measuring with softirq wiring");
		xl_lab__wire(lab, XL_WIRING_SOFTIRQ, -1);
	}
	xl_labplan_header(p, lab, header, len);
	return 0;
}

/*
 * The results document, once: into --json's file (opened before the run)
 * and, with --store, the store (not an interrupted run's: xl_store NULL
 * then). Sets *@ret when either fails.
 */
static void results(struct run_args *a, const struct xl_report_meta *meta,
		    const struct xl_row_result *rows, int n, int *ret)
{
	struct xl_afile *out = a->json ? xl_cmd_out_open(a->json) : NULL;
	FILE *m;
	char *text = NULL;
	size_t len = 0;
	int err;

	m = open_memstream(&text, &len);
	err = m ? xl_report_json_write(m, meta, rows, n) : -errno;
	if (m && fclose(m) && !err)
		err = -ENOMEM;
	if (err) {
		xl_err("cannot write %s: %s", a->json ? a->json : "the results", strerror(-err));
		xl_cmd_out_abort(out);
		*ret = XL_EXIT_RUNTIME;
		free(text);
		return;
	}
	if (a->json && !out) {
		*ret = XL_EXIT_RUNTIME;
	} else if (out) {
		fwrite(text, 1, len, out->f); /* a failed write is the commit's error */
		if (xl_cmd_out_commit(out))
			*ret = XL_EXIT_RUNTIME;
		else
			fprintf(stderr, "xdplab: results written to %s\n", XL_ESC(a->json));
	}
	if (a->db_store &&
	    xl_cmd_store_text(xl_cmd_lab_run_spec(), a->db_store, text, len, a->label, "lab run",
			      stderr))
		*ret = XL_EXIT_RUNTIME;
	free(text);
}

/*
 * The table, the latency rows, the profiles and --json: what a run (or an
 * interrupted one) prints. Sets *@ret when the JSON cannot be written.
 */
static void report(struct run_args *a, const struct xl_labplan *p, struct xl_lab *lab,
		   struct xl_row_result *rows, int n, const char *header, struct xl_sens_result *sens, int nsens,
		   const struct xl_lat_row *lat, int nlat, const struct xl_ndr_row *ndr, int nndr,
		   int *ret)
{
	struct xl_report_meta meta;
	char lab_tag[48], *extra_json = NULL, irqs[256];
	double ref;

	ref = xl_labplan_print(p, stdout, rows, n, header, lat, nlat, a->ndr ? ndr : NULL, nndr,
			       &a->no);
	snprintf(lab_tag, sizeof(lab_tag), "%s%s", a->d.dut ? "dut:" : "",
		 a->d.dut ? lab->ifname[XL_LAB_DUT] : lab->tag);
	if (a->json || a->db_store) {
		meta = (struct xl_report_meta){ .reps = a->o.reps, .seconds = a->o.seconds_ns / 1e9,
						.warmup = a->o.warmup_ns / 1e9, .git = xl_cmd_git_commit(),
						.lab_tag = lab_tag,
						.wiring = xl_wiring_name(lab->wiring),
						.extra = a->extra, .extra_ns = a->extra_ns,
						.sens = a->sensitivity ? sens : NULL,
						.nsens = nsens, .ctl_ref_ns = ref,
						.ctl_on = a->host.ctl != NULL,
						.pmu_reason = a->pmu_reason[0] ? a->pmu_reason : NULL };
		meta.lab_irqs = xl_lab__irqs(lab, a->d.dut != NULL, irqs, sizeof(irqs),
					     &meta.lab_irqs_note);
		if (xl_labplan_extra_json(a->latency ? lat : NULL, nlat, a->ndr ? ndr : NULL, nndr,
					  &a->no, a->extra ? (double)a->extra_ns : -1, &extra_json)) {
			xl_err("cannot write %s: %s", a->json ? a->json : "the results", strerror(ENOMEM));
			*ret = XL_EXIT_RUNTIME;
		} else {
			meta.extra_json = extra_json;
			results(a, &meta, rows, n, ret);
		}
	}
	free(extra_json);
}

/*
 * What each repetition records of the host (issue 19): the host-speed
 * control loaded (a failure: a warning, its figures null) and whether the
 * PMU counts, said in one line when it does not.
 */
static void host_open(struct run_args *a)
{
	int err = xl_pmu_probe();

	a->pmu_reason[0] = '\0';
	if (err) {
		snprintf(a->pmu_reason, sizeof(a->pmu_reason),
			 "perf_event_open of the instructions counter: %s", strerror(-err));
		fprintf(stderr, "xdplab: no hardware PMU events on this CPU (%s): instructions, cycles, IPC, cache and branch misses per packet are null\n",
			a->pmu_reason);
	}
	xl_hostrec__init(&a->host, !err);
	a->o.companion = &a->host.comp;
	a->o.host = &a->host;
}

static int lab_run(int argc, char **argv)
{
	static struct xl_row_result rows[MAX_ROWS];
	static struct xl_sens_result sens[MAX_SIZES * 4];
	static struct xl_lat_row lat[MAX_SIZES * 2 * XL_LAT_NPATHS];
	static struct xl_ndr_row ndr[MAX_SIZES * XL_LABROWS_MAX];
	static struct run_args a;
	struct xl_labrun_source src;
	struct xl_gen_remote *remote = NULL;
	struct xl_cmd_progress progress;
	struct xl_labrow_progress rp = xl_cmd_progress_rows(&progress);
	struct xl_labplan plan;
	struct xl_lab lab;
	char header[3072];
	bool failed = false;
	int i, s, n = 0, nsens = 0, nlat = 0, nndr = 0, err = 0, ret;

	ret = xl_cmd_lab_run_args(argc, argv, &a);
	if (ret != XL_CMD_LAB_GO)
		return ret;
	if (a.aa)
		return xl_cmd_lab_aa(argc, argv, &a);
	if (a.json && !xl_cmd_out_open(a.json)) /* a bad path fails before the run */
		return XL_EXIT_RUNTIME;
	/* So does a store that cannot be opened. */
	if (a.store && !(a.db_store = xl_cmd_store_open(xl_cmd_lab_run_spec(), a.db, true, &ret)))
		return ret;
	ret = XL_EXIT_OK;
	plan = (struct xl_labplan){ .o = &a.o, .rows = a.rows, .sizes = a.sizes,
				    .nsizes = a.nsizes, .mode = a.mode, .watch = a.with_monitor,
				    .dut = a.d.dut != NULL, .ab = { a.ab[0], a.ab[1] },
				    .ab_func = { a.ab_func[0], a.ab_func[1] }, .uo = &a.uo,
				    .prog_func = a.prog_func, .sensitivity = a.sensitivity,
				    .latency = a.latency, .lat_delay_ns = a.lat_delay_ns,
				    .ndr_searches = a.ndr ? xl_ndr_rows_count(a.rows) : 0,
				    .host = &a.host, .progress = &rp };
	xl_cmd_prof_open(&a.prof);
	a.o.profiler = a.prof.p;
	if (a.d.dut) {
		if (xl_lab_dut_open(&a.d, &a.o, &lab, &src, &remote, header, sizeof(header))) {
			xl_cmd_prof_close(&a.prof);
			xl_store_close(a.db_store);
			return XL_EXIT_RUNTIME;
		}
		a.o.src = &src;
	} else if (lab_open(&a, &plan, &lab, header, sizeof(header))) {
		xl_cmd_prof_close(&a.prof);
		xl_store_close(a.db_store);
		return XL_EXIT_RUNTIME;
	}
	xl_labplan_header_extra(&plan, header, sizeof(header));
	host_open(&a);
	/* Its lines are ours, the names in them (--func, files) data. */
	fprintf(stderr, "%s\n", xl_term_esc((char[4 * sizeof(header)]){ 0 }, 4 * sizeof(header),
					    header, XL_ESC_KEEP_NL));
	xl_cmd_progress_init(&progress, xl_labplan_steps(&plan));
	for (s = 0; s < a.nsizes && !err; s++)
		err = xl_labplan_size(&plan, &lab, s, rows, MAX_ROWS, &n, &failed);
	if (a.sensitivity && err != -EINTR)
		err = xl_labplan_sens(&plan, &lab, sens, sizeof(sens) / sizeof(sens[0]), &nsens,
				      &failed, stderr);
	/* --latency: after the rows, the latency rows (their own table). */
	if (a.latency && err != -EINTR)
		err = xl_labplan_lat(&plan, &lab, lat, sizeof(lat) / sizeof(lat[0]), &nlat, &failed);
	/* --ndr: after them, the zero-loss searches (their own table). */
	if (a.ndr && err != -EINTR)
		err = xl_ndr_rows_search(&lab, &a.o, &a.no, a.rows, a.sizes, a.nsizes, &rp, false,
					 ndr, sizeof(ndr) / sizeof(ndr[0]), &nndr, &failed);
	if (failed)
		ret = XL_EXIT_RUNTIME;
	/*
	 * Each row's meter holds the softirq tracepoints while it measures
	 * and lets go when done (struct xl_meter, XL_METER_SCOPED): none may
	 * hold them now, or the rows after its own paid for them.
	 */
	if (xl_sirq_users())
		xl_warn("softirq tracepoints still held by %d meter(s) after the rows: a meter that was not done (xl_meter_done()); the rows after it ran with them (docs/lab.md)",
			xl_sirq_users());
	if (a.sensitivity)
		xl_labplan_header_sens(&plan, sens, nsens, header, sizeof(header));
	if (err == -EINTR) {
		xl_err("interrupted; partial results follow%s", a.db_store ? " (not stored)" : "");
		ret = XL_EXIT_RUNTIME;
		xl_store_close(a.db_store);
		a.db_store = NULL;
	}
	report(&a, &plan, &lab, rows, n, header, sens, nsens, lat, nlat, ndr, nndr, &ret);
	xl_store_close(a.db_store);
	xl_lab__destroy(&lab);
	xl_gen_remote__free(remote);
	xl_cmd_prof_close(&a.prof);
	xl_hostrec__done(&a.host);
	a.o.companion = NULL;
	a.o.host = NULL;
	for (i = 0; i < n; i++)
		xl_row_free_parts(&rows[i]);
	return ret;
}

int cmd_lab(int argc, char **argv)
{
	static const char *const subs[] = { "setup", "teardown", "run", NULL };
	int ret, sub = xl_cmd_subcommand(argc, argv, "lab", "subcommand", subs,
		"Usage: xdplab lab setup|teardown|run [options]\n"
		"  setup      create a lab that stays (prints its tag and names)\n"
		"  teardown   remove a lab: TAG, or --all\n"
		"  run        the lab table: every XDP row at each size, repetitions, medians\n"
		"'xdplab lab SUB --help' for options.\n", &ret);

	if (sub == 0)
		return xl_cmd_lab_setup(argc - 1, argv + 1);
	if (sub == 1)
		return xl_cmd_lab_teardown(argc - 1, argv + 1);
	if (sub == 2)
		return lab_run(argc - 1, argv + 1);
	return ret;
}
