/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file labrows.h
 * The rows of `lab run`, in table order, written once: each row's name
 * (the word --rows takes), what it needs (the veth lab, an out pair), when
 * it runs (by default, or only when named), which options apply to it,
 * how many rows of the table it makes and the function that measures it.
 * The command's --rows, --dut's skips and --sensitivity read this table.
 */
#ifndef XDPLAB_LABROWS_H
#define XDPLAB_LABROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/labrun.h"
#include "xdplab/labrun_xsk.h"

/** Most rows the table holds (struct xl_labrow entries). */
#define XL_LABROWS_MAX 32

/** struct xl_labrow.flags */
enum {
	XL_LABROW_NAMED_ONLY = 1u << 0, /**< measured only when --rows names it */
	XL_LABROW_NEEDS_VETH = 1u << 1, /**< not on a --dut interface (@veth_why says why) */
	XL_LABROW_OUT_PAIR = 1u << 2,   /**< needs the lab's first out pair (the redirect target) */
	XL_LABROW_DROP = 1u << 3,       /**< a drop row: --extra-ns and --sensitivity apply */
	XL_LABROW_WATCH = 1u << 4,      /**< --with-monitor measures what watching it costs */
};

struct xl_labrow;

/**
 * struct xl_labrow_run - what one measurement of a row is asked for.
 * @mode: the XDP rows' attach mode (lab run --mode).
 * @size: frame bytes.
 * @watch: after a XL_LABROW_WATCH row, the rows of what watching it costs
 *   (xl_labrun_watch_cost(); lab run measures them at the first size).
 */
struct xl_labrow_run {
	enum xl_xdp_mode mode;
	uint32_t size;
	bool watch;
};

/**
 * struct xl_labrow - one row of `lab run`.
 * @name: the --rows word ("drop/parse-ip", "xsk-l2fwd/zc"...).
 * @kind: the row's kind in the table and the JSON ("gen", "xdp", "xsk",
 *   "stack", "tc").
 * @flags: XL_LABROW_*.
 * @what: with XL_LABROW_NAMED_ONLY, what it measures in a few words (the
 *   --rows help says it after the name: xl_labrow_named_help()).
 * @veth_why: with XL_LABROW_NEEDS_VETH, why (the skipped row's note).
 * @action/@op: XDP rows: the benchmark's action and packet operation.
 * @redir: redirect rows: devmap or cpumap.
 * @app/@xsk_mode/@zerocopy: AF_XDP rows: the application, its bind mode.
 * @base: stack-drop or tc-drop.
 * @nrows: rows of the table it makes at each size (0: 1; the meter-cost
 *   row: XL_METER_COST_ROWS).
 * @measure: measure @r into @rows (room for xl_labrow_nrows()); *@made
 *   set to the rows filled (a failed one included). Return: as the
 *   xl_labrun_*() it calls (0, -EINTR, -errno with the note saying why).
 */
struct xl_labrow {
	const char *name;
	const char *kind;
	unsigned int flags;
	const char *what;
	const char *veth_why;
	int action;
	enum xl_pkt_op op;
	enum xl_redir_kind redir;
	enum xl_xsk_app_kind app;
	enum xl_xdp_mode xsk_mode;
	bool zerocopy;
	enum xl_baseline base;
	int nrows;
	int (*measure)(struct xl_lab *lab, const struct xl_labrun_opts *o,
		       const struct xl_labrow *r, const struct xl_labrow_run *run,
		       struct xl_row_result *rows, int *made);
};

/**
 * struct xl_labrow_progress - what a run of rows says as it goes (lab
 * run's progress lines): @step before each measurement or search, with
 * what it is ("measuring drop/no-touch at 64 bytes", "zero-loss search of
 * drop/no-touch at 64 bytes"); @skip for a step that takes no time (a row
 * --dut skips); @ctx passed to both. A NULL member, or a NULL progress:
 * nothing said.
 */
struct xl_labrow_progress {
	void (*step)(void *ctx, const char *what);
	void (*skip)(void *ctx);
	void *ctx;
};

/** xl_labrow() - row @i of the table (0..), or NULL past its end. */
const struct xl_labrow *xl_labrow(int i);

/** xl_labrow_names() - the rows' names in table order, NULL-terminated (static). */
const char *const *xl_labrow_names(void);

/**
 * xl_labrow_named_help() - the rows run only when named, in table order,
 * as "NAME (WHAT), NAME (WHAT)" into @buf (@len bytes, cut to fit), for
 * the --rows help: a row added to the table is in it. Return: @buf.
 */
char *xl_labrow_named_help(char *buf, size_t len);

/**
 * xl_labrow_nrows() - how many rows of the table measuring @r with @watch
 * makes: its @nrows (1 unless it says), and with @watch on a
 * XL_LABROW_WATCH row its watch-cost rows (xl_labrun_watch_rows(@o)).
 */
int xl_labrow_nrows(const struct xl_labrow *r, const struct xl_labrun_opts *o, bool watch);

/**
 * xl_labrow_skip() - @r as a row that a --dut interface cannot measure
 * (XL_LABROW_NEEDS_VETH) at @size bytes: @row filled as skipped (verdict
 * n/a, the note "skipped: " and @r->veth_why), named as its measured row
 * would be. Return: true for such a row (else @row is untouched).
 */
bool xl_labrow_skip(const struct xl_labrow *r, const struct xl_lab *lab, uint32_t size,
		    struct xl_row_result *row);

#endif /* XDPLAB_LABROWS_H */
