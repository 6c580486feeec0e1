/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file compare_runs.h
 * Several runs a side (`xdplab compare BASE.json... -- NEW.json...`): the
 * run is the unit. Each run's summary of a row is the median of its
 * repetitions of the deciding figure; the sides' summaries are compared by
 * the exact permutation test over the run labels (xdplab/permtest.h), so
 * repetitions, which share their run's host state, enter only through
 * their run. Pure code but xl_cmp_load_side() (compare_load.c), which
 * reads a side's files; docs/compare.md "Several runs a side".
 */
#ifndef XDPLAB_COMPARE_RUNS_H
#define XDPLAB_COMPARE_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "xdplab/compare.h"
#include "xdplab/permtest.h"
#include "xdplab/stats.h"

/** Most runs a side. */
#define XL_CMP_MAX_RUNS XL_PERM_MAX

/**
 * struct xl_cmp_mrow - one row across the runs.
 * @id: its identity (the first run's row that has it; it points into the
 *   files). @status: XL_CMP_PAIRED (compared), XL_CMP_NOT_MEASURED (no
 *   repetition on a side: @reason), XL_CMP_BASE_ONLY / XL_CMP_NEW_ONLY (in
 *   no run of the other side). @reason: also a rate that fell to or rose
 *   from 0 pps (as struct xl_cmp_row's).
 * @nb/@nn: runs a side with the row measured (a run may lack a row).
 * @on_cpu: the deciding figure is DUT CPU ns/packet (the row was
 *   generator-bound in some run of either side and every repetition has a
 *   CPU figure), else ns/packet (1e9/pps): decided once per row.
 * @bsum/@nsum: each run's median of its repetitions' deciding figure, ns.
 * @base_mpps/@new_mpps: the median over the side's runs of their median
 *   Mpps (shown, not tested). @base_ns/@new_ns: the sides' means of @bsum,
 *   @nsum. @sd_between: the pooled SD of the run summaries within each side
 *   (NAN with fewer than 3 runs); @sd_within: the pooled SD of the
 *   repetitions within their runs (NAN with one repetition a run); @mdd:
 *   xl_min_detectable() of @sd_between (NAN when it is).
 * @test: the permutation test of @nsum against @bsum (@test.estimate: new
 *   - base, ns; positive slower). @tested: @test was run (not when a run's
 *   summary is infinite: a rate of 0 pps). @too_few: @test.min_p >= alpha.
 * @verdict: XL_CMP_TOO_FEW when @too_few, else xl_cmp_decide() on @test's
 *   p and estimate; a rate that fell to or rose from 0 pps decides as in
 *   xl_cmp_row_compare().
 * @corrected/@ctl_ref_ns: as struct xl_cmp_row's: every figure above is
 *   relative to the host-speed control, scaled to the median of the row's
 *   controls in every run of both sides.
 * @prog: every figure above is the program's own time per run, ns
 *   (XL_CMP_FIG_PROG: every measured run of the row has it; one value a run,
 *   so @sd_within is NAN); @on_cpu is then set.
 */
struct xl_cmp_mrow {
	const struct xl_cmp_rowdata *id;
	enum xl_cmp_status status;
	char reason[160];
	int nb, nn;
	bool on_cpu, tested, too_few;
	double bsum[XL_CMP_MAX_RUNS], nsum[XL_CMP_MAX_RUNS];
	double base_mpps, new_mpps, base_ns, new_ns;
	double sd_between, sd_within, mdd, ctl_ref_ns;
	bool corrected, prog;
	struct xl_perm_result test;
	enum xl_cmp_verdict verdict;
};

/**
 * struct xl_cmp_mresult - the rows of several runs a side compared.
 * @rows/@nrows: in the order of first appearance (the first base run's
 *   rows, then rows first seen in later runs; allocated,
 *   xl_cmp_mresult_free()). @paired/@compared/@regressions/@improvements/
 *   @too_few as in struct xl_cmp_result. @cross_machine: host, CPU model
 *   or CPU count differ between any two runs. @ceiling_moved/@ceiling_pct:
 *   a gen-ceiling row was flagged; its change of the median Mpps in %.
 */
