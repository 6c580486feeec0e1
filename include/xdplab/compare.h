/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file compare.h
 * Comparing two results files (`xdplab compare BASE NEW`): reading them
 * (any document of the xdplab.*\/1 schema family with a "rows" array),
 * pairing rows by identity, the netdev arithmetic (1e9/new - 1e9/base ns
 * per packet), the Mann-Whitney U test over the repetitions and a verdict
 * per row. Pure code apart from xl_cmp_load(); printing is the command's.
 * docs/compare.md describes the method.
 */
#ifndef XDPLAB_COMPARE_H
#define XDPLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "xdplab/env.h"
#include "xdplab/report.h"
#include "xdplab/stats.h"

/* ---- statistics ---- */

/**
 * struct xl_utest - a two-sided Mann-Whitney U test of samples x and y.
 * @n1/@n2: sample sizes. @u: U of x: pairs with x > y, plus 0.5 per tie
 *   (0..n1*n2). @p: two-sided p-value, exact (see xl_mann_whitney()).
 * @ties: some value occurs more than once in the pooled samples.
 */
struct xl_utest {
	size_t n1, n2;
	double u, p;
	bool ties;
};

/**
 * xl_mann_whitney() - two-sided Mann-Whitney U test of @x (@n1 values)
 * against @y (@n2 values); neither is modified.
 *
 * The p-value is exact for every size accepted (1..XL_MAX_REPS a side):
 * the null distribution of the rank sum is counted over all C(n1+n2, n1)
 * ways to split the pooled values, conditional on their ties (midranks),
 * by dynamic programming over the tie groups. That is the distribution
 * Go's benchstat uses for small samples (golang.org/x/perf, after Klotz
 * 1966, "The Wilcoxon, ties, and the computer", JASA 61:772), computed our
 * own way; benchstat switches to a normal approximation above 50 (20 with
 * ties) values a side, which our sizes never reach. Two-sided p is twice
 * the smaller tail, P(U <= u) or P(U >= u), at most 1 (benchstat: twice
 * the lower tail of the smaller U; the same when the distribution is
 * symmetric, which it is without ties). All values equal: p = 1.
 * Return: 0, or -EINVAL when a size is 0 or above XL_MAX_REPS.
 */
int xl_mann_whitney(const double *x, size_t n1, const double *y, size_t n2,
		    struct xl_utest *out);

/**
 * xl_mann_whitney_min_p() - the smallest two-sided p-value any @n1 vs @n2
 * samples can give (complete separation, no ties): 2 / C(n1+n2, n1), at
 * most 1. 3 vs 3: 0.1, so such a comparison can never reach p < 0.05.
 */
double xl_mann_whitney_min_p(size_t n1, size_t n2);

/**
 * xl_mann_whitney_n_needed() - the smallest n such that n vs n repetitions
 * can reach p < @alpha (xl_mann_whitney_min_p(n, n) < @alpha): 4 for 0.05,
 * 5 for 0.01. Return: n, or 0 when even XL_MAX_REPS a side cannot.
 */
size_t xl_mann_whitney_n_needed(double alpha);

/**
 * xl_delta_ns_per_pkt() - the netdev arithmetic: 1e9/@new_pps -
 * 1e9/@base_pps, ns per packet (positive: each packet takes longer, a
 * regression). 54,052,300 vs 33,420,619 rx/s: +11.42 ns. Return: 0 when
 * either rate is <= 0.
 */
double xl_delta_ns_per_pkt(double base_pps, double new_pps);

/* ---- results files ---- */

/**
 * struct xl_cmp_rowdata - one row of a results file, as compare needs it.
 * Identity: @name (the "name", or "benchmark" field), @op (packet
 * operation, "" none), @size (bytes, 0 none), @mode, @wiring, @engine
 * ("" when the file has none). @cpu_source: where its DUT CPU time came
 * from ("softirq-tracepoint", "proc-stat"...; "" in older files).
 * @verdict: the file's verdict ("valid",
 * "generator-bound", "ceiling", "n/a"); @note its note.
 * @nreps values per repetition: @pps (frames/s), @cpu_ns (DUT CPU ns per
 * packet, 0 when not measured), @ctl_ns (the host-speed control measured
 * just before the repetition, ns per run: "host_ctl_ns", docs/results.md;
 * 0 when not measured). @mpps: median/min/max of @pps in Mpps.
 */
