/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lab_cli.h - between src/cmd/cmd_lab.c (`lab` and its dispatch, `lab run`),
 * src/cmd/cmd_lab_opts.c (`lab run`'s options and checks) and
 * src/cmd/cmd_lab_setup.c (`lab setup`, `lab teardown`); `lab run`'s
 * plan is the library's (xdplab/labplan.h). CLI only.
 */
#ifndef XDPLAB_CMD_LAB_CLI_H
#define XDPLAB_CMD_LAB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lab_dut.h"
#include "ndr_cli.h"
#include "profile_cli.h"
#include "progress_cli.h"
#include "xdplab/lab.h"
#include "xdplab/hostrec.h"
#include "xdplab/labrun.h"
#include "xdplab/labrows.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/labrun_ndr.h"
#include "xdplab/report.h"
#include "xdplab/userprog.h"

#define MAX_SIZES 8
/* Most rows of one run's table. */
#define MAX_ROWS 256

/* `lab run`'s options as parsed. */
struct run_args {
	struct xl_labrun_opts o;
	uint32_t sizes[MAX_SIZES];
	int nsizes;
	bool rows[XL_LABROWS_MAX]; /* by index of xl_labrow() */
	bool with_monitor, extra, sensitivity, latency;
	uint64_t extra_ns, lat_delay_ns;
	int wiring;
	int mode;
	const char *json;            /* --json: a file; with --aa its directory */
	int aa;                      /* --aa N: N separate runs, 0 without */
	bool store;             /* --store: append the run to the store */
	const char *db, *label; /* --db, --label */
	struct xl_cmd_prof prof;
	struct lab_dut_args d;
	struct xl_userprog_opts uo;
	const char *maps[XL_USERPROG_MAX_FILLS];
	char ab_buf[512];
	const char *ab[2];
	/* Derived by xl_cmd_lab_run_args(): */
	struct xl_lab_opts lab_opts; /* the lab the rows need (out pairs) */
	int cal;                     /* the watch-cost rows (--with-monitor), 0: none */
	char prog_func[24];          /* --prog's function name */
	char ab_func[2][24];         /* --ab's two function names */
	/* Set by lab run before the rows with --store: the store, open. */
	struct xl_store *db_store;
	/* Why the rows have no hardware counts ("": the PMU counts; xdplab/pmu.h). */
	char pmu_reason[160];
	/* What each repetition records of the host: the plans' companion (xdplab/hostrec.h). */
	struct xl_hostrec host;
	/*
	 * --ndr: after the rows, `xdplab ndr`'s search of each row asked that
	 * has one, trials of --seconds (ndr_cli.h); --loss, --pdr, --resolution
	 * in percent (@pct.set: one of them was given).
	 */
	bool ndr;
	struct xl_cmd_ndr_pcts pct;
	struct xl_ndr_row_opts no;
};

/** xl_cmd_lab_run_spec() - `lab run`'s option table and name, for its messages. */
const struct xl_cmd_spec *xl_cmd_lab_run_spec(void);

/* xl_cmd_lab_run_args()'s "go on": not an exit status. */
#define XL_CMD_LAB_GO (-1)

/**
 * xl_cmd_lab_run_args() - `lab run`'s arguments (@argv[0] is "run") into
 * @a: defaults, options, and the checks that refuse a run before a lab is
 * made (src/cmd/cmd_lab_opts.c). Errors are one line on stderr.
 * Return: XL_CMD_LAB_GO to run, else the exit status (XL_EXIT_OK after
 * --help, XL_EXIT_USAGE, XL_EXIT_RUNTIME when an object cannot be read).
 */
int xl_cmd_lab_run_args(int argc, char **argv, struct run_args *a);

/**
 * xl_cmd_lab_setup() - `xdplab lab setup [options]`; @argv[0] is "setup".
 * Return: an exit status (XL_EXIT_OK, XL_EXIT_USAGE, XL_EXIT_RUNTIME).
 */
int xl_cmd_lab_setup(int argc, char **argv);

/** xl_cmd_lab_teardown() - `xdplab lab teardown TAG|--all`; as xl_cmd_lab_setup(). */
int xl_cmd_lab_teardown(int argc, char **argv);

/**
 * xl_cmd_lab_aa() - `lab run --aa N` (src/cmd/cmd_lab_aa.c): N separate
 * `lab run`s of @argv's options (@argv[0] is "run"; --aa and --json left
 * out, --json DIR/run-I.json put in), each in its own process with its own
 * lab, then the A/A calibration of their files into DIR/calibration.json
 * and its table on stdout. Return: an exit status.
 */
int xl_cmd_lab_aa(int argc, char **argv, const struct run_args *a);

#endif /* XDPLAB_CMD_LAB_CLI_H */
