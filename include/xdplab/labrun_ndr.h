/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrun_ndr.h
 * Zero-loss throughput of a lab row (`xdplab ndr`, `lab run --ndr`;
 * docs/ndr.md): the search of xdplab/ndr.h with trials on the veth lab,
 * each one xl_plan_run() repetition (xdplab/plan.h): the row's DUT made,
 * its count read, the lab's generator sending a trial's worth of frames
 * at the asked rate, the count read again after a drain. Loss is frames
 * sent less frames counted at the row's counting point (the drop rows:
 * their program's count; xsk-rxdrop: the application's), so frames the
 * device refused count as lost. Then the stamped latency at 10, 50, 90
 * and 100% of the NDR, and optionally a longer fixed-rate check at the
 * NDR and 5% above it.
 */
#ifndef XDPLAB_LABRUN_NDR_H
#define XDPLAB_LABRUN_NDR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/bench.h"
#include "xdplab/labrows.h"
#include "xdplab/labrun.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/ndr.h"

/** The latency points, percent of the NDR. */
#define XL_NDR_LAT_POINTS { 10, 50, 90, 100 }
#define XL_NDR_NLAT 4

/** The fixed-rate check's step above the NDR, percent (the acceptance). */
#define XL_NDR_VERIFY_ABOVE_PCT 5

/**
 * struct xl_ndr_row_opts - how to search a row.
 * @search: bounds, resolution, loss shares (its @trial/@ctx/@stop are set
 *	by xl_labrun_ndr()).
 * @trial_ns: each trial's generator run, ns.
 * @latency: measure the latency points after the search.
 * @verify_ns: 0, or the length of two fixed-rate runs after the search:
 *	at the NDR and XL_NDR_VERIFY_ABOVE_PCT% above it.
 */
struct xl_ndr_row_opts {
	struct xl_ndr_opts search;
	uint64_t trial_ns;
	bool latency;
	uint64_t verify_ns;
};

/**
 * struct xl_ndr_row - one row's search and what followed it.
 * @name: the row ("drop/no-touch", "xsk-rxdrop/drv"); @size: frame bytes.
 * @engine: the generator's engine the trials ran with ("live", or
 *	"packet" after live frames were refused).
 * @wiring: the lab's wiring for the row; @trial_s: a trial's length, s.
 * @res: the search (trials, bounds, resolution, NDR, PDR).
 * @lat/@lat_pps/@nlat: the latency rows at XL_NDR_LAT_POINTS of the NDR
 *	(@nlat made; a failed one has its note); @lat_note: why there are
 *	none or fewer ("" when all were measured).
 * @verify/@nverify: the fixed-rate runs (rate, sent, received, loss).
 * @extra/@cal: a drop row searched with the --extra-ns busy loop (struct
 *	xl_labrun_opts.extra): its calibration, made once before the search
 *	(the DUT is made once), so every trial runs the same cost.
 * @note: "" or why the row has no result.
 */
struct xl_ndr_row {
	char name[40];
	uint32_t size;
	const char *engine;
	const char *wiring;
	double trial_s;
	struct xl_ndr_result res;
	struct xl_lat_row lat[XL_NDR_NLAT];
	uint64_t lat_pps[XL_NDR_NLAT];
	int nlat;
	char lat_note[160];
	struct xl_ndr_trial verify[2];
	int nverify;
	bool extra;
	struct xl_extra_cal cal;
	char note[200];
};

/**
 * xl_labrun_ndr_applies() - whether row @r can be searched: the drop rows
 * and xsk-rxdrop (a counting point that sees every frame the DUT took).
 */
bool xl_labrun_ndr_applies(const struct xl_labrow *r);

/**
 * xl_labrun_ndr() - search row @r (xl_labrun_ndr_applies()) at @size
 * bytes on @lab with @no; @o gives the CPUs, the generator's batch, the
 * stop flag and, for the drop rows, the --extra-ns busy loop (@o->extra,
 * @o->extra_ns; calibrated as lab run's rows are: @row->cal) (its reps
 * and seconds are not used). xsk rows run in softirq
 * wiring, as `lab run`'s do; the lab's wiring is restored after.
 * Return: 0 (@row filled, its search's outcome in @row->res), -ERANGE
 * (the search cannot converge: the generator's fastest is below the lower
 * bound; @row->note says what it reached), -EOPNOTSUPP (the DUT cannot
 * run the row, e.g. AF_XDP zero-copy on veth; @row->note), -EINVAL (@no
 * out of range; @row->note), -EINTR, or another -errno (@row->note).
 */
int xl_labrun_ndr(struct xl_lab *lab, const struct xl_labrun_opts *o,
		  const struct xl_ndr_row_opts *no, const struct xl_labrow *r, uint32_t size,
		  struct xl_ndr_row *row);

/**
 * xl_ndr_rows_json() - `{"ndr_config": {...}, "ndr": [...],
 * "latency_clock": ..., "latency_resolution": ...}`: @no (the targets,
 * trial length, bounds, resolution) and each of @rows (@n) with every
 * trial, the fixed-rate runs, NDR, PDR, bounds, resolution, engine, the
 * limited-by-the-generator flags and the latency points, as JSON text for
 * struct xl_report_meta.extra_json (docs/results.md "ndr's file");
 * @extra_ns >= 0: the drop rows ran with --extra-ns @extra_ns (ndr_config's
 * "extra_ns"; -1: without); with @command (not NULL) also `"command":
 * @command`. Return: the text (free() it) or NULL (ENOMEM).
 */
char *xl_ndr_rows_json(const struct xl_ndr_row *rows, int n, const struct xl_ndr_row_opts *no,
		       double extra_ns, const char *command);

/**
 * xl_ndr_rows_count() - how many searches xl_ndr_rows_search() makes of
 * @rows (by xl_labrow() index) at one size.
 */
int xl_ndr_rows_count(const bool *rows);

/**
 * xl_ndr_rows_search() - the searches of `xdplab ndr` and `lab run --ndr`
 * (src/lib/rows/ndr_rows.c): each row of @rows (by xl_labrow() index)
 * that xl_labrun_ndr_applies(), at each of @sizes (@nsizes), on @lab with
 * @o and @no, into @out (room for @max; *@n set to the rows made, a failed
 * one included with its note). A row that cannot be searched is one
 * logged line (AF_XDP zero-copy's refusal is the bind's own line) and
 * sets *@failed, but a refusal of the device (-EOPNOTSUPP) only with
 * @unsupported_fails. @progress: a step per search (NULL: none).
 * Return: 0, or -EINTR when stopped.
 */
int xl_ndr_rows_search(struct xl_lab *lab, const struct xl_labrun_opts *o,
		       const struct xl_ndr_row_opts *no, const bool *rows, const uint32_t *sizes,
		       int nsizes, const struct xl_labrow_progress *progress,
		       bool unsupported_fails, struct xl_ndr_row *out, int max, int *n,
		       bool *failed);

/**
 * xl_ndr_rows_print() - the rows' table on @out (row, size, engine, the
 * bounds, resolution, NDR and PDR and where each failed, trials, note),
 * then each row's trials, the --extra-ns calibration, the fixed-rate runs
 * and the latency points. Notes are escaped for a terminal.
 */
void xl_ndr_rows_print(FILE *out, const struct xl_ndr_row *rows, int n,
		       const struct xl_ndr_row_opts *no);

#endif /* XDPLAB_LABRUN_NDR_H */