struct xl_cmp_rowdata {
	char name[48], op[24], mode[16], wiring[16], engine[16], verdict[24];
	char cpu_source[32];
	char note[160];
	unsigned int size;
	int nreps;
	double pps[XL_MAX_REPS], cpu_ns[XL_MAX_REPS], ctl_ns[XL_MAX_REPS];
	struct xl_summary mpps;
	double prog_ns;
};

/**
 * struct xl_cmp_file - a results file read by xl_cmp_load().
 * @path: as given. @schema/@date/@git: the top-level fields ("" absent).
 * @env: the "machine" object (fields absent in older files are "" / -1;
 *   @env.cpus 0); @have_vulns: it had a "vulnerabilities" object.
 * @reps/@seconds/@warmup: the "config" object (0 absent); @wiring its
 *   "wiring" ("" absent).
 * @rows/@nrows: the rows (allocated; xl_cmp_file_free()).
 * @lat/@nlat: the latency rows, read by their field table (struct
 *   xl_lat_rowrec, xdplab/report.h; allocated; NULL/0 when the file has none).
 */
struct xl_cmp_file {
	char path[256], schema[64], date[32], git[48], wiring[16];
	struct xl_env env;
	bool have_vulns;
	int reps;
	double seconds, warmup;
	struct xl_cmp_rowdata *rows;
	int nrows;
	struct xl_lat_rowrec *lat;
	int nlat;
};

/**
 * xl_cmp_load() - read @path into @f. A file is accepted when it is a JSON
 * object whose "schema" is "xdplab.NAME/1" and which has a "rows" array;
 * rows are identified by their fields, not their position, and unknown
 * fields are ignored. On error, @err (@errlen bytes) gets one line naming
 * the file and the cause. Return: 0, -ENOENT (cannot open, or a directory:
 * errno's text),
 * -EINVAL (not JSON, not an xdplab results file, or two rows, or two
 * latency rows, of the same identity: the pairing would be ambiguous; the
 * message names both rows and the identity), -EPROTO (another schema
 * version), -ENOMEM.
 */
int xl_cmp_load(const char *path, struct xl_cmp_file *f, char *err, size_t errlen);

struct json_t;

/**
 * xl_cmp_load_doc() - xl_cmp_load(), and on success the parsed document
 * in *@docp (jansson's; the caller json_decref()s it), for a reader that
 * wants fields xl_cmp_file does not keep without parsing the file again.
 * On error *@docp is untouched. Return: as xl_cmp_load().
 */
int xl_cmp_load_doc(const char *path, struct xl_cmp_file *f, struct json_t **docp, char *err,
		    size_t errlen);

/**
 * xl_cmp_from_doc() - xl_cmp_load() of a document already parsed: @doc
 * (jansson's; stays the caller's, @f keeps no reference into it) read into
 * @f under the name @path (a file's path, or "store run 12": @f->path and
 * the messages say it). The store (xdplab/store.h) reads its runs so.
 * Return: as xl_cmp_load() but never -ENOENT.
 */
int xl_cmp_from_doc(const char *path, struct json_t *doc, struct xl_cmp_file *f, char *err,
		    size_t errlen);

/** xl_cmp_file_free() - free @f's rows (not @f). */
void xl_cmp_file_free(struct xl_cmp_file *f);

/* ---- the comparison ---- */

/** What became of a row. */
enum xl_cmp_status {
	XL_CMP_PAIRED,         /**< in both, compared */
	XL_CMP_NOT_COMPARABLE, /**< in both, set-up differs (@reason) */
	XL_CMP_NOT_MEASURED,   /**< in both, no repetitions on a side */
	XL_CMP_BASE_ONLY,      /**< in BASE only */
	XL_CMP_NEW_ONLY,       /**< in NEW only */
};

