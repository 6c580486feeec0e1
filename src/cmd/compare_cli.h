/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * compare_cli.h - between src/cmd/cmd_compare.c (`xdplab compare`: its
 * options, reading the files) and src/cmd/cmd_bisect.c (bisect-step, which
 * reads a stored baseline as compare --db does). CLI only: the writers are
 * the library's (xdplab/compare_out.h).
 */
#ifndef XDPLAB_CMD_COMPARE_CLI_H
#define XDPLAB_CMD_COMPARE_CLI_H

#include <stdbool.h>

#include "xdplab/calib.h"
#include "xdplab/compare.h"
#include "xdplab/compare_out.h"
#include "xdplab/compare_runs.h"

/*
 * `compare`'s options as parsed. @v: what the writers are given (--format,
 * --alpha, --threshold-ns, --figure, --calibration's path: given, or a
 * calibration.json found in a directory of runs); @json: --json (then
 * @v.format is XL_CMP_OUT_JSON); @calib: the calibration read, @calib_why
 * what differs when it is not of the runs' host and set-up.
 */
struct compare_args {
	struct xl_cmp_view v;
	bool json, format_given;
	const char *db, *label[2]; /* --db, --base-label, --new-label (docs/store.md) */
	struct xl_calib calib;
	char calib_why[256];
};

struct xl_store;

/**
 * xl_cmp_load_label() - the stored runs of @label (store @s) as one side of
 * a comparison: every run, by date then id, into @f[*@nf...] (the newest
 * XL_CMP_MAX_RUNS when there are more, said on stderr), each named "store
 * run N (label L)"; *@nf counts them. @opt names the option in messages
 * ("--base-label"); @spec the command. compare --db and bisect-step.
 * Return: 0, XL_EXIT_USAGE (no run has @label, or a stored document is not
 * a results file) or XL_EXIT_RUNTIME (the store failed); one line printed.
 */
int xl_cmp_load_label(const struct xl_cmd_spec *spec, struct xl_store *s, const char *label,
		      const char *opt, struct xl_cmp_file *f, int *nf);

#endif /* XDPLAB_CMD_COMPARE_CLI_H */
