/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file calib.h
 * The A/A calibration (`xdplab lab run --aa N`): N separate runs of the same
 * code compared with each other, so every flag is a false alarm. Per row:
 * every pair of runs compared one run a side (xl_cmp_run()) at alpha, and,
 * with N >= 6, the balanced splits of the N runs into two sides compared by
 * the several-runs method (xl_cmp_runs()). Stored as calibration.json
 * (schema xdplab.calibration/1, docs/compare.md "A/A calibration") beside
 * the runs; compare shows a row's rate when the calibration is from the
 * same host and set-up.
 */
#ifndef XDPLAB_CALIB_H
#define XDPLAB_CALIB_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "xdplab/compare.h"

/** The calibration's schema. */
#define XL_CALIB_SCHEMA "xdplab.calibration/1"
/** Runs needed before the balanced splits are counted (3 vs 3 and up). */
#define XL_CALIB_SPLIT_MIN 6
/** Most balanced splits tried; past it, this many drawn from a fixed seed. */
#define XL_CALIB_MAX_SPLITS 200

/**
 * struct xl_calib_row - one row's false alarms.
 * Identity as struct xl_cmp_rowdata's (@name, @op, @size, @mode, @wiring,
 * @engine). @pairs: pairs of runs in which the row was compared one run a
 * side; @pair_flags: of them flagged (regression or improvement);
 * @pair_too_few: its repetitions were too few to reach alpha (no pair can
 * flag: the rate says nothing).
 * @splits/@split_flags: the same over the balanced splits (0/0 below
 * XL_CALIB_SPLIT_MIN runs); @split_too_few: the splits' sides were too few
 * runs to reach alpha (no split can flag: the rate says nothing).
 * @cpairs/@cpair_flags/@csplits/@csplit_flags: the same comparisons tested
 * on the figure corrected by the host-speed control (enum xl_cmp_figure),
 * counted where every run of the pair or split had the control (0/0 when
 * the runs have none: files from before the control, AF_XDP rows...).
 */
struct xl_calib_row {
	char name[48], op[24], mode[16], wiring[16], engine[16];
	unsigned int size;
	int pairs, pair_flags, splits, split_flags;
	int cpairs, cpair_flags, csplits, csplit_flags;
	bool pair_too_few, split_too_few;
};

/**
 * struct xl_calib - an A/A calibration.
 * @host/@cpu_model/@kernel/@cpus: the first run's machine. @reps/@seconds/
 * @warmup/@wiring: the runs' set-up (all alike: xl_cmp_runs_check()).
 * @alpha: the level the runs were compared at. @nruns: runs; @split_base/
 * @split_new: runs a side of the splits (0 without). @date: the first run's.
 * @rows/@nrows: allocated (xl_calib_free()).
 */
struct xl_calib {
	char host[65], cpu_model[128], kernel[65], wiring[16], date[32];
	int cpus, reps, nruns, split_base, split_new;
	double seconds, warmup, alpha;
	struct xl_calib_row *rows;
	int nrows;
};

/**
 * xl_calib_compute() - the calibration of @n runs @files of the same code
 * (checked with xl_cmp_runs_check() by the caller) at @alpha into @out.
 * Return: 0, -EINVAL (@n < 2), -ENOMEM.
 */
int xl_calib_compute(const struct xl_cmp_file *files, int n, double alpha, struct xl_calib *out);

/**
 * xl_calib_save() - @c as JSON (XL_CALIB_SCHEMA) to @path, through a
 * temporary file renamed into place (core/atomicfile.c).
 * Return: 0 or -errno.
 */
int xl_calib_save(const struct xl_calib *c, const char *path);

/**
 * xl_calib_load() - read @path into @c. On error one line into @err
 * (@errlen bytes) naming the file and the cause. Return: 0, -ENOENT (cannot
 * open), -EINVAL (not JSON, or not XL_CALIB_SCHEMA), -ENOMEM.
 */
int xl_calib_load(const char *path, struct xl_calib *c, char *err, size_t errlen);

/**
 * xl_calib_matches() - whether @c was measured on @f's host (host, CPU
 * model, CPUs) and set-up (repetitions, window, warm-up, wiring); when not,
 * the first difference into @why (@len bytes): "host differs: vm vs vm2".
 */
bool xl_calib_matches(const struct xl_calib *c, const struct xl_cmp_file *f, char *why,
		      size_t len);

/** xl_calib_find() - @c's row of @r's exact identity, NULL when it has none. */
const struct xl_calib_row *xl_calib_find(const struct xl_calib *c, const struct xl_cmp_rowdata *r);

/**
 * xl_calib_prefers_corrected() - whether @r's A/A calibration flagged less
 * often on the corrected figure than on the raw one: for several runs a
 * side (@runs) its balanced splits when it has both kinds, else (and for
 * one run a side) its pairs; strictly fewer flags in proportion, over the
 * same comparisons, and not "too few" (a rate that cannot flag says
 * nothing). compare's --figure auto uses it per row (issue 19 item 2).
 */
bool xl_calib_prefers_corrected(const struct xl_calib_row *r, bool runs);

/** xl_calib_free() - free @c's rows. */
void xl_calib_free(struct xl_calib *c);

/**
 * xl_calib_print() - @c as text on @out: what was compared (@dir: the
 * runs' directory, named in the first line), a line per row (pairs and
 * splits flagged, their rates, "too few" where the runs cannot reach the
 * level), and the totals. Names from the files are escaped for a terminal.
 */
void xl_calib_print(FILE *out, const struct xl_calib *c, const char *dir);

#endif /* XDPLAB_CALIB_H */