/** A row's verdict. */
enum xl_cmp_verdict {
	XL_CMP_NONE,        /**< not compared */
	XL_CMP_SAME,        /**< "~": no significant change beyond the threshold */
	XL_CMP_REGRESSION,  /**< significantly slower, by more than the threshold */
	XL_CMP_IMPROVEMENT, /**< significantly faster, by more than the threshold */
	XL_CMP_TOO_FEW,     /**< cannot tell: the sizes cannot reach p < alpha */
};

/** The default significance level: compare's --alpha and the report's. */
#define XL_CMP_ALPHA_DEFAULT 0.05
/* The same as text, for static strings (--alpha's help). */
#define XL_CMP_STR_(x) #x
#define XL_CMP_STR(x) XL_CMP_STR_(x)
#define XL_CMP_ALPHA_DEFAULT_TEXT XL_CMP_STR(XL_CMP_ALPHA_DEFAULT)

/**
 * enum xl_cmp_figure - which figure a row is tested on (compare --figure).
 * The raw figure is the repetitions' ns/packet (or DUT CPU ns/packet); the
 * corrected one is each repetition's figure relative to its host-speed
 * control (@ctl_ns of struct xl_cmp_rowdata), scaled to one reference for
 * the comparison: the median of every control of the row on both sides,
 * so the estimate stays in ns/packet "as if the host had run at that
 * speed around every window". Which flags less on a host is measured by
 * its A/A calibration (xdplab/calib.h), not assumed (issue 19 item 2).
 */
enum xl_cmp_figure {
	XL_CMP_FIG_AUTO,      /**< raw, but corrected for the rows whose A/A calibration (@calib) flagged fewer on it */
	XL_CMP_FIG_RAW,       /**< raw everywhere */
	XL_CMP_FIG_CORRECTED, /**< corrected wherever every repetition of the row has the control */
	XL_CMP_FIG_PROG,      /**< the program's own time per run (@prog_ns of struct xl_cmp_rowdata) wherever every run of the row has it, one value a run; the rest raw */
};

struct xl_calib;

/**
 * struct xl_cmp_opts - @alpha: significance level, 0 < alpha < 1 (0.05);
 * @threshold_ns: a change must exceed this many ns/packet (of the deciding
 * metric) to be a regression or improvement (0: any significant change).
 * @no_interval: xl_cmp_runs() leaves out the permutation test's interval
 * (p only: the A/A calibration's many splits; xdplab/compare_runs.h).
 * @figure: which figure rows are tested on (XL_CMP_FIG_AUTO, the zero
 * value, is raw without @calib). @calib: an A/A calibration of the same
 * host and set-up (the caller checks with xl_calib_matches(); NULL none),
 * borrowed; with XL_CMP_FIG_AUTO it picks the corrected figure per row
 * (xl_calib_prefers_corrected()).
 */
struct xl_cmp_opts {
	double alpha, threshold_ns;
	bool no_interval;
	enum xl_cmp_figure figure;
	const struct xl_calib *calib;
};

/**
 * xl_cmp_figure_name() - "auto", "raw", "corrected", "prog" (compare --figure's
 * words); "" for a value out of range.
 */
const char *xl_cmp_figure_name(enum xl_cmp_figure f);

