/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labplan.h
 * What `lab run` measures on its lab, in order (docs/lab.md): at each
 * size, each row asked of the row table (xdplab/labrows.h; on a --dut
 * interface the rows that need the veth lab are skipped as such), the
 * watch-cost rows after their row at the first size, --ab's two programs
 * and --prog's; then --sensitivity's searches of the drop rows and
 * --latency's rows (the zero-loss searches are xl_ndr_rows_search()).
 * A row that fails is logged, keeps its note and marks the run failed;
 * the run goes on. A progress step is said before each measurement.
 */
#ifndef XDPLAB_LABPLAN_H
#define XDPLAB_LABPLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xdplab/hostrec.h"
#include "xdplab/lab.h"
#include "xdplab/labrows.h"
#include "xdplab/labrun.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/report.h"
#include "xdplab/userprog.h"

/**
 * struct xl_labplan - what one `lab run` asks for; all borrowed for the
 * run's life.
 * @o: the rows' options (repetitions, window, CPUs, the stop flag, the
 *	companion).
 * @rows: by xl_labrow() index, the rows asked.
 * @sizes/@nsizes: frame bytes, in order.
 * @mode: the XDP rows' attach mode.
 * @watch: --with-monitor: the watch-cost rows after their row (at the
 *	first size, when they fit).
 * @dut: on a --dut interface: rows that need the veth lab are skipped.
 * @ab/@ab_func: --ab's two objects (@ab[0] NULL: none) and their
 *	programs' function names (the rows' names).
 * @uo/@prog_func: --prog's object (@uo->path NULL: none) and its
 *	function's name.
 * @sensitivity, @latency (@lat_delay_ns: its receiver's busy wait, ns),
 *	@ndr_searches (xl_ndr_rows_count()): the steps after the rows, for
 *	xl_labplan_steps().
 * @host: the plans' companion's records (xdplab/hostrec.h), moved into
 *	each row after its plan; NULL: none.
 * @progress: the progress steps (NULL: none).
 */
struct xl_labplan {
	const struct xl_labrun_opts *o;
	const bool *rows;
	const uint32_t *sizes;
	int nsizes;
	enum xl_xdp_mode mode;
	bool watch, dut;
	const char *ab[2];
	const char *ab_func[2];
	const struct xl_userprog_opts *uo;
	const char *prog_func;
	bool sensitivity, latency;
	uint64_t lat_delay_ns;
	int ndr_searches;
	struct xl_hostrec *host;
	const struct xl_labrow_progress *progress;
};

/**
 * xl_labplan_steps() - how many progress steps @p makes (or skips): each
 * row asked at each size (a row with its watch-cost rows is one), --ab's
 * two sides at each repetition, --prog's row, the sensitivity searches,
 * the latency rows and the zero-loss searches.
 */
int xl_labplan_steps(const struct xl_labplan *p);

/**
 * xl_labplan_size() - the rows of size @p->sizes[@s] into @rows from *@n
 * on (room for @max in all; *@n advanced): the table's rows asked, then
 * --ab's and --prog's. A failed row is logged ("row NAME at SIZE bytes
 * failed: NOTE") and sets *@failed. Return: 0, or -EINTR when stopped
 * (the cut-short row's note says after how many repetitions).
 */
int xl_labplan_size(const struct xl_labplan *p, struct xl_lab *lab, int s,
		    struct xl_row_result *rows, int max, int *n, bool *failed);

/**
 * xl_labplan_sens() - --sensitivity: each drop row asked at each size,
 * its smallest detected cost into @sens from *@n on (room for @max;
 * *@n advanced), each result's sentence on @say ("xdplab: this lab
 * detects..."). A failed search is logged and sets *@failed.
 * Return: 0, or -EINTR when stopped.
 */
int xl_labplan_sens(const struct xl_labplan *p, struct xl_lab *lab, struct xl_sens_result *sens,
		    int max, int *n, bool *failed, FILE *say);

/**
 * xl_labplan_lat() - --latency: every path of enum xl_lat_path at
 * XL_LAT_LOW_PPS and unpaced, at each size, into @rows (room for @max;
 * *@n set to the rows made, a failed one included with its note, logged,
 * *@failed set). Return: 0, or -EINTR when stopped.
 */
int xl_labplan_lat(const struct xl_labplan *p, struct xl_lab *lab, struct xl_lat_row *rows,
		   int max, int *n, bool *failed);

/**
 * xl_labplan_header() - the table's header of @p on the veth lab @lab
 * into @header (@len bytes, cut to fit): the lab, the CPUs, the wiring,
 * the generator's engine and CPU, repetitions, window and warm-up, the
 * validity rule, the check; the watch-cost rows' and perf's method when
 * asked. (A --dut interface's header is the command's.)
 */
void xl_labplan_header(const struct xl_labplan *p, const struct xl_lab *lab, char *header,
		       size_t len);

/**
 * xl_labplan_header_extra() - with --extra-ns (@p->o->extra), its line
 * appended to @header (@len bytes in all).
 */
void xl_labplan_header_extra(const struct xl_labplan *p, char *header, size_t len);

/**
 * xl_labplan_header_sens() - the --sensitivity method's line and each of
 * @sens' (@nsens) sentences appended to @header (@len bytes in all).
 */
void xl_labplan_header_sens(const struct xl_labplan *p, const struct xl_sens_result *sens,
			    int nsens, char *header, size_t len);

struct xl_ndr_row;
struct xl_ndr_row_opts;

/**
 * xl_labplan_print() - what `lab run` prints after its rows, on @out: each
 * of @rows (@n) summarised (xl_row_finish(): an interrupted row keeps the
 * repetitions it completed), the table under @header, the host-speed
 * control's line, the latency rows (@lat, @nlat), the zero-loss searches
 * (@ndr, @nndr with @no; @ndr NULL: none asked) and the profiled rows.
 * Return: the run's reference control (xl_rows_print_ctl()), 0 without.
 */
double xl_labplan_print(const struct xl_labplan *p, FILE *out, struct xl_row_result *rows, int n,
			const char *header, const struct xl_lat_row *lat, int nlat,
			const struct xl_ndr_row *ndr, int nndr, const struct xl_ndr_row_opts *no);

/**
 * xl_labplan_extra_json() - the members `lab run` adds to its results
 * document after the rows (struct xl_report_meta.extra_json), as one JSON
 * object's text into *@out (free() it; NULL when there are none): the
 * latency rows (@lat NULL: --latency not asked; xl_lat_rows_json()) and
 * the zero-loss searches (@ndr NULL: --ndr not asked; xl_ndr_rows_json()
 * with @no and @extra_ns, -1 without --extra-ns), joined.
 * Return: 0, or -ENOMEM (*@out NULL).
 */
int xl_labplan_extra_json(const struct xl_lat_row *lat, int nlat, const struct xl_ndr_row *ndr,
			  int nndr, const struct xl_ndr_row_opts *no, double extra_ns, char **out);

/**
 * xl_lat_rows_print() - the latency rows' table on @out (@reps: each
 * row's repetitions asked; nothing without rows).
 */
void xl_lat_rows_print(FILE *out, const struct xl_lat_row *rows, int n, int reps);

#endif /* XDPLAB_LABPLAN_H */