struct xl_cmp_mresult {
	struct xl_cmp_mrow *rows;
	int nrows, paired, compared, regressions, improvements, too_few;
	bool cross_machine, ceiling_moved;
	double ceiling_pct;
};

/**
 * xl_cmp_runs_check() - whether @n files (the runs of both sides) can be
 * compared as runs of one set-up: every run has a row; the files'
 * repetitions per row, window, warm-up and lab wiring agree; a row's
 * wiring, generator engine, DUT CPU time source (when both say) and number
 * of repetitions (when both have some) agree in every run that has it.
 * On failure one line into @err (@errlen bytes) naming the row, the two
 * files and the two values. Return: 0, -EINVAL, -ENOMEM.
 */
int xl_cmp_runs_check(const struct xl_cmp_file *files, int n, char *err, size_t errlen);

/**
 * xl_cmp_runs() - compare runs @files[0 .. @nbase) (BASE) with
 * @files[@nbase .. @nbase + @nnew) (NEW), which must outlive @out and have
 * passed xl_cmp_runs_check(); 1..XL_CMP_MAX_RUNS a side. Rows pair across
 * all files on the exact identity (as xl_cmp_run()). @o: alpha and the
 * threshold, as for two files. Return: 0, -EINVAL (a side's count out of
 * range), -ENOMEM.
 */
int xl_cmp_runs(const struct xl_cmp_file *files, int nbase, int nnew, const struct xl_cmp_opts *o,
		struct xl_cmp_mresult *out);

/**
 * xl_cmp_run_summary() - one run's summary of a row, as several runs a
 * side take it (the run is the unit): over its @n repetitions (at most
 * XL_MAX_REPS), the median, smallest and largest of DUT CPU ns/packet
 * (@cpu_ns) when @on_cpu, else of ns/packet (1e9/@pps; a repetition at 0
 * pps counts as infinitely slow). xl_cmp_runs() takes each run's median
 * so, and `xdplab history` each stored run's (xdplab/trend.h).
 * Return: the summary, ns (all zero when @n is 0).
 */
struct xl_summary xl_cmp_run_summary(const double *pps, const double *cpu_ns, int n, bool on_cpu);

/**
 * xl_cmp_load_side() - the runs of one side of a comparison, as the
 * command line names them: each of the @n @paths a results file, or a
 * directory of them: every "*.json" in it but calibration.json (names
 * starting with '.' aside), in the order of their names (strcmp). Each is
 * read with xl_cmp_load() into @f[*@nf ...] (at most @cap in all, counting
 * the files already there), and *@nf counts it; the files read before a
 * failure stay in @f for the caller to free (xl_cmp_file_free()).
 * @calib: when not NULL and still "", the path of the first
 * calibration.json (lab run --aa's A/A calibration) met in a directory, in
 * @calib_len bytes.
 * On error one line into @err (@errlen bytes) naming the path.
 * Return: 0; -E2BIG (more than @cap files: "PATH: more than
 * XL_CMP_MAX_RUNS runs a side"), -ENODATA (a directory without a results
 * file), opendir()'s -errno, -ENOMEM, or xl_cmp_load()'s error.
 */
int xl_cmp_load_side(char *const *paths, int n, struct xl_cmp_file *f, int cap, int *nf,
		     char *calib, size_t calib_len, char *err, size_t errlen);

/**
 * xl_cmp_file_keep() - keep only the rows and latency rows of @f whose
 * name is one of the comma-separated @names (exact names: "drop/no-touch,
 * prog/xdp_work"), in their order: bisect-step's --row.
 * Return: the rows and latency rows kept (0: none of @names is in @f).
 */
int xl_cmp_file_keep(struct xl_cmp_file *f, const char *names);

/** xl_cmp_mresult_free() - free @r's rows. */
void xl_cmp_mresult_free(struct xl_cmp_mresult *r);

#endif /* XDPLAB_COMPARE_RUNS_H */