/**
 * struct xl_cmp_row - one compared row.
 * @base/@new: the rows (NULL on the side it is missing from; they point
 *   into the xl_cmp_file arrays). @status, @reason (why not comparable or
 *   not measured, "" otherwise).
 * For XL_CMP_PAIRED: @delta_mpps (new - base median, Mpps) and
 * @delta_pct (% of base); @delta_ns (xl_delta_ns_per_pkt() of the medians);
 * @base_cpu/@new_cpu (median DUT CPU ns/packet, 0 unmeasured) and
 * @delta_cpu_ns. @on_cpu: the verdict rests on the DUT CPU ns/packet, not
 *   on the rate, because a side was generator-bound. @test: Mann-Whitney
 *   over the per-repetition ns/packet (1e9/pps) or, with @on_cpu, CPU
 *   ns/packet (a repetition at 0 pps counts as infinitely slow). @delta:
 *   the deciding difference (@delta_ns or @delta_cpu_ns). @too_few:
 *   @test's sizes cannot reach p < alpha (xl_mann_whitney_min_p() >=
 *   alpha). @verdict: XL_CMP_TOO_FEW when @too_few; but a rate that fell
 *   to 0 pps (a new repetition at 0, none in base) is XL_CMP_REGRESSION
 *   and one that rose from 0 (the other way round) XL_CMP_IMPROVEMENT,
 *   whatever the test says, with @reason "rate fell to 0 pps in 3 of 3
 *   new repetitions" / "rate rose from 0 pps (0 in 3 of 3 base
 *   repetitions)"; zeros on both sides leave the test to decide and
 *   @reason says how many.
 * @corrected: the figures above (deltas, medians, test) are the corrected
 *   ones (enum xl_cmp_figure), at the reference @ctl_ref_ns (ns per run of
 *   the control); false: raw, @ctl_ref_ns 0.
 * @prog: the figures above are the program's own time per run
 *   (XL_CMP_FIG_PROG; one value a side: @too_few), @on_cpu set.
 */
struct xl_cmp_row {
	const struct xl_cmp_rowdata *base, *new;
	enum xl_cmp_status status;
	char reason[160];
	double delta_mpps, delta_pct, delta_ns;
	double base_cpu, new_cpu, delta_cpu_ns, delta, ctl_ref_ns;
	bool on_cpu, too_few, corrected, prog;
	struct xl_utest test;
	enum xl_cmp_verdict verdict;
};

/**
 * struct xl_cmp_result - the comparison of two files.
 * @rows/@nrows: BASE's rows in its order, then NEW's unpaired rows
 *   (allocated; xl_cmp_result_free()). @paired: rows in both files
 *   (any status but *_ONLY). @compared/@regressions/@improvements/@too_few:
 *   counts of XL_CMP_PAIRED rows (@too_few: verdict XL_CMP_TOO_FEW). So
 *   @nrows - @paired rows are in one file only, @paired - @compared not
 *   comparable or not measured, and @compared - @regressions -
 *   @improvements - @too_few "~". @cross_machine: host, CPU model or CPU
 *   count differ (all known). @ceiling_moved: a compared "gen-ceiling"
 *   row (the generator alone, no change under test in it) was flagged: the
 *   host itself changed between the runs; @ceiling_pct: its delta Mpps in %
 *   (the largest in size when there are several).
 */
struct xl_cmp_result {
	struct xl_cmp_row *rows;
	int nrows, paired, compared, regressions, improvements, too_few;
	bool cross_machine, ceiling_moved;
	double ceiling_pct;
};

/**
 * xl_cmp_run() - compare @base with @new (both stay owned by the caller
 * and must outlive @out). Rows pair on the exact identity (name, packet
 * operation, size, mode, wiring, engine) first; rows left pair on name,
 * operation, size and mode and are "not comparable" (wiring or engine
 * differ). A pair is also not comparable when the files' repetitions
 * (config.reps), window (config.seconds) or warm-up differ, or when the
 * two rows have different numbers of repetitions.
 * Return: 0, -ENOMEM.
 */
int xl_cmp_run(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
	       const struct xl_cmp_opts *o, struct xl_cmp_result *out);

/** xl_cmp_result_free() - free @r's rows. */
void xl_cmp_result_free(struct xl_cmp_result *r);

/**
 * struct xl_cmp_geomean - benchstat's geomean row: the geometric means of
 * the compared rows' medians, a summary of a whole comparison (the
 * geometric mean of the ratios new/base is the ratio of the means, so
 * every row weighs the same whatever its rate).
 * @n: rows in it: XL_CMP_PAIRED rows whose median rates are > 0 on both
 *   sides. @base_mpps/@new_mpps: their medians' geometric means (Mpps).
 * @delta_pct: 100 * (@new_mpps / @base_mpps - 1).
 * @base_cpu/@new_cpu: the geometric means of their DUT CPU ns/packet when
 *   each of the @n rows has it on both sides, else 0 (a row tested on the
 *   program's own time, struct xl_cmp_row.prog, has none: it would mix
 *   program times into a mean of whole-path costs).
 */
struct xl_cmp_geomean {
	int n;
	double base_mpps, new_mpps, delta_pct;
	double base_cpu, new_cpu;
};

/**
 * xl_cmp_geomean() - @res's geomean row into @g (compare.c's rows; as
 * golang.org/x/perf's benchstat prints under a table of more than one row).
 * Return: 0, or -ENODATA when no row qualifies (@g->n is 0).
 */
int xl_cmp_geomean(const struct xl_cmp_result *res, struct xl_cmp_geomean *g);

/**
 * xl_cmp_verdict_name() - "regression", "improvement", "~",
 * "too-few-reps", "" (none): compare --json's "verdict".
 */
const char *xl_cmp_verdict_name(enum xl_cmp_verdict v);

/** Whose words xl_cmp_status_word() gives. */
enum xl_cmp_words {
	XL_CMP_WORDS_JSON, /**< compare --json's "status" (docs/compare.md) */
	XL_CMP_WORDS_TEXT, /**< compare's text and markdown tables */
	XL_CMP_WORDS_HTML, /**< the report page, whose NEW is "this run" */
};

/**
 * xl_cmp_status_word() - what a row's status @s is called, in @w's words;
 * the one table of them. XL_CMP_PAIRED: "compared" in JSON, else the
 * verdict @v's name (xl_cmp_verdict_name()), but "too few reps" for
 * XL_CMP_TOO_FEW. The others, JSON / text /
 * HTML: "not-comparable" / "not comparable" / "not comparable",
 * "not-measured" / "not measured" / "not measured", "base-only" / "only in
 * base" / "only in BASE", "new-only" / "only in new" / "only in this run".
 * Return: a static string; "" for a status or @w out of range.
 */
const char *xl_cmp_status_word(enum xl_cmp_status s, enum xl_cmp_verdict v, enum xl_cmp_words w);

/**
 * xl_cmp_row_compare() - compare one pair of rows (@r->base, @r->new set)
 * under @o: fills the deltas, the test and the verdict, sets @r->status to
 * XL_CMP_PAIRED or XL_CMP_NOT_MEASURED. xl_cmp_run() calls it for each
 * comparable pair; `lab run --sensitivity` for its own.
 */
void xl_cmp_row_compare(struct xl_cmp_row *r, const struct xl_cmp_opts *o);

/**
 * struct xl_cmp_env_row - one line of the environments side by side.
 * @field: what it is ("kernel", "CPU model", "bpf_jit_harden"...).
 * @base/@new: the values as text ("?" when the file does not say).
 * @differs: both are known and differ (a "?" on one side is not marked).
 */
struct xl_cmp_env_row {
	const char *field;
	char base[160], new[160];
	bool differs;
};

/**
 * xl_cmp_env() - the two files' environments side by side into @rows (at
 * most @max): kernel, arch, CPU model, CPUs, host, xdplab commit, date,
 * bpf_jit_enable, bpf_jit_harden, mitigations= on the kernel command line,
 * the vulnerabilities summary ("2 mitigated, 2 vulnerable, 16 not
 * affected") followed by one line per vulnerability whose state differs,
 * the cpufreq governor, boost, SMT and SMT active, the lab's IRQs (issue
 * 19: what makes noise), the lab's wiring, repetitions, window and
 * warm-up. Return: lines filled.
 */
int xl_cmp_env(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
	       struct xl_cmp_env_row *rows, int max);

/* ---- latency rows ---- */

/** The latency figures tested per repetition: p50 and p99. */
enum xl_cmp_lat_metric {
	XL_CMP_LAT_P50,
	XL_CMP_LAT_P99,
	XL_CMP_LAT_NTESTS
};

/** The sequence books whose rise from 0 is always reported (bits). */
enum {
	XL_CMP_LAT_LOST = 1 << 0,
	XL_CMP_LAT_GAPS = 1 << 1,
	XL_CMP_LAT_REORDERED = 1 << 2,
	XL_CMP_LAT_DUPLICATES = 1 << 3,
};

/**
 * struct xl_cmp_latpair - one pair of latency rows.
 * @base/@new: the rows (NULL on the side a row is missing from; they
 *   point into the files' @lat arrays). @status, @reason as struct
 *   xl_cmp_row's.
 * For XL_CMP_PAIRED: @pct_p50/@pct_p99/@pct_p999/@pct_max: the change of
 *   the medians in % of base (0 when base's is 0). @test[m]: Mann-Whitney
 *   U over the repetitions' p50 or p99 ns (x = new, y = base); @mverdict[m]
 *   its verdict (p < alpha and new - base median beyond the threshold, ns);
 *   @too_few: the sizes cannot reach p < alpha; @verdict: XL_CMP_TOO_FEW
 *   when @too_few, else regression when either metric regressed, else
 *   improvement when either improved, else ~.
 * @rose: XL_CMP_LAT_* bits: the count was 0 in every base repetition and
 *   is above 0 in a new one (reported whatever the test says; also when
 *   the pair is not comparable). @base_sum/@new_sum: lost, gaps,
 *   reordered, duplicates summed over each side's repetitions;
 *   @new_reps_with: in how many new repetitions each was above 0.
 */
struct xl_cmp_latpair {
	const struct xl_lat_rowrec *base, *new;
	enum xl_cmp_status status;
	char reason[160];
	double pct_p50, pct_p99, pct_p999, pct_max;
	struct xl_utest test[XL_CMP_LAT_NTESTS];
	enum xl_cmp_verdict mverdict[XL_CMP_LAT_NTESTS];
	bool too_few;
	enum xl_cmp_verdict verdict;
	unsigned int rose;
	unsigned long long base_sum[4], new_sum[4];
	int new_reps_with[4];
};

/**
 * struct xl_cmp_latresult - the latency rows of two files compared.
 * @pairs/@npairs: BASE's latency rows in its order, then NEW's unpaired
 *   ones (allocated; xl_cmp_latresult_free()). @paired: in both;
 *   @compared/@regressions/@improvements/@too_few over XL_CMP_PAIRED (the
 *   other counts follow as in struct xl_cmp_result; @too_few: verdict
 *   XL_CMP_TOO_FEW);
 *   @rose: pairs whose @rose is not 0.
 */
struct xl_cmp_latresult {
	struct xl_cmp_latpair *pairs;
	int npairs, paired, compared, regressions, improvements, too_few, rose;
};

/**
 * xl_cmp_lat_run() - pair and compare the latency rows of @base and @new
 * (both must outlive @out). Rows pair on name (path and low/load), size
 * and wiring; rows left pair on name and size and are not comparable
 * (wiring differs). A pair is also not comparable when the rate, the
 * window (seconds), the generator's batch, the receiver's added delay or
 * the rows' numbers of repetitions differ; not measured when a side has
 * no repetition. The per-repetition p50 and p99 are tested with
 * xl_mann_whitney() at @o->alpha, @o->threshold_ns applying to the
 * difference of the medians in ns of latency (docs/compare.md).
 * Return: 0 (also when neither file has latency rows: @out empty), -ENOMEM.
 */
int xl_cmp_lat_run(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
		   const struct xl_cmp_opts *o, struct xl_cmp_latresult *out);

/** xl_cmp_latresult_free() - free @r's pairs. */
void xl_cmp_latresult_free(struct xl_cmp_latresult *r);

/** xl_cmp_lat_book_name() - "lost", "gaps", "reordered", "duplicates" for bit index 0..3. */
const char *xl_cmp_lat_book_name(int i);

/**
 * xl_cmp_lat_rose_append() - append "; NAME rose from 0" to the string in
 * @buf (@len bytes, cut there, always terminated) for each XL_CMP_LAT_* bit
 * set in @rose, in bit order: the verdict column of compare's latency
 * table and of the report's.
 */
void xl_cmp_lat_rose_append(char *buf, size_t len, unsigned int rose);

#endif /* XDPLAB_COMPARE_H */
